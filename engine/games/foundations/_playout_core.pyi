"""Types of FOUNDATIONS's playout core (engine/games/foundations/_playout_core.c; see playout_core.py)."""

from collections.abc import Sequence

from engine.games.parts import Budget

_Move = tuple[int, int]

def segments() -> list[tuple[int, int, int, int]]: ...
def candidates(position: tuple[object, ...], params: Sequence[float]) -> list[_Move]: ...
def search(position: tuple[object, ...], params: Sequence[float], budget: Budget
           ) -> tuple[list[_Move], list[int], list[float], int, int]: ...
def playout(position: tuple[object, ...], params: Sequence[float], seed: int
            ) -> tuple[list[_Move], tuple[int, int], int]: ...
