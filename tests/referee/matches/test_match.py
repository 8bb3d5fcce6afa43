"""Matches and tournaments between real engine processes (the built-in strategies), plus the schedule.

Engines run with their working directory in a fresh temporary directory, so the
test can tell its own engine processes from anyone else's and prove none is left.
"""

from __future__ import annotations

import gc
import json
import sys
import time
from pathlib import Path

import pytest

from referee.cli import main
from referee.formats.record import GameRecord
from referee.matches.schedule import match_schedule, tournament_schedule
from referee.results.tally import engine_totals
from tests.support.paths import BAD_ENGINES
from tests.support.processes import processes_in

pytestmark = pytest.mark.slow

BAD = BAD_ENGINES
TC = "tc=10+0.1"   # generous: the built-in strategies answer at once, slow CI must not forfeit


def builtin(name: str, strategy: str, where: Path, *extra: str) -> list[str]:
    return ["-engine", f"name={name}", f"cmd={sys.executable} -m engine", f"dir={where}",
            f"option.Strategy={strategy}", *extra]


def assert_no_engines_left(directory: Path) -> None:
    deadline = time.monotonic() + 3
    while processes_in(directory) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert processes_in(directory) == []


def run(argv, capsys) -> tuple[int, dict]:
    code = main(argv + ["--json"])
    out = capsys.readouterr().out
    return code, json.loads(out)


def records_of(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "records.jsonl").read_text().splitlines()]


def assert_pairs_swapped(records: list[dict]) -> None:
    """Both games of every pair: same start and opening, colours swapped."""
    pairs: dict[int, list[dict]] = {}
    for r in records:
        pairs.setdefault(r["pair"], []).append(r)
    for pair, games in pairs.items():
        assert len(games) == 2, f"pair {pair} has {len(games)} games"
        a, b = sorted(games, key=lambda r: r["game_id"])
        assert (a["dark"]["name"], a["light"]["name"]) == (b["light"]["name"], b["dark"]["name"])
        assert a["opening"] == b["opening"] and a["start_position"] == b["start_position"]


def assert_summary_matches_records(summary: dict, records: list[dict]) -> None:
    names = [e["name"] for e in summary["engines"]]
    recomputed = engine_totals([GameRecord.from_json(r) for r in records], names)
    for entry in summary["engines"]:
        t = recomputed[entry["name"]].total
        assert (entry["wins"], entry["draws"], entry["losses"]) == (t.wins, t.draws, t.losses)
        assert entry["dark"]["games"] + entry["light"]["games"] == entry["games"]
    assert sum(e["points"] for e in summary["engines"]) == len(records)
    assert sum(summary["terminations"].values()) == len(records)


# -- the schedule -------------------------------------------------------------

def test_match_schedule_pairs_swap_colours_on_one_opening():
    games = match_schedule("A", "B", 5)
    assert [g.index for g in games] == [0, 1, 2, 3, 4]
    assert [(g.dark, g.light) for g in games] == [("A", "B"), ("B", "A"), ("A", "B"), ("B", "A"), ("A", "B")]
    assert [g.opening for g in games] == [0, 0, 1, 1, 2]
    assert [g.pair for g in games] == [0, 0, 1, 1, 2]


def test_round_robin_schedule():
    games = tournament_schedule(["A", "B", "C"], "round-robin", games=2, rounds=2)
    assert len(games) == 3 * 2 * 2
    assert [g.index for g in games] == list(range(12))
    encounters = {frozenset((g.dark, g.light)) for g in games}
    assert encounters == {frozenset("AB"), frozenset("AC"), frozenset("BC")}
    # every encounter of a round uses the same opening; the next round uses the next one
    assert {g.opening for g in games if g.round == 1} == {0}
    assert {g.opening for g in games if g.round == 2} == {1}
    for engine in "ABC":
        dark = sum(g.dark == engine for g in games)
        light = sum(g.light == engine for g in games)
        assert dark == light == 4
    assert len({g.pair for g in games}) == 6
    assert tournament_schedule(["A", "B", "C"], "round-robin", 2, 2) == games   # deterministic


def test_gauntlet_schedule_and_odd_games_alternate_colours():
    games = tournament_schedule(["A", "B", "C", "D"], "gauntlet", games=1, rounds=2)
    assert len(games) == 3 * 2
    assert all("A" in (g.dark, g.light) for g in games)
    assert sum(g.dark == "A" for g in games) == 3   # the lone game alternates colours


