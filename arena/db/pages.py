"""What the pages read: the leaderboard, a bot, a game, an author's own bots, the final ranking.

Each is a few indexed queries returning plain data (dicts of JSON values), used as they are by
the JSON API and drawn by arena/web. A bot's recent games are read per version through the
(dark, id) and (light, id) indexes and merged, so a bot page costs the same with 200,000 games
in the database as with 200.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import and_, bindparam, desc, select
from sqlalchemy.engine import Connection, Engine

from ..ratings import Rating
from .schema import ACTIVE, authors, bots, encounters, finals, games, stderr, versions

RECENT_GAMES = 30


def _rating(mu: float, sigma: float) -> dict[str, float]:
    return {"mu": round(mu, 2), "sigma": round(sigma, 2), "conservative": round(Rating(mu, sigma).conservative, 2)}


def leaderboard(engine: Engine) -> list[dict[str, Any]]:
    """The playing version of every bot, best conservative rating first."""
    query = (select(versions.c.id, versions.c.number, versions.c.mu, versions.c.sigma, versions.c.games,
                    versions.c.wins, versions.c.draws, versions.c.losses, versions.c.last_game_at, versions.c.spark,
                    bots.c.name.label("bot"), authors.c.name.label("author"))
             .select_from(versions.join(bots, versions.c.bot_id == bots.c.id).join(authors, bots.c.author_id == authors.c.id))
             .where(and_(versions.c.status == ACTIVE, bots.c.deleted.is_(False)))
             .order_by(desc(versions.c.mu - 3 * versions.c.sigma), versions.c.id))
    with engine.connect() as db:
        rows = db.execute(query).all()
    return [{"rank": i + 1, "bot": r.bot, "author": r.author, "version": int(r.number), "version_id": int(r.id),
             **_rating(r.mu, r.sigma), "games": int(r.games), "wins": int(r.wins), "draws": int(r.draws),
             "losses": int(r.losses), "last_game_at": r.last_game_at, "spark": json.loads(r.spark or "[]")}
            for i, r in enumerate(rows)]


_DARK_V, _LIGHT_V = versions.alias("dark_v"), versions.alias("light_v")
_DARK_B, _LIGHT_B = bots.alias("dark_b"), bots.alias("light_b")
_GAMES_NAMED = (games.join(_DARK_V, games.c.dark == _DARK_V.c.id).join(_DARK_B, _DARK_V.c.bot_id == _DARK_B.c.id)
                .join(_LIGHT_V, games.c.light == _LIGHT_V.c.id).join(_LIGHT_B, _LIGHT_V.c.bot_id == _LIGHT_B.c.id))
_GAME_COLUMNS = (games, _DARK_B.c.name.label("dark_bot"), _DARK_V.c.number.label("dark_number"),
                 _DARK_B.c.deleted.label("dark_deleted"), _LIGHT_B.c.name.label("light_bot"),
                 _LIGHT_V.c.number.label("light_number"), _LIGHT_B.c.deleted.label("light_deleted"))


def _named_games() -> Any:
    """Games with both sides' bot names and version numbers, in one query."""
    return select(*_GAME_COLUMNS).select_from(_GAMES_NAMED)


_LATEST = {column.name: _named_games().where(and_(column == bindparam("vid"), games.c.id < bindparam("before")))
           .order_by(desc(games.c.id)).limit(bindparam("limit")) for column in (games.c.dark, games.c.light)}
"""A version's latest games on each side (built once: the pages ask them often)."""


def _game_rows(db: Connection, version_ids: list[int], limit: int, before: int | None) -> list[Any]:
    found: list[Any] = []
    below = (1 << 62) if before is None else before
    for vid in version_ids:
        for query in _LATEST.values():
            found += db.execute(query, {"vid": vid, "before": below, "limit": limit}).all()
    unique = {int(r.id): r for r in found}
    return [unique[k] for k in sorted(unique, reverse=True)[:limit]]


