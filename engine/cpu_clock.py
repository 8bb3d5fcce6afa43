"""The engine's clock as its own CPU time, for benchmarks on a loaded machine (ISAAC_ENGINE_CLOCK=cpu).

On a machine shared by other work, "100 ms a move" gives an engine whatever CPU the others leave it: a
tenth of that under a load of ten, and the figures say more about the load than about the engines. With
ISAAC_ENGINE_CLOCK=cpu in its environment, the engine reads every time it keeps (when a `go` arrived,
its deadlines, the time in its `info` lines) on the process's CPU clock instead of the wall clock, in
Python (time.monotonic is made time.process_time before the engine's modules are imported) and in its C
cores (monotonic_seconds in engine/search/native/_common.h): a move of 100 ms is then 100 ms of its CPU,
as on an idle machine. The referee's clock stays the wall clock: give it a margin large enough for the
load (benchmarks/strength.py --cpu-clock does). A benchmarking mode only; the engine's default is the
wall clock.
"""

from __future__ import annotations

import os
import time

ENVIRONMENT = "ISAAC_ENGINE_CLOCK"


def use_cpu_clock_if_asked() -> bool:
    """Make time.monotonic the process's CPU clock if the environment asks (`cpu`); True if it did. Call it
    before importing the engine's modules: some bind time.monotonic when imported."""
    chosen = os.environ.get(ENVIRONMENT, "")
    if chosen == "cpu":
        time.monotonic = time.process_time
        return True
    if chosen not in ("", "wall"):
        raise SystemExit(f"isaac-engine: {ENVIRONMENT}={chosen!r}: expected 'cpu' or 'wall'")
    return False
