"""FOUNDATIONS rules (issue 2, rulings 1 and 5): perft, the rulebook examples, tiebreaks,
levels, bridges, building underneath, passing, and errors for bad moves and positions."""

from __future__ import annotations

import random

import pytest

from protocol import game_from_position
from protocol.board import SEGMENTS, full_hand, hand_string
from protocol.errors import GameOverError, IllegalMoveError, NotationError, PositionError
from protocol.games.foundations.rules import FoundationsGame
from protocol.moves import PASS, Place, Remove
from protocol.notation import parse_segment

START = "foundations -/- 333334444555667/333334444555667 d -"


def play(moves: str, game: FoundationsGame | None = None) -> FoundationsGame:
    """Play space-separated moves from the start (or `game`), each checked by the rules."""
    game = game or FoundationsGame.start()
    for text in moves.split():
        game.play(text)
    return game


def illegal(game: FoundationsGame, text: str) -> str:
    """The reason `text` is rejected (fails the test if it is accepted)."""
    with pytest.raises(IllegalMoveError) as info:
        game.parse_move(text)
    return info.value.reason


def position_error(text: str) -> PositionError:
    with pytest.raises(PositionError) as info:
        FoundationsGame.from_position(text)
    return info.value


def hands(dark_placed: str, light_placed: str) -> str:
    """The hands field for players who placed pieces of the given lengths (digits)."""
    out = []
    for placed in (dark_placed, light_placed):
        counts = full_hand()
        for ch in placed:
            counts[int(ch)] -= 1
        out.append(hand_string(counts))
    return "/".join(out)


def reference_moves(game: FoundationsGame) -> set:
    """The legal moves by the plain rules over sets of cells: slow, but independent of the
    bitboards, so the generator is checked against the rules and not against itself."""
    if game.is_over():
        return set()
    me = game.turn
    at = {}
    for color in (0, 1):
        for seg, level in game.pieces(color):
            for cell in seg.cells:
                at[(level, cell)] = (color, seg)
    own = game.pieces(me)
    level = max([k for _, k in own], default=1)
    minimum = max([s.length for s, k in own if k == level], default=0)
    hand = game.hand(me)
    top = max([k for k, _ in at], default=1)

    def fits(seg, k):
        if any((m, c) in at for c in seg.cells for m in range(k, top + 1)):
            return False
        if k == 1:
            return True
        ends = [at.get((k - 1, e)) for e in (seg.lo, seg.hi)]
        return all(e is not None and e[0] == me for e in ends) and ends[0][1] is not ends[1][1]

    here = {Place(s, level) for s in SEGMENTS
            if hand[s.length] and s.length >= minimum and fits(s, level)}
    if here:
        return here
    up = {Place(s, level + 1) for s in SEGMENTS if hand[s.length] and fits(s, level + 1)}
    return up or {PASS}


def playout_positions(seed: int, games: int):
    """Positions along seeded playouts; odd games prefer short pieces, which climbs higher."""
    rng = random.Random(seed)
    for i in range(games):
        game = FoundationsGame.start()
        while True:
            yield game
            if game.is_over():
                break
            moves = list(game.legal_moves())
            if i % 2 and isinstance(moves[0], Place):
                shortest = min(m.segment.length for m in moves)
                moves = [m for m in moves if m.segment.length == shortest]
            game.push(rng.choice(moves))


# -- counts -------------------------------------------------------------------

def test_start_position_and_perft():
    game = FoundationsGame.start()
    assert game.position() == START
    assert FoundationsGame.from_position(START).position() == START
    assert game.perft(1) == 600
    assert game.perft(2) == 305_600
    assert len(set(game.legal_moves())) == 600
    assert game.position() == START


def test_perft_divide_matches_perft():
    game = FoundationsGame.from_position(EXAMPLE_2)
    divide = game.perft_divide(3)
    assert len(divide) == game.count_legal_moves() == 9
    assert sum(n for _, n in divide) == game.perft(3)


def test_generator_matches_plain_rules_and_fast_count():
    checked = levels = 0
    for game in playout_positions(seed=11, games=24):
        moves = list(game.legal_moves())
        assert len(moves) == len(set(moves))
        assert set(moves) == reference_moves(game), game.position()
        assert game.count_legal_moves() == len(moves)
        checked += 1
        levels = max(levels, game.level(0), game.level(1))
    assert checked > 300 and levels >= 3  # the sample reaches the upper levels


