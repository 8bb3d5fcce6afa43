"""cutechess-cli / fastchess spellings: rewritten where unambiguous, refused with a reason otherwise."""

from __future__ import annotations

import json
import os
import sys

import pytest

from referee.cli import main
from referee.cli.spellings import SpellingError, translate
from referee.formats.timecontrol import TimeControl
from tests.support.paths import BAD_ENGINES, REPO

GOOD = f"cmd={sys.executable} {BAD_ENGINES / 'good_random.py'}"


@pytest.mark.parametrize("given, expected", [
    (["tournament", "-games", "2", "-rounds", "3", "-concurrency", "1", "-pgnout", "g.pgn", "min", "fi"],
     ["tournament", "--games", "2", "--rounds", "3", "--concurrency", "1", "--pgn-out", "g.pgn"]),
    (["match", "-games", "2", "-rounds", "5"], ["match", "--games", "10"]),
    (["match", "-rounds", "6"], ["match", "--games", "6"]),
    (["tournament", "-tournament", "gauntlet", "-srand", "7", "-repeat", "-recover"],
     ["tournament", "--format", "gauntlet", "--seed", "7"]),
    (["match", "-openings", "file=o.txt", "format=epd", "order=sequential", "-games", "4"],
     ["match", "--openings", "o.txt", "--games", "4"]),
    (["match", "-sprt", "elo0=0", "elo1=5", "alpha=0.05", "beta=0.05"],
     ["match", "--sprt", "0", "5", "0.05", "0.05"]),
    (["check", "-games", "2"], ["check", "-games", "2"]),          # only match and tournament
])
def test_translations(given, expected):
    assert translate(given) == expected


@pytest.mark.parametrize("given, message", [
    (["match", "-openings", "file=o.pgn", "format=pgn"], "only a text file"),
    (["match", "-openings", "file=o.epd", "order=random"], "file order"),
    (["match", "-sprt", "elo0=0", "elo1=5"], "missing alpha="),
    (["match", "-resign", "movecount=3", "score=400"], "always played out"),
    (["match", "-draw", "movenumber=40"], "--max-plies"),
    (["match", "-rounds", "x"], "whole number"),
])
def test_refusals_say_why(given, message):
    with pytest.raises(SpellingError, match=message):
        translate(given)


def test_cutechess_clock_with_minutes():
    assert TimeControl.parse("0:10+0.1").base_ms == 10_000
    assert TimeControl.parse("40/1:30+0.5").base_ms == 90_000


def test_a_cutechess_command_line_runs(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PYTHONPATH", str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    pgn = tmp_path / "games.pgn"
    argv = ["match", "-engine", "name=a", GOOD, "-engine", "name=b", GOOD, "option.Seed=5", "-each",
            "proto=uci", "tc=0:10+0.1", "-games", "2", "-rounds", "2", "-concurrency", "1", "-repeat",
            "-pgnout", str(pgn), "--game", "hari", "--out", str(tmp_path / "out"), "--json"]
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games_recorded"] == 4
    assert pgn.read_text().count("[Result ") == 4
    with pytest.raises(SystemExit) as exc:
        main(["match", "-resign", "movecount=3"])
    assert exc.value.code == 2 and "resign adjudication" in capsys.readouterr().err
