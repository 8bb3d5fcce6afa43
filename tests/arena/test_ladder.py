"""The ladder's loop on a real database with a scripted player in place of engines: a bot that fails every
game of the window is suspended with the reason, the others play on; pairs cut off by a stop are
finished first on the next start, each game recorded once; a new version joins while it runs."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from sqlalchemy import func, select

from arena.db import authors as authors_db
from arena.db import bots as bots_db
from arena.db import results
from arena.db.schema import SUSPENDED, games
from arena.ladder.runner import Ladder, OnGame, PlannedGame
from arena.ratings import Rating
from referee.engines.process import EngineSpec


class ScriptedPairs:
    """Plays nothing: each planned game ends at once, the engine named `crashy-v1` losing by a crash."""

    def __init__(self) -> None:
        self.played: list[int] = []
        self.roster: set[str] = set()
        self.live = None

    async def set_roster(self, specs: dict[str, EngineSpec]) -> None:
        self.roster = set(specs)

    async def play_pair(self, pair: results.Pair, planned: list[PlannedGame], slot: int, on_game: OnGame) -> None:
        for game in planned:
            await asyncio.sleep(0.01)
            self.played.append(game.spec.game_id)
            dark, light = game.dark.engine_name, game.light.engine_name
            crashed = "crashy-v1" in (dark, light)
            result = ("0-1" if dark == "crashy-v1" else "1-0") if crashed else "1/2-1/2"
            record = {"game_id": game.spec.game_id, "game_type": "hari", "rules_version": "1",
                      "start_position": "hari -/- 3/3 d -", "opening": [], "dark": {"name": dark, "cmd": ["x"]},
                      "light": {"name": light, "cmd": ["y"]}, "time_control": {"dark": "st=1", "light": "st=1"},
                      "moves": [], "result": result, "termination": "crash" if crashed else "normal",
                      "reason": "crashy-v1 crashed (exit status 7; stderr tail: ZeroDivisionError)" if crashed
                      else "a draw", "final_scores": [], "final_position": "hari x", "pair": pair.id, "round": 1,
                      "started_at": "", "duration_s": 0.01}
            if not await on_game(record, []):
                return

    async def close(self) -> None:
        pass


def _active(engine: Any, author: str, bot: str) -> bots_db.VersionRow:
    who, _ = authors_db.add_author(engine, author)
    row = bots_db.new_submission(engine, who.id, bot, "x.tar.gz", "0" * 64, ["./bot"], None)
    bots_db.activate(engine, row.id, "playing")
    return row


async def run_until(ladder: Ladder, done: Any, timeout: float = 20.0) -> None:
    task = asyncio.create_task(ladder.run())
    try:
        deadline = asyncio.get_running_loop().time() + timeout
        while not await asyncio.to_thread(done):
            assert not task.done(), task.exception()
            assert asyncio.get_running_loop().time() < deadline, "timed out"
            await asyncio.sleep(0.05)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


def test_a_bot_failing_a_whole_window_is_suspended_and_the_rest_play_on(arena_engine):
    arena, engine = arena_engine
    for author, bot in (("a", "steady"), ("b", "calm"), ("c", "crashy")):
        _active(engine, author, bot)
    player = ScriptedPairs()
    ladder = Ladder(arena, engine, player, concurrency=2, rng=random.Random(3), log=lambda text: None)

    def crashy_out_and_more_games() -> bool:
        crashy = bots_db.version(engine, 3)
        return crashy is not None and crashy.status == SUSPENDED and bots_db.version(engine, 1).games >= 14  # type: ignore[union-attr]

    asyncio.run(run_until(ladder, crashy_out_and_more_games))
    crashy = bots_db.version(engine, 3)
    assert crashy is not None
    assert crashy.failed_in_row == arena.config.ladder.suspend_after == 10
    assert crashy.reason.startswith("suspended after 10 failed games in a row; the last: crash: crashy-v1 crashed")
    assert crashy.games == 10 and crashy.losses == 10
    with engine.connect() as db:
        after = db.execute(select(func.count()).select_from(games).where(
            (games.c.dark == 3) | (games.c.light == 3))).scalar_one()
    assert after == 10, "no game of the suspended bot is recorded after its suspension"
    steady = bots_db.version(engine, 1)
    assert steady is not None and steady.games >= 14 and steady.wins >= 1


def test_pairs_cut_off_by_a_stop_are_finished_first_and_recorded_once(arena_engine):
    arena, engine = arena_engine
    a, b = _active(engine, "a", "one"), _active(engine, "b", "two")
    pair = results.new_pair(engine, "hari", a.id, b.id, 0, 4)
    side = results.SideUpdate(a.id, Rating(), 0.5, False, 0, [])
    record = {"game_id": pair.game_id(1), "game_type": "hari", "result": "1/2-1/2", "termination": "normal",
              "reason": "a draw", "moves": [], "opening": []}
    assert results.store_game(engine, pair, record, side, results.SideUpdate(b.id, Rating(), 0.5, False, 0, []), [])
    player = ScriptedPairs()
    ladder = Ladder(arena, engine, player, concurrency=1, rng=random.Random(1), log=lambda text: None)
    asyncio.run(run_until(ladder, lambda: len(player.played) >= 6))
    assert player.played[:3] == [pair.game_id(0), pair.game_id(2), pair.game_id(3)]
    assert results.recorded_games(engine, pair) == {pair.game_id(n) for n in range(4)}
    assert pair.id not in [p.id for p in results.unfinished_pairs(engine)]


def test_a_version_activated_while_the_ladder_runs_joins_it(arena_engine):
    arena, engine = arena_engine
    _active(engine, "a", "one")
    player = ScriptedPairs()
    ladder = Ladder(arena, engine, player, concurrency=1, rng=random.Random(1), log=lambda text: None)

    async def scenario() -> None:
        task = asyncio.create_task(ladder.run())
        await asyncio.sleep(0.5)
        assert player.played == []                       # one bot: nobody to play
        await asyncio.to_thread(_active, engine, "b", "two")
        ladder.poke()
        for _ in range(200):
            if player.played:
                break
            await asyncio.sleep(0.02)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        assert player.played and player.roster == {"one-v1", "two-v1"}

    asyncio.run(scenario())
