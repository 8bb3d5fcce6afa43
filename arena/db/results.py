"""Recording a finished ladder game: one transaction holds the game, its record, the bots' stderr,
both ratings, their counts, the head-to-head score and a suspension if one is due.

So a kill -9 at any moment leaves either the whole game or none of it: a game in flight is
played again on restart (its id is fixed before it starts, so it is recorded once).
"""

from __future__ import annotations

import json
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from ..ratings import Rating
from .schema import (
    ACTIVE,
    DONE,
    GAME_IDS_PER_PAIR,
    RUNNING,
    SUSPENDED,
    VOID,
    encounters,
    games,
    pairs,
    records,
    stderr,
    versions,
)


def pack(record: dict[str, Any]) -> bytes:
    return zlib.compress(json.dumps(record, separators=(",", ":")).encode(), 6)


def unpack(blob: bytes) -> dict[str, Any]:
    data = json.loads(zlib.decompress(blob))
    if not isinstance(data, dict):
        raise ValueError("a stored record is not a JSON object")
    return data


@dataclass(frozen=True)
class SideUpdate:
    """What one game changes for one side: its new rating and counts, and a suspension if due."""

    version_id: int
    rating: Rating
    points: float          # 1, 0.5 or 0
    failed: bool           # this side forfeited the game
    failed_in_row: int     # its run of failed games after this one
    spark: list[float]
    suspend_reason: str | None = None


@dataclass(frozen=True)
class StderrPart:
    version_id: int
    head: str
    tail: str
    total: int


@dataclass(frozen=True)
class Pair:
    id: int
    game_type: str
    first: int
    second: int
    opening: int
    games: int

    def game_id(self, number: int) -> int:
        return self.id * GAME_IDS_PER_PAIR + number


def new_pair(engine: Engine, game_type: str, first: int, second: int, opening: int, count: int) -> Pair:
    with engine.begin() as db:
        pair_id = int(db.execute(insert(pairs).values(game_type=game_type, first=first, second=second, opening=opening,
                                                      games=count, status=RUNNING, created_at=time.time()))
                      .inserted_primary_key[0])  # type: ignore[index]
    return Pair(pair_id, game_type, first, second, opening, count)


def unfinished_pairs(engine: Engine) -> list[Pair]:
    """Pairs that were being played when the server stopped: their missing games are played again."""
    with engine.connect() as db:
        rows = db.execute(select(pairs).where(pairs.c.status == RUNNING).order_by(pairs.c.id)).all()
    return [Pair(int(r.id), str(r.game_type), int(r.first), int(r.second), int(r.opening), int(r.games)) for r in rows]


def recorded_games(engine: Engine, pair: Pair) -> set[int]:
    low, high = pair.game_id(0), pair.game_id(GAME_IDS_PER_PAIR - 1)
    with engine.connect() as db:
        return {int(x) for x in db.execute(select(games.c.id).where(and_(games.c.id >= low, games.c.id <= high))).scalars()}


def finish_pair(engine: Engine, pair_id: int, void: bool = False) -> None:
    with engine.begin() as db:
        db.execute(update(pairs).where(pairs.c.id == pair_id).values(status=VOID if void else DONE,
                                                                     finished_at=time.time()))


def _side_columns(side: SideUpdate, now: float) -> dict[str, Any]:
    return {"mu": side.rating.mu, "sigma": side.rating.sigma, "failed_in_row": side.failed_in_row,
            "last_game_at": now, "spark": json.dumps(side.spark)}


def _count_side(db: Connection, side: SideUpdate, now: float) -> None:
    win, draw, loss = side.points == 1, side.points == 0.5, side.points == 0
    values = _side_columns(side, now)
    db.execute(update(versions).where(versions.c.id == side.version_id).values(
        games=versions.c.games + 1, wins=versions.c.wins + int(win), draws=versions.c.draws + int(draw),
        losses=versions.c.losses + int(loss), **values))
    if side.suspend_reason is not None:
        db.execute(update(versions).where(and_(versions.c.id == side.version_id, versions.c.status == ACTIVE))
                   .values(status=SUSPENDED, reason=side.suspend_reason))


def _encounter(db: Connection, me: int, other: int, points: float) -> None:
    add = {"wins": int(points == 1), "draws": int(points == 0.5), "losses": int(points == 0)}
    done = db.execute(update(encounters).where(and_(encounters.c.version_id == me, encounters.c.opponent_id == other))
                      .values(wins=encounters.c.wins + add["wins"], draws=encounters.c.draws + add["draws"],
                              losses=encounters.c.losses + add["losses"]))
    if not done.rowcount:
        db.execute(insert(encounters).values(version_id=me, opponent_id=other, **add))


def store_game(engine: Engine, pair: Pair, record: dict[str, Any], dark: SideUpdate, light: SideUpdate,
               parts: list[StderrPart], last: bool = False) -> bool:
    """Record one finished game and everything it changes, atomically; False if it was recorded
    already (a replay after a crash: nothing is counted twice). `last`: the pair's last game, so
    the pair is marked done in the same transaction (one commit, one fsync, fewer)."""
    now = time.time()
    failed = dark.version_id if dark.failed else light.version_id if light.failed else None
    try:
        with engine.begin() as db:
            db.execute(insert(games).values(
                id=int(record["game_id"]), pair_id=pair.id, game_type=str(record["game_type"]),
                dark=dark.version_id, light=light.version_id, result=str(record["result"]),
                termination=str(record["termination"]), reason=str(record["reason"])[:2000], failed=failed,
                plies=len(record.get("opening", [])) + len(record.get("moves", [])), finished_at=now,
                duration=float(record.get("duration_s") or 0.0)))
            db.execute(insert(records).values(game_id=int(record["game_id"]), record=pack(record)))
            for part in parts:
                db.execute(insert(stderr).values(game_id=int(record["game_id"]), version_id=part.version_id,
                                                 head=part.head, tail=part.tail, total=part.total))
            for side in (dark, light):
                _count_side(db, side, now)
            _encounter(db, dark.version_id, light.version_id, dark.points)
            _encounter(db, light.version_id, dark.version_id, light.points)
            if last:
                db.execute(update(pairs).where(pairs.c.id == pair.id).values(status=DONE, finished_at=now))
    except IntegrityError:
        return False
    return True


def all_records(engine: Engine, batch: int = 500) -> Iterator[dict[str, Any]]:
    """Every recorded game's record in game-id order, read a batch at a time (constant memory)."""
    last = -1
    while True:
        with engine.connect() as db:
            rows = db.execute(select(records.c.game_id, records.c.record).where(records.c.game_id > last)
                              .order_by(records.c.game_id).limit(batch)).all()
        if not rows:
            return
        for row in rows:
            yield unpack(row.record)
        last = int(rows[-1].game_id)


def game_record(engine: Engine, game_id: int) -> dict[str, Any] | None:
    with engine.connect() as db:
        blob = db.execute(select(records.c.record).where(records.c.game_id == game_id)).scalar_one_or_none()
    return None if blob is None else unpack(blob)
