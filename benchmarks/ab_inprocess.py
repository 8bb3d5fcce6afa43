"""Quick in-process A/B games between two move choosers, for trying search ideas before an SPRT.

    python benchmarks/ab_inprocess.py --game hari --a search --b plainmc --pairs 20 --ms 100 [--jobs 2]

Both players run in one process (one core per game pair, `--jobs` pairs at a
time), each given `go movetime MS` worth of Limits, from the shipped balanced
book (each opening once per colour) or, with `--openings startpos`, from the
start position (the seeds vary the games). No protocol, no referee, no time
forfeits: this screens ideas quickly; claims are made with `isaac-referee match
--sprt` (benchmarks/strength.py), never with this.

Players: any engine Strategy name (search, heuristic, flatmc, greedy, random;
`search+book` also answers from the engine's own opening book, as the engine does by default);
`plainmc` (a plain flat Monte-Carlo player: up to 40 sampled legal moves, uniformly
random playouts to the end, the best mean result); `placemc` (HARI: every slide-free
play a candidate, uniformly random slide-free playouts, UCB1). A player `name@MS`
thinks MS ms instead of --ms.

A variant of the search is its settings changed (engine/games/<game>/settings.py), written
after a colon: `search:hari.widths=((12,8),),foundations.mcts.c_puct=1.0`. Nothing
patches a module: the variant is a SearchStrategy built with those settings. The `fastmc`
partner takes its PlayoutSettings (engine/games/<game>/playout_core.py) the same way:
`fastmc:hari.jump=0.3,isaac.per_length=12`. Older
versions of the engine are measured through the referee (benchmarks/engine_at.sh).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import random
import sys
import threading
import time
from collections.abc import Callable
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.games.tuning import parse_changes
from engine.strategies import make_strategy
from engine.strategies.base import Limits, PlayOptions, Strategy
from engine.strategies.fast_mc import FastMCStrategy, playout_settings
from engine.strategies.search_strategy import SearchStrategy
from protocol import registry
from protocol.game import Game
from protocol.games.hari.rules import HariGame
from protocol.moves import PASS, Move

Chooser = Callable[[Game, int, random.Random], Move]

PLAIN_CANDIDATES = 40


def _playout_result(game: Game, move: Move, policy: Callable[[Game], Move], me: int) -> float:
    """`me`'s result (1, 1/2, 0) after `move` and `policy` to the end; the game is left as it was."""
    game.push(move)
    pushed = 1
    try:
        while not game.is_over():
            game.push(policy(game))
            pushed += 1
        res = game.result()
        assert res is not None  # the game is over
        return 0.5 if res.winner is None else float(res.winner == me)
    finally:
        for _ in range(pushed):
            game.pop()


def plain_mc(game: Game, ms: int, rng: random.Random) -> Move:
    """Flat Monte Carlo with uniform playouts (see the module docstring)."""
    deadline = time.monotonic() + ms / 1000.0
    if game.count_legal_moves() <= PLAIN_CANDIDATES:
        moves = list(game.legal_moves())
    else:
        seen: dict[str, Move] = {}
        for _ in range(PLAIN_CANDIDATES * 3):
            m = game.random_move(rng) or PASS
            seen.setdefault(str(m), m)
            if len(seen) >= PLAIN_CANDIDATES:
                break
        moves = list(seen.values())
    if len(moves) == 1:
        return moves[0]
    me = game.turn
    totals = [0.0] * len(moves)
    visits = [0] * len(moves)
    i = 0
    while time.monotonic() < deadline or i < len(moves):
        k = i % len(moves)
        totals[k] += _playout_result(game, moves[k], lambda g: g.random_move(rng) or PASS, me)
        visits[k] += 1
        i += 1
    best = max(range(len(moves)), key=lambda j: totals[j] / max(1, visits[j]))
    return moves[best]