def games_json(rows: list[Any]) -> list[dict[str, Any]]:
    return [{"id": int(r.id), "game_type": r.game_type,
             "dark": {"bot": r.dark_bot, "version": int(r.dark_number), "deleted": bool(r.dark_deleted)},
             "light": {"bot": r.light_bot, "version": int(r.light_number), "deleted": bool(r.light_deleted)},
             "dark_version_id": int(r.dark), "light_version_id": int(r.light), "result": r.result,
             "termination": r.termination, "reason": r.reason, "plies": int(r.plies), "finished_at": r.finished_at,
             "failed_version_id": r.failed} for r in rows]


def _public_check(text: str) -> dict[str, Any] | None:
    """The check's verdicts and each check's status (the evidence is the author's alone)."""
    if not text:
        return None
    data = json.loads(text)
    return {"ok": data.get("ok"), "tiers": data.get("tiers"),
            "results": [{"name": r["name"], "tier": r["tier"], "status": r["status"]} for r in data.get("results", [])]}


_BOT_HEAD = (select(bots.c.id, bots.c.name, bots.c.created_at, authors.c.name.label("author"))
             .select_from(bots.join(authors, bots.c.author_id == authors.c.id))
             .where(and_(bots.c.name == bindparam("name"), bots.c.deleted.is_(False))))
_BOT_VERSIONS = (select(versions.c.id, versions.c.number, versions.c.status, versions.c.reason, versions.c.created_at,
                        versions.c.activated_at, versions.c.mu, versions.c.sigma, versions.c.games, versions.c.wins,
                        versions.c.draws, versions.c.losses, versions.c.spark)
                 .where(versions.c.bot_id == bindparam("bot")).order_by(desc(versions.c.number)))
_BOT_CHECK = (select(versions.c.check_report).where(and_(versions.c.bot_id == bindparam("bot"),
                                                         versions.c.check_report != ""))
              .order_by(desc(versions.c.number)).limit(1))
_SCORES = (select(encounters.c.wins, encounters.c.draws, encounters.c.losses, bots.c.name)
           .select_from(encounters.join(versions, encounters.c.opponent_id == versions.c.id)
                        .join(bots, versions.c.bot_id == bots.c.id))
           .where(encounters.c.version_id.in_(bindparam("ids", expanding=True))))


def bot(engine: Engine, name: str, limit: int = RECENT_GAMES, before: int | None = None) -> dict[str, Any] | None:
    """A bot's page: its versions, recent games, score against each opponent, its check's verdicts."""
    with engine.connect() as db:
        head = db.execute(_BOT_HEAD, {"name": name}).first()
        if head is None:
            return None
        rows = db.execute(_BOT_VERSIONS, {"bot": head.id}).all()
        version_list = [{"version": int(v.number), "version_id": int(v.id), "status": v.status, "reason": v.reason,
                         "created_at": v.created_at, "activated_at": v.activated_at, **_rating(v.mu, v.sigma),
                         "games": int(v.games), "wins": int(v.wins), "draws": int(v.draws), "losses": int(v.losses),
                         "spark": json.loads(v.spark or "[]")} for v in rows]
        ids = [int(v.id) for v in rows]
        recent = games_json(_game_rows(db, ids, limit, before))
        scores = db.execute(_SCORES, {"ids": ids}).all() if ids else []
        by_opponent: dict[str, dict[str, int]] = {}
        for s in scores:
            tally = by_opponent.setdefault(str(s.name), {"wins": 0, "draws": 0, "losses": 0})
            tally["wins"] += int(s.wins)
            tally["draws"] += int(s.draws)
            tally["losses"] += int(s.losses)
        latest_check = db.execute(_BOT_CHECK, {"bot": head.id}).scalar_one_or_none() or ""
    against = [{"opponent": k, **v, "games": v["wins"] + v["draws"] + v["losses"],
                "score": round((v["wins"] + v["draws"] / 2) / max(1, v["wins"] + v["draws"] + v["losses"]), 3)}
               for k, v in sorted(by_opponent.items())]
    return {"bot": head.name, "author": head.author, "created_at": head.created_at, "versions": version_list,
            "recent_games": recent, "against": against, "check": _public_check(latest_check)}


