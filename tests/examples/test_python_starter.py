"""The Python starter (examples/python/starter.py) in process: its time budget from the clocks, its
reading of lines, and the protocol's timing rules (isready and stop during a search, bestmove
before any later readyok, a `go` right after a `bestmove` never refused)."""

from __future__ import annotations

import importlib.util
import io
import queue
import time
from collections.abc import Callable
from types import ModuleType

import pytest

import protocol
from protocol.messages import MAX_LINE, parse_go
from tests.examples.starters import PYTHON_STARTER


@pytest.fixture(scope="module")
def starter() -> ModuleType:
    spec = importlib.util.spec_from_file_location("kit_python_starter", PYTHON_STARTER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Output:
    """Stands in for stdout: keeps each whole line the engine writes, for the test to wait on."""

    def __init__(self) -> None:
        self.lines: queue.Queue[str] = queue.Queue()
        self.partial = b""

    def write(self, data: bytes) -> int:
        *whole, self.partial = (self.partial + data).split(b"\n")
        for line in whole:
            self.lines.put(line.decode())
        return len(data)

    def flush(self) -> None:
        pass

    def until(self, done: Callable[[str], bool], timeout: float = 5.0) -> list[str]:
        out: list[str] = []
        while not out or not done(out[-1]):
            out.append(self.lines.get(timeout=timeout))
        return out

    def pending(self) -> list[str]:
        out = []
        while not self.lines.empty():
            out.append(self.lines.get())
        return out


@pytest.fixture
def engine(starter: ModuleType):
    out = Output()
    eng = starter.Engine(out)
    eng.out_lines = out
    yield eng
    eng.handle("stop", time.monotonic())


def send(engine, line: str) -> list[str]:
    """Obey one line; the lines written meanwhile (a search's come later)."""
    assert engine.handle(line, time.monotonic())
    return engine.out_lines.pending()


def test_budget_from_the_clocks(starter: ModuleType):
    budget = starter.budget_ms
    reserve = starter.RESERVE_MS
    assert budget(parse_go("go movetime 100"), 0) == 100 - reserve
    go = parse_go("go p1time 10000 p2time 5000 p1inc 100")
    assert budget(go, 0) == 10000 / 20 + 80 - reserve           # Dark: its clock and increment
    assert budget(go, 1) == 5000 / 20 - reserve                  # Light: its own clock, no increment
    assert budget(parse_go("go wtime 1000 btime 1000 movestogo 1"), 0) == 500 - reserve   # never over half
    assert budget(parse_go("go p1time 10 p2time 10"), 0) == 1.0  # nearly flagged: think at once
    assert budget(parse_go("go infinite"), 0) is None
    assert budget(parse_go("go nodes 50"), 1) is None
    assert budget(parse_go("go"), 0) == 1000 - reserve


def test_margin_reads_the_game_s_measure_the_right_way_round(starter: ModuleType):
    foundations = protocol.new_game("foundations")
    foundations.play("a0g0")                      # Dark's 7 leaves its hand: lower is better there
    assert starter.margin(foundations, 0) == 6 and starter.margin(foundations, 1) == -6
    hari = protocol.new_game("hari")
    hari.play("a0g0")                             # HARI counts the value on the board: higher is better
    assert starter.margin(hari, 0) == 6


def test_lines_are_read_as_spec_9_1_says(starter: ModuleType):
    data = b"uci\r\n" + b"x" * (MAX_LINE + 1) + b"\nisready\n\xff\xfego\n" + b"y" * MAX_LINE + b"\nquit"
    assert list(starter.lines(io.BytesIO(data))) == ["uci", None, "isready", "\ufffd\ufffdgo", "y" * MAX_LINE, "quit"]


def test_handshake_options_and_errors(engine):
    assert send(engine, "uci") == [
        "id name isaac-arena Python starter 1.0", "id author isaac-arena participants' kit",
        "option name UCI_Variant type combo default isaac var isaac var foundations var hari",
        "option name Seed type spin default 0 min 0 max 2147483647", "uciok"]
    assert send(engine, "setoption name uci_variant value HARI") == []
    assert engine.variant == "hari"
    assert send(engine, "setoption name Sead value 3") == [
        "info string error: unknown option 'Sead'; options are UCI_Variant, Seed"]
    assert send(engine, "setoption name UCI_Variant value chess") == [
        "info string error: option UCI_Variant is one of isaac, foundations, hari, not 'chess' "
        "(at column 34 of 'setoption name UCI_Variant value chess')"]
    assert send(engine, "frobnicate") == [
        "info string error: unknown command 'frobnicate' (column 1); commands are quit, uci, isready, debug, "
        "setoption, ucinewgame, position, go, stop, d, moves"]
    assert send(engine, "go depth minus-one") == [
        "info string error: depth needs a whole number, not 'minus-one' (at column 10 of 'go depth minus-one')"]


def test_a_refused_position_keeps_the_previous_one(engine):
    send(engine, "setoption name UCI_Variant value hari")
    assert send(engine, "position startpos moves a0a2 j7j9") == []
    kept = engine.game.position()
    assert send(engine, "position startpos moves a0a2 j7j9 c4c6 a0a2>b0b2,c9e9") == [
        "info string error: position: move 4 'a0a2>b0b2,c9e9' at column 40: illegal: slide a0a2>b0b2: "
        "a0a2 is Dark's piece, not yours"]
    assert send(engine, "position startpos moves a0a2>zz,b0b2") == [
        "info string error: position: move 1 'a0a2>zz,b0b2' at column 30: bad notation: expected segment or 'off'"]
    assert send(engine, "position fen isaac -/- 333334444555667/333334444555667 d - place 0/0") == [
        "info string error: position: a isaac position, but UCI_Variant is hari "
        "(send setoption name UCI_Variant value isaac first)"]
    assert send(engine, "position fen hari -/- 333334444555667/333334444555667 x -")[0].startswith(
        "info string error: position: bad position string at column 55: expected side to move (d or l)")
    assert send(engine, "d") == [f"Position: {kept}"]


def test_go_thinks_within_its_movetime_and_answers_a_legal_move(engine):
    for game in protocol.GAME_NAMES:
        send(engine, f"setoption name UCI_Variant value {game}")
        send(engine, "position startpos")
        started = time.monotonic()
        assert engine.handle("go movetime 200", started)   # the search's lines come from its thread
        info, best = engine.out_lines.until(lambda line: line.startswith("bestmove"))[-2:]
        assert time.monotonic() - started < 0.2
        assert info.startswith("info depth 1 time ") and f"pv {best.split()[1]}" in info
        protocol.new_game(game).parse_move(best.split()[1])


def test_pass_and_game_over_are_answered_at_once(engine):
    send(engine, "setoption name UCI_Variant value hari")
    send(engine, "position fen hari c4i4/b3h3 3333344445556/33333444455566 l -")
    assert send(engine, "go infinite") == ["bestmove pass"]
    send(engine, "position fen hari c4i4/b3h3 3333344445556/33333444455566 l ld")
    assert send(engine, "go") == [
        "info string game over: 1/2-1/2 (draw, 6-6: both have 6 points on the board)", "bestmove (none)"]


def test_infinite_search_isready_and_stop(engine):
    send(engine, "position startpos")
    assert send(engine, "go infinite") == []
    time.sleep(0.2)
    assert send(engine, "isready") == ["readyok"]            # answered while it thinks; no bestmove yet
    assert send(engine, "go movetime 10") == ["info string error: go: a search is running; send stop first"]
    stopped = send(engine, "stop")                           # returns only once the bestmove is out
    assert stopped[-1].startswith("bestmove ") and send(engine, "isready") == ["readyok"]
    assert send(engine, "stop") == []                        # nothing running: ignored


def test_go_right_after_bestmove_is_never_refused(engine, starter: ModuleType, monkeypatch: pytest.MonkeyPatch):
    """SPEC 9.6: the search stops counting as running in the same step as its bestmove is written, even
    if its thread takes a while to end after that (here 50 ms; on a busy machine it happens)."""
    think = starter.Search.run

    def slow_to_end(self) -> None:
        think(self)
        time.sleep(0.05)

    monkeypatch.setattr(starter.Search, "run", slow_to_end)
    send(engine, "position startpos")
    for _ in range(5):
        assert engine.handle("go nodes 2", time.monotonic())
        lines = engine.out_lines.until(lambda line: line.startswith(("bestmove", "info string error")))
        assert lines[-1].startswith("bestmove"), lines


def test_a_position_extending_the_last_one_reads_only_the_new_moves(engine, starter: ModuleType,
                                                                    monkeypatch: pytest.MonkeyPatch):
    """The referee sends the whole game before each move; a game's moves are read once, and anything
    else (another start, a refused command, another game) is read from its start."""
    send(engine, "setoption name UCI_Variant value hari")
    send(engine, "position startpos moves a0a2 j7j9")
    read: list[str] = []
    play = protocol.Game.play

    def counting(game, text):
        read.append(text)
        return play(game, text)

    monkeypatch.setattr(protocol.Game, "play", counting)
    send(engine, "position startpos moves a0a2 j7j9 c4c6")
    assert read == ["c4c6"]
    assert send(engine, "position startpos moves a0a2 j7j9 c4c6 a0a2>b0b2,c9e9")[0].startswith("info string error")
    send(engine, "position startpos moves a0a2 j7j9 c4c6 d0d2")
    assert read == ["c4c6", "a0a2>b0b2,c9e9", "d0d2"]
    expected = protocol.new_game("hari")
    for move in ("a0a2", "j7j9", "c4c6", "d0d2"):
        expected.play(move)
    assert engine.game.position() == expected.position()
    send(engine, "position fen hari -/- 333334444555667/333334444555667 d - moves a0a2")
    assert read[-1] == "a0a2" and engine.game.position() == "hari a0a2/- 33334444555667/333334444555667 l -"
