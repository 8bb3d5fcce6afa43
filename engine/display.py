"""Text art of a position for the `d` command (what a human reads in a terminal).

The picture is drawn from the parsed position string only, so it can never
disagree with the rules: rank 9 at the top, files a..j left to right (Dark's
view), `D` for Dark's cells and `L` for Light's, `-` and `|` joining the cells
of one piece. FOUNDATIONS gets one picture per level that holds pieces.
"""

from __future__ import annotations

from protocol.board import COLOR_NAME, FILES, SIZE
from protocol.game import Game
from protocol.notation import parse_position

MARK = ("D", "L")


def board_lines(pieces: list[tuple[int, object]]) -> list[str]:
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
    text = game.position()
    rec = parse_position(text)
    levels = sorted({e.level for side in rec.pieces for e in side}) or [1]
    lines: list[str] = []
    for level in levels:
        if rec.game == "foundations":
            lines.append(f"Level {level}:")
        pieces = [(color, e.segment) for color in (0, 1) for e in rec.pieces[color] if e.level == level]
        lines += board_lines(pieces)
        lines.append("")
    for color in (0, 1):
        hand = "".join(str(n) * k for n, k in enumerate(rec.hands[color])) or "-"
        lines.append(f"{COLOR_NAME[color]} hand: {hand}")
    if rec.phase is not None:
        lines.append(f"Phase: {rec.phase}, scores: Dark {rec.scores[0]}, Light {rec.scores[1]}")
    if rec.passes:
        lines.append("Passed: " + ", ".join(COLOR_NAME[c] for c in rec.passes))
    result = game.result()
    if result is not None:
        lines.append(f"Game over: {result}")
    else:
        lines.append(f"Side to move: {COLOR_NAME[game.turn]}")
    lines.append(f"Position: {text}")
    return lines
