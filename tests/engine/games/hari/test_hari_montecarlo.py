"""HARI's flat Monte Carlo (engine/games/hari/montecarlo.py): which moves it weighs and how it plays out."""

from __future__ import annotations

import random
import threading

from engine.games.hari import montecarlo
from engine.games.hari.playout_policy import playout_move
from engine.games.hari.search import plays_left
from engine.games.hari.settings import HariSettings
from engine.strategies import Limits
from engine.strategies.heuristic import ranked_moves
from engine.strategies.search_strategy import SearchStrategy
from protocol import game_from_position, new_game
from protocol.moves import PASS

SETTINGS = HariSettings()
MC = SETTINGS.montecarlo


def mc_move(game, rng):
    """The Monte Carlo's playout policy: spread spots, upgrades."""
    return playout_move(game, rng, MC.skip, True, MC.spread)

MIDGAME = "hari a0c0,g0i0,a1c1,g1i1,a2a5,a7a9/d0f0,j0j2,d1f1,b2b5,c2c4,b7b9 444555667/444555667 d -"


def test_candidates_weigh_every_playable_length_and_start_with_the_heuristics_best():
    game = game_from_position(MIDGAME)
    moves = montecarlo.root_candidates(game, random.Random(1), MC)
    lengths = {m.length for m in moves}
    assert lengths == set(game.playable_lengths(game.turn))  # a jump to any longer piece is weighed
    best = ranked_moves(game, random.Random(1))[0][1]
    assert str(moves[0]) == str(best)
    assert len({str(m) for m in moves}) == len(moves)  # no move twice
    for move in moves:
        assert game.check_move(move) == move


def test_playouts_play_legal_moves_to_the_end():
    rng = random.Random(3)
    for _ in range(5):
        game = new_game("hari")
        plies = 0
        while not game.is_over():
            move = mc_move(game, rng)
            assert move is PASS or game.check_move(move) == move
            game.push(move)
            plies += 1
        assert plies < MC.playout_plies


def test_playouts_sometimes_give_up_the_shortest_piece():
    """skip: one playout move in about four plays the second-shortest length."""
    game = new_game("hari")
    rng = random.Random(7)
    lengths = [mc_move(game, rng).length for _ in range(400)]
    share = lengths.count(4) / len(lengths)
    assert all(n in (3, 4) for n in lengths)
    assert abs(share - MC.skip) < 0.07


def test_playouts_upgrade_when_nothing_fits():
    """Dark's 5 fits nowhere, not even after a slide along a line; sliding its 4 off the board
    (2 points lost) makes room for the 5 (3 points): the playout takes the upgrade where the
    sparring partners' snug policy (no upgrades) discards the 5."""
    game = game_from_position(
        "hari a0d0,g1j1,b3d3,e3g3,b5e5,a6c6,d6h6,b7d7,e7h7,a8e8,a9c9/f0j0,a1c1,d1f1,a2c2,e2h2,h3j3,a4c4,"
        "d4g4,g5j5,g8j8,e9i9 5667/5667 d -")
    assert not any(m.place is not None and not m.slides for m in game.legal_moves() if m is not PASS)
    rng = random.Random(1)
    assert str(playout_move(game, rng, 0.1)) == "x5"
    for seed in range(5):
        move = mc_move(game, random.Random(seed))
        assert str(move) == "a0d0>off,a0e0"
        assert game.check_move(move) == move


def test_a_node_limited_search_is_reproducible():
    """Every choice uses the Seed generator and node counts, never the clock (SPEC 9.10)."""
    def once() -> tuple[str, int | None]:
        game = game_from_position(MIDGAME)
        infos: list = []
        move = SearchStrategy().choose(game, Limits(nodes=600), threading.Event(), infos.append, random.Random(5))
        return str(move), infos[-1].nodes

    first = once()
    assert first == once()
    assert first[1] is not None and first[1] >= 600


def test_plays_left_bounds_the_plays_still_to_come():
    """plays_left never undercounts: the search's depth (plays_left + 2 closing passes) reaches the
    end of the game."""
    assert plays_left(new_game("hari")) == 30
    rng = random.Random(9)
    for _ in range(6):
        game = new_game("hari")
        history: list[int] = []
        while not game.is_over():
            history.append(plays_left(game))
            game.push(mc_move(game, rng))
        assert plays_left(game) == 0
        for ply, bound in enumerate(history):
            assert len(history) - ply <= bound + 2  # the plies played from there to the end


ENDGAME = ("hari a0d0,g1j1,b3d3,e3g3,b5e5,a6c6,d6h6,b7d7,e7h7,a8e8,a9c9/f0j0,a1c1,d1f1,a2c2,e2h2,h3j3,a4c4,"
           "d4g4,g5j5,g8j8,e9i9 5667/5667 d -")


def test_the_endgame_is_searched_by_alpha_beta_to_the_end():
    """At most endgame_plies plays left: alpha-beta (no rollouts) several plies deep, answering a legal
    move, the same one each time for a node limit."""
    game = game_from_position(ENDGAME)
    assert plays_left(game) <= SETTINGS.endgame_plies

    def once() -> tuple[str, object]:
        infos: list = []
        move = SearchStrategy().choose(game_from_position(ENDGAME), Limits(nodes=20000), threading.Event(),
                                       infos.append, random.Random(2))
        return str(move), infos[-1]

    move, info = once()
    assert info.rollouts is None and info.depth >= 3
    assert str(game.check_move(game.parse_move(move))) == move
    assert once()[0] == move
