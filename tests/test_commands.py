"""The four commands greet a newcomer alike: --help says what the command is and exits 0; --version
(and -V) prints `<command> (isaac-arena) <version>`, the one version of the package."""

from __future__ import annotations

import subprocess
import sys

import pytest

from protocol import __version__

COMMANDS = {  # the console script and the module it runs (pyproject.toml [project.scripts])
    "isaac-engine": ["-m", "engine"],
    "isaac-referee": ["-m", "referee"],
    "isaac-gui": ["-m", "gui"],
    "isaac-arena": ["-m", "arena"],
    "isaac-svg": ["-c", "import sys; from referee.pictures import main; sys.exit(main())"],
}


def run(command: str, *args: str) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, *COMMANDS[command], *args]
    return subprocess.run(argv, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_help_says_what_the_command_is_and_exits_0(command):
    done = run(command, "--help")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage:"), done.stdout[:200]
    assert command in done.stdout
    assert "ISAAC" in done.stdout and "HARI" in done.stdout, done.stdout[:400]


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version_is_the_packages(command, flag):
    done = run(command, flag)
    assert (done.returncode, done.stdout) == (0, f"{command} (isaac-arena) {__version__}\n"), done.stderr