# -- rulebook example 1: the tiebreak, as a whole finished game -------------

EXAMPLE_1_MOVES = (
    # level 1: Dark 3,3,3,3,5,6,7 and Light 3,4,4,5,6,7 (each ends with its 7: no
    # longer piece is left, so both must go up)
    "a7a9 e7e9 b7b9 b0e0 c7c9 g7j7 d7d9 g2g6 d2d6 h1h6 e1e6 j0j6 a0a6 "
    # level 2: Dark 4,4,5,5 (2+2+3+3 = 10), Light 3,3,3,4,6 (1+1+1+2+4 = 9)
    "h1j1^2 a2d2^2 h3j3^2 a5d5^2 h5j5^2 a1e1^2 g2j2^2 a6e6^2 e0j0^2 "
    # level 3: Dark 4 then 6 (2+4), Light 5 and 5 (3+3); side by side, so no level 4
    "b2b5^3 h1h5^3 c1c6^3 i1i5^3 "
    "pass pass"
)
EXAMPLE_1 = (
    "foundations a0a6,e1e6,d2d6,a7a9,b7b9,c7c9,d7d9,a1e1^2,a2d2^2,a5d5^2,a6e6^2,c1c6^3,"
    "b2b5^3/b0e0,j0j6,h1h6,g2g6,e7e9,g7j7,e0j0^2,h1j1^2,g2j2^2,h3j3^2,h5j5^2,h1h5^3,"
    "i1i5^3 34/34 d dl"
)


def test_example_1_tiebreak_on_a_finished_game():
    game = play(EXAMPLE_1_MOVES)
    assert game.position() == EXAMPLE_1
    for loaded in (game, FoundationsGame.from_position(EXAMPLE_1)):
        assert loaded.is_over()
        assert [loaded.level_points(0, 3), loaded.level_points(1, 3)] == [6, 6]
        assert [loaded.level_points(0, 2), loaded.level_points(1, 2)] == [10, 9]
        result = loaded.result()
        assert result.winner == 1
        assert result.scores == (3, 3)
        assert result.reason == "equal hands (3 each); fewer points on level 2 (9 vs 10)"
        assert result.text == "0-1"


def test_example_1_sets_add_up():
    game = FoundationsGame.from_position(EXAMPLE_1)
    for color in (0, 1):
        assert sum(s.value for s, _ in game.pieces(color)) + 3 == 36
        # both were stuck before passing: higher levels hold only pieces too short to follow
        assert game.level(color) == 3


def test_example_1_only_pass_before_the_passes():
    game = play(EXAMPLE_1_MOVES.replace("pass pass", ""))
    assert list(game.legal_moves()) == [PASS]
    assert game.count_legal_moves() == 1
    game.play("pass")
    assert game.turn == 1 and list(game.legal_moves()) == [PASS]
    assert game.result() is None


# -- rulebook example 2: Light must go up to level 2 with a 2-piece -----------

EXAMPLE_2 = f"foundations j0j2,h2h4,i5i7,a9c9/b2b4,e2e4,a7g7 {hands('3333', '337')} l -"


def test_example_2_legal_and_illegal_level_2_placements():
    game = FoundationsGame.from_position(EXAMPLE_2)
    assert game.level(1) == 1 and game.min_length(1) == 7
    moves = {str(m) for m in game.legal_moves()}
    assert moves == {"b2e2^2", "b3e3^2", "b4e4^2", "b2b7^2", "b3b7^2", "b4b7^2",
                     "e2e7^2", "e3e7^2", "e4e7^2"}
    assert game.parse_move("e2b2^2") == Place(game.parse_move("b2e2^2").segment, 2)
    assert illegal(game, "c0f0^2") == (
        "end cell c0 is not above one of your level-1 pieces: it is above nothing")
    assert illegal(game, "a7d7^2") == "both ends rest on the same piece a7g7"
    assert illegal(game, "e2h2^2") == (
        "end cell h2 is not above one of your level-1 pieces: it is above an opponent piece")


