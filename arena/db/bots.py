"""Bots and their versions in the database: submissions, the intake's progress, the ladder's roster,
and what authors and the host may do to a bot (suspend, resume, delete)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, func, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from ..ratings import MU0, SIGMA0
from .schema import (
    ACTIVE,
    BUILDING,
    CHECKING,
    DELETED,
    IN_INTAKE,
    QUEUED,
    REJECTED,
    RETIRED,
    SUSPENDED,
    bots,
    versions,
)

MAX_WAITING = 3
"""Submissions of one author waiting for their build and check at once (each costs the machine)."""


class BotError(Exception):
    """A bot action refused; `status` is the HTTP status that says why (403 not yours, 404 none...)."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class VersionRow:
    """What the intake and the ladder need of a version."""

    id: int
    bot_id: int
    bot: str
    number: int
    status: str
    reason: str
    archive: str
    command: list[str]
    build_command: str | None
    mu: float
    sigma: float
    games: int
    wins: int
    draws: int
    losses: int
    failed_in_row: int
    last_game_at: float | None
    activated_at: float | None
    spark: list[float]

    @property
    def engine_name(self) -> str:
        """The version's name in game records: `bot-vN`."""
        return f"{self.bot}-v{self.number}"


_COLUMNS = (versions.c.id, versions.c.bot_id, bots.c.name.label("bot"), versions.c.number, versions.c.status,
            versions.c.reason, versions.c.archive, versions.c.command, versions.c.build_command, versions.c.mu, versions.c.sigma,
            versions.c.games, versions.c.wins, versions.c.draws, versions.c.losses, versions.c.failed_in_row,
            versions.c.last_game_at, versions.c.activated_at, versions.c.spark)


def _row(r: Any) -> VersionRow:
    return VersionRow(id=int(r.id), bot_id=int(r.bot_id), bot=str(r.bot), number=int(r.number),
                      status=str(r.status), reason=str(r.reason), archive=str(r.archive), command=list(json.loads(r.command or "[]")),
                      build_command=r.build_command, mu=float(r.mu), sigma=float(r.sigma), games=int(r.games),
                      wins=int(r.wins), draws=int(r.draws), losses=int(r.losses),
                      failed_in_row=int(r.failed_in_row), last_game_at=r.last_game_at,
                      activated_at=r.activated_at, spark=list(json.loads(r.spark or "[]")))


def _select() -> Any:
    return select(*_COLUMNS).select_from(versions.join(bots, versions.c.bot_id == bots.c.id))


def version(engine: Engine, version_id: int) -> VersionRow | None:
    with engine.connect() as db:
        row = db.execute(_select().where(versions.c.id == version_id)).first()
    return None if row is None else _row(row)


def versions_with_status(engine: Engine, *statuses: str) -> list[VersionRow]:
    with engine.connect() as db:
        rows = db.execute(_select().where(versions.c.status.in_(statuses)).order_by(versions.c.id)).all()
    return [_row(r) for r in rows]


def new_submission(engine: Engine, author_id: int, bot_name: str, archive: str, sha256: str,
                   command: list[str], build_command: str | None) -> VersionRow:
    """A new version of `bot_name` (the bot is made on its first submission), queued for the intake.
    BotError 403 if another author owns a bot of that name."""
    now = time.time()
    for _ in range(3):   # two first submissions of one name at once: the loser retries and finds it
        try:
            with engine.begin() as db:
                bot = db.execute(select(bots.c.id, bots.c.author_id, bots.c.deleted)
                                 .where(bots.c.name == bot_name)).first()
                if bot is None:
                    bot_id = int(db.execute(insert(bots).values(author_id=author_id, name=bot_name, created_at=now,
                                                                deleted=False)).inserted_primary_key[0])  # type: ignore[index]
                elif int(bot.author_id) != author_id:
                    raise BotError(f"the bot name {bot_name!r} belongs to another author; choose another name "
                                   f"in arena.toml", 403)
                else:
                    bot_id = int(bot.id)
                    if bot.deleted:
                        db.execute(update(bots).where(bots.c.id == bot_id).values(deleted=False))
                waiting = int(db.execute(select(func.count()).select_from(versions.join(bots, versions.c.bot_id == bots.c.id))
                                         .where(and_(bots.c.author_id == author_id,
                                                     versions.c.status.in_(IN_INTAKE)))).scalar_one())
                if waiting >= MAX_WAITING:
                    raise BotError(f"you have {waiting} submissions waiting for their build and check; send the next "
                                   f"one when they are done", 429)
                number = int(db.execute(select(func.coalesce(func.max(versions.c.number), 0))
                                        .where(versions.c.bot_id == bot_id)).scalar_one()) + 1
                version_id = int(db.execute(insert(versions).values(
                    bot_id=bot_id, number=number, created_at=now, status=QUEUED, reason="waiting for its build",
                    archive=archive, archive_sha256=sha256, command=json.dumps(command), build_command=build_command,
                    build_log="", check_report="", mu=MU0, sigma=SIGMA0, games=0, wins=0, draws=0, losses=0,
                    failed_in_row=0, spark="[]")).inserted_primary_key[0])  # type: ignore[index]
            found = version(engine, version_id)
            assert found is not None
            return found
        except IntegrityError:
            continue
    raise BotError(f"could not record a submission of {bot_name!r} (try again)", 503)


