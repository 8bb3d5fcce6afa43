"""A fourth game is one module and one registry entry: a toy game, defined here, passes the
same conformance test as ISAAC, FOUNDATIONS and HARI and is read by the shared notation,
position parser and ``protocol`` front door without any of them being edited.

TOY: each player starts with a piece of length 3 and one of length 4 in hand. On its turn a
player places any piece from hand on empty cells; a player with nothing that fits passes
and is finished; when both have passed the game ends and more cells covered wins.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator

import pytest

import protocol
from protocol import registry
from protocol.board import ALL_CELLS, COLOR_NAME, DARK, LENGTHS, LIGHT, Segment, iter_placements
from protocol.errors import GameOverError, IllegalMoveError, PositionError
from protocol.game import Game
from protocol.moves import PASS, Move, Pass, Place
from protocol.notation import parse_move
from protocol.position import PieceEntry, PositionRecord, check_passes, check_turn_order, format_position
from protocol.state import GameEnd, Outcome, Piece
from tests.protocol.test_game_api import run_conformance

START_HAND = (0, 0, 0, 1, 1, 0, 0, 0)


class ToyGame(Game):
    name = "toy"

    def __init__(self) -> None:
        self._pieces: tuple[list[Segment], list[Segment]] = ([], [])
        self._hands = [list(START_HAND), list(START_HAND)]
        self._turn = DARK
        self._passes: tuple[int, ...] = ()
        self._stack: list[tuple[Move, int, tuple[int, ...]]] = []

    @classmethod
    def from_position(cls, text: str) -> ToyGame:
        rec, _ = cls.parse_position(text)
        game = cls()
        for color in (DARK, LIGHT):
            game._pieces[color].extend(e.segment for e in rec.pieces[color])
            game._hands[color] = list(rec.hands[color])
            for n in LENGTHS:
                on_board = sum(1 for s in game._pieces[color] if s.length == n)
                if on_board + game._hands[color][n] != START_HAND[n]:
                    raise rec.error("hands", f"{COLOR_NAME[color]} must hold one 3 and one 4 in all")
        game._turn, game._passes = rec.turn, rec.passes
        check_passes(rec, game.is_over())
        check_turn_order(rec, (len(game._pieces[DARK]), len(game._pieces[LIGHT])), "placed", "pieces")
        return game

    def position(self) -> str:
        return format_position(PositionRecord(
            game=self.name, pieces=([PieceEntry(s) for s in self._pieces[DARK]],
                                    [PieceEntry(s) for s in self._pieces[LIGHT]]),
            hands=(self._hands[DARK], self._hands[LIGHT]), turn=self._turn, passes=self._passes))

    def copy(self) -> ToyGame:
        return ToyGame.from_position(self.position())

    @property
    def turn(self) -> int:
        return self._turn

    @property
    def passes(self) -> tuple[int, ...]:
        return self._passes

    @property
    def scores(self) -> tuple[int, int]:
        dark, light = (sum(s.length for s in self._pieces[c]) for c in (DARK, LIGHT))
        return dark, light

    def hand(self, color: int) -> tuple[int, ...]:
        return tuple(self._hands[color])

    def board(self) -> Iterator[Piece]:
        return (Piece(c, s) for c in (DARK, LIGHT) for s in self._pieces[c])

    def is_over(self) -> bool:
        return len(self._passes) == 2

    def result(self) -> Outcome | None:
        if not self.is_over():
            return None
        scores = self.scores
        if scores[0] == scores[1]:
            return Outcome(None, GameEnd.BOTH_PASSED, scores, "equal cells covered")
        winner = DARK if scores[0] > scores[1] else LIGHT
        return Outcome(winner, GameEnd.BOTH_PASSED, scores, f"{COLOR_NAME[winner]} covers more cells")

    def legal_moves(self) -> Iterator[Move]:
        if self.is_over():
            return
        empty = ALL_CELLS
        for side in self._pieces:
            for seg in side:
                empty &= ~seg.mask
        found = False
        for n in LENGTHS:
            if self._hands[self._turn][n]:
                for seg in iter_placements(empty, n):
                    found = True
                    yield Place(seg)
        if not found:
            yield PASS

    def parse_move(self, text: str) -> Move:
        return self.check_move(parse_move(self.name, text))

    def check_move(self, move: Move) -> Move:
        if self.is_over():
            raise GameOverError(str(move))
        if move not in set(self.legal_moves()):
            raise IllegalMoveError(str(move), "not a legal TOY move")
        return move

    def push(self, move: Move) -> None:
        self._stack.append((move, self._turn, self._passes))
        mover = self._turn
        if isinstance(move, Pass):
            self._passes += (mover,)
        elif isinstance(move, Place):
            self._pieces[mover].append(move.segment)
            self._hands[mover][move.segment.length] -= 1
        if (1 - mover) not in self._passes:
            self._turn = 1 - mover
        elif mover in self._passes:  # both passed: the first passer would move
            self._turn = self._passes[0]

    def pop(self) -> Move:
        move, mover, passes = self._stack.pop()
        if isinstance(move, Place):
            self._pieces[mover].remove(move.segment)
            self._hands[mover][move.segment.length] += 1
        self._turn, self._passes = mover, passes
        return move


@pytest.fixture
def toy() -> Iterator[registry.GameEntry]:
    entry = registry.register(registry.GameEntry(
        name="toy", title="TOY", module=__name__, class_name="ToyGame",
        move_syntax=registry.MoveSyntax.PLACE_REMOVE, move_help="c3c5 or pass",
        start="toy -/- 34/34 d -"))
    yield entry
    registry.unregister("toy")


def test_a_toy_game_registered_in_one_entry_passes_the_conformance_test(toy):
    assert run_conformance("toy", playouts=5, max_plies=10, seed=3) >= 5 * 5


def test_the_shared_front_door_and_notation_know_the_toy_game(toy):
    assert "toy" in protocol.GAME_NAMES and protocol.game_class("TOY") is ToyGame
    game = protocol.game_from_position("toy a0c0/- 4/34 l -")
    assert isinstance(game, ToyGame) and game.turn == LIGHT
    assert str(game.play("j6j9")) == "j6j9"
    with pytest.raises(PositionError, match="levels exist only in FOUNDATIONS, not TOY"):
        protocol.game_from_position("toy a0c0^2/- 4/34 l -")
    with pytest.raises(PositionError, match="Light's turn"):
        protocol.game_from_position("toy a0c0/- 4/34 d -")
    with pytest.raises(PositionError, match=r"expected game \(isaac, foundations, hari, toy\)"):
        protocol.game_from_position("chess -/- 34/34 d -")
    with pytest.raises(IllegalMoveError, match="TOY move|not a legal"):
        game.parse_move("a0c0")


def test_without_its_entry_the_toy_game_is_unknown():
    assert "toy" not in protocol.GAME_NAMES
    with pytest.raises(PositionError, match="expected game"):
        protocol.game_from_position("toy -/- 34/34 d -")



def test_greedy_plays_a_game_it_has_no_rule_for_by_the_game_s_measure(toy):
    from engine.strategies.base import Limits
    from engine.strategies.greedy import GreedyStrategy

    game = ToyGame.start()
    move = GreedyStrategy().choose(game, Limits(), threading.Event(), lambda info: None, random.Random(1))
    assert isinstance(move, Place) and move.segment.length == 4  # covers the most cells
    assert game.position() == toy.start


def test_step_entry_works_for_a_game_that_declares_no_steps(toy):
    """No step_joiner/step_expander: every legal move is one completing step (SPEC 9.11)."""
    from protocol.steps import StepError, complete_move, next_steps

    game = protocol.game_from_position("toy a0c0/- 4/34 l -")
    answer = next_steps(game, [])
    assert answer.prefix == "" and all(o.completes for o in answer.options)
    assert [o.word for o in answer.options] == [str(m) for m in game.legal_moves()]
    assert complete_move("toy", "", "j6j9") == "j6j9"
    chosen = next_steps(game, ["j9j6"])  # either end first: the answer is the canonical move
    assert chosen.line() == "steps j6j9" and chosen.move == Place(game.parse_move("j6j9").segment)
    with pytest.raises(StepError, match="step 2 'a5a7': the move is already complete"):
        next_steps(game, ["j6j9", "a5a7"])
    with pytest.raises(StepError, match="step 1 'a0c0': illegal"):
        next_steps(game, ["a0c0"])
    game.play("j6j9")
    game.play("a5d5")
    game.play("j0j2")
    assert next_steps(game, []).line() == "steps - pass*"  # Dark has nothing left to place


def test_a_registry_entry_declares_its_step_joiner_and_expander_together():
    fields = dict(name="toy", title="TOY", module=__name__, class_name="ToyGame",
                  move_syntax=registry.MoveSyntax.PLACE_REMOVE, move_help="c3c5 or pass", start="toy -/- 34/34 d -")
    with pytest.raises(ValueError, match="step_joiner and step_expander go together"):
        registry.register(registry.GameEntry(**fields, step_joiner=","))
    with pytest.raises(ValueError, match="step_expander is 'module:function'"):
        registry.register(registry.GameEntry(**fields, step_joiner=",", step_expander="protocol.steps"))
    assert "toy" not in registry.names()


@pytest.mark.parametrize("strategy", ["heuristic", "flatmc"])
def test_heuristic_and_flatmc_play_a_game_they_have_no_rule_for_legally_to_the_end(toy, strategy):
    from engine.strategies import make_strategy
    from engine.strategies.base import Limits

    player = make_strategy(strategy)
    game = ToyGame.start()
    rng = random.Random(5)
    plies = 0
    while not game.is_over():
        before = game.position()
        move = player.choose(game.copy(), Limits(nodes=200), threading.Event(), lambda info: None, rng)
        assert game.position() == before
        assert move in list(game.legal_moves()), f"{strategy} chose {move} in {before}"
        game.push(move)
        plies += 1
        assert plies < 20
    assert game.result() is not None and sum(game.hand(DARK)) + sum(game.hand(LIGHT)) < 4


def test_heuristic_prefers_the_move_that_leaves_the_better_measure_in_a_game_it_has_no_rule_for(toy):
    from engine.strategies.heuristic import ranked_moves

    ranked = ranked_moves(ToyGame.start(), random.Random(2))
    assert ranked[0][1].segment.length == 4  # covers the most cells
    assert {m.segment.length for _, m in ranked} == {3, 4} and len(ranked) == len(list(ToyGame.start().legal_moves()))
