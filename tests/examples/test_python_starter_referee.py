"""The Python starter through the referee: `isaac-referee check` passes both tiers in all three
games, and it plays on a real clock against the built-in engine without losing on time."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import protocol
from referee.check import Status, Tier, run_check
from referee.cli import main
from tests.examples.starters import PYTHON_STARTER

pytestmark = pytest.mark.slow


def test_conformance_check_passes_both_tiers():
    report = run_check([sys.executable, str(PYTHON_STARTER)], options={"Seed": "3"}, timeout=2.0, start_timeout=10.0)
    assert report.ok and report.conforms, report.render()
    required = report.tier_results(Tier.REQUIRED)
    assert all(r.status == Status.PASS for r in required), report.render()
    assert {r.name for r in required} >= {f"{g}: go after moves" for g in protocol.GAME_NAMES}
    skipped = {r.name for r in report.results if r.status == Status.SKIP}
    assert skipped == {f"{g}: {c}" for g in protocol.GAME_NAMES for c in ("state", "steps")}, report.render()


def test_plays_on_a_clock_against_the_builtin_engine(tmp_path: Path):
    for game in protocol.GAME_NAMES:
        out = tmp_path / game
        argv = ["match", "--game", game, "--games", "2", "--openings", "random:2", "--seed", "5",
                "-engine", "name=starter", f"cmd={sys.executable} {PYTHON_STARTER}", "option.Seed=9",
                "-engine", "name=greedy", "cmd=python -m engine", "option.Strategy=greedy",
                "-each", "tc=3+0.05", "--concurrency", "1", "--out", str(out)]
        assert main(argv) == 0
        records = [json.loads(line) for line in (out / "records.jsonl").read_text().splitlines()]
        assert [r["termination"] for r in records] == ["normal", "normal"], [r["reason"] for r in records]