def _random_placement(game: Game, rng: random.Random) -> Move:
    """A uniformly random slide-free HARI play: a playable length, then one of its placements (else its discard)."""
    from protocol.board import iter_placements
    from protocol.moves import HariMove

    assert isinstance(game, HariGame), "slide-free plays are HARI's"
    base = next(game.slide_sets(), None)
    if base is None:
        return PASS
    lengths = game.playable_lengths(game.turn)
    n = rng.choice(lengths)
    spots = list(iter_placements(base.empty, n))
    return HariMove((), rng.choice(spots), 0) if spots else HariMove((), None, n)


def place_mc(game: Game, ms: int, rng: random.Random) -> Move:
    """HARI flat Monte Carlo without slides: every slide-free play (and each discard) is a
    candidate, playouts of uniformly random slide-free plays, UCB1, the best mean result."""
    from protocol.board import iter_placements
    from protocol.moves import HariMove

    assert isinstance(game, HariGame), "placemc plays HARI"
    deadline = time.monotonic() + ms / 1000.0
    base = next(game.slide_sets(), None)
    if base is None:
        return PASS
    me = game.turn
    moves: list[Move] = []
    for n in game.playable_lengths(me):
        moves.extend(HariMove((), seg, 0) for seg in iter_placements(base.empty, n))
        moves.append(HariMove((), None, n))
    totals = [0.0] * len(moves)
    visits = [0] * len(moves)
    played = 0
    while time.monotonic() < deadline or played < len(moves):
        if played < len(moves):
            k = played
        else:
            log_n = math.log(played)
            k = max(range(len(moves)), key=lambda j: totals[j] / visits[j] + 0.5 * math.sqrt(log_n / visits[j]))
        totals[k] += _playout_result(game, moves[k], lambda g: _random_placement(g, rng), me)
        visits[k] += 1
        played += 1
        if played >= len(moves) and time.monotonic() >= deadline:
            break
    best = max(range(len(moves)), key=lambda j: (totals[j] / max(1, visits[j]), visits[j]))
    return moves[best]


def chooser(spec: str) -> Chooser:
    """A player by name (``name@MS`` thinks MS ms instead), a search optionally with changed settings
    (``search:foundations.leaf_mix=0.6``, module docstring)."""
    name, _, changes = spec.partition(":")
    name, _, own_ms = name.partition("@")
    base = _chooser(name, changes)
    if own_ms:
        fixed = int(own_ms)
        inner = base

        def base(game: Game, ms: int, rng: random.Random) -> Move:
            return inner(game, fixed, rng)
    return base


def search_variant(changes: str) -> dict[str, object]:
    """{game name: its searcher's settings with `changes` made} (engine/games/tuning.py)."""
    try:
        return parse_changes(changes)
    except ValueError as bad:
        raise SystemExit(f"ab_inprocess: bad setting {bad}") from None


def fastmc_variant(changes: str) -> dict[str, object]:
    """{game name: the fastmc partner's settings with `changes` made} (engine/games/<game>/playout_core.py)."""
    try:
        return playout_settings(changes)
    except ValueError as bad:
        raise SystemExit(f"ab_inprocess: bad partner setting {bad}") from None


def _chooser(name: str, changes: str = "") -> Chooser:
    if name == "plainmc":
        return plain_mc
    if name == "placemc":
        return place_mc
    own_book = name.endswith("+book")
    if changes and name.removesuffix("+book") not in ("search", "fastmc"):
        raise SystemExit(f"ab_inprocess: only `search` and `fastmc` take settings, not {name!r}")
    if changes and name == "fastmc":
        strategy: Strategy = FastMCStrategy(fastmc_variant(changes))
    else:
        strategy = SearchStrategy(search_variant(changes)) if changes else make_strategy(name.removesuffix("+book"))

    def run(game: Game, ms: int, rng: random.Random) -> Move:
        return strategy.choose(game.copy(), Limits(movetime=ms), threading.Event(), lambda info: None, rng,
                               PlayOptions(move_overhead=0, own_book=own_book))
    return run


