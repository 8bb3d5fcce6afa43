"""Fair CPU: an engine gets the CPU only while it is its turn, and each game has its own cores.

A referee times moves on the wall clock, so anything that takes CPU from the engine to move
takes its thinking time: the opponent thinking on (pondering, or a child process left busy),
or the engines of another game. Two measures, both on by default (``--fair-cpu auto``):

* **Pause the waiting engine.** Between its conversations with the referee (handshake, new game,
  each `go` up to its `bestmove`) an engine is paused: SIGSTOP to its process group, SIGCONT once
  the referee's next command is in its pipe (one wake-up, with the input waiting). Where cgroup v2
  is usable, each engine also has a cgroup (referee/engines/cgroup.py), which a child cannot leave: a
  process that left the engine's process group (setsid) is found there at each new game and
  paused with the group. (Freezing the cgroup itself would be simpler but costs about half a
  millisecond a move on a busy machine, against microseconds for the signals.) An engine that
  ponders (thinks on the opponent's time) declares ``pause=no`` and is never paused.
* **Cores per game.** With ``--concurrency`` at most the free cores (the usable cores less one left
  to the referee and the OS), each game slot gets its own cores and both engines of a game run
  there (cgroup ``cpuset.cpus``/``cpu.max`` where delegated, else ``sched_setaffinity`` on every
  thread of every process of the engine's group; children inherit it). The referee itself is
  not pinned: on a shared machine a referee held to one core would wait whenever that core is
  busy, and its moves' overhead with it. With more games than free
  cores, no core is assigned and the referee warns that clocks are not fair.

``--fair-cpu signals`` uses SIGSTOP/SIGCONT and affinity only (no cgroups); ``--fair-cpu off``
does neither (engines run as the OS schedules them). docs/hosting.md says what is guaranteed.
"""

from __future__ import annotations

import asyncio
import atexit
import os
import signal
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from .cgroup import CgroupRoot, EngineCgroup, cgroup2_mount, own_cgroup
from .watchdog import watchdog

FAIR_MODES = ("auto", "signals", "off")


def usable_cores() -> list[int]:
    """The cores this process may run on."""
    try:
        return sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return list(range(os.cpu_count() or 1))


def free_cores() -> list[int]:
    """The usable cores less the first, which is left to the referee and the OS (all when only one)."""
    cores = usable_cores()
    return cores[1:] if len(cores) > 1 else cores


@dataclass(frozen=True)
class CorePlan:
    """The cores of each game slot (empty tuples: not pinned) and why not, if they are not."""

    slots: tuple[tuple[int, ...], ...]
    warning: str | None = None

    def cores(self, slot: int) -> tuple[int, ...]:
        return self.slots[slot % len(self.slots)] if self.slots else ()


def plan_cores(concurrency: int, mode: str = "auto", cores: list[int] | None = None) -> CorePlan:
    """Split the free cores between `concurrency` game slots, the same number each (the rest idle)."""
    slots_wanted = max(1, concurrency)
    if mode == "off":
        return CorePlan(((),) * slots_wanted)
    free = free_cores() if cores is None else cores
    if slots_wanted > len(free):
        return CorePlan(((),) * slots_wanted,
                        f"{slots_wanted} games at once but {len(free)} free core{'s' if len(free) != 1 else ''} "
                        f"(one usable core is left to the referee): games share cores, so clocks are not "
                        f"fair; use --concurrency {len(free)} or fewer")
    per = len(free) // slots_wanted
    return CorePlan(tuple(tuple(free[i * per:(i + 1) * per]) for i in range(slots_wanted)))


# -- pinning ------------------------------------------------------------------------------------

def processes() -> list[tuple[int, int, int, str]]:
    """(pid, ppid, pgid, state) of every process, zombies included (Linux /proc; empty elsewhere)."""
    out: list[tuple[int, int, int, str]] = []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return out
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:
            continue
        rest = stat[stat.rfind(b")") + 2:].split()
        if len(rest) > 2:
            out.append((int(entry), int(rest[1]), int(rest[2]), rest[0].decode()))
    return out


