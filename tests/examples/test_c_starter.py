"""The C starter (examples/c), whose rules were written from SPEC.md alone: it builds without a
warning, tracks every position protocol/ reaches (HARI slides included), lists the same moves,
passes `isaac-referee check`, and plays whole games the referee validates move by move."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import protocol
from referee.check import Status, Tier, run_check
from referee.cli import main
from tests.examples.starters import C_DIR, Starter, c_sources, random_game_positions

pytestmark = pytest.mark.slow


@pytest.fixture
def starter(c_starter: Path):
    engine = Starter([str(c_starter)])
    yield engine
    engine.close()


def test_conformance_check_in_all_three_games(c_starter: Path):
    """Both tiers pass: what the starter leaves out on purpose (it lists no HARI slides, so no HARI perft
    or `moves`; no GUI commands) it answers with an error line, which SPEC 9.6 allows (SKIP)."""
    report = run_check([str(c_starter)], options={"Seed": "5"}, timeout=0.5, start_timeout=5.0)
    assert report.ok and report.conforms, report.render()
    results = {r.name: r for r in report.results}
    for game in protocol.GAME_NAMES:
        for check in ("new game", "go from startpos", "go after moves", "go from position string",
                      "bestmove pass when forced"):
            assert results[f"{game}: {check}"].status == Status.PASS, report.render()
    assert all(r.status == Status.PASS for r in report.tier_results(Tier.REQUIRED)), report.render()
    expected_skips = ({f"{g}: {c}" for g in protocol.GAME_NAMES for c in ("state", "steps")}
                      | {"hari: moves"} | {f"hari: go perft {d} ({where})" for d, where in
                                          ((1, "start"), (2, "start"), (1, "mid-game"), (1, "late"), (2, "late"))})
    recommended = {r.name: r.status for r in report.tier_results(Tier.RECOMMENDED)}
    assert {n for n, s in recommended.items() if s == Status.SKIP} == expected_skips, report.render()
    for game in ("isaac", "foundations"):   # perft and moves agree with protocol/ move by move
        assert recommended[f"{game}: go perft 2 (late)"] == Status.PASS
        assert recommended[f"{game}: moves"] == Status.PASS


def test_tracks_every_position_and_lists_the_legal_moves(starter: Starter):
    """Whole random games of protocol/ (HARI: uniform among all moves, so most slide): after every
    ply the starter's position string is protocol's, and its move list (ISAAC, FOUNDATIONS) too."""
    compared = {game: 0 for game in protocol.GAME_NAMES}
    for game_type in protocol.GAME_NAMES:
        starter.send(f"setoption name UCI_Variant value {game_type}")
        for seed, game, plies in random_game_positions(game_type, range(8)):
            starter.send("position startpos" + (" moves " + " ".join(plies) if plies else ""))
            shown = starter.ask("d", lambda line: line.startswith("Position: "))[-1]
            assert shown == f"Position: {game.position()}", f"{game_type} seed {seed} after {plies}"
            if game_type != "hari":
                listed = starter.ask("moves", lambda line: line.startswith(("moves", "info")))[-1]
                assert sorted(listed.split()[1:]) == sorted(map(str, game.legal_moves())), (game_type, plies)
            compared[game_type] += 1
    assert min(compared.values()) > 8 * 8, compared


def test_perft_agrees_with_spec_section_8(starter: Starter):
    for game, counts in (("isaac", (600, 305_600)), ("foundations", (600, 305_600))):
        starter.send(f"setoption name UCI_Variant value {game}", "position startpos")
        for depth, count in enumerate(counts, 1):
            total = starter.ask(f"go perft {depth}", lambda line: line.startswith("Nodes searched"))[-1]
            assert total == f"Nodes searched: {count}"


def test_bad_input_gets_one_clear_error_and_changes_nothing(starter: Starter):
    """SPEC 9's own examples of refused moves, with the move, its column and the rule broken."""
    starter.send("position startpos moves c3c7 d2d8")
    assert starter.ask("position startpos moves c3c7 d2d8 a0a9", lambda line: "error" in line)[-1] == (
        "info string error: position: move 3 'a0a9' at column 35: bad notation: 'a0a9' is not a piece: "
        "its ends must lie on one row or column, 3 to 7 cells long counting both ends")
    before = protocol.new_game("isaac")
    for move in ("c3c7", "d2d8"):
        before.play(move)
    assert starter.ask("d", lambda line: line.startswith("Position: "))[-1] == f"Position: {before.position()}"
    starter.send("setoption name UCI_Variant value foundations")
    assert starter.ask("position startpos moves e0e6 b0b5 f3j3", lambda line: "error" in line)[-1] == (
        "info string error: position: move 3 'f3j3' at column 35: illegal: length 5 is shorter than your "
        "last piece on this level (7)")
    starter.send("setoption name UCI_Variant value hari")
    assert starter.ask("position startpos moves a0a2 j7j9 c4c6 a0a2>b0b2,c9e9", lambda line: "error" in line)[-1] == (
        "info string error: position: move 4 'a0a2>b0b2,c9e9' at column 40: illegal: slide a0a2>b0b2: a0a2 is "
        "Dark's piece, not yours")
    for line, problem in (("go movetime 1" + "0" * 400, "movetime must be at most 2147483647, not a 401-digit number"),
                          ("setoption name Seed value x", "option Seed needs a whole number, not 'x'"),
                          ("position startpos moves a0a2>zz,b0b2", "at column 30: bad notation: expected segment or 'off'"),
                          ("position fen hari c4i4/b3h3 3333344445556/33333444455566 l",
                           "hari position strings have 5 fields, not 4")):
        starter.send(line)
        answer = starter.sync()
        assert len(answer) == 1 and answer[0].startswith("info string error: ") and problem in answer[0], answer
    assert starter.ask("d", lambda line: line.startswith("Position: "))[-1] == (
        "Position: hari -/- 333334444555667/333334444555667 d -")


