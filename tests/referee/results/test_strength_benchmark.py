"""benchmarks/strength.py's per-opening view (benchmarks/per_opening.py): search's points as Dark and as
Light on every opening, pooled over seeds; the openings it lost with both colours, their games kept."""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path

import pytest

from protocol import new_game
from referee.formats.record import GameRecord
from referee.formats.terminations import Termination
from referee.results.store import read_records_file
from tests.support.paths import BENCHMARKS

_spec = importlib.util.spec_from_file_location("strength", BENCHMARKS / "strength.py")
assert _spec is not None and _spec.loader is not None
strength = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(strength)
per_opening = sys.modules["per_opening"]  # imported by strength.py from benchmarks/


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


def _games(runs: list[list[tuple[str, str, str, str]]]) -> list[list[dict]]:
    """Records of each run: (opening move, dark, light, result) per game, pairs in order."""
    return [[_record(i + 1, [move], dark, light, result) for i, (move, dark, light, result) in enumerate(run)]
            for run in runs]


def test_per_opening_pools_seeds_and_finds_openings_lost_with_both_colours(tmp_path: Path) -> None:
    seed1 = [("a0a2", "search", "fastmc", "0-1"), ("a0a2", "fastmc", "search", "1-0"),
             ("b0b2", "search", "fastmc", "1-0"), ("b0b2", "fastmc", "search", "1-0")]
    seed2 = [("a0a2", "search", "fastmc", "1/2-1/2"), ("a0a2", "fastmc", "search", "1-0"),
             ("b0b2", "search", "fastmc", "1-0"), ("b0b2", "fastmc", "search", "0-1")]
    tallies = per_opening.tally(_games([seed1, seed2]), "search")
    assert [t.opening for t in tallies] == ["a0a2", "b0b2"]
    a, b = tallies
    assert (a.dark.points, a.dark.games, a.light.points, a.light.games) == (0.5, 2, 0.0, 2)
    assert a.lost_with_both_colours() and not b.lost_with_both_colours()
    assert (b.dark.points, b.light.points, b.dark_points) == (2.0, 1.0, 3.0)
    line = per_opening.opening_line(1, a, "search")
    assert "search 0.5/4 (Dark 0.5/2, Light 0/2)" in line and "LOST WITH BOTH COLOURS" in line
    assert "LOST" not in per_opening.opening_line(2, b, "search")
    assert "lost 1 with both colours" in per_opening.lost_summary(tallies, "search")

    kept = tmp_path / "lost"
    assert per_opening.keep_lost_games(tallies, kept) == 4
    records, _ = read_records_file(kept / "records.jsonl")  # a valid records file: isaac-svg replays it
    assert [r["game_id"] for r in records] == [0, 1, 2, 3]
    assert len({r["pair"] for r in records}) == 2  # the two seeds' pairs stay apart
    assert {tuple(r["opening"]) for r in records} == {("a0a2",)}


def test_no_file_when_no_opening_is_lost_with_both_colours(tmp_path: Path) -> None:
    run = [("a0a2", "search", "fastmc", "1-0"), ("a0a2", "fastmc", "search", "1-0")]
    tallies = per_opening.tally(_games([run]), "search")
    assert per_opening.keep_lost_games(tallies, tmp_path / "lost") == 0
    assert not (tmp_path / "lost").exists()


def test_every_opening_plays_each_book_opening_with_both_colours() -> None:
    size = strength.book_size("hari", "book")
    assert size > 10
    args = argparse.Namespace(every_opening=2, games=40)
    assert strength.games_for("hari", "book", args) == 4 * size
    assert strength.games_for("hari", "startpos", args) == 40  # no book: --games


def _run_dir(path: Path, games: list[dict], opponent: str, penta: list[int], dark: tuple[float, int],
             light: tuple[float, int]) -> Path:
    """A match run directory as the referee leaves it, as far as --pool reads it: records and summary."""
    path.mkdir(parents=True)
    (path / "records.jsonl").write_text("".join(json.dumps(g) + "\n" for g in games), encoding="utf-8")
    search = {"name": "search", "dark": {"points": dark[0], "games": dark[1]},
              "light": {"points": light[0], "games": light[1]}, "forfeits_lost": {}}
    summary = {"game": "hari", "engines": [search, {"name": opponent}], "match": {"pentanomial": penta}}
    (path / "summary.json").write_text(json.dumps(summary), encoding="utf-8")
    return path


def test_pool_adds_up_runs_already_played(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    seed1 = [("a0a2", "search", "fastmc", "0-1"), ("a0a2", "fastmc", "search", "1-0"),
             ("b0b2", "search", "fastmc", "1-0"), ("b0b2", "fastmc", "search", "1-0")]
    seed2 = [("a0a2", "search", "fastmc", "0-1"), ("a0a2", "fastmc", "search", "1-0"),
             ("b0b2", "search", "fastmc", "1-0"), ("b0b2", "fastmc", "search", "0-1")]
    one, two = _games([seed1, seed2])
    first = _run_dir(tmp_path / "run1", one, "fastmc", [1, 0, 1, 0, 0], (1.0, 2), (0.0, 2))
    second = _run_dir(tmp_path / "run2", two, "fastmc", [1, 0, 0, 0, 1], (1.0, 2), (1.0, 2))
    assert strength.main(["--pool", str(first), str(second), "--out", str(tmp_path / "kept")]) == 0
    out = capsys.readouterr().out
    assert "hari against fastmc, 2 runs pooled, 8 games: search 37.5%" in out
    assert "Dark 50.0% Light 25.0%  pentanomial [2, 0, 1, 0, 1]" in out
    assert "lost with both colours: a0a2" in out and "lost with both colours: b0b2" not in out
    assert len(read_records_file(tmp_path / "kept" / "records.jsonl")[0]) == 4  # a0a2's games of both runs


def test_pool_refuses_unlike_runs_and_missing_ones(tmp_path: Path) -> None:
    games = _games([[("a0a2", "search", "fastmc", "1-0"), ("a0a2", "fastmc", "search", "1-0")]])[0]
    fast = _run_dir(tmp_path / "fast", games, "fastmc", [0, 0, 1, 0, 0], (1.0, 1), (0.0, 1))
    tree = _run_dir(tmp_path / "tree", games, "treemc", [0, 0, 1, 0, 0], (1.0, 1), (0.0, 1))
    with pytest.raises(SystemExit, match="the runs differ"):
        strength.main(["--pool", str(fast), str(tree)])
    with pytest.raises(SystemExit, match="no summary.json there"):
        strength.main(["--pool", str(fast), str(tmp_path / "nowhere")])


def test_pool_says_which_summary_is_not_a_match_summary(tmp_path: Path) -> None:
    games = _games([[("a0a2", "search", "fastmc", "1-0"), ("a0a2", "fastmc", "search", "1-0")]])[0]
    run = _run_dir(tmp_path / "run", games, "fastmc", [0, 0, 1, 0, 0], (1.0, 1), (0.0, 1))
    (run / "summary.json").write_text('{"game": "hari", "engines": [{"name": "search"}]}', encoding="utf-8")
    with pytest.raises(SystemExit, match=f"--pool {run}: summary.json is not a finished match's summary"):
        strength.main(["--pool", str(run)])
