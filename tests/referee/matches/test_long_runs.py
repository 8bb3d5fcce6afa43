"""A run of any length in constant memory: compact sets, the lazy schedule, running counts equal to
the statistics of the records, repeated games, checkpoints trusted only when they match, records
read as a stream, a bounded report, per-game seeds, random openings drawn on demand."""

from __future__ import annotations

import base64
import json
import random
from itertools import combinations
from pathlib import Path

import pytest

import protocol
from protocol.messages import OptionSpec
from referee.cli.command import UsageError
from referee.cli.prepare import opening_book
from referee.engines.player import seed_value
from referee.engines.process import EngineSpec
from referee.formats.record import GameRecord
from referee.formats.timecontrol import TimeControl
from referee.matches.openings import RANDOM_CACHE, OpeningBook, OpeningSource
from referee.matches.plan import RunPlan
from referee.matches.schedule import ScheduledGame, game_seed, match_schedule, tournament_schedule
from referee.matches.tracker import Tracker
from referee.results.checkpoint import CHECKPOINT, checkpoint_text, load_checkpoint, write_checkpoint
from referee.results.compact import GameIdSet, HashSet64, from_base64, to_base64
from referee.results.ratings import crosstable_of, encounters_of
from referee.results.report import (
    MAX_REPORT_BYTES,
    SHOWN_FORFEITS,
    SHOWN_LATEST,
    ReportBuilder,
    RunView,
    render_page,
)
from referee.results.store import RecordReader, Store, StoreError, read_records_file
from referee.results.tally import REPEAT_MIN_GAMES, MatchStats, RunTally, engine_totals, pentanomial_counts

START = {name: protocol.new_game(name).position() for name in protocol.GAME_NAMES}
FORFEITS = ["time forfeit", "illegal move", "crash"]


def record(game_id: int, dark: str, light: str, result: str, termination: str = "normal", *,
           pair: int | None = None, round_: int | None = 1, moves: list[str] | None = None,
           game: str = "foundations") -> dict:
    """A schema-valid record (its moves need not replay: statistics do not read them)."""
    return {"game_id": game_id, "game_type": game, "rules_version": "1", "start_position": START[game],
            "opening": [], "dark": {"name": dark}, "light": {"name": light},
            "time_control": {"dark": "st=0.1", "light": "st=0.1"},
            "moves": [{"move": m, "ms": 1} for m in (moves if moves is not None else [f"m{game_id}"])],
            "result": result, "termination": termination, "reason": "r", "final_scores": [],
            "final_position": START[game], "pair": pair, "round": round_}


def tournament_records(names: list[str], pairs_per_encounter: int, seed: int) -> list[dict]:
    """Game pairs of every encounter with random results (some forfeits), finished in a shuffled order."""
    rng = random.Random(seed)
    out, pair = [], 0
    for a, b in combinations(names, 2):
        for _ in range(pairs_per_encounter):
            for dark, light in ((a, b), (b, a)):
                termination = "normal" if rng.random() < 0.85 else rng.choice(FORFEITS)
                result = rng.choice(["1-0", "0-1"]) if termination != "normal" else rng.choice(["1-0", "0-1", "1/2-1/2"])
                out.append(record(len(out), dark, light, result, termination, pair=pair))
            pair += 1
    order = list(range(len(out)))
    rng.shuffle(order)
    return [out[i] for i in order]


# -- compact sets -----------------------------------------------------------------------------------

def test_game_id_set_is_a_bitmap():
    ids = GameIdSet()
    assert ids.add(5) and ids.add(999_999) and not ids.add(5)
    assert 5 in ids and 999_999 in ids and 6 not in ids and -1 not in ids and "5" not in ids
    assert len(ids) == 2
    back = GameIdSet.from_bytes(ids.to_bytes())
    assert len(back) == 2 and 999_999 in back and len(ids.to_bytes()) == 999_999 // 8 + 1


def test_hash_set_keeps_64_bit_hashes_in_a_table_of_machine_words():
    rng = random.Random(1)
    values = [rng.getrandbits(64) for _ in range(20_000)]
    hashes = HashSet64()
    assert all(hashes.add(v) for v in values)
    assert not any(hashes.add(v) for v in values[::7])
    assert len(hashes) == 20_000 and hashes.nbytes <= 16 * 20_000 * 2
    back = HashSet64.from_bytes(hashes.to_bytes(), len(hashes))
    assert not any(back.add(v) for v in values) and back.add(rng.getrandbits(64))
    with pytest.raises(ValueError):
        HashSet64.from_bytes(b"\0" * 800, 0)


