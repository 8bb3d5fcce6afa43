"""A small cache of what the pages read, each entry kept for a few seconds.

The ladder records several games a second, so a page a second or two old is as current as a person
can tell; under a crowd (100 clients asking for random bots) most requests are then answered
without touching the database. Bounded (least recently used out first); a change made through
this server empties it at once.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any


class TtlCache:
    def __init__(self, seconds: float, size: int = 1024):
        self.seconds = seconds
        self.size = size
        self._items: OrderedDict[Hashable, tuple[float, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def peek(self, key: Hashable) -> tuple[bool, Any]:
        """(True, the entry) when `key` has one young enough, else (False, None): never makes one, so
        the event loop can answer from memory without a trip to a worker thread."""
        now = time.monotonic()
        with self._lock:
            found = self._items.get(key)
            if found is not None and now - found[0] <= self.seconds:
                self._items.move_to_end(key)
                return True, found[1]
        return False, None

    def get(self, key: Hashable, make: Callable[[], Any]) -> Any:
        """The entry for `key`, made by `make()` when missing or older than `seconds`."""
        now = time.monotonic()
        with self._lock:
            found = self._items.get(key)
            if found is not None and now - found[0] <= self.seconds:
                self._items.move_to_end(key)
                return found[1]
        value = make()
        with self._lock:
            self._items[key] = (now, value)
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return value

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
