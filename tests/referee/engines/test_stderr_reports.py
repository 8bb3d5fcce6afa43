"""What an engine writes on stderr reaches its failure reports: the head and the tail (a Node bot's
error line comes first, a Python traceback's last), and every line of it is in --io-log, as text."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from referee.cli import main
from referee.engines.stderr import StderrKeeper, printable
from tests.support.paths import BAD_ENGINES


def test_short_stderr_is_kept_whole_and_long_stderr_by_its_ends():
    short = StderrKeeper(head_bytes=8, tail_bytes=8)
    short.feed(b"abc\n")
    short.feed(b"def\n")
    assert short.excerpt() == "abc\ndef" and short.total == 8
    long = StderrKeeper(head_bytes=8, tail_bytes=8)
    for chunk in (b"HEADLINE", b"-" * 1000, b"TAILLINE"):
        long.feed(chunk)
    assert long.excerpt() == "HEADLINE\n[... 1000 bytes left out ...]\nTAILLINE"
    middle = StderrKeeper(head_bytes=8, tail_bytes=8)
    middle.feed(b"0123456789ABCDEF")       # 16 bytes: head and tail meet, nothing left out
    assert middle.excerpt() == "0123456789ABCDEF"


def test_lines_go_to_the_log_escaped_and_whole():
    logged: list[str] = []
    keeper = StderrKeeper(on_line=logged.append)
    keeper.feed(b"first li")
    keeper.feed(b"ne\r\nbinary \x00\x1b[2J \xff\xfe end\nno newline")
    keeper.finish()
    assert logged == ["first line", "binary \\x00\\x1b[2J \\xff\\xfe end", "no newline"]
    assert printable("tab\tand é".encode()) == "tab\tand é"


def _records(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "records.jsonl").read_text().splitlines()]


@pytest.mark.slow
def test_a_crash_keeps_the_error_line_at_the_head_and_the_last_frames(tmp_path: Path, capsys):
    """A Node-style death: the TypeError and the bot's file and line come first, 3 KiB of frames after;
    a reason that kept only the tail lost the error."""
    out, log = tmp_path / "run", tmp_path / "io.log"
    argv = ["match", "--game", "isaac", "--games", "2", "--seed", "1", "--out", str(out), "--io-log", str(log),
            "-engine", "name=crasher", f"cmd={sys.executable} {BAD_ENGINES / 'crash_long_trace.py'}",
            "-engine", "name=good", f"cmd={sys.executable} {BAD_ENGINES / 'good_random.py'}",
            "-each", "tc=st=0.2"]
    assert main(argv) == 0
    crashes = [r for r in _records(out) if r["termination"] == "crash"]
    assert len(crashes) == 2
    reason = crashes[0]["reason"]
    assert "exit code 1" in reason
    assert "TypeError: Cannot read properties of undefined (reading 'cells')" in reason
    assert "/bots/mine/bot.js:41:18" in reason and "Node.js v20.20.2" in reason     # head and tail
    assert "bytes left out" in reason
    console = capsys.readouterr().out
    assert "hint for crasher's crash: the head of its stderr" in console and "docs/bots.md#crash" in console
    text = log.read_text(encoding="utf-8")
    assert "!crasher: TypeError: Cannot read properties of undefined (reading 'cells')" in text
    assert "!crasher:     at frame79 (node:internal/streams/readable:79:28)" in text


@pytest.mark.slow
def test_io_log_is_text_with_odd_bytes_escaped(tmp_path: Path):
    from referee.check import run_check

    log: list[str] = []
    run_check([sys.executable, str(BAD_ENGINES / "good_random.py")], games=("isaac",), perft_depth=1,
              timeout=2.0, io_log=log.append)
    junk = [line for line in log if "junk" in line and line.startswith(">")]
    assert len(junk) == 1 and junk[0].endswith(": \\x00\\x01\u00fe\u00ff\\x1b[2J junk")   # control bytes escaped
    assert all(ch >= " " or ch == "\t" for line in log for ch in line)
