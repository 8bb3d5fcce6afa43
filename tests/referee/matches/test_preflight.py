"""Preflight: a misconfigured run stops before the first game, with every problem in one message."""

from __future__ import annotations

import json
import sys

import pytest

from referee.cli import main
from tests.support.paths import BAD_ENGINES

BAD = BAD_ENGINES
GOOD = f"cmd={sys.executable} {BAD / 'good_random.py'}"


def run_expecting_exit(argv: list[str], capsys) -> tuple[int, str]:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    return int(exc.value.code), capsys.readouterr().err


def test_missing_command_and_unknown_option_are_reported_together(tmp_path, engine_dir, capsys):
    out = tmp_path / "out"
    argv = ["tournament", "-engine", "name=ghost", "cmd=./nonexistent", f"dir={engine_dir}",
            "-engine", "name=typo", GOOD, f"dir={engine_dir}", "option.Sead=3",
            "-engine", "name=fine", GOOD, f"dir={engine_dir}",
            "--games", "20", "--out", str(out), "-each", "tc=10+0.1"]
    code, err = run_expecting_exit(argv, capsys)
    assert code == 2
    assert "preflight: 2 engine problem(s), no game was played" in err
    assert "ghost: could not be started" in err and "nonexistent" in err
    assert "typo: has no option 'Sead'" in err
    assert "fine:" not in err
    assert not (out / "records.jsonl").exists() or (out / "records.jsonl").read_text() == ""
    assert not (out / "config.json").exists()          # the same --out can be used once fixed
    argv[argv.index("name=ghost") + 1] = GOOD
    argv[argv.index("option.Sead=3")] = "option.Seed=3"
    assert main(argv + ["--games", "2", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games_recorded"] == 6


def test_an_engine_that_does_not_play_the_game_is_refused(tmp_path, engine_dir, capsys):
    script = engine_dir / "isaac_only.py"
    script.write_text(
        "import sys\n"
        "for line in sys.stdin:\n"
        "    w = line.split()\n"
        "    if w[:1] == ['uci']:\n"
        "        print('id name isaac_only')\n"
        "        print('option name UCI_Variant type combo default isaac var isaac')\n"
        "        print('uciok', flush=True)\n"
        "    elif w[:1] == ['isready']:\n"
        "        print('readyok', flush=True)\n"
        "    elif w[:1] == ['quit']:\n"
        "        break\n")
    argv = ["match", "-engine", "name=narrow", f"cmd={sys.executable} {script}", f"dir={engine_dir}",
            "-engine", "name=fine", GOOD, f"dir={engine_dir}", "--game", "hari",
            "--out", str(tmp_path / "out")]
    code, err = run_expecting_exit(argv, capsys)
    assert code == 2 and "narrow: does not play hari" in err
