"""benchmarks/ab_inprocess.py with every player's time on the process's CPU clock (engine/cpu_clock.py).

    python benchmarks/ab_cpu_clock.py --game isaac --a search --b treemc --pairs 100 --ms 40 --jobs 1

On a loaded machine a movetime on the wall clock gives each player whatever CPU the others leave it; here each
move's time is the CPU the process spent, as the engines count it with ISAAC_ENGINE_CLOCK=cpu: the same switch
the engine makes at start-up, made before ab_inprocess.py imports the engine's modules (the time manager binds
time.monotonic when imported), and the C cores read the variable themselves.
"""

import os
import runpy
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.cpu_clock import ENVIRONMENT, use_cpu_clock_if_asked

os.environ[ENVIRONMENT] = "cpu"
use_cpu_clock_if_asked()
runpy.run_path(str(Path(__file__).with_name("ab_inprocess.py")), run_name="__main__")
