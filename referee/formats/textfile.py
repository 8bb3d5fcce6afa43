"""Reading a text file someone handed over (a config, an engines file): one message for each way it
can fail, naming the file, so every reader says the same thing the same way."""

from __future__ import annotations

from pathlib import Path


class UnreadableFile(ValueError):
    """The file cannot be read as UTF-8 text; the message says where and why."""


def read_text_file(path: Path, where: str, expected: str = "a file") -> str:
    """The UTF-8 text of `path`; UnreadableFile (prefixed with `where`) if it is missing, a directory,
    not UTF-8 or unreadable. `expected` names what should have been there ("a TOML file")."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UnreadableFile(f"{where}: no such file") from None
    except IsADirectoryError:
        raise UnreadableFile(f"{where}: is a directory, expected {expected}") from None
    except UnicodeDecodeError as exc:
        raise UnreadableFile(f"{where}: not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise UnreadableFile(f"{where}: cannot be read ({exc.strerror})") from None
