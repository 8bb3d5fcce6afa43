"""HARI: slide your pieces, then place or discard one from hand; most value on the board wins.

Rules (issue 2, rulings 1 and 6; SPEC.md): a turn is zero or more slides of
the mover's pieces, then one play of a piece from hand (placed on empty cells
or discarded). Plays are non-decreasing in length; the played piece's value
must be at least the summed value of the pieces slid this turn. A slide moves
a piece >= 1 cell along its own line through empty cells, possibly right off
the board (``a0a2>off``: the piece leaves the game), never partly off. Each
piece slides at most once a turn; slides happen one after another, so their
order matters for legality, but a move is identified by its slide *set* and
its play. Canonical order of a set: the lexicographically smallest legal
ordering, pieces ordered by their start segment's (lo, hi).

Move counts run to hundreds of thousands, so moves are organised in two
levels: ``slide_sets()`` enumerates each distinct legal slide set once (a
search over slide sequences, level by level, that drops any sequence reaching
a set already found and is pruned by the value budget), and
``plays_after(slide_set)`` lists the plays that may follow it. Counting and
uniform random choice never build the moves.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from itertools import islice
from operator import attrgetter
from typing import NamedTuple

from protocol.board import (
    ALL_CELLS,
    COLOR_NAME,
    DARK,
    H_SEG,
    LENGTHS,
    LIGHT,
    SEGMENTS,
    SET_COUNTS,
    V_SEG,
    VALUE,
    Segment,
    cell_name,
    count_placements,
    full_hand,
    iter_placements,
    nth_cell,
    placement_starts,
    segment_at,
)
from protocol.errors import GameOverError, IllegalMoveError
from protocol.game import Game, uniform_index
from protocol.moves import PASS, HariMove, Move, Pass, Slide
from protocol.position import PieceEntry, PositionRecord, check_passes, check_turn_order, format_position
from protocol.state import GameEnd, Outcome, Piece

_OFF_CODE = len(SEGMENTS) + 1
"""Key code of a slide off the board; a slide to segment s has code s.index + 1."""
_CODE_BITS = 10
"""Bits per piece in a slide-set key (codes fit in 10 bits)."""


class _Step(NamedTuple):
    """One more cell of travel in one direction: the cell that must be empty, and the slide it completes."""

    cell: int
    bit: int
    slide: Slide
    code: int
    end_mask: int


_Path = tuple[_Step, ...]
_Paths = tuple[_Path, _Path, Slide]
"""Per segment: the steps toward the low edge, toward the high edge, and the slide off the board."""
_Level = list[tuple[int, int, int, tuple[Slide, ...], int]]
"""Slide sets of one size: (key, occupancy after, value, canonical slides, bits of the slid pieces)."""
_Mover = tuple[int, int, int, int, _Path, _Path, Slide]
"""A piece that may slide: (its bit, value, mask, key shift, low path, high path, slide off)."""


def _build_paths() -> list[_Paths]:
    """Per segment, the steps of travel toward the low edge and toward the high edge.

    Walking a direction's steps until a cell is occupied lists every legal
    on-board destination that way; finishing all steps means the piece can
    leave the board that way. Precomputed so the move generator only tests bits.
    Returns, per segment index, (low steps, high steps, the slide off the board).
    """
    paths: list[_Paths] = []
    for seg in SEGMENTS:
        step = 1 if seg.horizontal else 10
        pos = seg.lo % 10 if seg.horizontal else seg.lo // 10
        low = []
        for d in range(1, pos + 1):
            end = segment_at(seg.lo - step * d, seg.hi - step * d)
            assert end is not None
            cell = seg.lo - step * d
            low.append(_Step(cell, 1 << cell, Slide(seg, end), end.index + 1, end.mask))
        high = []
        for d in range(1, 10 - (pos + seg.length) + 1):
            end = segment_at(seg.lo + step * d, seg.hi + step * d)
            assert end is not None
            cell = seg.hi + step * d
            high.append(_Step(cell, 1 << cell, Slide(seg, end), end.index + 1, end.mask))
        paths.append((tuple(low), tuple(high), Slide(seg, None)))
    return paths


_PATHS = _build_paths()


def slide_ends(seg: Segment, occupied: int) -> list[Segment | None]:
    """Where a piece on `seg` may slide through the `occupied` cells (its own cells
    excluded by the caller or not: they are never on its path): every on-board end,
    nearest first toward the low edge then the high edge, and None if it can leave
    the board. The single-slide rule, for searches that build moves slide by slide."""
    out: list[Segment | None] = []
    leaves = False
    low, high, _ = _PATHS[seg.index]
    for path in (low, high):
        for step in path:
            if occupied & step.bit:
                break
            out.append(step.slide.end)
        else:
            leaves = True
    if leaves:
        out.append(None)
    return out


def within_budget(slid_value: int, length: int) -> bool:
    """Whether a play of `length` may follow slides of summed value `slid_value` (SPEC 5: the played
    piece's value covers the value of the pieces slid this turn; a discard counts as played)."""
    return VALUE[length] >= slid_value


class SlideSet(NamedTuple):
    """One distinct legal slide set of the side to move (possibly empty).

    `slides` is in canonical order, `empty` the empty-cell bitboard after the
    slides, `value` the summed value of the slid pieces, `plays` how many
    plays (placements and discards) may follow, i.e. how many legal moves
    start with exactly these slides.
    """

    slides: tuple[Slide, ...]
    empty: int
    value: int
    plays: int


class _Undo(NamedTuple):
    move: Move
    mover: int
    turn: int
    min_length: int


def _min_length_of(hand: Sequence[int]) -> int:
    """Longest length that has left the hand (plays never get shorter); 0 if none has."""
    played = [n for n in LENGTHS if hand[n] < SET_COUNTS[n]]
    return played[-1] if played else 0


class HariGame(Game):
    """A HARI position with its undo stack; bitboards per colour, hands as counts by length.

    Besides the common ``Game`` interface, search code can walk the moves in
    two levels without listing them: ``slide_sets()`` yields a ``SlideSet``
    (canonical slides, empty cells after them, their value, how many plays
    follow) per distinct slide set, and ``plays_after(slide_set)`` yields that
    set's moves. ``count_legal_moves`` and ``random_move`` (uniform over all
    moves) use the counts only.
    """

    name = "hari"

    def __init__(self) -> None:
        self._own = [0, 0]
        self._pieces: list[set[Segment]] = [set(), set()]
        self._hands = [full_hand(), full_hand()]
        self._min_length = [0, 0]
        self._turn = DARK
        self._passes: list[int] = []
        self._stack: list[_Undo] = []

    # -- construction -------------------------------------------------------
    @classmethod
    def from_position(cls, text: str) -> HariGame:
        rec, _ = cls.parse_position(text)
        game_over = len(rec.passes) == 2
        check_passes(rec, game_over)
        game = cls()
        for color in (DARK, LIGHT):
            for entry in rec.pieces[color]:
                game._pieces[color].add(entry.segment)
                game._own[color] |= entry.segment.mask
            game._hands[color] = list(rec.hands[color])
            game._min_length[color] = _min_length_of(rec.hands[color])
        game._turn = rec.turn
        game._passes = list(rec.passes)
        game._check_passed_players(rec)
        game._check_turn_count(rec)
        return game

    def _check_passed_players(self, rec: PositionRecord) -> None:
        """A player passes only with nothing playable, and a hand never changes after that."""
        for color in rec.passes:
            lengths = self.playable_lengths(color)
            if lengths:
                raise rec.error(
                    "passes",
                    f"{COLOR_NAME[color]} has passed but can still play a length-{lengths[0]} piece",
                )

    def _check_turn_count(self, rec: PositionRecord) -> None:
        """Every turn but a pass plays one piece (placed or discarded), so the counts fix the turn."""
        played = sum(SET_COUNTS.values())
        check_turn_order(rec, (played - sum(self._hands[DARK]), played - sum(self._hands[LIGHT])),
                         "played", "turn")

    def position(self) -> str:
        rec = PositionRecord(
            game=self.name,
            pieces=([PieceEntry(s) for s in self._pieces[DARK]], [PieceEntry(s) for s in self._pieces[LIGHT]]),
            hands=(self._hands[DARK], self._hands[LIGHT]),
            turn=self._turn,
            passes=tuple(self._passes),
        )
        return format_position(rec)

    def copy(self) -> HariGame:
        game = HariGame()  # its undo stack starts empty
        game._own = list(self._own)
        game._pieces = [set(p) for p in self._pieces]
        game._hands = [list(h) for h in self._hands]
        game._min_length = list(self._min_length)
        game._turn = self._turn
        game._passes = list(self._passes)
        return game

    def search_key(self) -> tuple[frozenset[Segment], frozenset[Segment], tuple[int, ...], tuple[int, ...],
                                  int, int, int, tuple[int, ...]]:
        """A hashable key naming the position exactly, for a search's transposition table.

        Two positions have the same key exactly when they have the same position string:
        the pieces of each colour (not only the cells they cover: collinear pieces side by
        side slide differently from one long piece), the hands, the shortest length each
        side may still play, the side to move and who has passed."""
        return (frozenset(self._pieces[DARK]), frozenset(self._pieces[LIGHT]), tuple(self._hands[DARK]),
                tuple(self._hands[LIGHT]), self._min_length[DARK], self._min_length[LIGHT], self._turn,
                tuple(self._passes))

    # -- state --------------------------------------------------------------
    @property
    def turn(self) -> int:
        return self._turn

    def is_over(self) -> bool:
        return len(self._passes) == 2

    def board_value(self, color: int) -> int:
        """Total value of `color`'s pieces on the board: the HARI score."""
        return sum(s.value for s in self._pieces[color])

    @property
    def scores(self) -> tuple[int, int]:
        """(Dark, Light) value on the board: the HARI measure."""
        return self.board_value(DARK), self.board_value(LIGHT)

    @property
    def passes(self) -> tuple[int, ...]:
        """Who has passed, first passer first."""
        return tuple(self._passes)

    def board(self) -> Iterator[Piece]:
        for color in (DARK, LIGHT):
            for seg in self._pieces[color]:
                yield Piece(color, seg)

    def pieces(self, color: int) -> list[Segment]:
        """`color`'s pieces on the board in (lo, hi) order."""
        return sorted(self._pieces[color], key=_piece_order)

    def hand(self, color: int) -> tuple[int, ...]:
        """Counts by length (0..7) of `color`'s pieces in hand."""
        return tuple(self._hands[color])

    def empty_cells(self) -> int:
        """Bitboard of the empty cells (the empty slide set's cells, without walking slide sets)."""
        return ALL_CELLS & ~(self._own[DARK] | self._own[LIGHT])

    def min_length(self, color: int) -> int:
        """Shortest length `color` may still play (0 before its first play)."""
        return self._min_length[color]

    def result(self) -> Outcome | None:
        if not self.is_over():
            return None
        scores = dark, light = self.scores
        end = GameEnd.BOTH_PASSED
        if dark == light:
            return Outcome(None, end, scores, f"both have {dark} points on the board")
        winner = DARK if dark > light else LIGHT
        reason = (f"{COLOR_NAME[winner]} has {max(dark, light)} points on the board, "
                  f"{COLOR_NAME[1 - winner]} {min(dark, light)}")
        return Outcome(winner, end, scores, reason)

    def playable_lengths(self, color: int) -> list[int]:
        """Ascending lengths `color` holds and may still play (not shorter than its last play)."""
        hand, low = self._hands[color], self._min_length[color]
        return [n for n in LENGTHS if hand[n] and n >= low]

    # -- move generation ----------------------------------------------------
    def slide_sets(self) -> Iterator[SlideSet]:
        """Each distinct legal slide set of the side to move once (the empty set first).

        First level of the two-level move API: every legal move is one
        SlideSet followed by one of its ``plays_after``; ``SlideSet.plays``
        counts those. Nothing is yielded when the game is over or the mover
        must pass. Sets whose value exceeds every playable piece are pruned.
        Sets come in order of size, then of canonical slide sequence.
        """
        for slides, occ, value, allowed in self._walk():
            empty = ~occ & ALL_CELLS
            yield SlideSet(slides, empty, value, count_placements(empty, allowed) + len(allowed))

    def _walk(self) -> Iterator[tuple[tuple[Slide, ...], int, int, list[int]]]:
        """(slides, occupancy after, value, lengths playable after) for each legal slide set."""
        lengths = self.playable_lengths(self._turn) if not self.is_over() else []
        if not lengths:
            return iter(())
        budget = VALUE[lengths[-1]]
        allowed_by_value = [[n for n in lengths if within_budget(v, n)] for v in range(budget + 1)]
        pieces = sorted(self._pieces[self._turn], key=_piece_order)
        occupied = self._own[DARK] | self._own[LIGHT]
        return ((slides, occ, value, allowed_by_value[value])
                for slides, occ, value in _walk_slide_sets(pieces, occupied, budget))

    def lengths_after(self, slide_set: SlideSet) -> list[int]:
        """Ascending lengths the mover may play after `slide_set`: playable and worth its slides."""
        return [n for n in self.playable_lengths(self._turn) if within_budget(slide_set.value, n)]

    def plays_after(self, slide_set: SlideSet) -> Iterator[HariMove]:
        """Every legal move that makes exactly `slide_set`'s slides (second level of the API).

        For each playable length whose value covers the slides, ascending:
        the discard, then every placement on the cells left empty.
        """
        slides, empty = slide_set.slides, slide_set.empty
        for n in self.lengths_after(slide_set):
            yield HariMove(slides, None, n)
            for seg in iter_placements(empty, n):
                yield HariMove(slides, seg, 0)

    def legal_moves(self) -> Iterator[Move]:
        if self.is_over():
            return
        if not self.playable_lengths(self._turn):
            yield PASS
            return
        for slide_set in self.slide_sets():
            yield from self.plays_after(slide_set)

    def count_legal_moves(self) -> int:
        if self.is_over():
            return 0
        if not self.playable_lengths(self._turn):
            return 1
        total = 0
        for _, occ, _, allowed in self._walk():
            total += count_placements(~occ & ALL_CELLS, allowed) + len(allowed)
        return total

    def legal_moves_from(self, start: int) -> Iterator[Move]:
        """Skips whole slide sets by their play counts: a page deep in a million-move list
        costs one walk over the slide sets, not over the moves before it."""
        if self.is_over() or not self.playable_lengths(self._turn):
            yield from super().legal_moves_from(start)
            return
        for slide_set in self.slide_sets():
            if start >= slide_set.plays:
                start -= slide_set.plays
                continue
            yield from islice(self.plays_after(slide_set), start, None)
            start = 0

    def random_move(self, rng: random.Random) -> Move | None:
        """A uniformly random legal move, drawn without building the move list.

        Picks a slide set with weight equal to its play count, then the
        play at a uniform index among that set's plays.
        """
        if self.is_over():
            return None
        if not self.playable_lengths(self._turn):
            return PASS
        sets = list(self.slide_sets())
        pick = uniform_index(rng, [s.plays for s in sets])
        if pick is None:
            raise AssertionError("a player with a playable piece has a move")
        return self._play_at(sets[pick[0]], pick[1])

    def _play_at(self, slide_set: SlideSet, index: int) -> HariMove:
        """The play number `index` in ``plays_after(slide_set)`` order, found by counting bits."""
        for n in self.playable_lengths(self._turn):
            if not within_budget(slide_set.value, n):
                continue
            if index == 0:
                return HariMove(slide_set.slides, None, n)
            index -= 1
            for starts, table in zip(placement_starts(slide_set.empty, n), (H_SEG[n], V_SEG[n])):
                count = starts.bit_count()
                if index < count:
                    return HariMove(slide_set.slides, table[nth_cell(starts, index)], 0)
                index -= count
        raise AssertionError("index beyond the slide set's plays")

    def perft(self, depth: int) -> int:
        """Like ``Game.perft`` but walks the moves lazily: a mid-game node can have ~10^6."""
        if depth <= 1:
            return super().perft(depth)
        total = 0
        for move in self.legal_moves():  # each push is popped before the next move is drawn
            self.push(move)
            total += self.perft(depth - 1)
            self.pop()
        return total

    # -- checking -----------------------------------------------------------
    def parse_move(self, text: str) -> Move:
        from protocol.notation import parse_move

        move = parse_move(self.name, text)
        return self._check(move, text)

    def check_move(self, move: Move) -> Move:
        return self._check(move, str(move))

    def _check(self, move: Move, shown: str) -> Move:
        """The canonical form of `move`, or IllegalMoveError(shown, the rule it breaks)."""
        if self.is_over():
            raise GameOverError(shown)
        lengths = self.playable_lengths(self._turn)
        if isinstance(move, Pass):
            if lengths:
                raise IllegalMoveError(shown, f"cannot pass while a move exists (e.g. x{lengths[0]})")
            return PASS
        if not isinstance(move, HariMove):
            raise IllegalMoveError(shown, "not a HARI move")
        if not lengths:
            raise IllegalMoveError(shown, f"{COLOR_NAME[self._turn]} has no playable piece and must pass")
        occupied, value = self._check_slides(move.slides, shown)
        self._check_play(move, occupied, value, shown)
        if len(move.slides) < 2:
            return move
        return HariMove(self._canonical_order(move.slides), move.place, move.discard)

    def _check_slides(self, slides: tuple[Slide, ...], shown: str) -> tuple[int, int]:
        """Play the slides in the order written; return (occupancy after, slid value)."""
        occupied = self._own[DARK] | self._own[LIGHT]
        where = {s: s for s in self._pieces[self._turn]}  # current segment -> start segment
        slid: set[Segment] = set()
        value = 0
        for slide in slides:
            start = slide.start
            origin = where.get(start)
            if origin is None:
                raise IllegalMoveError(shown, self._no_piece_reason(slide))
            if origin in slid:
                raise IllegalMoveError(shown, f"slide {slide}: the piece that started on {origin} already slid this turn")
            _check_direction(slide, shown)
            blocked = _blocked_cell(slide, occupied)
            if blocked is not None:
                raise IllegalMoveError(shown, f"slide {slide} is blocked at {blocked}")
            del where[start]
            occupied ^= start.mask
            if slide.end is not None:
                where[slide.end] = origin
                occupied |= slide.end.mask
            slid.add(origin)
            value += start.value
        return occupied, value

    def _no_piece_reason(self, slide: Slide) -> str:
        start = slide.start
        if start in self._pieces[1 - self._turn]:
            return f"slide {slide}: {start} is {COLOR_NAME[1 - self._turn]}'s piece, not yours"
        return f"slide {slide}: you have no piece at {start}"

    def _check_play(self, move: HariMove, occupied: int, value: int, shown: str) -> None:
        n = move.length
        if not self._hands[self._turn][n]:
            raise IllegalMoveError(shown, f"no piece of length {n} in hand")
        low = self._min_length[self._turn]
        if n < low:
            raise IllegalMoveError(shown, f"a length-{n} piece is shorter than your last play ({low})")
        if not within_budget(value, n):
            raise IllegalMoveError(
                shown, f"slid value sum {value} exceeds the played piece's value {VALUE[n]}")
        if move.place is not None and occupied & move.place.mask:
            hit = (occupied & move.place.mask)
            cell = (hit & -hit).bit_length() - 1
            raise IllegalMoveError(shown, f"placement {move.place} overlaps a piece at {cell_name(cell)}")

    def _canonical_order(self, slides: tuple[Slide, ...]) -> tuple[Slide, ...]:
        """The lexicographically smallest ordering (pieces by start (lo, hi)) legal one after another."""
        ordered = sorted(slides, key=lambda s: _piece_order(s.start))
        occupied = self._own[DARK] | self._own[LIGHT]
        failed: set[int] = set()

        def search(done: int, occ: int, sequence: tuple[Slide, ...]) -> tuple[Slide, ...] | None:
            if len(sequence) == len(ordered):
                return sequence
            for i, slide in enumerate(ordered):
                if done >> i & 1 or done | 1 << i in failed:
                    continue
                if _blocked_cell(slide, occ) is not None:
                    continue
                after = occ ^ slide.start.mask | (slide.end.mask if slide.end else 0)
                found = search(done | 1 << i, after, sequence + (slide,))
                if found:
                    return found
                failed.add(done | 1 << i)
            return None

        found = search(0, occupied, ())
        if found is None:  # the written order was legal, so some order is
            raise AssertionError("no legal order for a slide set that was legal as written")
        return found

    # -- playing ------------------------------------------------------------
    def push(self, move: Move) -> None:
        mover = self._turn
        self._stack.append(_Undo(move, mover, self._turn, self._min_length[mover]))
        if isinstance(move, Pass):
            self._passes.append(mover)
        else:
            assert isinstance(move, HariMove), "push() takes moves check_move() vouched for"
            pieces = self._pieces[mover]
            own = self._own[mover]
            for slide in move.slides:
                pieces.remove(slide.start)
                own ^= slide.start.mask
                if slide.end is not None:
                    pieces.add(slide.end)
                    own |= slide.end.mask
            n = move.length
            self._hands[mover][n] -= 1
            if n > self._min_length[mover]:
                self._min_length[mover] = n
            if move.place is not None:
                pieces.add(move.place)
                own |= move.place.mask
            self._own[mover] = own
        self._turn = self._next_turn(mover)

    def _next_turn(self, mover: int) -> int:
        """The opponent moves next unless it has passed and the mover has not (ruling 1)."""
        other = 1 - mover
        if other in self._passes and mover not in self._passes:
            return mover
        return other

    def pop(self) -> Move:
        undo = self._stack.pop()
        move, mover = undo.move, undo.mover
        if isinstance(move, Pass):
            self._passes.pop()
        else:
            assert isinstance(move, HariMove)
            pieces = self._pieces[mover]
            own = self._own[mover]
            if move.place is not None:
                pieces.remove(move.place)
                own ^= move.place.mask
            self._hands[mover][move.length] += 1
            self._min_length[mover] = undo.min_length
            for slide in reversed(move.slides):
                if slide.end is not None:
                    pieces.remove(slide.end)
                    own ^= slide.end.mask
                pieces.add(slide.start)
                own |= slide.start.mask
            self._own[mover] = own
        self._turn = undo.turn
        return move


_piece_order = attrgetter("lo", "hi")
"""Pieces in (lo, hi) order: the board's reading order (a C-level key: searches sort pieces often)."""


def _walk_slide_sets(pieces: list[Segment], occupied: int, budget: int
                     ) -> Iterator[tuple[tuple[Slide, ...], int, int]]:
    """Yield (canonical slides, occupancy after, value) for each distinct slide set once.

    Breadth-first by number of slides: each level's sets are extended, in
    level order, by the unslid pieces in (lo, hi) order. A level is in
    lexicographic order of canonical sequences, so the first sequence reaching
    a set is its smallest legal ordering (the canonical one); later ones are
    dropped. A set is keyed by an int holding each piece's destination code in
    its own 10-bit field.
    """
    movers: list[_Mover] = [(1 << i, piece.value, piece.mask, _CODE_BITS * i) + _PATHS[piece.index]
                            for i, piece in enumerate(pieces)]
    level: _Level = [(0, occupied, 0, (), 0)]
    while level:
        for _, occ, value, slides, _ in level:
            yield slides, occ, value
        level = _next_level(level, movers, budget)


def _next_level(level: _Level, movers: list[_Mover], budget: int) -> _Level:
    """All slide sets with one more slide than `level`'s, each once, reached in canonical order."""
    seen: set[int] = set()
    found = []
    for key, occ, value, slides, used in level:
        for bit, piece_value, piece_mask, shift, low, high, off in movers:
            total = value + piece_value
            if used & bit or total > budget:
                continue
            rest, now_used = occ ^ piece_mask, used | bit
            leaves = False
            for path in (low, high):
                for step in path:
                    if occ & step.bit:
                        break
                    child = key | step.code << shift
                    if child not in seen:
                        seen.add(child)
                        found.append((child, rest | step.end_mask, total, slides + (step.slide,), now_used))
                else:
                    leaves = True
            if leaves:
                child = key | _OFF_CODE << shift
                if child not in seen:
                    seen.add(child)
                    found.append((child, rest, total, slides + (off,), now_used))
    return found


def _check_direction(slide: Slide, shown: str) -> None:
    """A slide keeps the piece's length and line and moves it at least one cell."""
    start, end = slide.start, slide.end
    if end is None:
        return
    if end.length != start.length:
        raise IllegalMoveError(
            shown, f"slide {slide}: a length-{start.length} piece cannot end on length-{end.length} {end}")
    if end.horizontal != start.horizontal or end.line != start.line:
        line = "row" if start.horizontal else "column"
        raise IllegalMoveError(
            shown, f"slide {slide}: {end} is not along the piece's length (same {line})")
    if end is start:
        raise IllegalMoveError(shown, f"slide {slide} moves distance 0; a slide moves at least one cell")


def _blocked_cell(slide: Slide, occupied: int) -> str | None:
    """Name of the first occupied cell the slide would hit, or None if its path is clear.

    A slide off the board is clear if either way to the edge is clear; if
    both are blocked, both cells are named.
    """
    low, high, _ = _PATHS[slide.start.index]
    if slide.end is None:
        hits = [_first_hit(path, occupied, None) for path in (low, high)]
        if None in hits:
            return None
        return f"{hits[0]} (toward the low edge) and {hits[1]} (toward the high edge)"
    path = low if slide.end.lo < slide.start.lo else high
    return _first_hit(path, occupied, slide.end)


def _first_hit(path: _Path, occupied: int, end: Segment | None) -> str | None:
    for st in path:
        if occupied & st.bit:
            return cell_name(st.cell)
        if st.slide.end is end:
            return None
    return None
