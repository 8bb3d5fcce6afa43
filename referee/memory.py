"""Handing freed heap memory back to the system during long runs.

glibc's allocator keeps pages freed by Python in its arenas, and a process whose allocations
come from several threads and sockets (the referee on a Dask cluster: records and messages
decoded on the event loop, pages drawn in threads) holds more of them as a run goes on: its
resident memory then creeps up although the objects it keeps do not grow (docs/hosting.md,
"Long runs"). ``malloc_trim(0)`` returns those free pages; the runner calls this after each
checkpoint. Elsewhere (no glibc) it does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
from collections.abc import Callable
from functools import cache


@cache
def _malloc_trim() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim
    except (OSError, AttributeError):   # musl and others have no malloc_trim
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


def release_free_memory() -> bool:
    """Give the allocator's free pages back to the system; True if the allocator could be asked."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True
