"""The C starter, built once per test session into a temporary directory."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.examples.starters import build_c_starter


@pytest.fixture(scope="session")
def c_starter(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The compiled examples/c starter (CI installs gcc: there a missing gcc is a failure)."""
    if shutil.which("gcc") is None and not os.environ.get("CI"):
        pytest.skip("gcc is not installed here (apt-get install gcc)")
    return build_c_starter(tmp_path_factory.mktemp("c-starter"))
