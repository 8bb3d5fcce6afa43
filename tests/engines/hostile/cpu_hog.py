"""A correct random player that keeps every core busy: it starts busy child processes at start-up.

    python cpu_hog.py [CHILDREN] [group|setsid]

CHILDREN busy processes (default: one per core; 0 makes it a quiet engine, the same player
without them) start before the engine reads its first command and spin until they are killed:
`group` (default) leaves them in the engine's process group, as a careless engine would;
`setsid` puts each in a session of its own, as an engine escaping its process group would.
Each child closes stdin and stdout, so the referee still sees the engine's own end, and dies with
the engine (PR_SET_PDEATHSIG: a test fixture must not outlive its test, whatever the referee
does). Used by the
fair-clock tests and benchmarks/fair_clock.py: the opponent thinks as fast against it as against
a quiet engine only if the referee keeps it off the CPU while it waits.
"""
import ctypes
import os
import signal
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bad"))

from good_random import RandomEngine


def start_children(count: int, own_session: bool) -> list[int]:
    pids = []
    for _ in range(count):
        pid = os.fork()
        if pid == 0:
            try:
                ctypes.CDLL(None).prctl(1, signal.SIGKILL, 0, 0, 0)   # PR_SET_PDEATHSIG
                if own_session:
                    os.setsid()
                devnull = os.open(os.devnull, os.O_RDWR)
                for fd in (0, 1):
                    os.dup2(devnull, fd)
                while True:
                    pass
            finally:
                os._exit(0)
        pids.append(pid)
    return pids


class CpuHog(RandomEngine):
    name = "cpu_hog"


if __name__ == "__main__":
    children = int(sys.argv[1]) if len(sys.argv) > 1 else (os.cpu_count() or 1)
    mode = sys.argv[2] if len(sys.argv) > 2 else "group"
    start_children(children, own_session=mode == "setsid")
    CpuHog().run()
