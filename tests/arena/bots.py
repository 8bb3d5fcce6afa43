"""Bot archives for the arena's tests: a random player (tests/engines/bad/good_random.py with a copy of
protocol/ beside it, so it runs in the sandbox too), the Python and C starters from examples/, and
archives built entry by entry (the hostile ones)."""

from __future__ import annotations

import io
import tarfile
import zipfile
from collections.abc import Iterable
from pathlib import Path

from tests.support.paths import BAD_ENGINES, HOSTILE_ENGINES, REPO

EXAMPLES = REPO / "examples"


def protocol_files() -> dict[str, bytes]:
    out = {}
    for path in sorted((REPO / "protocol").rglob("*.py")):
        out[f"protocol/{path.relative_to(REPO / 'protocol').as_posix()}"] = path.read_bytes()
    return out


def manifest(name: str, command: str, build: str | None = None) -> bytes:
    text = f'name = "{name}"\ncommand = "{command}"\n'
    if build:
        text += f'build = "{build}"\n'
    return text.encode()


def random_bot(name: str) -> dict[str, bytes]:
    return {"arena.toml": manifest(name, "python3 good_random.py"),
            "good_random.py": (BAD_ENGINES / "good_random.py").read_bytes(), **protocol_files()}


def engine_bot(name: str, script: str, *args: str) -> dict[str, bytes]:
    """A bot from one of tests/engines/bad (a fault each), with good_random.py and protocol beside it."""
    command = " ".join(["python3", script, *args])
    return {**random_bot(name), "arena.toml": manifest(name, command), script: (BAD_ENGINES / script).read_bytes()}


def hostile_bot(name: str, mode: str, arg: str) -> dict[str, bytes]:
    return {**random_bot(name), "arena.toml": manifest(name, f"python3 hostile.py {mode} {arg}"),
            "hostile.py": (HOSTILE_ENGINES / "hostile.py").read_bytes()}


def python_starter(name: str = "pystarter") -> dict[str, bytes]:
    return {"arena.toml": manifest(name, "python3 starter.py"),
            "starter.py": (EXAMPLES / "python" / "starter.py").read_bytes(), **protocol_files()}


def c_starter(name: str = "cstarter") -> dict[str, bytes]:
    files = {p.name: p.read_bytes() for p in sorted((EXAMPLES / "c").iterdir()) if p.suffix in (".c", ".h")
             or p.name == "Makefile"}
    return {"arena.toml": manifest(name, "./starter", "make CC=gcc"), **files}


def tar_gz(files: dict[str, bytes], prefix: str = "") -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(prefix + name)
            info.size = len(data)
            info.mode = 0o644
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def zip_bytes(files: dict[str, bytes], prefix: str = "") -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(prefix + name, data)
    return buffer.getvalue()


def tar_with(members: Iterable[tarfile.TarInfo], files: dict[str, bytes] | None = None) -> bytes:
    """A tar.gz with raw members (links, devices...) and ordinary files."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for info in members:
            tar.addfile(info)
        for name, data in (files or {}).items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


CHATTY = b'''"""A random player that says on stderr what it was asked (the arena keeps each game's stderr)."""
import sys

from good_random import RandomEngine


class Chatty(RandomEngine):
    name = "chatty"

    def cmd_go(self, line, rest):
        sys.stderr.write(f"chatty thinks about: {line}\\n")
        sys.stderr.flush()
        super().cmd_go(line, rest)


if __name__ == "__main__":
    Chatty().run()
'''


def chatty_bot(name: str) -> dict[str, bytes]:
    return {**random_bot(name), "arena.toml": manifest(name, "python3 chatty.py"), "chatty.py": CHATTY}


HOSTILE = b'''"""A random player that, at its first go, tries what a sandbox must stop and says on stderr how each went:
the network, another bot's files, the arena's database, a write outside its directory, a process
left behind in a session of its own."""
import os
import socket
import subprocess
import sys

from good_random import RandomEngine

PORT, OTHER, DATABASE, OUTSIDE, TOKEN = sys.argv[1:6]


def attempt(what, act):
    try:
        return f"{what}: done {act()}"
    except OSError as exc:
        return f"{what}: blocked ({exc.__class__.__name__})"


def attacks():
    yield attempt("net", lambda: socket.create_connection(("127.0.0.1", int(PORT)), timeout=2).close())
    yield attempt("read other bot", lambda: open(OTHER, "rb").read(20))
    yield attempt("read database", lambda: open(DATABASE, "rb").read(20))
    yield attempt("write outside", lambda: open(OUTSIDE, "w").write("pwned"))
    yield attempt("write own directory", lambda: open("mine.txt", "w").write("pwned"))
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)", TOKEN], start_new_session=True,
                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    yield f"child {child.pid} left behind"


class Hostile(RandomEngine):
    name = "hostile"
    tried = False

    def cmd_go(self, line, rest):
        if not self.tried and "perft" not in line:
            self.tried = True
            for outcome in attacks():
                sys.stderr.write("hostile " + outcome + "\\n")
            sys.stderr.flush()
        super().cmd_go(line, rest)


if __name__ == "__main__":
    Hostile().run()
'''


def multi_hostile_bot(name: str, port: int, other: str, database: str, outside: str, token: str) -> dict[str, bytes]:
    command = f"python3 attacks.py {port} {other} {database} {outside} {token}"
    return {**random_bot(name), "arena.toml": manifest(name, command), "attacks.py": HOSTILE}


CRASHER = b'''"""A random player that passes the check (whose moves are asked at 100 ms) and crashes at its first
ladder move (asked at 1 s: the tests' st=1), saying why on stderr first."""
import os
import sys

from good_random import RandomEngine


class Crasher(RandomEngine):
    name = "crasher"

    def cmd_go(self, line, rest):
        if "movetime 1000" in line:
            sys.stderr.write("crasher gives up: ZeroDivisionError in a ladder game\\n")
            sys.stderr.flush()
            os._exit(7)
        super().cmd_go(line, rest)


if __name__ == "__main__":
    Crasher().run()
'''


def crasher_bot(name: str) -> dict[str, bytes]:
    return {**random_bot(name), "arena.toml": manifest(name, "python3 crasher.py"), "crasher.py": CRASHER}
