"""cgroup v2 for engines, where the machine lets the referee use it (Linux).

A cgroup holds a process and every process it ever starts, whatever they do: a child that leaves
the engine's process group (setsid) stays in the engine's cgroup. So where cgroup v2 is writable,
each engine process gets a cgroup of its own under one directory per referee
(``<the referee's cgroup>/isaac-referee-<pid>/e<pgid>``) and the referee

* finds the processes that left the engine's process group, to pause them with it (referee/engines/cpu.py),
* limits it to its game's cores (``cpuset.cpus``) and to as much CPU time as those cores give
  (``cpu.max``) when the cpuset and cpu controllers are delegated to the referee's cgroup,
* kills it as a whole at the end (``cgroup.kill``), and removes it.

Nothing here is required: when cgroup v2 is missing, read-only, or not delegated, ``CgroupRoot.open``
returns None and the referee pauses engines with SIGSTOP/SIGCONT of their process group instead.
"""

from __future__ import annotations

import os
import secrets
import signal
from pathlib import Path

MOUNTINFO = "/proc/self/mountinfo"
OWN_CGROUP = "/proc/self/cgroup"


def _lines(path: str) -> list[str]:
    """The lines of a /proc file; none where it cannot be read."""
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []


def cgroup2_mount(mountinfo: str = MOUNTINFO) -> Path | None:
    """Where the cgroup v2 hierarchy is mounted (/sys/fs/cgroup, or .../unified on a hybrid system)."""
    for line in _lines(mountinfo):
        left, sep, right = line.partition(" - ")
        if sep and right.split(" ", 1)[0] == "cgroup2":
            fields = left.split()
            if len(fields) > 4:
                return Path(fields[4].replace("\\040", " "))
    return None


def own_cgroup(path: str = OWN_CGROUP) -> str | None:
    """This process's cgroup v2 path (the '0::' line), e.g. '/user.slice/...'."""
    for line in _lines(path):
        if line.startswith("0::"):
            return line[3:] or "/"
    return None


def _write(path: Path, text: str) -> bool:
    try:
        with open(path, "w", encoding="ascii") as fh:
            fh.write(text)
        return True
    except OSError:
        return False


class EngineCgroup:
    """The cgroup of one engine process: its members, freezing, cores and CPU quota."""

    def __init__(self, path: Path, controllers: frozenset[str]):
        self.path = path
        self.controllers = controllers

    def add(self, pid: int) -> bool:
        """Move a process (and so its future children) in; False if it is gone or may not move."""
        return _write(self.path / "cgroup.procs", str(pid))

    def add_all(self, pids: list[int]) -> None:
        for pid in pids:
            self.add(pid)

    def members(self) -> list[int]:
        """Every process in the cgroup now."""
        try:
            return [int(p) for p in (self.path / "cgroup.procs").read_text().split()]
        except (OSError, ValueError):
            return []

    def populated(self) -> bool:
        """Whether a live process is still in the cgroup (`cgroup.events`); False once it is gone."""
        try:
            events = (self.path / "cgroup.events").read_text()
        except OSError:
            return False
        return "populated 1" in events

    def limit_cores(self, cores: tuple[int, ...]) -> bool:
        """Keep every member on `cores` and within their CPU time; False when the controllers are
        not delegated here (the caller then pins with sched_setaffinity)."""
        if not cores or "cpuset" not in self.controllers:
            return False
        done = _write(self.path / "cpuset.cpus", ",".join(map(str, cores)))
        if done and "cpu" in self.controllers:
            _write(self.path / "cpu.max", f"{100_000 * len(cores)} 100000")
        return done

    def kill(self) -> None:
        """SIGKILL every member (cgroup.kill, Linux 5.14; one by one before)."""
        if _write(self.path / "cgroup.kill", "1"):
            return
        for pid in self.members():
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass

    def remove(self) -> bool:
        """Remove the (empty) cgroup; False while a member is still there."""
        try:
            self.path.rmdir()
        except FileNotFoundError:
            pass
        except OSError:
            return False
        return True


class CgroupRoot:
    """This referee's directory of engine cgroups."""

    def __init__(self, path: Path, controllers: frozenset[str]):
        self.path = path
        self.controllers = controllers

    @classmethod
    def open(cls) -> CgroupRoot | None:
        """Make the referee's directory, or None when cgroup v2 cannot be used here."""
        mount, own = cgroup2_mount(), own_cgroup()
        if mount is None or own is None:
            return None
        parent = mount / own.lstrip("/")
        path = parent / f"isaac-referee-{os.getpid()}-{secrets.token_hex(3)}"
        try:
            path.mkdir()
        except OSError:
            return None
        if not os.access(path / "cgroup.procs", os.W_OK):
            _rmdir(path)
            return None
        try:
            offered = set((path / "cgroup.controllers").read_text().split())
        except OSError:
            offered = set()
        wanted = sorted(offered & {"cpu", "cpuset"})
        if wanted and not _write(path / "cgroup.subtree_control", " ".join(f"+{c}" for c in wanted)):
            wanted = []
        return cls(path, frozenset(wanted))

    def engine(self, name: str) -> EngineCgroup | None:
        """A new cgroup for one engine process, or None if it cannot be made."""
        path = self.path / name
        try:
            path.mkdir()
            return EngineCgroup(path, self.controllers)
        except OSError:
            _rmdir(path)
            return None

    def remove(self) -> None:
        """Remove the directory (and any empty engine cgroup left in it)."""
        try:
            children = [p for p in self.path.iterdir() if p.is_dir()]
        except OSError:
            children = []
        for child in children:
            _rmdir(child)
        _rmdir(self.path)


def _rmdir(path: Path) -> None:
    try:
        path.rmdir()
    except OSError:
        pass