def test_base64_a_chunk_at_a_time_is_base64():
    data = bytes(random.Random(2).getrandbits(8) for _ in range(10_000))
    assert to_base64(data, chunk=3 * 97) == base64.b64encode(data).decode()
    assert from_base64(to_base64(data)) == data


# -- the schedule, computed from an index -------------------------------------------------------------

def reference_tournament(names: list[str], fmt: str, games: int, rounds: int) -> list[tuple]:
    """The schedule as a list, built the straightforward way (the order the lazy one must give)."""
    pairings = list(combinations(names, 2)) if fmt == "round-robin" else [(names[0], o) for o in names[1:]]
    per = (games + 1) // 2
    rows, pair_id = [], 0
    for r in range(rounds):
        per_encounter = []
        for e, (first, second) in enumerate(pairings):
            swap = (r + e) % 2 == 1 and games % 2 == 1
            a, b = (second, first) if swap else (first, second)
            pairs = []
            for k in range(per):
                pair = [(a, b, r * per + k, pair_id + e * per + k, r + 1)]
                if 2 * k + 1 < games:
                    pair.append((b, a, r * per + k, pair_id + e * per + k, r + 1))
                pairs.append(pair)
            per_encounter.append(pairs)
        pair_id += len(pairings) * per
        for k in range(per):
            for pairs in per_encounter:
                rows += pairs[k]
    return [(i, *row) for i, row in enumerate(rows)]


@pytest.mark.parametrize("fmt", ["round-robin", "gauntlet"])
@pytest.mark.parametrize("games,rounds", [(1, 1), (2, 3), (3, 2), (5, 1)])
def test_the_lazy_schedule_is_the_listed_one(fmt, games, rounds):
    names = ["A", "B", "C", "D"]
    lazy = tournament_schedule(names, fmt, games, rounds)
    as_tuples = [(g.index, g.dark, g.light, g.opening, g.pair, g.round) for g in lazy]
    assert as_tuples == reference_tournament(names, fmt, games, rounds)
    assert lazy.openings_used() == max(g.opening for g in lazy) + 1
    assert lazy[-1] == lazy[len(lazy) - 1] and lazy[1:3] == [lazy[1], lazy[2]]


def test_a_million_game_schedule_costs_nothing():
    schedule = match_schedule("A", "B", 1_000_000)
    assert len(schedule) == 1_000_000
    assert schedule[999_999] == ScheduledGame(999_999, "B", "A", 499_999, 499_999, 1)
    with pytest.raises(IndexError):
        schedule[1_000_000]
    assert schedule == match_schedule("A", "B", 1_000_000) and schedule != match_schedule("A", "B", 10)


# -- running counts ---------------------------------------------------------------------------------

def test_the_running_counts_are_the_statistics_of_the_records():
    names = ["a", "b", "c", "d"]
    records = tournament_records(names, 6, seed=3)
    tally = RunTally(names)
    for r in records:
        tally.add(r)
    typed = [GameRecord.from_json(r) for r in records]
    reference = engine_totals(typed, names)
    assert {n: tally.totals[n].to_json() for n in names} == {n: reference[n].to_json() for n in names}
    assert tally.termination_counts() == dict(sorted(
        {t: sum(r["termination"] == t for r in records) for t in {r["termination"] for r in records}}.items()))
    cross = crosstable_of(tally.cells, names)
    for a in names:
        for b in names:
            if a == b:
                continue
            games = [r for r in records if {r["dark"]["name"], r["light"]["name"]} == {a, b}]
            points = sum({"1-0": 1.0, "0-1": 0.0}.get(r["result"], 0.5) if r["dark"]["name"] == a
                         else {"1-0": 0.0, "0-1": 1.0}.get(r["result"], 0.5) for r in games)
            assert cross[a][b] == {"games": len(games), "points": points}
    by_pair = {(e["first"], e["second"]): e for e in encounters_of(tally, names)}
    for a, b in combinations(names, 2):
        games = [g for g in typed if {g.dark["name"], g.light["name"]} == {a, b}]
        assert by_pair[(a, b)]["pentanomial"] == pentanomial_counts(games, a)
        assert by_pair[(a, b)]["games"] == len(games)
    assert all(not e.pairs.open_pairs for e in tally.encounters.values())   # only unfinished pairs are kept
    again = RunTally(names)
    again.load_state(tally.state())
    assert again.state() == tally.state()


