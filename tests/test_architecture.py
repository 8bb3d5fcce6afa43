"""docs/architecture.md names every module of the product (a newcomer finds each one there), and the
import contracts of pyproject.toml hold (no circle, no import up or sideways)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.support.paths import REPO

PACKAGES = ("protocol", "engine", "referee", "gui", "arena")


def _modules() -> list[Path]:
    found = []
    for package in PACKAGES:
        for path in sorted((REPO / package).rglob("*")):
            if path.suffix in (".py", ".c", ".h") and path.name != "__init__.py" and "__pycache__" not in path.parts:
                found.append(path.relative_to(REPO))
    return found


def _named(module: Path, text: str, lines: list[str]) -> bool:
    """The module's path is written out, or its folder's path and its file name share a line."""
    if module.as_posix() in text:
        return True
    folder = module.parent.as_posix() + "/"
    return any(folder in line and f"`{module.name}`" in line for line in lines)


def test_every_module_is_named_in_the_architecture_document():
    text = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    lines = text.splitlines()
    missing = [m.as_posix() for m in _modules() if not _named(m, text, lines)]
    assert not missing, f"docs/architecture.md does not name: {', '.join(missing)}"


def test_the_import_contracts_hold():
    """The layers, the games apart and no circle (pyproject.toml [tool.importlinter]), as .ci/run checks."""
    done = subprocess.run([sys.executable, "-c", "from importlinter.cli import lint_imports_command; "
                           "lint_imports_command()", "--no-cache"], cwd=REPO, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
