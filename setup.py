"""Build of the optional C cores of the engine: each game's playout core
(engine/games/<game>/_playout_core.c: the `fastmc` sparring partner's playouts, and ISAAC's
search leaves and tree) and the search cores of FOUNDATIONS and HARI
(engine/games/<game>/_search_core.c).

Everything else is in pyproject.toml. The extensions are optional: where they cannot be
compiled the install goes on and the engine plays their Python twins (each game's
search_core.py and playout_core.py say which one runs).
"""

import platform
from glob import glob

from setuptools import Extension, setup

SHARED = ["engine/search/native", "engine/games"]
"""The headers every core may include: the game-neutral techniques (engine/search/native/) and
the board of the ISAAC set the three games share (engine/games/_board.h)."""


def machine_flags() -> list[str]:
    """-mpopcnt where this machine is x86-64 and its CPU has the instruction (Linux's /proc/cpuinfo says so):
    without it the compiler makes every population count a library call, a third of HARI's search time
    (docs/experiments.md). The cores are built where they run (pip install from source), so the flag
    follows the machine; elsewhere the portable code is built, the same moves, slower."""
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return []
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as cpuinfo:
            has_popcnt = any(line.startswith("flags") and " popcnt" in line for line in cpuinfo)
    except OSError:
        return []
    return ["-mpopcnt"] if has_popcnt else []


def core(game: str, name: str) -> Extension:
    """One C extension of a game's package, built with the shared headers and its game's own."""
    return Extension(
        f"engine.games.{game}.{name}",
        sources=[f"engine/games/{game}/{name}.c"],
        include_dirs=SHARED,
        depends=sorted(glob("engine/search/native/*.h") + glob("engine/games/*.h") + glob(f"engine/games/{game}/*.h")),
        extra_compile_args=["-O2", "-std=gnu11", *machine_flags()],
        optional=True,
    )


setup(ext_modules=[core("hari", "_search_core"), core("foundations", "_search_core"),
                   core("isaac", "_playout_core"), core("foundations", "_playout_core"),
                   core("hari", "_playout_core")])
