"""A fourth game plays through the engine with no engine file edited: tests/protocol/test_toy_game.py's
TOY, registered with protocol/ in one entry, is a UCI_Variant, and every strategy plays it legally to its
end through the protocol (by the game's measure; `search` and `fastmc` say that they fall back). One more
line, engine.games' registry entry, gives it engine parts of its own: here a ranking that `heuristic`
then plays, and the other parts still by the measure."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator

import pytest

from engine import games
from engine.games.parts import GameParts, Ranked, Ranking, narrowed
from engine.strategies import STRATEGY_NAMES
from protocol import registry
from protocol.game import Game
from protocol.moves import Place
from tests.protocol.test_toy_game import ToyGame
from tests.support.inprocess_engine import InProcessEngine

MAX_PLIES = 12
"""TOY ends within four placements and two passes; more plies would be a loop."""


def shortest_first(game: Game, rng: random.Random, stop: threading.Event | None) -> Ranked:
    """TOY's own ranking: the shortest piece first (the measure would play the longest)."""
    toy = narrowed(game, ToyGame, "TOY's ranking")
    return [(-float(m.segment.length) + 0.001 * rng.random(), m) for m in toy.legal_moves() if isinstance(m, Place)]


def _ranking() -> Ranking:
    return shortest_first


PARTS = GameParts(ranking=_ranking)
"""TOY's engine parts, as a game's package declares them (engine/games/<game>/__init__.py)."""


@pytest.fixture
def toy() -> Iterator[registry.GameEntry]:
    entry = registry.register(registry.GameEntry(
        name="toy", title="TOY", module="tests.protocol.test_toy_game", class_name="ToyGame",
        move_syntax=registry.MoveSyntax.PLACE_REMOVE, move_help="c3c5 or pass", start="toy -/- 34/34 d -"))
    yield entry
    registry.unregister("toy")


@pytest.fixture
def engine(toy: registry.GameEntry) -> Iterator[InProcessEngine]:
    player = InProcessEngine()  # made after the registration: its UCI_Variant lists TOY
    yield player
    player.close()


def _play_a_game(engine: InProcessEngine, strategy: str) -> tuple[list[str], list[str]]:
    """(the moves, the info strings) of one game of TOY the engine plays against itself with `strategy`."""
    engine.send(f"setoption name Strategy value {strategy}")
    engine.send("ucinewgame")
    game, moves, notes = ToyGame.start(), [], []
    while not game.is_over():
        assert len(moves) < MAX_PLIES
        engine.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        engine.send("go nodes 200")
        lines = engine.drain()  # once the search has answered
        notes += [text for text in lines if text.startswith("info string")]
        move = next(text for text in lines if text.startswith("bestmove")).split()[1]
        game.play(move)  # raises if the engine's move is not a legal TOY move
        moves.append(move)
    return moves, notes


def test_the_toy_game_is_a_variant_of_the_engine(engine):
    engine.send("uci")
    _, line = engine.wait_for(lambda text: text.startswith("option name UCI_Variant"))
    assert line.endswith("var isaac var foundations var hari var toy")
    engine.send("setoption name UCI_Variant value toy")
    engine.send("position startpos moves a0c0")
    engine.send("d")
    assert any("toy" in text.lower() for text in engine.drain())


@pytest.mark.parametrize("strategy", STRATEGY_NAMES)
def test_every_strategy_plays_the_toy_game_to_its_end_through_the_protocol(engine, strategy):
    engine.send("setoption name UCI_Variant value toy")
    moves, notes = _play_a_game(engine, strategy)
    assert len(moves) >= 4 and moves[-2:] == ["pass", "pass"]
    assert not any("error" in note for note in notes), notes
    if strategy == "search":
        assert any("no searcher for toy; playing heuristic" in note for note in notes)
    if strategy == "fastmc":
        assert any("no C playout core for toy" in note for note in notes)


def test_greedy_and_heuristic_play_the_toy_game_by_its_measure(engine):
    engine.send("setoption name UCI_Variant value toy")
    for strategy in ("greedy", "heuristic"):
        moves, _ = _play_a_game(engine, strategy)
        assert ToyGame.start().parse_move(moves[0]).segment.length == 4  # the most cells covered


def test_one_registry_line_gives_the_toy_game_engine_parts_of_its_own(engine, monkeypatch):
    games.register("toy", __name__)
    try:
        engine.send("setoption name UCI_Variant value toy")
        moves, _ = _play_a_game(engine, "heuristic")
        assert ToyGame.start().parse_move(moves[0]).segment.length == 3  # its own ranking: the shortest
        greedy_moves, _ = _play_a_game(engine, "greedy")  # no sparring part declared: still by the measure
        assert ToyGame.start().parse_move(greedy_moves[0]).segment.length == 4
    finally:
        games.unregister("toy")
    assert games.parts_for("toy") is games.GENERIC
