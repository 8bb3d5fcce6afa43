"""Registry of strategies: `make_strategy('search' | 'heuristic' | 'flatmc' | 'fastmc' | 'greedy' | 'random')`.

Each entry imports its module only when asked for, so the engine starts fast
and a strategy's heavy imports cost nothing until it is selected.
"""

from __future__ import annotations

from importlib import import_module

from .base import Limits, Strategy

STRATEGY_NAMES = ("search", "heuristic", "flatmc", "fastmc", "greedy", "random")

_ENTRIES = {
    "search": ("engine.strategies.search_strategy", "SearchStrategy"),
    "heuristic": ("engine.strategies.heuristic", "HeuristicStrategy"),
    "flatmc": ("engine.strategies.flat_mc", "FlatMCStrategy"),
    "fastmc": ("engine.strategies.fast_mc", "FastMCStrategy"),
    "greedy": ("engine.strategies.greedy", "GreedyStrategy"),
    "random": ("engine.strategies.random_strategy", "RandomStrategy"),
}


def make_strategy(name: str) -> Strategy:
    """A new strategy object of the named kind (case-insensitive); ValueError if unknown."""
    key = name.strip().lower()
    if key not in _ENTRIES:
        raise ValueError(f"unknown strategy {name!r}; expected one of {', '.join(STRATEGY_NAMES)}")
    module, cls = _ENTRIES[key]
    strategy: Strategy = getattr(import_module(module), cls)()
    return strategy


__all__ = ["Limits", "Strategy", "STRATEGY_NAMES", "make_strategy"]
