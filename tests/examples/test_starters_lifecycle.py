"""All four starters (Python, C, JavaScript, Rust) at the ends of their lives, as a referee runs them:
`quit` ends the process at once with exit status 0 while stdin stays open (the referee keeps the
pipe open after `quit`), idle or during `go infinite`, and so does the end of input."""

from __future__ import annotations

import subprocess

import protocol
from tests.examples.starters import Starter

EXIT_WAIT = 2.0
"""Seconds a starter may take to be gone after `quit` (it exits at once; the rest is a busy machine)."""


def _exit_status(engine: Starter) -> int | None:
    try:
        return engine.proc.wait(timeout=EXIT_WAIT)
    except subprocess.TimeoutExpired:
        return None


def test_quit_with_stdin_open_exits_0_at_once(any_starter: list[str]):
    for during_search in (False, True):
        engine = Starter(any_starter)
        try:
            engine.ask("uci", lambda line: line == "uciok")
            engine.sync()
            if during_search:
                engine.send("setoption name UCI_Variant value foundations", "position startpos", "go infinite")
                assert engine.sync() == []                   # still searching: no bestmove yet
            engine.send("quit")                              # and stdin stays open
            assert _exit_status(engine) == 0, f"{any_starter} after quit{' during go infinite' * during_search}"
        finally:
            engine.close()


def test_end_of_input_exits_0(any_starter: list[str]):
    engine = Starter(any_starter)
    try:
        engine.ask("uci", lambda line: line == "uciok")
        engine.send("position startpos", "go movetime 50")
        move = engine.read_until(lambda line: line.startswith("bestmove"))[-1].split()[1]
        protocol.new_game("isaac").parse_move(move)
        assert engine.proc.stdin is not None
        engine.proc.stdin.close()
        assert _exit_status(engine) == 0
    finally:
        engine.close()
