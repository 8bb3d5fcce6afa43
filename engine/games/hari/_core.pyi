"""Types of the C core of HARI's end-game search (engine/search/_harifast.c; see hari_native)."""

from collections.abc import Callable, Sequence
from typing import Any

_Move = tuple[int, int, int, int]

def segments() -> list[tuple[int, int, int, int]]: ...
def candidates(position: tuple[Any, ...], per_length: int) -> list[_Move]: ...
def contest_margin(position: tuple[Any, ...], color: int) -> int: ...
def search(position: tuple[Any, ...], root: Sequence[_Move], inner_per_length: int, max_depth: int,
           table_bits: int, node_limit: int, hard_deadline: float, should_stop: Callable[[], bool] | None,
           on_depth: Callable[[int, float, list[_Move], int], bool] | None
           ) -> tuple[_Move, float, int, int, int, list[_Move]]: ...
