"""--io-log: every line sent to and read from engines, with a time stamp, appended to a file."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

IoLog = Callable[[str], None]


@contextmanager
def io_logger(path: str | None) -> Iterator[IoLog | None]:
    """A logging function writing to ``path`` (None when no path is given); the file closes on exit."""
    if not path:
        yield None
        return
    t0 = time.monotonic()
    with open(path, "a", encoding="utf-8", buffering=1) as handle:
        def log(text: str) -> None:
            handle.write(f"{time.monotonic() - t0:11.6f} {text}\n")
        yield log
