"""benchmarks/ab_inprocess.py with every player's time on the process's CPU clock (engine/cpu_clock.py).

    python benchmarks/ab_cpu_clock.py --game isaac --a search --b treemc --pairs 100 --ms 40 --jobs 1

On a loaded machine a movetime on the wall clock gives each player whatever CPU the others leave it; here each
move's time is the CPU the process spent, as the engines count it with ISAAC_ENGINE_CLOCK=cpu. The clock is
switched before the engine's modules are imported (the time manager binds time.monotonic when imported).
"""

import os
import runpy
import time
from pathlib import Path

os.environ["ISAAC_ENGINE_CLOCK"] = "cpu"  # the C cores' clock (engine/search/native/_common.h)
time.monotonic = time.process_time  # Python's
runpy.run_path(str(Path(__file__).with_name("ab_inprocess.py")), run_name="__main__")
