"""Digests of everything the referee writes for seeded runs with deterministic engines: a
reorganisation of referee/ shows it changed no output by printing the same digests before and after.

    PYTHONPATH=. python benchmarks/referee_outputs.py [--engines-from DIR] [--keep DIR]

Each scenario runs ``python -m referee`` (the referee of this checkout) in a fresh directory: every
command's --help (and isaac-svg's), matches and a tournament between the built-in engine's
strategies (heuristic, greedy, search) at fixed node counts, from the shipped books and from random
openings, with engines from tests/engines/bad/ that forfeit (an illegal move, a crash), an SPRT, a
resume of a finished run, the report and the PGN rebuilt from the records, and a small book built
and re-judged. Every file of every run directory is digested, with only what must differ between
two runs masked: wall times, dates, think times (``ms``, the engines' own ``time``/``nps``), the
seconds a run took, and the concurrent run's order of finishing.

The engines are taken from ``--engines-from`` (default: this checkout), so two checkouts of the
referee can be compared with the very same engines.
"""

from __future__ import annotations

import argparse
import base64
import gzip
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BAD = Path("tests") / "engines" / "bad"

STAMP = re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:\+00:00)?")
SECONDS = re.compile(r"\b\d+(?:\.\d+)? ?s\b")
MILLIS = re.compile(r"\b\d+ ms\b")
REPLAY = re.compile(r'(<script type="application/json" id="replay-data" data-encoding="([a-z0-9-]+)">)(.*?)(</script>)',
                    re.S)
CONCURRENT = "-concurrent"
COMMANDS = ("match", "tournament", "check", "export-pgn", "report", "book", "repair")
SVG = "isaac-svg"
"""A command line starting with this runs isaac-svg (``-m referee.pictures``) instead of the referee."""
INFO_TIMES = ("time", "nps")
TIMES = ("ms", "duration_s", "seconds", "started_at", "created_at",
         "records", "pgn_bytes", "report_offsets", "seal")
"""Keys whose values are times, or (in checkpoint.json) byte counts and hashes of files that hold times,
and the checkpoint's own seal over them."""


def engine(name: str, strategy: str, engines_from: Path) -> list[str]:
    """The built-in engine of `engines_from` (its working directory, so `-m engine` finds that one)."""
    return ["-engine", f"name={name}", f"cmd={sys.executable} -m engine", f"dir={engines_from}",
            f"option.Strategy={strategy}"]


def bad_engine(name: str, script: str, engines_from: Path) -> list[str]:
    return ["-engine", f"name={name}", f"cmd={sys.executable} {engines_from / BAD / script}"]


def scenarios(engines_from: Path) -> list[tuple[str, list[list[str]]]]:
    """(name, the referee command lines it runs in its own directory, in order). A name ending in
    CONCURRENT plays two games at once: its games finish in any order (see run_scenario)."""
    def builtin(strategy: str) -> list[str]:
        return engine(strategy, strategy, engines_from)

    def bad(name: str, script: str) -> list[str]:
        return bad_engine(name, script, engines_from)

    return [
        ("help", [["--help"], ["--version"], *([command, "--help"] for command in COMMANDS),
                  [SVG, "--help"], [SVG, "--version"]]),
        ("match-isaac-book-sprt", [
            ["match", "--game", "isaac", "--games", "6", "--openings", "book", "--seed", "11",
             "--sprt", "0", "20", "0.05", "0.05", *builtin("heuristic"), *builtin("greedy"),
             "-each", "tc=nodes=400", "--concurrency", "1", "--out", "run"],
            ["match", "--out", "run", "--resume", "--concurrency", "1"],
            ["report", "run"],
            ["export-pgn", "run", "-o", "export.pgn", "--event", "outputs"],
        ]),
        ("match-hari-random-search", [
            ["match", "--game", "hari", "--games", "4", "--openings", "random:4", "--seed", "12",
             *builtin("search"), *builtin("greedy"), "-each", "tc=nodes=300",
             "--concurrency", "1", "--out", "run"],
        ]),
        ("tournament-foundations-forfeits", [
            ["tournament", "--game", "foundations", "--format", "round-robin", "--games", "2", "--rounds", "1",
             "--openings", "book", "--seed", "13", *builtin("search"), *builtin("heuristic"),
             *bad("illegal", "illegal_move.py"),
             *bad("crash", "crash_mid_game.py"),
             "-each", "tc=nodes=300", "--concurrency", "1", "--out", "run"],
        ]),
        ("tournament-isaac-gauntlet-random", [
            ["tournament", "--game", "isaac", "--format", "gauntlet", "--games", "2", "--rounds", "2",
             "--openings", "random:2", "--seed", "14", *builtin("greedy"),
             *builtin("heuristic"), *builtin("random"),
             "-each", "tc=nodes=200", "--concurrency", "1", "--anchor", "random", "--out", "run"],
        ]),
        ("match-foundations-book" + CONCURRENT, [
            ["match", "--game", "foundations", "--games", "6", "--openings", "book", "--seed", "17",
             *builtin("heuristic"), *builtin("greedy"), "-each", "tc=nodes=200", "--concurrency", "2",
             "--out", "run"],
        ]),
        ("book-hari", [
            ["book", "--game", "hari", *builtin("heuristic"), *builtin("greedy"),
             "--tc", "nodes=200", "--judge-tc", "nodes=200", "--count", "3", "--plies", "2", "--max-cp", "100000",
             "--games", "2", "--max-gap", "0.5", "--seed", "15", "--concurrency", "1", "--out", "run",
             "-o", "book.txt"],
            ["book", "--game", "hari", *builtin("heuristic"), *builtin("greedy"),
             "--tc", "nodes=200", "--rejudge", "book.txt", "--pairs", "1", "--max-gap", "0.5", "--seed", "16",
             "--concurrency", "1", "--out", "rejudged", "-o", "rejudged.txt"],
        ]),
    ]


