"""Property tests for FOUNDATIONS: seeded random playouts must keep every invariant the
engine and referee rely on (moves accepted, counts exact, positions round-trip, undo exact)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.board import H_SEG, SEGMENTS, V_SEG, hand_value
from protocol.errors import IllegalMoveError
from protocol.games.foundations.rules import FoundationsGame
from protocol.moves import PASS, Place
from tests.protocol.test_foundations import reference_moves

SETTINGS = settings(max_examples=30, deadline=None, derandomize=True, database=None)


def choose(game: FoundationsGame, rng: random.Random, short_first: bool):
    """A random legal move; `short_first` keeps to the shortest length, which climbs higher."""
    moves = list(game.legal_moves())
    if short_first and isinstance(moves[0], Place):
        shortest = min(m.segment.length for m in moves)
        moves = [m for m in moves if m.segment.length == shortest]
    return rng.choice(moves)


def expand_groups(game: FoundationsGame) -> list[Place]:
    """The placements of ``placement_groups`` (start bitboards per level and length), as moves."""
    out = []
    for level, n, h, v in game.placement_groups():
        for starts, table in ((h, H_SEG[n]), (v, V_SEG[n])):
            out.extend(Place(table[cell], level) for cell in range(100) if starts >> cell & 1)
    return out


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), short_first=st.booleans())
def test_random_playout_keeps_invariants(seed, short_first):
    rng = random.Random(seed)
    game = FoundationsGame.start()
    plies = 0
    while not game.is_over():
        text = game.position()
        assert FoundationsGame.from_position(text).position() == text
        moves = list(game.legal_moves())
        assert moves and len(moves) == len(set(moves))
        assert game.count_legal_moves() == len(moves)
        assert (moves == [PASS]) == (PASS in moves)
        assert game.random_move(rng) in moves
        assert expand_groups(game) == [m for m in moves if m is not PASS]
        assert game.shortest_group() == next(game.placement_groups(), None)
        for move in rng.sample(moves, min(5, len(moves))):
            assert game.check_move(move) == move
            assert game.parse_move(str(move)) == move
            game.push(move)
            game.pop()
            assert game.position() == text
        game.push(choose(game, rng, short_first))
        plies += 1
        assert plies <= 2 * 15 + 2  # every ply but the two passes places a piece
    result = game.result()
    assert result is not None and result.reason
    assert result.scores == (hand_value(game.hand(0)), hand_value(game.hand(1)))
    assert list(game.legal_moves()) == [] and game.count_legal_moves() == 0
    assert game.shortest_group() is None
    assert FoundationsGame.from_position(game.position()).result() == result
    for _ in range(plies):  # undo the whole game back to the start
        game.pop()
    assert game.position() == FoundationsGame.start().position()


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 30),
       probes=st.lists(st.tuples(st.integers(0, len(SEGMENTS) - 1), st.integers(1, 5)),
                       min_size=20, max_size=40))
def test_placements_not_generated_are_rejected(seed, plies, probes):
    rng = random.Random(seed)
    game = FoundationsGame.start()
    for _ in range(plies):
        if game.is_over():
            break
        game.push(choose(game, rng, short_first=True))
    if game.is_over():
        return
    legal = set(game.legal_moves())
    assert legal == reference_moves(game)
    for index, level in probes:
        move = Place(SEGMENTS[index], level)
        if move in legal:
            assert game.parse_move(str(move)) == move
            continue
        try:
            game.parse_move(str(move))
        except IllegalMoveError as error:
            assert error.reason and error.move == str(move)
        else:
            raise AssertionError(f"{move} accepted in {game.position()}")
    if PASS not in legal:
        try:
            game.check_move(PASS)
        except IllegalMoveError as error:
            assert error.reason.startswith("cannot pass while a move exists")
        else:
            raise AssertionError("pass accepted while a placement exists")


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_copy_is_independent(seed):
    rng = random.Random(seed)
    game = FoundationsGame.start()
    for _ in range(rng.randrange(1, 20)):
        if game.is_over():
            break
        game.push(choose(game, rng, short_first=True))
    clone = game.copy()
    before = game.position()
    while not clone.is_over():
        clone.push(choose(clone, rng, short_first=False))
    assert game.position() == before
    assert game.count_legal_moves() == len(list(game.legal_moves()))
