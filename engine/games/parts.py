"""The one interface through which the strategies reach what the engine knows of a game.

Each game's package declares its parts once, as a `GameParts` named PARTS in its __init__.py;
engine/games/__init__.py registers the package in one line. A part is a loader: a function that
imports what the part needs when a strategy first asks for it, so the engine starts without any
game's searcher, tables or C core. What a game does not declare is played by the game's measure
(engine/games/generic.py): the strategies never ask which game they play.

Every function here takes protocol's `Game`; a game's own part checks that it was given its game
(`narrowed`) and works on the concrete class from there.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, Protocol, TypeVar

from protocol.game import Game
from protocol.moves import Move

from . import generic
from .treemc import GameTree, NewNativeTree, TreeMCSettings, new_tree

if TYPE_CHECKING:
    from engine.search.searcher import Searcher

G = TypeVar("G", bound=Game)
M = TypeVar("M")

Ranked = list[tuple[float, Move]]
"""(score, move), best first for the side to move."""
Ranking = Callable[[Game, random.Random, "threading.Event | None"], Ranked]
"""The `heuristic` partner's one-ply ranking (also Skill Level's and `flatmc`'s root): the moves judged so
far once the event is set; [(0, PASS)] when the mover must pass."""
GreedyPick = Callable[[Game, threading.Event, random.Random], tuple[Move, int]]
"""The `greedy` partner's move and how many moves (or HARI slide sets) it examined."""
Policy = Callable[[Game, random.Random], Move]
"""A playout's move for the side to move (the game is not over)."""
Valuer = Callable[[Game, int], float]
"""Where a playout ended, for a colour: 1/0.5/0 at a game end (a margin may be blended in), else a guess."""


@dataclass(frozen=True)
class Sparring:
    """What the sparring partners `greedy` and `flatmc` play in one game (SPEC 9.7): greedy's rule, and
    flatmc's playout policy and the value of where a playout ends. By the game's measure where the game
    says nothing (engine/games/generic.py)."""

    greedy: GreedyPick = generic.greedy_move
    playout_policy: Policy = generic.random_move
    playout_value: Valuer = generic.outcome_or_lead


class PlayoutSettings(Protocol):
    """A playout core's policy and root parameters (each game's frozen PlayoutSettings dataclass)."""

    @property
    def ucb_c(self) -> float: ...

    def params(self) -> tuple[float, ...]:
        """The core's parameters, in its order (all fields but ucb_c, which the budget carries)."""
        ...


Progress = Callable[[int, int, int, float], bool]
"""progress(nodes, playouts, best arm, its mean) -> True to stop: called by a core every `every` seconds."""
Budget = tuple[int, float, int, int, float, "Progress | None", float]
"""(seed, ucb_c, node limit, playout limit, deadline, progress, every) (engine/search/native/_flat_mc.h)."""


class FlatAnswer(NamedTuple):
    """What a playout core's flat Monte Carlo found: the root candidates with their playouts and summed values."""

    moves: list[Move]
    visits: list[int]
    totals: list[float]
    nodes: int
    playouts: int

    def order(self) -> list[int]:
        """Candidate indices, the answer first: most visits, then the higher mean."""
        return sorted(range(len(self.moves)), key=lambda i: (-self.visits[i], -self.mean(i), i))

    def mean(self, i: int) -> float:
        return self.totals[i] / self.visits[i] if self.visits[i] else 0.5


class PlayoutCore(Protocol):
    """A game's C playout core as `fastmc` drives it: its own model of the position, root candidates and
    playouts, the position handed in and the moves handed back as protocol moves (not yet vetted)."""

    @property
    def defaults(self) -> PlayoutSettings: ...

    def moves_left(self, game: Game) -> int:
        """The moves the side to move still makes, roughly (for the clock)."""
        ...

    def candidates(self, game: Game, settings: PlayoutSettings) -> list[Move]: ...

    def search(self, game: Game, settings: PlayoutSettings, budget: Budget) -> FlatAnswer: ...

    @property
    def tree_defaults(self) -> TreeMCSettings | None:
        """The `treemc` partner's numbers in this game; None: the core has no tree (treemc plays fastmc)."""
        ...

    def new_tree(self, game: Game, settings: TreeMCSettings, seed: int) -> GameTree[Any]:
        """The `treemc` partner's tree at `game`'s position (engine/games/treemc.py)."""
        ...