def test_go_answers_pass_and_game_over_at_once_and_infinite_waits_for_stop(starter: Starter):
    starter.send("setoption name UCI_Variant value hari", "position fen hari c4i4/b3h3 3333344445556/33333444455566 l -")
    assert starter.ask("go infinite", lambda line: line.startswith("bestmove"))[-1] == "bestmove pass"
    starter.send("position fen hari c4i4/b3h3 3333344445556/33333444455566 l ld")
    assert starter.ask("go", lambda line: line.startswith("bestmove"))[-2:] == [
        "info string game over: 1/2-1/2 (draw, 6-6)", "bestmove (none)"]
    starter.send("position startpos", "go infinite")
    assert starter.sync() == []                              # no bestmove before stop
    assert starter.ask("go movetime 10", lambda line: "error" in line)[-1] == (
        "info string error: go: a search is running; send stop first")
    move = starter.ask("stop", lambda line: line.startswith("bestmove"))[-1].split()[1]
    protocol.new_game("hari").parse_move(move)              # legal
    assert starter.sync() == []                              # a second stop is ignored in silence


def test_matches_against_the_builtin_engine_every_move_validated(tmp_path: Path, c_starter: Path):
    """Whole games through the referee, which checks every move: against `random` in HARI (it slides in
    most moves, and the starter must follow them), `greedy` in ISAAC and `heuristic` in FOUNDATIONS."""
    opponents = {"hari": "random", "isaac": "greedy", "foundations": "heuristic"}
    for game, strategy in opponents.items():
        out = tmp_path / game
        argv = ["match", "--game", game, "--games", "4", "--openings", "random:2", "--seed", "3",
                "-engine", "name=starter", f"cmd={c_starter}", "option.Seed=11",
                "-engine", f"name={strategy}", "cmd=python -m engine", f"option.Strategy={strategy}",
                "-each", "tc=st=0.05", "--concurrency", "1", "--out", str(out)]
        assert main(argv) == 0
        records = [json.loads(line) for line in (out / "records.jsonl").read_text().splitlines()]
        assert len(records) == 4
        for record in records:
            assert record["termination"] == "normal", record["reason"]
            assert len(record["moves"]) >= 4
        if game == "hari":   # the opponent did slide, so the starter followed slides
            assert any(">" in m["move"] for r in records for m in r["moves"])


def test_makefile_builds_every_source(tmp_path: Path):
    """The Makefile names every .c file, and `make` in a copy of examples/c builds the starter."""
    sources = re.search(r"^SOURCES = (.*)$", (C_DIR / "Makefile").read_text(), re.M)
    assert sources is not None and sorted(sources.group(1).split()) == [p.name for p in c_sources()]
    make = shutil.which("make")
    if make is None:
        return   # the one-line gcc build of docs/bots.md is what the other tests use
    copy = tmp_path / "c"
    shutil.copytree(C_DIR, copy)
    done = subprocess.run([make, "-C", str(copy), "CFLAGS=-O2 -Wall -Wextra -Werror -std=c11"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    answer = subprocess.run([str(copy / "starter")], input="uci\nquit\n", capture_output=True, text=True, timeout=10)
    assert answer.stdout.splitlines()[-1] == "uciok"
