"""A throwaway PostgreSQL server for the arena's database tests: initdb into a temporary directory, a
loopback port, trust authentication for one user; removed at the end of the session.

Debian's `postgresql` package puts the server under /usr/lib/postgresql/<version>/bin (.ci/run
installs it). The server refuses to run as root, so as root it runs as the `postgres` user
(runuser). Without a server binary the tests that need one skip on a developer's machine and
fail under CI (CI=true): a missing PostgreSQL cannot pass unnoticed.
"""

from __future__ import annotations

import glob
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

USER = "arena"


def server_bin() -> Path | None:
    """The newest installed PostgreSQL's bin directory."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/postgres"), key=lambda p: int(Path(p).parts[-3]))
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("postgres")
    return Path(on_path).parent if on_path else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(self, bin_dir: Path):
        self.bin = bin_dir
        self.root = Path(tempfile.mkdtemp(prefix="isaac-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self.as_root = os.geteuid() == 0
        self.proc: subprocess.Popen[bytes] | None = None

    def _argv(self, argv: list[str]) -> list[str]:
        return ["runuser", "-u", "postgres", "--", *argv] if self.as_root else argv

    def start(self) -> None:
        if self.as_root:
            shutil.chown(self.root, "postgres", "postgres")
        done = subprocess.run(self._argv([str(self.bin / "initdb"), "-D", str(self.data), "-U", USER,
                                          "--auth=trust", "-E", "UTF8", "--no-sync"]),
                              capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"initdb failed: {done.stderr[-2000:]}")
        self.proc = subprocess.Popen(self._argv([str(self.bin / "postgres"), "-D", str(self.data), "-p", str(self.port),
                                                 "-c", "listen_addresses=127.0.0.1", "-k", str(self.root),
                                                 "-c", "fsync=off", "-c", "max_connections=200"]),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"postgres exited: {self.proc.stderr.read().decode()[-2000:] if self.proc.stderr else ''}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    pass
                if self._sql("SELECT 1", "postgres"):
                    return
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError("postgres did not start within 30 s")

    def _sql(self, statement: str, database: str) -> bool:
        import psycopg
        try:
            with psycopg.connect(host="127.0.0.1", port=self.port, user=USER, dbname=database, autocommit=True) as conn:
                conn.execute(statement)
        except psycopg.OperationalError:
            return False
        return True

    def new_database(self) -> str:
        """A fresh, empty database; its SQLAlchemy URL."""
        name = f"arena_{uuid.uuid4().hex[:12]}"
        if not self._sql(f'CREATE DATABASE "{name}"', "postgres"):
            raise RuntimeError(f"cannot create database {name}")
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGINT)   # fast shutdown
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[Server]:
    bin_dir = server_bin()
    if bin_dir is None:
        message = "no PostgreSQL server installed (apt-get install postgresql)"
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL tests cannot run under CI: {message}")
        pytest.skip(message)
    server = Server(bin_dir)
    try:
        server.start()
        yield server
    finally:
        server.stop()
