"""One engine subprocess, handled as untrusted: own process group, bounded reads, certain death.

Why each piece exists:
- The engine runs in its own session (start_new_session=True), so one signal to its process
  group reaches every child it started. Resource limits, when asked for, are set by a tiny
  Python wrapper that then execs the engine (no preexec_fn: it is unsafe with threads).
- stdout is read in chunks by one task and split into lines here, so a line longer than
  protocol.messages.MAX_LINE is detected without ever holding more than that in memory.
  Lines wait in a queue with backpressure: a flooding engine blocks on its own pipe.
- stderr is drained continuously into a small tail buffer, so an engine writing to stderr
  without end neither blocks nor bloats the referee; the tail explains crashes.
- shutdown() sends `quit`, waits, SIGTERMs the group, waits, SIGKILLs the group and reaps.
  On Linux the referee makes itself a child subreaper, so children an engine leaves behind
  are re-parented to the referee and reaped here instead of lingering as zombies.
"""

from __future__ import annotations

import asyncio
import atexit
import os
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from protocol.messages import MAX_LINE

from ..formats.timecontrol import TimeControl
from .cpu import CpuControl, group_members, kill_controlled

CHUNK = 65536
QUEUE_HIGH = 512          # lines waiting before the reader stops reading (backpressure)
STDERR_TAIL_BYTES = 2048

_LIMIT_WRAPPER = (
    "import os,sys,resource\n"
    "m,c=int(sys.argv[1]),int(sys.argv[2])\n"
    "if m: resource.setrlimit(resource.RLIMIT_AS,(m,m))\n"
    "if c: resource.setrlimit(resource.RLIMIT_CPU,(c,c+1))\n"
    "os.execvp(sys.argv[3],sys.argv[3:])\n"
)


@dataclass
class EngineSpec:
    """How to run one engine: command, working directory, UCI options, limits."""

    name: str
    cmd: list[str]
    cwd: str | None = None
    options: dict[str, str] = field(default_factory=dict)
    tc: TimeControl | None = None      # per-engine override of the match time control
    memory_mb: int | None = None       # optional RLIMIT_AS
    cpu_seconds: int | None = None     # optional RLIMIT_CPU
    sandbox: str | None = None         # 'bwrap': run under bubblewrap (referee/engines/sandbox.py)
    writable: list[str] = field(default_factory=list)   # sandbox: paths bound read-write
    readable: list[str] = field(default_factory=list)   # sandbox: more paths bound read-only
    pause: bool = True                 # paused while it waits for its turn (False: it ponders; referee/engines/cpu.py)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name, "cmd": list(self.cmd), "cwd": self.cwd, "options": dict(self.options),
            "tc": None if self.tc is None else str(self.tc),
            "memory_mb": self.memory_mb, "cpu_seconds": self.cpu_seconds,
        }
        if self.sandbox is not None:   # only when used, so runs stored before sandboxes resume unchanged
            out.update(sandbox=self.sandbox, writable=list(self.writable), readable=list(self.readable))
        if not self.pause:             # likewise: only the exception is written
            out["pause"] = False
        return out

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> EngineSpec:
        tc = d.get("tc")
        return cls(name=d["name"], cmd=list(d["cmd"]), cwd=d.get("cwd"), options=dict(d.get("options") or {}),
                   tc=None if tc is None else TimeControl.parse(tc),
                   memory_mb=d.get("memory_mb"), cpu_seconds=d.get("cpu_seconds"),
                   sandbox=d.get("sandbox"), writable=list(d.get("writable") or []),
                   readable=list(d.get("readable") or []), pause=d.get("pause", True) is not False)

    def argv(self) -> list[str]:
        """The command to spawn: the engine itself, or the limit wrapper that execs it (or bwrap)."""
        if not self.cmd:
            raise ValueError(f"engine {self.name!r} has an empty command")
        cmd = list(self.cmd)
        if self.sandbox == "bwrap":
            from .sandbox import bwrap_argv
            cmd = bwrap_argv(cmd, self.cwd, self.writable, self.readable)
        elif self.sandbox is not None:
            raise ValueError(f"engine {self.name!r}: unknown sandbox {self.sandbox!r}")
        if not self.memory_mb and not self.cpu_seconds:
            return cmd
        memory = (self.memory_mb or 0) * 1024 * 1024
        return [sys.executable, "-S", "-c", _LIMIT_WRAPPER, str(memory), str(self.cpu_seconds or 0), *cmd]


class LineKind(StrEnum):
    """What one stdout event is: a line of text, an overlong line (cut), end of output, process exit."""

    TEXT = "text"
    TOO_LONG = "too long"
    EOF = "eof"
    EXIT = "exit"


