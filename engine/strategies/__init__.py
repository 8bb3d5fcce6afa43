"""The one registry of strategies: each name once, with the module and class that play it.

Each entry imports its module only when asked for, so the engine starts fast
and a strategy's heavy imports cost nothing until it is selected. The `Strategy`
option (engine/options.py), `bench` and `--help` read their names here.
"""

from __future__ import annotations

from importlib import import_module

from .base import Limits, PlayOptions, Strategy

_ENTRIES = {
    "search": ("engine.strategies.search_strategy", "SearchStrategy"),
    "heuristic": ("engine.strategies.heuristic", "HeuristicStrategy"),
    "flatmc": ("engine.strategies.flat_mc", "FlatMCStrategy"),
    "fastmc": ("engine.strategies.fast_mc", "FastMCStrategy"),
    "greedy": ("engine.strategies.greedy", "GreedyStrategy"),
    "random": ("engine.strategies.random_strategy", "RandomStrategy"),
}

STRATEGY_NAMES = tuple(_ENTRIES)
"""Every strategy, the engine's default (`search`) first."""


def make_strategy(name: str) -> Strategy:
    """A new strategy object of the named kind (case-insensitive); ValueError if unknown."""
    key = name.strip().lower()
    if key not in _ENTRIES:
        raise ValueError(f"unknown strategy {name!r}; expected one of {', '.join(STRATEGY_NAMES)}")
    module, cls = _ENTRIES[key]
    strategy: Strategy = getattr(import_module(module), cls)()
    return strategy


__all__ = ["Limits", "PlayOptions", "Strategy", "STRATEGY_NAMES", "make_strategy"]
