"""Time safety of Strategy search: time forfeits through the referee, and fresh engines' first moves.

    python benchmarks/forfeits.py [--games N] [--game isaac,foundations,hari] [--tc st=0.1] [--tc 10+0.1]
                                  [--opponent heuristic] [--concurrency J] [--openings book]
                                  [--margin MS] [--latency-runs N] [--no-matches] [--out DIR]

Part 1, for each game and time control: one `python -m referee match` of N games,
Strategy=search against a cheap but real opponent (default `heuristic`), with the
referee's default margin (50 ms) unless --margin is given. From the records it prints
the time forfeits (search's, and the opponent's), the median, 99th percentile and
maximum of search's think times as the referee measured them, the worst think time
relative to what was allowed (movetime, or the clock left), and the load average
(1-minute, sampled every 5 s during the match: mean and max). Then the same spread of
the engine's own `info time` (its last report before `bestmove`) and of the referee's
time minus that (what the engine's clock cannot see: pipes, `position` handling,
scheduling), and for each game search lost, the reason and its last `info` lines
as the record keeps them (`forfeited_move`, with when the referee read each).

Part 2, for each game, N fresh `python -m engine` processes: time from spawn to
`uciok`, then `setoption` (variant, Strategy=search), `ucinewgame` + `isready`, and
`position startpos moves <two plies>` + `go movetime 100` written together (as the
referee does); time from that write to `bestmove`. Prints median and max of each.

A time forfeit is a move answered later than the allowed time plus the margin. The
machine's load matters: run it on a busy machine to stress the engine (the load is
printed), and with --concurrency 1 or 2 on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fresh_engine import first_move

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
GAMES = ("isaac", "foundations", "hari")
_FORFEIT_RE = re.compile(r"answered .* after (?P<ms>[0-9]+) ms; (?P<allowed>[0-9]+) ms allowed")


class LoadSampler:
    """The 1-minute load average, sampled every `every` seconds in a thread while a match runs."""

    def __init__(self, every: float = 5.0) -> None:
        self.every = every
        self.samples: list[float] = [os.getloadavg()[0]]
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            self.samples.append(os.getloadavg()[0])

    def __enter__(self) -> LoadSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.samples.append(os.getloadavg()[0])

    def text(self) -> str:
        return f"load {statistics.mean(self.samples):.2f} (max {max(self.samples):.2f})"


def parse_tc(tc: str) -> tuple[int | None, int, int]:
    """(movetime ms or None, base ms, increment ms) of 'st=0.1' or '10+0.1'."""
    if tc.startswith("st="):
        return int(round(float(tc[3:]) * 1000)), 0, 0
    base, _, inc = tc.partition("+")
    return None, int(round(float(base) * 1000)), int(round(float(inc or 0) * 1000))


def think_times(record: dict, engine: str, tc: str) -> list[tuple[int, int]]:
    """(ms used, ms allowed) of each move `engine` made in a record, replaying its clock."""
    movetime, base, inc = parse_tc(tc)
    side = 0 if record["dark"]["name"] == engine else 1
    if record[("dark", "light")[side]]["name"] != engine:
        return []
    remaining = base
    out = []
    # The opening is played by the referee; the first timed move is by the side to move after it.
    first_mover = len(record.get("opening") or []) % 2  # 0: Dark moves first after the opening
    for index, move in enumerate(record["moves"]):
        if (index + first_mover) % 2 != side or "ms" not in move:
            continue
        allowed = movetime if movetime is not None else remaining
        out.append((move["ms"], allowed))
        if movetime is None:
            remaining = max(0, remaining - move["ms"]) + inc
    return out


def engine_lag(record: dict, engine: str) -> list[tuple[int, int]]:
    """(engine's own `info time`, referee ms minus that) of each move `engine` made that reported a time.

    The engine's clock starts when it read `go` and its last `info` is stamped just before `bestmove`;
    the referee's runs from writing `go` to reading `bestmove`. The difference is what the engine's
    clock cannot see: the pipes both ways, `position` handling before `go` is read, the unwinding
    after the last `info`, the engine process and the referee's event loop waiting for a core."""
    side = 0 if record["dark"]["name"] == engine else 1
    if record[("dark", "light")[side]]["name"] != engine:
        return []
    first_mover = len(record.get("opening") or []) % 2
    out = []
    for index, move in enumerate(record["moves"]):
        info = move.get("info") or {}
        if (index + first_mover) % 2 == side and isinstance(info.get("time"), int):
            out.append((info["time"], move["ms"] - info["time"]))
    return out


def forfeited_ms(record: dict) -> tuple[int, int] | None:
    """(ms used, ms allowed) of the move a record's game was lost on: its forfeited_move, else the reason."""
    forfeited = record.get("forfeited_move")
    if forfeited and forfeited.get("allowed_ms") is not None:
        return int(forfeited["ms"]), int(forfeited["allowed_ms"])
    match = _FORFEIT_RE.search(record.get("reason", ""))
    return (int(match["ms"]), int(match["allowed"])) if match else None


_INFO_TIME_RE = re.compile(r"\btime (?P<ms>[0-9]+)\b")


def outside_engine_clock(record: dict) -> str | None:
    """Where the time of a forfeited move went, from its forfeited_move: the engine's own `time` in
    its last `info` (its clock when it was about to answer) against the referee's reading of it."""
    forfeited = record.get("forfeited_move") or {}
    lines = forfeited.get("info") or []
    match = _INFO_TIME_RE.search(lines[-1]["text"]) if lines else None
    if match is None:
        return None
    own, read = int(match["ms"]), int(lines[-1]["ms"])
    return (f"the engine's clock said {own} ms in its last info; the referee read that line at {read} ms "
            f"and bestmove at {forfeited['ms']} ms: {read - own} ms passed outside the engine's clock "
            "(go and the answer in the pipes, the engine or the referee waiting for a core)")


def _spread(values: list[int]) -> str:
    """'median/p99/max' of a non-empty list."""
    ordered = sorted(values) or [0]
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return f"{statistics.median(ordered):.0f}/{p99}/{ordered[-1]}"


def run_match(game: str, tc: str, args: argparse.Namespace, out: Path) -> list[dict]:
    python = sys.executable
    each = f"tc={tc}" + (f" margin={args.margin}" if args.margin is not None else "")
    cmd = [python, "-m", "referee", "match", "--game", game, "--games", str(args.games),
           "--openings", args.openings, "--seed", str(args.seed), "--concurrency", str(args.concurrency),
           "--out", str(out),
           "-engine", "name=search", f"cmd={python} -m engine", f"dir={REPO}", "option.Strategy=search",
           "-engine", f"name={args.opponent}", f"cmd={python} -m engine", f"dir={REPO}",
           f"option.Strategy={args.opponent}", "-each", each]
    env = dict(os.environ, PYTHONPATH=str(REPO))
    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    records = out / "records.jsonl"
    if not records.is_file():
        sys.exit(f"match failed ({done.returncode}): {' '.join(cmd)}\n{done.stderr[-2000:]}")
    return [json.loads(line) for line in records.read_text().splitlines() if line.strip()]


def forfeits_of(records: list[dict], engine: str) -> list[dict]:
    """The records `engine` lost on time."""
    lost = []
    for record in records:
        if record["termination"] != "time forfeit":
            continue
        loser = "dark" if record["result"] == "0-1" else "light"
        if record[loser]["name"] == engine:
            lost.append(record)
    return lost


def report_matches(args: argparse.Namespace, root: Path) -> None:
    print(f"{'game':12s} {'tc':9s} {'games':>5s} {'forfeits':>8s} {'opp.':>4s}  "
          f"{'moves':>6s} {'median':>6s} {'p99':>5s} {'max':>5s}  {'worst used/allowed':20s} load")
    for game in args.game:
        for tc in args.tc:
            with LoadSampler() as load:
                records = run_match(game, tc, args, root / f"{game}-{tc.replace('=', '').replace('+', '_')}")
            times = [t for r in records for t in think_times(r, "search", tc)]
            lost = forfeits_of(records, "search")
            for record in lost:  # the forfeited move is not in the moves list
                forfeited = forfeited_ms(record)
                if forfeited:
                    times.append(forfeited)
            lags = [t for r in records for t in engine_lag(r, "search")]
            used = sorted(ms for ms, _ in times) or [0]
            worst = max(times, key=lambda t: t[0] - t[1], default=(0, 0))
            p99 = used[min(len(used) - 1, int(0.99 * len(used)))]
            print(f"{game:12s} {tc:9s} {len(records):5d} {len(lost):8d} {len(forfeits_of(records, args.opponent)):4d}  "
                  f"{len(used):6d} {statistics.median(used):6.0f} {p99:5d} {used[-1]:5d}  "
                  f"{worst[0]:6d} / {worst[1]:<6d} ms     {load.text()}", flush=True)
            print(f"    median/p99/max ms: engine's own info time {_spread([t for t, _ in lags])}, "
                  f"referee minus engine {_spread([lag for _, lag in lags])} ({len(lags)} moves)")
            for record in lost:
                print(f"    game {record['game_id']}: {record.get('reason', '')}")
                for line in (record.get("forfeited_move") or {}).get("info", []):
                    print(f"        read at {line['ms']} ms: {line['text'][:160]}")
                outside = outside_engine_clock(record)
                if outside:
                    print(f"        {outside}")


def report_latency(args: argparse.Namespace) -> None:
    print(f"fresh engines, {args.latency_runs} per game: spawn -> uciok, and position+go movetime "
          f"{args.movetime} -> bestmove (ms)")
    for game in args.game:
        with LoadSampler() as load:
            runs = [first_move([sys.executable, "-m", "engine"], game, args.movetime, together=True)
                    for _ in range(args.latency_runs)]
        ups = [u for u, _ in runs]
        firsts = [f for _, f in runs]
        over = sum(f > args.movetime for f in firsts)
        print(f"{game:12s} uciok median {statistics.median(ups):6.1f} max {max(ups):6.1f}   "
              f"first move median {statistics.median(firsts):6.1f} max {max(firsts):6.1f} "
              f"({over} over {args.movetime})   {load.text()}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per game type and time control (even)")
    parser.add_argument("--game", default=",".join(GAMES), help="comma-separated game types")
    parser.add_argument("--tc", action="append", help="time control (repeatable; default st=0.1 and 10+0.1)")
    parser.add_argument("--opponent", default="heuristic", help="Strategy of the opponent")
    parser.add_argument("--openings", default="book")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--margin", type=int, default=None, help="referee margin in ms (default: the referee's, 50)")
    parser.add_argument("--latency-runs", type=int, default=20, help="fresh engines per game (0: skip)")
    parser.add_argument("--movetime", type=int, default=100, help="movetime of the fresh engines' first go")
    parser.add_argument("--no-matches", action="store_true", help="only the fresh-engine measurements")
    parser.add_argument("--out", default=None, help="directory for the match runs (default: a temporary one)")
    args = parser.parse_args(argv)
    args.game = [g.strip() for g in args.game.split(",") if g.strip()]
    args.tc = args.tc or ["st=0.1", "10+0.1"]
    unknown = [g for g in args.game if g not in GAMES]
    if unknown:
        parser.error(f"unknown game {unknown[0]!r}; games are {', '.join(GAMES)}")
    root = Path(args.out or tempfile.mkdtemp(prefix="forfeits-"))
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; search vs {args.opponent}, "
          f"concurrency {args.concurrency}, margin {args.margin if args.margin is not None else 'default (50)'} ms; "
          f"runs in {root}", flush=True)
    if args.latency_runs > 0:
        report_latency(args)
    if not args.no_matches:
        report_matches(args, root)
    return 0


if __name__ == "__main__":
    sys.exit(main())
