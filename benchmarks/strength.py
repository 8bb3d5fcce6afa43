"""Strength of Strategy search against every sparring partner and a previous version, through the referee.

    python benchmarks/strength.py [--games N | --every-opening R] [--movetime MS] [--opponent-movetime MS]
                                  [--game isaac|foundations|hari|all]
                                  [--opponents fastmc,treemc,heuristic,flatmc,greedy,random,prev]
                                  [--prev DIR] [--openings book,startpos,random:N,FILE] [--seed S[,S...]]
                                  [--concurrency J] [--search-settings TEXT] [--cpu-clock] [--out DIR]
    python benchmarks/strength.py --pool RUN_DIR [RUN_DIR ...] [--no-per-opening] [--out DIR]

Each (game, opponent, openings, seed) is one `isaac-referee match` of N games (game
pairs: each opening once per colour) at `tc=st=MS/1000`, search first; --opponent-movetime
gives the opponent its own time (issue 37's "search at 100 ms against fastmc at 300 ms").
`fastmc` (flat Monte Carlo) and `treemc` (a tree search) are the yardsticks (SPEC 9.7): a figure against one
kind of opponent says little about the other; the others flatter the engine. `prev` is the engine
of another checkout, run by benchmarks/engine_at.sh (set it up with
`git -C /work/main worktree add /work/prev-ffbb6c3 ffbb6c3`; default --prev DIR).
Openings default to the shipped balanced books (`book`, for ISAAC too); `startpos`
plays the start position, `random:N` N random plies, a FILE its lines. Several
kinds, comma-separated, are each played and shown side by side at the end.
--every-opening R plays R pairs on every opening of a book or file (both colours
each) instead of --games; several seeds (`--seed 1,2`) are pooled: `--every-opening 1
--seed 1,2` is the per-opening target's run (4 games an opening, two seeds).
--cpu-clock has the engines count their own CPU time (engine/cpu_clock.py): on a loaded
machine a move of MS ms is then MS ms of CPU, the figures an idle machine would give.
--search-settings plays a variant of the search (its SearchSettings option, e.g.
`isaac.mcts.c_puct=1.0`): a screen of an idea against the partner before its SPRT.

Prints per game, opponent and openings, pooled over the seeds: search's score with a
95% interval computed from the game pairs (pentanomial: pairs scoring 0, 1/2, 1, 3/2,
2), its score as Dark and as Light, the pentanomial counts and time forfeits. Then,
unless --no-per-opening, one line per opening (benchmarks/per_opening.py): Dark's
points whoever played Dark (far from half: an unbalanced opening), search's points as
Dark and as Light; the openings search lost with both colours (below half its points
as Dark and as Light) are listed, and their games written to
`OUT/lost-both-colours/<game>-<opponent>[-<openings>]/records.jsonl` for replay
(`isaac-svg --records DIR --game-id N`). The machine's load average is printed too:
strength runs on a busy machine are noisy (use --concurrency 1).

--pool plays nothing: it pools match runs already played (run directories alike in game and engines, from one or
several strength runs, e.g. the seeds of two days' runs of one engine) and prints them as one run of several seeds,
so that a figure pooled over runs is this command's output, not a script's.
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

sys.path.insert(0, str(HERE))

from per_opening import Colour, keep_lost_games, lost_summary, opening_line, tally  # noqa: E402

from referee.matches.openings import read_opening_file, shipped_book  # noqa: E402
from referee.results.store import RECORDS, read_records_file  # noqa: E402

GAMES = ("isaac", "foundations", "hari")
PARTNERS = ("fastmc", "treemc", "heuristic", "flatmc", "greedy", "random")


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
                        f"tc=st={(args.opponent_movetime or args.movetime) / 1000:g} margin={args.margin}"),
           # engines get only the variables the host names (referee/engines/environment.py): the clock by env.
           *(["-each", "env.ISAAC_ENGINE_CLOCK=cpu"] if args.cpu_clock else [])]
    env = dict(os.environ, PYTHONPATH=str(REPO))
    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if done.returncode != 0 or not (out / "summary.json").is_file():
        sys.exit(f"match failed ({done.returncode}): {' '.join(cmd)}\n{done.stderr[-2000:]}")
    return json.loads((out / "summary.json").read_text())


def book_size(game: str, openings: str) -> int:
    """Distinct openings of a book or file (0: start position or random openings, which do not repeat)."""
    if openings == "book":
        return len(read_opening_file(game, str(shipped_book(game))))
    if openings == "startpos" or openings.startswith("random:"):
        return 0
    return len(read_opening_file(game, openings))


def games_for(game: str, openings: str, args: argparse.Namespace) -> int:
    """--games, or with --every-opening R, R pairs on every opening of a book (both colours each)."""
    size = book_size(game, openings) if args.every_opening else 0
    return 2 * args.every_opening * size if size else args.games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games per game type, opponent, openings and seed (even)")
    parser.add_argument("--every-opening", type=int, default=0, metavar="R",
                        help="from a book or file: R pairs on every opening (2R games each), instead of --games")
    parser.add_argument("--movetime", type=int, default=100)
    parser.add_argument("--opponent-movetime", type=int, default=None, help="the opponent's ms a move (default: --movetime)")
    parser.add_argument("--game", choices=(*GAMES, "all"), default="all")
    parser.add_argument("--opponents", default=",".join((*PARTNERS, "prev")))
    parser.add_argument("--prev", default="/work/prev-ffbb6c3", help="checkout of the previous version")
    parser.add_argument("--openings", default="book",
                        help="book, startpos, random:N or a FILE; several, comma-separated, are shown side by side")
    parser.add_argument("--seed", default="1", help="the run's seed; several, comma-separated, are pooled")
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--margin", type=int, default=0,
                        help="ms past movetime before a time forfeit (0: none; on a loaded machine a margin "
                             "separates strength from stalls, whose forfeits are then counted apart)")
    parser.add_argument("--cpu-clock", action="store_true",
                        help="the engines count their own CPU time (ISAAC_ENGINE_CLOCK=cpu, engine/cpu_clock.py): a "
                             "move of MS ms is MS ms of CPU whatever the machine's load, as on an idle machine; the "
                             "referee's margin becomes 60 s unless --margin says otherwise (forfeits then mean nothing)")
    parser.add_argument("--out", default=None, help="directory for the runs (default: a temporary one)")
    parser.add_argument("--search-settings", default="",
                        help="a variant of the search: its SearchSettings option, '<game>.<field>=<value>,...'")
    parser.add_argument("--no-per-opening", dest="per_opening", action="store_false",
                        help="leave out the results per opening")
    parser.add_argument("--pool", nargs="+", metavar="RUN_DIR",
                        help="play nothing: pool match runs already played (their directories, alike in game and "
                             "engines, e.g. OUT/foundations-treemc-seed7101 of several strength runs) and print them "
                             "as a run of several seeds prints")
    args = parser.parse_args(argv)
    if args.pool:
        return pool_runs(args.pool, args.per_opening, Path(args.out or tempfile.mkdtemp(prefix="strength-pool-")))
    if args.cpu_clock and args.margin == 0:
        args.margin = 60_000
    games = GAMES if args.game == "all" else (args.game,)
    opponents = [o.strip() for o in args.opponents.split(",") if o.strip()]
    kinds = [o.strip() for o in args.openings.split(",") if o.strip()]
    try:
        seeds = [int(s) for s in args.seed.split(",") if s.strip()]
    except ValueError:
        sys.exit(f"--seed {args.seed!r}: whole numbers, comma-separated")
    if not seeds or not kinds:
        sys.exit("give at least one --seed and one --openings")
    if "prev" in opponents and not Path(args.prev, "engine").is_dir():
        sys.exit(f"--prev {args.prev}: no checkout there (git worktree add {args.prev} ffbb6c3)")
    root = Path(args.out or tempfile.mkdtemp(prefix="strength-"))
    print(f"load average {os.getloadavg()[0]:.2f}; "
          f"{f'{args.every_opening} pair(s) an opening' if args.every_opening else f'{args.games} games'} "
          f"per seed, {args.movetime} ms a move (opponent {args.opponent_movetime or args.movetime} ms, "
          f"margin {args.margin} ms{', CPU clock' if args.cpu_clock else ''}), openings {', '.join(kinds)}, seeds {', '.join(map(str, seeds))}, "
          f"concurrency {args.concurrency}"
          f"{'; search settings ' + args.search_settings if args.search_settings else ''}; runs in {root}")
    table: dict[tuple[str, str], dict[str, str]] = {}
    for game in games:
        for opponent in opponents:
            for kind in kinds:
                cell = play_and_report(game, opponent, kind, seeds, args, root)
                table.setdefault((game, opponent), {})[kind] = cell
    if len(kinds) > 1 or len(table) > 1:
        print(side_by_side(table, kinds))
    return 0


def run_name(game: str, opponent: str, kind: str, seed: int, seeds: list[int]) -> str:
    """The run directory's name: the game and opponent, the openings and seed when several are played."""
    name = f"{game}-{opponent}"
    if kind != "book":
        name += "-" + "".join(c if c.isalnum() else "_" for c in Path(kind).name)
    return name + (f"-seed{seed}" if len(seeds) > 1 else "")


