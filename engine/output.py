"""The engine's only way to stdout: whole lines, one lock, flushed at once.

Two threads print (the command loop and the job thread), so every line goes
through `Output.send`, which writes it in one piece and flushes: a GUI never
sees half a line or a line stuck in a buffer. A long answer that must not be
cut by other lines (the `moves` line, up to tens of megabytes for HARI, or a
`go perft` listing) is written in pieces by `Output.stream` without holding the
lock; lines sent meanwhile wait in a queue and follow it, so the command loop
never blocks behind it.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import BinaryIO


class Output:
    """Line-oriented, thread-safe writer over a binary stream (stdout by default)."""

    def __init__(self, stream: BinaryIO | None = None):
        self._stream = stream if stream is not None else sys.stdout.buffer
        self._lock = threading.Lock()
        self._streaming = False
        self._pending: list[str] = []
        self.closed = False
        """True once the reader went away (broken pipe): the engine should end."""

    def send(self, line: str) -> None:
        """Print one protocol line (no newline inside) and flush."""
        with self._lock:
            if self._streaming:
                self._pending.append(line)
                return
            self._write(line + "\n")

    def send_lines(self, lines: Iterable[str]) -> None:
        """Print several lines as one block (no other line comes between them)."""
        with self._lock:
            text = "".join(line + "\n" for line in lines)
            if self._streaming:
                self._pending.append(text[:-1])
                return
            self._write(text)

    @contextmanager
    def stream(self) -> Iterator[LineWriter]:
        """Write one long line (or block of lines) in pieces; the final newline and any queued lines follow on exit."""
        with self._lock:
            self._streaming = True
        writer = LineWriter(self)
        try:
            yield writer
        finally:
            writer.flush()
            with self._lock:
                self._streaming = False
                queued, self._pending = self._pending, []
                self._write("\n" + "".join(line + "\n" for line in queued))

    def _write(self, text: str) -> None:
        if self.closed:
            return
        try:
            self._stream.write(text.encode("utf-8", "replace"))
            self._stream.flush()
        except (BrokenPipeError, OSError, ValueError):
            self.closed = True


class LineWriter:
    """Appends text to the line being streamed; flushes in ~64 kB pieces."""

    CHUNK = 1 << 16

    def __init__(self, out: Output):
        self._out = out
        self._parts: list[str] = []
        self._size = 0

    def write(self, text: str) -> None:
        self._parts.append(text)
        self._size += len(text)
        if self._size >= self.CHUNK:
            self.flush()

    def flush(self) -> None:
        if self._parts:
            self._out._write("".join(self._parts))
            self._parts.clear()
            self._size = 0