class Line:
    """One event from the engine's stdout, stamped with time.monotonic() when it was read."""

    __slots__ = ("kind", "text", "t")
    TEXT, TOO_LONG, EOF, EXIT = LineKind.TEXT, LineKind.TOO_LONG, LineKind.EOF, LineKind.EXIT

    def __init__(self, kind: LineKind, text: str, t: float):
        self.kind, self.text, self.t = kind, text, t

    def __repr__(self) -> str:
        return f"Line({self.kind!r}, {self.text[:60]!r})"


class EngineGone(Exception):
    """The engine's pipes are closed or the process exited."""


# -- process groups ---------------------------------------------------------

_LIVE_GROUPS: set[int] = set()
_subreaper_set = False


def _become_subreaper() -> None:
    """Adopt orphans of our engines (Linux), so we can reap them: some inits never do."""
    global _subreaper_set
    if _subreaper_set or not sys.platform.startswith("linux"):
        return
    _subreaper_set = True
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(36, 1, 0, 0, 0)   # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        pass


def live_engine_groups() -> set[int]:
    """Process groups of engines started and not yet shut down (for tests and exit handlers)."""
    return set(_LIVE_GROUPS)


def kill_groups(pgids: list[int], wait_s: float = 2.0) -> None:
    """SIGKILL these engine groups from any thread (no event loop needed), wait until they are gone
    and forget them (used when the loop that started the engines will not run again)."""
    for pgid in pgids:
        _signal_group(pgid, signal.SIGKILL)
    kill_controlled(pgids)
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline and any(group_alive(g) for g in pgids):
        time.sleep(0.01)
    for pgid in pgids:
        _LIVE_GROUPS.discard(pgid)


