"""A fresh engine process's start-up and first move, timed as a referee sees them (shared by
latency.py and forfeits.py).

The engine is started, sent `uci`, its variant and Strategy, optionally `ucinewgame` + `isready`
(as the referee sends before a game), then `position startpos moves <two plies>` and
`go movetime MS`: either written together (as the referee writes them) and timed from that write,
or `go` sent 10 ms after the position and timed from `go` alone.
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OPENING_PLIES = {"isaac": "b2b6 j2j6", "foundations": "h3j3 f9i9", "hari": "h3j3 f9i9"}
"""Two legal plies from each start position (the first moves of a fresh engine follow them)."""


def _read_until(proc: subprocess.Popen, prefix: str) -> float:
    assert proc.stdout is not None
    while True:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError(f"engine ended before {prefix!r}")
        if line.startswith(prefix):
            return time.perf_counter()


def first_move(cmd: list[str], game: str, movetime: int, *, strategy: str = "search", isready: bool = True,
               together: bool = False) -> tuple[float, float]:
    """(ms spawn -> uciok, ms to bestmove) of one fresh engine started with `cmd` in the repository
    (which is on its PYTHONPATH); the second from the write of position+go if `together`, else from go."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
                            env=env, cwd=REPO)
    assert proc.stdin is not None

    def say(*lines: str) -> None:
        assert proc.stdin is not None
        proc.stdin.write("".join(line + "\n" for line in lines))
        proc.stdin.flush()

    try:
        say("uci")
        uciok = (_read_until(proc, "uciok") - started) * 1000
        say(f"setoption name UCI_Variant value {game}", f"setoption name Strategy value {strategy}",
            *(["ucinewgame", "isready"] if isready else []))
        if isready:
            _read_until(proc, "readyok")
        position, go = f"position startpos moves {OPENING_PLIES[game]}", f"go movetime {movetime}"
        if together:
            sent = time.perf_counter()
            say(position, go)
        else:
            say(position)
            time.sleep(0.01)
            sent = time.perf_counter()
            say(go)
        answered = (_read_until(proc, "bestmove") - sent) * 1000
        say("quit")
    finally:
        proc.wait(timeout=10)
    return uciok, answered
