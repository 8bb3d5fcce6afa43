"""Values a page sends that both boards take alike, checked before anything is done with them: a
page is a client like any other, so a wrong value is a short message back, never a traceback."""

from __future__ import annotations

MOVE_CHARS = 200
"""Longest move a page may send (a move's notation is far shorter)."""


def move_list(moves: object, most: int, error: type[ValueError]) -> list[str]:
    """`moves` as a list of at most `most` moves in notation (None or "": none); `error` otherwise,
    with the message the page shows."""
    if moves in (None, ""):
        return []
    if not isinstance(moves, list) or len(moves) > most:
        raise error(f"moves: a list of at most {most} moves")
    if not all(isinstance(m, str) and 0 < len(m) <= MOVE_CHARS for m in moves):
        raise error("moves: each move is a string of notation")
    return list(moves)