def test_schedule_rejects_bad_input():
    with pytest.raises(ValueError, match="given twice"):
        match_schedule("A", "A", 2)
    with pytest.raises(ValueError, match="unknown tournament format"):
        tournament_schedule(["A", "B"], "swiss", 2, 1)
    with pytest.raises(ValueError, match="at least 2 engines"):
        tournament_schedule(["A"], "round-robin", 2, 1)


# -- real games -----------------------------------------------------------------

def test_match_between_builtin_strategies(tmp_path, engine_dir, capsys):
    out = tmp_path / "out"
    argv = ["match", "--game", "isaac", *builtin("greedy", "greedy", engine_dir),
            *builtin("random", "random", engine_dir), "-each", TC, "--games", "4",
            "--openings", "random:2", "--seed", "11", "--out", str(out)]
    code, summary = run(argv, capsys)
    assert code == 0
    records = records_of(out)
    assert sorted(r["game_id"] for r in records) == [0, 1, 2, 3]
    assert_pairs_swapped(records)
    assert all(len(r["opening"]) == 2 for r in records)
    assert all(r["game_type"] == "isaac" and r["moves"] for r in records)
    assert summary["games_recorded"] == 4 and summary["complete"] and summary["stopped"] == "complete"
    assert_summary_matches_records(summary, records)
    match = summary["match"]
    assert match["first"] == "greedy" and match["games"] == 4
    assert sum(match["pentanomial"]) == 2
    assert (out / "games.pgn").read_text().count("[Event ") == 4
    assert json.loads((out / "summary.json").read_text())["games_recorded"] == 4
    assert_no_engines_left(engine_dir)


def test_what_the_run_keeps_is_frozen_once_and_does_not_grow_with_the_games(tmp_path, engine_dir, capsys,
                                                                            monkeypatch):
    """Full collections stall the loop while another game's engine thinks, and its answer is read late
    (referee/matches/runner.py): the run freezes what lives for its whole length once, before the games, and
    keeps no per-game objects after it, so the objects the collector tracks stay as many after 16
    games as after 4."""
    frozen_after: list[int] = []
    tracked: dict[int, int] = {}
    freeze = gc.freeze

    def counting_freeze() -> None:
        freeze()
        frozen_after.append(gc.get_freeze_count())

    from referee.matches.tracker import Tracker
    add = Tracker.add

    def counting_add(self, record, offset=None):
        counted = add(self, record, offset)
        if self.recorded in (4, 16):
            gc.collect()
            tracked[self.recorded] = len(gc.get_objects())
        return counted

    monkeypatch.setattr(gc, "freeze", counting_freeze)
    monkeypatch.setattr(Tracker, "add", counting_add)
    monkeypatch.setattr("referee.results.report.SHOWN_LATEST", 2)     # the report keeps its last games: 2 here
    monkeypatch.setattr("referee.results.report.SHOWN_FORFEITS", 2)
    monkeypatch.setattr("referee.matches.game_runner.PARSED_MOVES", 4)  # and the parses of the last moves seen
    import scipy.optimize  # noqa: F401  (the report's ratings import it once, not per game)
    try:
        argv = ["match", "--game", "foundations", *builtin("random1", "random", engine_dir),
                *builtin("random2", "random", engine_dir), "-each", TC, "--games", "16", "--concurrency", "1",
                "--out", str(tmp_path / "out")]
        code, summary = run(argv, capsys)
    finally:
        gc.unfreeze()
    assert code == 0 and summary["games_recorded"] == 16
    assert len(frozen_after) == 1 and frozen_after[0] > 0
    assert tracked[16] - tracked[4] < 500, tracked


@pytest.mark.parametrize("game", ["foundations", "hari"])
def test_short_match_in_each_other_game(tmp_path, engine_dir, capsys, game):
    out = tmp_path / "out"
    argv = ["match", "--game", game, *builtin("greedy", "greedy", engine_dir),
            *builtin("random", "random", engine_dir), "-each", TC, "--games", "2", "--out", str(out)]
    code, summary = run(argv, capsys)
    assert code == 0
    records = records_of(out)
    assert [r["game_type"] for r in records] == [game, game]
    assert_pairs_swapped(records)
    assert_summary_matches_records(summary, records)
    assert_no_engines_left(engine_dir)