def play_and_report(game: str, opponent: str, kind: str, seeds: list[int], args: argparse.Namespace,
                    root: Path) -> str:
    """Plays one match per seed, prints the pooled score and the per-opening view; the table's cell."""
    played = []
    for seed in seeds:
        out = root / run_name(game, opponent, kind, seed, seeds)
        run_args = argparse.Namespace(**{**vars(args), "openings": kind, "seed": seed,
                                          "games": games_for(game, kind, args)})
        played.append((run_match(game, opponent, run_args, out), out))
    kept = root / "lost-both-colours" / run_name(game, opponent, kind, seeds[0], [seeds[0]])
    return report(f"{game} against {opponent}, openings {kind}", played, args.per_opening, kept)


def report(label: str, played: list[tuple[dict, Path]], per_opening: bool, kept: Path) -> str:
    """Pools the match runs `played` (each its summary and its directory, whose records are read; `search` the first
    engine): prints search's score over their game pairs and the per-opening view, writes the games of openings lost
    with both colours to `kept`; the table's cell."""
    penta = [0] * 5
    forfeits = 0
    dark = light = Colour()
    runs: list[list[dict]] = []
    for summary, out in played:
        penta = [a + b for a, b in zip(penta, summary["match"]["pentanomial"], strict=True)]
        search = summary["engines"][0]
        forfeits += sum(search.get("forfeits_lost", {}).values())
        dark = Colour(dark.points + search["dark"]["points"], dark.games + search["dark"]["games"])
        light = Colour(light.points + search["light"]["points"], light.games + search["light"]["games"])
        runs.append(read_records_file(out / RECORDS)[0])
    score, low, high = pair_interval(penta)
    print(f"{label}, {sum(penta) * 2} games: search {100 * score:.1f}% "
          f"[{100 * low:.1f}, {100 * high:.1f}]  Dark {dark.percent():.1f}% Light {light.percent():.1f}%  "
          f"pentanomial {penta}  forfeits {forfeits}", flush=True)
    tallies = tally(runs, "search")
    if per_opening and len(tallies) > 1:
        for number, t in enumerate(tallies, 1):
            print("    " + opening_line(number, t, "search"))
    if len(tallies) > 1:
        print("    " + lost_summary(tallies, "search"))
        written = keep_lost_games(tallies, kept)
        for t in tallies:
            if t.lost_with_both_colours():
                print(f"    lost with both colours: {t.opening}  (Dark {t.dark.text()}, Light {t.light.text()})")
        if written:
            print(f"    their {written} games: {kept / RECORDS} (isaac-svg --records {kept} --game-id N)", flush=True)
    return f"{100 * score:5.1f}% [{100 * low:5.1f}, {100 * high:5.1f}]" + (f" f{forfeits}" if forfeits else "")