def test_a_match_tally_keeps_only_the_pairs_still_open_and_agrees_with_match_stats():
    records = [r for r in tournament_records(["x", "y"], 40, seed=4)]
    tally = RunTally(["x", "y"], match=("x", "y"))
    stats = MatchStats("x", "y")
    for r in records[:-1]:
        tally.add(r)
        stats.add(GameRecord.from_json(r))
    assert tally.match is not None and tally.match.to_json() == stats.to_json()
    assert len(tally.match._pairs.open_pairs) == 1      # the pair whose second game is not in yet


def test_repeated_games_are_counted_and_warned_about_above_one_percent():
    tally = RunTally(["a", "b"])
    for i in range(REPEAT_MIN_GAMES):
        tally.add(record(i, "a", "b", "1-0", moves=[f"m{i}"]))
    assert tally.repeats.repeated == 0 and tally.repeats.warning() is None
    tally.add(record(100, "a", "b", "0-1", moves=["m3"]))           # the same plies as game 3
    tally.add(record(101, "a", "b", "0-1", "time forfeit", moves=["m4"]))   # a forfeit: not a repeat
    assert tally.repeats.to_json() == {"games_checked": 101, "repeated": 1, "share": 0.0099, "warning": False}
    tally.add(record(102, "a", "b", "1-0", moves=["m3"]))
    assert tally.repeats.repeated == 2 and "2 of 102 games (2.0%) repeat" in (tally.repeats.warning() or "")


# -- records as a stream and the checkpoint ---------------------------------------------------------------

