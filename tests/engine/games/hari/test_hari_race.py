"""The HARI packing race (engine/games/hari/race.py): what it counts; and the candidates it is searched over
(engine/games/hari/candidates.py)."""

from __future__ import annotations

from engine.games.hari.candidates import candidates
from engine.games.hari.race import contest_margin, room_by_one_slide
from engine.games.packing import first_fit
from protocol import game_from_position, new_game
from protocol.board import ALL_CELLS
from protocol.moves import HariMove, Slide
from protocol.notation import parse_segment

CRAMPED = ("hari a5a9,b1b4,c1c3,f3f6,f7f9,g0g2,h0j0,h1h4,i1i5,i6i8/a1a4,b5b7,c5c8,d2d6,"
           "e3e9,g5g7,h5h8,j3j6,j7j9 7/33 d l")
"""Dark holds only the 7 and Light two 3s; neither fits without a slide."""


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
    # Neither side's pieces fit without a slide (CRAMPED): the race without upgrades adds nothing.
    game = game_from_position(CRAMPED)
    assert contest_margin(game, 0) == game.board_value(0) - game.board_value(1)


def test_one_slide_makes_a_legal_room_for_a_piece_that_fits_nowhere():
    game = game_from_position(CRAMPED)
    empty = game.empty_cells()
    assert first_fit(empty, 7) is None
    room = room_by_one_slide(game.pieces(0), empty, 7)
    assert room is not None
    piece, end, seg = room
    assert end is not None  # a slide along the line loses nothing, so it comes first
    assert seg.mask & piece.mask  # the 7 uses cells the slide freed
    game.check_move(HariMove((Slide(piece, end),), seg, 0))  # raises if the rules disagree


def test_the_race_with_upgrades_counts_the_pieces_that_slides_let_in():
    game = game_from_position(CRAMPED)
    plain = contest_margin(game, 0)
    upgraded = contest_margin(game, 0, upgrades=True)
    assert upgraded == -contest_margin(game, 1, upgrades=True)
    assert upgraded > plain  # Dark's 7 (6 points) gets in; without slides it is skipped


def test_a_piece_slides_off_only_for_a_play_worth_more():
    # Dark's 3 on a0c0 at the edge, d0 empty, every other cell someone else's.
    piece = parse_segment("a0c0")
    empty = 1 << 3  # d0 alone (cells are numbered rank * 10 + file)
    assert room_by_one_slide([piece], empty, 4) == (piece, None, parse_segment("a0d0"))
    assert room_by_one_slide([piece], empty, 3) is None  # a 3 for a 3 gains nothing


def test_root_candidates_offer_a_slide_when_a_length_has_no_room():
    game = game_from_position(CRAMPED)
    moves = candidates(game, 10, 4, 24)
    assert any(m.slides and m.place is not None for m in moves)
    for move in moves:
        game.check_move(move)


def test_more_placements_per_length_only_add_candidates():
    game = new_game("hari")
    for move in ("c3c5", "d6f6", "a0a2", "j7j9"):
        game.play(move)
    usual = [str(m) for m in candidates(game, 10, 4, 24)]
    wider = [str(m) for m in candidates(game, 16, 4, 24)]
    assert set(usual) < set(wider)
    lengths = len(game.playable_lengths(game.turn))
    assert len(wider) - len(usual) == 6 * lengths  # 16 instead of 10 of each length: the start has room
