"""Text art of a position for the `d` command (what a human reads in a terminal).

Drawn from ``Game.state()`` (the registry entry says whether the game has levels or
ISAAC's phase and scores): rank 9 at the top, files a..j left to
right (Dark's view), `D` for Dark's cells and `L` for Light's, `-` and `|`
joining the cells of one piece. ISAAC's score counters are drawn on their cells
(`1` Dark's, `2` Light's; the joiners still show the piece beneath). FOUNDATIONS
is one board of the top piece of each cell, each cell written colour and level
(`D2`), with `..` for an empty cell.
"""

from __future__ import annotations

from collections.abc import Sequence

from protocol import registry
from protocol.board import COLOR_NAME, DARK, FILES, LIGHT, SIZE, Segment, cell_name
from protocol.game import Game

MARK = ("D", "L")
COUNTER_MARK = ("1", "2")
"""How a cell holding Dark's / Light's ISAAC counter is drawn (player 1 / player 2)."""

Placed = tuple[int, Segment, int]
"""(colour, segment, level) of a piece on the board."""


def board_lines(pieces: Sequence[Placed], counters: Sequence[int | None] = (), levels: bool = False) -> list[str]:
    """The grid: cell rows with connector rows between them; the top piece of each cell is shown.

    With `levels`, each cell is two characters, colour and level (`D2`); counters
    (cells, Dark's then Light's) replace the mark of their cell.
    """
    width = 2 if levels else 1
    empty = "." * width
    top: dict[int, Placed] = {}
    for placed in pieces:
        for c in placed[1].cells:
            if c not in top or top[c][2] < placed[2]:
                top[c] = placed
    cell = [[empty] * SIZE for _ in range(SIZE)]
    for c, (color, _, level) in top.items():
        cell[c // 10][c % 10] = MARK[color] + (str(level) if levels else "")
    for color, at in enumerate(counters):
        if at is not None:
            cell[at // 10][at % 10] = COUNTER_MARK[color] * width
    right = [[" "] * SIZE for _ in range(SIZE)]   # joiner after cell (rank, file)
    up = [[" "] * SIZE for _ in range(SIZE)]      # joiner above cell (rank, file)
    for c, placed in top.items():
        seg = placed[1]
        step = 1 if seg.horizontal else 10
        if c != seg.hi and top.get(c + step) is placed:
            (right if seg.horizontal else up)[c // 10][c % 10] = "-" if seg.horizontal else "|"
    pad = " " * (width - 1)
    files = ("    " + " ".join(f + pad for f in FILES)).rstrip()
    out = [files]
    for rank in range(SIZE - 1, -1, -1):
        row = "".join(cell[rank][f] + (right[rank][f] if f < SIZE - 1 else "") for f in range(SIZE))
        out.append(f" {rank}  {row}  {rank}")
        if rank > 0:
            joins = " ".join(up[rank - 1][f] + pad for f in range(SIZE))
            out.append(("    " + joins).rstrip())
    out.append(files)
    return out


def render(game: Game) -> list[str]:
    """All lines `d` prints for `game`: the board, hands, counters and scores, side to move, position string."""
    state = game.state()
    entry = registry.entry(state.game)
    pieces = [(p.color, p.segment, p.level) for p in state.pieces]
    counters: Sequence[int | None] = state.counters or ()
    lines = board_lines(pieces, counters, levels=entry.levels)
    lines.append("")
    for color in (DARK, LIGHT):
        lines.append(f"{COLOR_NAME[color]} hand: {''.join(map(str, state.hands[color])) or '-'}")
    dark, light = state.scores
    if entry.phase_and_scores:
        lines.append(f"Phase: {state.phase}, scores: Dark {dark}, Light {light}")
        shown = [f"{COLOR_NAME[c]} {COUNTER_MARK[c]} on {_counter_place(cell, pieces)}"
                 for c, cell in enumerate(counters) if cell is not None]
        if shown:
            lines.append("Counters: " + ", ".join(shown))
    elif entry.lower_score_wins:
        lines.append(f"Value in hand: Dark {dark}, Light {light}")
    else:
        lines.append(f"Value on board: Dark {dark}, Light {light}")
    if state.passes:
        lines.append("Passed: " + ", ".join(COLOR_NAME[c] for c in state.passes))
    if state.outcome is not None:
        lines.append(f"Game over: {state.outcome}")
    else:
        lines.append(f"Side to move: {COLOR_NAME[state.turn]}")
    lines.append(f"Position: {state.position}")
    return lines


def _counter_place(cell: int | None, pieces: Sequence[Placed]) -> str:
    """'d4' or 'd4 (on Light's piece a4e4)'."""
    assert cell is not None
    for color, seg, _ in pieces:
        if seg.mask >> cell & 1:
            return f"{cell_name(cell)} (on {COLOR_NAME[color]}'s piece {seg.name})"
    return cell_name(cell)
