"""Finding processes through /proc, for the tests that prove no engine is left behind.

Engines in these tests run in a fresh directory or carry a token on their command line, so a test
tells its own processes from anyone else's on a shared machine."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path


def state(pid: int) -> str:
    """The process's state letter (R running, S sleeping, T stopped, Z zombie, ...); '' when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            stat = fh.read()
    except OSError:
        return ""
    return stat[stat.rfind(b")") + 2:].split()[0].decode()


def _pids() -> list[int]:
    return [int(entry) for entry in os.listdir("/proc") if entry.isdigit()]


def processes_in(directory: Path) -> list[int]:
    """Pids of running processes whose working directory is `directory`."""
    target, out = str(directory.resolve()), []
    for pid in _pids():
        try:
            if os.readlink(f"/proc/{pid}/cwd") == target:
                out.append(pid)
        except OSError:
            pass
    return out


def processes_with(token: str, alive: bool = False) -> list[int]:
    """Pids of processes whose command line holds `token` (with `alive`: zombies left out)."""
    out = []
    for pid in _pids():
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                found = token.encode() in fh.read()
        except OSError:
            continue
        if found and (not alive or state(pid) not in ("", "Z")):
            out.append(pid)
    return out


def wait_until(predicate: Callable[[], bool], timeout: float = 5.0) -> bool:
    """Whether `predicate` became true within `timeout` seconds (asked every 20 ms, and once more at the end)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return predicate()
