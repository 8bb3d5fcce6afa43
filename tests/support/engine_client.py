"""A small synchronous driver for the engine subprocess in tests (real pipes, real process).

The engine runs as `python -m engine` in its own session (process group), so
`close()` can kill it and anything it started, whatever state it is in. A
reader thread stamps every stdout line with its arrival time, which lets tests
measure latencies (e.g. from `stop` to `bestmove`) without polling.
"""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from referee.engines.client import Handshake, Reply, read_reply
from referee.engines.process import Line, LineKind
from tests.support.paths import REPO


class EngineClient:
    """Start the engine; send lines; read lines with timeouts; kill the group on close."""

    def __init__(self, *args: str, cwd: Path = REPO):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "engine", *args], cwd=cwd, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
        )
        self.lines: queue.Queue[tuple[float, str | None]] = queue.Queue()
        self.stderr: list[bytes] = []
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read_stdout(self) -> None:
        for raw in self.proc.stdout:
            self.lines.put((time.monotonic(), raw.decode("utf-8", "replace").rstrip("\n")))
        self.lines.put((time.monotonic(), None))

    def _read_stderr(self) -> None:
        for raw in self.proc.stderr:
            self.stderr.append(raw)

    # -- writing --------------------------------------------------------------
    def send(self, *lines: str) -> float:
        """Write lines (newline added); returns the monotonic time just after the flush."""
        return self.send_raw("".join(line + "\n" for line in lines).encode())

    def send_raw(self, data: bytes) -> float:
        self.proc.stdin.write(data)
        self.proc.stdin.flush()
        return time.monotonic()

    def close_stdin(self) -> float:
        self.proc.stdin.close()
        return time.monotonic()

    # -- reading --------------------------------------------------------------
    def read_stamped(self, timeout: float = 5.0) -> tuple[float, str]:
        """(arrival time, line); TimeoutError after `timeout` s, EOFError when stdout ends."""
        try:
            stamp, line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError(f"no line from the engine within {timeout} s") from None
        if line is None:
            self.lines.put((stamp, None))
            raise EOFError("engine closed its stdout")
        return stamp, line

    def read_line(self, timeout: float = 5.0) -> str:
        return self.read_stamped(timeout)[1]

    def read_until(self, predicate, timeout: float = 10.0) -> list[str]:
        """Lines up to and including the first for which predicate(line) is true."""
        deadline = time.monotonic() + timeout
        out = []
        while True:
            line = self.read_line(max(0.0, deadline - time.monotonic()))
            out.append(line)
            if predicate(line):
                return out

    def read_until_prefix(self, prefix: str, timeout: float = 10.0) -> list[str]:
        return self.read_until(lambda line: line.startswith(prefix), timeout)

    def read_reply(self, timeout: float = 5.0) -> Reply:
        """The next line as the referee's protocol client reads it (parsed by protocol.messages)."""
        stamp, line = self.read_stamped(timeout)
        return read_reply(Line(LineKind.TEXT, line, stamp))

    def handshake(self, timeout: float = 5.0) -> Handshake:
        """`uci` -> `uciok`, read into the referee client's Handshake (id, options, malformed lines)."""
        self.send("uci")
        handshake = Handshake()
        deadline = time.monotonic() + timeout
        while (reply := self.read_reply(max(0.0, deadline - time.monotonic()))).kind != "uciok":
            handshake.take(reply)
        return handshake

    def bestmove(self, timeout: float = 10.0) -> str:
        """The move of the next `bestmove` line (earlier lines skipped); AssertionError if malformed."""
        deadline = time.monotonic() + timeout
        while (reply := self.read_reply(max(0.0, deadline - time.monotonic()))).word != "bestmove":
            pass
        assert reply.parsed is not None and reply.parsed.move is not None, f"malformed: {reply.error}"
        return reply.parsed.move

    def ask(self, line: str, prefix: str, timeout: float = 10.0) -> list[str]:
        self.send(line)
        return self.read_until_prefix(prefix, timeout)

    def sync(self, timeout: float = 10.0) -> list[str]:
        """Send isready; the lines before `readyok` (the answers to what was sent before)."""
        return self.ask("isready", "readyok", timeout)[:-1]

    def pending(self, wait: float = 0.0) -> list[str]:
        """Lines already received (after waiting `wait` s), without blocking further."""
        time.sleep(wait)
        out = []
        while True:
            try:
                _, line = self.lines.get_nowait()
            except queue.Empty:
                return out
            if line is None:
                self.lines.put((0.0, None))
                return out
            out.append(line)

    # -- ending ---------------------------------------------------------------
    def wait_exit(self, timeout: float) -> int | None:
        """Exit status, or None if the process is still running after `timeout` s."""
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def close(self) -> None:
        """Kill the whole process group (whatever the engine is doing) and reap it."""
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                stream.close()
            except OSError:
                pass

    def __enter__(self) -> EngineClient:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
