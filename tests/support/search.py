"""Search contexts for in-process tests of the engine's searchers (no protocol, no threads)."""

from __future__ import annotations

import threading
from typing import TypeVar

from engine.search.context import SearchContext
from engine.search.limits import Limits
from engine.search.timeman import TimeManager

S = TypeVar("S")


def context(settings: S, **limits: object) -> SearchContext[S]:
    """A silent search context with `settings` under Limits(**limits) (for example nodes=500, depth=3)."""
    return SearchContext(TimeManager(Limits(**limits), threading.Event()), None, settings)  # type: ignore[arg-type]
