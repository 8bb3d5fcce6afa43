"""Each game's stderr as the arena keeps it: the head and the tail of one game's bytes, and the
message a Dask worker sends back beside a record read strictly (a Queue hands lists back as tuples)."""

from __future__ import annotations

from arena.ladder.capture import STDERR_HEAD, STDERR_TAIL, StderrCapture, from_message


def test_a_games_capture_keeps_its_head_and_the_tail_after_it_and_starts_afresh():
    capture = StderrCapture()
    capture.feed(b"before the game\n")
    capture.begin()
    assert capture.total == 0
    capture.feed(b"short\n")
    assert capture.texts() == ("short\n", "", 6)
    capture.begin()
    body = b"h" * STDERR_HEAD + b"m" * 5000 + b"t" * STDERR_TAIL
    for start in range(0, len(body), 700):
        capture.feed(body[start:start + 700])
    head, tail, total = capture.texts()
    assert (head, tail, total) == ("h" * STDERR_HEAD, "t" * STDERR_TAIL, len(body))


def test_a_workers_stderr_message_is_read_as_lists_or_tuples_and_anything_else_is_nothing():
    line = ("crashed\n", "", 8)
    assert from_message([list(line), None]) == [line, None]
    assert from_message((None, line)) == [None, line]
    for bad in (None, "text", [line], [line, line, line], [("a", "b"), None], [("a", "b", 0), None],
                [("a", 2, 3), None], [("a", "b", "3"), None]):
        assert from_message(bad) == [None, None], bad
