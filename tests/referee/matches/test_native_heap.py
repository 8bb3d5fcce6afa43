"""The distributed referee's heap hygiene (referee/matches/native_heap.py): freed memory goes back to the system."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from referee.matches import native_heap
from tests.support.paths import REPO

# In a fresh interpreter: one arena, then a heap of 1 KB blocks (past Python's own allocator, so
# glibc's) of which every 64th is kept; the rest are freed, which leaves the heap's pages inside it
# free but still resident until a trim. Prints RSS (kB) after the frees and after the trim.
SCRIPT = textwrap.dedent("""
    from referee.matches import native_heap

    def rss_kb():
        with open("/proc/self/status") as fh:
            return next(int(line.split()[1]) for line in fh if line.startswith("VmRSS:"))

    assert native_heap.keep_level()
    blocks = [bytearray(1024) for _ in range(96 * 1024)]
    kept = blocks[::64]
    del blocks
    before = rss_kb()
    released = native_heap.trim()
    print(before, rss_kb(), released, len(kept))
""")


@pytest.mark.skipif(native_heap._glibc() is None, reason="glibc only: mallopt and malloc_trim are glibc's")
def test_a_trim_hands_the_freed_inside_of_the_heap_back_to_the_system():
    out = subprocess.run([sys.executable, "-c", SCRIPT], cwd=REPO, capture_output=True, text=True, check=True)
    before, after, released, _ = out.stdout.split()
    assert released == "True"
    assert int(before) - int(after) > 50 * 1024, out.stdout   # of the ~96 MB freed, most goes back


def test_without_glibc_both_do_nothing_and_say_so(monkeypatch):
    monkeypatch.setattr(native_heap, "_glibc", lambda: None)
    assert native_heap.keep_level() is False
    assert native_heap.trim() is False
