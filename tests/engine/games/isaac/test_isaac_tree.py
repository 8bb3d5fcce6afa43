"""ISAAC's search tree in C (engine/games/isaac/_tree_game.h over engine/search/native/_tree.h, playout_core.new_tree).

The tree's algorithm is the one tests/engine/games/foundations/test_foundations_tree.py holds to engine/search/mcts.py
visit for visit. These tests hold ISAAC's part of it: its placement candidates are knowledge's
placement guesses, value for value and in the same order; its lines are legal on IsaacGame, through
the removals too (or, with them off, no line goes on into them); a search is reproducible; and bad
input is an error, not a crash."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine.games.isaac import _playout_core as _partner
from engine.games.isaac import knowledge as K
from engine.games.isaac import playout_core as partner
from engine.games.isaac import search as isaac_search
from engine.games.isaac.settings import IsaacSettings
from engine.search.ctree import CTree
from protocol import game_from_position, new_game
from protocol.board import SEGMENTS
from protocol.games.isaac.rules import IsaacGame
from protocol.state import Phase
from tests.engine.games.book_positions import book_positions
from tests.support.search import context

SETTINGS = IsaacSettings()


def _placing(game) -> bool:
    return game.phase is Phase.PLACE


def _placing_with_a_choice(game) -> bool:
    return game.phase is Phase.PLACE and len(list(game.legal_moves())) > 1


POSITIONS = book_positions("isaac", 40, seed=11, most_plies=24, play_on=lambda game, rng: game.random_move(rng),
                           goes_on=_placing, keep=_placing_with_a_choice)
"""Placement positions with a choice, from the shipped book's openings played on at random."""


def late_position(seed: int) -> IsaacGame:
    """The last placement position of a random game with a choice: the tree's lines reach the scoring phase."""
    rng = random.Random(seed)
    game = new_game("isaac")
    assert isinstance(game, IsaacGame)
    while game.phase is Phase.PLACE:
        game.push(game.random_move(rng))
    game.pop()
    while len(list(game.legal_moves())) < 2 or game.phase is not Phase.PLACE:
        game.pop()
    return game


LATE = late_position(3)


SCORING = game_from_position("isaac a1g1,i0i2,c4e4/h0h2,a6c6 3444455566/3444555667 d - score 30/20")
LEAVES_AT_SCORING = replace(SETTINGS, tree_removals=False, tree_scoring=False)
REMOVALS = replace(SETTINGS, tree_removals=True, tree_scoring=True)


def _tree(game: IsaacGame, seed: int = 1, decay: float = 0.0, **limits: int) -> CTree:
    return partner.new_tree(game, isaac_search.candidates(game, SETTINGS), SETTINGS.mcts.numbers(), SETTINGS.prior_scale,
                            SETTINGS.leaf_playouts, SETTINGS.leaf_policy, decay, seed, **limits)


def _replay(game: IsaacGame, pv: list[str]) -> IsaacGame:
    line = game.copy()
    for text in pv:
        line.push(line.check_move(line.parse_move(text)))  # raises on an illegal move
    return line


def test_tree_codes_name_every_move():
    for game in [*POSITIONS[:5], SCORING, late_position(5)]:
        for move in game.legal_moves():
            assert partner.tree_move(partner.tree_code(move)) == move


def test_the_trees_candidates_are_the_placement_guesses():
    for game in POSITIONS:
        in_c = _partner.guesses(partner.position_tuple(game))
        in_python = [(m.segment.index, guess) for m, guess in K.placement_candidates(game) if m != K.PASS]
        assert in_c == in_python
        for keep in (64, 5, 1):  # a node's best, selected without sorting them all: a full sort's first ones
            assert _partner.guesses(partner.position_tuple(game), keep) == in_python[:keep]
    with pytest.raises(ValueError, match="keep"):
        _partner.guesses(partner.position_tuple(POSITIONS[0]), 0)


@pytest.mark.parametrize("settings", [LEAVES_AT_SCORING, REMOVALS])
def test_a_search_in_c_is_reproducible_and_plays_legal_lines(settings):
    for game in [*POSITIONS[:4], LATE, SCORING]:
        answers = []
        for _ in range(2):
            ctx = context(settings, nodes=20000)
            move, info = isaac_search.SEARCHER.choose(game.copy(), ctx, random.Random(5))
            answers.append((move, info, ctx.tm.nodes))
        assert answers[0] == answers[1]
        move, info, nodes = answers[0]
        assert info.pv[0] == str(move)
        if game is not SCORING or settings is REMOVALS:  # a search by the tree (else the alpha-beta)
            assert nodes >= 20000
        line = _replay(game, info.pv)
        if settings is LEAVES_AT_SCORING and game is not SCORING:
            assert sum(1 for text in info.pv if text.startswith("x")) == 0  # no line goes on into the removals
        if game is LATE and settings is REMOVALS:
            assert line.phase is Phase.SCORE  # the line goes on into the removals


def test_the_late_tree_reaches_the_scoring_phase_and_its_visits_add_up():
    for decay, deepest in ((0.0, 4), (0.8, 40)):
        tree = _tree(LATE, decay=decay)
        tree.run(3000, 0, 0.0, 0.0, 0)
        _, pv, visits, mean, _, seldepth, simulations, _ = tree.info()
        assert visits == simulations == 3000 and 0.0 <= mean <= 1.0
        assert sum(v for _, _, v, _ in tree.root()) == 3000
        line = LATE.copy()
        for code in pv:
            line.push(line.check_move(partner.tree_move(code)))
        assert 1 <= seldepth <= deepest  # without removals the scoring phase's nodes are leaves


