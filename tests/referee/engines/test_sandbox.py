"""Hostile engines under sandbox=bwrap: no network, no file outside their directory, no escaped child.

Each engine directory holds good_random.py, hostile.py and a copy of protocol/, because a sandboxed
engine sees its own directory, the system and the Python installation, and nothing else.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import sys
import time
from pathlib import Path

import pytest

from referee.cli import main
from referee.engines.sandbox import bwrap_argv
from tests.support.paths import BAD_ENGINES, HOSTILE_ENGINES, REPO
from tests.support.processes import processes_with
from tests.support.sandbox import needs_bwrap

pytestmark = pytest.mark.sandbox


def engine_home(root: Path, name: str) -> Path:
    home = root / name
    home.mkdir(parents=True)
    shutil.copy(BAD_ENGINES / "good_random.py", home)
    shutil.copy(HOSTILE_ENGINES / "hostile.py", home)
    shutil.copytree(REPO / "protocol", home / "protocol", ignore=shutil.ignore_patterns("__pycache__"))
    return home


def first_info(records: list[dict], name: str) -> str:
    """The `info string hostile ...` an engine sent with one of its moves."""
    for record in records:
        for ply, move in enumerate(record["moves"]):
            side = "dark" if ply % 2 == 0 else "light"
            text = (move.get("info") or {}).get("string", "")
            if record[side]["name"] == name and text.startswith("hostile"):
                return str(text)
    return ""


@needs_bwrap
def test_hostile_engines_are_contained(tmp_path):
    root = tmp_path / "engines"
    out = tmp_path / "run"
    secret = tmp_path / "secret.txt"
    secret.write_text("the other engine's opening book\n")
    escaped = Path("/var/tmp") / f"escaped-{os.getpid()}-{time.monotonic_ns()}.txt"
    token = f"escaped-child-{os.getpid()}-{time.monotonic_ns()}"
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)
    listener.settimeout(0.0)
    port = listener.getsockname()[1]
    engines = {"net": f"net {port}", "read": f"read {secret}", "write": f"write {escaped},{root / 'write' / 'mine.txt'}",
               "fork": f"fork {token}"}
    argv = ["tournament", "--format", "gauntlet", "--sandbox", "bwrap", "--games", "2", "--game", "foundations",
            "-engine", "name=good", f"cmd={sys.executable} good_random.py", f"dir={engine_home(root, 'good')}",
            "--out", str(out), "-each", "tc=20+0.2", "memory_mb=400", "cpu_seconds=60", "--concurrency", "2", "--json"]
    for name, attack in engines.items():
        argv += ["-engine", f"name={name}", f"cmd={sys.executable} hostile.py {attack}",
                 f"dir={engine_home(root, name)}"]
    assert main(argv) == 0
    records = [json.loads(line) for line in (out / "records.jsonl").read_text().splitlines()]
    assert len(records) == 8
    infos = {name: first_info(records, name) for name in engines}
    # no network: the connection is refused inside the engine's own network namespace
    assert infos["net"].startswith("hostile net: blocked: ConnectionRefusedError"), infos["net"]
    with pytest.raises(BlockingIOError):
        listener.accept()
    listener.close()
    # nothing outside its directory is visible: the planted file does not exist for the engine
    assert infos["read"].startswith("hostile read: blocked: FileNotFoundError"), infos["read"]
    assert infos["write"] == (f"hostile write: {escaped} blocked: FileNotFoundError: [Errno 2] No such file or "
                              f"directory: '{escaped}'; {root / 'write' / 'mine.txt'} blocked: OSError: [Errno 30] "
                              f"Read-only file system: '{root / 'write' / 'mine.txt'}'"), infos["write"]
    assert not escaped.exists() and not (root / "write" / "mine.txt").exists()
    # the child left the engine's session, but died with the engine's PID namespace
    assert infos["fork"].startswith("hostile fork: child"), infos["fork"]
    deadline = time.monotonic() + 5
    while processes_with(token) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert processes_with(token) == []
    assert all(r["termination"] == "normal" for r in records)


@needs_bwrap
def test_writable_paths_and_private_tmp(tmp_path):
    home = engine_home(tmp_path / "engines", "scribe")
    scratch = home / "scratch"
    scratch.mkdir()
    sibling = tmp_path / "sibling.txt"
    sibling.write_text("not for engines")
    inside = f"{sys.executable} -c \"open('scratch/ok.txt','w').write('kept'); open('/tmp/t','w').write('x'); " \
             f"import os; print(os.path.exists('/tmp/t'), os.path.exists('{sibling}'), os.path.exists('{home}'))\""
    import subprocess
    argv = bwrap_argv(["sh", "-c", inside], str(home), writable=[str(scratch)])
    done = subprocess.run(argv, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert (scratch / "ok.txt").read_text() == "kept"
    assert done.stdout.strip() == "True False True"     # /tmp is its own; its dir, but not its neighbours
    assert not Path("/tmp/t").exists() or Path("/tmp/t").read_text() != "x"
    denied = subprocess.run(bwrap_argv([sys.executable, "-c", "open('x.txt','w')"], str(home)),
                            capture_output=True, text=True, timeout=30)
    assert denied.returncode != 0 and "Read-only file system" in denied.stderr


def test_a_sandbox_needs_a_directory_and_a_known_kind(tmp_path, capsys):
    base = ["match", "-engine", "name=a", f"cmd={sys.executable} x.py", "-engine", "name=b",
            f"cmd={sys.executable} y.py", "--out", str(tmp_path / "o")]
    with pytest.raises(SystemExit) as exc:
        main(base + ["-each", "sandbox=bwrap"])
    assert exc.value.code == 2 and "needs dir=" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(base + ["-each", "sandbox=docker", f"dir={tmp_path}"])
    assert exc.value.code == 2 and "sandbox='docker' is not known" in capsys.readouterr().err


def test_missing_bwrap_is_one_clear_error_before_the_run(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))          # no bwrap anywhere on PATH
    argv = ["match", "-engine", "name=a", f"cmd={sys.executable} x.py", "-engine", "name=b",
            f"cmd={sys.executable} y.py", "-each", f"dir={tmp_path}", "--sandbox", "bwrap",
            "--out", str(tmp_path / "o")]
    with pytest.raises(SystemExit) as exc:
        main(argv)
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "bwrap program (bubblewrap) is not installed" in err
    assert not (tmp_path / "o").exists()
