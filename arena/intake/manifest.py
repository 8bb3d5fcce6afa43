"""A bot's manifest, `arena.toml` at the top of its archive: its name, how to run it, how to build it.

    name = "mybot"                    # the bot's name on the ladder (a new archive with the same
                                      # name is that bot's next version)
    command = "python3 bot.py"        # run in the bot's directory; a string or a list of words
    build = "make"                    # optional: run once, in the sandbox, before the check

`python3` or `python` as the command's first word is the Python the arena itself runs on (the one
the sandbox shows). Unknown keys are refused (a typo must not be silently ignored).
"""

from __future__ import annotations

import shlex
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

from ..db.authors import AuthorError, check_name

MANIFEST = "arena.toml"
MAX_MANIFEST_BYTES = 16 * 1024
MAX_COMMAND_CHARS = 1000
KEYS = ("name", "command", "build", "description")


class ManifestError(Exception):
    """The manifest is missing or wrong; the message says what to write."""


@dataclass(frozen=True)
class Manifest:
    name: str
    command: list[str]
    build: str | None = None
    description: str = ""

    def argv(self) -> list[str]:
        """The command to run, with `python3`/`python` as the arena's own Python."""
        if self.command[0] in ("python", "python3"):
            return [sys.executable, *self.command[1:]]
        return list(self.command)


def _words(value: object, key: str) -> list[str]:
    if isinstance(value, str):
        if len(value) > MAX_COMMAND_CHARS:
            raise ManifestError(f"{MANIFEST}: {key} is longer than {MAX_COMMAND_CHARS} characters")
        try:
            words = shlex.split(value)
        except ValueError as exc:
            raise ManifestError(f"{MANIFEST}: {key} = {value[:80]!r} cannot be split into words ({exc})") from None
    elif isinstance(value, list) and all(isinstance(w, str) for w in value):
        words = list(value)
        if sum(len(w) for w in words) > MAX_COMMAND_CHARS:
            raise ManifestError(f"{MANIFEST}: {key} is longer than {MAX_COMMAND_CHARS} characters")
    else:
        raise ManifestError(f"{MANIFEST}: {key} must be a string such as \"python3 bot.py\" or a list of strings")
    if not words or not words[0]:
        raise ManifestError(f"{MANIFEST}: {key} is empty")
    if any("\x00" in w for w in words):
        raise ManifestError(f"{MANIFEST}: {key} holds a NUL character")
    return words


def parse_manifest(text: str) -> Manifest:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ManifestError(f"{MANIFEST} is not valid TOML: {exc}") from None
    unknown = sorted(set(data) - set(KEYS))
    if unknown:
        raise ManifestError(f"{MANIFEST}: unknown key(s) {', '.join(unknown)} (known: {', '.join(KEYS)})")
    if "name" not in data:
        raise ManifestError(f'{MANIFEST}: name is missing (name = "mybot")')
    if "command" not in data:
        raise ManifestError(f'{MANIFEST}: command is missing (command = "python3 bot.py")')
    name = data["name"]
    if not isinstance(name, str):
        raise ManifestError(f"{MANIFEST}: name must be a string")
    try:
        check_name(name, "bot name")
    except AuthorError as exc:
        raise ManifestError(f"{MANIFEST}: {exc}") from None
    build = data.get("build")
    if build is not None:
        if not isinstance(build, str) or not build.strip():
            raise ManifestError(f"{MANIFEST}: build must be a non-empty string (a shell command such as \"make\")")
        if len(build) > MAX_COMMAND_CHARS or "\x00" in build:
            raise ManifestError(f"{MANIFEST}: build is longer than {MAX_COMMAND_CHARS} characters or holds NUL")
    description = data.get("description", "")
    if not isinstance(description, str) or len(description) > 500:
        raise ManifestError(f"{MANIFEST}: description must be a string of at most 500 characters")
    return Manifest(name=name, command=_words(data["command"], "command"), build=build, description=description)


def read_manifest(root: Path) -> Manifest:
    """The manifest at the top of an unpacked archive."""
    path = root / MANIFEST
    if path.is_symlink() or not path.is_file():
        raise ManifestError(f"no {MANIFEST} at the top of the archive (it names the bot and its command; "
                            f"see docs/arena.md)")
    if path.stat().st_size > MAX_MANIFEST_BYTES:
        raise ManifestError(f"{MANIFEST} is larger than {MAX_MANIFEST_BYTES} bytes")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ManifestError(f"{MANIFEST} is not UTF-8 text") from None
    return parse_manifest(text)
