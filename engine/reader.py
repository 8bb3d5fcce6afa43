"""The engine's stdin reader: each line taken off the stream the moment it is complete, stamped with
its arrival time, and handed to the command loop (engine/uci.py) in order.

A `go`'s clock starts at its line's stamp (Limits.started, SPEC 9.10), so the time a `go` waits
behind a slow `position` counts against the move. Over-long lines are drained and marked, never held
in memory whole; bad UTF-8 is replaced.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Generator, Iterator
from typing import BinaryIO

from protocol.messages import MAX_LINE

READ_AHEAD = 64
"""Lines the reader thread may stamp ahead of the loop; past that they wait in the pipe (bounded memory)."""


class TooLong:
    """Marks an input line longer than MAX_LINE (its bytes were read and dropped)."""

    def __init__(self, size: int):
        self.size = size


def read_lines(stream: BinaryIO, limit: int = MAX_LINE) -> Iterator[str | TooLong]:
    """Lines of `stream` as text (bad UTF-8 replaced); over-long lines drained and marked."""
    while True:
        raw = stream.readline(limit + 1)
        if not raw:
            return
        if len(raw) > limit and not raw.endswith(b"\n"):
            size = len(raw)
            while True:
                more = stream.readline(1 << 16)
                size += len(more)
                if not more or more.endswith(b"\n"):
                    break
            yield TooLong(size)
            continue
        yield raw.removesuffix(b"\n").removesuffix(b"\r").decode("utf-8", "replace")


Stamped = tuple[float, str | TooLong]
"""A line of input and the time.monotonic() at which it was taken off the stream."""


def stamped_lines(stream: BinaryIO, ahead: int = READ_AHEAD) -> Generator[Stamped, None, None]:
    """read_lines(stream), each line stamped when it arrived rather than when the caller got to it.

    A thread reads ahead (up to `ahead` lines), so a line that waits behind a slow
    command keeps its arrival time. An error reading the stream is raised here, after
    the lines before it, as if the caller had read the stream itself. Closing the generator
    lets the thread end (at once if it is waiting for room, after its current read if not)."""
    lines: queue.Queue[Stamped | BaseException | None] = queue.Queue(ahead)
    done = threading.Event()
    threading.Thread(target=_read_ahead, args=(stream, lines, done), name="engine-input", daemon=True).start()
    try:
        while (item := lines.get()) is not None:
            if isinstance(item, BaseException):
                raise item
            yield item
    finally:
        done.set()


def _read_ahead(stream: BinaryIO, lines: queue.Queue[Stamped | BaseException | None],
                done: threading.Event) -> None:
    """The reader thread: stamp and queue each line the moment readline returns it; None at the end."""
    end: BaseException | None = None
    try:
        for line in read_lines(stream):
            if not _offer(lines, (time.monotonic(), line), done):
                return
    except Exception as e:  # handed to the loop, which would have met it reading the stream itself
        end = e
    _offer(lines, end, done)


def _offer(lines: queue.Queue[Stamped | BaseException | None], item: Stamped | BaseException | None,
           done: threading.Event) -> bool:
    """Queue `item`, waiting while the loop is far behind; False once the loop has ended (nobody reads)."""
    while not done.is_set():
        try:
            lines.put(item, timeout=0.1)
            return True
        except queue.Full:
            continue
    return False
