"""`bench`: fixed positions of all three games searched to a fixed node count.

Like Stockfish's bench, it is a quick speed check and a signature: with the
same code the node total is always the same (fixed positions, fixed seed,
a node limit and no time limit), so a change of the total means the search
changed; nps says how fast it ran on this machine.

`isaac-engine bench [nodes N] [strategy S]` prints plain lines; the `bench`
command of the protocol prints the same lines as `info string` lines.
"""

from __future__ import annotations

import random
import sys
import threading
import time
from dataclasses import dataclass

from protocol import game_from_position
from protocol.messages import Info, info_string

from .session import CommandError
from .strategies import STRATEGY_NAMES, Limits, make_strategy

BENCH_SEED = 20240601
DEFAULT_NODES = 2000

BENCH_POSITIONS: tuple[str, ...] = (
    "isaac -/- 333334444555667/333334444555667 d - place 0/0",
    "foundations -/- 333334444555667/333334444555667 d -",
    "hari -/- 333334444555667/333334444555667 d -",
)
"""Start positions and mid-game positions of each game (found by seeded random play, then frozen)."""


@dataclass
class BenchSettings:
    nodes: int = DEFAULT_NODES
    strategy: str = "search"


def parse_bench_args(words: list[str], column: int = 1) -> BenchSettings:
    """`[nodes N] [strategy S]` in any order; CommandError naming the bad word otherwise."""
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
            raise CommandError(f"bench: word {i + 1} {key!r} (after column {column - 1}): "
                               f"expected 'nodes <n >= 1>' or 'strategy <{'|'.join(STRATEGY_NAMES)}>'")
        i += 2
    return settings


def bench_lines(settings: BenchSettings, stop: threading.Event | None = None):
    """Yield the report lines one by one as each position is searched."""
    stop = stop or threading.Event()
    total_nodes, total_time = 0, 0.0
    for number, text in enumerate(BENCH_POSITIONS, 1):
        if stop.is_set():
            yield "bench stopped"
            return
        nodes, seconds, move = _search_one(text, settings, stop)
        total_nodes += nodes
        total_time += seconds
        yield (f"position {number}/{len(BENCH_POSITIONS)} {text.split()[0]:<11} nodes {nodes:>8} "
               f"time {seconds * 1000:>7.0f} ms nps {_nps(nodes, seconds):>8} bestmove {move}")
    yield f"Total time (ms) : {total_time * 1000:.0f}"
    yield f"Nodes searched  : {total_nodes}"
    yield f"Nodes/second    : {_nps(total_nodes, total_time)}"


def _search_one(text: str, settings: BenchSettings, stop: threading.Event):
    """(nodes, seconds, move) of one position; nodes from the strategy's last `info nodes`."""
    game = game_from_position(text)
    strategy = make_strategy(settings.strategy)
    last: list[Info] = []
    start = time.perf_counter()
    move = strategy.choose(game.copy(), Limits(nodes=settings.nodes), stop, last.append,
                           random.Random(BENCH_SEED))
    seconds = time.perf_counter() - start
    nodes = next((i.nodes for i in reversed(last) if i.nodes is not None), 0)
    return nodes, seconds, move


def _nps(nodes: int, seconds: float) -> int:
    return int(nodes / seconds) if seconds > 0 else 0


def run_bench(out, settings: BenchSettings, stop: threading.Event) -> None:
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
