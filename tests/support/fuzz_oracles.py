"""Fuzz targets shared by the fast property tests (tests/protocol/test_fuzz.py) and the long fuzz command
(benchmarks/fuzz.py): for each entry point, a hypothesis strategy of inputs and an oracle that
raises AssertionError when the answer breaks the contract (a crash, an error outside the
documented ones, a column outside the text, a bad input accepted, a record altered).
"""

from __future__ import annotations

import json
import random
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from protocol import GAME_NAMES, game_from_position, new_game
from protocol.errors import ArenaError, NotationError, PositionError
from protocol.messages import (
    ProtocolError,
    parse_engine_line,
    parse_go,
    parse_position_command,
    parse_setoption,
)
from protocol.notation import parse_move

# -- inputs -------------------------------------------------------------------------------------

ODD = ["\t", " ", "\x0b", "\x0c", "\x1c", "\x85", "\u00a0", "\u2028", "\u3000", "\x00", "\ufffd", "５",
       "１０", "-", "/", ",", ">", "^", ":", "x", "off", "pass", "e", "+", "."]
MOVE_BITS = ["c3c7", "a0a2", "j9j3", "d4d8>d5d9", "b2e2>off", "x3", "x8", "c3c7^2", "c3c7^0", "xc3c7:36",
             "pass", "a0a9", "c3", "c3c7:", "d4d8>", ",", "^", "99999999999999999999"]
WORDS = ["go", "perft", "depth", "nodes", "movetime", "wtime", "btime", "winc", "movestogo", "infinite",
         "position", "startpos", "fen", "moves", "setoption", "name", "value", "Seed", "Strategy",
         "UCI_Variant", "isready", "stop", "d", "uci", "ucinewgame", "debug", "on", "-0", "0", "1", "3",
         "-1", "2147483648", "9" * 30, "1" + "0" * 400, "isaac", "hari", "foundations", "random"]


def _texts(bits: list[str]) -> st.SearchStrategy[str]:
    piece = st.sampled_from(bits + ODD) | st.text(max_size=6)
    return st.lists(piece, max_size=8).map("".join)


def _start_positions() -> list[str]:
    out = []
    for name in GAME_NAMES:
        game = new_game(name)
        out.append(game.position())
        rng = random.Random(len(name))
        for _ in range(6):
            moves = list(game.legal_moves())
            if not moves:
                break
            game.push(rng.choice(moves))
        out.append(game.position())
    return out


POSITIONS = _start_positions()


def _mutated(base: list[str]) -> st.SearchStrategy[str]:
    """A known-good text with a few characters replaced, inserted or deleted."""
    @st.composite
    def build(draw: st.DrawFn) -> str:
        text = draw(st.sampled_from(base))
        for _ in range(draw(st.integers(0, 4))):
            at = draw(st.integers(0, len(text)))
            kind = draw(st.integers(0, 2))
            piece = draw(st.sampled_from(ODD) | st.text(max_size=3))
            text = text[:at] + piece + text[at + (kind > 0):] if kind < 2 else text[:at] + text[at + 1:]
        return text
    return build()


def _column_ok(exc: NotationError, text: str) -> None:
    assert 1 <= exc.column <= len(text) + 1, f"column {exc.column} outside {text!r} ({exc})"
    assert "found end of text, found end of text" not in exc.message, str(exc)


# -- oracles ---------------------------------------------------------------------------------------

def check_move_text(case: tuple[str, str]) -> None:
    """parse_move: a Move that round-trips, or NotationError with its column inside the text."""
    game, text = case
    try:
        move = parse_move(game, text)
    except NotationError as exc:
        _column_ok(exc, text)
        return
    again = parse_move(game, str(move))
    assert str(again) == str(move), (text, move, again)
    assert all(c not in text.strip(" \t") for c in " \t\x0b\x0c\u00a0"), f"blank inside accepted move {text!r}"


