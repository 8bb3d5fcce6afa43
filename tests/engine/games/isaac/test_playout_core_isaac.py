"""ISAAC's `fastmc` core (engine/games/isaac/_playout_core.c): its scoring phase, held to the rules.

test_partner_cores.py holds every core to its contract; here the ISAAC-only parts: playouts
from both phases (placement into scoring, scoring to the end), the scoring policy's two
sure things (a removal that reaches 100 is taken; a counter is put on the piece with which
the opponent would reach 100 next), and the root's removal candidates."""

from __future__ import annotations

from dataclasses import replace

from engine.games.isaac import playout_core as partner
from protocol import game_from_position
from protocol.moves import Remove
from tests.support.playout_positions import replay, varied_positions

POSITIONS = varied_positions("isaac", 150, seed=21)
THREAT = "isaac a4e4,h3h7,j4j6/a5g5 667/- d - score 46/90"
"""Light at 90 removes its 7 on row 5 next for 12 points (two other pieces touch the row) unless
Dark's counter covers it: Dark's a4e4 earns 12 (to 58: cell i5, which would double Light's
row), and any score 50 to 56 puts Dark's counter on a5g5."""


def _playout(game, seed=1):
    return partner.core().playout(partner.position_tuple(game), partner.DEFAULTS.params(), seed)


def test_both_phases_are_covered_and_replay_on_the_rules():
    scoring = [g for g in POSITIONS if g.phase == "score"]
    assert len(scoring) >= 20 and len(POSITIONS) - len(scoring) >= 20
    for game in scoring:
        for seed in range(3):
            natives, scores, winner = _playout(game, seed)
            end = replay(game, partner, natives)
            assert end.result().scores == scores and end.result().winner == winner


def test_a_playout_takes_a_removal_that_reaches_100():
    game = game_from_position(THREAT.replace("score 46/90", "score 95/90"))
    for seed in range(5):
        natives, scores, winner = _playout(game, seed)
        assert len(natives) == 1 and scores[0] >= 100 and winner == 0
        assert replay(game, partner, natives).result().winner == 0


def test_a_playout_blocks_the_piece_that_would_reach_100():
    game = game_from_position(THREAT)
    for seed in range(5):
        natives, _, _ = _playout(game, seed)
        first = partner.to_move(natives[0])
        assert isinstance(first, Remove) and first.segment.name == "a4e4" and 50 <= first.score <= 56
        after = replay(game, partner, natives[:1])
        assert all(top < 100 for _, top in after.removal_options())  # Light cannot reach 100 now


def test_root_removals_offer_the_full_score_and_the_block():
    game = game_from_position(THREAT)
    moves = {str(partner.to_move(m)) for m in partner.core().candidates(partner.position_tuple(game),
                                                                          partner.DEFAULTS.params())}
    assert {"xa4e4:58", "xa4e4:56"} <= moves


def test_the_search_prefers_the_block():
    game = game_from_position(THREAT)
    moves, visits, totals, _, _ = partner.core().search(partner.position_tuple(game), partner.DEFAULTS.params(),
                                                        (3, 0.4, 20_000, 0, 0.0, None, 1.0))
    best = max(range(len(moves)), key=lambda i: visits[i])
    assert str(partner.to_move(moves[best])) != "xa4e4:58"  # that one lets Light reach 100 at once


def test_a_leaf_where_the_side_to_move_reaches_100_is_a_win():
    sure = game_from_position(THREAT.replace("score 46/90", "score 95/90"))
    assert partner.leaf(sure, 3, 4)[0] > 0.9   # Dark takes the removal to 100 in every playout


def test_the_roots_placements_are_each_lengths_best_spots_in_order():
    """The root offers each length's `per_length` best spots (by spot score, equal scores by segment): selected, not
    sorted, they are the first ones of that length's full ranking (per_length 200: every spot)."""
    placing = [g for g in POSITIONS if g.phase == "place"]
    assert len(placing) >= 20
    for game in placing:
        position = partner.position_tuple(game)
        ranking = partner.core().candidates(position, replace(partner.DEFAULTS, per_length=200).params())
        for per in (6, 4, 1):
            expected, seen = [], {}
            for native in ranking:
                length = partner.to_move(native).segment.length if native[0] >= 0 else 0
                seen[length] = seen.get(length, 0) + 1
                if seen[length] <= per:
                    expected.append(native)
            assert partner.core().candidates(position, replace(partner.DEFAULTS, per_length=per).params()) == expected
