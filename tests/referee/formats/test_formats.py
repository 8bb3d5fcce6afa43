"""Time controls (SPEC 10.1) read and written back, and the game record (SPEC 10.4) round trip."""

from __future__ import annotations

import json
import re

import pytest

from referee.formats.record import GameRecord, MoveRecord
from referee.formats.timecontrol import TimeControl

# -- time controls -----------------------------------------------------------


@pytest.mark.parametrize("text,fields,canonical", [
    ("10+0.1", dict(base_ms=10000, inc_ms=100), "10+0.1"),
    ("40/60+0.5", dict(base_ms=60000, inc_ms=500, moves=40), "40/60+0.5"),
    ("st=0.1", dict(movetime_ms=100), "movetime=100"),
    ("movetime=100", dict(movetime_ms=100), "movetime=100"),
    ("movetime=100ms", dict(movetime_ms=100), "movetime=100"),
    ("depth=4", dict(depth=4), "depth=4"),
    ("nodes=5000", dict(nodes=5000), "nodes=5000"),
    ("inf", dict(), "inf"),
    ("inf depth=4", dict(depth=4), "depth=4"),
    ("5+0.05 margin=100", dict(base_ms=5000, inc_ms=50, margin_ms=100), "5+0.05 margin=100"),
    ("tc=1.5", dict(base_ms=1500), "1.5"),
])
def test_time_control_parse_and_round_trip(text, fields, canonical):
    tc = TimeControl.parse(text)
    assert tc == TimeControl(**fields)
    assert str(tc) == canonical
    assert TimeControl.parse(str(tc)) == tc


@pytest.mark.parametrize("text,fragment", [
    ("", "empty"), ("abc", "not understood"), ("depth=0", "at least 1"), ("depth=x", "whole number"),
    ("st=-1", "non-negative"), ("st=abc", "number of seconds"), ("10+0.1 10+0.1", "given twice"), ("speed=3", "unknown setting"),
    ("0+1", "more than 0"), ("movetime=0", "more than 0"), ("movetime=fast", "milliseconds"),
])
def test_time_control_errors_say_what_is_wrong(text, fragment):
    with pytest.raises(ValueError, match=re.escape(fragment)):
        TimeControl.parse(text)


# -- records -------------------------------------------------------------------

def test_record_round_trip_and_validation():
    rec = GameRecord(7, "hari", "1", "hari -/- 333334444555667/333334444555667 d -", [], {"name": "a"},
                     {"name": "b"}, {"dark": "10", "light": "10"}, [MoveRecord("a0a2", 12, {"depth": 3})],
                     "0-1", "time forfeit", "Dark (a) exceeded its time by 5 ms", [], "x", pair=3)
    again = GameRecord.from_json(json.loads(json.dumps(rec.to_json())) | {"future_key": 1})
    assert again == rec and again.winner_name() == "b" and again.is_forfeit()
    with pytest.raises(ValueError):
        GameRecord(**{**rec.__dict__, "termination": "resigned"})
    with pytest.raises(ValueError):
        GameRecord(**{**rec.__dict__, "result": "2-0"})
