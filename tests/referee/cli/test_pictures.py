"""isaac-svg (referee/pictures.py): positions and recorded games from the command line, records read
by the referee's strict reader, --help and --version."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from protocol import game_from_position, new_game
from protocol.board import LIGHT
from protocol.svg import board_svg
from referee.formats.record import GameRecord, MoveRecord
from referee.formats.terminations import Termination
from referee.pictures import main as svg_main
from tests.support.paths import REPO

HARI_SLIDES = "hari c0c2,b3h3,g6g8/e0i0,i1i6,a8c8,d9f9 333444455566/33344445567 l d"


def _record(game_id: int, moves: list[str]) -> dict:
    """A valid record of a HARI game that plays `moves` from the start (what the runner writes)."""
    game = new_game("hari")
    start = game.position()
    for move in moves:
        game.play(move)
    return GameRecord(game_id=game_id, game_type="hari", rules_version="1", start_position=start,
                      opening=moves[:1], dark={"name": "a", "cmd": ["a"]}, light={"name": "b", "cmd": ["b"]},
                      time_control={"dark": "nodes=10", "light": "nodes=10"},
                      moves=[MoveRecord(move, 3) for move in moves[1:]], result="1-0",
                      termination=Termination.ADJUDICATION, reason="a test", final_scores=[],
                      final_position=game.position()).to_json()


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    lines = [json.dumps(_record(1, ["c3c7", "d2d6"])), json.dumps(_record(2, ["a0a2", "j7j9", "b0b2"]))]
    (tmp_path / "records.jsonl").write_text("\n".join(lines) + "\n")
    return tmp_path


def test_cli_position_to_file(tmp_path: Path) -> None:
    out = tmp_path / "b.svg"
    assert svg_main([HARI_SLIDES, "--orientation", "light", "--last-move", "d8f8>a8c8,g9i9>d9f9,i1i6",
                     "-o", str(out)]) == 0
    assert out.read_text() == board_svg(HARI_SLIDES, orientation=LIGHT,
                                        last_move="d8f8>a8c8,g9i9>d9f9,i1i6") + "\n"


def test_cli_game_name_and_moves(capsys: pytest.CaptureFixture[str]) -> None:
    assert svg_main(["hari", "--moves", "c3c7", "d2d6", "--highlight", "a0"]) == 0
    game = new_game("hari")
    game.play("c3c7")
    last = game.play("d2d6")
    assert capsys.readouterr().out == board_svg(game, last_move=last, highlights=["a0"]) + "\n"


def test_a_ply_of_a_recorded_game_counts_the_opening(run_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert svg_main(["--records", str(run_dir), "--game-id", "2", "--ply", "2"]) == 0
    game = game_from_position(_record(2, [])["start_position"])
    game.play("a0a2")
    last = game.play("j7j9")
    assert capsys.readouterr().out == board_svg(game, last_move=last, players=("a", "b")) + "\n"


def test_a_recorded_game_as_a_page(run_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "game.html"
    assert svg_main(["--records", str(run_dir / "records.jsonl"), "--game-id", "1", "-o", str(out)]) == 0
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>") and "Game 1: a (Dark) vs b (Light)" in page


def test_a_damaged_records_file_is_refused_naming_the_line(run_dir: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = run_dir / "records.jsonl"
    good = path.read_text().splitlines()
    path.write_text(good[0] + "\n{not json\n" + good[1] + "\n")
    assert svg_main(["--records", str(run_dir), "--game-id", "2"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("isaac-svg: error: ") and "records.jsonl, line 2" in err[0]
    path.write_text(good[0] + "\n" + good[1] + "\n" + good[0] + "\n")   # game 1 recorded twice
    assert svg_main(["--records", str(run_dir), "--game-id", "2"]) == 2
    assert "game_id 1 already recorded at line 1" in capsys.readouterr().err


def test_a_torn_last_line_is_left_out_as_the_referee_does(run_dir: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = run_dir / "records.jsonl"
    path.write_text(path.read_text() + '{"game_id": 3, "gam')
    assert svg_main(["--records", str(run_dir), "--game-id", "2", "--ply", "0"]) == 0
    assert svg_main(["--records", str(run_dir), "--game-id", "3"]) == 2
    assert "no game 3 in" in capsys.readouterr().err


@pytest.mark.parametrize("argv, message", [
    (["hari x"], "bad position 'hari x' at column 6"),
    ([], "give a position string"),
    (["hari", "--moves", "zz"], "bad move 'zz'"),
    (["hari", "--highlight", "z9"], "bad cell 'z9'"),
    (["hari", "--size", "-3"], "--size must be a positive"),
    (["--records", "/nonexistent/records.jsonl", "--game-id", "1"], "no records file"),
    (["--game-id", "1", "hari"], "--game-id and --ply need --records"),
    (["--frobnicate"], "unrecognized arguments"),
])
def test_cli_errors_are_one_line_exit_2(argv: list[str], message: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert svg_main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("isaac-svg: error: ") and message in lines[0]


def test_help_says_what_it_is_and_how_to_use_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert svg_main(["--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: isaac-svg")
    assert "draws an ISAAC, FOUNDATIONS or HARI position as SVG" in out
    assert "isaac-svg --records referee-runs/match-1 --game-id 3 -o game3.html" in out


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert svg_main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("isaac-svg (isaac-arena) ")


def test_the_module_runs_as_a_command() -> None:
    done = subprocess.run([sys.executable, "-m", "referee.pictures", "--help"], capture_output=True, text=True,
                          cwd=REPO, env={"PYTHONPATH": str(REPO), "PATH": ""})
    assert done.returncode == 0 and "usage: isaac-svg" in done.stdout and done.stderr == ""
