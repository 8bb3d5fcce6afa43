"""Issue 12, referee side: one schema per file, records never changed silently, bounds on every
number, one error line and exit 2 for bad input, `repair`, no traceback without --debug."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from referee.cli import dispatch
from referee.cli.command import Command
from referee.formats.timecontrol import TimeControl
from referee.results.repair import REJECTED
from referee.results.store import RECORDS, Store, StoreError, read_records_file
from tests.support.paths import REPO

ENGINE = f"{sys.executable} -m engine"


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real run directory: two games of random play, fixed seed."""
    out = tmp_path_factory.mktemp("played") / "run"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    subprocess.run([sys.executable, "-m", "referee", "match", "-engine", "name=a", f"cmd={ENGINE}",
                    "option.Strategy=random", "-engine", "name=b", f"cmd={ENGINE}", "option.Strategy=random",
                    "--games", "2", "--tc", "st=0.02", "--seed", "7", "--out", str(out)],
                   env=env, check=True, capture_output=True, timeout=120)
    return out


@pytest.fixture
def run_dir(played: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "run"
    shutil.copytree(played, copy)
    return copy


def cli(*argv: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = dispatch.main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def edit_first_record(run: Path, change) -> bytes:
    path = run / RECORDS
    lines = path.read_bytes().split(b"\n")
    record = json.loads(lines[0])
    lines[0] = json.dumps(change(record)).encode()
    path.write_bytes(b"\n".join(lines))
    return path.read_bytes()


BAD_RECORDS = {
    "game_id true": (lambda r: {**r, "game_id": True}, "field game_id: found true"),
    "bogus result": (lambda r: {**r, "result": "bogus"}, "field result: found \"bogus\""),
    "result number": (lambda r: {**r, "result": 5}, "field result: found 5"),
    "moves string": (lambda r: {**r, "moves": "c3c7"}, "field moves"),
    "game_id list": (lambda r: {**r, "game_id": [1]}, "field game_id"),
    "only game_id": (lambda r: {"game_id": 1}, "missing"),
    "unknown termination": (lambda r: {**r, "termination": "nap"}, "field termination"),
    "forfeited_move in a normal game": (lambda r: {**r, "termination": "normal", "forfeited_move": {"ms": 5}},
                                        "expected it only when a forfeit ended the game"),
    "forfeited_move ms text": (lambda r: {**r, "termination": "stall", "forfeited_move": {"ms": "5"}},
                               "field forfeited_move.ms: found \"5\""),
}


@pytest.mark.parametrize("case", BAD_RECORDS)
def test_an_invalid_record_stops_export_and_resume_and_changes_nothing(run_dir, capsys, case):
    change, fragment = BAD_RECORDS[case]
    before = edit_first_record(run_dir, change)
    for argv in (["export-pgn", str(run_dir)], ["match", "--out", str(run_dir), "--resume"]):
        code, _, err = cli(*argv, capsys=capsys)
        assert code == 2, err
        assert err.count("\n") == 1 and "Traceback" not in err
        assert f"{run_dir / RECORDS}, line 1: " in err and fragment in err, err
    assert (run_dir / RECORDS).read_bytes() == before


def test_a_bad_byte_in_a_complete_last_record_is_not_cut(run_dir, capsys):
    path = run_dir / RECORDS
    data = bytearray(path.read_bytes())
    data[-20] = 0x01
    path.write_bytes(bytes(data))
    with pytest.raises(StoreError, match="line 2: not valid JSON"):
        read_records_file(path)
    code, _, err = cli("match", "--out", str(run_dir), "--resume", capsys=capsys)
    assert code == 2 and path.read_bytes() == bytes(data)


def test_only_a_torn_last_line_is_cut(run_dir):
    path = run_dir / RECORDS
    whole = path.read_bytes()
    path.write_bytes(whole + b'{"game_id": 2, "game_ty')
    records, keep = read_records_file(path)
    assert len(records) == 2 and keep == len(whole)
    store = Store(run_dir)
    assert store.open_for_append() == len(b'{"game_id": 2, "game_ty')
    store.close()
    assert path.read_bytes() == whole
    path.write_bytes(whole[:-1])   # a whole record that lost only its newline is kept
    records, keep = read_records_file(path)
    assert len(records) == 2 and keep == len(whole) - 1


def test_repair_moves_bad_lines_aside_byte_for_byte(run_dir, capsys):
    path = run_dir / RECORDS
    lines = path.read_bytes().split(b"\n")
    bad = [b'{"game_id": true}', b"\xff not json"]
    path.write_bytes(lines[0] + b"\n" + bad[0] + b"\n" + lines[1] + b"\n" + bad[1])
    code, out, _ = cli("repair", str(run_dir), capsys=capsys)
    assert code == 0 and out.startswith("moved 2 bad lines") and "2 valid records kept" in out
    assert (run_dir / REJECTED).read_bytes() == bad[0] + b"\n" + bad[1] + b"\n"
    assert path.read_bytes() == lines[0] + b"\n" + lines[1] + b"\n"
    code, out, _ = cli("export-pgn", str(run_dir), capsys=capsys)
    assert code == 0 and out.count("[Result ") == 2
    code, out, _ = cli("repair", str(run_dir), capsys=capsys)
    assert "nothing to repair; 2 valid records" in out


def duplicate_first_game(run: Path, *, torn: bool = False) -> bytes:
    """records.jsonl with game 0's line written again at the end (line 3): corruption, since the
    runner appends each finished game once. `torn`: without its final newline."""
    path = run / RECORDS
    data = path.read_bytes()
    path.write_bytes(data + data.split(b"\n")[0] + (b"" if torn else b"\n"))
    return path.read_bytes()


def test_a_repeated_game_id_stops_export_report_and_resume_and_changes_nothing(run_dir, capsys):
    before = duplicate_first_game(run_dir)
    for argv in (["export-pgn", str(run_dir)], ["report", str(run_dir)],
                 ["match", "--out", str(run_dir), "--resume"]):
        code, _, err = cli(*argv, capsys=capsys)
        assert code == 2, (argv, err)
        assert err.count("\n") == 1 and "Traceback" not in err
        assert f"{run_dir / RECORDS}, line 3: game_id 0 already recorded at line 1" in err, err
        assert "isaac-referee repair" in err
    assert (run_dir / RECORDS).read_bytes() == before
    assert not (run_dir / REJECTED).exists()


def test_a_whole_repeated_record_is_not_cut_as_a_torn_line(run_dir):
    path = run_dir / RECORDS
    before = duplicate_first_game(run_dir, torn=True)
    with pytest.raises(StoreError, match="line 3: game_id 0 already recorded at line 1"):
        read_records_file(path)
    with pytest.raises(StoreError, match="line 3: game_id 0"):
        Store(run_dir).open_for_append()
    assert path.read_bytes() == before


def test_repair_moves_later_records_of_a_repeated_game_id_aside(run_dir, capsys):
    path = run_dir / RECORDS
    lines = path.read_bytes().split(b"\n")[:2]
    changed = json.dumps({**json.loads(lines[1]), "result": "1/2-1/2"}).encode()   # same game, other result
    path.write_bytes(b"\n".join([lines[0], lines[1], changed, lines[0]]) + b"\n")
    code, out, _ = cli("repair", str(run_dir), capsys=capsys)
    assert code == 0 and out.startswith("moved 2 bad lines") and "2 valid records kept" in out, out
    assert "line 3: game_id 1 already recorded at line 2" in out
    assert "line 4: game_id 0 already recorded at line 1" in out
    assert (run_dir / REJECTED).read_bytes() == changed + b"\n" + lines[0] + b"\n"
    assert path.read_bytes() == lines[0] + b"\n" + lines[1] + b"\n"   # the first of each game stays
    code, out, _ = cli("export-pgn", str(run_dir), capsys=capsys)
    assert code == 0 and out.count("[Result ") == 2


CONFIGS = {
    "a list": (lambda c: [], "expected a JSON object"),
    "no cmd": (lambda c: _engine0(c, lambda e: {k: v for k, v in e.items() if k != "cmd"}),
               "field identity.engines.0.cmd: missing"),
    "games as text": (lambda c: {**c, "identity": {**c["identity"], "games": "4"}}, "identity.games"),
    "unknown game": (lambda c: {**c, "identity": {**c["identity"], "game": "chess"}}, "identity.game"),
    "illegal opening": (lambda c: {**c, "openings": [{"start_position": None, "moves": ["c3c7", "c3c7"]}]},
                        "openings.0: move 2 'c3c7'"),
    "memory overflow": (lambda c: _engine0(c, lambda e: {**e, "memory_mb": 10**20}), "memory_mb"),
}


def _engine0(config, change):
    engines = list(config["identity"]["engines"])
    engines[0] = change(engines[0])
    return {**config, "identity": {**config["identity"], "engines": engines}}


@pytest.mark.parametrize("case", CONFIGS)
def test_a_bad_config_json_stops_resume_with_one_line(run_dir, capsys, case):
    change, fragment = CONFIGS[case]
    path = run_dir / "config.json"
    path.write_text(json.dumps(change(json.loads(path.read_text()))))
    code, _, err = cli("match", "--out", str(run_dir), "--resume", capsys=capsys)
    assert code == 2 and err.count("\n") == 1 and fragment in err, err


@pytest.mark.parametrize("name", ["config.json", RECORDS])
def test_a_directory_where_a_file_belongs(run_dir, capsys, name):
    (run_dir / name).unlink()
    (run_dir / name).mkdir()
    code, _, err = cli("match", "--out", str(run_dir), "--resume", capsys=capsys)
    assert code == 2 and "is a directory, expected a file" in err


def test_out_being_a_file(tmp_path, capsys):
    (tmp_path / "f").write_text("x")
    code, _, err = cli("match", "-engine", f"cmd={ENGINE}", "-engine", f"cmd={ENGINE}", "--out",
                       str(tmp_path / "f"), capsys=capsys)
    assert code == 2 and "is a file, expected a directory" in err


ENGINE_FILES = {
    "cmd = 5": ("cmd = 5", "engines.a.cmd: found 5"),
    "cmd = [1, 2]": ("cmd = [1, 2]", "engines.a.cmd"),
    "args = abc": ('cmd = "x"\nargs = "abc"', "engines.a.args: found \"abc\""),
    "memory_mb = 1.5": ('cmd = "x"\nmemory_mb = 1.5', "engines.a.memory_mb: found 1.5"),
    "dir = 5": ('cmd = "x"\ndir = 5', "engines.a.dir: found 5"),
    "huge memory": ('cmd = "x"\nmemory_mb = 99999999999999999999', "engines.a.memory_mb"),
    "nested tc": ('cmd = "x"\ntc = "tc=tc=1"', "engines.a.tc"),
    "typo": ('cmd = "x"\nmemroy_mb = 5', "engines.a.memroy_mb"),
}


@pytest.mark.parametrize("case", ENGINE_FILES)
def test_engines_file_type_errors(tmp_path, capsys, case):
    body, fragment = ENGINE_FILES[case]
    path = tmp_path / "e.toml"
    path.write_text(f"[engines.a]\n{body}\n[engines.b]\ncmd = \"y\"\n")
    code, _, err = cli("match", "--engines-file", str(path), "--out", str(tmp_path / "o"), capsys=capsys)
    assert code == 2 and err.count("\n") == 1 and fragment in err and str(path) in err, err


def test_engines_file_directory_and_bytes(tmp_path, capsys):
    (tmp_path / "bin.toml").write_bytes(b"\xff\xfe[engines]")
    for name, fragment in (("bin.toml", "not UTF-8"), (".", "is a directory")):
        code, _, err = cli("match", "--engines-file", str(tmp_path / name), "--out", str(tmp_path / "o"),
                           capsys=capsys)
        assert code == 2 and fragment in err, err


@pytest.mark.parametrize("argv, fragment", [
    (["--memory-mb", "99999999999999999999"], "--memory-mb"),
    (["--cpu-seconds", "1" + "0" * 30], "--cpu-seconds"),
    (["--games", "99999999999"], "--games"),
    (["-each", "tc="], "tc= needs a value"),
    (["-each", "memory_mb="], "memory_mb= needs a value"),
    (["--tc", "tc=tc=tc=10"], "cannot be nested"),
    (["--tc", "st=1e306"], "ASCII digits"),
    (["--tc", "1" + "0" * 306], "at most 2147483647 ms"),
    (["--tc", "movetime=" + "9" * 309], "at most 2147483647 ms"),
    (["--tc", "１０+０.１"], "not understood"),
])
def test_numbers_are_bounded(tmp_path, capsys, argv, fragment):
    code, _, err = cli("match", "-engine", f"cmd={ENGINE}", "-engine", f"cmd={ENGINE}", *argv,
                       "--out", str(tmp_path / "o"), capsys=capsys)
    assert code == 2 and fragment in err and "Traceback" not in err, err
    assert not (tmp_path / "o").exists()


def test_time_controls_keep_their_canonical_form():
    for text in ("10+0.1", "40/60+0.5", "movetime=100", "depth=4 nodes=5000", "inf", "5+0.05 margin=100"):
        assert str(TimeControl.parse(str(TimeControl.parse(text)))) == str(TimeControl.parse(text))
    assert TimeControl.parse("tc=10+1").inc_ms == 1000


def test_an_internal_error_is_one_line_unless_debug(monkeypatch, capsys):
    def broken(args):
        raise RuntimeError("boom")
    command = Command("broken", "h", "d", lambda p: None, broken)
    monkeypatch.setattr(dispatch, "COMMANDS", (command,))
    code, _, err = cli("broken", capsys=capsys)
    assert code == 1 and err.count("\n") == 1 and "RuntimeError: boom" in err and "Traceback" not in err
    code, _, err = cli("broken", "--debug", capsys=capsys)
    assert code == 1 and "Traceback" in err


def test_the_engine_never_imports_pydantic():
    code = ("import sys, engine.uci, engine.__main__; e = engine.uci.Engine(); "
            "e.handle('go perft 1'); e.job.wait(10); print('pydantic' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(REPO)}, cwd=REPO)
    assert done.stdout.strip().splitlines()[-1] == "False", done.stdout + done.stderr


def test_a_real_run_matches_every_schema(played):
    from referee.formats.schema import RecordModel, RunConfigModel, SummaryModel, load_json
    load_json(RunConfigModel, played / "config.json")
    load_json(SummaryModel, played / "summary.json")
    for line in (played / RECORDS).read_text().splitlines():
        RecordModel.model_validate(json.loads(line))
