"""Broken claims: a reported certain result (SPEC 9.5: `score cp 100`, `-100`, or `0` with `wdl 0 1000 0`)
that the game did not bear out.

    python benchmarks/claims.py RUN_DIR [RUN_DIR ...]

Reads each run's records.jsonl (a run of `isaac-referee match`/`tournament`, for example one of
benchmarks/strength.py), replays every game to know who made each move, and for every move
whose last `info` line claimed a certain result checks it against the game's end: a claimed win
must be won by the mover, a claimed loss lost, a claimed draw drawn. Games ended by the referee
(forfeits, adjudication) are counted apart: their end says nothing of the board. Prints, per
engine, the moves with a claim, the claims broken (each with the game and move) and the games.
The target (issue 37): no broken claim in 1,000 games.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from protocol import game_from_position
from referee.formats.record import GameRecord
from referee.formats.terminations import Termination
from referee.results.store import read_records_file


def claim_of(info: dict[str, object] | None) -> int | None:
    """1, 0 or -1 when the info line claims a certain win, draw or loss for the mover; else None."""
    if not info:
        return None
    cp, wdl = info.get("score_cp"), info.get("wdl")
    if cp == 100:
        return 1
    if cp == -100:
        return -1
    if cp == 0 and wdl is not None and list(wdl) == [0, 1000, 0]:  # type: ignore[call-overload]
        return 0
    return None


def check_game(record: GameRecord, claims: Counter[str], broken: list[str], counted: Counter[str]) -> None:
    """Count the claims of one game's moves and add the broken ones to `broken`."""
    names = (str(record.dark.get("name")), str(record.light.get("name")))
    normal = record.termination == Termination.NORMAL
    for name in names:
        counted[name] += 1
    if not normal:
        return
    game = game_from_position(record.start_position)
    for text in record.opening:
        game.play(text)
    winner = record.winner
    for ply, move in enumerate(record.moves, 1):
        mover = game.turn
        claim = claim_of(move.info)
        if claim is not None:
            claims[names[mover]] += 1
            outcome = 0 if winner is None else (1 if winner == mover else -1)
            if outcome != claim:
                said = {1: "a certain win", 0: "a certain draw", -1: "a certain loss"}[claim]
                broken.append(f"{names[mover]}: game {record.game_id} ply {ply} ({move.move}) claimed {said}; "
                              f"the game ended {record.result}")
        game.play(move.move)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=Path, help="run directories (each with records.jsonl)")
    args = parser.parse_args(argv)
    claims: Counter[str] = Counter()
    counted: Counter[str] = Counter()
    broken: list[str] = []
    for run in args.runs:
        records, _ = read_records_file(run / "records.jsonl")
        for data in records:
            check_game(GameRecord.from_json(data), claims, broken, counted)
    for name in sorted(counted):
        mine = [b for b in broken if b.startswith(f"{name}:")]
        print(f"{name}: {counted[name]} games, {claims[name]} moves claimed a certain result, {len(mine)} broken")
    for line in broken:
        print("  broken:", line)
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