def masked_json(value: object) -> object:
    """A record, summary or configuration with its times replaced by 0."""
    if isinstance(value, dict):
        out: dict[str, object] = {}
        for key, item in value.items():
            if key in TIMES or key in INFO_TIMES:
                out[key] = 0
            else:
                out[key] = masked_json(item)
        return out
    if isinstance(value, list):
        return [masked_json(item) for item in value]
    if isinstance(value, str):
        return STAMP.sub("<stamp>", value)
    return value


def mask_text(text: str) -> str:
    return MILLIS.sub("<ms>", SECONDS.sub("<s>", STAMP.sub("<stamp>", text)))


def mask_pgn(text: str) -> str:
    """Dates and think times masked, and lines joined: a think time of another width (10 s or more)
    moves the line breaks of the movetext after it."""
    text = re.sub(r'\[(Date|Time|UTCDate|UTCTime) "[^"]*"\]', r'[\1 "?"]', text)
    return " ".join(mask_text(text).split())


def mask_jsonl(text: str) -> str:
    return "\n".join(json.dumps(masked_json(json.loads(line)), sort_keys=True) for line in text.splitlines() if line)


def mask_json(text: str) -> str:
    return json.dumps(masked_json(json.loads(text)), sort_keys=True)


def mask_html(text: str) -> str:
    """The page with its embedded replay data decoded (gzip would hide a changed byte's place) and masked."""
    def replay(match: re.Match[str]) -> str:
        data = match.group(3)
        if match.group(2) == "gzip-base64":
            data = gzip.decompress(base64.b64decode(data)).decode("utf-8")
        return match.group(1) + mask_text(data) + match.group(4)
    return mask_text(REPLAY.sub(replay, text))


MASKS: dict[str, Callable[[str], str]] = {".jsonl": mask_jsonl, ".json": mask_json, ".pgn": mask_pgn,
                                          ".html": mask_html}


def games_in_order(text: str) -> str:
    """Records sorted by game id, PGN games by their GameId tag: a concurrent run's files in one order."""
    if text.startswith("{"):
        return "\n".join(sorted(text.splitlines(), key=lambda line: json.loads(line)["game_id"]))
    games = re.split(r"\n(?=\[Event )", text.strip())
    return "\n".join(sorted(games, key=lambda game: int(re.search(r'\[GameId "(\d+)"\]', game)[1])))


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def run_scenario(name: str, commands: list[list[str]], where: Path, engines_from: Path) -> dict[str, str]:
    """Run the commands in `where`; the masked digest of each output file and of each command's stdout.
    Of a concurrent scenario, what depends on the order in which games finish is left out (stdout,
    events.log, checkpoint.json) and records and PGN games are put in order of game id."""
    concurrent = name.endswith(CONCURRENT)
    where.mkdir(parents=True)
    env = dict(os.environ, PYTHONPATH=str(REPO), PYTHONHASHSEED="0")
    digests: dict[str, str] = {}
    for number, command in enumerate(commands, 1):
        program = ["-m", "referee.pictures", *command[1:]] if command[:1] == [SVG] else ["-m", "referee", *command]
        done = subprocess.run([sys.executable, *program], cwd=where, env=env, capture_output=True, text=True,
                              timeout=900)
        if done.returncode not in (0, 1):
            raise SystemExit(f"{name}: 'referee {' '.join(command[:1])}' exited with {done.returncode}:\n"
                             f"{done.stderr[-2000:]}")
        if not concurrent:
            digests[f"stdout.{number}"] = digest(mask_text(done.stdout))
        digests[f"exit.{number}"] = str(done.returncode)
    for path in sorted(p for p in where.rglob("*") if p.is_file()):
        relative = path.relative_to(where).as_posix()
        if path.suffix not in (*MASKS, ".txt", ".log"):
            continue
        if concurrent and path.name in ("events.log", "checkpoint.json"):
            continue
        text = path.read_text(encoding="utf-8")
        if concurrent and path.suffix in (".jsonl", ".pgn"):
            text = games_in_order(text)
        if path.suffix == ".log":
            text = mask_text(text)
        digests[relative] = digest(MASKS.get(path.suffix, lambda t: t)(text))
    return digests


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engines-from", type=Path, default=REPO,
                        help="the checkout whose engine/ and tests/engines/bad/ play (default: this one)")
    parser.add_argument("--keep", type=Path, help="leave the run directories here (a new directory)")
    parser.add_argument("--only", default="", help="run the scenarios whose name holds this text")
    args = parser.parse_args()
    engines_from = args.engines_from.resolve()
    with tempfile.TemporaryDirectory(prefix="referee-outputs-") as scratch:
        base = args.keep if args.keep is not None else Path(scratch)
        total = hashlib.sha256()
        for name, commands in scenarios(engines_from):
            if args.only not in name:
                continue
            digests = run_scenario(name, commands, base / name, engines_from)
            for file, value in digests.items():
                print(f"{name:34} {file:28} {value}")
                total.update(f"{name} {file} {value}\n".encode())
        print(f"all outputs: {total.hexdigest()[:16]}")


if __name__ == "__main__":
    main()
