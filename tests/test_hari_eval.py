"""The HARI packing race (engine/search/hari_eval.py): what it counts, and the candidates it is searched over."""

from __future__ import annotations

from engine.search.hari_eval import candidates, contest_margin
from protocol import game_from_position, new_game
from protocol.board import ALL_CELLS


def test_race_from_the_start_favours_nobody_much_and_is_antisymmetric():
    game = new_game("hari")
    dark, light = contest_margin(game, 0), contest_margin(game, 1)
    assert dark == -light
    assert 0 <= dark <= 6  # the first pick of the space is worth a little, not the game


def test_race_counts_the_board_value_already_placed():
    game = new_game("hari")
    game.play("a0g0")  # Dark's 7 (6 points) placed first: its 3s..6s can no longer be played
    assert contest_margin(game, 0) == -contest_margin(game, 1)
    assert game.board_value(0) == 6
    assert game.empty_cells() == ALL_CELLS & ~game.state().pieces[0].segment.mask


def test_a_side_with_no_room_loses_the_race():
    # Dark holds only the 7 and Light two 3s; neither fits without a slide: the race adds nothing.
    game = game_from_position("hari a5a9,b1b4,c1c3,f3f6,f7f9,g0g2,h0j0,h1h4,i1i5,i6i8/a1a4,b5b7,c5c8,d2d6,"
                              "e3e9,g5g7,h5h8,j3j6,j7j9 7/33 d l")
    assert contest_margin(game, 0) == game.board_value(0) - game.board_value(1)


def test_root_candidates_offer_a_slide_when_a_length_has_no_room():
    game = game_from_position("hari a5a9,b1b4,c1c3,f3f6,f7f9,g0g2,h0j0,h1h4,i1i5,i6i8/a1a4,b5b7,c5c8,d2d6,"
                              "e3e9,g5g7,h5h8,j3j6,j7j9 7/33 d l")
    moves = candidates(game, root=True)
    assert any(m.slides and m.place is not None for m in moves)
    assert not any(m.slides for m in candidates(game, root=False))
    for move in moves:
        game.check_move(move)
