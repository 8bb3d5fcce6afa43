"""isaac-gui's levels (gui/levels.py): how long the engine takes to reply at each, and how strong each is.

    python benchmarks/gui_levels.py [--levels 1,2,...,8] [--games isaac,foundations,hari]
                                    [--plies 10] [--tc 5+3] [--cmd "python -m engine"]
    python benchmarks/gui_levels.py --strength 40 [--levels ...] [--games ...] [--out DIR]
                                    [--concurrency 1] [--openings book]

Reply times (the default):

For each level and game, one engine process plays the game against itself from the start for
`--plies` plies, sent exactly what isaac-gui sends at that level: `setoption name Skill Level`
and the `go` of gui.levels.go_for with the clock of `--tc` (read as the GUI's Clock box reads it:
minutes and seconds a move; default the GUI's default clock), the clocks
run down as the GUI runs them. Each reply is timed from writing `go` to reading `bestmove`
(what a person waits for, less the page's own few ms). Prints per level the median, 90th
percentile and maximum over all replies, and each game's median; then whether the default
level's median is within 1 s. Book moves (FOUNDATIONS' first) count as the replies they are.

Strength (`--strength N`): for each level and game, one `isaac-referee match` of N games (pairs:
each opening once per colour, the games' shipped books) of the engine at that level against the
`fastmc` partner at 100 ms a move (`tc=st=0.1`, the yardstick of every strength figure in the
README). The level plays as isaac-gui plays it: its `Skill Level` and its time per move
(`tc=st=<time per move>`: at the GUI's default clock a level's time is never cut). Both sides get
a 1 s margin: the GUI forfeits nobody for a late level move, so lateness on a loaded machine
counts as strength, not as a loss (forfeits are printed anyway). Prints per level each game's
score with its 95% interval over game pairs, the three games pooled, and the pooled Elo
difference. With --out, a (level, game) whose summary.json is already there is read, not played
again (a long run can be stopped and resumed); --pool DIR,... adds the same (level, game) of other
runs (another --seed) to each figure, so more games tighten an interval without replaying any.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from gui.clock import parse_clock
from gui.config import DEFAULT_TC
from gui.levels import DEFAULT_LEVEL, LEVELS, SKILL_OPTION, Level, go_for, level_of
from referee.matches.clock import Clock
from referee.results.elo import elo_interval_pentanomial, score_from_elo

REPO = Path(__file__).resolve().parent.parent
YARDSTICK = "fastmc"
YARDSTICK_MS = 100
MARGIN_MS = 1000

TARGET_MS = 1000
"""The default level's median reply must not be longer."""


class Engine:
    """One engine process on pipes; `ask` writes lines and reads until a line starting with `until`."""

    def __init__(self, cmd: list[str]):
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
                                     start_new_session=True)

    def ask(self, lines: list[str], until: str) -> tuple[str, float]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write("".join(line + "\n" for line in lines))
        self.proc.stdin.flush()
        sent = time.perf_counter()
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"the engine ended before {until!r}")
            if line.startswith(until):
                return line.strip(), (time.perf_counter() - sent) * 1000

    def close(self) -> None:
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write("quit\n")
            self.proc.stdin.flush()
        except OSError:
            pass
        self.proc.wait(5)


