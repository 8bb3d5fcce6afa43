"""benchmarks/strength.py prints each opening's results from the match's records: Dark's points, each
pair's games by the colour that won them, search's points as Dark and as Light."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from protocol import new_game
from referee.formats.record import GameRecord
from referee.formats.terminations import Termination
from tests.support.paths import BENCHMARKS

_spec = importlib.util.spec_from_file_location("strength", BENCHMARKS / "strength.py")
assert _spec is not None and _spec.loader is not None
strength = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(strength)


def _record(game_id: int, opening: list[str], dark: str, light: str, result: str) -> dict:
    game = new_game("hari")
    start = game.position()
    for move in opening:
        game.play(move)
    return GameRecord(game_id=game_id, game_type="hari", rules_version="1", start_position=start,
                      opening=opening, dark={"name": dark, "cmd": ["x"]}, light={"name": light, "cmd": ["x"]},
                      time_control={"dark": "nodes=1", "light": "nodes=1"}, moves=[], result=result,
                      termination=Termination.ADJUDICATION, reason="test", final_scores=[],
                      final_position=game.position(), pair=(game_id + 1) // 2).to_json()


def test_per_opening_lines_show_pairs_one_colour_won_twice(tmp_path: Path) -> None:
    records = [_record(1, ["a0a2"], "search", "flatmc", "1-0"), _record(2, ["a0a2"], "flatmc", "search", "1-0"),
               _record(3, ["b0b2"], "search", "flatmc", "1-0"), _record(4, ["b0b2"], "flatmc", "search", "0-1")]
    (tmp_path / "records.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    lines = strength.per_opening_text(tmp_path).splitlines()
    assert len(lines) == 3 and all(line.startswith("    ") for line in lines)
    assert "a0a2" in lines[0] and "pairs DD" in lines[0] and "search 1/2 (Dark 1/1, Light 0/1)" in lines[0]
    assert "b0b2" in lines[1] and "pairs DL" in lines[1] and "search 2/2 (Dark 1/1, Light 1/1)" in lines[1]
    assert "1 of 2 pairs won by one colour twice" in lines[2]