def play_pair(job: tuple[str, str, str, list[str], int, int]) -> tuple[float, float]:
    """Two games of one opening, A as Dark then as Light: A's points in each."""
    game_name, a, b, opening, ms, seed = job
    players = {"A": chooser(a), "B": chooser(b)}
    points = []
    for a_color in (0, 1):
        rng = random.Random(seed * 2 + a_color)
        game = registry.entry(game_name).game_class().start()
        for text in opening:
            game.push(game.parse_move(text))
        while not game.is_over():
            who = "A" if game.turn == a_color else "B"
            move = players[who](game.copy(), ms, rng)
            game.push(game.check_move(move))
        res = game.result()
        assert res is not None  # the game is over
        points.append(0.5 if res.winner is None else float(res.winner == a_color))
    return points[0], points[1]


def book_openings(game: str) -> list[list[str]]:
    """The moves of each opening of the game's shipped book, read (and checked) as the referee reads it."""
    from referee.matches.openings import read_opening_file, shipped_book

    return [list(o.moves) for o in read_opening_file(game, str(shipped_book(game)))]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="hari")
    p.add_argument("--a", default="search")
    p.add_argument("--b", default="heuristic")
    p.add_argument("--pairs", type=int, default=20)
    p.add_argument("--ms", type=int, default=100)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--offset", type=int, default=0, help="first book opening (and seed) used: runs at different offsets play different games")
    p.add_argument("--openings", choices=("book", "startpos"), default="book",
                   help="the shipped book, or every game from the start position (the players' seeds vary the games)")
    p.add_argument("--pairs-out", metavar="FILE",
                   help="also write each pair as a JSON line: opening index in the book, seed, A's points as Dark "
                        "and as Light (which openings a colour loses across runs)")
    args = p.parse_args()
    chooser(args.a), chooser(args.b)  # a bad player or setting is refused here, before any worker starts
    openings = book_openings(args.game) if args.openings == "book" else [[]]
    jobs = [(args.game, args.a, args.b, openings[(args.offset + i) % len(openings)], args.ms,
             args.offset + i) for i in range(args.pairs)]
    try:
        out = open(args.pairs_out, "a", encoding="utf-8") if args.pairs_out else None  # closed by the `with` below
    except OSError as bad:
        raise SystemExit(f"ab_inprocess: --pairs-out {args.pairs_out}: {bad.strerror}") from None
    t0 = time.perf_counter()  # the wall clock: ab_cpu_clock.py makes time.monotonic this process's CPU time
    penta = [0] * 5
    by_colour = [0.0, 0.0]  # A's points as Dark, as Light
    with Pool(args.jobs) as pool, out if out is not None else contextlib.nullcontext():
        for job, (first, second) in zip(jobs, pool.imap(play_pair, jobs), strict=True):
            if out is not None:
                seed = job[5]
                out.write(json.dumps({"opening": seed % len(openings), "seed": seed, "a_dark": first,
                                      "a_light": second}) + "\n")
                out.flush()
            penta[int(round((first + second) * 2))] += 1
            by_colour[0] += first
            by_colour[1] += second
    score = sum(by_colour)
    n = 2 * args.pairs
    mean = score / n
    values = [0.0, 0.25, 0.5, 0.75, 1.0]
    var = sum(c * (v - mean) ** 2 for v, c in zip(values, penta, strict=True)) / args.pairs
    half = 1.96 * math.sqrt(var / args.pairs)
    print(f"{args.game} {args.a} vs {args.b} at {args.ms} ms: {score:g}/{n} = {100 * mean:.1f}% "
          f"+- {100 * half:.1f} penta {penta}; A as Dark {100 * by_colour[0] / args.pairs:.1f}%, "
          f"as Light {100 * by_colour[1] / args.pairs:.1f}% ({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
