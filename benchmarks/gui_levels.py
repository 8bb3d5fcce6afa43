"""How long the engine takes to reply at each of isaac-gui's levels (gui/levels.py).

    python benchmarks/gui_levels.py [--levels 1,2,...,8] [--games isaac,foundations,hari]
                                    [--plies 10] [--tc 60+1] [--cmd "python -m engine"]

For each level and game, one engine process plays the game against itself from the start for
`--plies` plies, sent exactly what isaac-gui sends at that level: `setoption name Skill Level`
and the `go` of gui.levels.go_for with the clock of `--tc` (the GUI's default clock), the clocks
run down as the GUI runs them. Each reply is timed from writing `go` to reading `bestmove`
(what a person waits for, less the page's own few ms). Prints per level the median, 90th
percentile and maximum over all replies, and each game's median; then whether the default
level's median is within 1 s. Book moves (FOUNDATIONS' first) count as the replies they are.
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from gui.levels import DEFAULT_LEVEL, LEVELS, SKILL_OPTION, Level, go_for, level_of
from referee.formats.timecontrol import TimeControl
from referee.matches.clock import Clock

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
        clocks = [Clock(TimeControl.parse(tc)), Clock(TimeControl.parse(tc))]
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


def main() -> int:
    parser = argparse.ArgumentParser(description="Reply time of the engine at each isaac-gui level.")
    parser.add_argument("--levels", default=",".join(str(lv.number) for lv in LEVELS))
    parser.add_argument("--games", default="isaac,foundations,hari")
    parser.add_argument("--plies", type=int, default=10, help="plies of self-play per game and level (default 10)")
    parser.add_argument("--tc", default="60+1", help="the game clock the GUI runs (default 60+1, its default)")
    parser.add_argument("--cmd", default=f"{shlex.quote(sys.executable)} -m engine")
    args = parser.parse_args()
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