def test_bad_input_to_the_tree_is_an_error_not_a_crash():
    game = POSITIONS[0]
    position = partner.position_tuple(game)
    root = [(partner.tree_code(m), p) for m, p in isaac_search.candidates(game, SETTINGS)]
    own = (SETTINGS.prior_scale, SETTINGS.leaf_playouts, SETTINGS.leaf_policy.params(), 0.0)

    def tree(at=position, moves=root, game_numbers=own):
        return _partner.Tree(at, moves, SETTINGS.mcts.numbers(), game_numbers, 1, 100, 1000)

    taken = next(s.index for s in game.pieces(0) + game.pieces(1))
    with pytest.raises(ValueError, match=f"root candidate 1 \\(code {taken}\\) is not a legal move"):
        tree(moves=[root[0], (taken, 1.0)])
    with pytest.raises(ValueError, match="not a legal move"):
        tree(moves=[(-1, 1.0)])  # a pass, where placements fit
    for bad in ((0.0, 4, own[2], 0.0), (3.0, 0, own[2], 0.0), (3.0, 65, own[2], 0.0), (3.0, 4, own[2], 1.5)):
        with pytest.raises(ValueError, match="tree settings: prior_scale"):
            tree(game_numbers=bad)
    with pytest.raises(ValueError):
        tree(game_numbers=(3.0, 4, own[2][:3], 0.0))  # too few policy numbers
    with pytest.raises(TypeError, match="tree settings: a tuple, not list"):
        tree(game_numbers=list(own))
    scoring = partner.position_tuple(SCORING)
    removals = [(partner.tree_code(m), 1.0) for m in SCORING.legal_moves()]
    tree(at=scoring, moves=removals)  # every legal removal is a root move
    with pytest.raises(ValueError, match="not a legal move"):
        tree(at=scoring, moves=[(0, 1.0)])  # a placement in the scoring phase
    own = SCORING.pieces(SCORING.turn)[0].index
    theirs = SCORING.pieces(1 - SCORING.turn)[0].index
    for bad in (len(SEGMENTS) + own * 1024 + 999, len(SEGMENTS) + theirs * 1024 + 40, len(SEGMENTS) + 700 * 1024):
        with pytest.raises(ValueError, match="not a legal move"):
            tree(at=scoring, moves=[(bad, 1.0)])  # a score the piece cannot earn, the opponent's piece, no piece
    with pytest.raises(ValueError, match="placement phase"):
        _partner.guesses(scoring)
    with pytest.raises(ValueError, match="not an ISAAC move"):
        partner.tree_code(object())  # type: ignore[arg-type]


def _two_plies_on(game: IsaacGame, tree: CTree) -> IsaacGame:
    """`game` after the first two moves of the tree's most visited line."""
    line = game.copy()
    for code in tree.info()[1][:2]:
        line.push(line.check_move(partner.tree_move(code)))
    return line


def test_a_kept_tree_moves_on_to_the_reply_with_what_it_searched_there():
    game = POSITIONS[1]
    tree = _tree(game)
    tree.run(4000, 0, 0.0, 0.0, 0)
    before = tree.info()
    for same_or_elsewhere in (game, POSITIONS[2]):  # not 1 to 4 plies below: not found, the tree unchanged
        root = [(partner.tree_code(m), p) for m, p in isaac_search.candidates(same_or_elsewhere, SETTINGS)]
        assert tree.advance(partner.position_tuple(same_or_elsewhere), root, 9) == 0
        assert tree.info() == before
    line = _two_plies_on(game, tree)
    root = isaac_search.candidates(line, SETTINGS)
    assert partner.advance_tree(tree, line, root, 9)
    _, _, kept, _, _, _, simulations, nodes = tree.info()
    assert kept > 0 and simulations == nodes == 0
    assert sum(v for _, _, v, _ in tree.root()) <= kept
    assert [code for code, *_ in tree.root()] == [partner.tree_code(m) for m, _ in root]  # the caller's candidates
    tree.run(1000, 0, 0.0, 0.0, 0)
    _, pv, visits, _, _, _, simulations, _ = tree.info()
    assert visits == kept + 1000 and simulations == 1000
    _replay(line, [str(partner.tree_move(code)) for code in pv])  # legal from the new root


def test_a_kept_tree_refuses_bad_input_and_stays_usable():
    game = POSITIONS[3]
    tree = _tree(game)
    tree.run(2000, 0, 0.0, 0.0, 0)
    line = _two_plies_on(game, tree)
    root = [(partner.tree_code(m), p) for m, p in isaac_search.candidates(line, SETTINGS)]
    taken = line.pieces(0)[0].index
    with pytest.raises(ValueError, match="not a legal move"):
        tree.advance(partner.position_tuple(line), [root[0], (taken, 1.0)], 1)
    with pytest.raises(TypeError):
        tree.advance(partner.position_tuple(line), root)  # no seed
    assert tree.info()[2] == 2000  # unchanged
    assert tree.advance(partner.position_tuple(line), root, 1) > 0


def test_the_searcher_keeps_its_tree_from_one_move_to_the_next():
    game = POSITIONS[4]
    searcher = isaac_search.IsaacSearcher()
    _, info = searcher.choose(game.copy(), context(SETTINGS, nodes=20000), random.Random(5))
    line = game.copy()
    for text in info.pv[:2]:
        line.push(line.check_move(line.parse_move(text)))
    kept, again = (searcher.choose(line.copy(), context(SETTINGS, nodes=20000), random.Random(6)) for _ in range(2))
    fresh = isaac_search.IsaacSearcher().choose(line.copy(), context(replace(SETTINGS, reuse_tree=False), nodes=20000),
                                                random.Random(6))
    assert kept[1].visits > fresh[1].visits  # the reply's subtree was kept: more visits for the same new nodes
    assert again == fresh  # a search repeated on one position starts afresh: the same answer as a new tree's
