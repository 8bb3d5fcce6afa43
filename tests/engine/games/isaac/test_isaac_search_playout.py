"""ISAAC search's placement leaves: a playout to the scoring phase, judged with a tempo for who removes first."""

from __future__ import annotations

import random

import pytest

from engine.games.isaac import knowledge as isaac_knowledge
from engine.games.isaac import playout_core as isaac_partner
from engine.games.isaac import search as isaac_search
from engine.games.isaac.playout_core import PlayoutSettings
from engine.games.isaac.settings import IsaacSettings
from engine.search.context import SearchContext
from engine.search.winchance import logistic
from protocol import game_from_position
from protocol.moves import Place
from protocol.state import Phase
from tests.support.search import context

MIDGAME = ("isaac a0g0,h0h5,b2g2,c3f3,c4c8,d6h6,f7j7/a1a7,b1g1,j1j5,b3b8,d4g4,d5g5,a9c9 "
           "33333444/33334455 d - place 0/0")
SCORING = "isaac a1g1,i0i2,c4e4/h0h2,a6c6 3444455566/3444555667 d {passes} score 30/20"


SETTINGS = IsaacSettings()


def _ctx() -> SearchContext[IsaacSettings]:
    return context(SETTINGS, nodes=10**9)


def test_a_placement_leaf_is_judged_at_the_start_of_the_scoring_phase(monkeypatch: pytest.MonkeyPatch) -> None:
    game = game_from_position(MIDGAME)
    before = game.position()
    judged: list[tuple[str, int, tuple[int, int]]] = []

    def recording(g: object, settings: IsaacSettings) -> float:
        judged.append((g.phase, g.turn, g.scores))  # type: ignore[attr-defined]
        return 5.0

    monkeypatch.setattr(isaac_search, "evaluate", recording)
    ctx = _ctx()
    values = [isaac_search.placement_playout_value(game, random.Random(seed), ctx) for seed in range(20)]
    assert game.position() == before  # every playout is taken back
    assert len(judged) == 20 and all(phase == Phase.SCORE and scores == (0, 0) for phase, _, scores in judged)
    assert ctx.tm.nodes > 20  # the playouts placed pieces (counted as nodes)
    # 5 points for the side to move there, seen from Dark (to move now): ~0.6 or ~0.4.
    win = logistic(5.0 / SETTINGS.point_scale)
    for value, (_, turn, _) in zip(values, judged, strict=True):
        assert value == pytest.approx(win if turn == game.turn else 1 - win)


def test_playout_placements_are_legal_and_the_longest_of_the_draws() -> None:
    game = game_from_position(MIDGAME)
    legal = {str(m) for m in game.legal_moves()}
    longest = max(m.segment.length for m in game.legal_moves() if isinstance(m, Place))
    lengths = {isaac_search.playout_placement(game, random.Random(s), 1).segment.length  # type: ignore[union-attr]
               for s in range(200)}
    assert len(lengths) > 1  # one draw: any length
    for seed in range(5):
        move = isaac_search.playout_placement(game, random.Random(seed), 60)
        assert str(move) in legal
        assert isinstance(move, Place) and move.segment.length == longest


def test_the_tempo_counts_only_while_both_still_remove() -> None:
    both = game_from_position(SCORING.format(passes="-"))
    assert isaac_knowledge.scoring_eval(both, tempo=8.0) == pytest.approx(isaac_knowledge.scoring_eval(both) + 8.0)
    assert isaac_search.evaluate(both, SETTINGS) == pytest.approx(
        isaac_knowledge.evaluate(both) + SETTINGS.scoring_tempo)
    light_out = game_from_position(SCORING.format(passes="l"))
    assert isaac_knowledge.scoring_eval(light_out, tempo=8.0) == isaac_knowledge.scoring_eval(light_out)


def test_a_placement_leaf_plays_the_settings_leaf_policy() -> None:
    """`leaf_policy` (a SearchSettings variant) is the policy of a leaf's playouts, not the partner's defaults."""
    game = game_from_position(MIDGAME)
    random_policy = PlayoutSettings(eps_place=1.0, eps_remove=1.0)
    variant = IsaacSettings(leaf_playouts=64, leaf_policy=random_policy)
    seed = random.Random(7).getrandbits(64)
    value = isaac_search.IsaacKnowledge(variant).leaf_value(game, random.Random(7), context(variant, nodes=10**9))
    assert value == pytest.approx(isaac_partner.leaf(game, seed, 64, random_policy)[0])
    assert value != pytest.approx(isaac_partner.leaf(game, seed, 64)[0])  # the defaults play other playouts
