"""The JavaScript and Rust starters (examples/js, examples/rust), whose rules were written from SPEC.md
alone and which list every move, HARI slides included: they track every position protocol/ reaches,
list the same moves, count perft move by move like protocol/, refuse bad input with one error line,
pass both tiers of `isaac-referee check` in all three games, and play whole games the referee validates
move by move. The Rust one also builds with Debian 12's rustc 1.63 without a warning."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest

import protocol
from referee.check import Status, run_check
from referee.cli import main
from tests.examples.starters import DEBIAN_TOOLCHAIN, Starter, build_rust_starter, random_game_positions

pytestmark = pytest.mark.slow

LISTED = 3000
"""Positions with at most this many legal moves are compared move by move, bigger ones by their count."""


@pytest.fixture
def starter(own_rules_starter: list[str]):
    engine = Starter(own_rules_starter)
    yield engine
    engine.close()


def _position_shown(starter: Starter) -> str:
    return starter.ask("d", lambda line: line.startswith(("Position: ", "info string error")))[-1]


def test_tracks_every_position_and_lists_the_same_moves(starter: Starter):
    """Whole random games of protocol/ (HARI: uniform among all moves, so most of them slide), sent as
    moves from the start and as position strings: after every ply the starter shows protocol's
    position string and lists protocol's moves (or, in big HARI positions, counts as many)."""
    compared = {game: 0 for game in protocol.GAME_NAMES}
    for game_type in protocol.GAME_NAMES:
        starter.send(f"setoption name UCI_Variant value {game_type}")
        for seed, game, plies in random_game_positions(game_type, range(5)):
            starter.send(f"position fen {game.position()}" if seed % 2 else
                         "position startpos" + (" moves " + " ".join(plies) if plies else ""))
            assert _position_shown(starter) == f"Position: {game.position()}", (game_type, seed, plies)
            count = game.count_legal_moves()
            if count <= LISTED:
                listed = starter.ask("moves", lambda line: line.startswith(("moves", "info")))[-1]
                assert sorted(listed.split()[1:]) == sorted(map(str, game.legal_moves())), game.position()
            else:
                total = starter.ask("go perft 1", lambda line: line.startswith("Nodes searched"))[-1]
                assert total == f"Nodes searched: {count}", game.position()
            compared[game_type] += 1
    assert min(compared.values()) > 5 * 8, compared


def _small_position(game_type: str, seed: int, most: int) -> protocol.Game:
    """A position of a seeded random game with a real choice and at most `most` moves (late in the game)."""
    rng = random.Random(seed)
    game = protocol.new_game(game_type)
    found = game.copy()
    while not game.is_over():
        if 2 <= game.count_legal_moves() <= most:
            found = game.copy()
        move = game.random_move(rng)
        assert move is not None
        game.push(move)
    return found


def test_perft_2_agrees_with_protocol_move_by_move(starter: Starter):
    """Stockfish's divide at depth 2, from each start position (SPEC 8) and from a small late position."""
    for game_type in protocol.GAME_NAMES:
        starter.send(f"setoption name UCI_Variant value {game_type}")
        for game in (protocol.new_game(game_type), _small_position(game_type, 7, 150)):
            starter.send(f"position fen {game.position()}")
            lines = starter.ask("go perft 2", lambda line: line.startswith("Nodes searched"))
            divide = dict(line.split(": ") for line in lines[:-2])
            expected = {str(move): str(count) for move, count in game.perft_divide(2)}
            assert lines[-2] == "" and divide == expected, game.position()
            assert lines[-1] == f"Nodes searched: {sum(map(int, expected.values()))}"


def test_bad_input_gets_one_error_line_and_changes_nothing(starter: Starter):
    starter.send("setoption name UCI_Variant value hari", "position startpos moves a0a2 j7j9")
    kept = _position_shown(starter)
    for line in ("position startpos moves a0a2 j7j9 c4c6 a0a2>b0b2,c9e9",   # Dark's piece slid by Light
                 "position startpos moves a0a2 j7j9 a0a2>b0b2,c4c6",        # not along its line
                 "position startpos moves a0a2>zz,b0b2",
                 "position fen hari c4i4/b3h3 3333344445556/33333444455566 l",
                 "position fen isaac -/- 333334444555667/333334444555667 d - place 0/0",
                 "go movetime 1" + "0" * 400, "go depth 0", "go movetime 10 movetime 20",
                 "setoption name Seed value x", "setoption name UCI_Variant value chess", "frobnicate",
                 "x" * 70000):
        starter.send(line)
        answer = starter.sync()
        assert len(answer) == 1 and answer[0].startswith("info string error: "), (line[:60], answer)
    assert _position_shown(starter) == kept
    for game_type, bad in (("isaac", "c3c7 c3c7"), ("foundations", "e0e6 b0b5 f3j3"), ("isaac", "xc3c7:5")):
        starter.send(f"setoption name UCI_Variant value {game_type}", f"position startpos moves {bad}")
        answer = starter.sync()
        assert len(answer) == 1 and "illegal" in answer[0], answer


