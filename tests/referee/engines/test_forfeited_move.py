"""Issue 9: a game lost during a `go` keeps what the referee saw of that move (`forfeited_move`):
the time it measured, the bestmove if any, and the engine's last `info` lines with their read times.
Real misbehaving engine processes (tests/engines/bad), as in test_engine_failures."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from protocol.board import DARK, LIGHT
from referee.formats.record import INFO_LINE_CHARS, INFO_LINES_KEPT, ForfeitedMove, GameRecord, InfoLine
from referee.formats.schema import RecordModel, SchemaError, validate
from tests.referee.engines.test_engine_failures import make_player, play

pytestmark = pytest.mark.slow


def stored(record: GameRecord) -> dict[str, Any]:
    """The record as records.jsonl holds it, checked against the schema and read back."""
    data: dict[str, Any] = json.loads(json.dumps(record.to_json()))
    validate(RecordModel, data, "records.jsonl, line 1")
    assert GameRecord.from_json(data) == record
    return data


def test_an_engine_that_reports_then_answers_late_keeps_its_info_lines_and_the_measured_time():
    # 5 info lines at once, then 300 ms of silence, then bestmove: 100 ms allowed, 50 ms margin
    record = play(make_player("info_then_late", "0.3", "5", stop_grace=1.0), DARK, "foundations",
                  tc="movetime=100")
    assert (record.termination, record.moves) == ("time forfeit", [])
    forfeited = record.forfeited_move
    assert forfeited is not None and forfeited.allowed_ms == 100 and forfeited.move is not None
    answered = re.search(r"answered '(\S+)' after (\d+) ms; 100 ms allowed", record.reason)
    assert answered is not None, record.reason
    assert (forfeited.move, forfeited.ms) == (answered[1], int(answered[2]))
    assert 300 <= forfeited.ms <= 1500
    texts = [line.text for line in forfeited.info]
    assert len(texts) == INFO_LINES_KEPT == 3
    assert texts[:2] == ["info depth 3 nodes 300 time 3", "info depth 4 nodes 400 time 4"]
    assert texts[2].startswith("info depth 5 nodes 500 time 5 string xxx") and len(texts[2]) == INFO_LINE_CHARS
    # read at once, long before the bestmove: the record shows the engine went silent for ~300 ms
    assert all(line.ms <= forfeited.ms - 250 for line in forfeited.info), forfeited
    assert stored(record)["forfeited_move"]["info"][0] == {"ms": forfeited.info[0].ms, "text": texts[0]}


def test_an_illegal_move_keeps_the_move_and_its_info_line():
    record = play("illegal_move", LIGHT, "isaac")
    assert record.termination == "illegal move"
    forfeited = record.forfeited_move
    assert forfeited is not None and forfeited.allowed_ms == 300
    assert forfeited.move == record.moves[0].move   # it copied Dark's move
    assert len(forfeited.info) == 1 and forfeited.info[0].text.endswith(f"pv {forfeited.move}")
    assert forfeited.info[0].ms <= forfeited.ms <= 300
    stored(record)


def test_a_hung_engine_keeps_how_long_the_referee_waited_and_no_move():
    record = play("hang_on_go", DARK, tc="movetime=100")
    assert record.termination == "stall"
    forfeited = record.forfeited_move
    assert forfeited is not None and (forfeited.move, forfeited.info, forfeited.allowed_ms) == (None, [], 100)
    assert forfeited.ms >= 150 + 300   # the deadline (margin included) and FAST's stop_grace
    stored(record)


@pytest.mark.parametrize("script", ["exit_at_startup", "good_random"])
def test_no_forfeited_move_outside_a_go(script):
    """A start-up failure happened before any `go`; a normal game has nothing forfeited: no key at all."""
    record = play(script, DARK)
    assert record.termination == ("start failure" if script == "exit_at_startup" else "normal")
    assert record.forfeited_move is None and "forfeited_move" not in stored(record)


OLD_RECORD = {"game_id": 3, "game_type": "isaac", "rules_version": "1", "start_position": "isaac", "opening": [],
              "dark": {"name": "a"}, "light": {"name": "b"}, "time_control": {"dark": "st=0.1", "light": "st=0.1"},
              "moves": [], "result": "0-1", "termination": "time forfeit",
              "reason": "Dark (a) exceeded its time by 9 ms (answered 'b2b6' after 159 ms; 100 ms allowed)",
              "final_scores": [], "final_position": "isaac"}
"""A record as the referee wrote it before forfeited_move existed."""


def test_records_written_before_forfeited_move_are_still_read():
    validate(RecordModel, OLD_RECORD, "old")
    assert GameRecord.from_json(OLD_RECORD).forfeited_move is None


def _with(forfeited: object, termination: str = "time forfeit") -> dict[str, Any]:
    return {**OLD_RECORD, "termination": termination, "forfeited_move": forfeited}


GOOD = {"ms": 159, "allowed_ms": 100, "move": "b2b6", "info": [{"ms": 97, "text": "info depth 2 time 96"}]}

BAD = {
    "in a game not forfeited": (_with(GOOD, "normal"), "expected it only when a forfeit ended the game"),
    "more lines than kept": (_with({**GOOD, "info": [GOOD["info"][0]] * (INFO_LINES_KEPT + 1)}),
                             "field forfeited_move.info"),
    "a line too long": (_with({**GOOD, "info": [{"ms": 1, "text": "x" * (INFO_LINE_CHARS + 1)}]}),
                        "field forfeited_move.info.0.text"),
    "ms as text": (_with({**GOOD, "ms": "159"}), "field forfeited_move.ms: found \"159\""),
    "negative ms": (_with({**GOOD, "ms": -1}), "field forfeited_move.ms"),
    "a line as text": (_with({**GOOD, "info": ["info depth 2"]}), "field forfeited_move.info.0"),
    "not an object": (_with([159]), "field forfeited_move"),
}


@pytest.mark.parametrize("case", BAD)
def test_a_bad_forfeited_move_is_one_schema_message(case):
    data, fragment = BAD[case]
    with pytest.raises(SchemaError) as error:
        validate(RecordModel, data, "records.jsonl, line 4")
    assert str(error.value).startswith("records.jsonl, line 4: ") and fragment in str(error.value), error.value


def test_a_good_forfeited_move_round_trips():
    validate(RecordModel, _with(GOOD), "good")
    record = GameRecord.from_json(_with(GOOD))
    assert record.forfeited_move == ForfeitedMove(159, 100, "b2b6", [InfoLine(97, "info depth 2 time 96")])
    assert record.to_json()["forfeited_move"] == GOOD


@pytest.mark.parametrize("case", ["not an object", "a line as text", "in a game not forfeited"])
def test_reading_a_bad_forfeited_move_without_the_schema_is_a_value_error(case):
    """Readers that skip the schema (report scoring) catch ValueError: never a crash of another kind."""
    with pytest.raises(ValueError):
        GameRecord.from_json(BAD[case][0])
