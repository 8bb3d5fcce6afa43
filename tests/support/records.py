"""Game records for statistics tests: only the fields that scoring reads vary, the rest is filler."""

from __future__ import annotations

from typing import Any

from referee.formats.record import GameRecord
from referee.formats.terminations import Termination


def make_record(dark: str, light: str, result: str, *, termination: str = "normal", pair: int | None = None,
                round_: int | None = 1, game_id: int = 0) -> GameRecord:
    return GameRecord(game_id=game_id, game_type="isaac", rules_version="1", start_position="", opening=[],
                      dark={"name": dark}, light={"name": light}, time_control={}, moves=[], result=result,
                      termination=Termination(termination), reason="", final_scores=[], final_position="",
                      pair=pair, round=round_)


def record_json(dark: str, light: str, result: str, **kw: Any) -> dict[str, Any]:
    """The same record as records.jsonl holds it."""
    return make_record(dark, light, result, **kw).to_json()