def pool_runs(dirs: list[str], per_opening: bool, kept: Path) -> int:
    """--pool: the runs already played (match run directories, from one or several strength runs), pooled."""
    played = []
    kinds = set()
    for out in map(Path, dirs):
        for name in ("summary.json", RECORDS):
            if not (out / name).is_file():
                sys.exit(f"--pool {out}: no {name} there (a match run directory, e.g. OUT/foundations-treemc-seed7101)")
        try:
            summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
            kinds.add((summary["game"], tuple(e["name"] for e in summary["engines"])))
            search = summary["engines"][0]
            if len(summary["match"]["pentanomial"]) != 5 or not all(
                    isinstance(search[colour][key], (int, float)) for colour in ("dark", "light")
                    for key in ("points", "games")):
                raise ValueError("no pentanomial of 5 counts, or no points and games by colour")
        except (ValueError, KeyError, IndexError, TypeError, AttributeError) as bad:
            sys.exit(f"--pool {out}: summary.json is not a finished match's summary ({type(bad).__name__}: {bad})")
        played.append((summary, out))
    if len(kinds) > 1:
        sys.exit(f"--pool: the runs differ in game or engines {sorted(kinds)}; pool alike runs")
    ((game, names),) = kinds
    report(f"{game} against {names[-1]}, {len(played)} runs pooled", played, per_opening, kept)
    return 0


def side_by_side(table: dict[tuple[str, str], dict[str, str]], kinds: list[str]) -> str:
    """Search's score against each opponent, one column per openings kind."""
    width = 24
    lines = ["", f"{'game':12s} {'opponent':10s} " + " ".join(f"{k[:width]:<{width}}" for k in kinds)]
    for (game, opponent), cells in table.items():
        lines.append(f"{game:12s} {opponent:10s} " + " ".join(f"{cells.get(k, '-'):<{width}}" for k in kinds))
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
