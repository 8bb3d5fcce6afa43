"""Board pictures for the browser: protocol/svg.py draws a position string.

The SVG marks every cell with `data-cell` and every piece with `data-segment`; the browser maps
clicks through those attributes and nothing else, so it needs no geometry of its own. The board
comes without the picture's side panel: the page shows players, clocks, hands (with their
lengths) and results itself, beside or below the board as the window allows.
"""

from __future__ import annotations

from protocol.board import DARK, LIGHT
from protocol.errors import ArenaError
from protocol.svg import board_svg

BOARD_PX = 480


def board_svg_text(position: str, *, flipped: bool = False, last_move: str | None = None,
                   players: tuple[str, str] | None = None) -> str:
    """The SVG of a position string, from Light's side when `flipped`."""
    orientation = LIGHT if flipped else DARK
    if last_move:
        try:
            return board_svg(position, size=BOARD_PX, orientation=orientation, last_move=last_move,
                             players=players, show_hands=False)
        except (ArenaError, ValueError):
            pass   # a move the renderer cannot mark (a forfeit's illegal move): draw without it
    return board_svg(position, size=BOARD_PX, orientation=orientation, players=players, show_hands=False)
