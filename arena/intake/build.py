"""Running a submission's build command once, in the sandbox, with limits.

The command runs as `sh -c BUILD` in the bot's directory, which is the only place it may write
(under sandbox=bwrap: no network unless arena.toml's [build] network = true, the system read-only,
an empty /tmp). Limits: wall time ([build] seconds; the whole process group is killed at the end),
address space ([build] memory_mb), CPU time (the same seconds) and the size of any file it writes
([build] max_file_mb). Its output (stdout and stderr together) is kept as a log of at most
[build] log_kb: the head and the tail, with how much was cut between them.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from dataclasses import dataclass
from pathlib import Path

from referee.engines.sandbox import bwrap_argv

from ..config import Build

_LIMITS = (
    "import os,sys,resource\n"
    "m,c,f=int(sys.argv[1]),int(sys.argv[2]),int(sys.argv[3])\n"
    "resource.setrlimit(resource.RLIMIT_AS,(m,m))\n"
    "resource.setrlimit(resource.RLIMIT_CPU,(c,c+1))\n"
    "resource.setrlimit(resource.RLIMIT_FSIZE,(f,f))\n"
    "os.execvp(sys.argv[4],sys.argv[4:])\n"
)


@dataclass
class BuildResult:
    ok: bool
    log: str
    reason: str


def build_argv(command: str, directory: Path, limits: Build, sandbox: str) -> list[str]:
    cmd = ["/bin/sh", "-c", command]
    if sandbox == "bwrap":
        cmd = bwrap_argv(cmd, str(directory), writable=[str(directory)])
        if limits.network:
            cmd.insert(cmd.index("--unshare-all") + 1, "--share-net")
    return [sys.executable, "-S", "-c", _LIMITS, str(limits.memory_mb << 20), str(limits.seconds),
            str(limits.max_file_mb << 20), *cmd]


class _Log:
    """Head and tail of a stream, in bounded memory."""

    def __init__(self, limit: int):
        self.half = max(512, limit // 2)
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0

    def feed(self, chunk: bytes) -> None:
        self.total += len(chunk)
        room = self.half - len(self.head)
        if room > 0:
            self.head += chunk[:room]
            chunk = chunk[room:]
        if chunk:
            self.tail += chunk
            if len(self.tail) > self.half:
                del self.tail[:-self.half]

    def text(self) -> str:
        cut = self.total - len(self.head) - len(self.tail)
        middle = f"\n[... {cut} bytes cut ...]\n" if cut > 0 else ""
        return (bytes(self.head) + middle.encode() + bytes(self.tail)).decode("utf-8", "replace")


async def run_build(command: str, directory: Path, limits: Build, sandbox: str) -> BuildResult:
    """Run the build; ok when it exits 0 within its time."""
    log = _Log(limits.log_kb * 1024)
    try:
        proc = await asyncio.create_subprocess_exec(
            *build_argv(command, directory, limits, sandbox), cwd=directory, stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, start_new_session=True)
    except OSError as exc:
        return BuildResult(False, "", f"the build could not be started: {exc}")
    assert proc.stdout is not None

    async def read() -> None:
        assert proc.stdout is not None
        while chunk := await proc.stdout.read(65536):
            log.feed(chunk)

    reader = asyncio.create_task(read())
    try:
        await asyncio.wait_for(proc.wait(), limits.seconds)
    except TimeoutError:
        _kill(proc.pid)
        await proc.wait()
        reader.cancel()
        return BuildResult(False, log.text(), f"the build took longer than {limits.seconds} s and was stopped")
    except asyncio.CancelledError:
        _kill(proc.pid)
        raise
    finally:
        _kill(proc.pid)   # anything it left behind in its group
    try:
        await asyncio.wait_for(reader, 5)
    except TimeoutError:
        reader.cancel()
    code = proc.returncode
    if code == 0:
        return BuildResult(True, log.text(), "built")
    why = f"killed by signal {-code}" if code is not None and code < 0 else f"exit status {code}"
    return BuildResult(False, log.text(), f"the build failed ({why}); its log says why")


def _kill(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