def test_pass_and_game_over_at_once_and_infinite_waits_for_stop(starter: Starter):
    starter.send("setoption name UCI_Variant value hari", "position fen hari c4i4/b3h3 3333344445556/33333444455566 l -")
    assert starter.ask("go infinite", lambda line: line.startswith("bestmove"))[-1] == "bestmove pass"
    starter.send("position fen hari c4i4/b3h3 3333344445556/33333444455566 l ld")
    over = starter.ask("go", lambda line: line.startswith("bestmove"))[-2:]
    assert over[0].startswith("info string game over: 1/2-1/2") and over[1] == "bestmove (none)"
    starter.send("position startpos", "go infinite")
    assert starter.sync() == []                              # no bestmove before stop
    assert starter.ask("go movetime 10", lambda line: "error" in line)[-1].startswith("info string error: go:")
    move = starter.ask("stop", lambda line: line.startswith("bestmove"))[-1].split()[1]
    protocol.new_game("hari").parse_move(move)               # legal
    assert starter.sync() == []                              # a second stop is ignored in silence


def test_conformance_check_passes_both_tiers(own_rules_starter: list[str]):
    report = run_check(own_rules_starter, options={"Seed": "5"}, timeout=5.0, start_timeout=10.0)
    assert report.ok and report.conforms, report.render()
    skipped = {r.name for r in report.results if r.status == Status.SKIP}
    assert skipped == {f"{g}: {c}" for g in protocol.GAME_NAMES for c in ("state", "steps")}, report.render()


def test_plays_whole_games_the_referee_validates(tmp_path: Path, own_rules_starter: list[str]):
    """Against `random` in HARI (it slides in most moves, and the starter must follow them), `greedy`
    in ISAAC and `heuristic` in FOUNDATIONS, on a clock."""
    opponents = {"hari": "random", "isaac": "greedy", "foundations": "heuristic"}
    for game, strategy in opponents.items():
        out = tmp_path / game
        argv = ["match", "--game", game, "--games", "4", "--openings", "random:2", "--seed", "3",
                "-engine", "name=starter", "cmd=" + " ".join(own_rules_starter), "option.Seed=11",
                "-engine", f"name={strategy}", "cmd=python -m engine", f"option.Strategy={strategy}",
                "-each", "tc=st=0.05", "--concurrency", "1", "--out", str(out)]
        assert main(argv) == 0
        records = [json.loads(line) for line in (out / "records.jsonl").read_text().splitlines()]
        assert [r["termination"] for r in records] == ["normal"] * 4, [r["reason"] for r in records]
        if game == "hari":
            assert any(">" in m["move"] for r in records for m in r["moves"])


def test_rust_starter_builds_with_debian_rustc_1_63(tmp_path: Path, request: pytest.FixtureRequest):
    """No let-else, no newer std APIs: the oldest rustc it promises (Debian 12's) builds it, warning-free.
    Where the cargo on PATH is Debian's (CI), the session's build is that build."""
    rustc = DEBIAN_TOOLCHAIN / "rustc"
    if not rustc.exists() and not os.environ.get("CI"):
        pytest.skip(f"{rustc} is not installed here (apt-get install rustc cargo)")
    version = subprocess.run([str(rustc), "--version"], capture_output=True, text=True, check=True).stdout
    on_path = shutil.which("cargo")
    if on_path is not None and Path(on_path).resolve() == (DEBIAN_TOOLCHAIN / "cargo").resolve():
        binary = request.getfixturevalue("rust_starter")
    else:
        binary = build_rust_starter(tmp_path, toolchain=DEBIAN_TOOLCHAIN)
    answer = subprocess.run([str(binary)], input="uci\nquit\n", capture_output=True, text=True, timeout=10)
    assert answer.stdout.splitlines()[-1] == "uciok", version
