"""The engine's behaviour signature: every strategy's answer on fixed positions, through the protocol.

A reorganisation must change no move. This script asks `python -m engine` (from the checkout
given, through its stdin/stdout, so it measures whatever layout the code has) for each
strategy's `bestmove` on 35 fixed positions (the bench's seven, then positions reached by
seeded random play in each game) at a fixed node count and Seed, and prints one line per
answer and a digest of them all. Two checkouts that print the same digest play the same moves
on these positions.

    python benchmarks/signature.py                 # this checkout
    python benchmarks/signature.py --repo /other/checkout --out after.txt
    diff before.txt after.txt
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from protocol import new_game  # noqa: E402
from protocol.game import Game  # noqa: E402
from protocol.moves import PASS, Move  # noqa: E402

STRATEGY_NODES = {"search": 1500, "heuristic": 1, "flatmc": 300, "fastmc": 20_000, "greedy": 1, "random": 1}
"""Each strategy's `go nodes N`: small enough to run in a minute, large enough to search."""
SEED = 4242
PER_GAME = 9
"""Positions a game from seeded random play (with the bench's seven and HARI's Light start: 35)."""
STOPS = (2, 4, 7, 11)
"""The plies of one random game where positions are taken (random games end early: several games)."""


def bench_positions(repo: Path) -> list[str]:
    """The bench's positions, read from the checkout (they are data, not code)."""
    text = (repo / "engine" / "bench.py").read_text()
    start = text.index("BENCH_POSITIONS")
    namespace: dict[str, object] = {}
    block = text[start:text.index(")\n", start) + 2]
    exec(block.replace("tuple[str, ...]", "object"), namespace)
    return list(namespace["BENCH_POSITIONS"])  # type: ignore[call-overload]


def played_positions() -> list[str]:
    """Positions reached by seeded random play from each game's start (never over), PER_GAME a game."""
    found: list[str] = []
    for name in ("isaac", "foundations", "hari"):
        mine: list[str] = []
        for round_ in range(100):
            rng = random.Random(f"{SEED}-{name}-{round_}")
            game = new_game(name)
            for ply in range(max(STOPS) + 1):
                if game.is_over() or len(mine) == PER_GAME:
                    break
                if ply in STOPS and ply >= 2 * round_ % 3:
                    mine.append(game.position())
                game.push(_random_play(game, rng))
            if len(mine) == PER_GAME:
                break
        found += mine
    found.append("hari -/- 333334444555667/333334444555667 l -")
    return found


def _random_play(game: Game, rng: random.Random) -> Move:
    """A random legal move, not a pass where another move exists (random passes end games at once)."""
    for _ in range(20):
        move = game.random_move(rng)
        if move is not None and move != PASS:
            return move
    return PASS


def answers(repo: Path, positions: list[str]) -> list[str]:
    """`strategy position -> bestmove` lines, from one engine process per strategy (each `go` awaited)."""
    env = dict(os.environ, PYTHONPATH=str(repo))
    lines: list[str] = []
    for strategy, nodes in STRATEGY_NODES.items():
        engine = subprocess.Popen([sys.executable, "-m", "engine"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, cwd=repo, env=env)
        assert engine.stdin is not None and engine.stdout is not None
        send, read = engine.stdin, engine.stdout
        for position in positions:
            for command in (f"setoption name UCI_Variant value {position.split()[0]}",
                            f"setoption name Strategy value {strategy}", f"setoption name Seed value {SEED}",
                            "ucinewgame", f"position fen {position}", f"go nodes {nodes}"):
                send.write(command + "\n")
            send.flush()
            while not (line := read.readline()).startswith("bestmove"):
                if not line:
                    raise SystemExit(f"{strategy}: the engine ended before answering {position}")
            lines.append(f"{strategy} {position} -> {line.split()[1]}")
        send.write("quit\n")
        send.close()
        engine.wait(timeout=30)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", type=Path, default=REPO, help="the checkout whose engine answers")
    parser.add_argument("--out", type=Path, help="also write the answers here")
    args = parser.parse_args()
    positions = bench_positions(args.repo) + played_positions()
    lines = answers(args.repo, positions)
    digest = hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]
    if args.out:
        args.out.write_text("\n".join(lines) + "\n")
    for line in lines:
        print(line)
    print(f"{len(lines)} answers on {len(positions)} positions, digest {digest}")


if __name__ == "__main__":
    main()
