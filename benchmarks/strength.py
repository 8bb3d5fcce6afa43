"""Strength of Strategy search against greedy or random, played in-process.

    python benchmarks/strength.py [--games N] [--movetime MS] [--opponent greedy|random]
                                  [--game isaac|foundations|hari|all] [--jobs J] [--seed S]

Each game type gets N games (colours alternate: search is Dark in even games);
both strategies are called exactly as the engine calls them: a private copy of
the game, the Limits of `go movetime MS` (with the default MoveOverhead), a stop
event and a seeded generator per player and game. As in the engine, a position
whose only legal move is `pass` is answered without asking the strategy.

Prints per game type: wins/draws/losses of search, its score (win 1, draw 1/2)
in percent with a 95% Wilson interval on game points, the average final scores
and search's moves that took longer than movetime (wall clock; the slowest also in
CPU time, to tell a slow search from a busy machine).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.strategies import Limits, make_strategy
from protocol import new_game
from protocol.moves import PASS

GAMES = ("isaac", "foundations", "hari")


@dataclass
class GameOutcome:
    game: str
    index: int
    search_color: int
    points: float          # search's game points: 1, 0.5 or 0
    scores: tuple           # (search's score, opponent's score) in the game's own measure
    slowest_ms: float       # search's slowest move (wall clock)
    slowest_cpu_ms: float   # the most CPU time search's thread spent on one move
    late_moves: int         # search moves that took longer than movetime (wall clock)
    search_moves: int
    reason: str


def play_one(game_name: str, index: int, opponent: str, movetime: int, seed: int) -> GameOutcome:
    """One game: search against `opponent`, search Dark when index is even."""
    search_color = index % 2
    players = {search_color: make_strategy("search"), 1 - search_color: make_strategy(opponent)}
    rngs = {c: random.Random(f"{seed}:{game_name}:{index}:{c}") for c in (0, 1)}
    limits = Limits(movetime=movetime)
    game = new_game(game_name)
    slowest, slowest_cpu, late, moves = 0.0, 0.0, 0, 0
    while not game.is_over():
        if next(game.legal_moves()) is PASS:
            game.push(PASS)
            continue
        mover = game.turn
        start, start_cpu = time.perf_counter(), time.thread_time()
        move = players[mover].choose(game.copy(), limits, threading.Event(), _ignore, rngs[mover])
        elapsed = (time.perf_counter() - start) * 1000
        if mover == search_color:
            slowest = max(slowest, elapsed)
            slowest_cpu = max(slowest_cpu, (time.thread_time() - start_cpu) * 1000)
            late += elapsed > movetime
            moves += 1
        game.play(move)
    result = game.result()
    if result.winner is None:
        points = 0.5
    else:
        points = 1.0 if result.winner == search_color else 0.0
    scores = (result.scores[search_color], result.scores[1 - search_color])
    return GameOutcome(game_name, index, search_color, points, scores, slowest, slowest_cpu, late,
                       moves, result.reason)


def _ignore(_info) -> None:
    pass


def wilson(points: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a proportion of `points` out of `n` games."""
    if n == 0:
        return 0.0, 1.0
    p = points / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def summarize(game_name: str, outcomes: list[GameOutcome], opponent: str, movetime: int) -> str:
    n = len(outcomes)
    wins = sum(1 for o in outcomes if o.points == 1)
    draws = sum(1 for o in outcomes if o.points == 0.5)
    losses = n - wins - draws
    points = sum(o.points for o in outcomes)
    lo, hi = wilson(points, n)
    mine = sum(o.scores[0] for o in outcomes) / max(1, n)
    theirs = sum(o.scores[1] for o in outcomes) / max(1, n)
    slowest = max((o.slowest_ms for o in outcomes), default=0.0)
    slowest_cpu = max((o.slowest_cpu_ms for o in outcomes), default=0.0)
    moves = sum(o.search_moves for o in outcomes)
    late = sum(o.late_moves for o in outcomes)
    return (f"{game_name:<12} vs {opponent:<7} movetime {movetime} ms: {n} games  "
            f"+{wins} ={draws} -{losses}  score {100 * points / max(1, n):.1f}% "
            f"[95% {100 * lo:.1f}%, {100 * hi:.1f}%]  avg final {mine:.1f} to {theirs:.1f}  "
            f"search moves {moves}, over movetime {late}, slowest {slowest:.0f} ms "
            f"(cpu {slowest_cpu:.0f} ms)")


def _run(args) -> GameOutcome:
    """play_one, with any exception turned into a lost game (exceptions may not pickle)."""
    try:
        return play_one(*args)
    except Exception as exc:
        game_name, index = args[0], args[1]
        return GameOutcome(game_name, index, index % 2, 0.0, (0, 0), 0.0, 0.0, 0, 0,
                           f"error: {type(exc).__name__}: {exc}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300, help="games per game type (default 300)")
    parser.add_argument("--movetime", type=int, default=100, help="ms per move (default 100)")
    parser.add_argument("--opponent", choices=("greedy", "random"), default="greedy")
    parser.add_argument("--game", choices=GAMES + ("all",), default="all")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once (processes)")
    parser.add_argument("--seed", type=int, default=1, help="base seed of the players' generators")
    parser.add_argument("--losses", action="store_true", help="print each game search did not win")
    args = parser.parse_args(argv)
    games = GAMES if args.game == "all" else (args.game,)
    for game_name in games:
        tasks = [(game_name, i, args.opponent, args.movetime, args.seed) for i in range(args.games)]
        start = time.time()
        if args.jobs > 1:
            with ProcessPoolExecutor(max_workers=args.jobs) as pool:
                outcomes = list(pool.map(_run, tasks, chunksize=1))
        else:
            outcomes = [_run(t) for t in tasks]
        print(summarize(game_name, outcomes, args.opponent, args.movetime)
              + f"  ({time.time() - start:.0f} s)", flush=True)
        if args.losses:
            for o in outcomes:
                if o.points < 1:
                    print(f"    game {o.index} (search {'Dark' if o.search_color == 0 else 'Light'}): "
                          f"{o.scores[0]}-{o.scores[1]} {o.reason}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
