"""One conformance test of the Game interface, run over every registered game (OpenSpiel style).

Random playouts from the start position must keep every invariant of the API at
every ply: the position string round-trips, push/pop restores, counted moves are
the listed moves, every listed move is legal and canonical, state() agrees with
the other queries, and the outcome agrees with result(). ``test_toy_game`` adds a
fourth game, defined in test_toy_game.py, and runs it through the same checks.
"""

from __future__ import annotations

import random
from itertools import islice

import pytest

from protocol import game_class, game_from_position, new_game, registry
from protocol.board import COLOR_NAME, DARK, LENGTHS, LIGHT, SET_COUNTS
from protocol.game import Game
from protocol.moves import PASS
from protocol.state import GameEnd, GameState, Outcome, Phase

LIST_LIMIT = 3000
"""Positions with more legal moves than this are checked on the first LIST_LIMIT only (HARI)."""
SAMPLE = 6
"""Moves per position checked one by one (push/pop, parse, check)."""


def check_state(game: Game) -> GameState:
    """state() agrees with the game's other queries and with itself after a round trip."""
    state = game.state()
    entry = registry.entry(game.name)
    assert state.game == game.name == entry.name
    assert state.position == game.position()
    assert state.turn == game.turn in (DARK, LIGHT)
    assert isinstance(state.phase, Phase) and state.phase == game.phase
    assert state.passes == game.passes and len(set(state.passes)) == len(state.passes) <= 2
    if len(state.passes) == 1 and not game.is_over():
        assert state.turn != state.passes[0], "a player who has passed is skipped"
    assert state.scores == game.scores
    assert list(state.pieces) == sorted(state.pieces, key=lambda p: p.sort_key())
    for color in (DARK, LIGHT):
        hand = game.hand(color)
        assert isinstance(hand, tuple) and len(hand) == 8
        assert state.hands[color] == tuple(sorted(state.hands[color]))
        assert all(n in LENGTHS for n in state.hands[color])
        for n in LENGTHS:
            on_board = sum(1 for p in state.pieces if p.color == color and p.segment.length == n)
            assert on_board + hand[n] <= SET_COUNTS[n]
    if not entry.levels:
        assert all(p.level == 1 for p in state.pieces)
    cells: dict[int, int] = {}
    for piece in state.pieces:
        assert piece.level >= 1
        assert not cells.get(piece.level, 0) & piece.segment.mask, f"overlap at {piece.name}"
        cells[piece.level] = cells.get(piece.level, 0) | piece.segment.mask
    outcome = game.result()
    assert state.outcome == outcome and state.over == game.is_over() == (outcome is not None)
    if outcome is not None:
        check_outcome(outcome, state, entry.lower_score_wins)
    return state


def check_outcome(outcome: Outcome, state: GameState, lower_wins: bool) -> None:
    assert isinstance(outcome.termination, GameEnd)
    assert outcome.scores == state.scores
    assert outcome.text == {None: "1/2-1/2", DARK: "1-0", LIGHT: "0-1"}[outcome.winner]
    assert outcome.reason and outcome.text in str(outcome)
    if outcome.winner is not None and outcome.termination is GameEnd.BOTH_PASSED:
        better = outcome.scores[outcome.winner], outcome.scores[1 - outcome.winner]
        # the measure decides unless it is equal (then a tie-break named in the reason)
        assert (better[0] <= better[1]) if lower_wins else (better[0] >= better[1]), outcome
    if outcome.termination is GameEnd.BOTH_PASSED:
        assert len(state.passes) == 2


def check_moves(game: Game, rng: random.Random) -> None:
    """Counted = listed, each move legal and canonical, push/pop restores, random_move legal."""
    before = game.position()
    state = game.state()
    count = game.count_legal_moves()
    listed = list(islice(game.legal_moves(), LIST_LIMIT + 1))
    if count <= LIST_LIMIT:
        assert len(listed) == count
        assert len({str(m) for m in listed}) == count, "a move is listed twice"
    else:
        assert len(listed) == LIST_LIMIT + 1
    if listed:  # paging: the moves from an index on are the list's tail, none past the end
        k = rng.randrange(len(listed))
        tail = listed[k:k + 3]
        assert list(islice(game.legal_moves_from(k), len(tail))) == tail
    assert next(game.legal_moves_from(count), None) is None
    if game.is_over():
        assert count == 0 and game.random_move(rng) is None
        return
    assert count >= 1
    if PASS in listed:
        assert listed == [PASS], "pass only when nothing else is legal"
    for move in rng.sample(listed, min(SAMPLE, len(listed))):
        assert game.check_move(move) == move
        assert game.parse_move(str(move)) == move
        game.push(move)
        after = game.position()
        assert game_from_position(after).position() == after
        assert game.pop() == move
        assert game.position() == before and game.state() == state
    drawn = game.random_move(rng)
    assert drawn is not None and game.check_move(drawn) == drawn