def group_alive(pgid: int) -> bool:
    """True while any process of the group is still running (zombies do not count)."""
    if os.path.isdir("/proc/self"):
        return any(state != "Z" for _, _, state in group_members(pgid))
    try:
        os.killpg(pgid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    return True


def _signal_group(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _reap_group_zombies(pgid: int) -> None:
    """waitpid the group's dead members that were re-parented to us (we are their subreaper)."""
    me = os.getpid()
    for pid, ppid, state in group_members(pgid):
        if ppid == me and state == "Z":
            try:
                os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                pass


def kill_all_engines(wait_s: float = 1.0) -> None:
    """SIGKILL every engine group still registered and reap what is ours: the last resort on the
    referee's own exit (atexit, Ctrl-C), when no event loop may be left to do it properly."""
    groups = list(_LIVE_GROUPS)
    for pgid in groups:
        _signal_group(pgid, signal.SIGKILL)
        _LIVE_GROUPS.discard(pgid)
    kill_controlled()
    deadline = time.monotonic() + wait_s
    while groups and time.monotonic() < deadline and any(group_alive(g) for g in groups):
        time.sleep(0.01)
    for pgid in groups:
        while time.monotonic() < deadline and os.path.exists(f"/proc/{pgid}"):
            time.sleep(0.01)   # asyncio's child watcher usually reaps the leader itself
        for pid in [pgid] + [pid for pid, _, _ in group_members(pgid)]:
            try:
                os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                pass


atexit.register(kill_all_engines)


# -- the process ------------------------------------------------------------

class EngineProcess:
    """The subprocess of one engine and its three pipes; knows nothing of the protocol's meaning."""

    def __init__(self, spec: EngineSpec, io_log: Callable[[str], None] | None = None,
                 max_line: int = MAX_LINE, stderr_tail_bytes: int = STDERR_TAIL_BYTES,
                 fair_cpu: str = "off"):
        self.spec = spec
        self.io_log = io_log
        self.max_line = max_line
        self.stderr_tail_bytes = stderr_tail_bytes
        self.fair_cpu = fair_cpu
        self.proc: asyncio.subprocess.Process | None = None
        self.pgid: int | None = None
        self.cpu: CpuControl | None = None
        """Pausing and cores (referee/engines/cpu.py); None with fair_cpu 'off'."""
        self._lines: asyncio.Queue[Line] = asyncio.Queue()
        self._room = asyncio.Event()
        self._room.set()
        self._stderr = bytearray()
        self._tasks: list[asyncio.Task[None]] = []
        self.eof = False

    # -- start ---------------------------------------------------------------
    async def start(self) -> None:
        """Spawn in a new session; raises OSError if the command cannot be run at all."""
        _become_subreaper()
        self.proc = await asyncio.create_subprocess_exec(
            *self.spec.argv(), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, cwd=self.spec.cwd, start_new_session=True)
        self.pgid = self.proc.pid
        _LIVE_GROUPS.add(self.pgid)
        if self.fair_cpu != "off":
            self.cpu = CpuControl(self.pgid, self.fair_cpu, self.spec.pause)
        self._tasks = [asyncio.create_task(self._read_stdout()), asyncio.create_task(self._read_stderr()),
                       asyncio.create_task(self._watch_exit())]

    def _started(self) -> asyncio.subprocess.Process:
        if self.proc is None:
            raise EngineGone("not started")
        return self.proc

    def _group(self) -> int:
        if self.pgid is None:
            raise EngineGone("not started")
        return self.pgid

    @property
    def pid(self) -> int | None:
        return None if self.proc is None else self.proc.pid

    @property
    def returncode(self) -> int | None:
        return None if self.proc is None else self.proc.returncode

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    # -- CPU (referee/engines/cpu.py) ----------------------------------------------------
    def pause(self) -> None:
        """Stop the engine's processes until `resume` (nothing for pause=no or fair_cpu 'off')."""
        if self.cpu is not None and self.proc is not None and self.proc.returncode is None:
            self.cpu.pause()

    def resume(self) -> None:
        if self.cpu is not None:
            self.cpu.resume()

    def place(self, cores: tuple[int, ...], whole_group: bool = True) -> None:
        """Run on `cores` (empty: wherever the OS puts it)."""
        if self.cpu is not None and self.alive:
            self.cpu.place(cores, whole_group)

    def settle(self, cores: tuple[int, ...]) -> None:
        """After start-up: every process the engine started so far in its cgroup and on `cores`."""
        if self.cpu is not None and self.alive:
            self.cpu.adopt_group()
            self.cpu.cores = ()   # force a walk of the whole group
            self.cpu.place(cores)

    def find_escaped(self) -> None:
        """Look for processes that left the engine's process group (cgroup v2 only), to pause them too."""
        if self.cpu is not None and self.alive:
            self.cpu.find_escaped()

    def _log(self, text: str) -> None:
        if self.io_log is not None:
            try:
                self.io_log(text)
            except Exception:   # a broken log must not break a game
                pass

    # -- reading ---------------------------------------------------------------
    async def _put(self, line: Line) -> None:
        self._lines.put_nowait(line)
        if self._lines.qsize() >= QUEUE_HIGH:
            self._room.clear()
            await self._room.wait()

    async def _read_stdout(self) -> None:
        stream = self._started().stdout
        assert stream is not None   # created with stdout=PIPE
        buf = bytearray()
        skipping = False          # inside a line that was already reported too long
        try:
            while True:
                chunk = await stream.read(CHUNK)
                now = time.monotonic()
                if not chunk:
                    break
                start = 0
                while True:
                    nl = chunk.find(b"\n", start)
                    piece = chunk[start:] if nl < 0 else chunk[start:nl]
                    if not skipping:
                        buf += piece
                        if len(buf) > self.max_line:
                            await self._put(Line(Line.TOO_LONG, buf[:80].decode("utf-8", "replace"), now))
                            buf.clear()
                            skipping = True
                    if nl < 0:
                        break
                    if not skipping:
                        text = buf.decode("utf-8", "replace").rstrip("\r")
                        buf.clear()
                        self._log(f"<{self.spec.name}: {text}")
                        await self._put(Line(Line.TEXT, text, now))
                    skipping = False
                    start = nl + 1
        except (ConnectionError, OSError):
            pass
        finally:
            self.eof = True
            # a partial line without newline at EOF is not a line: dropped on purpose
            self._lines.put_nowait(Line(Line.EOF, bytes(buf[:80]).decode("utf-8", "replace"), time.monotonic()))

    async def _read_stderr(self) -> None:
        stream = self._started().stderr
        assert stream is not None   # created with stderr=PIPE
        keep = self.stderr_tail_bytes
        try:
            while True:
                chunk = await stream.read(CHUNK)
                if not chunk:
                    return
                self._stderr += chunk[-keep:]
                if len(self._stderr) > keep:
                    del self._stderr[:-keep]
        except (ConnectionError, OSError):
            pass

    async def _watch_exit(self) -> None:
        """An engine whose child keeps stdout open never shows EOF: report its exit anyway."""
        await self._started().wait()
        await asyncio.sleep(0.05)   # let the reader deliver what the engine printed before it died
        self._lines.put_nowait(Line(Line.EXIT, "", time.monotonic()))

    async def read_line(self, timeout: float | None) -> Line | None:
        """The next stdout event, or None if nothing came within `timeout` seconds (None = wait)."""
        try:
            if timeout is None:
                line = await self._lines.get()
            elif self._lines.qsize():
                line = self._lines.get_nowait()
            elif timeout <= 0:
                return None
            else:
                line = await asyncio.wait_for(self._lines.get(), timeout)
        except TimeoutError:
            return None
        if not self._room.is_set() and self._lines.qsize() < QUEUE_HIGH // 2:
            self._room.set()
        if line.kind in (Line.EOF, Line.EXIT):
            self._lines.put_nowait(line)   # stays visible to every later reader
        return line

    def discard_pending(self) -> list[Line]:
        """Take every line already waiting (stale output from before the next command)."""
        out = []
        while self._lines.qsize():
            line = self._lines.get_nowait()
            if line.kind in (Line.EOF, Line.EXIT):
                self._lines.put_nowait(line)
                break
            out.append(line)
        self._room.set()
        return out

    def stderr_tail(self) -> str:
        """The last bytes the engine wrote to stderr, as text, whitespace collapsed at the edges."""
        return bytes(self._stderr).decode("utf-8", "replace").strip()

    # -- writing ---------------------------------------------------------------
    async def send(self, *lines: str, timeout: float = 2.0, resume: bool = False) -> None:
        """Write lines in one write; EngineGone if the pipe is closed or the engine stopped reading it.

        `resume`: the engine is paused and gets the CPU back once the lines are in its pipe, so it
        is woken once, with its input waiting (not once to find nothing, then again). Lines the
        pipe cannot take at once are waited for (the drain) only after the engine is resumed."""
        if self.proc is None or self.proc.stdin is None:
            raise EngineGone("not started")
        stdin = self.proc.stdin
        if stdin.is_closing():
            raise EngineGone("stdin closed")
        if self.io_log is not None:
            for line in lines:
                self._log(f">{self.spec.name}: {line}")
        try:
            stdin.write("".join(line + "\n" for line in lines).encode())
            if resume:
                self.resume()
            transport = stdin.transport
            if transport.is_closing() or transport.get_write_buffer_size():
                await asyncio.wait_for(stdin.drain(), timeout)
        except (ConnectionError, BrokenPipeError, OSError, RuntimeError) as exc:
            raise EngineGone(f"cannot write to the engine: {exc.__class__.__name__}") from None
        except TimeoutError:
            raise EngineGone(f"the engine did not read its input for {timeout:g} s") from None

    # -- ending ----------------------------------------------------------------
    async def wait_exit(self, timeout: float) -> int | None:
        """The exit code if the engine exits within `timeout` seconds, else None."""
        if self.proc is None:
            return None
        try:
            return await asyncio.wait_for(asyncio.shield(self.proc.wait()), timeout)
        except TimeoutError:
            return None

    async def _wait_group_gone(self, timeout: float) -> bool:
        proc, pgid = self._started(), self._group()
        deadline = time.monotonic() + timeout
        while True:
            if proc.returncode is not None and not group_alive(pgid):
                return True
            if time.monotonic() >= deadline:
                return False
            await asyncio.sleep(0.01)

    async def shutdown(self, quit_grace: float = 1.0, term_grace: float = 1.0) -> int | None:
        """`quit`, then SIGTERM, then SIGKILL to the whole group; reap everything. Returns the exit code."""
        if self.proc is None or self.pgid is None:
            return None
        proc, pgid = self.proc, self.pgid
        if self.cpu is not None:
            self.cpu.release()   # a paused engine could see neither `quit` nor SIGTERM
        try:
            if proc.returncode is None:
                try:
                    await self.send("quit", timeout=min(quit_grace, 0.5) or 0.01)
                except EngineGone:
                    pass
                await self.wait_exit(quit_grace)
            if not await self._wait_group_gone(0 if proc.returncode is None else 0.05):
                _signal_group(pgid, signal.SIGTERM)
                if not await self._wait_group_gone(term_grace):
                    _signal_group(pgid, signal.SIGKILL)
                    await proc.wait()
                    await self._wait_group_gone(2.0)
            _reap_group_zombies(pgid)
        finally:
            _LIVE_GROUPS.discard(pgid)
            if self.cpu is not None:
                await self.cpu.forget()
            self._close()
        return proc.returncode

    def kill_now(self) -> None:
        """SIGKILL the group without waiting (for use when no event loop can run)."""
        if self.pgid is not None:
            _signal_group(self.pgid, signal.SIGKILL)
        if self.cpu is not None and self.cpu.cgroup is not None:
            self.cpu.cgroup.kill()

    def _close(self) -> None:
        for task in self._tasks:
            task.cancel()
        transport = getattr(self.proc, "_transport", None)   # closes all three pipes at once
        if transport is not None:
            try:
                transport.close()
            except Exception:
                pass
