"""Types of FOUNDATIONS's playout core (engine/games/foundations/_playout_core.c; see playout_core.py)."""

from collections.abc import Sequence

from engine.games.parts import Budget
from engine.games.treemc import NativeTree

_Move = tuple[int, int]

def segments() -> list[tuple[int, int, int, int]]: ...
def candidates(position: tuple[object, ...], params: Sequence[float]) -> list[_Move]: ...
def search(position: tuple[object, ...], params: Sequence[float], budget: Budget
           ) -> tuple[list[_Move], list[int], list[float], int, int]: ...
def playout(position: tuple[object, ...], params: Sequence[float], seed: int
            ) -> tuple[list[_Move], tuple[int, int], int]: ...

def UctTree(position: tuple[object, ...], game: tuple[tuple[float, ...], ...], tree: tuple[float, float, int],
            seed: int, max_nodes: int, max_slots: int) -> NativeTree[_Move]:
    """The treemc partner's tree (engine/search/native/_uct.h over this core, _playout_uct.h)."""
