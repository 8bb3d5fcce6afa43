"""The command line: clear argument errors, engines files, openings files, check, export-pgn, progress."""

from __future__ import annotations

import io
import json
import os
import sys

import pytest

import protocol
from referee.cli import default_concurrency, main
from referee.engines import config as cfg
from referee.matches.openings import OpeningError, parse_opening_line, random_opening, read_opening_file
from referee.matches.progress import Progress
from tests.support.paths import BAD_ENGINES

BAD = BAD_ENGINES
ENGINE = f"cmd={sys.executable} -m engine"


def usage_error(argv, capsys, code=2) -> str:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == code
    return capsys.readouterr().err


def two_engines(where="."):
    return ["-engine", "name=a", ENGINE, f"dir={where}", "option.Strategy=random",
            "-engine", "name=b", ENGINE, f"dir={where}", "option.Strategy=greedy"]


# -- argument errors ------------------------------------------------------------

@pytest.mark.parametrize("argv, message", [
    (["match"], "no engines"),
    (["match", "-engine", "name=a", ENGINE], "exactly 2 engines"),
    (["match", "-engine", "name=a", "python"], "expected key=value, got 'python'"),
    (["match", "-engine", "name=a", ENGINE, "colour=red"], "unknown key 'colour'"),
    (["match", "-engine", "name=a", ENGINE, "tc=fast"], "part 'fast'"),
    (["match", "-engine", "name=a", ENGINE, "-engine", "name=a", ENGINE], "both called 'a'"),
    (["match", "-engine", "name=a", ENGINE, "option.UCI_Variant=hari"], "set by the referee from --game"),
    (["match", "-engine", "name=a", ENGINE, "dir=/no/such/dir"], "is not a directory"),
    (["match", "-engine", "name=a", ENGINE, "-engine", "name=b", ENGINE, "--openings", "random:x"],
     "whole number of plies"),
    (["match", "-engine", "name=a", ENGINE, "-engine", "name=b", ENGINE, "--openings", "/no/such/file"],
     "no such file"),
    (["match", "-engine", "name=a", ENGINE, "-engine", "name=b", ENGINE, "--sprt", "5", "0", "0.05", "0.05"],
     "elo0 < elo1"),
    (["tournament", "-engine", "name=a", ENGINE, "-engine", "name=b", ENGINE, "--sprt", "0", "5", ".05", ".05"],
     "--sprt works in a match"),
    (["match", "-each", "name=x", "-engine", "name=a", ENGINE], "-each: name="),
    (["match", "--resume"], "--resume needs --out"),
    (["match", "--engines-file", "/no/such.toml"], "no such file"),
])
def test_argument_errors_are_clear(argv, message, capsys, tmp_path):
    err = usage_error(argv + ["--out", str(tmp_path / "o")] if "--resume" not in argv else argv, capsys)
    assert message in err
    assert err.startswith(f"isaac-referee {argv[0]}: error:")
    assert not (tmp_path / "o").exists()       # nothing written for a rejected command


def test_argparse_errors_name_the_flag(capsys):
    err = usage_error(["match", "--games", "zero"], capsys)
    assert "--games" in err and "whole number" in err
    err = usage_error(["tournament", "--format", "swiss"], capsys)
    assert "--format" in err and "round-robin" in err
    err = usage_error(["check"], capsys)
    assert "needs the engine's command" in err


def test_engine_settings_precedence():
    specs = cfg.build_engines(
        [["name=a", "cmd=prog --x 'two words'", "tc=5+0.1", "option.Seed=3"], ["name=b", "cmd=prog", "arg=-v"]],
        [["tc=st=0.2", "option.Seed=1", "option.MoveOverhead=20"]], None, tc="60", memory_mb=256, margin_ms=80)
    a, b = specs
    assert a.cmd == ["prog", "--x", "two words"] and b.cmd == ["prog", "-v"]
    assert str(a.tc) == "5+0.1 margin=80" and str(b.tc) == "movetime=200 margin=80"
    assert a.options == {"Seed": "3", "MoveOverhead": "20"} and b.options == {"Seed": "1", "MoveOverhead": "20"}
    assert a.memory_mb == b.memory_mb == 256
    assert str(cfg.build_engines([["name=c", "cmd=p"]], [], None)[0].tc) == cfg.DEFAULT_TC


def test_default_concurrency_leaves_a_core_for_the_referee():
    assert default_concurrency() == max(1, len(os.sched_getaffinity(0)) - 1)


