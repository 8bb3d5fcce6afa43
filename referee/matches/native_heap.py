"""Keeps the C library's heap of a long distributed run level, where the C library allows it (glibc).

The submitting referee of a Dask run receives every record and event on several threads (the Dask
client's loop and its helpers, the writer threads). glibc gives threads heaps of their own (arenas)
and hands freed memory back to the system only from the top of a heap, so the referee's RSS crept
up with the games (about 0.5 MB per 1,000) while what it held stayed level (memray's live
allocations; docs/benchmarks.md, "Long runs"). One heap for the process, its free top handed back at
once and a trim at each checkpoint keep the RSS level. With another C library (musl, macOS) both do nothing.
"""

from __future__ import annotations

import ctypes
import functools
import sys
from typing import Any

M_TRIM_THRESHOLD = -1
M_ARENA_MAX = -8
"""glibc's mallopt parameters (malloc.h): free memory kept at a heap's top before it is handed
back; the most heaps (arenas)."""


@functools.cache
def _glibc() -> Any | None:
    """The process's C library if it has glibc's mallopt and malloc_trim, else None."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None)
        libc.mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
        libc.malloc_trim.argtypes = [ctypes.c_size_t]
    except (OSError, AttributeError):
        return None
    return libc


def keep_level() -> bool:
    """From now on every thread allocates from one heap, and a heap's free top goes back to the
    system at once (call before the threads start); True if set."""
    libc = _glibc()
    return bool(libc is not None and libc.mallopt(M_ARENA_MAX, 1) == 1 and libc.mallopt(M_TRIM_THRESHOLD, 0) == 1)


def trim() -> bool:
    """Hand the heap's free pages back to the system; True if glibc released any."""
    libc = _glibc()
    return bool(libc is not None and libc.malloc_trim(0) == 1)
