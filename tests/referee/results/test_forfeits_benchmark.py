"""benchmarks/forfeits.py reads what it reports from game records: the forfeited move's time (the
record's forfeited_move, else the reason of an older record), and what the engine's clock could not see."""

from __future__ import annotations

import importlib.util

from tests.support.paths import BENCHMARKS

_spec = importlib.util.spec_from_file_location("forfeits", BENCHMARKS / "forfeits.py")
assert _spec is not None and _spec.loader is not None
forfeits = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(forfeits)

LAST_INFO = "info depth 3 seldepth 3 time 66 nodes 12195 pv d9j9^2 pass pass"
LOST = {"dark": {"name": "heuristic"}, "light": {"name": "search"}, "opening": ["a7a9", "h0j0"],
        "moves": [{"move": "a0c0", "ms": 9}, {"move": "g9j9", "ms": 70, "info": {"time": 64}},
                  {"move": "a1a3", "ms": 8, "info": {"depth": 1}}],
        "result": "1-0", "termination": "time forfeit",
        "reason": "Light (search) exceeded its time by 59 ms (answered 'd9j9^2' after 159 ms; 100 ms allowed)",
        "forfeited_move": {"ms": 161, "allowed_ms": 100, "move": "d9j9^2",
                           "info": [{"ms": 30, "text": "info depth 1 time 29"}, {"ms": 159, "text": LAST_INFO}]}}


def test_the_forfeited_moves_time_comes_from_the_record_else_from_the_reason():
    assert forfeits.forfeited_ms(LOST) == (161, 100)
    older = {key: value for key, value in LOST.items() if key != "forfeited_move"}
    assert forfeits.forfeited_ms(older) == (159, 100)
    assert forfeits.forfeited_ms({**older, "reason": "Light (search) crashed"}) is None


def test_what_passed_outside_the_engines_clock_is_read_from_its_last_info():
    text = forfeits.outside_engine_clock(LOST)
    assert text is not None and "said 66 ms" in text and "at 159 ms" in text and "93 ms passed outside" in text
    no_time = {"forfeited_move": {"ms": 200, "info": [{"ms": 5, "text": "info string thinking"}]}}
    assert forfeits.outside_engine_clock(no_time) is None
    assert forfeits.outside_engine_clock({"forfeited_move": {"ms": 200, "info": []}}) is None
    assert forfeits.outside_engine_clock({}) is None


def test_engine_lag_pairs_the_engines_own_time_with_the_referees_of_its_moves_only():
    assert forfeits.engine_lag(LOST, "search") == [(64, 6)]   # the move with a time; not the opponent's
    assert forfeits.engine_lag(LOST, "nobody") == []