# -- engines file ------------------------------------------------------------------

ENGINES_TOML = """
[engines.greedy]
cmd = "{python} -m engine"
dir = "{dir}"
options = {{ Strategy = "greedy" }}

[engines.random]
cmd = ["{python}", "-m", "engine"]
dir = "{dir}"
options = {{ Strategy = "random", Seed = 4 }}
tc = "20+0.2"
"""


def test_engines_file_match_with_command_line_override(tmp_path, engine_dir, capsys):
    toml = tmp_path / "engines.toml"
    toml.write_text(ENGINES_TOML.format(python=sys.executable, dir=engine_dir))
    out = tmp_path / "out"
    code = main(["match", "--engines-file", str(toml), "-engine", "name=greedy",
                 "-engine", "name=random", "option.Seed=9", "--tc", "10+0.1", "--games", "2",
                 "--out", str(out), "--json"])
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games_recorded"] == 2
    records = [json.loads(x) for x in (out / "records.jsonl").read_text().splitlines()]
    sides = {r["dark"]["name"]: r["dark"] for r in records}
    assert sides["greedy"]["options"] == {"Strategy": "greedy"}
    assert sides["random"]["options"] == {"Strategy": "random", "Seed": "9"}
    assert sides["random"]["tc"] == "20+0.2" and sides["greedy"]["tc"] == "10+0.1"
    random_dark = next(r for r in records if r["dark"]["name"] == "random")
    assert random_dark["time_control"] == {"dark": "20+0.2", "light": "10+0.1"}


def test_engines_file_errors(tmp_path, capsys):
    toml = tmp_path / "engines.toml"
    toml.write_text('[engines.x]\ncmd = "p"\ncolour = "red"\n')
    assert "field engines.x.colour: unknown key" in usage_error(["match", "--engines-file", str(toml)], capsys)
    toml.write_text('[engines.x]\ndir = "."\n')
    assert "field engines.x.cmd: missing" in usage_error(["match", "--engines-file", str(toml)], capsys)
    toml.write_text('[engines.x]\ncmd = "p"\n[engines.y]\ncmd = "q"\n')
    err = usage_error(["match", "--engines-file", str(toml), "-engine", "name=z"], capsys)
    assert "no engine 'z' in the engines file (it has: x, y)" in err
    toml.write_text("[engines.x\n")
    assert "not valid TOML" in usage_error(["match", "--engines-file", str(toml)], capsys)


# -- openings -----------------------------------------------------------------------

def test_openings_file_lines_are_checked_and_used_in_order(tmp_path, engine_dir, capsys):
    game = protocol.new_game("isaac")
    first = [str(game.play(m)) for m in ("c3c7", "a0a2")]
    start = protocol.new_game("isaac")
    start.play("e0e6")
    position = start.position()
    book = tmp_path / "openings.txt"
    book.write_text(f"# two openings\n\n{' '.join(first)}\n{position} moves b1b3\n")
    out = tmp_path / "out"
    code = main(["match", *two_engines(engine_dir), "-each", "tc=10+0.1", "--games", "4",
                 "--openings", str(book), "--out", str(out), "--json"])
    assert code == 0
    capsys.readouterr()
    records = sorted((json.loads(x) for x in (out / "records.jsonl").read_text().splitlines()),
                     key=lambda r: r["game_id"])
    assert [r["opening"] for r in records] == [first, first, ["b1b3"], ["b1b3"]]
    assert records[2]["start_position"] == position == records[3]["start_position"]
    assert records[0]["start_position"] == protocol.new_game("isaac").position()


def test_openings_file_errors_name_the_line(tmp_path):
    book = tmp_path / "bad.txt"
    book.write_text("c3c7\nc3c7 c3c7\n")
    with pytest.raises(OpeningError, match=r"bad.txt, line 2: .*c3c7"):
        read_opening_file("isaac", str(book))
    book.write_text("hari -/- 333334444555667/333334444555667 d -\n")
    with pytest.raises(OpeningError, match="line 1: position is for hari"):
        read_opening_file("isaac", str(book))
    book.write_text("# nothing\n\n")
    with pytest.raises(OpeningError, match="no openings"):
        read_opening_file("isaac", str(book))
    with pytest.raises(Exception, match="column"):
        parse_opening_line("isaac", "isaac -/- 33/33 x - place 0/0")


