"""Types of HARI's search core (engine/games/hari/_search_core.c; see search_core.py)."""

from collections.abc import Callable, Sequence

_Move = tuple[int, int, int, int]

def segments() -> list[tuple[int, int, int, int]]: ...
def candidates(position: tuple[object, ...], per_length: int, scarce: int = 4, slide_max: int = 24, blocks: int = 0,
               place_blocks: int = 0) -> list[_Move]: ...
def contest_margin(position: tuple[object, ...], color: int) -> int: ...
def search(position: tuple[object, ...], root: Sequence[_Move], inner_per_length: int, max_depth: int,
           table_bits: int, node_limit: int, hard_deadline: float, should_stop: Callable[[int], bool] | None,
           on_depth: Callable[[int, float, list[_Move], int, list[tuple[float, list[_Move]]]], bool] | None,
           stop_when_decided: bool = False, scarce: int = 4, slide_max: int = 24, tie_seed: int = 0, blocks: int = 0,
           place_blocks: int = 0, multipv: int = 1, soft_deadline: float = 0.0,
           tiers: Sequence[tuple[float, int, int, int, int]] | None = None
           ) -> tuple[_Move, float, int, int, int, list[_Move], list[tuple[float, list[_Move]]]]: ...