def write_records(path: Path, records: list[dict]) -> None:
    path.write_text("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records))


def plan_for(names: list[str], games: int) -> RunPlan:
    specs = [EngineSpec(n, ["x"], tc=TimeControl.parse("st=0.1")) for n in names]
    return RunPlan("tournament", "foundations", specs, tournament_schedule(names, "round-robin", games, 1),
                   OpeningBook.fixed("foundations", []))


def test_the_stream_reader_reads_what_the_whole_file_reader_reads(tmp_path):
    records = tournament_records(["a", "b", "c"], 3, seed=5)
    path = tmp_path / "records.jsonl"
    write_records(path, records)
    with open(path, "ab") as fh:
        fh.write(b'{"game_id": 99, "torn')
    listed, keep = read_records_file(path)
    reader = RecordReader(path)
    assert list(reader) == listed == records and reader.keep == keep == len(path.read_bytes()) - 21


def test_a_checkpoint_counts_the_prefix_and_only_the_records_after_it_are_read(tmp_path):
    names = ["a", "b", "c"]
    records = sorted(tournament_records(names, 4, seed=6), key=lambda r: r["game_id"])
    identity = {"run": "test"}
    store = Store(tmp_path)
    write_records(store.path("records.jsonl"), records[:10])
    first = Tracker(plan_for(names, 8))
    loaded = first.load(store, identity)
    assert loaded.read == 10 and not loaded.from_checkpoint
    write_checkpoint(store, checkpoint_text(identity, loaded.end, first.tally.state(), first.shown.offsets(), None))
    with open(store.path("records.jsonl"), "a") as fh:
        fh.write("".join(json.dumps(r) + "\n" for r in records[10:]))
    second = Tracker(plan_for(names, 8))
    again = second.load(store, identity)
    assert again.from_checkpoint and again.read == len(records) - 10
    whole = Tracker(plan_for(names, 8), records)
    assert second.tally.state() == whole.tally.state()
    assert [r["game_id"] for r in second.shown.records()] == [r["game_id"] for r in whole.shown.records()]
    # another run's identity, or a checkpoint changed by hand: set aside, every record read
    assert load_checkpoint(store, {"run": "other"}) is None
    text = store.path(CHECKPOINT).read_text().replace('"recorded":10', '"recorded":11')
    store.path(CHECKPOINT).write_text(text)
    assert load_checkpoint(store, identity) is None


IDENTITY = {"run": "test"}


def checkpointed_records(tmp_path, games: int, seed: int) -> tuple[list[dict], Store]:
    """A three-engine tournament's records in a run directory, with a checkpoint at their end."""
    names = ["a", "b", "c"]
    records = sorted(tournament_records(names, games // 2, seed=seed), key=lambda r: r["game_id"])
    store = Store(tmp_path)
    write_records(store.path("records.jsonl"), records)
    tracker = Tracker(plan_for(names, games))
    loaded = tracker.load(store, IDENTITY)
    write_checkpoint(store, checkpoint_text(IDENTITY, loaded.end, tracker.tally.state(), [], None))
    return records, store


def test_an_edit_inside_the_checkpointed_prefix_is_found_with_its_line_and_field(tmp_path):
    names, identity = ["a", "b", "c"], IDENTITY
    _, store = checkpointed_records(tmp_path, 8, seed=7)
    text = store.path("records.jsonl").read_text()
    store.path("records.jsonl").write_text(text.replace('"result":"1-0"', '"result":"2-0"', 1))  # same length
    assert load_checkpoint(store, identity) is None
    with pytest.raises(StoreError, match=r"records.jsonl, line \d+: field result: found \"2-0\""):
        Tracker(plan_for(names, 8)).load(store, identity)


def test_a_game_repeated_after_the_checkpoint_names_its_first_line(tmp_path):
    names, identity = ["a", "b", "c"], IDENTITY
    records, store = checkpointed_records(tmp_path, 4, seed=8)
    with open(store.path("records.jsonl"), "a") as fh:
        fh.write(json.dumps(records[2]) + "\n")
    with pytest.raises(StoreError, match=rf"line {len(records) + 1}: game_id 2 already recorded at line 3"):
        Tracker(plan_for(names, 4)).load(store, identity)


# -- the report stays small ------------------------------------------------------------------------------

def played(game_id: int, rng: random.Random, termination: str = "normal") -> dict:
    game = protocol.new_game("hari")
    moves = []
    while not game.is_over() and len(moves) < 12:
        move = game.random_move(rng)
        game.push(move)
        moves.append(str(move))
    out = record(game_id, "alpha", "beta", rng.choice(["1-0", "0-1"]), termination, moves=moves, game="hari")
    out["final_position"] = game.position()
    return out


def test_the_report_embeds_the_latest_games_and_forfeits_and_stays_under_its_limit(tmp_path):
    rng = random.Random(9)
    builder = ReportBuilder("long run", ["alpha", "beta"])
    for i in range(SHOWN_LATEST + 180):
        builder.add(played(i, rng, "time forfeit" if i % 3 == 0 and i < 150 else "normal"))
    embedded = builder.shown.records()
    forfeits = [r["game_id"] for r in embedded if r["termination"] != "normal"]
    assert forfeits == list(range(0, 150, 3))                 # every forfeit, however old (50 <= 100)
    assert [r["game_id"] for r in embedded if r["termination"] == "normal"] == list(range(180, 280))
    assert SHOWN_FORFEITS >= 50
    page = builder.html()
    assert len(page.encode()) <= MAX_REPORT_BYTES
    assert "280 games recorded" in page and 'id="ratings-plot"' in page and "isaac-svg --records" in page
    small = render_page("t", {}, RunView.of(builder.tally), embedded, builder.drawings, limit=len(page) // 3)
    assert len(small.encode()) <= len(page) // 3 and "left out to keep this page" in small
    assert builder.write(tmp_path).stat().st_size == len(page.encode())


# -- seeds and openings ------------------------------------------------------------------------------------

def test_each_game_gets_its_own_seed_from_the_run_seed():
    seeds = [game_seed(5, i) for i in range(20_000)]
    assert len(set(seeds)) == len(seeds) and all(0 <= s < 2**31 - 1 for s in seeds)
    assert seeds == [game_seed(5, i) for i in range(20_000)] and game_seed(6, 0) != seeds[0]
    spin = OptionSpec("Seed", "spin", "0", min=10, max=19)
    assert {seed_value(spin, s) for s in range(100)} == set(range(10, 20))
    assert seed_value(OptionSpec("Seed", "spin", "0", min=0, max=2**31 - 1), 12345) == 12345


def test_random_openings_are_drawn_on_demand_and_pinned_by_a_digest():
    book = OpeningBook("foundations", OpeningSource("random", plies=2), seed=3)
    first = [book.get(i) for i in range(RANDOM_CACHE + 10)]
    assert len(book._cache) == RANDOM_CACHE and book.get(0) == first[0]
    identity = {"game": "foundations", "seed": 3, "openings": {"kind": "random", "plies": 2}}
    check = {"count": 16, "sha256": book.check(16)}
    assert opening_book(identity, [], check).get(5) == first[5]
    with pytest.raises(UsageError, match="differ from the run's own"):
        opening_book({**identity, "seed": 4}, [], check)
