"""The arena's tables (SQLAlchemy Core), the same on SQLite and PostgreSQL.

Times are Unix seconds (floats): portable, sortable and cheap to compare. A game's full record
(the referee's format, SPEC 10.4) is kept compressed in its own table, apart from the columns
the pages read, so a leaderboard never touches a record. The migrations in arena/migrations
build exactly these tables (tests compare them).
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
)

metadata = MetaData()

NAME_CHARS = 40
"""Longest author or bot name."""


def _serial_id() -> Column[int]:
    """A table's own key: a whole number the database gives each new row."""
    return Column("id", Integer, primary_key=True, autoincrement=True)


def _results(default: int | None = None) -> list[Column[int]]:
    """Wins, draws and losses: a version's whole tally and its tally against one opponent."""
    return [Column(name, Integer, nullable=False, default=default) for name in ("wins", "draws", "losses")]

authors = Table(
    "authors", metadata,
    _serial_id(),
    Column("name", String(NAME_CHARS), nullable=False, unique=True),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("is_admin", Boolean, nullable=False, default=False),
    Column("created_at", Float, nullable=False),
)

bots = Table(
    "bots", metadata,
    _serial_id(),
    Column("author_id", Integer, ForeignKey("authors.id"), nullable=False, index=True),
    Column("name", String(NAME_CHARS), nullable=False, unique=True),
    Column("created_at", Float, nullable=False),
    Column("deleted", Boolean, nullable=False, default=False),
)

versions = Table(
    "versions", metadata,
    _serial_id(),
    Column("bot_id", Integer, ForeignKey("bots.id"), nullable=False, index=True),
    Column("number", Integer, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("reason", Text, nullable=False, default=""),
    Column("archive", String(255), nullable=False),
    Column("archive_sha256", String(64), nullable=False),
    Column("command", Text, nullable=False, default="[]"),
    Column("build_command", Text, nullable=True),
    Column("build_log", Text, nullable=False, default=""),
    Column("check_report", Text, nullable=False, default=""),
    Column("activated_at", Float, nullable=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False, default=0),
    *_results(default=0),
    Column("failed_in_row", Integer, nullable=False, default=0),
    Column("last_game_at", Float, nullable=True),
    Column("spark", Text, nullable=False, default="[]"),
)

pairs = Table(
    "pairs", metadata,
    _serial_id(),
    Column("game_type", String(16), nullable=False),
    Column("first", Integer, ForeignKey("versions.id"), nullable=False),
    Column("second", Integer, ForeignKey("versions.id"), nullable=False),
    Column("opening", Integer, nullable=False),
    Column("games", Integer, nullable=False),
    Column("status", String(8), nullable=False, index=True),
    Column("created_at", Float, nullable=False),
    Column("finished_at", Float, nullable=True),
)

GAME_IDS_PER_PAIR = 64
"""A game's id is pair id * 64 + its number in the pair: known before it is played, so a game
played again after a crash keeps its id and is recorded once (64-bit: no season runs out of ids)."""

games = Table(
    "games", metadata,
    Column("id", BigInteger, primary_key=True, autoincrement=False),
    Column("pair_id", Integer, ForeignKey("pairs.id"), nullable=False),
    Column("game_type", String(16), nullable=False),
    Column("dark", Integer, ForeignKey("versions.id"), nullable=False),
    Column("light", Integer, ForeignKey("versions.id"), nullable=False),
    Column("result", String(8), nullable=False),
    Column("termination", String(24), nullable=False),
    Column("reason", Text, nullable=False),
    Column("failed", Integer, nullable=True),
    Column("plies", Integer, nullable=False),
    Column("finished_at", Float, nullable=False),
    Column("duration", Float, nullable=False),
    Index("ix_games_dark_id", "dark", "id"),
    Index("ix_games_light_id", "light", "id"),
)

records = Table(
    "records", metadata,
    Column("game_id", BigInteger, ForeignKey("games.id"), primary_key=True, autoincrement=False),
    Column("record", LargeBinary, nullable=False),
)

stderr = Table(
    "stderr", metadata,
    Column("game_id", BigInteger, ForeignKey("games.id"), primary_key=True, autoincrement=False),
    Column("version_id", Integer, ForeignKey("versions.id"), primary_key=True, autoincrement=False),
    Column("head", Text, nullable=False),
    Column("tail", Text, nullable=False),
    Column("total", Integer, nullable=False),
)

encounters = Table(
    "encounters", metadata,
    Column("version_id", Integer, ForeignKey("versions.id"), primary_key=True, autoincrement=False),
    Column("opponent_id", Integer, ForeignKey("versions.id"), primary_key=True, autoincrement=False),
    *_results(),
)

finals = Table(
    "finals", metadata,
    _serial_id(),
    Column("created_at", Float, nullable=False),
    Column("finished_at", Float, nullable=True),
    Column("top", Integer, nullable=False),
    Column("games", Integer, nullable=False),
    Column("status", String(16), nullable=False),
    Column("run_dir", Text, nullable=False),
    Column("ranking", Text, nullable=False, default="[]"),
    Column("message", Text, nullable=False, default=""),
)

# What a version's status means (docs/arena.md, "What authors see").
QUEUED, BUILDING, CHECKING, ACTIVE, REJECTED, RETIRED, SUSPENDED, DELETED = (
    "queued", "building", "checking", "active", "rejected", "retired", "suspended", "deleted")
IN_INTAKE = (QUEUED, BUILDING, CHECKING)
STATUSES = (QUEUED, BUILDING, CHECKING, ACTIVE, REJECTED, RETIRED, SUSPENDED, DELETED)
RUNNING, DONE, VOID = "running", "done", "void"