def game(engine: Engine, game_id: int) -> dict[str, Any] | None:
    with engine.connect() as db:
        row = db.execute(_named_games().where(games.c.id == game_id)).first()
        return None if row is None else games_json([row])[0]


def recent(engine: Engine, limit: int) -> list[dict[str, Any]]:
    with engine.connect() as db:
        rows = db.execute(_named_games().order_by(desc(games.c.id)).limit(limit)).all()
        return games_json(list(rows))


def author_view(engine: Engine, author_id: int) -> dict[str, Any]:
    """An author's own bots with everything private: each version's build log and check output,
    and the recent games with the stderr their bot wrote."""
    with engine.connect() as db:
        bot_rows = db.execute(select(bots.c.id, bots.c.name).where(and_(bots.c.author_id == author_id,
                                                                        bots.c.deleted.is_(False)))
                              .order_by(bots.c.name)).all()
        out = []
        for b in bot_rows:
            vrows = db.execute(select(versions).where(versions.c.bot_id == b.id).order_by(desc(versions.c.number))).all()
            ids = [int(v.id) for v in vrows]
            recent_rows = _game_rows(db, ids, 20, None)
            with_stderr = {(int(s.game_id), int(s.version_id)) for s in db.execute(
                select(stderr.c.game_id, stderr.c.version_id).where(and_(
                    stderr.c.version_id.in_(ids), stderr.c.game_id.in_([int(r.id) for r in recent_rows])))).all()} \
                if recent_rows else set()
            recent_games = games_json(recent_rows)
            for g in recent_games:
                g["stderr"] = any((g["id"], vid) in with_stderr for vid in ids)
            out.append({"bot": b.name, "recent_games": recent_games, "versions": [
                {"version": int(v.number), "version_id": int(v.id), "status": v.status, "reason": v.reason,
                 "created_at": v.created_at, "games": int(v.games), **_rating(v.mu, v.sigma),
                 "build_log": v.build_log, "check": json.loads(v.check_report) if v.check_report else None}
                for v in vrows]})
    return {"bots": out}


def stderr_of(engine: Engine, game_id: int, author_id: int) -> list[dict[str, Any]]:
    """The stderr of the author's own bots in one game (none for other authors' bots)."""
    with engine.connect() as db:
        rows = db.execute(select(stderr.c.version_id, stderr.c.head, stderr.c.tail, stderr.c.total,
                                 bots.c.name, versions.c.number)
                          .select_from(stderr.join(versions, stderr.c.version_id == versions.c.id)
                                       .join(bots, versions.c.bot_id == bots.c.id))
                          .where(and_(stderr.c.game_id == game_id, bots.c.author_id == author_id))).all()
    return [{"bot": r.name, "version": int(r.number), "head": r.head, "tail": r.tail, "total": int(r.total)} for r in rows]


def latest_final(engine: Engine) -> dict[str, Any] | None:
    with engine.connect() as db:
        row = db.execute(select(finals).order_by(desc(finals.c.id)).limit(1)).first()
    if row is None:
        return None
    return {"id": int(row.id), "created_at": row.created_at, "finished_at": row.finished_at, "top": int(row.top),
            "games": int(row.games), "status": row.status, "ranking": json.loads(row.ranking or "[]"),
            "message": row.message}


def owns_version(engine: Engine, author_id: int, version_id: int) -> bool:
    with engine.connect() as db:
        owner = db.execute(select(bots.c.author_id).select_from(versions.join(bots, versions.c.bot_id == bots.c.id))
                           .where(versions.c.id == version_id)).scalar_one_or_none()
    return owner == author_id
