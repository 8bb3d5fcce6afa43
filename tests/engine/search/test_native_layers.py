"""The C follows the engine's layers as the Python does (import-linter cannot see #include): the
techniques in engine/search/native/ include nothing of the games, the board the games share
(engine/games/_board.h) includes only the techniques' common part, and each game's C includes its own
folder, the shared board and the techniques, never another game's."""

from __future__ import annotations

import re
from pathlib import Path

from engine import games
from tests.support.paths import REPO

NATIVE = REPO / "engine" / "search" / "native"
GAMES = REPO / "engine" / "games"
INCLUDE_DIRS = (NATIVE, GAMES)
"""setup.py's include_dirs, searched after the including file's own folder (as gcc does for "...")."""


def _includes(path: Path) -> list[Path]:
    """The files a C file includes with quotes, resolved as the compiler resolves them."""
    found = []
    for name in re.findall(r'^#include "([^"]+)"', path.read_text(), flags=re.MULTILINE):
        where = next((d / name for d in (path.parent, *INCLUDE_DIRS) if (d / name).exists()), None)
        assert where is not None, f"{path.relative_to(REPO)} includes {name}, which is nowhere"
        found.append(where)
    return found


def _c_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.suffix in (".c", ".h"))


def test_the_techniques_include_only_each_other():
    for path in _c_files(NATIVE):
        for used in _includes(path):
            assert used.parent == NATIVE, f"{path.name} includes {used.relative_to(REPO)}"


def test_the_shared_board_includes_only_the_techniques_common_part():
    assert _includes(GAMES / "_board.h") == [NATIVE / "_common.h"]


def test_each_game_s_c_stands_apart_from_the_others():
    shared = set(_c_files(GAMES)) | set(_c_files(NATIVE))
    for name in games.PACKAGES:
        own = GAMES / name
        files = _c_files(own)
        assert any(p.suffix == ".c" for p in files), f"{name} has no C core"
        for path in files:
            for used in _includes(path):
                assert used.parent == own or used in shared, f"{path.relative_to(REPO)} includes {used.relative_to(REPO)}"


def test_every_core_is_built_with_the_folders_it_includes_from():
    setup = (REPO / "setup.py").read_text()
    assert '"engine/search/native", "engine/games"' in setup
    for name in games.PACKAGES:
        for path in (GAMES / name).glob("_*.c"):
            assert f'core("{name}", "{path.stem}")' in setup, f"setup.py does not build {path.relative_to(REPO)}"