def check_position_text(text: str) -> None:
    """game_from_position: a game whose position parses back to itself, or PositionError inside the text."""
    try:
        game = game_from_position(text)
    except NotationError as exc:
        _column_ok(exc, text)
        return
    assert game_from_position(game.position()).position() == game.position()


def check_protocol_line(line: str) -> None:
    """The message parsers raise only ProtocolError, with the column inside the line."""
    for parse in (parse_go, parse_position_command, parse_setoption, parse_engine_line):
        try:
            parse(line)
        except ProtocolError as exc:
            assert 1 <= exc.column <= len(line) + 1, (parse.__name__, line, exc)


def check_engine_lines(lines: list[str]) -> None:
    """The command loop: each line gets at most one error line, never an internal error; every
    accepted `go` gets exactly one bestmove; `isready` still answers at the end."""
    from tests.support.inprocess_engine import InProcessEngine
    eng = InProcessEngine()
    try:
        eng.send("setoption name Strategy value random")
        for line in lines:
            eng.send(line)
            if eng.engine.job.busy:
                eng.send("stop")
            eng.engine.job.wait(30)
            out = eng.drain()
            errors = [t for t in out if t.startswith("info string error")]
            assert len(errors) <= 1, (line, out)
            word = line.strip(" \t").replace("\t", " ").split(" ")[0]
            if word and word not in eng.engine.commands:
                assert errors and "unknown command" in errors[0], (line, out)
            assert not any("internal error" in t or "failed (" in t for t in out), (line, out)
            assert len([t for t in out if t.startswith("bestmove")]) <= 1, (line, out)
        eng.send("isready")
        assert eng.drain()[-1:] == ["readyok"], lines
    finally:
        eng.close()


def check_time_control(text: str) -> None:
    """TimeControl.parse: ValueError (bounded text) or a control whose canonical text parses back."""
    from referee.formats.timecontrol import MAX_MS, TimeControl
    try:
        tc = TimeControl.parse(text)
    except ValueError as exc:
        assert len(str(exc)) < 1000, "error message not cut"
        return
    assert TimeControl.parse(str(tc)) == tc, (text, str(tc))
    for value in (tc.base_ms, tc.inc_ms, tc.movetime_ms, tc.margin_ms):
        assert value is None or 0 <= value <= MAX_MS


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value) if value == value and abs(value) != float("inf") else "nan"
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {_toml_value(v)}" for k, v in value.items()) + "}"
    return json.dumps(str(value))


JSONISH = st.recursive(st.none() | st.booleans() | st.integers(-(10**25), 10**25)
                       | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
                       lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                                   max_size=3), max_leaves=6)
ENGINE_KEYS = ["cmd", "args", "dir", "options", "tc", "memory_mb", "cpu_seconds", "sandbox", "writable",
               "readable", "memroy_mb"]


def check_engines_file(tables: dict[str, dict[str, Any]]) -> None:
    """build_engines over an engines file: a ConfigError, or engines whose every field is typed and bounded."""
    from referee.engines.config import ConfigError, build_engines
    from referee.formats.schema import MAX_CPU_SECONDS, MAX_MEMORY_MB
    body = "".join(f"[engines.{json.dumps(name)}]\n" + "".join(f"{k} = {_toml_value(v)}\n" for k, v in t.items())
                   for name, t in tables.items())
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "engines.toml"
        path.write_text(body, encoding="utf-8")
        try:
            specs = build_engines([], None, str(path))
        except ConfigError as exc:
            assert "\n" not in str(exc).strip() or "engines" in str(exc), str(exc)
            return
    for spec in specs:
        assert spec.cmd and all(isinstance(a, str) for a in spec.cmd), spec
        assert spec.memory_mb is None or 1 <= spec.memory_mb <= MAX_MEMORY_MB
        assert spec.cpu_seconds is None or 1 <= spec.cpu_seconds <= MAX_CPU_SECONDS
        assert all(isinstance(v, str) for v in spec.options.values())