def group_members(pgid: int) -> list[tuple[int, int, str]]:
    """(pid, ppid, state) of every process in group `pgid`, zombies included (Linux /proc)."""
    return [(pid, ppid, state) for pid, ppid, group, state in processes() if group == pgid]


def group_pids(pgid: int) -> list[int]:
    """Every live process of a process group."""
    return [pid for pid, _, state in group_members(pgid) if state != "Z"]


def pin(pids: Iterable[int], cores: tuple[int, ...]) -> None:
    """Every thread of these processes on `cores` (empty: on every usable core again)."""
    target = set(cores) if cores else set(usable_cores())
    for pid in pids:
        try:
            tids = [int(t) for t in os.listdir(f"/proc/{pid}/task")]
        except OSError:
            tids = [pid]
        for tid in tids:
            try:
                os.sched_setaffinity(tid, target)
            except OSError:
                pass


# -- pausing ----------------------------------------------------------------------------------------

_ROOT: CgroupRoot | None = None
_ROOT_TRIED = False
_ROOT_LOCK = threading.Lock()


def cgroup_root() -> CgroupRoot | None:
    """This process's directory of engine cgroups (made once), or None where cgroup v2 is not usable."""
    global _ROOT, _ROOT_TRIED
    with _ROOT_LOCK:
        if not _ROOT_TRIED:
            _ROOT_TRIED = True
            _ROOT = CgroupRoot.open()
            guard = watchdog() if _ROOT is not None else None
            if guard is not None and _ROOT is not None:
                guard.add_root(_ROOT.path)
        return _ROOT


_LEFT: list[EngineCgroup] = []
"""Engine cgroups not empty yet when their engine ended (a member still dying): removed once empty, when a
later engine ends, and at exit."""
_LIVE: dict[int, CpuControl] = {}
"""Every engine under control, by process group."""
_LIVE_LOCK = threading.Lock()


def kill_controlled(pgids: Iterable[int] | None = None) -> None:
    """From any thread: SIGKILL everything in the cgroups of these engine groups (all when None; the
    caller kills the groups themselves) and forget them; the cgroups are removed once empty when a later
    engine ends, or at exit, since their engines' event loop may never run again."""
    with _LIVE_LOCK:
        controls = [_LIVE.pop(pgid) for pgid in (list(_LIVE) if pgids is None else pgids) if pgid in _LIVE]
    for control in controls:
        control.pausable = False
        if control.cgroup is not None:
            control.cgroup.kill()
            with _LIVE_LOCK:
                _LEFT.append(control.cgroup)
            control.cgroup = None
        if control._guard is not None:
            control._guard.drop_group(control.pgid)


@atexit.register
def remove_cgroups() -> None:
    """Remove what is left of this process's cgroups (the watchdog does it if this never runs)."""
    for cgroup in _LEFT:
        cgroup.kill()
    deadline = time.monotonic() + 1.0
    while _LEFT and time.monotonic() < deadline:
        _LEFT[:] = [c for c in _LEFT if not c.remove()]
        if _LEFT:
            time.sleep(0.02)
    with _ROOT_LOCK:
        if _ROOT is not None:
            _ROOT.remove()


