"""The season's standings from every ladder game: the referee's maximum-likelihood fit (Bradley-Terry
with the first-move advantage, hosting.md) over the results per (Dark, Light) pair of versions.

Unlike the ladder's OpenSkill ratings, which follow each game as it comes (and let a bot move as
it improves), this fit weighs every game of the season alike, whatever its order: the standings a
finished season is judged by. The counts come from one GROUP BY over the games, so the fit costs
the same however many games were played.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import Engine

from referee.results.ratings import fit_ratings_of

from ..db.schema import bots, games, versions


def season_standings(engine: Engine) -> dict[str, Any]:
    """{"ratings": the referee's fit (engines named bot-vN), "games": how many}."""
    with engine.connect() as db:
        rows = db.execute(select(games.c.dark, games.c.light, games.c.result, func.count())
                          .group_by(games.c.dark, games.c.light, games.c.result)).all()
        ids = {int(r[0]) for r in rows} | {int(r[1]) for r in rows}
        names = {int(v.id): f"{v.name}-v{v.number}" for v in db.execute(
            select(versions.c.id, versions.c.number, bots.c.name)
            .select_from(versions.join(bots, versions.c.bot_id == bots.c.id)).where(versions.c.id.in_(ids))).all()} \
            if ids else {}
    cells: dict[tuple[str, str], list[int]] = {}
    total = 0
    for dark, light, result, count in rows:
        cell = cells.setdefault((names[int(dark)], names[int(light)]), [0, 0, 0])
        cell[{"1-0": 0, "1/2-1/2": 1, "0-1": 2}[str(result)]] += int(count)
        total += int(count)
    return {"games": total, "ratings": fit_ratings_of(cells, sorted(names.values()))}
