"""The pages' cache: `peek` answers from memory only while an entry is young, and never makes one (the
event loop uses it before sending a miss to a worker thread)."""

from __future__ import annotations

import time

from arena.web.cache import TtlCache


def test_peek_finds_young_entries_only_and_never_makes_one():
    cache = TtlCache(0.2, size=2)
    made: list[str] = []

    def make(key: str) -> str:
        made.append(key)
        return key.upper()

    assert cache.peek("a") == (False, None)
    assert cache.get("a", lambda: make("a")) == "A"
    assert cache.peek("a") == (True, "A") and made == ["a"]
    cache.get("b", lambda: make("b"))
    cache.peek("a")                                  # a used last: b goes first
    cache.get("c", lambda: make("c"))
    assert cache.peek("b") == (False, None) and cache.peek("a") == (True, "A")
    time.sleep(0.25)
    assert cache.peek("a") == (False, None) and made == ["a", "b", "c"]
    assert cache.get("a", lambda: make("a")) == "A" and made == ["a", "b", "c", "a"]
