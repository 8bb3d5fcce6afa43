"""FOUNDATIONS' fast playouts agree with the rules: the scratch position and the fast playout
loop against FoundationsGame, move by move."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.games.foundations.playout_policy import LIST_MAX, draw_spots, play_out, playout_move
from engine.games.foundations.settings import FoundationsSettings
from protocol import new_game
from protocol.board import H_START, V_START, segments_from_starts
from protocol.games.foundations.scratch import FoundationsScratch
from protocol.moves import PASS, Place
from tests.support.foundations_games import varied_games

SETTINGS = FoundationsSettings()


class _NeverStop:
    def stopped(self) -> bool:
        return False


def test_scratch_answers_as_the_game_does_at_every_ply():
    seen_levels: Counter[int] = Counter()
    for game in varied_games(60, seed=7):
        scratch = game.scratch()
        assert scratch.is_over() == game.is_over()
        first = scratch.shortest()
        assert first == game.shortest_group()
        groups = list(game.placement_groups())
        if first is None:
            assert groups == []
            continue
        level, n, _, _ = first
        seen_levels[level] += 1
        assert [(level, m, h, v) for m, h, v in scratch.groups_from(level, n)] == groups
        assert scratch.free_cells(level) == game.free_cells(level)
    assert seen_levels[1] and seen_levels[2] and seen_levels[3], seen_levels


def test_a_scratch_played_alongside_a_game_stays_equal_to_it_and_scores_the_same_end():
    rng = random.Random(11)
    ends = Counter()
    for _ in range(40):
        game = new_game("foundations")
        scratch = game.scratch()
        while not game.is_over():
            move = game.random_move(rng) if rng.random() < 0.3 else playout_move(game, rng, SETTINGS.playout_sample, SETTINGS.deviate)
            if move == PASS:
                scratch.pass_turn()
            else:
                scratch.place(move.segment, move.level)
            game.push(move)
            assert scratch.turn == game.turn
            assert scratch.shortest() == game.shortest_group()
        result = game.result()
        assert scratch.is_over()
        assert (scratch.hand_value(0), scratch.hand_value(1)) == result.scores
        assert scratch.winner() == result.winner
        ends[result.winner] += 1
    assert len(ends) >= 2  # both colours win sometimes (or draw): the comparison was exercised


def test_the_scratch_is_a_copy_the_game_is_untouched():
    game = new_game("foundations")
    for text in ("a0c0", "h9j9", "a1c1", "h8j8"):
        game.push(game.parse_move(text))
    before = game.position()
    scratch = game.scratch()
    play_out(scratch, random.Random(1), 200, _NeverStop(), 0.2, 2)
    assert scratch.is_over()
    assert game.position() == before
    assert not game.is_over()


class _RecordingScratch(FoundationsScratch):
    """Records every placement and pass the playout makes, with the side that made it."""

    __slots__ = ("record",)

    def place(self, seg, level):
        self.record.append((self.turn, Place(seg, level)))
        super().place(seg, level)

    def pass_turn(self):
        self.record.append((self.turn, PASS))
        super().pass_turn()


@pytest.mark.parametrize("deviate", [0.0, 0.2, 1.0])
def test_fast_playouts_play_only_legal_moves_to_the_end(deviate):
    rng = random.Random(3)
    for start in range(30):
        game = new_game("foundations")
        for _ in range(start % 6):  # a few plies in, so that playouts start from varied positions
            game.push(playout_move(game, rng, SETTINGS.playout_sample, SETTINGS.deviate))
        template = game.scratch()
        scratch = _RecordingScratch(template.turn, tuple(template.passed), template.hand, template.occ,
                                    template.own, template.pieces, template.level, template.minlen,
                                    template.top)
        scratch.record = []
        played = play_out(scratch, rng, 200, _NeverStop(), deviate, 2)
        assert played == len(scratch.record)
        for side, move in scratch.record:
            assert game.turn == side
            game.push(game.check_move(move))  # raises IllegalMoveError on an illegal move
        assert game.is_over() and scratch.is_over()
        assert scratch.winner() == game.result().winner


def test_fast_playouts_stop_at_the_ply_cap():
    scratch = new_game("foundations").scratch()
    assert play_out(scratch, random.Random(2), 5, _NeverStop(), 0.2, 2) == 5
    assert sum(scratch.hand[0]) + sum(scratch.hand[1]) == 30 - 5


@pytest.mark.parametrize("length,cells", [(3, 6), (3, LIST_MAX + 1), (4, 60)])
def test_draw_spots_draws_distinct_placements_uniformly(length, cells):
    rng = random.Random(length * 1000 + cells)
    starts = [c for c in range(100) if H_START[length] >> c & 1]
    chosen = rng.sample(starts, cells // 2)
    h = sum(1 << c for c in chosen)
    v_starts = [c for c in range(100) if V_START[length] >> c & 1]
    v = sum(1 << c for c in rng.sample(v_starts, cells - cells // 2))
    allowed = set(segments_from_starts(h, v, length))
    counts: Counter = Counter()
    draws = 3000
    for _ in range(draws):
        pair = draw_spots(h, v, length, 2, rng)
        assert len(pair) == 2 and pair[0] != pair[1]
        assert set(pair) <= allowed
        counts.update(pair)
    expected = 2 * draws / cells
    assert set(counts) == allowed
    assert all(abs(k - expected) < 5 * expected ** 0.5 for k in counts.values()), counts


def test_draw_spots_gives_every_placement_when_there_are_few():
    h = H_START[5] & ((1 << 0) | (1 << 11))
    segs = draw_spots(h, 0, 5, 2, random.Random(1))
    assert segs == list(segments_from_starts(h, 0, 5))

