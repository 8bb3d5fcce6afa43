"""The whole season in the referee's own formats: records.jsonl (one record per line, game-id order)
and games.pgn, written a game at a time, so `isaac-referee report`, `export-pgn` and the ratings
work on it as on any run directory.

Each record is the referee's (SPEC 10.4), as the ladder's game produced it: engines are named
`bot-vN`, `pair` is the ladder pair and `round` is 1. A `config.json` is not written: the ladder
has no fixed schedule, so `--resume` does not apply to an export.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from sqlalchemy.engine import Engine

from referee.results.pgn import write_pgn

from ..db.results import all_records


def export_season(engine: Engine, out_dir: Path, event: str) -> int:
    """Write out_dir/records.jsonl and out_dir/games.pgn; the number of games."""
    out_dir.mkdir(parents=True, exist_ok=True)
    records_path, pgn_path = out_dir / "records.jsonl", out_dir / "games.pgn"
    count = 0
    with open(records_path.with_suffix(".tmp"), "w", encoding="utf-8") as out:
        for record in all_records(engine):
            out.write(json.dumps(record, separators=(",", ":")) + "\n")
            count += 1
    os.replace(records_path.with_suffix(".tmp"), records_path)
    with open(pgn_path.with_suffix(".tmp"), "w", encoding="utf-8") as out:
        write_pgn(all_records(engine), out, event=event)
    os.replace(pgn_path.with_suffix(".tmp"), pgn_path)
    return count