def check_copy_and_round_trip(game: Game) -> None:
    text = game.position()
    again = type(game).from_position(text)
    assert again.position() == text and again == game and again.state() == game.state()
    assert game_from_position(text).state() == game.state()
    twin = game.copy()
    assert twin == game and twin.state() == game.state()
    move = next(twin.legal_moves(), None)
    if move is not None:
        twin.push(move)
        assert game.position() == text, "copy() shares state with the original"


def run_conformance(name: str, playouts: int, max_plies: int, seed: int) -> int:
    """Random playouts of `name` checking every invariant at every ply; returns plies checked."""
    rng = random.Random(seed)
    cls = game_class(name)
    start = new_game(name)
    assert isinstance(start, cls) and start.name == name
    assert start.position() == registry.entry(name).start
    assert start.turn == DARK and start.passes == () and not start.is_over()
    plies = 0
    for _ in range(playouts):
        game = cls.start()
        line = []
        while True:
            check_state(game)
            check_copy_and_round_trip(game)
            check_moves(game, rng)
            plies += 1
            if game.is_over() or len(line) >= max_plies:
                break
            move = game.random_move(rng)
            assert move is not None
            line.append(game.play(move))
        # unwinding the whole line restores the start
        for move in reversed(line):
            assert game.pop() == move
        assert game.position() == start.position()
    return plies


@pytest.mark.parametrize("name", registry.names())
def test_every_registered_game_conforms(name):
    plies = run_conformance(name, playouts=4, max_plies=200, seed=7)
    assert plies >= 3


@pytest.mark.parametrize("name", registry.names())
def test_unknown_names_and_tags_are_refused_with_the_list_of_games(name):
    with pytest.raises(ValueError, match=name):
        game_class("chess")
    assert game_class(name.upper()) is registry.entry(name).game_class()


def test_outcome_is_the_result_type():
    from protocol import Result

    game = game_from_position("hari -/- -/- d dl")
    outcome = game.result()
    assert isinstance(outcome, Outcome) and Result is Outcome
    assert outcome.termination is GameEnd.BOTH_PASSED and outcome.text == "1/2-1/2"
    assert game.state().outcome == outcome and f"{COLOR_NAME[DARK]}" not in outcome.reason


def test_games_are_not_hashable():
    with pytest.raises(TypeError):
        hash(new_game("isaac"))


def test_state_reads_isaac_counters_and_phase():
    text = ("isaac c0c4,g0j0,d1d4,h1j1,h3j3,h4h6,b5b9,c5g5,a6a8,c6c9/a0a5,b0b2,e0e4,g1g3,h2j2,i4i6,j4j7,"
            "d6g6,e8g8,d9h9 667/4467 l - score 6/7")
    state = game_from_position(text).state()
    assert state.phase == Phase.SCORE == "score" and state.turn == LIGHT
    assert state.counters == (6, 92) and state.scores == (6, 7)
    assert state.hands == ((6, 6, 7), (4, 4, 6, 7)) and state.passes == ()
    assert [p.name for p in state.pieces[:2]] == ["c0c4", "g0j0"] and state.pieces[10].color == LIGHT
    assert new_game("isaac").state().counters == (None, None)
    assert new_game("hari").state().counters is None and new_game("hari").state().phase == Phase.PLAY


def test_state_reads_foundations_levels_and_measure():
    state = game_from_position(
        "foundations e1g1,c6c8,d6d8/b0h0,f4f7,f0f4^2 334444555667/333334445566 d -").state()
    assert [(p.name, p.level) for p in state.pieces if p.color == LIGHT] == [
        ("b0h0", 1), ("f4f7", 1), ("f0f4^2", 2)]
    assert state.scores == (33, 25)  # value left in hand: lower is better
