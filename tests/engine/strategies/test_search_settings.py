"""Search settings as text (engine/games/tuning.py) and the SearchSettings option: tuning and SPRTs ask
for a variant of the search through the protocol, with no module patched."""

from __future__ import annotations

import random
import threading

import pytest

from engine.games.hari.settings import HariSettings
from engine.games.tuning import parse_changes
from engine.strategies import Limits
from engine.strategies.search_strategy import SearchStrategy
from protocol import game_from_position
from tests.support.engine_client import EngineClient

MIDGAME = "hari a0c0,g0i0,a1c1,g1i1,a2a5,a7a9/d0f0,j0j2,d1f1,b2b5,c2c4,b7b9 444555667/444555667 d -"


def test_changes_make_a_variant_of_the_defaults_and_keep_the_rest():
    variant = parse_changes("hari.scarce=12, hari.widths=((24,12),), foundations.mcts.c_puct=1.0")
    hari = variant["hari"]
    assert isinstance(hari, HariSettings)
    assert (hari.scarce, hari.widths, hari.slide_max) == (12, ((24, 12),), HariSettings().slide_max)
    assert variant["foundations"].mcts.c_puct == 1.0 and variant["foundations"].mcts.fpu_reduction == 0.0
    assert parse_changes("") == {}


@pytest.mark.parametrize("text, says", [
    ("hari.scarce=1.5", "scarce is an int, not a float"),
    ("hari.nope=1", "no field 'nope' in HariSettings"),
    ("chess.depth=3", "no searcher for game 'chess'"),
    ("hari.scarce", "expected <game>.<field>=<value>"),
    ("hari.widths=((40,2),)", "each 1 to 32"),
    ("isaac.point_scale=x", "'x' is not a number or a tuple"),
])
def test_bad_changes_are_named(text, says):
    with pytest.raises(ValueError) as refused:
        parse_changes(text)
    assert says in str(refused.value) and text.split("=")[0] in str(refused.value)


def test_a_variant_plays_with_its_settings():
    game = game_from_position(MIDGAME)
    answers = []
    for strategy in (SearchStrategy(), SearchStrategy(parse_changes("hari.widths=((1,1),)"))):
        infos: list = []
        strategy.choose(game.copy(), Limits(nodes=3000), threading.Event(), infos.append, random.Random(1))
        answers.append((infos[-1].pv, infos[-1].nodes))
    assert answers[0] != answers[1]  # one placement a length is another search


def test_the_option_sets_a_variant_and_refuses_a_bad_one():
    with EngineClient() as engine:
        engine.send("uci")
        lines = engine.read_until_prefix("uciok")
        assert "option name SearchSettings type string default <empty>" in lines
        engine.send("setoption name SearchSettings value hari.scarce=1.5", "isready")
        lines = engine.read_until_prefix("readyok")
        assert any("SearchSettings: 'hari.scarce=1.5': scarce is an int, not a float" in line for line in lines)
        engine.send("setoption name UCI_Variant value hari", "setoption name SearchSettings value hari.widths=((1,1),)",
                    "position startpos", "go nodes 500", "isready")
        lines = engine.read_until_prefix("bestmove")
        assert not any("error" in line for line in lines)
