"""A watchdog process that ends the referee's engines if the referee itself dies without doing it.

The referee pauses engines that wait for their turn (SIGSTOP, or a frozen cgroup: referee/engines/cpu.py).
A paused engine cannot see the end of its input, so if the referee were killed outright (SIGKILL,
an out-of-memory kill, a crash of the interpreter) its paused engines would stay paused forever,
holding their memory. The watchdog is a tiny Python process in a session of its own (terminal
signals do not reach it) that the referee tells, one line per change on a pipe, which engine
process groups and cgroups exist. When the pipe closes, which happens however the referee ends,
it kills every group and cgroup still registered and removes the cgroups. A normal end
unregisters everything first, so the watchdog then only exits.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading

_SCRIPT = r"""
import os, signal, sys, time
for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU):
    signal.signal(s, signal.SIG_IGN)
groups, cgroups, roots = set(), set(), set()
for raw in sys.stdin.buffer:
    op, _, arg = raw.decode("utf-8", "replace").strip().partition(" ")
    kinds = {"g": groups, "c": cgroups, "r": roots}
    if len(op) != 2 or op[0] not in "+-" or op[1] not in kinds or not arg:
        continue
    if op[1] == "g":
        if not arg.isdigit():
            continue
        arg = int(arg)
    (kinds[op[1]].add if op[0] == "+" else kinds[op[1]].discard)(arg)
for pgid in groups:
    for sig in (signal.SIGKILL, signal.SIGCONT):
        try:
            os.killpg(pgid, sig)
        except OSError:
            pass
for path in cgroups:
    try:
        open(os.path.join(path, "cgroup.freeze"), "w").write("0")
    except OSError:
        pass
    try:
        open(os.path.join(path, "cgroup.kill"), "w").write("1")
    except OSError:
        try:
            pids = open(os.path.join(path, "cgroup.procs")).read().split()
        except OSError:
            pids = []
        for pid in pids:
            try:
                os.kill(int(pid), signal.SIGKILL)
            except (OSError, ValueError):
                pass
for root in roots:
    try:
        cgroups.update(os.path.join(root, name) for name in os.listdir(root)
                       if os.path.isdir(os.path.join(root, name)))
    except OSError:
        pass
deadline = time.monotonic() + 5
for path in sorted(cgroups) + sorted(roots):
    while True:
        try:
            os.rmdir(path)
            break
        except FileNotFoundError:
            break
        except OSError:
            if time.monotonic() > deadline:
                break
            time.sleep(0.05)
"""


class Watchdog:
    """The referee's side of the pipe: register and unregister engine groups and cgroups."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process = subprocess.Popen([sys.executable, "-S", "-c", _SCRIPT], stdin=subprocess.PIPE,
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                         start_new_session=True)
        assert self._process.stdin is not None
        self._fd = self._process.stdin.fileno()

    @property
    def pid(self) -> int:
        return self._process.pid

    def _say(self, op: str, value: object) -> None:
        data = f"{op} {value}\n".encode()
        with self._lock:
            try:
                os.write(self._fd, data)   # shorter than PIPE_BUF: one atomic write
            except OSError:
                pass                       # the watchdog is gone: the engines are only unguarded

    def add_group(self, pgid: int) -> None:
        self._say("+g", pgid)

    def drop_group(self, pgid: int) -> None:
        self._say("-g", pgid)

    def add_cgroup(self, path: object) -> None:
        self._say("+c", path)

    def drop_cgroup(self, path: object) -> None:
        self._say("-c", path)

    def add_root(self, path: object) -> None:
        self._say("+r", path)


_WATCHDOG: Watchdog | None = None
_FAILED = False
_LOCK = threading.Lock()


def watchdog() -> Watchdog | None:
    """This process's watchdog, started on first use; None if it cannot be started."""
    global _WATCHDOG, _FAILED
    with _LOCK:
        if _WATCHDOG is None and not _FAILED:
            try:
                _WATCHDOG = Watchdog()
            except OSError:
                _FAILED = True
        return _WATCHDOG
