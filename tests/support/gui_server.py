"""Run `python -m gui` as a real server process for tests, on a free port of 127.0.0.1."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator

from tests.support.paths import REPO


class GuiServer:
    """The server in its own process group; `url` once it listens; `stop()` sends SIGINT like Ctrl-C."""

    def __init__(self, *args: str, timeout: float = 20.0, sigint_ignored: bool = False):
        """`sigint_ignored`: start it as a script's background job is started, SIGINT ignored."""
        env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
        command = [sys.executable, "-m", "gui", "--port", "0", *args]
        if sigint_ignored:  # an ignored signal stays ignored across exec
            command[1:1] = ["-c", "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_IGN); "
                                  "os.execv(sys.executable, [sys.executable, *sys.argv[1:]])"]
        self.proc = subprocess.Popen(command, cwd=REPO, env=env,
                                     stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, start_new_session=True)
        self.log: list[str] = []
        found = threading.Event()
        self.url = ""

        def read() -> None:
            assert self.proc.stderr is not None
            for line in self.proc.stderr:
                self.log.append(line)
                match = re.search(r"serving (http://\S+/)", line)
                if match and not found.is_set():
                    self.url = match.group(1)
                    found.set()
            found.set()

        threading.Thread(target=read, daemon=True).start()
        if not found.wait(timeout) or not self.url:
            self.kill()
            raise RuntimeError("isaac-gui did not start: " + "".join(self.log)[-2000:])

    @property
    def ws_url(self) -> str:
        return self.url.replace("http://", "ws://") + "ws"

    def wait_ready(self, timeout: float = 10.0) -> None:
        """Until the page answers: the "serving" line comes just before uvicorn starts up."""
        end = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(self.url, timeout=2) as reply:
                    if reply.status == 200:
                        return
            except OSError:
                if time.monotonic() > end:
                    raise
            time.sleep(0.05)

    def stop(self, timeout: float = 15.0) -> int:
        """Ctrl-C: the server shuts down and ends its engines; returns the exit status."""
        self.proc.send_signal(signal.SIGINT)
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            signals = [line for line in _proc_status(self.proc.pid) if line.startswith("Sig")]
            self.kill()
            raise AssertionError(f"isaac-gui still running {timeout} s after Ctrl-C; {signals}; its log: "
                                 + "".join(self.log)[-2000:]) from None

    def kill(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait(5)


def _proc_status(pid: int) -> list[str]:
    """The process's /proc status lines (signal masks among them), for a failure message."""
    try:
        with open(f"/proc/{pid}/status") as status:
            return status.read().splitlines()
    except OSError:
        return []


def serving(*args: str) -> Iterator[GuiServer]:
    """A server for a fixture's lifetime (`yield from serving(...)`), stopped afterwards."""
    server = GuiServer(*args)
    try:
        yield server
    finally:
        server.stop()
