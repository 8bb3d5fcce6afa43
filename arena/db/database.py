"""Opening the arena's database and bringing its schema up to date (Alembic).

SQLite (the default, a file in the arena directory) runs in WAL mode with full synchronous
commits: readers (the web pages) never wait for the ladder's writes, and a committed game
survives a kill -9 of the server (and a power cut). PostgreSQL is reached through psycopg 3.
Every write the arena makes is one short transaction.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event, inspect
from sqlalchemy.engine import Engine
from sqlalchemy.exc import ArgumentError, NoSuchModuleError, OperationalError, SQLAlchemyError

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"


class DatabaseError(Exception):
    """The database cannot be opened or migrated; the message says which and why."""


def _sqlite_pragmas(connection: Any, record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


def open_database(url: str, *, pool_size: int = 8) -> Engine:
    """An Engine for `url` (sqlite:///PATH or postgresql+psycopg://...), connected once to prove it."""
    try:
        if url.startswith("sqlite"):
            engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30},
                                   pool_size=pool_size, max_overflow=32)
            event.listen(engine, "connect", _sqlite_pragmas)
        else:
            engine = create_engine(url, pool_size=pool_size, max_overflow=32, pool_pre_ping=True)
        with engine.connect():
            pass
    except (ArgumentError, NoSuchModuleError) as exc:
        raise DatabaseError(f"database {_safe(url)}: not a usable URL ({exc})") from None
    except (OperationalError, SQLAlchemyError) as exc:
        raise DatabaseError(f"database {_safe(url)}: cannot connect ({_first_line(exc)})") from None
    return engine


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest revision (a new database gets every table)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("path_separator", "os")
    try:
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "head")
    except SQLAlchemyError as exc:
        raise DatabaseError(f"database {_safe(str(engine.url))}: migration failed ({_first_line(exc)})") from None


def current_revision(engine: Engine) -> str | None:
    """The schema revision the database is at (None: not an arena database yet)."""
    if "alembic_version" not in inspect(engine).get_table_names():
        return None
    with engine.connect() as connection:
        row = connection.exec_driver_sql("SELECT version_num FROM alembic_version").first()
    return None if row is None else str(row[0])


def _safe(url: str) -> str:
    """The URL without its password (messages and logs never show one)."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        credentials, host = rest.rsplit("@", 1)
        user = credentials.split(":", 1)[0]
        return f"{scheme}://{user}:***@{host}" if ":" in credentials else url
    return url


def _first_line(exc: BaseException) -> str:
    text = str(getattr(exc, "orig", None) or exc).strip()
    return text.splitlines()[0][:300] if text else type(exc).__name__