def play(cmd: list[str], game: str, level: Level, plies: int, tc: str) -> list[float]:
    """The reply times (ms) of one self-play game at `level`."""
    engine = Engine(cmd)
    try:
        engine.ask(["uci"], "uciok")
        engine.ask([f"setoption name UCI_Variant value {game}", f"setoption name {SKILL_OPTION} value {level.skill}",
                    "ucinewgame", "isready"], "readyok")
        clocks = [Clock(parse_clock(tc)), Clock(parse_clock(tc))]
        moves: list[str] = []
        times = []
        for ply in range(plies):
            mover = ply % 2   # the engine plays both sides; a pass is a move like any other here
            go = go_for(level, clocks[0], clocks[1], mover).format()
            answer, ms = engine.ask([f"position startpos moves {' '.join(moves)}".rstrip(), go], "bestmove")
            move = answer.split()[1]
            if move == "(none)":
                break
            clocks[mover].stop(int(ms))
            times.append(ms)
            moves.append(move)
        return times
    finally:
        engine.close()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def level_match(level: Level, game: str, games: int, args: argparse.Namespace, out: Path) -> dict:
    """summary.json of one match: the engine at `level` against the yardstick (played unless already there)."""
    summary = out / "summary.json"
    if not summary.is_file():
        tc_level = f"tc=st={level.movetime_ms / 1000:g} margin={MARGIN_MS}"
        tc_yardstick = f"tc=st={YARDSTICK_MS / 1000:g} margin={MARGIN_MS}"
        cmd = [sys.executable, "-m", "referee", "match", "--game", game, "--games", str(games),
               "--openings", args.openings, "--seed", str(args.seed + level.number),
               "--concurrency", str(args.concurrency), "--out", str(out),
               "-engine", f"name=level{level.number}", f"cmd={args.cmd}", f"dir={REPO}",
               f"option.{SKILL_OPTION}={level.skill}", tc_level,
               "-engine", f"name={YARDSTICK}", f"cmd={args.cmd}", f"dir={REPO}", f"option.Strategy={YARDSTICK}",
               tc_yardstick]
        env = dict(os.environ, PYTHONPATH=str(REPO))
        done = subprocess.run(cmd, env=env, capture_output=True, text=True)
        if done.returncode != 0 or not summary.is_file():
            sys.exit(f"match failed ({done.returncode}): {shlex.join(cmd)}\n{done.stderr[-2000:]}")
    return json.loads(summary.read_text())


def score_interval(penta: list[int]) -> tuple[float, float, float]:
    """(score, low, high) in percent from pentanomial pair counts (referee/results/elo.py's interval over pairs)."""
    elo, low, high = elo_interval_pentanomial(penta)
    return tuple(100 * score_from_elo(e) for e in (elo, low, high))  # type: ignore[return-value]


def elo_text(penta: list[int]) -> str:
    elo, low, high = elo_interval_pentanomial(penta)
    shown = [f"{e:+.0f}" if math.isfinite(e) else ("+inf" if e > 0 else "-inf") for e in (elo, low, high)]
    return f"{shown[0]} [{shown[1]}, {shown[2]}]"


