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


@pytest.fixture
def engine_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working directory for engines; PYTHONPATH lets `python -m engine` run from it."""
    where = tmp_path / "engines"
    where.mkdir()
    monkeypatch.setenv("PYTHONPATH", str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return where
