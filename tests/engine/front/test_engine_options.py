"""The engine's options read back with their spec's type (what the session seeds and limits with)."""

from __future__ import annotations

import pytest

from engine.options import Options
from engine.session import Session
from protocol.messages import parse_go, parse_setoption


def set_option(options: Options, line: str) -> None:
    options.set(line, parse_setoption(line))


def test_spin_and_combo_options_read_back_typed_after_setoption():
    options = Options()
    set_option(options, "setoption name seed value 42")
    set_option(options, "setoption name UCI_Variant value hari")
    set_option(options, "setoption name MoveOverhead value 7")
    assert options.number("Seed") == 42 and options.text("UCI_Variant") == "hari"
    session = Session(options)
    assert session.variant == "hari" and session.game.name == "hari"
    assert session.rng.random() == Session(options).rng.random()  # seeded from Seed
    assert session.play_options().move_overhead == 7
    assert session.limits(parse_go("go movetime 100")).movetime == 100


def test_asking_an_option_as_the_wrong_type_is_a_programming_error():
    options = Options()
    with pytest.raises(AssertionError, match="Seed is not a text option"):
        options.text("Seed")
    with pytest.raises(AssertionError, match="Strategy is not a spin option"):
        options.number("Strategy")
