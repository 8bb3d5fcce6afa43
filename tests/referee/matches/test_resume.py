"""Durability: a referee killed mid-match (SIGKILL or Ctrl-C) resumes exactly, with no game lost or doubled."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from referee.cli import main
from referee.results.store import Store, StoreError, read_records_file
from tests.support.fuzz_oracles import VALID_RECORD
from tests.support.paths import BAD_ENGINES, REPO
from tests.support.processes import processes_in, wait_until

pytestmark = pytest.mark.slow

GAMES = 12


@pytest.fixture
def env(tmp_path, monkeypatch):
    where = tmp_path / "engines"
    where.mkdir()
    path = str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")
    monkeypatch.setenv("PYTHONPATH", path)
    return where


def match_args(engine_dir: Path, out: Path, games: int = GAMES) -> list[str]:
    engine = f"cmd={sys.executable} -m engine"
    return ["match", "--game", "isaac",
            "-engine", "name=r1", engine, f"dir={engine_dir}", "option.Strategy=random", "option.Seed=1",
            "-engine", "name=r2", engine, f"dir={engine_dir}", "option.Strategy=random", "option.Seed=2",
            "-each", "tc=10+0.1", "--games", str(games), "--openings", "random:2", "--seed", "3",
            "--concurrency", "1", "--out", str(out)]


def start_referee(args: list[str]) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "referee", *args], cwd=REPO, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)


def record_lines(out: Path) -> list[str]:
    path = out / "records.jsonl"
    return path.read_text().splitlines() if path.exists() else []


def game_ids(out: Path) -> list[int]:
    return [json.loads(line)["game_id"] for line in record_lines(out)]


def interrupt_mid_match(env: Path, out: Path, sig: int) -> tuple[subprocess.Popen, list[str]]:
    """Start a match, wait for two finished games, send `sig`; returns the process and the records so far."""
    proc = start_referee(match_args(env, out))
    try:
        assert wait_until(lambda: len(record_lines(out)) >= 2, 60), proc.communicate(timeout=5)[0]
        assert proc.poll() is None, "the match ended before it could be interrupted"
        proc.send_signal(sig)
        proc.wait(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return proc, record_lines(out)


def resume_and_check(env: Path, out: Path, before: list[str], capsys) -> None:
    code = main(match_args(env, out) + ["--resume", "--json"])
    summary = json.loads(capsys.readouterr().out)
    assert code == 0
    ids = game_ids(out)
    assert sorted(ids) == list(range(GAMES)), ids            # every game once: none lost, none doubled
    assert record_lines(out)[:len(before)] == before          # finished games untouched
    assert summary["games_recorded"] == GAMES and summary["games_played_now"] == GAMES - len(before)
    assert wait_until(lambda: processes_in(env) == [], 3)


def test_resume_after_sigkill(env, tmp_path, capsys):
    out = tmp_path / "out"
    proc, before = interrupt_mid_match(env, out, signal.SIGKILL)
    assert proc.returncode == -signal.SIGKILL
    assert 2 <= len(before) < GAMES
    # the engines lose their referee's pipes (EOF) and quit by themselves
    assert wait_until(lambda: processes_in(env) == [], 5), processes_in(env)
    resume_and_check(env, out, before, capsys)


def test_resume_after_ctrl_c(env, tmp_path, capsys):
    out = tmp_path / "out"
    proc, before = interrupt_mid_match(env, out, signal.SIGINT)
    output = proc.stdout.read()
    assert proc.returncode == 130, output
    assert "--resume" in output
    assert processes_in(env) == []       # the referee shut its engines down before exiting
    assert 2 <= len(before) < GAMES
    summary = json.loads((out / "summary.json").read_text())
    assert summary["stopped"] == "interrupted" and summary["games_recorded"] == len(before)
    resume_and_check(env, out, before, capsys)


def test_ctrl_c_during_a_hung_search_kills_stubborn_engines(env, tmp_path):
    """One engine hangs in `go`; the other ignores quit and SIGTERM and has a child that ignores SIGTERM."""
    out, log = tmp_path / "out", tmp_path / "io.log"
    bad = BAD_ENGINES
    args = ["match", "-engine", "name=stubborn", f"cmd={sys.executable} {bad / 'spawn_child.py'}", f"dir={env}",
            "-engine", "name=hang", f"cmd={sys.executable} {bad / 'hang_on_go.py'}", f"dir={env}",
            "-each", "tc=600+0", "--games", "2", "--out", str(out), "--io-log", str(log)]
    proc = start_referee(args)
    try:
        assert wait_until(lambda: log.exists() and ">hang: go" in log.read_text(), 30)
        assert len(processes_in(env)) >= 3          # both engines and the stubborn one's child
        t0 = time.monotonic()
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=15)
        took = time.monotonic() - t0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130
    assert took < 6, f"shutting down took {took:.1f} s"
    assert processes_in(env) == []
    assert record_lines(out) == []                  # the unfinished game is not recorded


def test_torn_last_record_is_replayed(env, tmp_path, capsys):
    out = tmp_path / "out"
    assert main(match_args(env, out, games=4)) == 0
    capsys.readouterr()
    lines = record_lines(out)
    torn = "\n".join(lines[:3]) + "\n" + lines[3][: len(lines[3]) // 2]   # a write cut off mid-line
    (out / "records.jsonl").write_text(torn)
    assert main(match_args(env, out, games=4) + ["--resume"]) == 0
    assert sorted(game_ids(out)) == [0, 1, 2, 3]
    assert record_lines(out)[:3] == lines[:3]
    assert "cut a torn last record" in (out / "events.log").read_text()


def test_resume_refuses_another_configuration(env, tmp_path, capsys):
    out = tmp_path / "out"
    assert main(match_args(env, out, games=2)) == 0
    capsys.readouterr()
    with pytest.raises(SystemExit) as exc:
        main(match_args(env, out, games=4) + ["--resume"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "different configuration" in err and "games: stored 2, now 4" in err
    changed = [a.replace("option.Seed=2", "option.Seed=9") for a in match_args(env, out, games=2)]
    with pytest.raises(SystemExit):
        main(changed + ["--resume"])
    assert "engine #2 (r2) options" in capsys.readouterr().err
    # without --resume an existing run is never overwritten
    with pytest.raises(SystemExit) as exc:
        main(match_args(env, out, games=2))
    assert exc.value.code == 2 and "add --resume" in capsys.readouterr().err
    assert sorted(game_ids(out)) == [0, 1]


def test_resume_from_the_directory_refuses_changed_options(env, tmp_path, capsys):
    out = tmp_path / "out"
    assert main(match_args(env, out, games=2)) == 0
    capsys.readouterr()
    for extra, expected in ((["--games", "4"], "--games: stored 2, now 4"),
                            (["--seed", "5"], "--seed: stored 3, now 5"),
                            (["--openings", "random:6"], "--openings"),
                            (["--tc", "1+0"], "--tc without engines")):
        with pytest.raises(SystemExit) as exc:
            main(["match", "--out", str(out), "--resume", *extra])
        assert exc.value.code == 2
        assert expected in capsys.readouterr().err
    # the same values as stored are fine: nothing left to play
    assert main(["match", "--out", str(out), "--resume", "--games", "2", "--seed", "3"]) == 0
    assert sorted(game_ids(out)) == [0, 1]


def test_resume_of_nothing_says_so(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["match", "--out", str(tmp_path / "none"), "--resume"])
    assert exc.value.code == 2
    assert "holds no run to resume" in capsys.readouterr().err


def test_resume_with_only_the_directory(env, tmp_path, capsys):
    out = tmp_path / "out"
    proc, before = interrupt_mid_match(env, out, signal.SIGKILL)
    assert wait_until(lambda: processes_in(env) == [], 5)
    assert main(["match", "--out", str(out), "--resume"]) == 0
    assert sorted(game_ids(out)) == list(range(GAMES))
    assert wait_until(lambda: processes_in(env) == [], 3)


# -- the store on its own ----------------------------------------------------------

def rec(game_id: int, **extra: object) -> dict:
    """A complete, valid record (the store validates every record it reads)."""
    return {**VALID_RECORD, "game_id": game_id, **extra}


def line(game_id: int, **extra: object) -> str:
    return json.dumps(rec(game_id, **extra))


def test_store_appends_whole_lines_and_reads_back(tmp_path):
    store = Store(tmp_path)
    store.open_for_append()
    for i in range(3):
        store.append(rec(i, x="é"))
    store.close()
    records, end = read_records_file(tmp_path / "records.jsonl")
    assert [r["game_id"] for r in records] == [0, 1, 2]
    assert end == (tmp_path / "records.jsonl").stat().st_size


def test_store_cuts_a_torn_tail_and_restores_a_lost_newline(tmp_path):
    path = tmp_path / "records.jsonl"
    torn = line(2)[:40]
    path.write_text(f"{line(0)}\n{line(1)}\n{torn}")
    store = Store(tmp_path)
    assert [r["game_id"] for r in store.read_records()] == [0, 1]
    assert store.open_for_append() == len(torn)
    store.append(rec(2))
    store.close()
    assert [r["game_id"] for r in Store(tmp_path).read_records()] == [0, 1, 2]
    path.write_text(f"{line(0)}\n{line(1)}")          # complete, newline lost
    store = Store(tmp_path)
    assert store.open_for_append() == 0
    store.append(rec(2))
    store.close()
    assert [json.loads(x)["game_id"] for x in path.read_text().splitlines()] == [0, 1, 2]


def test_store_rejects_corruption_in_the_middle_and_a_repeated_game(tmp_path):
    path = tmp_path / "records.jsonl"
    path.write_text(f"{line(0)}\nnot json\n{line(1)}\n")
    with pytest.raises(StoreError, match="line 2"):
        Store(tmp_path).read_records()
    # the runner appends each game once, so two records of one game are corruption, not a retry:
    # picking one of them would be changing the results silently
    path.write_text(f"{line(0, n=1)}\n{line(1)}\n{line(0, n=2)}\n")
    with pytest.raises(StoreError, match="line 3: game_id 0 already recorded at line 1"):
        Store(tmp_path).read_records()
