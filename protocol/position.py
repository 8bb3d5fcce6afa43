"""The game-neutral content of a position string, its formatting and shared checks.

``notation.parse_position`` turns text into a ``PositionRecord``; each game
checks its own rules on it and builds its state; ``format_position`` turns a
record back into canonical text. Checks common to all games live here so no
game repeats them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .board import COLOR_LETTER, LENGTHS, SET_COUNTS, Segment, hand_string
from .errors import PositionError


@dataclass
class PieceEntry:
    """One piece named in a position string, with where it was written (1-based column)."""

    segment: Segment
    level: int = 1
    column: int = 0


@dataclass
class PositionRecord:
    """Everything a position string says, before any game checks it."""

    game: str
    pieces: tuple[list[PieceEntry], list[PieceEntry]]
    hands: tuple[list[int], list[int]]
    """Counts indexed by piece length (0..7), per colour."""
    turn: int
    passes: tuple[int, ...]
    """Colours that have passed in the current phase, first passer first."""
    phase: str | None = None
    """ISAAC only: 'place' or 'score'."""
    scores: tuple[int, int] | None = None
    """ISAAC only: (Dark, Light)."""
    text: str = ""
    columns: dict[str, int] = field(default_factory=dict)
    """1-based column where each field starts: 'pieces', 'hands', 'turn', ..."""

    def error(self, field_name: str, message: str) -> PositionError:
        return PositionError(self.text, self.columns.get(field_name, 1), message)

    def piece_error(self, entry: PieceEntry, message: str) -> PositionError:
        return PositionError(self.text, entry.column, message)


def format_position(rec: PositionRecord) -> str:
    """Canonical text of a record: pieces sorted by level then cells, hands ascending."""

    def pieces(entries: list[PieceEntry]) -> str:
        items = sorted(entries, key=lambda e: (e.level, e.segment.lo, e.segment.hi))
        out = [e.segment.name + (f"^{e.level}" if e.level > 1 else "") for e in items]
        return ",".join(out) or "-"

    fields = [
        rec.game,
        pieces(rec.pieces[0]) + "/" + pieces(rec.pieces[1]),
        hand_string(rec.hands[0]) + "/" + hand_string(rec.hands[1]),
        COLOR_LETTER[rec.turn],
        "".join(COLOR_LETTER[c] for c in rec.passes) or "-",
    ]
    if rec.phase is not None and rec.scores is not None:
        fields.append(rec.phase)
        fields.append(f"{rec.scores[0]}/{rec.scores[1]}")
    return " ".join(fields)


def check_inventory(rec: PositionRecord) -> list[list[int]]:
    """Each colour's pieces on board plus in hand must fit in one ISAAC set.

    Returns, per colour, the counts (by length) of pieces that have left the
    game: set minus hand minus board (removed, discarded or slid off).
    """
    gone = []
    for color in (0, 1):
        on_board = [0] * 8
        for e in rec.pieces[color]:
            on_board[e.segment.length] += 1
        left = [0] * 8
        for n in LENGTHS:
            used = on_board[n] + rec.hands[color][n]
            if used > SET_COUNTS[n]:
                raise rec.error(
                    "pieces",
                    f"{'Dark' if color == 0 else 'Light'} has {used} pieces of length {n} "
                    f"on board and in hand; a set has {SET_COUNTS[n]}",
                )
            left[n] = SET_COUNTS[n] - used
        gone.append(left)
    return gone


def check_no_overlap(rec: PositionRecord) -> None:
    """No two pieces share a cell on the same level."""
    taken: dict[int, int] = {}
    for color in (0, 1):
        for e in rec.pieces[color]:
            occ = taken.get(e.level, 0)
            if occ & e.segment.mask:
                raise rec.piece_error(
                    e, f"piece {e.segment.name} overlaps another piece on level {e.level}"
                )
            taken[e.level] = occ | e.segment.mask


def check_passes(rec: PositionRecord, game_over: bool) -> None:
    """A player who has passed never moves again in that phase: the other one is to move."""
    if len(rec.passes) == 1 and not game_over and rec.turn == rec.passes[0]:
        raise rec.error(
            "turn", f"{'Dark' if rec.turn == 0 else 'Light'} has passed and cannot be the side to move"
        )


def check_turn_order(rec: PositionRecord, played: tuple[int, int], verb: str, uneven_field: str) -> None:
    """Dark moves first and turns alternate until the first pass; then the other plays on alone.

    `played` is how many turns (pieces placed or played) each colour has taken
    since the phase began, so it fixes whose turn it is. `verb` words the counts
    ('placed', 'played'); `uneven_field` is the field blamed when the counts
    themselves cannot come from alternating turns.
    """
    nd, nl = played
    counts = f"Dark has {verb} {nd} pieces and Light {nl}"
    first = rec.passes[0] if rec.passes else None
    if first is None:
        need = 0 if nd == nl else 1 if nd == nl + 1 else None
        if rec.turn == need:
            return
        field_name = "turn" if need is not None else uneven_field
        if rec.turn == 0:
            rule = "with Dark to move they must be equal"
        else:
            rule = "with Light to move Dark must have played one more"
        mover = "Dark" if rec.turn == 0 else "Light"
        then = "" if need is None else f", so it is {'Dark' if need == 0 else 'Light'}'s turn"
        raise rec.error(field_name, f"{counts}: it cannot be {mover}'s turn ({rule}){then}")
    if first == 0 and nl < nd:
        raise rec.error("passes", f"{counts}: Dark passed first, so Light played at least as many "
                        "(Dark could pass only with as many pieces as Light, who then played on alone)")
    if first == 1 and nd < nl + 1:
        raise rec.error("passes", f"{counts}: Light passed first, so Dark played more "
                        "(Light could pass only with one piece fewer than Dark, who then played on alone)")