def test_example_2_bridge_then_level_2_minimum():
    game = FoundationsGame.from_position(EXAMPLE_2)
    game.play("b2e2^2")  # c2 and d2 are above nothing: a bridge
    assert game.level(1) == 2 and game.min_length(1) == 4
    game.play("f0f2")
    assert illegal(game, "b2e2^2") == "cell b2 is occupied on level 2"
    assert illegal(game, "b3b7") == "wrong level: your current level is 2; you can never go back down"
    assert illegal(game, "b2b6^3").startswith(
        "wrong level: your current level is 2 and a piece still fits there")
    assert {m.level for m in game.legal_moves()} == {2}


# -- levels and lengths -------------------------------------------------------

def test_skipped_short_pieces_stay_in_hand():
    game = play("a0a4 j9j7")
    assert illegal(game, "c0c2") == "length 3 is shorter than your last piece on this level (5)"
    assert {m.segment.length for m in game.legal_moves()} == {5, 6, 7}
    game.play("c0c4")  # equal length is allowed
    game.play("j0j2")
    assert game.min_length(0) == 5 and game.hand(0)[3] == 5


def test_forced_level_change_and_only_one_level_up():
    game = FoundationsGame.start()
    assert illegal(game, "a0a2^2") == (
        "wrong level: your current level is 1 and a piece still fits there (e.g. a0c0)")
    assert illegal(game, "a0a2^3") == "wrong level: your current level is 1; you may only go up one level"
    game = play("a0c0 j0j2 c3c9")  # Dark's 7 ends level 1 for Dark though the board is empty
    game.play("j3j5")
    assert {str(m) for m in game.legal_moves()} == {"c0c3^2", "c0c4^2", "c0c5^2"}
    assert illegal(game, "e5e7") == "length 3 is shorter than your last piece on this level (7)"


def test_forced_up_by_lack_of_space():
    """A player whose allowed lengths no longer fit on its level must go up, even with room
    left for shorter pieces."""
    for game in playout_positions(seed=3, games=40):
        if game.is_over():
            continue
        me = game.turn
        moves = list(game.legal_moves())
        level = game.level(me)
        if moves[0] is PASS or moves[0].level == level:
            continue
        hand = game.hand(me)
        if not any(hand[n] for n in range(game.min_length(me), 8)):
            continue  # up only for want of a long enough piece: not what this test is about
        long_enough = [s for s in SEGMENTS if s.length >= game.min_length(me) and hand[s.length]]
        for seg in long_enough:
            assert not game.is_legal(Place(seg, level))
        assert all(m.level == level + 1 for m in moves)
        return
    pytest.fail("no forced level change by lack of space in the sample")


def test_never_back_down_and_no_building_underneath():
    # Dark bridges c1 and d1 at level 2 (ends b1 and e1 on its own pieces)
    game = play("b0b2 j0j2 e0e6 j3j5 b1e1^2")
    assert game.level(0) == 2
    assert illegal(game, "c0c3") == "cell c1 lies under a level-2 piece"
    assert illegal(game, "a1d1") == "cell b1 is occupied on level 1"
    assert all(not m.segment.mask & (1 << 12) for m in game.legal_moves())  # c1
    game.play("c2c4")  # next to the bridge is fine
    assert illegal(game, "f0f2") == "wrong level: your current level is 2; you can never go back down"


def test_pass_only_when_nothing_fits():
    game = FoundationsGame.start()
    assert illegal(game, "pass") == "cannot pass while a move exists (e.g. a0c0)"
    game = play("a0a6 j0j6")  # Dark's 7 is alone: level 1 closed, no two pieces to build on
    assert list(game.legal_moves()) == [PASS]
    game.play("pass")
    assert game.turn == 1 and game.passes == (0,)
    assert list(game.legal_moves()) == [PASS]
    game.play("pass")
    assert game.is_over() and list(game.legal_moves()) == [] and game.count_legal_moves() == 0
    with pytest.raises(GameOverError):
        game.parse_move("a2a4")
    with pytest.raises(GameOverError):
        game.play("pass")


def test_finished_player_sits_out():
    game = play("a0a6 j0j2 pass")
    for _ in range(3):
        assert game.turn == 1
        game.push(next(iter(game.legal_moves())))
    assert game.position().endswith(" l d")


