"""Long runs through the command line: distinct games, the checkpoint a resume takes, games.pgn kept
in step, --help and --version."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import protocol
from referee.cli import main
from referee.cli.prepare import schedule
from referee.engines.process import EngineSpec
from referee.matches.openings import OpeningBook
from referee.matches.plan import RunPlan
from referee.matches.tracker import Tracker
from referee.results.checkpoint import checkpoint_text, write_checkpoint
from referee.results.store import Store
from tests.support.paths import BAD_ENGINES, REPO

GOOD = BAD_ENGINES / "good_random.py"


def engine(name: str, *extra: str) -> list[str]:
    return ["-engine", f"name={name}", f"cmd={sys.executable} {GOOD}", *extra]


def summary_of(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, dict]:
    code = main([*argv, "--json"])
    return code, json.loads(capsys.readouterr().out)


def records_of(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "records.jsonl").read_text().splitlines() if line.strip()]


def test_help_says_what_the_command_is_and_version_prints_it():
    env_path = str(REPO)
    done = subprocess.run([sys.executable, "-m", "referee", "--help"], capture_output=True, text=True,
                          env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0
    assert "isaac-referee is isaac-arena's referee for ISAAC, FOUNDATIONS and HARI" in done.stdout
    assert "isaac-referee match -engine" in done.stdout and "exit codes:" in done.stdout
    version = subprocess.run([sys.executable, "-m", "referee", "--version"], capture_output=True, text=True,
                             env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"})
    assert version.returncode == 0 and version.stdout == f"isaac-referee (isaac-arena) {protocol.__version__}\n"


@pytest.mark.slow
def test_engines_with_a_seed_option_play_distinct_games_unless_the_host_fixes_it(tmp_path, capsys):
    """The same two players from the start position: with a seed per game the games differ; with
    Seed fixed by the host they are one game again and again, and the summary says so."""
    base = ["match", "--game", "hari", "--games", "120", "--openings", "startpos", "--tc", "60+1", "--seed", "7"]
    code, summary = summary_of([*base, *engine("a"), *engine("b"), "--out", str(tmp_path / "free")], capsys)
    records = records_of(tmp_path / "free")
    assert code == 0 and len({r["seed"] for r in records}) == 120
    assert summary["repeated_games"]["warning"] is False and summary["repeated_games"]["repeated"] <= 1
    code, fixed = summary_of([*base, *engine("a", "option.Seed=1"), *engine("b", "option.Seed=2"),
                              "--out", str(tmp_path / "fixed")], capsys)
    assert code == 0
    repeats = fixed["repeated_games"]
    assert repeats["games_checked"] == 120 and repeats["repeated"] == 118 and repeats["warning"] is True


@pytest.mark.slow
def test_a_resume_takes_the_checkpoint_and_games_pgn_stays_in_step(tmp_path, capsys):
    """A run killed after game 6 whose last checkpoint counted 4 games (and whose PGN lost game 6):
    the resume reads only the 2 records after the checkpoint, cuts games.pgn back to the checkpoint,
    appends the PGN of games 5 and 6, plays the other 4 and ends with the statistics of a run that
    was never interrupted."""
    argv = ["match", "--game", "foundations", "--games", "10", "--tc", "60+1", "--seed", "3", *engine("a"), *engine("b")]
    code, whole = summary_of([*argv, "--out", str(tmp_path / "whole")], capsys)
    assert code == 0
    out = tmp_path / "run"
    code, _ = summary_of([*argv, "--out", str(out)], capsys)
    assert code == 0
    lines = (out / "records.jsonl").read_text().splitlines(keepends=True)
    games = ["[Event " + g for g in (out / "games.pgn").read_text().split("[Event ")[1:]]
    (out / "records.jsonl").write_text("".join(lines[:4]))
    (out / "games.pgn").write_text("".join(games[:4]))
    store = Store(out)
    identity = json.loads((out / "config.json").read_text())["identity"]
    tracker = Tracker(build_plan_of(identity, out))
    loaded = tracker.load(store, identity)
    write_checkpoint(store, checkpoint_text(identity, loaded.end, tracker.tally.state(), tracker.shown.offsets(),
                                            len("".join(games[:4]).encode())))
    (out / "records.jsonl").write_text("".join(lines[:6]))
    (out / "games.pgn").write_text("".join(games[:5]))
    (out / "summary.json").unlink()
    code, resumed = summary_of(["match", "--out", str(out), "--resume"], capsys)
    assert code == 0
    assert "10 games, 6 recorded; 2 read now, the rest from checkpoint.json" in (out / "events.log").read_text()
    keep = ("games_recorded", "terminations", "engines", "standings", "crosstable", "encounters", "match")
    assert {k: resumed[k] for k in keep} == {k: whole[k] for k in keep}
    pgn = (out / "games.pgn").read_text()
    ids = [int(line.split('"')[1]) for line in pgn.splitlines() if line.startswith("[GameId ")]
    assert sorted(ids) == list(range(10)) and ids[:6] == [json.loads(x)["game_id"] for x in lines[:6]]


def build_plan_of(identity: dict, out: Path) -> RunPlan:
    specs = [EngineSpec.from_json(e) for e in identity["engines"]]
    return RunPlan(identity["command"], identity["game"], specs, schedule(identity), OpeningBook.fixed(identity["game"], []))
