"""The database layer on SQLite and on PostgreSQL alike: the migrations build the schema the code
uses, tokens are kept hashed, a bot's name belongs to its author, a game is recorded whole and once,
suspension after a window of failures, and the pages' queries."""

from __future__ import annotations

import json

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import select, text

from arena.db import authors as authors_db
from arena.db import bots as bots_db
from arena.db import pages, results
from arena.db.database import DatabaseError, current_revision, migrate, open_database
from arena.db.schema import ACTIVE, RETIRED, SUSPENDED, authors, metadata
from arena.ratings import Rating
from arena.season.export import export_season
from arena.season.standings import season_standings
from referee.results.store import RecordReader


def test_the_migrations_build_exactly_the_tables_of_the_code(arena_engine):
    _, engine = arena_engine
    assert current_revision(engine) == "0001"
    migrate(engine)   # a second run changes nothing
    with engine.connect() as db:
        assert compare_metadata(MigrationContext.configure(db), metadata) == []


def test_sqlite_runs_in_wal_mode(tmp_path):
    engine = open_database(f"sqlite:///{tmp_path / 'a.db'}")
    with engine.connect() as db:
        assert db.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert db.execute(text("PRAGMA synchronous")).scalar() == 2   # FULL


def test_tokens_are_stored_hashed_and_found_only_whole(arena_engine):
    _, engine = arena_engine
    author, token = authors_db.add_author(engine, "alice")
    with engine.connect() as db:
        stored = db.execute(select(authors.c.token_hash).where(authors.c.id == author.id)).scalar_one()
    assert token not in stored and len(stored) == 64
    assert authors_db.author_by_token(engine, token) == author
    assert authors_db.author_by_token(engine, token[:-1]) is None
    assert authors_db.author_by_token(engine, "") is None
    new = authors_db.new_token_for(engine, "alice")
    assert authors_db.author_by_token(engine, token) is None and authors_db.author_by_token(engine, new) == author
    with pytest.raises(authors_db.AuthorError, match="already an author"):
        authors_db.add_author(engine, "alice")
    with pytest.raises(authors_db.AuthorError, match="not allowed"):
        authors_db.add_author(engine, "bad name")


def _version(engine, author_id: int, name: str) -> bots_db.VersionRow:
    row = bots_db.new_submission(engine, author_id, name, f"{name}.tar.gz", "0" * 64, ["python3", "bot.py"], None)
    bots_db.activate(engine, row.id, "playing")
    found = bots_db.version(engine, row.id)
    assert found is not None
    return found


def test_a_bot_name_belongs_to_its_author_and_versions_replace_each_other(arena_engine):
    _, engine = arena_engine
    alice, _ = authors_db.add_author(engine, "alice")
    bob, _ = authors_db.add_author(engine, "bob")
    first = _version(engine, alice.id, "mybot")
    with pytest.raises(bots_db.BotError) as caught:
        bots_db.new_submission(engine, bob.id, "mybot", "x", "0" * 64, ["./x"], None)
    assert caught.value.status == 403 and "belongs to another author" in str(caught.value)
    second = _version(engine, alice.id, "mybot")
    assert second.number == 2
    assert bots_db.version(engine, first.id).status == RETIRED   # type: ignore[union-attr]
    with pytest.raises(bots_db.BotError) as caught:
        bots_db.delete(engine, "mybot", bob.id, False)
    assert caught.value.status == 403
    bots_db.delete(engine, "mybot", alice.id, False)
    assert pages.bot(engine, "mybot") is None
    with pytest.raises(bots_db.BotError) as caught:
        bots_db.delete(engine, "mybot", alice.id, False)
    assert caught.value.status == 404


def _record(game_id: int, dark: str, light: str, result: str = "1-0", termination: str = "normal") -> dict:
    return {"game_id": game_id, "game_type": "hari", "rules_version": "1", "start_position": "hari -/- 3/3 d -",
            "opening": [], "dark": {"name": dark, "cmd": ["x"], "cwd": "/secret/path"},
            "light": {"name": light, "cmd": ["y"], "cwd": None}, "time_control": {"dark": "st=0.1", "light": "st=0.1"},
            "moves": [{"move": "c3c7", "ms": 3}], "result": result, "termination": termination,
            "reason": "Dark has more points", "final_scores": [3, 1], "final_position": "hari x", "pair": 1, "round": 1,
            "started_at": "2026-12-01T00:00:00+00:00", "duration_s": 0.5}


def _sides(dark: bots_db.VersionRow, light: bots_db.VersionRow, failed_dark: int = 0, suspend: str | None = None):
    return (results.SideUpdate(dark.id, Rating(27.0, 8.0), 1.0, False, 0, [1.0]),
            results.SideUpdate(light.id, Rating(23.0, 8.0), 0.0, bool(failed_dark), failed_dark, [0.5], suspend))


