"""Fixtures shared by the test modules."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from protocol import registry
from tests.support.paths import REPO


@pytest.fixture
def rng() -> random.Random:
    """A generator with a fixed seed, so a failure replays."""
    return random.Random(20240601)


@pytest.fixture(params=registry.names())
def game_name(request: pytest.FixtureRequest) -> str:
    """Each registered game's name in turn."""
    return str(request.param)


@pytest.fixture(autouse=True)
def engines_import_this_checkout(monkeypatch: pytest.MonkeyPatch) -> None:
    """Engines the referee starts in a test import this checkout's packages, wherever they run: the
    referee passes engines only PATH, HOME and LANG of its environment (referee/engines/environment.py),
    so the tests add the PYTHONPATH they set (an installed copy of the project could be another one).
    The tests of that environment override this fixture."""
    from referee.engines import environment
    monkeypatch.setattr(environment, "PASSED_ON", (*environment.PASSED_ON, "PYTHONPATH"))


@pytest.fixture
def engine_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working directory for engines; PYTHONPATH lets `python -m engine` run from it."""
    where = tmp_path / "engines"
    where.mkdir()
    monkeypatch.setenv("PYTHONPATH", str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return where
