"""The engine's parts of each game (engine/games/parts.py), reached through the one registry
(engine/games/__init__.py): what each package declares loads, answers for its own game only, and costs
nothing until a strategy asks for it."""

from __future__ import annotations

import random
import subprocess
import sys
import threading

import pytest

from engine import games
from engine.games.parts import GameParts, Sparring
from protocol import new_game, registry
from tests.support.paths import REPO


def test_every_registered_game_has_a_package_and_every_package_a_registered_game():
    assert set(games.PACKAGES) == set(registry.names())


@pytest.mark.parametrize("name", sorted(games.PACKAGES))
def test_each_package_declares_every_part_and_each_loads(name):
    parts = games.parts_for(name)
    assert isinstance(parts, GameParts)
    assert games.searcher_for(name).defaults is not None
    game = new_game(name)
    ranked = games.ranking_for(name)(game.copy(), random.Random(1), None)
    assert ranked and all(game.is_legal(move) for _, move in ranked)
    sparring = games.sparring_for(name)
    assert isinstance(sparring, Sparring) and sparring != Sparring()  # its own rules, not the measure's
    move, examined = sparring.greedy(game.copy(), threading.Event(), random.Random(1))
    assert game.is_legal(move) and examined >= 1
    assert game.is_legal(sparring.playout_policy(game.copy(), random.Random(1)))
    assert 0.0 <= sparring.playout_value(game, 0) <= 1.0
    core = games.playout_core_for(name)
    assert core is not None, "the C cores are built for the tests (.ci/run installs them)"
    candidates = core.candidates(game, core.defaults)
    assert candidates and all(game.is_legal(move) for move in candidates)


@pytest.mark.parametrize("name", sorted(games.PACKAGES))
def test_a_part_given_another_game_says_which_it_works_on(name):
    other = new_game(next(n for n in games.PACKAGES if n != name))
    with pytest.raises(TypeError, match=r"works on \w+Game, not \w+Game"):
        games.ranking_for(name)(other, random.Random(1), None)
    with pytest.raises(TypeError, match="works on"):
        games.sparring_for(name).playout_value(other, 0)


def test_a_game_without_a_package_is_played_by_its_measure(monkeypatch):
    monkeypatch.delitem(games.PACKAGES, "hari")
    assert games.parts_for("hari") is games.GENERIC
    assert not games.has_searcher("hari") and games.playout_core_for("hari") is None
    assert games.sparring_for("hari") == Sparring()
    with pytest.raises(ValueError, match=r"no searcher for game 'hari' \(games with one: isaac, foundations\)"):
        games.searcher_for("hari")
    game = new_game("hari")
    ranked = games.ranking_for("hari")(game, random.Random(2), None)
    assert len(ranked) == game.count_legal_moves()


def test_a_package_must_declare_game_parts(monkeypatch):
    monkeypatch.setitem(games.PACKAGES, "hari", "engine.games.generic")  # a module without PARTS
    with pytest.raises(TypeError, match="engine.games.generic: PARTS must be a GameParts"):
        games.parts_for("hari")


def test_declaring_the_parts_imports_none_of_them():
    """The engine starts light: a game's package only declares loaders (its searcher, tables and C
    cores are imported when a strategy first asks)."""
    code = ("import sys, engine.uci, engine.games.isaac, engine.games.foundations, engine.games.hari; "
            "print(sorted(m for m in sys.modules if m.startswith('engine.games.') and m.count('.') > 2))")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
