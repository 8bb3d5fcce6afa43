"""Text art of a position for the `d` command (what a human reads in a terminal).

The picture is drawn from ``Game.state()``, the rules' own account of the
position: rank 9 at the top, files a..j left to right (Dark's view), `D` for
Dark's cells and `L` for Light's, `-` and `|` joining the cells of one piece. FOUNDATIONS gets one picture per level that holds pieces.
"""

from __future__ import annotations

from protocol import registry
from protocol.board import COLOR_NAME, FILES, SIZE, Segment
from protocol.game import Game

MARK = ("D", "L")


def board_lines(pieces: list[tuple[int, Segment]]) -> list[str]:
    """The grid for (colour, segment) pairs: cell rows with connector rows between them."""
    cell = [["."] * SIZE for _ in range(SIZE)]
    right = [[" "] * SIZE for _ in range(SIZE)]   # joiner after cell (rank, file)
    up = [[" "] * SIZE for _ in range(SIZE)]      # joiner above cell (rank, file)
    for color, seg in pieces:
        cells = sorted(seg.cells)
        for c in cells:
            cell[c // 10][c % 10] = MARK[color]
        for c in cells[:-1]:
            if seg.horizontal:
                right[c // 10][c % 10] = "-"
            else:
                up[c // 10][c % 10] = "|"
    files = "    " + " ".join(FILES)
    out = [files]
    for rank in range(SIZE - 1, -1, -1):
        row = "".join(cell[rank][f] + (right[rank][f] if f < SIZE - 1 else "") for f in range(SIZE))
        out.append(f" {rank}  {row}  {rank}")
        if rank > 0:
            joins = " ".join(up[rank - 1][f] for f in range(SIZE))
            out.append(("    " + joins).rstrip())
    out.append(files)
    return out


def render(game: Game) -> list[str]:
    """All lines `d` prints for `game`: board(s), hands, scores, side to move, position string."""
    state = game.state()
    entry = registry.entry(state.game)
    levels = sorted({p.level for p in state.pieces}) or [1]
    lines: list[str] = []
    for level in levels:
        if entry.levels:
            lines.append(f"Level {level}:")
        lines += board_lines([(p.color, p.segment) for p in state.pieces if p.level == level])
        lines.append("")
    for color in (0, 1):
        lines.append(f"{COLOR_NAME[color]} hand: {''.join(map(str, state.hands[color])) or '-'}")
    if entry.phase_and_scores:
        lines.append(f"Phase: {state.phase}, scores: Dark {state.scores[0]}, Light {state.scores[1]}")
    if state.passes:
        lines.append("Passed: " + ", ".join(COLOR_NAME[c] for c in state.passes))
    if state.outcome is not None:
        lines.append(f"Game over: {state.outcome}")
    else:
        lines.append(f"Side to move: {COLOR_NAME[state.turn]}")
    lines.append(f"Position: {state.position}")
    return lines
