"""The alpha-beta transposition table (ISAAC's scoring phase): same answers, fewer nodes.

Within one search from a scoring-phase position the number of moves made fixes
a position's ply, so a search of one depth reaches each transposition with the
same depth left: with the table the root value must be exactly the table-free
one, and never cost more nodes.
"""

from __future__ import annotations

import random

import pytest

from engine.games.isaac import knowledge as K
from engine.games.isaac.search import choose_scoring, scoring_alpha_beta
from engine.games.isaac.settings import IsaacSettings
from protocol.games.isaac.rules import IsaacGame
from protocol.moves import Remove
from protocol.state import Phase
from tests.support.search import context

SCORING_STARTS = [
    "isaac b2h2,i2i7,j5j9,a6a9,c6h6,c7c9,d7d9,e7h7,e8i8,e9i9/a0d0,e0h0,a1a5,b1f1,g1i1,j1j4,b3b9,c3h3,"
    "d4h4,c5h5 33344/33334 d - score 0/0",
    "isaac a0g0,h0h5,i0i3,b2g2,c4c8,i4i6,d6h6,f7j7/b1g1,j1j5,d5g5,d7d9,f8j8,a9c9 33334/333445 d - score 12/47",
]


def _random_scoring_starts(count: int, seed: int) -> list[str]:
    """Scoring-phase starts reached by random placements (varied boards and sides to move)."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        game = IsaacGame.start()
        while game.phase is Phase.PLACE:
            move = game.random_move(rng)
            assert move is not None
            game.push(move)
        if not game.is_over():
            found.append(game.position())
    return found


def _search(position: str, depth: int, keyed: bool) -> tuple[float, int, str]:
    game = IsaacGame.from_position(position)
    ctx = context(IsaacSettings(), depth=depth)
    ab = scoring_alpha_beta(ctx, keyed)
    moves = K.removal_candidates(game, wide=True)
    result = ab.search_root(game, depth, moves)
    assert game.position() == position  # the search restores the game
    return result.value, ctx.tm.nodes, str(result.move)


@pytest.mark.parametrize("position", SCORING_STARTS + _random_scoring_starts(4, seed=5))
def test_table_keeps_the_value_and_saves_nodes(position):
    for depth in (2, 3, 4):
        plain_value, plain_nodes, _ = _search(position, depth, keyed=False)
        keyed_value, keyed_nodes, keyed_move = _search(position, depth, keyed=True)
        assert keyed_value == pytest.approx(plain_value, abs=1e-9), (position, depth)
        assert keyed_nodes <= plain_nodes
        assert IsaacGame.from_position(position).is_legal(IsaacGame.from_position(position).parse_move(keyed_move))


def _iterate_nodes(position: str, depth: int, keyed: bool) -> int:
    game = IsaacGame.from_position(position)
    ctx = context(IsaacSettings(), depth=depth)
    ab = scoring_alpha_beta(ctx, keyed)
    ab.iterate(game, K.removal_candidates(game, wide=True), depth)
    return ctx.tm.nodes


def test_table_saves_nodes_in_iterative_deepening():
    """Each iteration searches the last one's best moves first: over the starts, iterative
    deepening to depth 5 must cost clearly fewer nodes with the table."""
    plain = sum(_iterate_nodes(p, 5, keyed=False) for p in SCORING_STARTS)
    keyed = sum(_iterate_nodes(p, 5, keyed=True) for p in SCORING_STARTS)
    assert keyed < plain * 0.8, (keyed, plain)


def test_scoring_key_names_the_position():
    game = IsaacGame.from_position(SCORING_STARTS[0])
    key = game.scoring_key()
    assert IsaacGame.from_position(game.position()).scoring_key() == key
    assert game.copy().scoring_key() == key
    seen = {key}
    for seg, _top in game.removal_options():
        game.push(Remove(seg, max(game.new_score_choices(seg))))
        assert game.scoring_key() not in seen  # a different piece or score: a different key
        seen.add(game.scoring_key())
        game.pop()
        assert game.scoring_key() == key


def test_engine_search_is_reproducible_with_the_table():
    """Two runs of one depth-limited scoring search answer the same (the table starts empty each move)."""
    answers = []
    for _ in range(2):
        game = IsaacGame.from_position(SCORING_STARTS[0])
        ctx = context(IsaacSettings(), depth=4)
        move, info = choose_scoring(game, ctx)
        answers.append((str(move), info.score_cp, ctx.tm.nodes))
    assert answers[0] == answers[1]

