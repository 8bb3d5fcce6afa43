"""Size and build time of report.html for a large run, without engines.

    python benchmarks/report_size.py --games 1000 --game hari

Plays `--games` seeded random games of one game with the rules alone, builds
report.html the way ``isaac-referee report`` does (every game counted, the latest
and the forfeits embedded in the viewer, at most 2 MB), and prints the games,
plies, the games embedded and their distinct SVG parts, the page size and the
build time.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from protocol import new_game
from referee.results.report import ReportBuilder


def random_record(game_type: str, game_id: int, rng: random.Random) -> dict[str, object]:
    game = new_game(game_type)
    start = game.position()
    moves = []
    while not game.is_over():
        move = game.random_move(rng)
        assert move is not None
        game.push(move)
        moves.append({"move": str(move), "ms": 1})
    result = game.result()
    assert result is not None
    names = ("alpha", "beta", "gamma", "delta")
    return {"game_id": game_id, "game_type": game_type, "rules_version": "1", "start_position": start,
            "opening": [], "dark": {"name": names[game_id % 4]}, "light": {"name": names[(game_id + 1) % 4]},
            "moves": moves, "result": result.text, "termination": "normal", "reason": result.reason,
            "final_scores": list(result.scores), "final_position": game.position()}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--game", choices=("isaac", "foundations", "hari"), default="hari")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    rng = random.Random(args.seed)
    records = [random_record(args.game, i, rng) for i in range(args.games)]
    plies = sum(len(r["moves"]) for r in records)  # type: ignore[arg-type]
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        builder = ReportBuilder("benchmark")
        for record in records:
            builder.add(record)
        t1 = time.perf_counter()
        path = builder.write(Path(tmp))
        t2 = time.perf_counter()
        size = path.stat().st_size
        table, shown = builder.drawings.draw(builder.shown.records())
        raw = sum(len(p) for p in table.parts)
    print(f"{args.game}: {args.games} games, {plies} plies; {len(shown)} games embedded, {len(table.parts)} "
          f"distinct parts ({raw / 1e6:.1f} MB raw)")
    print(f"report.html {size / 1e6:.2f} MB; counting {t1 - t0:.2f} s, drawing and writing {t2 - t1:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
