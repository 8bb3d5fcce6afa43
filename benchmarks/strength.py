"""Strength of Strategy search against every sparring partner and a previous version, through the referee.

    python benchmarks/strength.py [--games N] [--movetime MS] [--opponent-movetime MS]
                                  [--game isaac|foundations|hari|all]
                                  [--opponents fastmc,heuristic,flatmc,greedy,random,prev]
                                  [--prev DIR] [--openings book|startpos|random:N|FILE] [--concurrency J]
                                  [--search-settings TEXT]

Each (game, opponent) is one `isaac-referee match` of N games (game pairs: each
opening once per colour) at `tc=st=MS/1000`, search first; --opponent-movetime gives
the opponent its own time (issue 37's "search at 100 ms against fastmc at 300 ms").
`fastmc` is the yardstick (the fast partner, SPEC 9.7); the others flatter the engine. `prev` is the engine
of another checkout, run by benchmarks/engine_at.sh (set it up with
`git -C /work/main worktree add /work/prev-ffbb6c3 ffbb6c3`; default --prev DIR).
Openings default to the shipped balanced books (`book`, for ISAAC too); `startpos`
plays the start position (deterministic engines then replay one game per colour).
--search-settings plays a variant of the search (its SearchSettings option, e.g.
`isaac.mcts.c_puct=1.0`): a screen of an idea against the partner before its SPRT.

Prints per game and opponent: search's score with a 95% interval computed from
the game pairs (pentanomial: pairs scoring 0, 1/2, 1, 3/2, 2), its score as Dark
and as Light (an opening book that favours one colour shows here), the pentanomial
counts, time forfeits and the run directory. Then, unless --no-per-opening, one line
per opening (referee/books/opening_results.py): Dark's points, each pair's games by the
colour that won them (`DD`: Dark won both, so the pair split 1-1 and the opening,
not the engines, decided it), search's points as Dark and as Light, and how many
pairs one colour won twice. The machine's load average is printed too: strength
runs on a busy machine are noisy (use --concurrency 1).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))

from referee.books.opening_results import by_opening, opening_row, summary_line  # noqa: E402
from referee.results.store import RECORDS, read_records_file  # noqa: E402

GAMES = ("isaac", "foundations", "hari")
PARTNERS = ("fastmc", "heuristic", "flatmc", "greedy", "random")


def pair_interval(penta: list[int]) -> tuple[float, float, float]:
    """(score, low, high) in [0, 1] from pentanomial counts, a normal 95% interval over pairs."""
    pairs = sum(penta)
    if pairs == 0:
        return 0.5, 0.0, 1.0
    values = [0.0, 0.25, 0.5, 0.75, 1.0]
    mean = sum(v * c for v, c in zip(values, penta, strict=True)) / pairs
    var = sum(c * (v - mean) ** 2 for v, c in zip(values, penta, strict=True)) / pairs
    half = 1.96 * math.sqrt(var / pairs)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def engine_args(opponent: str, prev: str, tc: str) -> list[str]:
    python = sys.executable
    if opponent == "prev":
        return ["-engine", "name=prev", f"cmd=sh {HERE / 'engine_at.sh'} {prev}", f"dir={REPO}", tc]
    return ["-engine", f"name={opponent}", f"cmd={python} -m engine", f"dir={REPO}",
            f"option.Strategy={opponent}", tc]


def run_match(game: str, opponent: str, args: argparse.Namespace, out: Path) -> dict:
    cmd = [sys.executable, "-m", "referee", "match", "--game", game, "--games", str(args.games),
           "--openings", args.openings, "--seed", str(args.seed), "--concurrency", str(args.concurrency),
           "--out", str(out),
           "-engine", "name=search", f"cmd={sys.executable} -m engine", f"dir={REPO}", "option.Strategy=search",
           *([f"option.SearchSettings={args.search_settings}"] if args.search_settings else []),
           f"tc=st={args.movetime / 1000:g} margin={args.margin}",
           *engine_args(opponent, args.prev,
                        f"tc=st={(args.opponent_movetime or args.movetime) / 1000:g} margin={args.margin}")]
    env = dict(os.environ, PYTHONPATH=str(REPO))
    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if done.returncode != 0 or not (out / "summary.json").is_file():
        sys.exit(f"match failed ({done.returncode}): {' '.join(cmd)}\n{done.stderr[-2000:]}")
    return json.loads((out / "summary.json").read_text())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games per game type and opponent (even)")
    parser.add_argument("--movetime", type=int, default=100)
    parser.add_argument("--opponent-movetime", type=int, default=None, help="the opponent's ms a move (default: --movetime)")
    parser.add_argument("--game", choices=(*GAMES, "all"), default="all")
    parser.add_argument("--opponents", default=",".join((*PARTNERS, "prev")))
    parser.add_argument("--prev", default="/work/prev-ffbb6c3", help="checkout of the previous version")
    parser.add_argument("--openings", default="book")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--margin", type=int, default=0,
                        help="ms past movetime before a time forfeit (0: none; on a loaded machine a margin "
                             "separates strength from stalls, whose forfeits are then counted apart)")
    parser.add_argument("--out", default=None, help="directory for the runs (default: a temporary one)")
    parser.add_argument("--search-settings", default="",
                        help="a variant of the search: its SearchSettings option, '<game>.<field>=<value>,...'")
    parser.add_argument("--no-per-opening", dest="per_opening", action="store_false",
                        help="leave out the results per opening")
    args = parser.parse_args(argv)
    games = GAMES if args.game == "all" else (args.game,)
    opponents = [o.strip() for o in args.opponents.split(",") if o.strip()]
    if "prev" in opponents and not Path(args.prev, "engine").is_dir():
        sys.exit(f"--prev {args.prev}: no checkout there (git worktree add {args.prev} ffbb6c3)")
    root = Path(args.out or tempfile.mkdtemp(prefix="strength-"))
    print(f"load average {os.getloadavg()[0]:.2f}; {args.games} games each, {args.movetime} ms a move "
          f"(opponent {args.opponent_movetime or args.movetime} ms, margin {args.margin} ms), "
          f"openings {args.openings}, concurrency {args.concurrency}"
          f"{'; search settings ' + args.search_settings if args.search_settings else ''}; runs in {root}")
    print(f"{'game':12s} {'opponent':10s} {'score':>6s}  {'95% interval':15s} {'Dark':>6s} {'Light':>6s}  "
          f"pentanomial [0,1/2,1,3/2,2]  forfeits")
    for game in games:
        for opponent in opponents:
            summary = run_match(game, opponent, args, root / f"{game}-{opponent}")
            match = summary["match"]
            score, low, high = pair_interval(match["pentanomial"])
            search = summary["engines"][0]
            forfeits = sum(search.get("forfeits_lost", {}).values())
            dark, light = (100 * search[side]["score"] for side in ("dark", "light"))
            print(f"{game:12s} {opponent:10s} {100 * score:5.1f}%  [{100 * low:5.1f}, {100 * high:5.1f}]  "
                  f"{dark:5.1f}% {light:5.1f}%  {match['pentanomial']}  {forfeits}", flush=True)
            if args.per_opening:
                print(per_opening_text(root / f"{game}-{opponent}"), flush=True)
    return 0


def per_opening_text(run: Path) -> str:
    """The run's results per opening, search's points shown, and the summary line, indented."""
    records, _ = read_records_file(run / RECORDS)
    results = by_opening(records)
    lines = [opening_row(number, result, "search") for number, result in enumerate(results, 1)]
    lines.append(summary_line(results))
    return "\n".join("    " + line for line in lines)


if __name__ == "__main__":
    sys.exit(main())
