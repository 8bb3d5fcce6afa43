"""The referee's own cost: overhead per move and games per second between two random engines.

    python benchmarks/referee_overhead.py [--game isaac|foundations|hari|all] [--games N]
                                          [--runs R] [--engine builtin|good_random] [--concurrency C]

Overhead per move is the time from an engine's `bestmove` line being read off
its pipe to the next `go` being written to the other engine: reading the line,
checking the move with protocol/, the clocks, building the `position` command
and writing it. It is measured with the referee's own I/O-log hook (a
timestamp on each line read and each line written) in real matches through
the real runner (engine pool, records fsync'ed to a temporary directory).
The first and last move of a game are not counted (game start-up and the end
of a game are not per-move costs).

Games per second is the whole loop: both engines' move time, the referee, the
fsync per record, `ucinewgame`/`isready` between games. With random engines
that answer at once it mostly measures the engines and the pipes.

Each run plays --games games per game type; the figures printed are the
medians over --runs runs (and each run's median and 99th percentile).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from referee.engines.process import EngineSpec
from referee.formats.timecontrol import TimeControl
from referee.matches.openings import OpeningBook, OpeningSource
from referee.matches.plan import RunPlan
from referee.matches.progress import Progress
from referee.matches.runner import Runner
from referee.matches.schedule import match_schedule
from referee.matches.tracker import Tracker
from referee.results.store import Store

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAMES = ("isaac", "foundations", "hari")


def engine_specs(kind: str, tc: TimeControl) -> list[EngineSpec]:
    if kind == "builtin":
        cmd = [sys.executable, "-m", "engine"]
        extra = {"Strategy": "random"}
    else:
        cmd = [sys.executable, os.path.join(REPO, "tests", "engines", "bad", "good_random.py")]
        extra = {}
    return [EngineSpec(name=f"random{i}", cmd=cmd, cwd=REPO, options={**extra, "Seed": str(i)}, tc=tc)
            for i in (1, 2)]


class LineClock:
    """The io_log hook: stamps every line the referee reads or writes."""

    def __init__(self):
        self.events: list[tuple[float, str]] = []

    def __call__(self, text: str) -> None:
        self.events.append((time.perf_counter(), text))

    def overheads_ms(self) -> list[float]:
        """bestmove read -> next go written, when the next thing sent is that move's successor."""
        out = []
        events = self.events
        for i, (t, text) in enumerate(events):
            if text.startswith("<") and ": bestmove " in text:
                sent = [(u, x) for u, x in events[i + 1:i + 4] if x.startswith(">")]
                if len(sent) >= 2 and ": position " in sent[0][1] and ": go" in sent[1][1]:
                    out.append((sent[1][0] - t) * 1000)
        return out


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


async def one_run(game_type: str, games: int, kind: str, concurrency: int, tc: TimeControl, fair_cpu: str):
    specs = engine_specs(kind, tc)
    schedule = match_schedule(specs[0].name, specs[1].name, games)
    plan = RunPlan("match", game_type, specs, schedule,
                   OpeningBook(game_type, OpeningSource("random", plies=2), seed=1), concurrency=concurrency,
                   fair_cpu=fair_cpu)
    clock = LineClock()
    with tempfile.TemporaryDirectory() as out:
        store = Store(out)
        store.open_for_append()
        tracker = Tracker(plan)
        progress = Progress(len(schedule), tracker.score_text, live=False, quiet=True)
        runner = Runner(plan, store, progress, tracker, io_log=clock)
        # start both engines first so process start-up is not counted in games per second
        warm = [runner.pool.acquire(spec.name) for spec in specs]
        await asyncio.gather(*(p.start() for p in warm))
        for player in warm:
            await runner.pool.release(player)
        t0 = time.perf_counter()
        await runner.run()
        seconds = time.perf_counter() - t0
        store.close()
    forfeits = tracker.recorded - tracker.tally.terminations.get("normal", 0)
    return clock.overheads_ms(), tracker.recorded / seconds, forfeits


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=GAMES + ("all",), default="all")
    parser.add_argument("--games", type=int, default=20, help="games per run and game type (default 20)")
    parser.add_argument("--runs", type=int, default=5, help="runs per game type (default 5)")
    parser.add_argument("--engine", choices=("builtin", "good_random"), default="builtin",
                        help="builtin: python -m engine with Strategy random; good_random: the tests' engine")
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--tc", default="60+1", help="time control (default 60+1: never binding for random)")
    parser.add_argument("--fair-cpu", choices=("auto", "signals", "off"), default="auto",
                        help="pausing of the waiting engine, as isaac-referee --fair-cpu (default auto)")
    args = parser.parse_args(argv)
    tc = TimeControl.parse(args.tc)
    games = GAMES if args.game == "all" else (args.game,)
    print(f"referee overhead: {args.engine} random engines, {args.games} games x {args.runs} runs per game, "
          f"concurrency {args.concurrency}, tc {tc}, fair-cpu {args.fair_cpu}")
    print(f"{'game':<12} {'moves':>6} {'median ms':>10} {'p99 ms':>8} {'games/s':>8}   per run (median/p99 ms, games/s)")
    for game_type in games:
        medians, p99s, rates, moves, forfeits = [], [], [], 0, 0
        for _ in range(args.runs):
            overheads, rate, lost = asyncio.run(one_run(game_type, args.games, args.engine, args.concurrency, tc,
                                                        args.fair_cpu))
            medians.append(statistics.median(overheads))
            p99s.append(percentile(overheads, 0.99))
            rates.append(rate)
            moves += len(overheads)
            forfeits += lost
        runs = ", ".join(f"{m:.3f}/{p:.3f} {r:.1f}" for m, p, r in zip(medians, p99s, rates))
        print(f"{game_type:<12} {moves:>6} {statistics.median(medians):>10.3f} {statistics.median(p99s):>8.3f} "
              f"{statistics.median(rates):>8.2f}   {runs}" + (f"  ({forfeits} forfeits!)" if forfeits else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
