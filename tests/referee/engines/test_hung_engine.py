"""A hung engine loses as soon as its time plus margin is over, plus one short window to classify it."""

from __future__ import annotations

import json
import os
import sys

import pytest

from referee.cli import main
from tests.support.paths import BAD_ENGINES, REPO

pytestmark = pytest.mark.slow

BAD = BAD_ENGINES


def test_a_hung_engine_does_not_hold_up_the_tournament(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PYTHONPATH", str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = tmp_path / "out"
    argv = ["match", "-engine", "name=hung", f"cmd={sys.executable} {BAD / 'hang_on_go.py'}",
            "-engine", "name=good", f"cmd={sys.executable} {BAD / 'good_random.py'}",
            "-each", "tc=st=0.2", "--games", "2", "--concurrency", "1", "--out", str(out), "--json"]
    assert main(argv) == 0
    capsys.readouterr()
    records = [json.loads(line) for line in (out / "records.jsonl").read_text().splitlines()]
    assert [r["termination"] for r in records] == ["stall", "stall"]
    for record in records:
        assert "did not answer 'stop' or 'isready' within 1 s" in record["reason"]
        # deadline 0.25 s + 1 s classification window + a short kill; it was 1 + 5 s + 2 s of shutdown
        assert record["duration_s"] < 3.0, record["duration_s"]
