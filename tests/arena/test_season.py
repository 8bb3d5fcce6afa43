"""A season end to end, under the sandbox: the starters from examples/ (Python, and C built by its
Makefile inside the sandbox) and a hostile bot are submitted, checked and play the ladder; the
hostile bot's attacks (network, another bot's files, the database, a write outside, a process left
behind) are stopped; the final round-robin publishes its ranking; the export is the referee's."""

from __future__ import annotations

import os
import socket
import threading
from pathlib import Path

import pytest

from referee.cli import main as referee_main
from referee.engines.sandbox import SandboxError, check_available
from referee.results.store import RecordReader
from tests.arena.bots import c_starter, multi_hostile_bot, python_starter, tar_gz, write, zip_bytes
from tests.arena.conftest import add_author, in_process, make_arena
from tests.arena.test_server import request, wait_for

pytestmark = [pytest.mark.sandbox, pytest.mark.slow]

try:
    check_available("bwrap")
    BWRAP_PROBLEM = None
except SandboxError as exc:
    BWRAP_PROBLEM = str(exc)

needs_bwrap = pytest.mark.skipif(BWRAP_PROBLEM is not None and not os.environ.get("CI"),
                                 reason=f"bwrap unusable here: {BWRAP_PROBLEM}")


def listener() -> tuple[socket.socket, list[bytes]]:
    """A port on the host's loopback that records any connection (a sandboxed bot must not reach it)."""
    server = socket.create_server(("127.0.0.1", 0))
    got: list[bytes] = []

    def accept() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            got.append(b"connected")
            conn.close()

    threading.Thread(target=accept, daemon=True).start()
    return server, got


def processes_with(token: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as fh:
                    if token.encode() in fh.read():
                        found.append(int(entry))
            except OSError:
                pass
    return found


@needs_bwrap
def test_a_season_from_submission_to_final_ranking(tmp_path: Path, serve):
    directory, admin = make_arena(tmp_path / "arena", game="foundations", tc="st=0.1", sandbox="bwrap")
    tokens = {name: add_author(directory, name) for name in ("py", "c", "mallory")}
    port_socket, connections = listener()
    outside = directory / "pwned.txt"   # in the arena's directory, beside its database
    token = f"left-behind-{os.getpid()}"
    server = serve(directory)
    uploads = [("py", tar_gz(python_starter())), ("c", zip_bytes(c_starter()))]
    for author, data in uploads:
        status, body, _ = request(server, "/api/bots", method="POST", data=data, token=tokens[author])
        assert status == 202, body
    other_file = directory / "bots" / "pystarter" / "v1" / "starter.py"
    hostile = multi_hostile_bot("mallory", port_socket.getsockname()[1], str(other_file), str(directory / "arena.db"),
                                str(outside), token)
    assert in_process("add", str(directory), str(write(tmp_path / "m.tgz", tar_gz(hostile))), "--author", "mallory")[0] == 0

    def played(bot: str, games: int) -> bool:
        status, body, _ = request(server, f"/api/bots/{bot}")
        return status == 200 and body["versions"][0]["games"] >= games

    wait_for(lambda: all(played(b, 2) for b in ("pystarter", "cstarter", "mallory")), 240)
    status, c_page, _ = request(server, "/api/me", token=tokens["c"])
    assert "gcc" in c_page["bots"][0]["versions"][0]["build_log"]   # built in the sandbox by its Makefile
    # the hostile bot's attempts, in its own stderr (its author's view)
    status, page, _ = request(server, "/api/bots/mallory?limit=200")
    first = min(game["id"] for game in page["recent_games"])   # its first game: the attacks come at its first go
    status, seen, _ = request(server, f"/api/me/games/{first}/stderr", token=tokens["mallory"])
    text = "".join(part["head"] + part["tail"] for part in seen["stderr"])
    for attempt in ("net: blocked", "read other bot: blocked", "read database: blocked",
                    "write own directory: blocked"):
        assert f"hostile {attempt}" in text, text
    assert "hostile write outside:" in text     # blocked, or written in the sandbox's own empty /tmp: not here
    assert connections == [] and not outside.exists()
    assert not (directory / "bots" / "mallory" / "v1" / "mine.txt").exists()
    assert "child" in text and "left behind" in text
    assert server.stop() == 0
    wait_for(lambda: processes_with(token) == [], 10)   # the sandbox ends what a bot leaves behind when it ends
    port_socket.close()
    # the final: the referee's tournament among the top two, its ranking published (the commands in this
    # process: their exit statuses and output are main's, without a new interpreter's start-up each)
    code, out, err = in_process("final", str(directory), "--top", "2", "--games", "2")
    assert code == 0, err[-3000:]
    assert "final 1: 2 games" in out
    server = serve(directory)
    status, final, _ = request(server, "/api/final")
    ranking = final["final"]["ranking"]
    assert final["final"]["status"] == "done" and [r["rank"] for r in ranking] == [1, 2]
    assert sum(r["games"] for r in ranking) == 4
    assert (directory / "finals" / "final-1" / "foundations" / "report.html").is_file()
    status, page, _ = request(server, "/final")
    assert ranking[0]["bot"] in page
    # the export reads back through the referee's strict reader, and `isaac-referee report` draws it
    code, _, err = in_process("export", str(directory), str(tmp_path / "export"))
    assert code == 0, err
    exported = list(RecordReader(tmp_path / "export" / "records.jsonl"))
    assert len(exported) >= 6 and all(r["game_type"] == "foundations" for r in exported)
    assert referee_main(["report", str(tmp_path / "export")]) == 0
    assert (tmp_path / "export" / "report.html").is_file()
    del admin
