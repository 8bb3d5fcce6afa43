"""Both starters under sandbox=bwrap, as docs/bots.md tells a participant to run them: the Python one
sees the project's protocol/ only through `readable=`, the C one only its own directory."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import protocol
from referee.cli import main
from tests.examples.starters import PYTHON_STARTER
from tests.support.sandbox import needs_bwrap

pytestmark = pytest.mark.sandbox



def python_engine(readable: bool) -> list[str]:
    words = ["-engine", "name=python", f"cmd={sys.executable} starter.py", f"dir={PYTHON_STARTER.parent}",
             "sandbox=bwrap"]
    return words + ["readable=../../protocol"] * readable


@needs_bwrap
def test_both_starters_play_each_other_sandboxed(tmp_path: Path, c_starter: Path):
    for game in protocol.GAME_NAMES:
        out = tmp_path / game
        argv = ["match", "--game", game, "--games", "2", "--openings", "random:2", "--seed", "2",
                *python_engine(readable=True),
                "-engine", "name=c", "cmd=./starter", f"dir={c_starter.parent}", "sandbox=bwrap",
                "-each", "tc=st=0.1", "memory_mb=600", "--concurrency", "1", "--out", str(out)]
        assert main(argv) == 0
        records = [json.loads(line) for line in (out / "records.jsonl").read_text().splitlines()]
        assert [r["termination"] for r in records] == ["normal", "normal"], [r["reason"] for r in records]
        assert records[0]["dark"]["sandbox"] == "bwrap"
        assert records[0]["dark"]["readable"] == [str(PYTHON_STARTER.parents[2] / "protocol")]


@needs_bwrap
def test_without_readable_the_python_starter_says_what_it_needs(tmp_path: Path, c_starter: Path,
                                                                 capsys: pytest.CaptureFixture[str]):
    argv = ["match", "--game", "hari", "--games", "2", *python_engine(readable=False),
            "-engine", "name=c", f"cmd={c_starter}", "--out", str(tmp_path / "run")]
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    assert "under sandbox=bwrap add readable=<path of protocol/>" in capsys.readouterr().err
