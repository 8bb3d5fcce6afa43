"""A game of the page written as the referee writes games: a record line the referee's own reader
accepts (finished games only) and PGN (with `*` while the game goes on)."""

from __future__ import annotations

import json
import random

from gui.export import GameLine, export
from protocol import new_game
from protocol.state import state_fields
from referee.engines.process import EngineSpec
from referee.results.store import check_record_line

SPECS = {"search": EngineSpec(name="search", cmd=["python", "-m", "engine"], options={"Strategy": "search"})}


def _line(plies: int | None, seed: int = 3) -> GameLine:
    game, rng = new_game("hari"), random.Random(seed)
    start = state_fields(game.state())
    states, moves = [], []
    while not game.is_over() and (plies is None or len(moves) < plies):
        move = game.random_move(rng)
        game.push(move)
        moves.append(str(move))
        states.append(state_fields(game.state()))
    return GameLine(start=start, states=states, moves=moves, sides=("human", "search"), tc="300+3",
                    ms=[1200] * len(moves), infos=[None, {"depth": 4, "score_cp": 12}] + [None] * len(moves))


def test_a_finished_game_is_a_record_line_the_referee_reads_and_pgn():
    line = _line(None)
    final = line.states[-1]
    line.result = {"result": final["result"], "termination": final["termination"], "reason": final["reason"]}
    out = export(line, SPECS)
    record = check_record_line(out["record"].encode(), "exported")
    assert isinstance(record, dict), record
    assert record["moves"][1] == {"move": line.moves[1], "ms": 1200, "info": {"depth": 4, "score_cp": 12}}
    assert record["termination"] == "normal" and record["final_position"] == final["position"]
    assert record["dark"]["name"] == "human" and record["light"]["cmd"] == ["python", "-m", "engine"]
    assert "\n" not in out["record"] and json.loads(out["record"]) == record
    assert '[Dark "human"]' in out["pgn"] and out["pgn"].rstrip().endswith(final["result"])
    assert f"1. {line.moves[0]}" in out["pgn"]


def test_a_forfeit_keeps_its_termination_and_has_no_scores():
    line = _line(6)
    line.result = {"result": "0-1", "termination": "time forfeit", "reason": "Dark (human) ran out of time"}
    record = check_record_line(export(line, SPECS)["record"].encode(), "exported")
    assert isinstance(record, dict), record
    assert (record["result"], record["termination"], record["final_scores"]) == ("0-1", "time forfeit", [])


def test_an_unfinished_game_has_pgn_only():
    out = export(_line(4), SPECS)
    assert out["record"] is None and "not finished" in out["why"]
    assert out["pgn"].rstrip().endswith("*") and '[Result "*"]' in out["pgn"]