class NativePlayouts(Protocol[M]):
    """The Python entry points every compiled playout core has (engine/search/native/_playout_api.h and
    _playout_uct.h), whose moves are M: each game's playout_core.py holds its C module as one (a game's extra
    entry points in a Protocol derived from this one), so these are declared once, not in a stub per core."""

    def segments(self) -> list[tuple[int, int, int, int]]:
        """(lo, hi, length, horizontal) by segment index, as protocol.board.SEGMENTS."""
        ...

    def candidates(self, position: tuple[object, ...], params: Sequence[float]) -> list[M]: ...

    def search(self, position: tuple[object, ...], params: Sequence[float],
               budget: Budget) -> tuple[list[M], list[int], list[float], int, int]: ...

    def playout(self, position: tuple[object, ...], params: Sequence[float],
                seed: int) -> tuple[list[M], tuple[int, int], int]:
        """One playout: its moves, (Dark's measure, Light's) where it ended, the winner (0, 1, -1 a draw, -2 cut
        short)."""
        ...

    @property
    def UctTree(self) -> NewNativeTree[M]:
        """The `treemc` partner's tree type (engine/search/native/_uct.h)."""
        ...


@dataclass(frozen=True)
class CompiledPlayoutCore(Generic[M]):
    """A PlayoutCore over a compiled core: a game gives its module, how its position is written for the
    core, how the core's moves M read as protocol moves, its clock estimate and the `treemc` partner's
    numbers (None: no tree)."""

    defaults: PlayoutSettings
    native: NativePlayouts[M]
    position: Callable[[Game], tuple[object, ...]]
    to_move: Callable[[M], Move]
    estimate: Callable[[Game], int]
    tree_defaults: TreeMCSettings | None = None

    def moves_left(self, game: Game) -> int:
        return self.estimate(game)

    def candidates(self, game: Game, settings: PlayoutSettings) -> list[Move]:
        return [self.to_move(m) for m in self.native.candidates(self.position(game), settings.params())]

    def search(self, game: Game, settings: PlayoutSettings, budget: Budget) -> FlatAnswer:
        moves, visits, totals, nodes, playouts = self.native.search(self.position(game), settings.params(), budget)
        return FlatAnswer([self.to_move(m) for m in moves], visits, totals, nodes, playouts)

    def new_tree(self, game: Game, settings: TreeMCSettings, seed: int) -> GameTree[M]:
        return new_tree(self.native.UctTree, self.position, self.to_move, game, settings, seed)


@dataclass(frozen=True)
class GameParts:
    """What the engine knows of one game, each part a loader called when a strategy first needs it.

    searcher: the `search` strategy's (engine/search/searcher.py); None: `search` cannot play the game.
    ranking: the one-ply ranking of `heuristic`, Skill Level and `flatmc`'s root; None: by the measure.
    sparring: greedy's rule and flatmc's playouts; None: by the measure.
    playout_core: the C playout core `fastmc` drives, or None where it was not compiled; no loader: the
    game has none (fastmc then plays flatmc's Python playouts either way)."""

    searcher: Callable[[], Searcher[Any]] | None = None
    ranking: Callable[[], Ranking] | None = None
    sparring: Callable[[], Sparring] | None = None
    playout_core: Callable[[], PlayoutCore | None] | None = None

    @classmethod
    def standard(cls, package: str) -> GameParts:
        """The parts of a game package laid out as the three games' are, each module imported when a
        strategy first asks: search.SEARCHER, ranking.RANKING, sparring.SPARRING and playout_core.FASTMC,
        each declared there with its type (mypy checks them there). A game laid out otherwise, or with
        fewer parts, writes its own loaders (tests/engine/games/test_toy_game_engine.py)."""
        def loader(module: str, name: str) -> Callable[[], Any]:
            return lambda: getattr(import_module(f"{package}.{module}"), name)
        return cls(searcher=loader("search", "SEARCHER"), ranking=loader("ranking", "RANKING"),
                   sparring=loader("sparring", "SPARRING"), playout_core=loader("playout_core", "FASTMC"))


def narrowed(game: Game, kind: type[G], who: str) -> G:
    """`game` as the game class a part works on; TypeError naming the part if it is another game."""
    if not isinstance(game, kind):
        raise TypeError(f"{who} works on {kind.__name__}, not {type(game).__name__}")
    return game


def compiled(module: str) -> ModuleType | None:
    """The C extension `module`, or None where it was not compiled (setup.py builds it as optional): the
    engine then plays the Python twin of what it does."""
    try:
        return import_module(module)
    except ImportError:
        return None
