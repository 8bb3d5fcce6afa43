"""Sets of per-game facts in a few bytes a game, for runs of millions of games.

A Python set of ints costs about 60 bytes an element; a run of a million games must not spend
60 MB remembering which games are done or which move sequences were seen. ``GameIdSet`` is a
bitmap (one bit a game id, ids are small: at most MAX_GAMES); ``HashSet64`` keeps 64-bit hashes
in an open-addressing table of machine words (11 to 21 bytes a hash). Both serialise to bytes
for the run's checkpoint.
"""

from __future__ import annotations

import base64
from array import array


class GameIdSet:
    """Game ids seen (whole numbers >= 0), one bit each."""

    def __init__(self, data: bytes = b"", count: int | None = None):
        self._bits = bytearray(data)
        self._count = sum(bin(b).count("1") for b in self._bits) if count is None else count

    def add(self, game_id: int) -> bool:
        """Add; False if it was there already."""
        byte, bit = divmod(game_id, 8)
        if byte >= len(self._bits):
            self._bits.extend(bytes(max(byte + 1 - len(self._bits), len(self._bits) // 2)))
        mask = 1 << bit
        if self._bits[byte] & mask:
            return False
        self._bits[byte] |= mask
        self._count += 1
        return True

    def __contains__(self, game_id: object) -> bool:
        if not isinstance(game_id, int) or game_id < 0:
            return False
        byte, bit = divmod(game_id, 8)
        return byte < len(self._bits) and bool(self._bits[byte] & (1 << bit))

    def __len__(self) -> int:
        return self._count

    def to_bytes(self) -> bytes:
        return bytes(self._bits).rstrip(b"\0")

    @classmethod
    def from_bytes(cls, data: bytes) -> GameIdSet:
        return cls(data)


class HashSet64:
    """A set of non-zero 64-bit hashes (0 marks an empty slot), linear probing, at most 3/4 full
    (11 to 21 bytes a hash)."""

    def __init__(self, capacity: int = 1024):
        size = 1024
        while size < capacity:
            size *= 2
        self._table = array("Q", bytes(8 * size))
        self._mask = size - 1
        self._count = 0

    def add(self, value: int) -> bool:
        """Add; False if it was there already."""
        value = value or 1
        table, mask = self._table, self._mask
        slot = value & mask             # the values are already hashes
        while True:
            held = table[slot]
            if held == value:
                return False
            if held == 0:
                break
            slot = (slot + 1) & mask
        table[slot] = value
        self._count += 1
        if 4 * self._count > 3 * len(table):
            self._grow()
        return True

    def _grow(self) -> None:
        old = self._table
        self._table = array("Q", bytes(16 * len(old)))
        self._mask = len(self._table) - 1
        self._count = 0
        for value in old:
            if value:
                self.add(value)

    def __len__(self) -> int:
        return self._count

    @property
    def nbytes(self) -> int:
        return len(self._table) * 8

    def to_bytes(self) -> bytes:
        """The table as it is (a copy: cheap, one memory copy)."""
        return self._table.tobytes()

    @classmethod
    def from_bytes(cls, data: bytes, count: int) -> HashSet64:
        """A set from `to_bytes` and its length (ValueError unless it is a table of that many)."""
        size = len(data) // 8
        if len(data) % 8 or size < 1024 or size & (size - 1) or not 0 <= 4 * count <= 3 * size:
            raise ValueError("not a hash table")
        out = cls.__new__(cls)
        out._table = array("Q")
        out._table.frombytes(data)
        out._mask = size - 1
        out._count = count
        return out


def to_base64(data: bytes, chunk: int = 3 << 19) -> str:
    """base64 of `data`, a chunk at a time (1.5 MB: about a millisecond each), so a thread encoding
    a large table never holds the interpreter lock long enough to delay the referee's event loop."""
    return "".join(base64.b64encode(data[i:i + chunk]).decode("ascii") for i in range(0, len(data), chunk))


def from_base64(text: str) -> bytes:
    return base64.b64decode(text.encode("ascii"), validate=True)
