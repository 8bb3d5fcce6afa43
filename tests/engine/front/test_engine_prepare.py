"""One-off set-up happens on uci/isready/ucinewgame, never inside a timed `go` (issue 9)."""

from __future__ import annotations

import io

from engine.output import Output
from engine.uci import Engine


def _engine() -> tuple[Engine, io.BytesIO]:
    buffer = io.BytesIO()
    return Engine(Output(buffer)), buffer


def test_isready_warms_up_the_search_for_the_variant():
    engine, buffer = _engine()
    engine.handle("uci")
    engine.handle("setoption name UCI_Variant value hari")
    assert engine.session.strategy is None or "hari" not in getattr(engine.session.strategy, "_prepared", ())
    engine.handle("isready")
    assert "hari" in engine.session.strategy._prepared
    assert buffer.getvalue().decode().splitlines()[-1] == "readyok"


def test_warm_up_leaves_the_session_generator_untouched():
    engine, _ = _engine()
    expected = engine.session.rng.random()
    engine, _ = _engine()
    engine.handle("ucinewgame")
    assert engine.session.rng.random() == expected