VALID_RECORD: dict[str, Any] = {
    "game_id": 0, "game_type": "isaac", "rules_version": "1",
    "start_position": "isaac -/- 333334444555667/333334444555667 d - place 0/0", "opening": [],
    "dark": {"name": "a", "cmd": ["python", "-m", "engine"], "cwd": None, "options": {}, "tc": "10+0.1",
             "memory_mb": None, "cpu_seconds": None},
    "light": {"name": "b", "cmd": ["python", "-m", "engine"], "cwd": None, "options": {}, "tc": "10+0.1",
              "memory_mb": None, "cpu_seconds": None},
    "time_control": {"dark": "10+0.1", "light": "10+0.1"},
    "moves": [{"move": "c3c7", "ms": 5, "info": {"depth": 1}}], "result": "1-0", "termination": "crash",
    "reason": "Light crashed", "final_scores": [], "final_position": "x", "pair": 0, "round": 0,
    "started_at": "2026-01-01T00:00:00+00:00", "duration_s": 0.5,
}


@st.composite
def mutated_records(draw: st.DrawFn) -> list[bytes]:
    """A records file as lines: valid records, some with a field replaced or removed, some raw junk."""
    lines = []
    for game_id in range(draw(st.integers(1, 4))):
        record = json.loads(json.dumps(VALID_RECORD))
        record["game_id"] = game_id
        if draw(st.booleans()):
            key = draw(st.sampled_from(sorted(record)))
            if draw(st.booleans()):
                record[key] = draw(JSONISH)
            else:
                del record[key]
        raw = json.dumps(record).encode()
        if draw(st.integers(0, 5)) == 0:
            at = draw(st.integers(0, len(raw) - 1))
            raw = raw[:at] + draw(st.binary(max_size=3)).replace(b"\n", b"") + raw[at + 1:]
        lines.append(raw)
    return lines


def check_records(case: tuple[list[bytes], bool]) -> None:
    """read_records_file: every record it returns is valid and byte-identical in content to its line;
    a bad line anywhere but a torn last one raises StoreError; the file itself is never changed."""
    from referee.formats.schema import RecordModel
    from referee.results.store import StoreError, read_records_file
    lines, torn = case
    data = b"\n".join(lines) + (b"" if torn else b"\n")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "records.jsonl"
        path.write_bytes(data)
        try:
            records, keep = read_records_file(path)
        except StoreError as exc:
            assert "line " in str(exc), str(exc)
            assert path.read_bytes() == data
            return
        assert path.read_bytes() == data
    valid = []
    for raw in lines:
        try:
            valid.append(RecordModel.model_validate(json.loads(raw)))
        except ValueError:
            valid.append(None)
    bad = [i for i, v in enumerate(valid) if v is None and lines[i].strip()]
    assert not bad or (torn and bad == [len(lines) - 1]), (bad, torn)
    assert len(records) == len([v for v in valid if v is not None]), "a valid record was dropped"
    assert len({r["game_id"] for r in records}) == len(records), "a repeated game_id was accepted"
    assert keep == len(data) or (torn and bad), (keep, len(data))


def check_run_config(change: tuple[str, Any]) -> None:
    """config.json with one identity field replaced: SchemaError, or a config whose fields keep their types."""
    from referee.formats.schema import RunConfigModel, SchemaError, validate
    key, value = change
    config = {"version": 1, "identity": {
        "command": "match", "game": "hari", "games": 2, "format": None, "rounds": 1,
        "engines": [VALID_RECORD["dark"], VALID_RECORD["light"]], "seed": 5, "openings": {"kind": "none"},
        "max_plies": 1000, "sprt": None}, "openings": [{"start_position": None, "moves": []}],
        "openings_source": None, "created_at": ""}
    if key == "openings":
        config["openings"] = value
    else:
        config["identity"][key] = value
    try:
        model = validate(RunConfigModel, config, "config.json")
    except SchemaError as exc:
        assert str(exc).startswith("config.json: "), str(exc)
        return
    assert isinstance(model.identity.games, int) and model.identity.game in GAME_NAMES


