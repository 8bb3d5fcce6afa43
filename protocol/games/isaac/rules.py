"""ISAAC: fill the board with pieces, then remove them for points (rulings 1-4, SPEC.md).

The position is kept as bitboards and counts so that ``push``/``pop`` touch only
what a move changes and the undo stack holds a few scalars per move:

- ``_occ`` / ``_own[c]``: occupied cells, all and per colour;
- ``_los[c]`` + ``_seg_at_lo``: each piece is found from its lower end cell, so a
  colour's pieces come out in canonical (lo, hi) order by scanning bits;
- ``_hand[c]``: counts by length of the pieces never placed;
- ``_line_count``: how many pieces touch each of the 20 lines (rows 0..9,
  columns 10..19), kept only in the scoring phase, where the points need it.

Counters: Dark's counter for score s is on cell s (rank s//10, file s%10);
Light's for score u is on cell 99-u (Light's frame is Dark's turned 180 degrees).
A score of 100 or more takes the counter off the board and ends the game.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from protocol.board import (
    ALL_CELLS,
    COLOR_LETTER,
    COLOR_NAME,
    DARK,
    H_SEG,
    LENGTHS,
    LIGHT,
    SEGMENTS,
    V_SEG,
    Segment,
    any_placement,
    cell_name,
    count_placements,
    full_hand,
    hand_string,
    iter_placements,
    nth_cell,
    placement_starts,
)
from protocol.errors import GameOverError, IllegalMoveError
from protocol.game import Game, uniform_index
from protocol.moves import PASS, Move, Pass, Place, Remove
from protocol.position import PositionRecord, check_passes, check_turn_order
from protocol.state import GameEnd, Outcome, Phase, Piece

WIN_SCORE = 100
"""Reaching this score ends the game at once."""
TOP_CELL_SCORE = 99
"""The highest score a counter can show on the board."""


def _touched_lines(seg: Segment) -> tuple[int, ...]:
    """The lines (rows 0..9, columns 10..19) that a piece on `seg` has a cell on."""
    if seg.horizontal:
        return (seg.line,) + tuple(10 + c % 10 for c in seg.cells)
    return (seg.line,) + tuple(c // 10 for c in seg.cells)


TOUCHED_LINES = [_touched_lines(s) for s in SEGMENTS]
"""Indexed by Segment.index; a removal updates exactly these line counts."""
PLACE = [Place(s) for s in SEGMENTS]
"""One shared Place move per segment: move generation allocates nothing."""


def points(seg: Segment, pieces_on_line: int, counters: int) -> int:
    """Points for removing the piece on `seg` (ruling 2): its value times the other pieces on
    its line (`pieces_on_line` counts it too), doubled for each counter on that line
    (`counters`: bitboard of the counters' cells)."""
    return ((pieces_on_line - 1) * seg.value) << (counters & seg.line_mask).bit_count()


def counter_cell_for(color: int, score: int) -> int | None:
    """The cell of `color`'s counter at `score`, or None once it has reached 100."""
    if score > TOP_CELL_SCORE:
        return None
    return score if color == DARK else TOP_CELL_SCORE - score


def highest_score_on(color: int, cells: int, lo: int, hi: int, forbidden: int) -> int | None:
    """Highest score in lo..hi (<= 99) whose counter cell is in `cells`, skipping `forbidden`.

    Bit arithmetic on the mapping of counter_cell_for (Dark's score t on cell t,
    Light's on cell 99 - t); tests compare it with a loop over that function."""
    if color == DARK:
        window = cells >> lo & ((1 << (hi - lo + 1)) - 1)
        while window:
            t = lo + window.bit_length() - 1
            if t != forbidden:
                return t
            window &= ~(1 << (t - lo))
        return None
    # Light's score t sits on cell 99 - t: scores lo..hi are cells 99-hi..99-lo.
    a, b = TOP_CELL_SCORE - hi, TOP_CELL_SCORE - lo
    window = cells >> a & ((1 << (b - a + 1)) - 1)
    while window:
        low = window & -window
        t = TOP_CELL_SCORE - (a + low.bit_length() - 1)
        if t != forbidden:
            return t
        window ^= low
    return None


def _score_choices(s: int, top: int, forbidden: int) -> list[int]:
    """New scores allowed after earning top - s: s..min(99, top) minus the
    opponent's counter cell, plus `top` itself when it reaches 100."""
    out = [t for t in range(s, min(TOP_CELL_SCORE, top) + 1) if t != forbidden]
    if top >= WIN_SCORE:
        out.append(top)
    return out


def _score_choice_count(s: int, top: int, forbidden: int) -> int:
    """len(_score_choices(...)) without building the list."""
    hi = min(TOP_CELL_SCORE, top)
    return hi - s + 1 - (s <= forbidden <= hi) + (top >= WIN_SCORE)


def _lengths_in(hand: list[int]) -> list[int]:
    """Distinct lengths present in a hand, ascending (what count_placements wants)."""
    return [n for n in LENGTHS if hand[n]]


def unplayed_line(hand: tuple[int, ...] | list[int]) -> tuple[int, int]:
    """(cells, pieces) of the line a hand of never-placed pieces makes: the tie-break measure."""
    return sum(n * hand[n] for n in LENGTHS), sum(hand[n] for n in LENGTHS)


def tiebreak(dark_hand: tuple[int, ...], light_hand: tuple[int, ...]) -> tuple[int, str]:
    """(winner, reason) at equal scores: the longer line of never-placed pieces wins (ruling 4);
    equal cells: the line of fewer pieces is longer; all equal: Dark wins."""
    (cd, pd), (cl, pl) = unplayed_line(dark_hand), unplayed_line(light_hand)
    cells, count = (cd, cl), (pd, pl)
    if cd != cl:
        w = DARK if cd > cl else LIGHT
        return w, (f"equal scores; {COLOR_NAME[w]}'s unplayed line is longer "
                   f"({cells[w]} cells to {cells[1 - w]})")
    if pd != pl:
        w = DARK if pd < pl else LIGHT
        return w, (f"equal scores and unplayed lines of {cd} cells; {COLOR_NAME[w]}'s has fewer "
                   f"pieces ({count[w]} to {count[1 - w]}), so it is longer")
    return DARK, "equal scores and lines; Dark wins ties"


_Undo = tuple[Move, int, tuple[int, ...], bool, int, int, int]
"""(move, mover, passes, scoring, Dark's score, Light's score, mover's longest removed) before a move."""


class IsaacGame(Game):
    """An ISAAC position with its undo stack."""

    name = "isaac"

    def __init__(self) -> None:
        self._occ = 0
        self._own = [0, 0]
        self._los = [0, 0]
        self._seg_at_lo: list[Segment | None] = [None] * 100
        self._hand = [full_hand(), full_hand()]
        self._line_count = [0] * 20
        self._turn = DARK
        self._passes: tuple[int, ...] = ()
        self._scoring = False
        self._scores = [0, 0]
        self._removed_max = [0, 0]
        self._stack: list[_Undo] = []

    # -- construction -------------------------------------------------------
    @classmethod
    def from_position(cls, text: str) -> IsaacGame:
        rec, gone = cls.parse_position(text)
        game = cls()
        for color in (DARK, LIGHT):
            for entry in rec.pieces[color]:
                game._put(color, entry.segment)
            game._hand[color] = list(rec.hands[color])
            game._removed_max[color] = max((n for n in LENGTHS if gone[color][n]), default=0)
        game._turn = rec.turn
        game._passes = tuple(rec.passes)
        game._scoring = rec.phase == "score"
        game._scores = list(rec.scores or (0, 0))
        if game._scoring:
            game._validate_scoring(rec, gone)
            game._count_lines()
        else:
            game._validate_placement(rec, gone)
        return game

    def _validate_placement(self, rec: PositionRecord, gone: list[list[int]]) -> None:
        """Reject what the placement phase cannot produce (see SPEC.md)."""
        for color in (DARK, LIGHT):
            missing = [n for n in LENGTHS for _ in range(gone[color][n])]
            if missing:
                raise rec.error(
                    "hands", f"{COLOR_NAME[color]} is missing pieces of length "
                    f"{','.join(map(str, missing))}: in the placement phase every piece is on "
                    "the board or in hand")
        if tuple(self._scores) != (0, 0):
            raise rec.error("scores", "scores stay 0/0 until the scoring phase")
        if len(self._passes) == 2:
            raise rec.error(
                "passes", "both players have passed, so the scoring phase has begun "
                "(write phase 'score' with passes '-')")
        check_passes(rec, False)
        empty = ALL_CELLS ^ self._occ
        for color in self._passes:
            fit = self._first_fit(empty, self._hand[color])
            if fit is not None:
                raise rec.error(
                    "passes", f"{COLOR_NAME[color]} has passed but its piece of length "
                    f"{fit.length} still fits (e.g. {fit.name})")
        self._check_placement_turn(rec)

    def _check_placement_turn(self, rec: PositionRecord) -> None:
        """Dark places first and turns alternate until someone passes."""
        check_turn_order(rec, (len(self.pieces(DARK)), len(self.pieces(LIGHT))), "placed", "pieces")

    def _validate_scoring(self, rec: PositionRecord, gone: list[list[int]]) -> None:
        """Reject what the scoring phase cannot produce (see SPEC.md)."""
        d, u = self._scores
        if d >= WIN_SCORE and u >= WIN_SCORE:
            raise rec.error("scores", "only one player can reach 100: the game ends at once")
        for color in (DARK, LIGHT):
            if self._scores[color] > 0 and not any(gone[color]):
                raise rec.error(
                    "scores", f"{COLOR_NAME[color]} has {self._scores[color]} points but has "
                    "removed no piece")
        if d < WIN_SCORE and u < WIN_SCORE and d == TOP_CELL_SCORE - u:
            raise rec.error(
                "scores", f"both counters would be on {cell_name(d)}; a counter never lands "
                "on the opponent's")
        winner = self._winner_by_100()
        if winner is not None and (len(self._passes) == 2 or winner in self._passes):
            raise rec.error(
                "passes", f"{COLOR_NAME[winner]} reached 100, so it cannot have passed "
                "and the game cannot have gone on to two passes")
        if not any(gone[DARK]) and not any(gone[LIGHT]):
            empty = ALL_CELLS ^ self._occ
            for color in (DARK, LIGHT):
                fit = self._first_fit(empty, self._hand[color])
                if fit is not None:
                    raise rec.error(
                        "hands", f"no piece has been removed, so placement has just ended, "
                        f"but {COLOR_NAME[color]}'s piece of length {fit.length} still fits "
                        f"(e.g. {fit.name})")
        check_passes(rec, self.is_over())

    @staticmethod
    def _first_fit(empty: int, hand: list[int]) -> Segment | None:
        for n in _lengths_in(hand):
            for seg in iter_placements(empty, n):
                return seg
        return None

    def position(self) -> str:
        pieces = "/".join(",".join(s.name for s in self.pieces(c)) or "-" for c in (DARK, LIGHT))
        hands = "/".join(hand_string(self._hand[c]) for c in (DARK, LIGHT))
        passes = "".join(COLOR_LETTER[c] for c in self._passes) or "-"
        phase = "score" if self._scoring else "place"
        return (f"isaac {pieces} {hands} {COLOR_LETTER[self._turn]} {passes} {phase} "
                f"{self._scores[0]}/{self._scores[1]}")

    def copy(self) -> IsaacGame:
        g = IsaacGame.__new__(IsaacGame)
        g._occ = self._occ
        g._own = list(self._own)
        g._los = list(self._los)
        g._seg_at_lo = list(self._seg_at_lo)
        g._hand = [list(h) for h in self._hand]
        g._line_count = list(self._line_count)
        g._turn = self._turn
        g._passes = self._passes
        g._scoring = self._scoring
        g._scores = list(self._scores)
        g._removed_max = list(self._removed_max)
        g._stack = []
        return g

    def scoring_key(self) -> tuple[int, int, int, int, int, int, tuple[int, ...]]:
        """A hashable key for a transposition table over one scoring phase.

        Exact among positions reached by removals and passes from one scoring-phase
        position: pieces only leave the board there, and they never overlap, so the
        occupied cells name the pieces still on it (the hands are fixed, the counters
        follow the scores). Not a key across different scoring phases."""
        return (self._occ, self._scores[0], self._scores[1], self._removed_max[0], self._removed_max[1],
                self._turn, self._passes)

    # -- state --------------------------------------------------------------
    @property
    def turn(self) -> int:
        return self._turn

    @property
    def phase(self) -> Phase:
        """PLACE or SCORE (equal to the strings 'place' and 'score')."""
        return Phase.SCORE if self._scoring else Phase.PLACE

    @property
    def scores(self) -> tuple[int, int]:
        return self._scores[0], self._scores[1]

    @property
    def passes(self) -> tuple[int, ...]:
        """Who has passed in the current phase, first passer first."""
        return self._passes

    def pieces(self, color: int) -> list[Segment]:
        """`color`'s pieces on the board in canonical order."""
        out = []
        at: list[Segment] = self._seg_at_lo  # type: ignore[assignment]  # set at every lo bit
        los = self._los[color]
        while los:
            low = los & -los
            los ^= low
            out.append(at[low.bit_length() - 1])
        return out

    def board(self) -> Iterator[Piece]:
        for color in (DARK, LIGHT):
            for seg in self.pieces(color):
                yield Piece(color, seg)

    def hand(self, color: int) -> tuple[int, ...]:
        """Counts by length (index 0..7) of `color`'s pieces never placed."""
        return tuple(self._hand[color])

    def longest_removed(self, color: int) -> int:
        """Length of `color`'s longest removed piece (0 if none): the removal minimum."""
        return self._removed_max[color]

    @property
    def counters(self) -> tuple[int | None, int | None]:
        """Cells of (Dark, Light)'s counters; (None, None) in the placement phase."""
        return self.counter_cell(DARK), self.counter_cell(LIGHT)

    def counter_cell(self, color: int) -> int | None:
        """Cell of `color`'s counter; None in the placement phase or after reaching 100."""
        if not self._scoring:
            return None
        return counter_cell_for(color, self._scores[color])

    def earned(self, seg: Segment) -> int:
        """Points removing the piece on `seg` would earn now (counters before moving)."""
        return self._earned(seg, self._counter_mask())

    def _counter_mask(self) -> int:
        mask = 0
        for color in (DARK, LIGHT):
            cell = counter_cell_for(color, self._scores[color])
            if cell is not None:
                mask |= 1 << cell
        return mask

    def _earned(self, seg: Segment, counters: int) -> int:
        return points(seg, self._line_count[seg.line], counters)

    def _winner_by_100(self) -> int | None:
        for color in (DARK, LIGHT):
            if self._scores[color] >= WIN_SCORE:
                return color
        return None

    def is_over(self) -> bool:
        return self._scoring and (
            len(self._passes) == 2 or self._scores[0] >= WIN_SCORE or self._scores[1] >= WIN_SCORE)

    def result(self) -> Outcome | None:
        if not self.is_over():
            return None
        scores = self.scores
        winner = self._winner_by_100()
        if winner is not None:
            return Outcome(winner, GameEnd.SCORE_LIMIT, scores, f"{COLOR_NAME[winner]} reached 100")
        if scores[0] != scores[1]:
            winner = DARK if scores[0] > scores[1] else LIGHT
            return Outcome(winner, GameEnd.BOTH_PASSED, scores, f"{COLOR_NAME[winner]} has the higher score")
        winner, reason = tiebreak(self.hand(DARK), self.hand(LIGHT))
        return Outcome(winner, GameEnd.BOTH_PASSED, scores, reason)

    # -- move generation ----------------------------------------------------
    def removal_options(self) -> list[tuple[Segment, int]]:
        """(piece, s + earned) for each piece the side to move may remove now (scoring phase)."""
        return list(self._removal_options()) if self._scoring and not self.is_over() else []

    def new_score_choices(self, seg: Segment) -> list[int]:
        """Every new score the side to move may choose when removing `seg` (assumed removable)."""
        s = self._scores[self._turn]
        return _score_choices(s, s + self.earned(seg), self._forbidden_score())

    def _removal_options(self) -> Iterator[tuple[Segment, int]]:
        """(piece, s + earned) for each piece the side to move may remove, canonical order."""
        c = self._turn
        s = self._scores[c]
        counters = self._counter_mask()
        minimum = self._removed_max[c]
        at: list[Segment] = self._seg_at_lo  # type: ignore[assignment]  # set at every lo bit
        los = self._los[c]
        while los:
            low = los & -los
            los ^= low
            seg = at[low.bit_length() - 1]
            if seg.length >= minimum and not seg.mask & counters:
                yield seg, s + self._earned(seg, counters)

    def _forbidden_score(self) -> int:
        """The new score whose cell is the opponent's counter."""
        return TOP_CELL_SCORE - self._scores[self._turn ^ 1]

    def legal_moves(self) -> Iterator[Move]:
        if self.is_over():
            return
        if not self._scoring:
            empty = ALL_CELLS ^ self._occ
            found = False
            for n in _lengths_in(self._hand[self._turn]):
                for seg in iter_placements(empty, n):
                    found = True
                    yield PLACE[seg.index]
            if not found:
                yield PASS
            return
        s = self._scores[self._turn]
        forbidden = self._forbidden_score()
        found = False
        for seg, top in list(self._removal_options()):
            for t in _score_choices(s, top, forbidden):
                found = True
                yield Remove(seg, t)
        if not found:
            yield PASS

    def count_legal_moves(self) -> int:
        if self.is_over():
            return 0
        if not self._scoring:
            return count_placements(ALL_CELLS ^ self._occ, _lengths_in(self._hand[self._turn])) or 1
        s = self._scores[self._turn]
        forbidden = self._forbidden_score()
        total = sum(_score_choice_count(s, top, forbidden) for _, top in self._removal_options())
        return total or 1

    def random_move(self, rng: random.Random) -> Move | None:
        """Uniform over legal_moves(), found by index without listing the moves."""
        if self.is_over():
            return None
        if not self._scoring:
            return self.random_placements(rng, 1)[0]
        s = self._scores[self._turn]
        forbidden = self._forbidden_score()
        options = list(self._removal_options())
        pick = uniform_index(rng, [_score_choice_count(s, top, forbidden) for _, top in options])
        if pick is None:
            return PASS
        seg, top = options[pick[0]]
        return Remove(seg, _score_choices(s, top, forbidden)[pick[1]])

    def random_placements(self, rng: random.Random, k: int) -> list[Move]:
        """`k` placements drawn as `k` calls of random_move would draw them in the placement
        phase (the same draws from `rng`, the same moves), counting the placements once for
        all of them; [PASS] when nothing fits. Playouts draw a few and keep the best."""
        empty = ALL_CELLS ^ self._occ
        groups: list[tuple[int, list[Segment]]] = []
        for n in _lengths_in(self._hand[self._turn]):
            h, v = placement_starts(empty, n)
            groups += ((h, H_SEG[n]), (v, V_SEG[n]))
        counts = [bits.bit_count() for bits, _ in groups]
        drawn: list[Move] = []
        for _ in range(k):
            pick = uniform_index(rng, counts)
            if pick is None:
                return [PASS]
            bits, table = groups[pick[0]]
            drawn.append(PLACE[table[nth_cell(bits, pick[1])].index])
        return drawn

    # -- checking -----------------------------------------------------------
    def parse_move(self, text: str) -> Move:
        from protocol.notation import parse_move  # grammar loads on first use

        return self.check_move(parse_move(self.name, text))

    def check_move(self, move: Move) -> Move:
        text = str(move)
        if self.is_over():
            raise GameOverError(text)
        if isinstance(move, Pass):
            example = next(self.legal_moves())
            if example is not PASS:
                raise IllegalMoveError(text, f"cannot pass while a move exists (e.g. {example})")
            return PASS
        canonical: Move = move
        if isinstance(move, Place):
            reason = self._placement_problem(move)
            canonical = PLACE[move.segment.index]
        elif isinstance(move, Remove):
            reason = self._removal_problem(move)
        else:
            reason = "not an ISAAC move (ISAAC moves look like c3c7, xc3c7:36 or pass)"
        if reason:
            if next(self.legal_moves()) is PASS:
                reason += "; no move is legal, so you must pass"
            raise IllegalMoveError(text, reason)
        return canonical

    def _placement_problem(self, move: Place) -> str | None:
        seg = move.segment
        if self._scoring:
            return ("wrong phase: the placement phase is over; remove one of your pieces "
                    "(x<segment>:<score>)")
        if move.level != 1:
            return "ISAAC has no levels: write the segment without ^"
        if not self._hand[self._turn][seg.length]:
            return (f"no piece of length {seg.length} in hand "
                    f"(hand: {hand_string(self._hand[self._turn])})")
        if seg.mask & self._occ:
            color, other = self._piece_overlapping(seg.mask)
            return f"{seg.name} overlaps {COLOR_NAME[color]}'s piece {other.name}"
        return None

    def _piece_overlapping(self, mask: int) -> tuple[int, Segment]:
        for color in (DARK, LIGHT):
            for other in self.pieces(color):
                if other.mask & mask:
                    return color, other
        raise AssertionError("mask does not overlap any piece")

    def _removal_problem(self, move: Remove) -> str | None:
        seg, t = move.segment, move.score
        c = self._turn
        if not self._scoring:
            return "wrong phase: pieces are removed only in the scoring phase; place a piece (c3c7)"
        if self._seg_at_lo[seg.lo] is not seg:
            if seg.mask & self._occ:
                color, other = self._piece_overlapping(seg.mask)
                return (f"no piece lies exactly on {seg.name} "
                        f"({COLOR_NAME[color]}'s piece {other.name} is there)")
            return f"no piece lies on {seg.name}"
        if not self._own[c] & seg.mask:
            return f"not your piece: {seg.name} is {COLOR_NAME[c ^ 1]}'s"
        for color in (DARK, LIGHT):
            cell = counter_cell_for(color, self._scores[color])
            if cell is not None and seg.mask >> cell & 1:
                return f"{seg.name} is covered by {COLOR_NAME[color]}'s counter on {cell_name(cell)}"
        if seg.length < self._removed_max[c]:
            return (f"{seg.name} (length {seg.length}) is shorter than your longest removed "
                    f"piece ({self._removed_max[c]})")
        return self._new_score_problem(seg, t)

    def _new_score_problem(self, seg: Segment, t: int) -> str | None:
        s = self._scores[self._turn]
        earned = self.earned(seg)
        top = s + earned
        if t == top and top >= WIN_SCORE:
            return None
        hi = min(TOP_CELL_SCORE, top)
        if not s <= t <= hi:
            also = f" or exactly {top}, which ends the game" if top >= WIN_SCORE else ""
            return (f"score {t} out of range {s}..{hi}{also}: removing {seg.name} "
                    f"earns {earned} from {s}")
        if t == self._forbidden_score():
            opp = self._turn ^ 1
            cell = counter_cell_for(opp, self._scores[opp])
            assert cell is not None  # the forbidden score exists only while that counter is on the board
            return f"score {t} lands on {COLOR_NAME[opp]}'s counter on {cell_name(cell)}"
        return None

    # -- making and unmaking moves -----------------------------------------
    def _put(self, color: int, seg: Segment) -> None:
        m = seg.mask
        self._occ |= m
        self._own[color] |= m
        self._los[color] |= 1 << seg.lo
        self._seg_at_lo[seg.lo] = seg

    def _take(self, color: int, seg: Segment) -> None:
        m = seg.mask
        self._occ ^= m
        self._own[color] ^= m
        self._los[color] ^= 1 << seg.lo
        self._seg_at_lo[seg.lo] = None

    def _count_lines(self) -> None:
        """Recount pieces per line; needed once when the scoring phase begins."""
        counts = [0] * 20
        for seg in self._seg_at_lo:
            if seg is not None:
                for line in TOUCHED_LINES[seg.index]:
                    counts[line] += 1
        self._line_count = counts

    def push(self, move: Move) -> None:
        c = self._turn
        self._stack.append((move, c, self._passes, self._scoring,
                            self._scores[0], self._scores[1], self._removed_max[c]))
        if type(move) is Place:
            self._put(c, move.segment)
            self._hand[c][move.segment.length] -= 1
        elif type(move) is Remove:
            seg = move.segment
            self._take(c, seg)
            lc = self._line_count
            for line in TOUCHED_LINES[seg.index]:
                lc[line] -= 1
            self._removed_max[c] = seg.length
            self._scores[c] = move.score
        else:
            self._push_pass(c)
            return
        self._turn = c if (c ^ 1) in self._passes else c ^ 1

    def _push_pass(self, c: int) -> None:
        """A pass finishes `c` for the phase; the second pass ends the phase (ruling 1, 3)."""
        passes = self._passes + (c,)
        first = passes[0]
        if len(passes) < 2:
            self._passes = passes
            self._turn = c ^ 1
        elif not self._scoring:
            self._scoring = True
            self._passes = ()
            self._turn = first
            self._count_lines()
        else:
            self._passes = passes
            self._turn = first

    def pop(self) -> Move:
        move, c, passes, scoring, s0, s1, removed_max = self._stack.pop()
        if type(move) is Place:
            self._take(c, move.segment)
            self._hand[c][move.segment.length] += 1
        elif type(move) is Remove:
            seg = move.segment
            self._put(c, seg)
            lc = self._line_count
            for line in TOUCHED_LINES[seg.index]:
                lc[line] += 1
        self._turn = c
        self._passes = passes
        self._scoring = scoring
        self._scores[0] = s0
        self._scores[1] = s1
        self._removed_max[c] = removed_max
        return move

    # -- counting -----------------------------------------------------------
    def perft(self, depth: int) -> int:
        """Leaf moves are counted, never built; placement depth 2 skips push/pop too."""
        if depth == 2 and not self._scoring:
            total = self._placement_perft2()
            if total is not None:
                return total
        return super().perft(depth)  # counts the last ply with count_legal_moves

    def _placement_perft2(self) -> int | None:
        """perft(2) from a placement position where the mover can place (else None).

        After each placement the next player is the opponent, or the mover again
        if the opponent has passed; its move count is its placements, or 1 (pass).
        """
        c = self._turn
        hand = self._hand[c]
        mine = _lengths_in(hand)
        empty = ALL_CELLS ^ self._occ
        if not any_placement(empty, mine):
            return None
        alone = (c ^ 1) in self._passes
        theirs = _lengths_in(self._hand[c ^ 1])
        total = 0
        for n in mine:
            if not alone:
                nxt = theirs
            else:
                nxt = mine if hand[n] > 1 else [m for m in mine if m != n]
            h, v = placement_starts(empty, n)
            for bits, table in ((h, H_SEG[n]), (v, V_SEG[n])):
                while bits:
                    low = bits & -bits
                    bits ^= low
                    k = count_placements(empty ^ table[low.bit_length() - 1].mask, nxt)
                    total += k or 1
        return total