def test_a_game_is_recorded_whole_and_once(arena_engine, tmp_path):
    arena, engine = arena_engine
    alice, _ = authors_db.add_author(engine, "alice")
    bob, _ = authors_db.add_author(engine, "bob")
    a, b = _version(engine, alice.id, "a"), _version(engine, bob.id, "b")
    pair = results.new_pair(engine, "hari", a.id, b.id, 0, 2)
    record = _record(pair.game_id(0), a.engine_name, b.engine_name)
    parts = [results.StderrPart(b.id, "head", "tail", 12)]
    assert results.store_game(engine, pair, record, *_sides(a, b), parts)
    assert not results.store_game(engine, pair, record, *_sides(a, b), parts)   # a replay: nothing twice
    after = bots_db.version(engine, a.id)
    assert after is not None and (after.games, after.wins, after.mu) == (1, 1, 27.0)
    assert results.recorded_games(engine, pair) == {pair.game_id(0)}
    assert results.game_record(engine, pair.game_id(0)) == record
    assert pages.stderr_of(engine, pair.game_id(0), bob.id)[0]["head"] == "head"
    assert pages.stderr_of(engine, pair.game_id(0), alice.id) == []   # not alice's bot
    board = pages.leaderboard(engine)
    assert [r["bot"] for r in board] == ["a", "b"] and board[0]["spark"] == [1.0]
    page = pages.bot(engine, "b")
    assert page is not None and page["against"] == [{"opponent": "a", "wins": 0, "draws": 0, "losses": 1,
                                                      "games": 1, "score": 0.0}]
    assert page["recent_games"][0]["dark"] == {"bot": "a", "version": 1, "deleted": False}
    assert [p.id for p in results.unfinished_pairs(engine)] == [pair.id]
    results.finish_pair(engine, pair.id)
    assert results.unfinished_pairs(engine) == []
    standings = season_standings(engine)
    assert standings["games"] == 1 and [e["name"] for e in standings["ratings"]["engines"]] == ["a-v1", "b-v1"]
    # the export is the referee's records.jsonl: its strict reader takes it
    assert export_season(engine, tmp_path / "export", arena.config.name) == 1
    assert [r["game_id"] for r in RecordReader(tmp_path / "export" / "records.jsonl")] == [pair.game_id(0)]
    assert "[Dark \"a-v1\"]" in (tmp_path / "export" / "games.pgn").read_text()


def test_a_suspension_lands_with_the_game_that_causes_it(arena_engine):
    _, engine = arena_engine
    alice, _ = authors_db.add_author(engine, "alice")
    bob, _ = authors_db.add_author(engine, "bob")
    a, b = _version(engine, alice.id, "a"), _version(engine, bob.id, "b")
    pair = results.new_pair(engine, "hari", a.id, b.id, 0, 2)
    record = _record(pair.game_id(0), a.engine_name, b.engine_name, termination="crash")
    assert results.store_game(engine, pair, record, *_sides(a, b, failed_dark=3, suspend="suspended after 3"), [])
    row = bots_db.version(engine, b.id)
    assert row is not None and (row.status, row.reason, row.failed_in_row) == (SUSPENDED, "suspended after 3", 3)
    assert bots_db.resume(engine, "b") == 1
    row = bots_db.version(engine, b.id)
    assert row is not None and (row.status, row.failed_in_row) == (ACTIVE, 0)
    with pytest.raises(bots_db.BotError, match="no suspended version"):
        bots_db.resume(engine, "b")


def test_an_author_has_at_most_three_submissions_waiting(arena_engine):
    _, engine = arena_engine
    alice, _ = authors_db.add_author(engine, "alice")
    for n in range(3):
        bots_db.new_submission(engine, alice.id, f"b{n}", "a.zip", "0" * 64, ["./a"], None)
    with pytest.raises(bots_db.BotError) as caught:
        bots_db.new_submission(engine, alice.id, "b9", "a.zip", "0" * 64, ["./a"], None)
    assert caught.value.status == 429 and "3 submissions waiting" in str(caught.value)
    bots_db.activate(engine, 1, "playing")
    bots_db.new_submission(engine, alice.id, "b9", "a.zip", "0" * 64, ["./a"], None)


def test_interrupted_builds_go_back_to_the_queue(arena_engine):
    _, engine = arena_engine
    alice, _ = authors_db.add_author(engine, "alice")
    row = bots_db.new_submission(engine, alice.id, "a", "a.zip", "0" * 64, ["./a"], "make")
    bots_db.set_status(engine, row.id, "building", "building")
    assert bots_db.requeue_interrupted(engine) == 1
    assert [r.id for r in bots_db.versions_with_status(engine, "queued")] == [row.id]


def test_an_unreachable_database_is_one_message():
    with pytest.raises(DatabaseError) as caught:
        open_database("postgresql+psycopg://nobody:secret@127.0.0.1:1/none")
    assert "cannot connect" in str(caught.value) and "secret" not in str(caught.value)


def test_public_check_hides_the_evidence(arena_engine):
    _, engine = arena_engine
    alice, _ = authors_db.add_author(engine, "alice")
    row = _version(engine, alice.id, "a")
    report = {"ok": True, "tiers": {"required": {"verdict": "PASS"}},
              "results": [{"name": "start-up", "tier": "required", "status": "PASS", "detail": "uciok after 3 ms"}]}
    bots_db.set_status(engine, row.id, ACTIVE, "playing", check_report=json.dumps(report))
    page = pages.bot(engine, "a")
    assert page is not None and page["check"]["results"] == [{"name": "start-up", "tier": "required", "status": "PASS"}]
    mine = pages.author_view(engine, alice.id)
    assert mine["bots"][0]["versions"][0]["check"]["results"][0]["detail"] == "uciok after 3 ms"