def strength(args: argparse.Namespace, levels: list[Level], games: list[str]) -> int:
    root = Path(args.out or tempfile.mkdtemp(prefix="gui-levels-"))
    print(f"each level against {YARDSTICK} at {YARDSTICK_MS} ms a move, {args.strength} games per level and game "
          f"(openings {args.openings}, seed {args.seed}+level, margin {MARGIN_MS} ms, concurrency "
          f"{args.concurrency}); load average {os.getloadavg()[0]:.2f}; runs in {root}")
    print(f"{'level':>5} {'skill':>5} {'time':>6}   " + "  ".join(f"{g + ' (games)':>24}" for g in games)
          + f"  {'pooled':>20}  {'Elo (pooled)':>20}  forfeits")
    measured: dict[int, dict[str, tuple[float, float, float, int]]] = {}
    for level in levels:
        pooled = [0] * 5
        cells, forfeits = [], 0
        for game in games:
            name = f"level{level.number}-{game}"
            summaries = [level_match(level, game, args.strength, args, root / name)]
            summaries += [json.loads((Path(d) / name / "summary.json").read_text())
                          for d in args.pool if (Path(d) / name / "summary.json").is_file()]
            penta = [sum(counts) for counts in zip(*(s["match"]["pentanomial"] for s in summaries), strict=True)]
            pooled = [a + b for a, b in zip(pooled, penta, strict=True)]
            score, low, high = score_interval(penta)
            cells.append(f"{score:5.1f}% [{low:4.1f}, {high:5.1f}] {2 * sum(penta)}")
            measured.setdefault(level.number, {})[game] = (score, low, high, 2 * sum(penta))
            forfeits += sum(sum(e.get("forfeits_lost", {}).values()) for s in summaries for e in s["engines"])
        score, low, high = score_interval(pooled)
        print(f"{level.number:>5} {level.skill:>5} {level.movetime_ms / 1000:>5g}s   "
              + "  ".join(f"{c:>24}" for c in cells)
              + f"  {f'{score:5.1f}% [{low:4.1f}, {high:5.1f}]':>20}  {elo_text(pooled):>20}  {forfeits}",
              flush=True)
    print("as gui/levels.py's MEASURED: {level: {game: Strength(score, low, high, games)}}")
    for number, per_game in measured.items():
        cells = ", ".join(f'"{game}": Strength({s:.1f}, {lo:.1f}, {hi:.1f}, {n})' for game, (s, lo, hi, n) in per_game.items())
        print(f"    {number}: {{{cells}}},")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description="Reply time and strength of the engine at each isaac-gui level.")
    parser.add_argument("--levels", default=",".join(str(lv.number) for lv in LEVELS))
    parser.add_argument("--games", default="isaac,foundations,hari")
    parser.add_argument("--plies", type=int, default=10, help="plies of self-play per game and level (default 10)")
    parser.add_argument("--tc", default=DEFAULT_TC, help=f"the game clock the GUI runs, as its Clock box reads it "
                        f"(default {DEFAULT_TC}, its default)")
    parser.add_argument("--cmd", default=f"{shlex.quote(sys.executable)} -m engine")
    parser.add_argument("--strength", type=int, metavar="GAMES", default=0,
                        help=f"measure strength instead: GAMES games (even) per level and game against {YARDSTICK}")
    parser.add_argument("--openings", default="book", help="openings of the strength matches (default book)")
    parser.add_argument("--seed", type=int, default=52, help="seed of the strength matches (plus the level)")
    parser.add_argument("--concurrency", type=int, default=1, help="games at once in a strength match")
    parser.add_argument("--out", default=None, help="directory of the strength runs (default: a temporary one)")
    parser.add_argument("--pool", default="", help="other strength runs' directories (comma-separated) whose "
                        "games of the same level and game are added")
    args = parser.parse_args()
    args.pool = [d for d in args.pool.split(",") if d]
    if args.strength:
        levels = [lv for lv in (level_of(int(n)) for n in args.levels.split(",")) if lv is not None]
        return strength(args, levels, args.games.split(","))
    cmd = shlex.split(args.cmd)
    games = args.games.split(",")
    print(f"reply times (ms) from go to bestmove, {args.plies} plies of self-play per game, clock {args.tc}; "
          f"load average {os.getloadavg()[0]:.2f}")
    print(f"{'level':>5} {'skill':>5} {'movetime':>8} {'median':>7} {'p90':>7} {'max':>7}   "
          + "  ".join(f"{g:>11}" for g in games))
    default_median = None
    for number in args.levels.split(","):
        level = level_of(int(number))
        assert level is not None
        per_game = {g: play(cmd, g, level, args.plies, args.tc) for g in games}
        pooled = [t for times in per_game.values() for t in times]
        median = statistics.median(pooled)
        if level.number == DEFAULT_LEVEL:
            default_median = median
        mark = "*" if level.number == DEFAULT_LEVEL else " "
        print(f"{level.number:>4}{mark} {level.skill:>5} {level.movetime_ms:>8} {median:>7.0f} "
              f"{percentile(pooled, 0.9):>7.0f} {max(pooled):>7.0f}   "
              + "  ".join(f"{statistics.median(per_game[g]):>11.0f}" for g in games), flush=True)
    if default_median is not None:
        verdict = "PASS" if default_median <= TARGET_MS else "FAIL"
        print(f"default level {DEFAULT_LEVEL} (*): median {default_median:.0f} ms, target at most {TARGET_MS} ms: "
              f"{verdict}")
        return 0 if verdict == "PASS" else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
