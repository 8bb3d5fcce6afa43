"""The HARI moves worth looking at: the snuggest placements of each length, one own slide that makes room, blocks.

A HARI position can have a million moves (every subset of slides times every play), so
candidates are built, not enumerated. Every search and partner of the engine builds its
HARI candidates here:

- plays without slides: for each playable length its snuggest placements (``snug_spots``,
  fewest free neighbours first), and the discard of the shortest piece;
- one own piece slid (along its line, or off the board) to make room, then a placement
  that uses the freed cells (``slide_candidates``): only for lengths with little or no room
  without slides (early on, when everything fits, sliding only costs flexibility), and only
  within the value budget. Every one is checked with ``check_move``: the rules stay in
  protocol/games/hari/rules.py;
- blocks (``block_candidates``, at most ``blocks`` of them): one own piece slid along its line
  into the room of the opponent's next piece, then our shortest length that may follow on its
  snuggest spot anywhere: the replies that take room away rather than make it;
- placement blocks (``placement_blocks``, at most ``place_blocks`` of them): plain placements on
  the room of the opponent's next piece, those taking most of it first. Near the end of a game the
  move that wins is often the one that leaves the opponent's last long piece no line, and it is
  seldom among the snuggest.

The C core (engine/games/hari/_search_core.c) mirrors ``candidates`` move for move.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.games.packing import NEIGHBOURS, dead_cells, pack_value
from protocol.board import (
    ALL_CELLS,
    VALUE,
    Segment,
    count_placements,
    iter_placements,
    placement_starts,
    segments_from_starts,
)
from protocol.errors import IllegalMoveError
from protocol.games.hari.rules import HariGame, slide_ends, within_budget
from protocol.moves import PASS, HariMove, Move, Slide

from .race import COVERS, hand_queue, touching


def snug_spots(empty: int, n: int) -> list[tuple[int, Segment]]:
    """(free neighbours, placement) of every placement of length n in `empty`, in the rules' order."""
    return [((NEIGHBOURS[seg.index] & empty).bit_count(), seg) for seg in iter_placements(empty, n)]


def candidates(game: HariGame, per_length: int, scarce: int, slide_max: int, blocks: int = 0,
               place_blocks: int = 0) -> list[Move]:
    """Moves worth searching for the side to move, a good guess first; [PASS] when it must pass.

    Per playable length its `per_length` snuggest placements, ordered by the shorter pieces
    they give up, snugness and value; the discard of the shortest piece; one own piece slid
    to make room for a length with fewer than `scarce` placements (the best `slide_max` of
    slide_candidates); the best `blocks` of block_candidates not among those; the best
    `place_blocks` of placement_blocks not among any of those."""
    base = next(game.slide_sets(), None)
    if base is None:
        return [PASS]
    me = game.turn
    empty = base.empty
    lengths = game.playable_lengths(me)
    hand = game.hand(me)
    scored: list[tuple[float, Move]] = []
    counts: dict[int, int] = {}
    killed = 0
    for n in lengths:
        spots = snug_spots(empty, n)
        counts[n] = len(spots)
        spots.sort(key=lambda s: (s[0], s[1].lo))
        for snug, seg in spots[:per_length]:
            scored.append((killed + 0.3 * snug - 0.5 * VALUE[n], HariMove((), seg, 0)))
        killed += VALUE[n] * hand[n]
    scored.sort(key=lambda kv: kv[0])
    moves = [m for _, m in scored]
    moves.append(HariMove((), None, lengths[0]))
    opp_next = hand_queue(game, 1 - me)[:4]
    slides = [move for _, move in slide_candidates(game, empty, counts, opp_next, scarce, slide_max)]
    moves.extend(slides)
    moves.extend(block_candidates(game, empty, lengths, blocks, slides))
    moves.extend(placement_blocks(game, empty, lengths, place_blocks, moves))
    return moves


def placement_blocks(game: HariGame, empty: int, lengths: Sequence[int], count: int,
                     made: Sequence[Move]) -> list[Move]:
    """At most `count` placements (no slide) of our `lengths` on the room of the opponent's next
    piece (its shortest playable length), ranked by the placements of it each takes less a tenth of
    its free neighbours (ties in the order of `lengths`, then the rules'); placements in `made` left
    out. None once the opponent has passed."""
    opp = 1 - game.turn
    theirs = game.playable_lengths(opp)
    if count <= 0 or opp in game.passes or not theirs:
        return []
    seen = {m.place for m in made if isinstance(m, HariMove) and not m.slides and m.place is not None}
    next_h, next_v = placement_starts(empty, theirs[0])
    found: list[tuple[float, Move]] = []
    for n in lengths:
        for seg in segments_from_starts(*placement_starts(empty, n), n):
            if seg in seen:
                continue
            cover_h, cover_v = COVERS[theirs[0]][seg.index]  # the opponent's placements it overlaps
            taken = (next_h & cover_h).bit_count() + (next_v & cover_v).bit_count()
            if taken > 0:
                found.append((taken - 0.1 * (NEIGHBOURS[seg.index] & empty).bit_count(), HariMove((), seg, 0)))
    found.sort(key=lambda kv: -kv[0])
    return [move for _, move in found[:count]]


