"""The engine's command loop in the test process (no subprocess): fast enough for thousands of lines.

`InProcessEngine.send(line)` runs one command exactly as the stdin loop would;
the job thread runs for real, and every output line is kept with its arrival time.
"""

from __future__ import annotations

import threading
import time

from engine.output import Output
from engine.uci import Engine


class _Sink:
    """A binary stream that splits what the engine writes into timestamped lines."""

    def __init__(self) -> None:
        self.lines: list[tuple[float, str]] = []
        self._partial = b""
        self._lock = threading.Lock()
        self.changed = threading.Condition(self._lock)

    def write(self, data: bytes) -> int:
        with self._lock:
            *whole, self._partial = (self._partial + data).split(b"\n")
            now = time.monotonic()
            self.lines.extend((now, w.decode("utf-8", "replace")) for w in whole)
            self.changed.notify_all()
        return len(data)

    def flush(self) -> None:
        pass


class InProcessEngine:
    def __init__(self) -> None:
        self.sink = _Sink()
        self.engine = Engine(Output(self.sink))  # type: ignore[arg-type]
        self.read = 0

    def send(self, line: str) -> float:
        """Handle one line; returns the time it was handed over."""
        t = time.monotonic()
        self.engine.handle(line)
        return t

    def wait_for(self, predicate, timeout: float = 10.0) -> tuple[float, str]:
        """The next unread line matching predicate (earlier unread lines are skipped)."""
        deadline = time.monotonic() + timeout
        with self.sink.changed:
            while True:
                while self.read < len(self.sink.lines):
                    stamp, text = self.sink.lines[self.read]
                    self.read += 1
                    if predicate(text):
                        return stamp, text
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no matching line in {timeout} s; got {self.sink.lines[-5:]}")
                self.sink.changed.wait(left)

    def drain(self) -> list[str]:
        """Unread lines so far (once every job is idle)."""
        self.engine.job.wait(10)
        with self.sink.changed:
            out = [t for _, t in self.sink.lines[self.read:]]
            self.read = len(self.sink.lines)
        return out

    def close(self) -> None:
        self.engine.job.halt(5)
