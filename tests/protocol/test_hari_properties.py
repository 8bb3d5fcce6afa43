"""HARI properties with hypothesis: playouts end, positions round-trip, undo restores, bad moves are named,
empty_cells is the empty slide set's cells."""

from __future__ import annotations

import random
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from protocol.board import ALL_CELLS, DARK, LIGHT, SEGMENTS
from protocol.errors import IllegalMoveError, NotationError
from protocol.games.hari.rules import HariGame
from protocol.moves import PASS, HariMove, Slide

START = "hari -/- 333334444555667/333334444555667 d -"
# Light to move, 56 legal moves, most of them with slides (also used in test_hari.py).
SMALL = ("hari a0a4,b0b2,e0e3,f0f3,h2j2,e4e6,h7j7,c8f8,a9d9,e9g9/"
         "g0g3,b3d3,h3h5,i3i6,b4d4,g4g7,c5c7,d5d7,g8j8 55667/555667 l -")

KNOWN_REASONS = re.compile(
    "no piece at|not yours|already slid|not along|cannot end on|distance 0|is blocked at|"
    "exceeds the played piece's value|shorter than your last play|no piece of length|"
    "overlaps a piece at|cannot pass while a move exists|must pass|game is over"
)

FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def short_first(game: HariGame, rng: random.Random, plies: int) -> None:
    """Place the shortest playable piece without slides for `plies` turns (crowds the board)."""
    for _ in range(plies):
        no_slides = next(game.slide_sets(), None)
        if no_slides is None:
            return
        plays = [m for m in game.plays_after(no_slides) if m.place is not None] or list(game.plays_after(no_slides))
        shortest = min(m.length for m in plays)
        game.push(rng.choice([m for m in plays if m.length == shortest]))


@FAST
@given(seed=st.integers(0, 2**32 - 1), crowd=st.integers(0, 6))
def test_random_playouts_end_with_a_result_and_undo_to_the_start(seed, crowd):
    rng = random.Random(seed)
    game = HariGame.start()
    short_first(game, rng, crowd)
    history = []
    while True:
        text = game.position()
        assert HariGame.from_position(text).position() == text
        occupied = 0
        for piece in game.board():
            occupied |= piece.segment.mask
        assert game.empty_cells() == ALL_CELLS & ~occupied
        no_slides = next(game.slide_sets(), None)
        move = game.random_move(rng)
        assert (no_slides is None) == (move is None or move == PASS)  # no set: over, or must pass
        assert (no_slides is None) == (game.is_over() or not game.playable_lengths(game.turn))
        if move is None:
            break
        if no_slides is not None:
            assert no_slides.empty == game.empty_cells()
        assert game.check_move(move) == move
        assert game.parse_move(str(move)) == move
        game.push(move)
        history.append(text)
        assert len(history) <= 32  # 30 pieces to play, two passes
    result = game.result()
    assert game.is_over() and result is not None
    assert result.scores == (game.board_value(DARK), game.board_value(LIGHT))
    if result.scores[0] != result.scores[1]:
        assert result.winner == (DARK if result.scores[0] > result.scores[1] else LIGHT)
    else:
        assert result.winner is None
    while history:
        game.pop()
        assert game.position() == history.pop()
    for _ in range(crowd):
        game.pop()
    assert game.position() == START


@FAST
@given(seed=st.integers(0, 2**32 - 1))
def test_push_then_pop_restores_the_position(seed):
    rng = random.Random(seed)
    game = HariGame.start()
    short_first(game, rng, rng.randrange(0, 8))
    while not game.is_over():
        before = game.position()
        move = game.random_move(rng)
        game.push(move)
        after = game.position()
        game.pop()
        assert game.position() == before
        game.push(move)
        assert game.position() == after
        assert HariGame.from_position(after) == game


NOTATION_BITS = st.sampled_from(
    ["a0a4", "b0b2", "g0g3", "e0e3", "h2j2", "h2h4", "e4e6", "e5e7", "c8f8", "a9d9", "e9g9",
     "b9e9", "h7j7", "g7i7", "g8j8", "a6a9", ">", ",", "off", "x", "3", "5", "6", "7", "pass",
     "a0", "j9", " ", "i8i8", "a0j0", "e2e4", "f5j5", "a8e8", "d6h6", "x9"]
)


@settings(max_examples=300, deadline=None)
@given(pieces=st.lists(NOTATION_BITS, min_size=1, max_size=7))
def test_any_text_is_a_legal_move_or_a_named_error(pieces):
    game = HariGame.from_position(SMALL)
    legal = set(game.legal_moves())
    text = "".join(pieces)
    try:
        move = game.parse_move(text)
    except NotationError as e:
        assert 1 <= e.column <= len(text) + 1
        return
    except IllegalMoveError as e:
        assert KNOWN_REASONS.search(e.reason), e.reason
        return
    assert move in legal


@st.composite
def hari_moves(draw):
    """Moves built from the mover's pieces and same-line ends (often legal), or anything at all."""
    game = HariGame.from_position(SMALL)
    own = game.pieces(game.turn)
    everything = st.sampled_from(SEGMENTS)
    slides = []
    for _ in range(draw(st.integers(0, 3))):
        start = draw(st.one_of(st.sampled_from(own), everything))
        same_line = [s for s in SEGMENTS if s.length == start.length and s.line == start.line]
        end = draw(st.one_of(st.none(), st.sampled_from(same_line), everything))
        slides.append(Slide(start, end))
    if draw(st.booleans()):
        return HariMove(tuple(slides), None, draw(st.sampled_from([3, 4, 5, 6, 7])))
    place = draw(st.sampled_from([s for s in SEGMENTS if s.length >= 5]))
    return HariMove(tuple(slides), place, 0)


def as_key(move):
    """Slides as a sorted list (a repeated slide stays visible), then the play."""
    return tuple(sorted(map(str, move.slides))), move.place, move.discard


SMALL_MOVES = sorted(HariGame.from_position(SMALL).legal_moves(), key=str)


@settings(max_examples=400, deadline=None)
@given(move=st.one_of(hari_moves(), st.just(PASS)))
def test_check_move_accepts_exactly_the_generated_moves(move):
    game = HariGame.from_position(SMALL)
    legal = {as_key(m): m for m in SMALL_MOVES}
    if move == PASS:
        assert not game.is_legal(move)
        return
    try:
        canonical = game.check_move(move)
    except IllegalMoveError as e:
        assert KNOWN_REASONS.search(e.reason), e.reason
        assert as_key(move) not in legal or "is blocked at" in e.reason
        return
    assert legal[as_key(move)] == canonical


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_legal_slide_sets_in_any_order_are_accepted_or_blocked(data):
    game = HariGame.from_position(SMALL)
    move = data.draw(st.sampled_from([m for m in SMALL_MOVES if len(m.slides) >= 2]))
    order = data.draw(st.permutations(move.slides))
    written = HariMove(tuple(order), move.place, move.discard)
    try:
        assert game.check_move(written) == move
    except IllegalMoveError as e:
        assert "is blocked at" in e.reason, e.reason
    assert game.check_move(move) == move