def test_random_move_reaches_every_legal_move():
    game = FoundationsGame.from_position(EXAMPLE_2)
    rng = random.Random(4)
    seen = {game.random_move(rng) for _ in range(300)}
    assert seen == set(game.legal_moves())
    stuck = play("a0a6 j0j6")
    assert stuck.random_move(rng) is PASS
    stuck.play("pass")
    stuck.play("pass")
    assert stuck.random_move(rng) is None


# -- results ------------------------------------------------------------------

def test_result_by_hand():
    game = play("a0a6 j0j2 pass d9j9 pass")  # Light cannot join j0j2 and d9j9 by their ends
    result = game.result()
    assert (result.winner, result.scores) == (1, (30, 29))
    assert result.reason == "lower value in hand (29 vs 30)"


def test_result_by_highest_level_before_lower_levels():
    # equal hands (26 each); level 2: Dark 3, Light 2; level 1 would favour Dark (7 vs 8)
    game = play("a0c0 a5a7 c3c9 h0j0 c0c4^2 h3h9 pass h0h3^2 pass")
    assert [game.level_points(c, 1) for c in (0, 1)] == [7, 8]
    result = game.result()
    assert (result.winner, result.scores) == (1, (26, 26))
    assert result.reason == "equal hands (26 each); fewer points on level 2 (2 vs 3)"


def test_result_full_draw():
    game = play("a0c0 h9j9 c3c9 h0h6 c0c4^2 h5h9^2 pass pass")
    result = game.result()
    assert (result.winner, result.scores, result.text) == (None, (26, 26), "1/2-1/2")
    assert result.reason == "draw: hands and every level equal"


def test_result_dark_wins_by_hand_and_no_result_before_the_end():
    game = play("a0c0 j0j6 c3c9 pass c0c4^2")  # Light's 7 stands alone: Light is done
    assert game.result() is None
    game.play("pass")
    result = game.result()
    assert (result.winner, result.scores, result.text) == (0, (26, 30), "1-0")
    assert result.reason == "lower value in hand (26 vs 30)"


# -- moves that are not moves -------------------------------------------------

def test_bad_notation_and_foreign_moves():
    game = FoundationsGame.start()
    with pytest.raises(NotationError) as info:
        game.parse_move("c3c8^")
    assert info.value.column == 6
    with pytest.raises(NotationError):
        game.parse_move("c3d4")
    with pytest.raises(NotationError) as info:
        game.parse_move("c3c7^0")
    assert "levels start at 1" in info.value.message
    with pytest.raises(IllegalMoveError) as info:
        game.check_move(Remove(SEGMENTS[0], 3))
    assert "not a FOUNDATIONS move" in info.value.reason


def test_not_in_hand():
    game = play("a0a6 j0j2 pass d9j9")
    assert illegal(game, "c0i0") == "no piece of length 7 in hand"


def test_push_pop_and_copy_restore():
    game = play("b0b2 j0j2 e0e6 j3j5")
    before = game.position()
    clone = game.copy()
    game.play("b1e1^2")
    assert game.pop() == Place(parse_segment("b1e1"), 2)
    assert game.position() == before == clone.position()
    clone.play("b0e0^2")
    assert game.position() == before


# -- impossible positions -----------------------------------------------------

def column_of(text: str, piece: str) -> int:
    return text.index(piece) + 1


def field_column(text: str, index: int) -> int:
    """1-based column of field `index` (0 = game tag) of a single-spaced position string."""
    return sum(len(f) + 1 for f in text.split(" ")[:index]) + 1


def test_bad_inventory_and_overlap():
    text = f"foundations a0a6,c0c6/- {hands('', '')} l -"
    error = position_error(text)
    assert error.column == field_column(text, 1)
    assert "Dark has 3 pieces of length 7" in error.message
    text = f"foundations a0a2/- {hands('33', '')} l -"  # one 3 neither on board nor in hand
    error = position_error(text)
    assert error.column == field_column(text, 2) and "FOUNDATIONS keeps all 5" in error.message
    text = f"foundations a0a2/a1c1 {hands('3', '3')} d -"
    error = position_error(text)
    assert error.column == column_of(text, "a1c1") and "overlaps" in error.message


