"""FOUNDATIONS' engine parts, declared once (engine/games/parts.py), each imported when a strategy first
needs it: the searcher (search.py: MCTS with the C search core's tree, leaves and ordering), the
`heuristic` ranking (ranking.py), what `greedy` and `flatmc` play (sparring.py) and the C playout
core `fastmc` drives (playout_core.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.games.parts import GameParts, PlayoutCore, Ranking, Sparring

if TYPE_CHECKING:
    from engine.search.searcher import Searcher

    from .settings import FoundationsSettings


def _load_searcher() -> Searcher[FoundationsSettings]:
    from .search import SEARCHER
    return SEARCHER


def _load_ranking() -> Ranking:
    from .ranking import ranked_moves
    return ranked_moves


def _load_sparring() -> Sparring:
    from .sparring import SPARRING
    return SPARRING


def _load_playout_core() -> PlayoutCore | None:
    from .playout_core import FASTMC
    return FASTMC


PARTS = GameParts(searcher=_load_searcher, ranking=_load_ranking, sparring=_load_sparring,
                  playout_core=_load_playout_core)
