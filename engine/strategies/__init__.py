"""The one registry of strategies: each name once, with the module and class that play it.

Each entry imports its module only when asked for, so the engine starts fast
and a strategy's heavy imports cost nothing until it is selected. The `Strategy`
option (engine/options.py), `bench` and `--help` read their names here, and `bench`
what it measures of each.
"""

from __future__ import annotations

from importlib import import_module
from typing import NamedTuple

from .base import Limits, PlayOptions, Strategy


class StrategyEntry(NamedTuple):
    module: str
    class_name: str
    playouts: bool = False
    """Its moves are all playouts: `bench` also gives playouts and playouts per second."""
    bench_nodes: int | None = None
    """`bench`'s default node count for it where the default would time its start-up (cheap nodes)."""


_ENTRIES = {
    "search": StrategyEntry("engine.strategies.search_strategy", "SearchStrategy"),
    "heuristic": StrategyEntry("engine.strategies.heuristic", "HeuristicStrategy"),
    "flatmc": StrategyEntry("engine.strategies.flat_mc", "FlatMCStrategy", playouts=True),
    "fastmc": StrategyEntry("engine.strategies.fast_mc", "FastMCStrategy", playouts=True, bench_nodes=200_000),
    "treemc": StrategyEntry("engine.strategies.tree_mc", "TreeMCStrategy", playouts=True, bench_nodes=200_000),
    "greedy": StrategyEntry("engine.strategies.greedy", "GreedyStrategy"),
    "random": StrategyEntry("engine.strategies.random_strategy", "RandomStrategy"),
}

STRATEGY_NAMES = tuple(_ENTRIES)
"""Every strategy, the engine's default (`search`) first."""


def make_strategy(name: str) -> Strategy:
    """A new strategy object of the named kind (case-insensitive); ValueError if unknown."""
    key = name.strip().lower()
    if key not in _ENTRIES:
        raise ValueError(f"unknown strategy {name!r}; expected one of {', '.join(STRATEGY_NAMES)}")
    entry = _ENTRIES[key]
    strategy: Strategy = getattr(import_module(entry.module), entry.class_name)()
    return strategy


def strategy_entry(name: str) -> StrategyEntry:
    """The registry's entry of a strategy (KeyError if there is none)."""
    return _ENTRIES[name]


__all__ = ["Limits", "PlayOptions", "Strategy", "STRATEGY_NAMES", "StrategyEntry", "make_strategy", "strategy_entry"]