@pytest.mark.parametrize("piece, reason", [
    ("b1f1^2", "end cell f1 is not above one of your level-1 pieces: it is above nothing"),
    ("e0e3^2", "both ends rest on the same piece e0e6"),
    ("e2h2^2", "end cell h2 is not above one of your level-1 pieces: it is above an opponent piece"),
    ("b1e1^3", "end cell b1 is not above one of your level-2 pieces: it is above nothing"),
])
def test_level_pieces_must_rest_on_two_own_pieces(piece, reason):
    length = str(parse_segment(piece.split("^")[0]).length)
    text = f"foundations b0b2,e0e6,{piece}/j0j2,h0h2 {hands('37' + length, '33')} l -"
    error = position_error(text)
    assert error.column == column_of(text, piece)
    assert error.message == f"piece {piece}: {reason}"


def test_level_out_of_reach():
    text = f"foundations a0a2^9/- {hands('3', '')} l -"
    error = position_error(text)
    assert error.column == column_of(text, "a0a2^9") and "out of reach" in error.message


def test_piece_under_a_bridge_placed_too_late():
    # Dark: b0b2, e0e6, then the bridge b1e1^2 as its 3rd piece at the latest. Light's c1c7
    # (under the bridge) is its longest, so at best its 3rd piece: after the bridge.
    late = f"foundations b0b2,e0e6,b1e1^2/j0j2,j3j5,c1c7 {hands('374', '337')} d -"
    error = position_error(late)
    assert error.column == column_of(late, "c1c7")
    assert "lies under Dark's level-2 piece b1e1" in error.message
    # the same square with a short piece under the bridge could have come first
    early = f"foundations b0b2,e0e6,b1e1^2/c1c3,j0j2,j3j9 {hands('374', '337')} d -"
    game = FoundationsGame.from_position(early)
    assert illegal(game, "g0g2") == "wrong level: your current level is 2; you can never go back down"


def test_moved_up_while_a_piece_still_fitted():
    # Dark is on level 2 though its 4s (>= its level-1 minimum 3) still fit on level 1
    text = f"foundations b0b2,e0e2,b1e1^2/j0j2,j4j6 {hands('334', '33')} l -"
    error = position_error(text)
    assert error.column == column_of(text, "b1e1^2")
    assert "Dark is on level 2 but could still place" in error.message


def test_passes_must_be_consistent():
    text = f"foundations a0a2/j0j2 {hands('3', '3')} l d"
    error = position_error(text)
    assert error.column == field_column(text, 4)
    assert "Dark has passed but can still place" in error.message
    text = f"foundations a0a6/j0j6 {hands('7', '7')} d d"  # a passed player to move
    assert position_error(text).column == field_column(text, 3)
    text = f"foundations a0a2/- {hands('3', '')} d -"  # Dark moves first, then Light
    error = position_error(text)
    assert error.column == field_column(text, 3) and "Light's turn" in error.message
    text = f"foundations a0a2,c0c2/- {hands('33', '')} l -"
    assert position_error(text).column == field_column(text, 1)
    text = f"foundations a0a6/j0j6 {hands('7', '7')} d l"  # Light passed with as many as Dark
    assert position_error(text).column == field_column(text, 4)
    text = f"foundations a0a6,c9e9/j0j6 {hands('73', '7')} l d"  # Dark passed with more
    assert position_error(text).column == field_column(text, 4)
    text = f"foundations a0a6/j0j6 {hands('7', '7')} l dl"  # finished: both stuck
    assert FoundationsGame.from_position(text).is_over()


def test_wrong_game_and_dispatch():
    with pytest.raises(PositionError) as info:
        FoundationsGame.from_position("hari -/- 333334444555667/333334444555667 d -")
    assert info.value.column == 1
    game = game_from_position(EXAMPLE_2)
    assert isinstance(game, FoundationsGame) and game.position() == EXAMPLE_2


def test_position_is_canonical():
    # ends in either order and pieces in any order come out canonical
    text = f"foundations i5i7,j2j0,a9c9,h4h2/g7a7,e4e2,b2b4 {hands('3333', '337')} l -"
    game = FoundationsGame.from_position(text)
    assert game.position() == EXAMPLE_2
    assert FoundationsGame.from_position(game.position()).position() == EXAMPLE_2
