"""FOUNDATIONS' engine parts (engine/games/parts.py), each imported when a strategy first needs it: the
searcher (search.py: MCTS with the C search core's tree, leaves and ordering), the `heuristic` ranking
(ranking.py), what `greedy` and `flatmc` play (sparring.py) and the C playout core `fastmc` drives
(playout_core.py)."""

from engine.games.parts import GameParts

PARTS = GameParts.standard(__name__)