class CpuControl:
    """Pausing and core placement of one engine process (its process group, and its cgroup if any).

    `pause`/`resume` are one system call each (plus one per escaped process), made on every move,
    so they keep no state beyond a flag and never read /proc."""

    def __init__(self, pgid: int, mode: str, pausable: bool):
        self.pgid = pgid
        self.pausable = pausable and mode != "off"
        self.paused = False
        self.cores: tuple[int, ...] = ()
        self.cgroup: EngineCgroup | None = None
        self.escaped: list[int] = []
        """Processes of the engine's cgroup that left its process group (found by `find_escaped`)."""
        self._guard = watchdog() if self.pausable else None
        if self._guard is not None:
            self._guard.add_group(pgid)
        root = cgroup_root() if mode == "auto" else None
        if root is not None:
            self.cgroup = root.engine(f"e{pgid}")
            if self.cgroup is not None and not self.cgroup.add(pgid):
                self.cgroup.remove()
                self.cgroup = None
            if self.cgroup is not None and self._guard is not None:
                self._guard.add_cgroup(self.cgroup.path)
        with _LIVE_LOCK:
            _LIVE[pgid] = self

    def adopt_group(self) -> None:
        """Put the processes the engine started before its cgroup was made in it: every live process of its
        group, and its descendants outside the group (a child that left the group at once, with setsid)."""
        if self.cgroup is None:
            return
        table = processes()
        children: dict[int, list[int]] = {}
        for pid, ppid, _, state in table:
            if state != "Z":
                children.setdefault(ppid, []).append(pid)
        found, todo = set(), [self.pgid]
        while todo:
            for child in children.get(todo.pop(), []):
                if child not in found:
                    found.add(child)
                    todo.append(child)
        found.update(pid for pid, _, group, state in table if group == self.pgid and state != "Z")
        self.cgroup.add_all(sorted(found))

    def find_escaped(self) -> None:
        """The processes of the engine's cgroup outside its process group (read once a game)."""
        if self.cgroup is None:
            return
        escaped = []
        for pid in self.cgroup.members():
            try:
                if os.getpgid(pid) != self.pgid:
                    escaped.append(pid)
            except OSError:
                pass
        self.escaped = escaped

    def pause(self) -> None:
        if not self.pausable or self.paused:
            return
        self.paused = True
        _signal_group(self.pgid, signal.SIGSTOP)
        for pid in self.escaped:
            _signal_pid(pid, signal.SIGSTOP)

    def resume(self) -> None:
        if not self.paused:
            return
        self.paused = False
        _signal_group(self.pgid, signal.SIGCONT)
        for pid in self.escaped:
            _signal_pid(pid, signal.SIGCONT)

    def place(self, cores: tuple[int, ...], whole_group: bool = True) -> None:
        """Run the engine on `cores` (empty: anywhere); `whole_group=False` pins only the leader
        (enough right after spawn: what it starts later inherits its cores)."""
        if cores == self.cores and whole_group:
            return
        self.cores = cores
        if self.cgroup is not None and self.cgroup.limit_cores(cores):
            return
        pin(group_pids(self.pgid) if whole_group else [self.pgid], cores)

    def release(self) -> None:
        """The engine is being shut down: never paused again, and thawed now (so it can see `quit`)."""
        self.pausable = False
        self.resume()

    async def forget(self, timeout: float = 1.0) -> None:
        """The group is gone: kill what is left in its cgroup and give it up to `timeout` s to exit (SIGKILL
        is delivered at once, but a process takes a while to die, and its cgroup cannot be removed before);
        then remove that cgroup and those kept earlier that are empty now (one still not empty is kept for
        later), and unregister from the watchdog."""
        with _LIVE_LOCK:
            _LIVE.pop(self.pgid, None)
        if self.cgroup is not None:
            self.cgroup.kill()
            deadline = time.monotonic() + timeout
            while self.cgroup.populated() and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
            with _LIVE_LOCK:
                _LEFT.append(self.cgroup)
            self.cgroup = None
        with _LIVE_LOCK:
            removed = [c for c in _LEFT if not c.populated() and c.remove()]
            _LEFT[:] = [c for c in _LEFT if c not in removed]
        if self._guard is not None:
            for cgroup in removed:
                self._guard.drop_cgroup(cgroup.path)
            self._guard.drop_group(self.pgid)


def _signal_group(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _signal_pid(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def cgroup_path_of(pid: int) -> Path | None:
    """The cgroup v2 directory a process is in (tests and diagnostics)."""
    mount, path = cgroup2_mount(), own_cgroup(f"/proc/{pid}/cgroup")
    return None if mount is None or path is None else mount / path.lstrip("/")
