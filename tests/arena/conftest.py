"""Fixtures of the arena's tests: an arena directory on SQLite or on a throwaway PostgreSQL (the same
tests run on both), and a real `isaac-arena serve` on a loopback port."""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.cli import main
from arena.config import load_arena
from arena.db.database import migrate, open_database
from tests.support.paths import REPO
from tests.support.postgres import Server, postgres_server  # noqa: F401

DATABASES = [pytest.param("sqlite", id="sqlite"), pytest.param("postgres", id="postgres", marks=pytest.mark.postgres)]


def make_arena(path: Path, url: str | None = None, *, game: str = "hari", tc: str = "st=1",
               sandbox: str = "none", edits: dict[str, str] | None = None) -> tuple[Path, str]:
    """`isaac-arena init` into `path` (in this process: quicker than a new one); the admin token."""
    argv = ["init", str(path), "--game", game, "--tc", tc, "--sandbox", sandbox]
    if url:
        argv += ["--database", url]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    assert code == 0, err.getvalue()
    done = argparse.Namespace(stdout=out.getvalue())
    if edits:   # lines of the written arena.toml replaced, as a host edits it
        config = path / "arena.toml"
        text = config.read_text()
        for old, new in edits.items():
            assert old in text, old
            text = text.replace(old, new)
        config.write_text(text)
    token = re.search(r"admin token .*: (\S+)", done.stdout)
    assert token, done.stdout
    return path, token.group(1)


def arena_cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """`isaac-arena ARGS` as a process, as a host types it."""
    return subprocess.run([sys.executable, "-m", "arena", *args], capture_output=True, text=True, timeout=timeout,
                          cwd=REPO)


def in_process(*args: str) -> tuple[int, str, str]:
    """`isaac-arena ARGS` in this process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def add_author(directory: Path, name: str) -> str:
    code, out, err = in_process("author", "add", str(directory), name)
    assert code == 0, err
    return out.split("token ", 1)[1].split()[0]


@pytest.fixture(params=DATABASES)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database's URL: a SQLite file, or a database on the session's PostgreSQL server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'arena.db'}"
    server: Server = request.getfixturevalue("postgres_server")
    return server.new_database()


@pytest.fixture
def arena_engine(tmp_path: Path, db_url: str) -> tuple[Any, Any]:
    """(arena, engine) of a new arena in tmp_path/arena on the database of `db_url`."""
    directory, _ = make_arena(tmp_path / "arena", db_url)
    arena = load_arena(directory)
    engine = open_database(arena.database_url())
    migrate(engine)
    yield arena, engine
    engine.dispose()


class RunningServer:
    """`isaac-arena serve` as a process on a loopback port (its own process group)."""

    def __init__(self, directory: Path, *args: str, env: dict[str, str] | None = None):
        self.directory = directory
        self.log = directory / "serve.log"
        self.args = args
        self.env = {**os.environ, "PYTHONPATH": str(REPO), **(env or {})}
        self.proc: subprocess.Popen[bytes] | None = None
        self.url = ""

    def start(self, timeout: float = 60) -> RunningServer:
        self.handle = open(self.log, "ab")
        before = self.log.stat().st_size
        self.proc = subprocess.Popen([sys.executable, "-m", "arena", "serve", str(self.directory), "--port", "0",
                                      *self.args], stdout=self.handle, stderr=self.handle, cwd=REPO, env=self.env,
                                     start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = re.findall(r"on (http://127\.0\.0\.1:\d+/)", self.log.read_bytes()[before:].decode(errors="replace"))
            if found:
                self.url = found[-1].rstrip("/")
                return self
            if self.proc.poll() is not None:
                raise AssertionError(f"serve exited {self.proc.returncode}: {self.log.read_text()[-3000:]}")
            time.sleep(0.1)
        raise AssertionError(f"serve did not start: {self.log.read_text()[-3000:]}")

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 30) -> int | None:
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            try:
                os.kill(self.proc.pid, sig)
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        code = self.proc.returncode
        self.handle.close()
        self.proc = None
        return code


@pytest.fixture
def serve() -> Iterator[Any]:
    """Start servers with serve(directory, *args); all stopped (and their process groups killed) after."""
    started: list[RunningServer] = []

    def start(directory: Path, *args: str, env: dict[str, str] | None = None) -> RunningServer:
        server = RunningServer(directory, *args, env=env).start()
        started.append(server)
        return server

    yield start
    for server in started:
        pid = server.proc.pid if server.proc is not None else None
        server.stop()
        if pid is not None:
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
