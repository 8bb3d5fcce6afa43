"""What an engine writes on stderr, kept for the reports of its failures: the head and the tail.

An error message is often at one end only: a Rust panic, a C assertion or a runtime's complaint
about its own start comes first, a Node or Python traceback names the error last and the bot's own
file and line in between. So both ends are kept (1 KiB and 2 KiB by default), never more: an engine
writing without end costs the referee nothing but the reading. Each whole line also goes to the
I/O log, if there is one, escaped into plain text.
"""

from __future__ import annotations

from collections.abc import Callable

HEAD_BYTES = 1024
TAIL_BYTES = 2048
LOGGED_LINE_BYTES = 4096
"""A longer stderr line is cut in the I/O log (the log is for reading, not for keeping floods)."""


def printable(data: bytes) -> str:
    """Bytes as plain text for a log line: UTF-8 where it is valid, other bytes and control
    characters (tab aside) escaped as \\xNN, so the log stays text that grep reads as such."""
    text = data.decode("utf-8", "backslashreplace")
    return "".join(ch if ch == "\t" or (" " <= ch and ch != "\x7f" and not 0x80 <= ord(ch) < 0xa0)
                   else f"\\x{ord(ch):02x}" for ch in text)


class StderrKeeper:
    """Takes an engine's stderr chunk by chunk; keeps its head, its tail and its size."""

    def __init__(self, head_bytes: int = HEAD_BYTES, tail_bytes: int = TAIL_BYTES,
                 on_line: Callable[[str], None] | None = None):
        self.head_bytes, self.tail_bytes = head_bytes, tail_bytes
        self.on_line = on_line
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0
        self._partial = bytearray()

    def feed(self, chunk: bytes) -> None:
        room = self.head_bytes - len(self.head)
        if room > 0:
            self.head += chunk[:room]
        self.tail += chunk[-self.tail_bytes:]
        if len(self.tail) > self.tail_bytes:
            del self.tail[:-self.tail_bytes]
        self.total += len(chunk)
        if self.on_line is not None:
            self._log_lines(chunk)

    def _log_lines(self, chunk: bytes) -> None:
        assert self.on_line is not None
        *whole, rest = (bytes(self._partial) + chunk).split(b"\n")
        for line in whole:
            self.on_line(printable(line.rstrip(b"\r")[:LOGGED_LINE_BYTES]))
        self._partial = bytearray(rest[:LOGGED_LINE_BYTES])

    def finish(self) -> None:
        """The end of stderr: a last line without its newline goes to the log too."""
        if self.on_line is not None and self._partial:
            self.on_line(printable(bytes(self._partial)))
        self._partial.clear()

    def excerpt(self) -> str:
        """Everything the engine wrote if it fits in head and tail, else the head, a line saying how
        much was left out, and the tail; as text (bytes that are not UTF-8 read as U+FFFD)."""
        if self.total <= self.head_bytes + self.tail_bytes:
            after_head = self.total - len(self.head)
            data = bytes(self.head) + (bytes(self.tail[-after_head:]) if after_head else b"")
            return data.decode("utf-8", "replace").strip()
        left_out = self.total - self.head_bytes - self.tail_bytes
        return (bytes(self.head).decode("utf-8", "replace") + f"\n[... {left_out} bytes left out ...]\n"
                + bytes(self.tail).decode("utf-8", "replace")).strip()