def test_round_robin_tournament(tmp_path, engine_dir, capsys):
    out = tmp_path / "out"
    argv = ["tournament", "--format", "round-robin", "--game", "isaac",
            *builtin("greedy", "greedy", engine_dir), *builtin("random1", "random", engine_dir, "option.Seed=1"),
            *builtin("random2", "random", engine_dir, "option.Seed=2"), "-each", TC,
            "--games", "2", "--openings", "random:1", "--seed", "5", "--concurrency", "2", "--out", str(out)]
    code, summary = run(argv, capsys)
    assert code == 0
    records = records_of(out)
    assert sorted(r["game_id"] for r in records) == list(range(6))
    assert_pairs_swapped(records)
    assert_summary_matches_records(summary, records)
    assert all(e["games"] == 4 for e in summary["engines"])
    points = {e["name"]: e["points"] for e in summary["engines"]}
    assert [points[n] for n in summary["standings"]] == sorted(points.values(), reverse=True)
    assert "match" not in summary
    assert_no_engines_left(engine_dir)


def test_gauntlet_tournament(tmp_path, engine_dir, capsys):
    out = tmp_path / "out"
    argv = ["tournament", "--format", "gauntlet", *builtin("greedy", "greedy", engine_dir),
            *builtin("random1", "random", engine_dir, "option.Seed=1"),
            *builtin("random2", "random", engine_dir, "option.Seed=2"), "-each", TC,
            "--games", "2", "--out", str(out)]
    code, summary = run(argv, capsys)
    assert code == 0
    records = records_of(out)
    assert len(records) == 4
    assert all("greedy" in (r["dark"]["name"], r["light"]["name"]) for r in records)
    assert {e["name"]: e["games"] for e in summary["engines"]} == {"greedy": 4, "random1": 2, "random2": 2}
    assert_summary_matches_records(summary, records)
    assert_no_engines_left(engine_dir)


def test_sprt_stops_early_and_a_failed_engine_is_restarted(tmp_path, engine_dir, capsys):
    out = tmp_path / "out"
    good = ["-engine", "name=good", f"cmd={sys.executable} {BAD / 'good_random.py'}", f"dir={engine_dir}"]
    bad = ["-engine", "name=cheat", f"cmd={sys.executable} {BAD / 'illegal_move.py'}", f"dir={engine_dir}"]
    argv = ["match", *good, *bad, "-each", TC, "--games", "40", "--sprt", "0", "200", "0.05", "0.05",
            "--concurrency", "1", "--out", str(out)]
    code, summary = run(argv, capsys)
    assert code == 0
    records = records_of(out)
    assert 2 <= len(records) < 40
    assert summary["stopped"] == "sprt H1" and summary["complete"]
    assert summary["match"]["sprt"]["decision"] == "H1"
    assert summary["match"]["sprt"]["llr"] >= summary["match"]["sprt"]["upper"]
    assert all(r["termination"] == "illegal move" for r in records)
    assert summary["engines"][0]["wins"] == len(records)
    # the cheat forfeits every game; its process is replaced before the next one
    assert "restarting cheat" in (out / "events.log").read_text()
    assert_no_engines_left(engine_dir)


def test_the_ratings_fit_is_imported_before_the_first_game_not_during_the_games(tmp_path, monkeypatch, capsys):
    # the report fits ratings in a thread while games run: a first import of numpy/scipy there would hold the
    # GIL against the games' clocks, so the runner imports them before its first game
    import referee.matches.runner as runner
    seen: list[str] = []
    play = runner.play_game

    async def recorded_game(*args, **kwargs):
        seen.append("game")
        return await play(*args, **kwargs)

    monkeypatch.setattr(runner, "preload_ratings_fit", lambda: seen.append("preload"))
    monkeypatch.setattr(runner, "play_game", recorded_game)
    good = f"cmd={sys.executable} {BAD_ENGINES / 'good_random.py'}"
    code, _ = run(["match", "--game", "foundations", "--games", "2", "--tc", "60+1", "--seed", "3",
                   "-engine", "name=a", good, "-engine", "name=b", good, "--out", str(tmp_path / "run")], capsys)
    assert code == 0 and seen == ["preload", "game", "game"]
