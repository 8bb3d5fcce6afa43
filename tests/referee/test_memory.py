"""The referee hands the heap's free pages back to the system (referee/memory.py)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from referee.memory import release_free_memory


def rss_mb() -> float:
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim and /proc are Linux's")
def test_free_pages_below_a_live_block_go_back_to_the_system() -> None:
    # 48 MB in blocks too large for Python's small-object allocator, so glibc serves them; the
    # last block stays alive and pins the heap's top, so freeing the rest returns nothing by itself.
    blocks = [bytes(1200) + bytes([i % 256]) for i in range(40_000)]
    pin = blocks[-1]
    del blocks
    before = rss_mb()
    assert release_free_memory() is True
    after = rss_mb()
    assert before - after > 20, f"RSS {before:.1f} MB before the trim, {after:.1f} MB after"
    assert pin[-1] == (40_000 - 1) % 256
