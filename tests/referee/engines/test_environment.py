"""Engines start in the same small environment on every host: PATH and HOME from the referee,
LANG=C.UTF-8, and what the host adds with env.NAME=VALUE. So a Python bot that never flushes fails
here as it fails anywhere, even when the referee's own environment has PYTHONUNBUFFERED=1."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from referee.check import Status, run_check
from referee.cli import main
from referee.engines.config import ConfigError, build_engines
from referee.engines.environment import engine_environment
from tests.support.paths import BAD_ENGINES

NO_FLUSH = f"cmd={sys.executable} {BAD_ENGINES / 'no_flush.py'}"


@pytest.fixture(autouse=True)
def engines_import_this_checkout() -> None:
    """Overrides tests/conftest.py's fixture of that name: here engines get the referee's own environment."""
GOOD = f"cmd={sys.executable} {BAD_ENGINES / 'good_random.py'}"


def test_the_environment_is_path_home_lang_and_the_hosts_own():
    referee = {"PATH": "/opt/bin:/usr/bin", "HOME": "/home/ref", "PYTHONUNBUFFERED": "1", "LANG": "de_DE.UTF-8",
               "PYTHONPATH": "/src", "SECRET_TOKEN": "x"}
    assert engine_environment({}, referee) == {"PATH": "/opt/bin:/usr/bin", "HOME": "/home/ref", "LANG": "C.UTF-8"}
    assert engine_environment({"OMP_NUM_THREADS": "1", "LANG": "C"}, referee) == {
        "PATH": "/opt/bin:/usr/bin", "HOME": "/home/ref", "LANG": "C", "OMP_NUM_THREADS": "1"}
    assert engine_environment({}, {})["PATH"]       # the system's default search path


def test_env_words_of_the_command_line_and_the_engines_file(tmp_path: Path):
    engines = tmp_path / "engines.toml"
    engines.write_text('[engines.a]\ncmd = "a"\nenv = { FROM_FILE = "1", SHARED = "file" }\n')
    specs = build_engines([["name=a", "env.SHARED=own"], ["name=b", "cmd=b"]], [["env.EACH=2"]], str(engines))
    assert specs[0].env == {"EACH": "2", "FROM_FILE": "1", "SHARED": "own"}
    assert specs[1].env == {"EACH": "2"}
    assert [spec.to_json()["env"] for spec in specs] == [specs[0].env, {"EACH": "2"}]
    assert "env" not in build_engines([["name=c", "cmd=c"]], None, None)[0].to_json()   # runs stored before keep their identity
    for word in ("env.1BAD=x", "env.=x", "env.A-B=x"):
        with pytest.raises(ConfigError, match="not a variable name"):
            build_engines([["name=a", "cmd=a", word]], None, None)


@pytest.mark.slow
def test_a_bot_that_never_flushes_fails_whatever_the_referees_environment(tmp_path: Path, monkeypatch, capsys):
    monkeypatch.setenv("PYTHONUNBUFFERED", "1")        # as in many container images
    argv = ["match", "--game", "hari", "--games", "2", "--start-timeout", "2", "--out", str(tmp_path / "a"),
            "-engine", "name=noflush", NO_FLUSH, "-engine", "name=good", GOOD, "-each", "tc=st=0.1"]
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "noflush: did not answer 'uci' with 'uciok' within 2 s (no output)" in err
    assert "hint: nothing reached the referee: flush stdout" in err and "docs/bots.md#no-output" in err
    report = run_check([sys.executable, str(BAD_ENGINES / "no_flush.py")], games=("hari",), start_timeout=2.0)
    assert [r.status for r in report.results] == [Status.FAIL] and "no-output" in report.results[0].hint
    # the host can give it the variable, knowingly: then it plays
    out = tmp_path / "b"
    argv = ["match", "--game", "hari", "--games", "2", "--out", str(out), "-engine", "name=noflush", NO_FLUSH,
            "env.PYTHONUNBUFFERED=1", "-engine", "name=good", GOOD, "-each", "tc=10+0.1"]
    assert main(argv) == 0
    records = [json.loads(line) for line in (out / "records.jsonl").read_text().splitlines()]
    assert [r["termination"] for r in records] == ["normal", "normal"]
    assert records[0]["dark"]["env"] == {"PYTHONUNBUFFERED": "1"}
