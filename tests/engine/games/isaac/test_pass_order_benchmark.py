"""benchmarks/isaac_pass_order.py: the fight for ISAAC's first pass solved exactly, and read from records.

The position: every row full but row 9, where a9-f9 are empty (g9-j9 hold a Dark 4); both sides have a 3 in
hand, Light to move. A 3 at either end of the gap leaves a 3-cell hole: the opponent fills it and the mover
passes first. Anything else leaves no room for a 3: the opponent passes first.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from protocol.games.isaac.rules import IsaacGame
from referee.formats.record import GameRecord, MoveRecord
from referee.formats.terminations import Termination
from tests.support.paths import BENCHMARKS

_spec = importlib.util.spec_from_file_location("isaac_pass_order", BENCHMARKS / "isaac_pass_order.py")
assert _spec is not None and _spec.loader is not None
pass_order = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(pass_order)

DARK = "g9j9,a0f0,g1j1,a2e2,a3e3,a4e4,a5d5,h5j5,e6g6,a7d7,h7j7,e8g8"
LIGHT = "g0j0,a1f1,f2j2,f3j3,f4j4,e5g5,a6d6,h6j6,e7g7,a8d8,h8j8"
GAP = f"isaac {DARK}/{LIGHT} 367/3467 l - place 0/0"


def test_the_side_that_cannot_place_has_won_the_fight() -> None:
    game = IsaacGame.from_position(GAP)
    game.play("a9c9")
    game.play("d9f9")  # Dark fills the hole; Light has nothing that fits
    assert pass_order.PassOrderSolver(10).wins(game)


def test_only_the_moves_that_leave_the_opponent_the_last_hole_win_the_fight() -> None:
    game = IsaacGame.from_position(GAP)
    assert pass_order.PassOrderSolver(1000).wins(game)
    winning = []
    for move in list(game.legal_moves()):
        game.push(move)
        if not pass_order.PassOrderSolver(1000).wins(game):
            winning.append(str(move))
        game.pop()
    assert sorted(winning) == ["a9c9", "d9f9"]
    assert game.position() == IsaacGame.from_position(GAP).position()  # the search left the game as it was


def test_a_fight_past_the_budget_is_reported_as_such() -> None:
    with pytest.raises(pass_order.OverBudget):
        pass_order.PassOrderSolver(2).wins(IsaacGame.from_position(GAP))


def test_records_are_read_up_to_the_first_pass(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    moves = ["b9e9", "pass", "pass"]  # Light's 4 leaves two cells: Dark passes first, then Light
    game = IsaacGame.from_position(GAP)
    for move in moves:
        game.play(move)
    record = GameRecord(game_id=3, game_type="isaac", rules_version="1", start_position=GAP, opening=[],
                        dark={"name": "search", "cmd": ["x"]}, light={"name": "other", "cmd": ["x"]},
                        time_control={"dark": "nodes=1", "light": "nodes=1"}, moves=[MoveRecord(m, 1) for m in moves],
                        result="1-0", termination=Termination.ADJUDICATION, reason="test", final_scores=[],
                        final_position=game.position()).to_json()
    start, played, first = pass_order.placement_moves(record)
    assert (played, first) == (["b9e9"], 0)
    path = tmp_path / "records.jsonl"
    path.write_text(json.dumps(record) + "\n")
    monkeypatch.setattr(sys, "argv", ["isaac_pass_order.py", str(path), "--plies", "1"])
    pass_order.main()
    out = capsys.readouterr().out
    assert "search won, it passing first: 1" in out
    assert "fight lost by other: 1" in out  # Light could have won it with a9c9 or d9f9
