"""`bench`: fixed positions of all three games searched to a fixed node count.

Like Stockfish's bench, it is a quick speed check and a signature: with the
same code the node total is always the same (fixed positions, fixed seed,
a node limit and no time limit), so a change of the total means the search
changed; nps says how fast it ran on this machine.

`isaac-engine bench [nodes N] [strategy S]` prints plain lines; the `bench`
command of the protocol prints the same lines as `info string` lines. A strategy that
plays playouts (`flatmc`, `fastmc`) also gets its playouts and playouts per second, per
position and in total: `isaac-engine bench strategy fastmc` is the sparring partner's speed.
"""

from __future__ import annotations

import random
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

from protocol import game_from_position
from protocol.messages import Info, info_string
from protocol.moves import Move

from .output import Output
from .session import CommandError
from .strategies import STRATEGY_NAMES, Limits, make_strategy, strategy_entry

BENCH_SEED = 20240601
DEFAULT_NODES = 2000

BENCH_POSITIONS: tuple[str, ...] = (
    "isaac -/- 333334444555667/333334444555667 d - place 0/0",
    "isaac e0e3,d1d4,f3j3,f4h4,h5h7,g6g8/c1c5,b2b5,i4i8,c6c8,b9d9,g9i9 334455667/334445667 d - place 0/0",
    "isaac f1f5,a2d2,b3b6,c3c5,d3d6,j3j5,h4h6,e6g6,b7d7,e7i7,b8g8/a0e0,g0g4,j0j2,a1d1,e1e4,h1h3,i1i6,"
    "a4a7,j6j9,a9e9,f9h9 4567/3367 d - score 0/0",
    "foundations -/- 333334444555667/333334444555667 d -",
    "foundations e0e6,f3j3,h5h7,g6g8,a7f7/b0b5,a1a6,c1c5,b9d9,g9i9 3334444556/3334444557 d -",
    "hari -/- 333334444555667/333334444555667 d -",
    "hari d0g0,h0j0,j1j3,a3d3,e3e6,f4h4,j7j9,f9h9/e2h2,c4c7,a5a7,b5b7,f5f7,g5j5,i7i9,c8e8 4555667/4555667 d -",
)
"""Start and mid-game positions of each game, frozen: an ISAAC placement and scoring position,
a FOUNDATIONS middle game, and a HARI middle game with ~7,600 slide sets (48,340 moves)."""


@dataclass
class BenchSettings:
    nodes: int | None = None
    """None: the strategy's default (its registry entry's bench_nodes, else DEFAULT_NODES: fastmc's C
    playouts run millions of plies a second, so 2,000 would time its start-up rather than its playouts)."""
    strategy: str = STRATEGY_NAMES[0]

    @property
    def node_limit(self) -> int:
        if self.nodes is not None:
            return self.nodes
        return strategy_entry(self.strategy).bench_nodes or DEFAULT_NODES


def parse_bench_args(words: list[str], columns: list[int] | None = None) -> BenchSettings:
    """`[nodes N] [strategy S]` in any order; CommandError naming the bad word (and its column if given)."""
    settings = BenchSettings()
    i = 0
    while i < len(words):
        key = words[i]
        value = words[i + 1] if i + 1 < len(words) else None
        if key == "nodes" and value is not None and value.isdigit() and int(value) >= 1:
            settings.nodes = int(value)
        elif key == "strategy" and value is not None and value.lower() in STRATEGY_NAMES:
            settings.strategy = value.lower()
        else:
            bad = key if key not in ("nodes", "strategy") or value is None else value
            where = f" at column {columns[words.index(bad, i)]}" if columns else ""
            raise CommandError(f"bench: expected 'nodes <n >= 1>' or 'strategy <{'|'.join(STRATEGY_NAMES)}>'"
                               f"{where}, found {bad!r}")
        i += 2
    return settings


def bench_lines(settings: BenchSettings, stop: threading.Event | None = None) -> Iterator[str]:
    """Yield the report lines one by one as each position is searched."""
    stop = stop or threading.Event()
    total_nodes, total_time, total_playouts = 0, 0.0, None
    for number, text in enumerate(BENCH_POSITIONS, 1):
        if stop.is_set():
            yield "bench stopped"
            return
        nodes, playouts, seconds, move = _search_one(text, settings, stop)
        total_nodes += nodes
        total_time += seconds
        shown = ""
        if playouts is not None and strategy_entry(settings.strategy).playouts:
            total_playouts = (total_playouts or 0) + playouts
            shown = f" playouts {playouts:>7} pps {_nps(playouts, seconds):>8}"
        yield (f"position {number}/{len(BENCH_POSITIONS)} {text.split()[0]:<11} nodes {nodes:>8} "
               f"time {seconds * 1000:>7.0f} ms nps {_nps(nodes, seconds):>8}{shown} bestmove {move}")
    yield f"Total time (ms) : {total_time * 1000:.0f}"
    yield f"Nodes searched  : {total_nodes}"
    yield f"Nodes/second    : {_nps(total_nodes, total_time)}"
    if total_playouts is not None:
        yield f"Playouts        : {total_playouts}"
        yield f"Playouts/second : {_nps(total_playouts, total_time)}"


def _search_one(text: str, settings: BenchSettings, stop: threading.Event) -> tuple[int, int | None, float, Move]:
    """(nodes, playouts or None, seconds, move) of one position, from the strategy's last `info`
    giving nodes (and rollouts: a strategy without playouts gives None)."""
    game = game_from_position(text)
    strategy = make_strategy(settings.strategy)
    last: list[Info] = []
    start = time.perf_counter()
    move = strategy.choose(game.copy(), Limits(nodes=settings.node_limit), stop, last.append,
                           random.Random(BENCH_SEED))
    seconds = time.perf_counter() - start
    final = next((i for i in reversed(last) if i.nodes is not None), None)
    if final is None:
        return 0, None, seconds, move
    return final.nodes or 0, final.rollouts, seconds, move


def _nps(nodes: int, seconds: float) -> int:
    return int(nodes / seconds) if seconds > 0 else 0


def run_bench(out: Output, settings: BenchSettings, stop: threading.Event) -> None:
    """The protocol's `bench` command (runs in the job thread)."""
    for line in bench_lines(settings, stop):
        out.send(info_string(f"bench {line}"))


def main(args: list[str]) -> int:
    """`isaac-engine bench [nodes N] [strategy S]`."""
    try:
        settings = parse_bench_args(args)
    except CommandError as e:
        print(f"isaac-engine: {e}", file=sys.stderr)
        return 2
    for line in bench_lines(settings):
        print(line, flush=True)
    return 0
