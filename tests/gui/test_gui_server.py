"""The GUI server over its WebSocket: engines end with the browser and the server, the page
cannot name a program to run, and referee runs are replayed and followed from their records."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from protocol import new_game
from tests.support.gui_server import REPO, GuiServer

pytestmark = pytest.mark.slow


class Client:
    """A browser stand-in: JSON messages over the WebSocket."""

    def __init__(self, url: str, **kwargs: Any):
        self.stack = contextlib.ExitStack()
        self.ws = self.stack.enter_context(connect(url, open_timeout=10, **kwargs))
        self.hello = self.expect("hello")

    def send(self, **message: Any) -> None:
        self.ws.send(json.dumps(message))

    def expect(self, kind: str, timeout: float = 20.0, where=lambda m: True) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while True:
            message = json.loads(self.ws.recv(timeout=max(0.01, end - time.monotonic())))
            if message["t"] == kind and where(message):
                return message
            if message["t"] == "error" and kind != "error":
                raise AssertionError(f"error while waiting for {kind}: {message['text']}")

    def close(self) -> None:
        self.stack.close()


def children(pid: int) -> set[int]:
    """Live (non-zombie) processes whose parent is `pid`."""
    out = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            rest = stat[stat.rfind(")") + 2:].split()
            if int(rest[1]) == pid and rest[0] != "Z":
                out.add(int(entry))
    return out


def wait_gone(pids: set[int], timeout: float = 10.0) -> set[int]:
    end = time.monotonic() + timeout
    alive = set(pids)
    while alive and time.monotonic() < end:
        alive = {p for p in alive if Path(f"/proc/{p}").exists() and
                 Path(f"/proc/{p}/stat").read_text().split(")")[-1].split()[0] != "Z"}
        time.sleep(0.05)
    return alive


@pytest.fixture
def server():
    srv = GuiServer()
    yield srv
    if srv.proc.poll() is None:
        srv.stop()


def test_engines_end_when_the_browser_leaves(server):
    client = Client(server.ws_url)
    client.send(t="new", game="hari", dark="human", light="random", tc="1+1")
    client.expect("steps")
    engines = children(server.proc.pid)
    assert len(engines) == 2, engines          # the rules engine and the opponent
    client.close()
    assert wait_gone(engines) == set()
    assert server.proc.poll() is None          # the server itself keeps serving


def test_engines_end_when_the_server_stops(server):
    client = Client(server.ws_url)
    client.send(t="new", game="isaac", dark="random", light="greedy", tc="1+1")
    client.expect("position")
    client.send(t="start")                     # two engines playing each other, once started
    client.expect("thinking")
    engines = children(server.proc.pid)
    assert len(engines) == 3, engines
    assert server.stop() == 130              # as after Ctrl-C
    assert wait_gone(engines) == set()


def test_ctrl_c_ends_with_status_130_even_when_started_with_sigint_ignored():
    srv = GuiServer(sigint_ignored=True)
    try:
        srv.wait_ready()
        assert srv.stop() == 130
    finally:
        if srv.proc.poll() is None:
            srv.kill()


CTRL_C_DURING_START = """
import signal, sys, weakref
import uvicorn
import uvicorn.lifespan.on
from gui.__main__ import main

def ctrl_c(*ignored):
    signal.raise_signal(signal.SIGINT)

class Thing:
    pass

def before(method):
    def patched(*args, **kwargs):
        ctrl_c()
        return method(*args, **kwargs)
    return patched

def in_a_weakref_callback(method):   # as importlib's module-lock cleanup after each import
    def patched(*args, **kwargs):
        thing = Thing()
        ref = weakref.ref(thing, ctrl_c)
        del thing
        return method(*args, **kwargs)
    return patched

