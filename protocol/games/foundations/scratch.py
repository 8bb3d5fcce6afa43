"""FOUNDATIONS scratch positions: the rules' move generator over plain copies, for playouts.

A search plays hundreds of throwaway games a move, and in them FoundationsGame's
Move objects, undo stack, generators and method-per-question design cost more
than the bitboard work itself. A scratch position is a one-way copy: it answers
the two questions a playout asks (the shortest length that fits, and every
length that fits on that level) in one call each, takes placements as
(segment, level) with no undo, and is thrown away at the end.

The generation is FoundationsGame's (protocol.games.foundations.bits, the same order
of lengths and start cells); tests/engine/games/foundations/test_foundations_playout_policy.py plays games on both
and checks that they agree ply by ply.
"""

from __future__ import annotations

from protocol.board import (
    ALL_CELLS,
    DARK,
    H_START,
    LENGTHS,
    LIGHT,
    V_START,
    Segment,
    hand_value,
    placement_starts,
)

from .bits import MAX_LEVEL, deciding_level, upper_starts

Group = tuple[int, int, int]
"""(length, horizontal start cells, vertical start cells) of one length's placements."""


class FoundationsScratch:
    """A throwaway FOUNDATIONS position: copied from a game, played forward only."""

    __slots__ = ("turn", "passed", "hand", "occ", "own", "pieces", "level", "minlen", "top")

    def __init__(self, turn: int, passed: tuple[int, ...], hand: list[list[int]], occ: list[int],
                 own: list[list[int]], pieces: list[list[list[Segment]]], level: list[int],
                 minlen: list[int], top: int) -> None:
        """Copies of FoundationsGame's state (FoundationsGame.scratch() builds one)."""
        self.turn = turn
        self.passed = list(passed)
        self.hand = [list(hand[DARK]), list(hand[LIGHT])]
        self.occ = list(occ)
        self.own = [list(own[DARK]), list(own[LIGHT])]
        self.pieces = [[list(on_level) for on_level in pieces[c]] for c in (DARK, LIGHT)]
        self.level = list(level)
        self.minlen = list(minlen)
        self.top = top

    def is_over(self) -> bool:
        return len(self.passed) == 2

    def free_cells(self, level: int) -> int:
        """Cells a piece may use on `level`: empty there and under no piece of a higher level."""
        occ = self.occ
        blocked = occ[level]
        for j in range(level + 1, self.top + 1):
            blocked |= occ[j]
        return ALL_CELLS & ~blocked

    def shortest(self) -> tuple[int, int, int, int] | None:
        """(level, length, horizontal starts, vertical starts) of the mover's shortest legal
        length, as FoundationsGame.shortest_group(); None when it must pass or the game is over.

        One call with everything inlined: a playout asks it at every ply."""
        if len(self.passed) == 2:
            return None
        color = self.turn
        hand = self.hand[color]
        pieces = self.pieces[color]
        occ = self.occ
        top = self.top
        level = self.level[color]
        minimum = self.minlen[color]
        for lv in (level, level + 1):
            if lv > MAX_LEVEL or (lv > 1 and len(pieces[lv - 1]) < 2):
                minimum = 0
                continue
            blocked = occ[lv]
            for j in range(lv + 1, top + 1):
                blocked |= occ[j]
            free = ALL_CELLS & ~blocked
            if lv == 1:
                h = v = free
                k = 1
                for n in LENGTHS:
                    if n >= minimum and hand[n]:
                        while k < n:
                            h &= free >> k
                            v &= free >> (10 * k)
                            k += 1
                        hs, vs = h & H_START[n], v & V_START[n]
                        if hs or vs:
                            return lv, n, hs, vs
            else:
                for n in LENGTHS:
                    if n >= minimum and hand[n]:
                        hs, vs = upper_starts(self.own[color][lv - 1], pieces[lv - 1], n, free)
                        if hs or vs:
                            return lv, n, hs, vs
            minimum = 0
        return None

    def buildable(self, color: int, level: int) -> bool:
        """Whether `level` exists and `color` could build on it at all: level 1, or two own
        pieces on the level below to rest on (FoundationsGame's rule)."""
        return level <= MAX_LEVEL and (level == 1 or len(self.pieces[color][level - 1]) >= 2)

    def starts(self, color: int, level: int, n: int, free: int) -> tuple[int, int]:
        """Start bitboards (horizontal, vertical) of `color`'s legal length-n placements on a
        buildable `level` whose free cells are `free` (order and hand not checked: for evaluations)."""
        if level == 1:
            return placement_starts(free, n)
        return upper_starts(self.own[color][level - 1], self.pieces[color][level - 1], n, free)

    def groups_from(self, level: int, n: int) -> list[Group]:
        """Every length >= n in the mover's hand with a legal placement on `level`, shortest first.

        Called with shortest()'s level and length, these are FoundationsGame.placement_groups()."""
        color = self.turn
        hand = self.hand[color]
        free = self.free_cells(level)
        out = []
        for m in LENGTHS:
            if m >= n and hand[m]:
                h, v = self.starts(color, level, m, free)
                if h or v:
                    out.append((m, h, v))
        return out

    def place(self, seg: Segment, level: int) -> None:
        """Play a placement shortest()/groups_from() offered (it is not checked)."""
        color = self.turn
        mask = seg.mask
        self.occ[level] |= mask
        self.own[color][level] |= mask
        self.pieces[color][level].append(seg)
        self.hand[color][seg.length] -= 1
        self.level[color] = level
        self.minlen[color] = seg.length
        if level > self.top:
            self.top = level
        if 1 - color not in self.passed:
            self.turn = 1 - color

    def pass_turn(self) -> None:
        """The mover passes (when shortest() found nothing); it is finished."""
        self.passed.append(self.turn)
        self.turn = 1 - self.turn

    def hand_value(self, color: int) -> int:
        return hand_value(self.hand[color])

    def winner(self) -> int | None:
        """Who wins if the game ends here (SPEC: lower value in hand, then fewer points level by
        level from the top); None for a draw."""
        dark, light = self.hand_value(DARK), self.hand_value(LIGHT)
        if dark != light:
            return DARK if dark < light else LIGHT
        decided = deciding_level(self.pieces, self.top)
        if decided is None:
            return None
        return DARK if decided[1] < decided[2] else LIGHT
