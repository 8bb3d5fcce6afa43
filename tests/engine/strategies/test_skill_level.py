"""`Skill Level` (SPEC 9.3): announced as UCI does, full strength at 20, and below it a search cut to
its node budget or a move drawn from the best root candidates, reproducible from the Seed."""

from __future__ import annotations

import random
import threading

import pytest

from engine.strategies import skill
from engine.strategies.base import Limits, PlayOptions
from engine.strategies.heuristic import ranked_moves
from engine.strategies.search_strategy import SearchStrategy
from protocol import new_game
from protocol.game import Game
from protocol.messages import Info
from tests.support.inprocess_engine import InProcessEngine


def _positions(game_name: str, plies: int, seed: int) -> list[Game]:
    """Positions of one game played with random moves."""
    game, rng, out = new_game(game_name), random.Random(seed), []
    for _ in range(plies):
        if game.is_over():
            break
        out.append(game.copy())
        game.push(game.random_move(rng))
    return out


def _choose(game: Game, level: int, nodes: int, seed: int = 1) -> tuple[str, list[Info]]:
    infos: list[Info] = []
    move = SearchStrategy().choose(game.copy(), Limits(nodes=nodes), threading.Event(), infos.append,
                                   random.Random(seed), PlayOptions(skill=level, own_book=False))
    return str(move), infos


def test_the_option_is_announced_and_reaches_the_search():
    engine = InProcessEngine()
    engine.send("uci")
    _, line = engine.wait_for(lambda text: "Skill Level" in text)
    assert line == "option name Skill Level type spin default 20 min 0 max 20"
    engine.send("setoption name Skill Level value 7")
    assert engine.engine.session.play_options().skill == 7
    engine.send("setoption name skill level value 21")
    _, error = engine.wait_for(lambda text: text.startswith("info string error"))
    assert "Skill Level" in error or "at most 20" in error


def test_the_tables_fall_with_the_level():
    assert skill.node_budget(0) == 2000 and skill.node_budget(10) == 64000
    assert [skill.weaker_chance(k) for k in (0, 7, 14, 19)] == pytest.approx([0.7, 0.35, 0.0, 0.0])
    assert [skill.candidate_count(k) for k in (0, 6, 13, 19)] == [6, 4, 2, 2]
    assert all(skill.node_budget(k) < skill.node_budget(k + 1) for k in range(19))


@pytest.mark.parametrize("game_name", ["hari", "foundations", "isaac"])
def test_full_strength_is_the_search_itself(game_name):
    for game in _positions(game_name, 12, 3)[4::4]:
        limits = Limits(nodes=1500)
        infos: list[Info] = []
        plain = SearchStrategy().choose(game.copy(), limits, threading.Event(), infos.append, random.Random(1))
        move, skilled = _choose(game, 20, 1500)
        assert move == str(plain)
        assert [i.nodes for i in skilled] == [i.nodes for i in infos]


@pytest.mark.parametrize("game_name", ["hari", "foundations", "isaac"])
def test_a_low_level_searches_less_or_draws_from_the_best_candidates_and_is_reproducible(game_name):
    drawn = searched = 0
    for seed, game in enumerate(_positions(game_name, 30, 5)[1::2]):
        move, infos = _choose(game, 0, 10**9, seed)
        again, repeated = _choose(game, 0, 10**9, seed)
        assert (again, [i.nodes for i in repeated]) == (move, [i.nodes for i in infos])   # the same Seed
        assert str(game.copy().check_move(game.parse_move(move))) == move   # legal
        last = infos[-1]
        if last.string and last.string.startswith("skill 0: drawn"):
            drawn += 1
            rng = random.Random(seed)
            rng.random()                  # the draw that chose to draw a move
            best = [str(m) for _, m in ranked_moves(game.copy(), rng)[:skill.candidate_count(0)]]
            assert move in best
        else:
            searched += 1
            assert last.nodes is not None and last.nodes <= skill.node_budget(0) + 100   # one simulation over
    assert drawn and searched   # both ways happen (70% / 30% at level 0)