owner, name, how = sys.argv[1:4]
owner = eval(owner)
setattr(owner, name, eval(how)(getattr(owner, name)))
sys.exit(main(sys.argv[4:]))
"""


@pytest.mark.parametrize("owner, name, how", [
    ("uvicorn.Server", "__init__", "before"),                           # before the server exists
    ("uvicorn.Config", "get_loop_factory", "in_a_weakref_callback"),    # was lost: kept serving
    ("uvicorn.Server", "capture_signals", "before"),                    # was asyncio's: tracebacks
    ("uvicorn.lifespan.on.LifespanOn", "startup", "before"),            # uvicorn's own handler
])
def test_ctrl_c_during_start_up_ends_with_status_130(owner, name, how):
    """Ctrl-C (SIGINT ignored at start, as in a script's background job) at chosen moments of the start.
    Python drops a KeyboardInterrupt raised in a weakref callback; importlib runs one after each import,
    which is how a Ctrl-C at the 'serving' line was lost in full test runs."""
    command = [sys.executable, "-c", "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_IGN); "
               "os.execv(sys.executable, [sys.executable, *sys.argv[1:]])",
               "-c", CTRL_C_DURING_START, owner, name, how, "--port", "0"]
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    try:
        done = subprocess.run(command, cwd=REPO, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, timeout=15)
    except subprocess.TimeoutExpired as exc:
        raise AssertionError(f"still running 15 s after Ctrl-C at {owner}.{name} ({how}); its log: {exc.stderr!r}"
                             ) from None
    assert done.returncode == 130, done.stderr
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr, done.stderr


def test_stop_makes_the_engine_move_now(server):
    client = Client(server.ws_url)
    client.send(t="new", game="isaac", dark="search", light="human", tc="nodes=100000000",   # minutes (not
                level="clock")                # FOUNDATIONS: its start is in the book); no level: no movetime
    client.expect("position")
    client.send(t="start")
    thinking = client.expect("thinking")
    assert thinking["engine"] == "search" and thinking["side"] == "d"
    end = time.monotonic() + 1.5                # longer than a search without limits takes
    while (left := end - time.monotonic()) > 0:
        with contextlib.suppress(TimeoutError):
            message = json.loads(client.ws.recv(timeout=left))
            assert message["t"] == "thinking", message   # still thinking: no move yet
    stopped = time.monotonic()
    client.send(t="stop")
    position = client.expect("position", where=lambda m: len(m["moves"]) == 1)
    assert time.monotonic() - stopped < 5
    assert position["state"]["turn"] == "l"
    client.expect("steps")                      # the person's turn
    client.close()


def test_the_page_cannot_run_programs(server):
    client = Client(server.ws_url)
    assert set(client.hello["engines"]) == {"search", "greedy", "random"}
    before = children(server.proc.pid)
    for side in ("dark", "light"):
        client.send(t="new", game="hari", **{side: "cmd=/bin/sh"})
        error = client.expect("error")
        assert "no engine named 'cmd=/bin/sh'" in error["text"]
    client.send(t="new", game="hari", dark="human", light="random", cmd="/bin/sh", engine="/bin/sh")
    client.expect("steps")
    names = {Path(f"/proc/{p}/cmdline").read_bytes().split(b"\0")[:3].__repr__() for p in children(server.proc.pid)}
    assert all(b"engine" in n.encode() for n in names), names
    assert before <= children(server.proc.pid)
    client.send(t="run", name="../../etc")
    assert "no run named" in client.expect("error")["text"]
    client.close()


def test_a_page_from_another_origin_is_refused(server):
    with pytest.raises(InvalidStatus), connect(server.ws_url, origin="http://evil.example", open_timeout=10):
        pass
    client = Client(server.ws_url, origin=server.url.rstrip("/"))   # the page itself
    client.close()


def test_another_host_name_is_refused(server):
    """DNS rebinding: a name that resolves to 127.0.0.1 but is not this machine's own is refused."""
    import urllib.error
    import urllib.request

    page = urllib.request.urlopen(server.url, timeout=10)
    assert page.status == 200 and b"isaac-arena" in page.read()
    request = urllib.request.Request(server.url, headers={"Host": "evil.example"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 400
    with pytest.raises(InvalidStatus), connect(server.ws_url, origin="http://evil.example",
                                               additional_headers={"Host": "evil.example"}, open_timeout=10):
        pass


def test_bad_input_gets_one_clear_error(server):
    client = Client(server.ws_url)
    client.ws.send("not json")
    assert client.expect("error")["text"] == "not a JSON message"
    client.send(t="setup", position="hari zz/- 333334444555667/333334444555667 d -")
    text = client.expect("error")["text"]
    assert "position" in text and "\n" not in text
    client.send(t="new", game="chess")
    assert "unknown game 'chess'" in client.expect("error")["text"]
    client.send(t="step", word="a0a2*")
    assert "no game yet" in client.expect("error")["text"]
    client.send(t="setup", position="hari c3c7/d4d8 33333444455667/33333444455667 d -")
    assert client.expect("position")["state"]["position"] == "hari c3c7/d4d8 33333444455667/33333444455667 d -"
    client.expect("steps")
    client.send(t="step", word="c3c7*")   # occupied: not among the offered steps
    assert client.expect("error")["text"] == "'c3c7*' is not one of the steps offered"
    client.close()


def _record(game_id: int, seed: int) -> dict[str, Any]:
    """A finished random HARI game as the referee records it (SPEC 10.4)."""
    import random

    rng = random.Random(seed)
    game = new_game("hari")
    start = game.position()
    moves = []
    while not game.is_over():
        move = game.random_move(rng)
        game.push(move)
        moves.append({"move": str(move), "ms": 1})
    outcome = game.result()
    spec = {"name": "", "cmd": ["x"], "cwd": None, "options": {}, "tc": None, "memory_mb": None, "cpu_seconds": None}
    return {"game_id": game_id, "game_type": "hari", "rules_version": "1", "start_position": start,
            "opening": [], "dark": {**spec, "name": "alpha"}, "light": {**spec, "name": "beta"},
            "time_control": {"dark": "10+0.1", "light": "10+0.1"},
            "moves": moves, "result": outcome.text, "termination": "normal", "reason": outcome.reason,
            "final_scores": list(outcome.scores), "final_position": game.position()}


def test_replay_and_follow_a_run(tmp_path):
    run = tmp_path / "runs" / "match-1"
    run.mkdir(parents=True)
    first = _record(0, 1)
    (run / "records.jsonl").write_text(json.dumps(first) + "\n")
    srv = GuiServer("--runs", str(tmp_path / "runs"))
    try:
        client = Client(srv.ws_url)
        assert client.hello["runs"] == ["match-1"]
        client.send(t="run", name="match-1", follow=True)
        summary = client.expect("run")
        assert [g["game_id"] for g in summary["games"]] == [0]
        assert {row["name"]: row["points"] for row in summary["standings"]}["alpha"] in (0, 0.5, 1)
        client.send(t="replay", name="match-1", game_id=0)
        replay = client.expect("replay")
        assert len(replay["frames"]) == len(first["moves"]) + 1
        assert replay["frames"][-1]["position"] == first["final_position"]
        assert all('data-cell="a0"' in frame["svg"] for frame in replay["frames"][:3])
        with (run / "records.jsonl").open("a") as fh:      # the referee records another game
            fh.write(json.dumps(_record(1, 2)) + "\n")
        summary = client.expect("run", timeout=10)
        assert [g["game_id"] for g in summary["games"]] == [0, 1]
        assert summary["live"] == []
        playing = new_game("hari")
        playing.play("c3c7")
        (run / "live.json").write_text(json.dumps({"games": [
            {"game_id": 2, "dark": "beta", "light": "alpha", "moves": ["c3c7"], "position": playing.position()}]}))
        [live] = client.expect("run", timeout=10)["live"]
        assert (live["game_id"], live["plies"], live["position"]) == (2, 1, playing.position())
        assert 'data-segment="c3c7"' in live["svg"]
        assert sum(row["games"] for row in summary["standings"]) == 4
        client.close()
    finally:
        srv.stop()
        shutil.rmtree(tmp_path / "runs", ignore_errors=True)


def test_resume_counter_targets_levels_and_set_up_columns(server):
    client = Client(server.ws_url)
    assert [lv["level"] for lv in client.hello["levels"]] == list(range(1, 9))
    assert client.hello["game_info"]["foundations"]["lower_score_wins"] is True
    # a reloaded page resumes its game: the moves replayed by the rules, the clocks as they were
    client.send(t="new", game="hari", dark="human", light="random", tc="1+1", level=3,
                moves=["c3c7", "a9c9"], clocks=[41_000, 52_500], started=True)
    position = client.expect("position")
    assert position["moves"] == ["c3c7", "a9c9"] and position["movers"] == ["d", "l"]
    assert position["clocks"] == [41_000, 52_500] and position["level"] == 3 and not position["thinking"]
    client.expect("steps")
    for bad, why in ((["c3c7", "c3c7"], "move 2 'c3c7'"), ("c3c7", "a list"), ([1], "a string"),
                     (["x3"] * 600, "at most 500")):
        client.send(t="new", game="hari", dark="human", light="random", moves=bad)
        assert why in client.expect("error")["text"]
    client.send(t="new", game="hari", dark="human", light="random", clocks=[-1, 5])
    assert "clocks" in client.expect("error")["text"]
    client.send(t="level", level=12)
    assert "unknown level '12'" in client.expect("error")["text"]
    client.send(t="level", level="clock")
    assert client.expect("position")["level"] == "clock"
    client.expect("steps")                     # the move being entered is offered again
    # ISAAC: the score steps after a removal come with the cell the counter goes to
    client.send(t="setup", position="isaac c2e2,g0g3/a2a4,i1i5 333444555667/333444455667 d - score 0/0")
    client.expect("position")
    client.expect("steps")
    client.send(t="step", word="xc2e2")
    steps = client.expect("steps")
    assert steps["targets"] == {"0*": "a0", "1*": "b0", "2*": "c0", "3*": "d0"}
    # a set-up error's column counts in the position string as typed
    client.send(t="setup", position="hari zz9/- 1 x -")
    assert "at column 6:" in client.expect("error")["text"]
    client.send(t="setup", position="  hari  zz9/- 1 x -")
    assert "at column 9:" in client.expect("error")["text"]
    client.send(t="setup", position="hari -/- 1/1 d -\nquit")
    assert "one line" in client.expect("error")["text"]
    client.close()


def test_start_takeback_and_a_lost_game_resumed(server):
    client = Client(server.ws_url)
    client.send(t="new", game="hari", dark="random", light="human", tc="1+0")
    position = client.expect("position")
    assert position["started"] is False and position["running"] is None and not position["thinking"]
    client.send(t="takeback")
    assert "no move of yours" in client.expect("error")["text"]
    client.send(t="start")                     # the engine moves first, once started
    mine = client.expect("position", where=lambda m: len(m["moves"]) == 1)
    assert mine["running"] == 1 and mine["can_takeback"] is False
    offered = client.expect("steps")["options"]
    client.send(t="step", word=next(o for o in offered if o.endswith("*") and o != "pass*"))
    client.expect("position", where=lambda m: len(m["moves"]) == 3)   # my move and the engine's reply
    client.send(t="takeback")
    back = client.expect("position", where=lambda m: len(m["moves"]) == 1)
    assert back["state"]["turn"] == "l" and back["running"] == 1
    client.expect("steps")
    # a game the GUI ended (a forfeit) comes back lost after a reload: never played on
    lost = {"result": "1-0", "termination": "time forfeit", "reason": "Light (human) ran out of time"}
    client.send(t="new", game="hari", dark="random", light="human", moves=["c3c7"], clocks=[60_000, 0],
                started=True, result=lost)
    resumed = client.expect("position")
    assert resumed["result"] == lost and resumed["running"] is None and not resumed["thinking"]
    client.send(t="start")
    assert "the game is over" in client.expect("error")["text"]
    for bad in ({"result": "1-0"}, {"result": "2-0", "termination": "crash", "reason": ""}, "lost"):
        client.send(t="new", game="hari", dark="random", light="human", result=bad)
        assert client.expect("error")["text"].startswith("result:")
    client.close()


def test_export_of_a_game(server):
    client = Client(server.ws_url)
    client.send(t="setup", position="hari c4i4/b3h3 3333344445556/33333444455566 l ld")   # over: both passed
    assert client.expect("position")["result"]["termination"] == "both-passed"
    client.send(t="export", board="play")
    out = client.expect("export")
    record = json.loads(out["record"])
    assert record["result"] == "1/2-1/2" and record["termination"] == "normal" and record["moves"] == []
    assert '[Result "1/2-1/2"]' in out["pgn"]
    client.send(t="new", game="hari", dark="human", light="random", tc="1+0")
    client.expect("steps")
    client.send(t="export", board="play")
    out = client.expect("export")
    assert out["record"] is None and "not finished" in out["why"] and '[Result "*"]' in out["pgn"]
    client.close()


def test_the_analysis_board(server):
    client = Client(server.ws_url)
    client.send(t="analysis_load", position="hari -/- 333334444555667/333334444555667 d -",
                moves=["c3c7", "a9c9", "d2d6"], ply=1, sides=["alpha", "beta"], label="a test")
    line = client.expect("analysis_line")
    assert line["moves"] == ["c3c7", "a9c9", "d2d6"] and line["movers"] == ["d", "l", "d"]
    shown = client.expect("analysis_position")
    assert shown["ply"] == 1 and shown["state"]["turn"] == "l" and 'data-segment="c3c7"' in shown["svg"]
    steps = client.expect("steps")
    assert steps["board"] == "analysis" and "a9c9*" in steps["options"]
    analysis = client.expect("analysis", where=lambda m: m.get("lines"))
    assert analysis["ply"] == 1 and analysis["side"] == "l" and analysis["engine"] == "search"
    assert analysis["lines"][0]["pv"] and isinstance(analysis["lines"][0]["score"], int)
    client.send(t="analysis_goto", ply=3)
    assert client.expect("analysis_position")["ply"] == 3
    client.send(t="analysis_step", word="e0g0*")            # a move of its own: a new line from there
    line = client.expect("analysis_line")
    assert line["moves"] == ["c3c7", "a9c9", "d2d6", "e0g0"] and line["label"] == "a test (edited)"
    assert client.expect("analysis_position")["ply"] == 4
    client.send(t="analysis_settings", on=False)
    assert client.expect("analysis", where=lambda m: m.get("idle"))["idle"] == "off"
    client.send(t="export", board="analysis")
    out = client.expect("export")
    assert out["record"] is None and "1. c3c7 {0.000s} a9c9" in out["pgn"].replace("\n", " ")
    for message, said in (({"t": "analysis_goto", "ply": "x"}, "ply is a whole number"),
                          ({"t": "analysis_load", "position": "hari zz"}, "position"),
                          ({"t": "analysis_load", "position": "hari -/- 333334444555667/333334444555667 d -",
                            "moves": ["a0a9"]}, "move 1 'a0a9'"),
                          ({"t": "analysis_settings", "lines": 9}, "lines: 1 to 5"),
                          ({"t": "analysis_settings", "engine": "/bin/sh"}, "no engine named"),
                          ({"t": "analysis_step", "word": "zz"}, "not one of the steps offered")):
        client.send(**message)
        error = client.expect("error")
        assert error["board"] == "analysis" and said in error["text"], (message, error)
    client.close()
