"""benchmarks/ab_inprocess.py's `--pairs-out`: each pair written as a line, the same games the summary counts."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from referee.matches.openings import read_opening_file, shipped_book
from tests.support.paths import BENCHMARKS


def test_each_pair_is_written_with_its_opening_and_both_colours_points(tmp_path: Path) -> None:
    out = tmp_path / "pairs.jsonl"
    run = subprocess.run([sys.executable, str(BENCHMARKS / "ab_inprocess.py"), "--game", "foundations", "--a",
                          "heuristic", "--b", "random", "--pairs", "3", "--ms", "5", "--jobs", "1", "--offset", "36",
                          "--pairs-out", str(out)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    pairs = [json.loads(line) for line in out.read_text().splitlines()]
    book = len(read_opening_file("foundations", str(shipped_book("foundations"))))
    assert [(p["opening"], p["seed"]) for p in pairs] == [(seed % book, seed) for seed in (36, 37, 38)]
    assert all(p["a_dark"] in (0.0, 0.5, 1.0) and p["a_light"] in (0.0, 0.5, 1.0) for p in pairs)
    total = sum(p["a_dark"] + p["a_light"] for p in pairs)
    assert f": {total:g}/6 = " in run.stdout


def test_a_pairs_file_that_cannot_be_written_is_refused_before_any_game(tmp_path: Path) -> None:
    missing = tmp_path / "no such directory" / "pairs.jsonl"
    run = subprocess.run([sys.executable, str(BENCHMARKS / "ab_inprocess.py"), "--game", "foundations", "--a",
                          "heuristic", "--b", "random", "--pairs", "1", "--pairs-out", str(missing)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode != 0
    assert f"--pairs-out {missing}: No such file or directory" in run.stderr
    assert "Traceback" not in run.stderr
