"""Preflight: every engine is started once before the first game, so a misconfigured run stops at once.

Without it, an engine whose command does not exist, that does not play the game, or that lacks an
option it is given loses every one of its games as a start failure, and the run "succeeds". Here
each engine is started (handshake, its options set and checked against what it declares, `isready`),
told the game (UCI_Variant must offer it), and every problem is collected, so the host sees all of
them in one message. Engines that pass stay running in the pool and play the first games.
"""

from __future__ import annotations

import asyncio

from .player import EngineFailure, EnginePlayer
from .runner import EnginePool


class PreflightFailed(Exception):
    """One or more engines cannot take part; `problems` holds one sentence per engine."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("; ".join(problems))

    def message(self) -> str:
        lines = "\n  ".join(self.problems)
        return (f"preflight: {len(self.problems)} engine problem(s), no game was played:\n  {lines}")


async def _check(player: EnginePlayer, game_type: str) -> str | None:
    try:
        await player.start()
        await player.new_game(game_type)
    except EngineFailure as failure:
        return f"{player.name}: {failure.detail}"
    return None


async def preflight(pool: EnginePool, game_type: str, names: list[str] | None = None) -> list[str]:
    """Start each engine of `pool` (or the named ones) once, at the same time; the problems found.

    Healthy processes go back to the pool's idle list; failed ones are shut down."""
    players = [pool.acquire(name) for name in (names if names is not None else list(pool.specs))]
    try:
        outcomes = await asyncio.gather(*(_check(p, game_type) for p in players))
    finally:
        await asyncio.shield(asyncio.gather(*(pool.release(p) for p in players)))
    for player in players:          # a failed preflight is not a "restart after failure" later
        pool.failed_last.pop(player.name, None)
    return [problem for problem in outcomes if problem is not None]
