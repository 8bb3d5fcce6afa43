"""What a person (or a log file) sees while games run.

On a terminal: one live status line, rewritten in place, with games done, games
running, the running score and elapsed time; forfeits and engine restarts are
printed above it because they need attention. Not on a terminal (CI logs, a
pipe): one plain line per finished game and nothing rewritten. With ``--json``
the progress goes to stderr and stdout gets only the final JSON summary.
"""

from __future__ import annotations

import shutil
import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

from ..formats.terminations import Termination


def describe_game(record: dict[str, Any]) -> str:
    """'game 3 (pair 2): greedy (Dark) vs random (Light): 1-0 normal -- Dark scored 14 to 9'."""
    pair = record.get("pair")
    where = f" (round {record.get('round')}, pair {pair + 1})" if pair is not None else ""
    return (f"game {record['game_id'] + 1}{where}: {record['dark']['name']} (Dark) vs "
            f"{record['light']['name']} (Light): {record['result']} {record['termination']}"
            f" -- {record.get('reason', '')}")


class Progress:
    """Live or plain progress; `score_text` supplies the running score on demand."""

    def __init__(self, total: int, score_text: Callable[[], str], stream: TextIO | None = None,
                 live: bool | None = None, quiet: bool = False):
        self.total = total
        self.score_text = score_text
        self.stream = stream or sys.stdout
        self.live = self.stream.isatty() if live is None else live
        self.quiet = quiet
        self.done = 0
        self.running = 0
        self.started = time.monotonic()
        self._status_shown = False
        self._warned: set[str] = set()

    # -- events from the runner ------------------------------------------------
    def begin(self, already_done: int, message: str) -> None:
        self.done = already_done
        self.note(message)
        self._refresh()

    def game_started(self) -> None:
        self.running += 1
        self._refresh()

    def game_abandoned(self) -> None:
        self.running = max(0, self.running - 1)

    def game_finished(self, record: dict[str, Any]) -> None:
        self.running = max(0, self.running - 1)
        self.done += 1
        if not self.live:
            self._write_line(f"[{self.done}/{self.total}] {describe_game(record)} | {self.score_text()}")
        elif record["termination"] != Termination.NORMAL:
            self.note(describe_game(record))
        self._refresh()

    def note(self, text: str, refresh: bool = True) -> None:
        """A line that stays on screen (above the live status line on a terminal)."""
        if self.quiet:
            return
        if self.live and self._status_shown:
            self.stream.write("\r\x1b[K")
            self._status_shown = False
        self._write_line(text)
        if refresh:
            self._refresh()

    def warn_once(self, key: str, text: str) -> None:
        """A note shown the first time `key` is warned about, never again in this run."""
        if key not in self._warned:
            self._warned.add(key)
            self.note(text)

    def finish(self, text: str) -> None:
        """The closing lines; the live status line is cleared for good."""
        self.note(text, refresh=False)

    # -- output ----------------------------------------------------------------
    def status_line(self) -> str:
        elapsed = int(time.monotonic() - self.started)
        return (f"[{self.done}/{self.total} done, {self.running} running, "
                f"{elapsed // 60}:{elapsed % 60:02d}] {self.score_text()}")

    def _refresh(self) -> None:
        if not self.live or self.quiet:
            return
        width = shutil.get_terminal_size((120, 24)).columns - 1
        self.stream.write("\r\x1b[K" + self.status_line()[:max(20, width)])   # a wrapped line cannot be rewritten
        self.stream.flush()
        self._status_shown = True

    def _write_line(self, text: str) -> None:
        if self.quiet:
            return
        self.stream.write(text + "\n")
        self.stream.flush()
