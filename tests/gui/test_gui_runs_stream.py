"""The Runs tab reads records.jsonl as a stream: only what was appended since the last look, the
latest games listed, every game counted and replayable, a bad line refused with its line and field."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import protocol
from gui import runs
from gui.runs import RunError, replay, run_summary


def hari_record(game_id: int, rng: random.Random, dark: str = "a", light: str = "b") -> dict:
    game = protocol.new_game("hari")
    start = game.position()
    moves = []
    while not game.is_over() and len(moves) < 6:
        move = game.random_move(rng)
        game.push(move)
        moves.append(str(move))
    return {"game_id": game_id, "game_type": "hari", "rules_version": "1", "start_position": start,
            "opening": [], "dark": {"name": dark}, "light": {"name": light},
            "time_control": {"dark": None, "light": None}, "moves": [{"move": m, "ms": 1} for m in moves],
            "result": rng.choice(["1-0", "0-1"]), "termination": "normal", "reason": "r",
            "final_scores": [], "final_position": game.position(), "pair": None, "round": None}


def append(path: Path, records: list[dict]) -> None:
    with open(path / "records.jsonl", "a") as fh:
        fh.write("".join(json.dumps(r) + "\n" for r in records))


def test_a_long_run_is_counted_whole_and_its_latest_games_listed(tmp_path, monkeypatch):
    monkeypatch.setattr(runs, "MAX_LISTED_GAMES", 5)
    rng = random.Random(1)
    records = [hari_record(i, rng) for i in range(12)]
    append(tmp_path, records[:9])
    summary = run_summary("run", tmp_path)
    assert summary["recorded"] == 9 and [g["game_id"] for g in summary["games"]] == [4, 5, 6, 7, 8]
    assert sum(row["games"] for row in summary["standings"]) == 18
    reader = runs._READERS[tmp_path.resolve()]
    read_before = reader.offset
    append(tmp_path, records[9:])
    summary = run_summary("run", tmp_path)
    assert summary["recorded"] == 12 and [g["game_id"] for g in summary["games"]] == [7, 8, 9, 10, 11]
    assert reader.offset > read_before and reader is runs._READERS[tmp_path.resolve()]
    assert summary["latest"]["game_id"] == 11
    old = replay(tmp_path, 1)                          # not listed any more, still replayable
    assert old["game_id"] == 1 and len(old["frames"]) == len(records[1]["moves"]) + 1


def test_a_replaced_or_shortened_records_file_is_read_again(tmp_path):
    rng = random.Random(2)
    append(tmp_path, [hari_record(i, rng) for i in range(4)])
    assert run_summary("run", tmp_path)["recorded"] == 4
    (tmp_path / "records.jsonl").write_text(json.dumps(hari_record(0, rng)) + "\n")   # a repair, say
    assert run_summary("run", tmp_path)["recorded"] == 1


def test_a_bad_line_is_refused_with_its_line_and_field_and_counts_nothing(tmp_path):
    rng = random.Random(3)
    append(tmp_path, [hari_record(0, rng)])
    assert run_summary("run", tmp_path)["recorded"] == 1
    bad = hari_record(1, rng)
    bad["result"] = "2-0"
    append(tmp_path, [bad, hari_record(2, rng)])
    with pytest.raises(RunError, match=r"records.jsonl, line 2: field result"):
        run_summary("run", tmp_path)
    with pytest.raises(RunError, match=r"line 2: field result"):
        run_summary("run", tmp_path)                   # still refused on the next look
