"""Thousands of random and malformed lines through the pipe: the engine answers each bad one
with one error line, never dies, and still answers `isready` and plays a legal `go` afterwards."""

from __future__ import annotations

import random

import pytest

from protocol import new_game
from protocol.messages import MAX_LINE, parse_engine_line
from tests.support.engine_client import EngineClient

COMMANDS = {"uci", "isready", "ucinewgame", "setoption", "position", "go", "stop", "quit", "d",
            "moves", "bench", "debug", "ponderhit"}
WORDS = ["startpos", "fen", "moves", "name", "value", "depth", "nodes", "movetime", "p1time", "p2time",
         "wtime", "btime", "winc", "binc", "movestogo", "infinite", "ponder", "isaac",
         "foundations", "hari", "UCI_Variant", "Strategy", "Seed", "MoveOverhead", "random", "greedy",
         "-", "/", "d", "l", "place", "score", "0/0", "333334444555667", "-/-", "pass", "x3", "c3c7",
         "c3c7^2", "xc3c7:36", "d4d8>d5d9,a0a2", "a0a2", "j9j3", "b2e2>off", "-1", "0", "1", "3",
         "99999999999999999999", "1e3", "é", "\x00", "\t", "\ufffd"]


def junk_bytes(rng: random.Random, size: int) -> bytes:
    """Random bytes without a newline (invalid UTF-8, NULs and control characters included)."""
    return bytes(rng.choice([b for b in range(256) if b != 10]) for _ in range(size))


def unknown_command_line(rng: random.Random) -> bytes:
    """A line whose first word is certainly no command, followed by anything."""
    while True:
        word = "".join(rng.choice("abcdefghijklmnopqrstuvwxyzXYZ_0123456789!?#") for _ in range(rng.randint(1, 12)))
        if word not in COMMANDS:
            break
    tail = junk_bytes(rng, rng.randint(0, 80)) if rng.random() < 0.5 else \
        " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 8))).encode()
    return word.encode() + b" " + tail + b"\n"


def malformed_command_line(rng: random.Random) -> str:
    """A known command with random, mostly wrong, arguments (never quit, bench, a big perft or search)."""
    head = rng.choice(["go", "go", "position", "position startpos moves", "position fen", "setoption name",
                       "setoption name Seed value", "setoption name UCI_Variant value", "debug", "moves",
                       "d", "stop", "isready", "ucinewgame", "ponderhit", "go perft"])
    words = [rng.choice(WORDS) for _ in range(rng.randint(0, 10))]
    if head == "go perft":
        words = [rng.choice(["0", "1", "x", "-2", ""])]
    return " ".join([head, *words])


@pytest.fixture
def engine():
    with EngineClient() as client:
        client.send("setoption name Strategy value random")
        yield client


def test_each_unknown_line_gets_exactly_one_error(engine):
    rng = random.Random(20240601)
    lines = [unknown_command_line(rng) for _ in range(2000)]
    engine.send_raw(b"".join(lines))
    answers = engine.sync(timeout=60)
    assert len(answers) == len(lines)
    assert all(a.startswith("info string error: unknown command ") for a in answers)


def test_malformed_commands_never_break_the_engine(engine):
    rng = random.Random(7)
    lines = [malformed_command_line(rng) for _ in range(1500)]
    engine.send(*lines)
    engine.send("stop", "isready")
    readies = sum(1 for line in lines if line.split()[0] == "isready") + 1
    answers = []
    for _ in range(readies):
        answers += engine.read_until(lambda a: a == "readyok", timeout=60)
    for line in answers:
        parse_engine_line(line)  # bestmove/info/option lines stay well-formed
    assert any(a.startswith("info string error:") for a in answers)
    assert_still_plays(engine)


def test_long_lines_and_binary_junk(engine):
    engine.send_raw(b"x" * (3 * MAX_LINE) + b"\n")
    engine.send_raw(b"go " + b"9" * (MAX_LINE + 10) + b"\n")
    engine.send_raw(b"y" * MAX_LINE + b"\n")           # exactly the limit: read, unknown command
    engine.send_raw(b"\xff\xfe\x00\x80 go\r\n")          # invalid UTF-8 and a CR LF ending
    engine.send_raw(b"position startpos moves \xc3\x28\n")
    answers = engine.sync(timeout=30)
    assert len(answers) == 5, answers
    assert "longer than the limit" in answers[0] and "longer than the limit" in answers[1]
    assert answers[2].startswith("info string error: unknown command 'yyyy")
    assert all(a.startswith("info string error:") for a in answers[3:])
    assert_still_plays(engine)


def test_wrong_time_commands_are_refused_then_work(engine):
    engine.send("go infinite", "go", "go perft 1", "moves", "bench")
    errors = [a for a in engine.sync() if not a.startswith("info depth")]
    assert len(errors) == 4 and all("send stop first" in a for a in errors)
    engine.send("stop")
    assert engine.bestmove(2.0)
    assert_still_plays(engine)


def assert_still_plays(engine: EngineClient) -> None:
    engine.send("setoption name UCI_Variant value foundations", "setoption name Strategy value greedy",
                "position startpos moves c3c7")
    assert engine.sync() == []
    engine.send("go movetime 100")
    game = new_game("foundations")
    game.play("c3c7")
    assert game.is_legal(game.parse_move(engine.bestmove()))