def set_status(engine: Engine, version_id: int, status: str, reason: str, **columns: Any) -> None:
    with engine.begin() as db:
        db.execute(update(versions).where(versions.c.id == version_id).values(status=status, reason=reason, **columns))


def requeue_interrupted(engine: Engine) -> int:
    """Versions whose build or check was cut off (the server was killed) go back to the queue."""
    with engine.begin() as db:
        done = db.execute(update(versions).where(versions.c.status.in_((BUILDING, CHECKING)))
                          .values(status=QUEUED, reason="waiting for its build (the server restarted)"))
    return int(done.rowcount or 0)


def activate(engine: Engine, version_id: int, reason: str) -> None:
    """The version enters the ladder; the bot's earlier playing or suspended version retires."""
    with engine.begin() as db:
        bot_id = db.execute(select(versions.c.bot_id).where(versions.c.id == version_id)).scalar_one()
        db.execute(update(versions).where(and_(versions.c.bot_id == bot_id, versions.c.id != version_id,
                                               versions.c.status.in_((ACTIVE, SUSPENDED))))
                   .values(status=RETIRED, reason="a newer version replaced it"))
        db.execute(update(versions).where(versions.c.id == version_id)
                   .values(status=ACTIVE, reason=reason, activated_at=time.time()))


def bot_id_of(db: Connection, name: str) -> tuple[int, int] | None:
    row = db.execute(select(bots.c.id, bots.c.author_id).where(and_(bots.c.name == name, bots.c.deleted.is_(False)))).first()
    return None if row is None else (int(row.id), int(row.author_id))


def _owned(db: Connection, name: str, author_id: int, is_admin: bool) -> int:
    found = bot_id_of(db, name)
    if found is None:
        raise BotError(f"no bot called {name!r}", 404)
    bot_id, owner = found
    if not is_admin and owner != author_id:
        raise BotError(f"the bot {name!r} is not yours", 403)
    return bot_id


def suspend(engine: Engine, name: str, reason: str) -> int:
    """The host stops a bot's playing version; the number of versions changed."""
    with engine.begin() as db:
        bot_id = _owned(db, name, 0, True)
        done = db.execute(update(versions).where(and_(versions.c.bot_id == bot_id, versions.c.status == ACTIVE))
                          .values(status=SUSPENDED, reason=reason))
    return int(done.rowcount or 0)


def resume(engine: Engine, name: str) -> int:
    """The host lets a suspended version play again (its failure count starts afresh)."""
    with engine.begin() as db:
        bot_id = _owned(db, name, 0, True)
        newest = db.execute(select(versions.c.id).where(and_(versions.c.bot_id == bot_id, versions.c.status == SUSPENDED))
                            .order_by(versions.c.number.desc())).first()
        if newest is None:
            raise BotError(f"the bot {name!r} has no suspended version", 409)
        db.execute(update(versions).where(versions.c.id == newest.id)
                   .values(status=ACTIVE, reason="resumed by the host", failed_in_row=0))
    return 1


def delete(engine: Engine, name: str, author_id: int, is_admin: bool) -> None:
    """The bot leaves the ladder and the pages (its games stay in the records and the export)."""
    with engine.begin() as db:
        bot_id = _owned(db, name, author_id, is_admin)
        db.execute(update(versions).where(and_(versions.c.bot_id == bot_id,
                                               versions.c.status.in_((ACTIVE, SUSPENDED, *IN_INTAKE))))
                   .values(status=DELETED, reason="deleted by the host" if is_admin else "deleted by its author"))
        db.execute(update(bots).where(bots.c.id == bot_id).values(deleted=True))


def owner_of(engine: Engine, name: str) -> int | None:
    with engine.connect() as db:
        found = bot_id_of(db, name)
    return None if found is None else found[1]


def version_dir_name(row: VersionRow) -> str:
    return f"{row.bot}/v{row.number}"


__all__ = ["ACTIVE", "BotError", "REJECTED", "VersionRow", "activate", "delete", "new_submission",
           "requeue_interrupted", "resume", "set_status", "suspend", "version", "versions_with_status"]
