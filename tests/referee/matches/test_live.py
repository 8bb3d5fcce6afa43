"""live.json: the games in progress, rewritten as moves are played (throttled, last state kept)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from protocol import new_game
from referee.formats.timecontrol import TimeControl
from referee.matches.game_runner import GameSpec
from referee.matches.live import LIVE, LiveGames


def _spec(game_id: int, opening: list[str]) -> GameSpec:
    tc = TimeControl.parse("10+0.1")
    return GameSpec(game_id=game_id, game_type="hari", start_position=None, opening=opening, dark_tc=tc, light_tc=tc)


def _read(path: Path) -> list[dict]:
    return json.loads((path / LIVE).read_text())["games"]


def test_games_appear_move_and_leave(tmp_path):
    live = LiveGames(tmp_path, interval=0)
    live.started(4, "A", "B", _spec(4, ["c3c7"]))
    [game] = _read(tmp_path)
    after_opening = new_game("hari")
    after_opening.play("c3c7")
    assert (game["game_id"], game["dark"], game["light"], game["moves"]) == (4, "A", "B", ["c3c7"])
    assert game["position"] == after_opening.position()
    after_opening.play("d4d8")
    live.moved(4, "d4d8", after_opening)
    assert _read(tmp_path)[0]["moves"] == ["c3c7", "d4d8"]
    assert _read(tmp_path)[0]["position"] == after_opening.position()
    live.finished(4)
    assert _read(tmp_path) == []


def test_writes_are_throttled_but_the_last_state_is_written(tmp_path):
    async def play() -> list[int]:
        live = LiveGames(tmp_path, interval=0.2)
        live.started(0, "A", "B", _spec(0, []))   # written at once, by the writer thread
        for _ in range(200):
            if (tmp_path / LIVE).exists():
                break
            await asyncio.sleep(0.01)
        seen = []
        game = new_game("hari")
        for move in ["a0c0", "d4d6", "e0e4", "f5f9", "a2a8"]:
            game.play(move)
            live.moved(0, move, game)
            seen.append(len(_read(tmp_path)[0]["moves"]))
        await asyncio.sleep(0.4)
        seen.append(len(_read(tmp_path)[0]["moves"]))
        assert _read(tmp_path)[0]["position"] == game.position()
        live.close()
        return seen

    seen = asyncio.run(play())
    assert seen[:5] == [0] * 5          # moves within the interval wait...
    assert seen[5] == 5                 # ...and the last state is written when it has passed
    assert _read(tmp_path) == []        # close(): nothing runs any more