def test_random_openings_are_reproducible_and_legal():
    for game_type in protocol.GAME_NAMES:
        a = random_opening(game_type, 4, seed=7, index=3)
        assert a == random_opening(game_type, 4, seed=7, index=3)
        assert len(a.moves) == 4 and a.start_position is None
        game = protocol.new_game(game_type)
        for move in a.moves:
            game.play(move)
        assert not game.is_over()
    assert random_opening("isaac", 4, 7, 3) != random_opening("isaac", 4, 8, 3)


# -- export-pgn and check ------------------------------------------------------------------

def test_export_pgn(tmp_path, engine_dir, capsys):
    out = tmp_path / "out"
    assert main(["match", *two_engines(engine_dir), "-each", "tc=10+0.1", "--games", "2",
                 "--openings", "random:2", "--out", str(out)]) == 0
    capsys.readouterr()
    (out / "records.jsonl").open("a").write('{"game_id": 9, "trunc')     # a torn tail is ignored
    assert main(["export-pgn", str(out)]) == 0
    text = capsys.readouterr().out
    assert text.count("[Event ") == 2
    assert '[Dark "a"]' in text and '[Light "a"]' in text and '[Game "isaac"]' in text
    assert "{book}" in text and text.rstrip().endswith(("1-0", "0-1", "1/2-1/2"))
    target = tmp_path / "games.pgn"
    assert main(["export-pgn", str(out / "records.jsonl"), "-o", str(target)]) == 0
    assert target.read_text() == text
    assert "no records file" in usage_error(["export-pgn", str(tmp_path / "nothing")], capsys)


def test_check_command_reports_and_sets_exit_code(capsys):
    code = main(["check", "--game", "foundations", "--json", sys.executable, str(BAD / "good_random.py")])
    report = json.loads(capsys.readouterr().out)
    assert code == (0 if report["ok"] else 1)
    assert report["results"][0]["name"] == "start-up" and report["results"][0]["status"] == "PASS"
    code = main(["check", "--game", "isaac", sys.executable, str(BAD / "exit_at_startup.py")])
    text = capsys.readouterr().out
    assert code == 1
    assert "FAIL  start-up" in text and "DOES NOT CONFORM" in text


# -- progress -----------------------------------------------------------------------------

def fake_record(i):
    return {"game_id": i, "pair": 0, "round": 1, "dark": {"name": "a"}, "light": {"name": "b"},
            "result": "1-0", "termination": "normal", "reason": "Dark has the higher score"}


def one_game_shown(live: bool) -> tuple[io.StringIO, Progress]:
    """A progress display of two games, after the first has started and finished."""
    stream = io.StringIO()
    progress = Progress(2, lambda: "a 1 - 0 b", stream=stream, live=live)
    progress.begin(0, "starting")
    progress.game_started()
    progress.game_finished(fake_record(0))
    return stream, progress


def test_progress_plain_prints_one_line_per_game():
    stream, _ = one_game_shown(live=False)
    lines = stream.getvalue().splitlines()
    assert lines == ["starting", "[1/2] game 1 (round 1, pair 1): a (Dark) vs b (Light): 1-0 normal -- "
                                 "Dark has the higher score | a 1 - 0 b"]
    assert "\r" not in stream.getvalue()


def test_progress_live_rewrites_one_status_line():
    stream, progress = one_game_shown(live=True)
    progress.finish("done")
    text = stream.getvalue()
    assert text.count("\r\x1b[K[") >= 2 and "[1/2 done, 0 running" in text
    assert text.endswith("\r\x1b[Kdone\n")


# -- the command table -------------------------------------------------------------

def test_a_subcommand_is_one_table_entry_and_explicit_options_are_known():
    from referee.cli.arguments import positive_int
    from referee.cli.command import Command
    from referee.cli.parser import Parser

    seen = []

    def add(p):
        p.add("--count", type=positive_int, default=3)
        p.group("more").add("--name", default="x")

    toy = Command("toy", help="a toy", description="a toy command", add_arguments=add,
                  run=lambda args: seen.append(args) or 0)
    parser = Parser([toy])
    args = parser.parse(["toy", "--name", "y"])
    assert (args.count, args.name, args.explicit) == (3, "y", {"name"})
    args = parser.parse(["toy", "--count", "3"])
    assert (args.count, args.name, args.explicit) == (3, "x", {"count"})
    assert parser.commands["toy"].run(args) == 0 and seen == [args]
