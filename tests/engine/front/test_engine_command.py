"""`isaac-engine` greets a person at a terminal: --help says what it is and how to use it, --version."""

from __future__ import annotations

import subprocess
import sys

from protocol import __version__
from tests.support.paths import REPO


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", *args], cwd=REPO, capture_output=True, text=True,
                          timeout=30, stdin=subprocess.DEVNULL)


def test_help_says_what_it_is_and_exits_0():
    done = run("--help")
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.startswith("usage: isaac-engine")
    assert "ISAAC, FOUNDATIONS and HARI" in done.stdout and "bench" in done.stdout and "UCI_Variant" in done.stdout


def test_version_prints_the_package_version():
    done = run("--version")
    assert (done.returncode, done.stdout) == (0, f"isaac-engine (isaac-arena) {__version__}\n")


def test_an_unknown_argument_is_named_with_the_usage_and_exits_2():
    done = run("--frobnicate")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("isaac-engine: unexpected argument '--frobnicate'")
    assert "usage: isaac-engine" in done.stderr
