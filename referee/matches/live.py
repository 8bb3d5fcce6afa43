"""`live.json` in a run directory: the games being played right now, for viewers (isaac-gui).

Records are written only when a game ends; a viewer following a run also wants the board of the
game in progress. After each move the runner tells LiveGames the new position (on a Dask cluster
the workers publish their games and the submitting referee shows them), and the file is
rewritten (temporary file, then rename, so a reader never sees half of it), at most every
`interval` seconds with the last state always written. It is a view, not data: no fsync, and a
failed write is ignored. A finished game leaves the file; the file holds `{"games": []}` at the end.

    {"games": [{"game_id": 3, "dark": "A", "light": "B", "start_position": "...",
                "moves": ["c3c7", ...], "position": "...", "updated": 1795433422.8}]}
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from protocol import Game, new_game

from .game_runner import GameSpec, setup_position

LIVE = "live.json"


class LiveGames:
    """The running games of one run and the throttled writer of their file."""

    def __init__(self, directory: Path, interval: float = 0.2):
        self.path = Path(directory) / LIVE
        self.interval = interval
        self.games: dict[int, dict[str, Any]] = {}
        self._last_write = 0.0
        self._pending: asyncio.TimerHandle | None = None
        self._writer: ThreadPoolExecutor | None = None
        self._positions: dict[int, Game] = {}

    def started(self, game_id: int, dark: str, light: str, spec: GameSpec) -> None:
        """A game begins (its opening already played)."""
        try:
            game, opening = setup_position(spec)
        except ValueError:
            return   # a bad spec: play_game reports it
        start = spec.start_position or new_game(spec.game_type).position()
        self.games[game_id] = {"game_id": game_id, "dark": dark, "light": light, "start_position": start,
                               "moves": opening, "position": game.position()}
        self._changed()

    def moved(self, game_id: int, move: str, position: Game) -> None:
        """A move was played; `position` is the running game, read only when the file is written
        (a position string per move would cost the referee more than the whole hook)."""
        game = self.games.get(game_id)
        if game is not None:
            game["moves"].append(move)
            self._positions[game_id] = position
            self._changed()

    def show(self, game: dict[str, Any]) -> None:
        """A game in progress as a whole (game_id, dark, light, start_position, moves, position), as a
        cluster worker publishes it (referee/matches/cluster.py)."""
        game_id = int(game["game_id"])
        self._positions.pop(game_id, None)
        self.games[game_id] = {"game_id": game_id, "dark": str(game["dark"]), "light": str(game["light"]),
                               "start_position": str(game["start_position"]),
                               "moves": [str(m) for m in game["moves"]], "position": str(game["position"])}
        self._changed()

    def finished(self, game_id: int) -> None:
        self._positions.pop(game_id, None)
        if self.games.pop(game_id, None) is not None:
            self._changed()

    def close(self) -> None:
        """No game runs any more: the writes waiting are done, then the empty file written now."""
        self.games.clear()
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
        if self._writer is not None:
            self._writer.shutdown(wait=True)
            self._writer = None
        self._write_file(json.dumps({"games": []}))

    def _changed(self) -> None:
        wait = self._last_write + self.interval - time.monotonic()
        if wait <= 0:
            self._write()
        elif self._pending is None:
            try:
                self._pending = asyncio.get_running_loop().call_later(wait, self._flush)
            except RuntimeError:   # no event loop (a direct call): write now
                self._write()

    def _flush(self) -> None:
        self._pending = None
        self._write()

    def _write(self) -> None:
        """Serialise now; the file is written by one worker thread, in order, off the event loop
        (a slow disk must not delay the next `go`)."""
        self._last_write = time.monotonic()
        now = time.time()
        for game_id, position in self._positions.items():
            self.games[game_id]["position"] = position.position()
        self._positions.clear()
        games = [{**game, "moves": list(game["moves"]), "updated": now} for _, game in sorted(self.games.items())]
        text = json.dumps({"games": games}, separators=(",", ":"))
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self._write_file(text)
            return
        if self._writer is None:
            self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="live-json")
        loop.run_in_executor(self._writer, self._write_file, text)

    def _write_file(self, text: str) -> None:
        tmp = self.path.with_name(self.path.name + ".tmp")
        try:
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError:
            pass