IDENTITY_KEYS = ["command", "game", "games", "format", "rounds", "engines", "seed", "openings", "max_plies",
                 "sprt"]

TARGETS: dict[str, tuple[st.SearchStrategy[Any], Callable[[Any], None]]] = {
    "move": (st.tuples(st.sampled_from(GAME_NAMES), _texts(MOVE_BITS) | _mutated(MOVE_BITS)), check_move_text),
    "position": (_mutated(POSITIONS), check_position_text),
    "protocol": (st.lists(st.sampled_from(WORDS + ODD + MOVE_BITS), max_size=10).map(" ".join)
                 | st.text(max_size=40), check_protocol_line),
    "engine": (st.lists(st.lists(st.sampled_from(WORDS + MOVE_BITS + ["\t", "\x0b"]), min_size=1, max_size=7)
                        .map(" ".join).filter(lambda s: s.split()[:1] != ["quit"]), min_size=1, max_size=6),
               check_engine_lines),
    "tc": (_texts(["10", "+", "0.1", "40/", "st=", "movetime=", "depth=", "nodes=", "margin=", "tc=",
                   "inf", " ", "ms", "s", "1e306", "9" * 40]), check_time_control),
    "engines-file": (st.dictionaries(st.sampled_from(["a", "b", "c d"]),
                                     st.dictionaries(st.sampled_from(ENGINE_KEYS), JSONISH, max_size=4)
                                     .map(lambda t: {"cmd": "python -m engine", **t}),
                                     min_size=1, max_size=2), check_engines_file),
    "records": (st.tuples(mutated_records(), st.booleans()), check_records),
    "run-config": (st.tuples(st.sampled_from(IDENTITY_KEYS + ["openings"]), JSONISH), check_run_config),
}
"""name -> (inputs, oracle)."""

SEEDS: dict[str, list[Any]] = {
    "move": [("isaac", "\tc3c7 x"), ("isaac", "c3c7\x0b"), ("hari", "d4d8>d5d9,\ta0a2"), ("foundations", "c3c7^\t2")],
    "position": ["hari -/-\t 3/3", "hari -/-\t\t\t 3/3 d -x", "\thari\t-/-\t333334444555667/333334444555667\td\t-"],
    "protocol": ["go movetime " + "1" + "0" * 400, "go\x0bdepth 3", "position fen\t", "setoption name\tSeed"],
    "engine": [["isready\x0b"], ["\x0c"], ["go movetime " + "1" + "0" * 400], ["go wtime 99999999999999999999"],
               ["go perft 30"], ["go infinite", "isready"]],
    "tc": ["tc=" * 50 + "10", "１０+０.１", "st=1e306", "1" + "0" * 306, "movetime=" + "9" * 309, "10+0.1 tc=5"],
    "engines-file": [{"a": {"cmd": 5}}, {"a": {"cmd": "x", "args": "abc"}}, {"a": {"cmd": "x", "memory_mb": 1.5}},
                     {"a": {"cmd": "x", "dir": 5}}, {"a": {"cmd": [1, 2]}}, {"a": {"cmd": "x", "memory_mb": 10**20}}],
    "records": [([json.dumps({**VALID_RECORD, "game_id": True}).encode()], False),
                ([json.dumps({**VALID_RECORD, "result": "bogus"}).encode()], False),
                ([json.dumps(VALID_RECORD).encode(), b'{"game_id": 1'], True),
                ([json.dumps(VALID_RECORD).encode()] * 2, False),
                ([json.dumps(VALID_RECORD).encode()] * 2, True)],
    "run-config": [("games", "4"), ("game", "chess"), ("engines", []), ("openings", [{"moves": ["a0a9"]}])],
}
"""Known bad inputs (from issue 12), always tried first."""

assert ArenaError and PositionError  # documented error types of the parsers