def block_candidates(game: HariGame, empty: int, lengths: Sequence[int], blocks: int,
                     made: Sequence[Move]) -> list[Move]:
    """At most `blocks` moves sliding one own piece along its line into the room of the opponent's
    next piece (its shortest playable length), then placing our shortest of `lengths` that may
    follow on its snuggest spot; ranked by the opponent's placements taken away less a tenth of that
    spot's free neighbours, moves in `made` left out. None once the opponent has passed (its room
    no longer matters)."""
    opp = 1 - game.turn
    theirs = game.playable_lengths(opp)
    if blocks <= 0 or opp in game.passes or not theirs:
        return []
    occupied = ALL_CELLS & ~empty
    before = count_placements(empty, theirs[:1])
    found: list[tuple[float, Move]] = []
    for piece in game.pieces(game.turn):
        for end in slide_ends(piece, occupied):
            if end is None:
                continue
            after = (empty | piece.mask) & ~end.mask
            taken = before - count_placements(after, theirs[:1])
            if taken <= 0:
                continue
            for n in lengths:
                if not within_budget(piece.value, n):
                    continue
                best: tuple[int, Segment] | None = None
                for seg in segments_from_starts(*placement_starts(after, n), n):
                    snug = (NEIGHBOURS[seg.index] & after).bit_count()
                    if best is None or snug < best[0]:
                        best = (snug, seg)
                if best is None:
                    continue
                found.append((taken - 0.1 * best[0], HariMove((Slide(piece, end),), best[1], 0)))
                break
    found.sort(key=lambda kv: -kv[0])
    out: list[Move] = []
    for _, move in found:
        if len(out) >= blocks:
            break
        if move not in made:
            out.append(move)
    return out


def slide_candidates(game: HariGame, empty: int, counts: dict[int, int], opp_next: list[int],
                     scarce: int, slide_max: int) -> list[tuple[float, Move]]:
    """(guess, move) of one own piece slid to make room, then a placement using the freed cells,
    the best `slide_max`, checked legal; `counts` are the placements of each playable length
    without slides, `opp_next` the opponent's next pieces; only lengths with fewer than `scarce`
    placements are slid for.

    Only for lengths that are scarce without slides: early on, when everything
    fits, sliding only costs flexibility."""
    me = game.turn
    lengths = game.playable_lengths(me)
    hand = game.hand(me)
    needed = [n for n in lengths if counts[n] < scarce]
    if not needed:
        return []
    occupied = ALL_CELLS & ~empty
    out: list[tuple[float, Move]] = []
    for piece in game.pieces(me):
        if not within_budget(piece.value, needed[-1]):
            continue
        for end in slide_ends(piece, occupied):
            after_slide = (empty | piece.mask) & ~(end.mask if end else 0)
            lost = piece.value if end is None else 0
            for n in needed:
                if not within_budget(piece.value, n):
                    continue
                best: tuple[int, Segment] | None = None
                for seg in touching(after_slide, n, piece):
                    if seg is piece:
                        continue
                    snug = (NEIGHBOURS[seg.index] & after_slide).bit_count()
                    if best is None or snug < best[0]:
                        best = (snug, seg)
                if best is None:
                    continue
                seg = best[1]
                after = after_slide & ~seg.mask
                score = _play_score(n, seg, after, lengths, hand, opp_next) - 1.5 * lost
                score += 1.0 if counts[n] == 0 else -0.3
                out.append((score, HariMove((Slide(piece, end),), seg, 0)))
    out.sort(key=lambda kv: -kv[0])
    checked: list[tuple[float, Move]] = []
    for score, move in out:
        if len(checked) >= slide_max:
            break
        try:
            checked.append((score, game.check_move(move)))
        except IllegalMoveError:
            continue
    return checked


def _play_score(n: int, seg: Segment, empty_after: int, lengths: Sequence[int], hand: Sequence[int],
                opp_next: list[int]) -> float:
    """A guess of what placing length n on `seg` is worth: its value, the shorter pieces it
    gives up, its snugness, and how much of both hands still packs afterwards."""
    killed = sum(VALUE[k] * hand[k] for k in lengths if k < n)
    score = -1.0 * killed
    score += 1.2 * VALUE[n]
    score -= 0.3 * (NEIGHBOURS[seg.index] & empty_after).bit_count()
    rest = [k for k in lengths if k >= n for _ in range(hand[k] - (1 if k == n else 0))]
    if rest:
        score -= 0.12 * dead_cells(empty_after, rest[0])
        value, _ = pack_value(empty_after, rest)
        score += 0.5 * value
    if opp_next:
        score -= 0.15 * pack_value(empty_after, opp_next)[0]
    return score

