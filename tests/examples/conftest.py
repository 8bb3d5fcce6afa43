"""The compiled starters, built once per test session into temporary directories, and each starter's
command. CI installs gcc, node and Debian's cargo and rustc: there a missing tool is a failure."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from tests.examples.starters import JS_STARTER, PYTHON_STARTER, build_c_starter, build_rust_starter


def _needs(tool: str, package: str) -> None:
    if shutil.which(tool) is None and not os.environ.get("CI"):
        pytest.skip(f"{tool} is not installed here (apt-get install {package})")


@pytest.fixture(scope="session")
def c_starter(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The compiled examples/c starter."""
    _needs("gcc", "gcc")
    return build_c_starter(tmp_path_factory.mktemp("c-starter"))


@pytest.fixture(scope="session")
def rust_starter(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The examples/rust starter, built by the cargo on PATH."""
    _needs("cargo", "cargo rustc")
    return build_rust_starter(tmp_path_factory.mktemp("rust-starter"))


def starter_command(language: str, request: pytest.FixtureRequest) -> list[str]:
    """The command that runs the starter in `language` (python, c, js or rust)."""
    if language == "python":
        return [sys.executable, str(PYTHON_STARTER)]
    if language == "js":
        _needs("node", "nodejs")
        return ["node", str(JS_STARTER)]
    return [str(request.getfixturevalue(f"{language}_starter"))]


@pytest.fixture(params=["python", "c", "js", "rust"])
def any_starter(request: pytest.FixtureRequest) -> list[str]:
    """Each of the four starters in turn."""
    return starter_command(request.param, request)


@pytest.fixture(params=["js", "rust"])
def own_rules_starter(request: pytest.FixtureRequest) -> list[str]:
    """The starters whose rules were written from SPEC.md alone and that list every move (HARI slides
    included): JavaScript and Rust."""
    return starter_command(request.param, request)
