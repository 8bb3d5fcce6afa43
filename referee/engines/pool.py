"""The engine pool of a run: processes kept between games, replaced after a failure, checked first.

* Each game gets one process per side from the pool, which keeps idle processes between games
  (no start-up cost per game) and replaces a process that failed (crash, stall, ...) with a fresh
  one before that engine's next game.
* A game slot has its own cores (referee/engines/cpu.py); an idle process last used on the same cores is
  preferred, so an engine seldom has to be moved between cores.
* Preflight: every engine is started once before the first game, so a misconfigured run stops at
  once. Without it, an engine whose command does not exist, that does not play the game, or that
  lacks an option it is given loses every one of its games as a start failure, and the run
  "succeeds". Each engine is started (handshake, its options set and checked against what it
  declares, `isready`), told the game (UCI_Variant must offer it), and every problem is collected,
  so the host sees all of them in one message. Engines that pass stay idle in the pool and play
  the first games.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from .player import EngineFailure, EnginePlayer
from .process import EngineSpec


class PreflightFailed(Exception):
    """One or more engines cannot take part; `problems` holds one sentence per engine."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("; ".join(problems))

    def message(self) -> str:
        lines = "\n  ".join(self.problems)
        return (f"preflight: {len(self.problems)} engine problem(s), no game was played:\n  {lines}")


class EnginePool:
    """Engine processes by engine name: reused between games, replaced after a failure."""

    def __init__(self, specs: list[EngineSpec], make_player: Callable[[EngineSpec], EnginePlayer],
                 on_event: Callable[[str], None] = lambda text: None):
        self.specs = {spec.name: spec for spec in specs}
        self.make_player = make_player
        self.on_event = on_event
        self.idle: dict[str, list[EnginePlayer]] = {name: [] for name in self.specs}
        self.every: list[EnginePlayer] = []
        self.failed_last: dict[str, str] = {}

    def acquire(self, name: str, cores: tuple[int, ...] = ()) -> EnginePlayer:
        """An idle running process of engine `name` (one already on `cores` first), or a new (not
        yet started) one; the player is set to play on `cores` (empty: wherever the OS puts it).

        play_game starts a player that is not running, so a replacement is started just before
        the game it is needed for."""
        idle = self.idle[name]
        while idle:
            index = next((i for i in range(len(idle) - 1, -1, -1) if idle[i].cores == cores), len(idle) - 1)
            player = idle.pop(index)
            if player.alive:
                player.use_cores(cores)
                return player
        if name in self.failed_last:
            self.on_event(f"restarting {name} for its next game (last process: {self.failed_last.pop(name)})")
        player = self.make_player(self.specs[name])
        player.use_cores(cores)
        self.every.append(player)
        return player

    async def release(self, player: EnginePlayer) -> None:
        """Back to the idle list if healthy; otherwise make sure the process is gone."""
        if player.alive:
            self.idle[player.name].append(player)
            return
        if player.failed is not None:
            self.failed_last[player.name] = f"{player.failed.termination}: {player.failed.detail}"[:300]
        await player.quit()
        self._forget(player)

    def _forget(self, player: EnginePlayer) -> None:
        if player in self.every:
            self.every.remove(player)

    async def close(self) -> None:
        """Quit every engine process at once (quit, then SIGTERM, then SIGKILL each group)."""
        players, self.every = self.every, []
        for idle in self.idle.values():
            idle.clear()
        await asyncio.gather(*(p.quit() for p in players), return_exceptions=True)

    async def preflight(self, game_type: str, names: list[str] | None = None) -> list[str]:
        """Start each engine (or the named ones) once, at the same time; the problems found.

        Healthy processes go back to the idle list; failed ones are shut down."""
        players = [self.acquire(name) for name in (names if names is not None else list(self.specs))]
        try:
            outcomes = await asyncio.gather(*(_check(p, game_type) for p in players))
        finally:
            await asyncio.shield(asyncio.gather(*(self.release(p) for p in players)))
        for player in players:          # a failed preflight is not a "restart after failure" later
            self.failed_last.pop(player.name, None)
        return [problem for problem in outcomes if problem is not None]


async def _check(player: EnginePlayer, game_type: str) -> str | None:
    try:
        await player.start()
        await player.new_game(game_type)
    except EngineFailure as failure:
        return f"{player.name}: {failure.detail}"
    return None
