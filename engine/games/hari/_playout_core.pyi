"""Types of HARI's playout core (`fastmc`) (engine/games/hari/_playout_core.c; see playout_core.py)."""

from collections.abc import Callable, Sequence
from typing import Any

_Move = tuple[int, int, tuple[tuple[int, int], ...]]
_Progress = Callable[[int, int, int, float], bool] | None
_Budget = tuple[int, float, int, int, float, _Progress, float]

def segments() -> list[tuple[int, int, int, int]]: ...
def candidates(position: tuple[Any, ...], params: Sequence[float]) -> list[_Move]: ...
def search(position: tuple[Any, ...], params: Sequence[float], budget: _Budget
           ) -> tuple[list[_Move], list[int], list[float], int, int]: ...
def playout(position: tuple[Any, ...], params: Sequence[float], seed: int
            ) -> tuple[list[_Move], tuple[int, int], int]: ...
