"""The hints under failures: each usual cause gets its sentence, and every link lands on an anchor that
docs/bots.md really has."""

from __future__ import annotations

import re

from referee.engines.hints import ANCHORS, DOCS, HINTS, hint, hint_for
from referee.formats.terminations import Termination
from tests.support.paths import REPO


def test_every_hint_links_to_an_anchor_of_docs_bots_md():
    anchors = set(re.findall(r'<a id="([a-z-]+)"></a>', (REPO / DOCS).read_text(encoding="utf-8")))
    for key in HINTS:
        target = ANCHORS.get(key, key)
        assert target in anchors, f"docs/bots.md has no anchor {target!r} for the hint {key!r}"
        assert hint(key).endswith(f"(see {DOCS}#{target})")


def test_each_usual_failure_gets_its_hint():
    cases = {
        (Termination.START_FAILURE, "did not answer 'uci' with 'uciok' within 10 s (no output)"): "no-output",
        (Termination.STALL, "timed out after 5 s waiting for 'readyok' (no output)"): "no-output",
        (Termination.START_FAILURE, "does not play isaac (UCI_Variant is one of hari)"): "one-game",
        (Termination.START_FAILURE, "declares no UCI_Variant option, so it cannot be told the game"): "one-game",
        (Termination.START_FAILURE, "has no option 'Hash' (it declares: UCI_Variant)"): "options",
        (Termination.TIME_FORFEIT, "exceeded its time by 1902 ms"): "time",
        (Termination.STALL, "ran out of time and did not answer 'stop' or 'isready' within 1 s"): "stall",
        (Termination.MALFORMED_OUTPUT, "bestmove: unexpected 'f3f5' after the move"): "stdout-is-for-protocol",
        (Termination.CRASH, "crashed while thinking (exit code 1); stderr: TypeError: x"): "crash",
        (Termination.CRASH, "crashed while thinking (killed by signal 9 (SIGKILL))"): "crash-silent",
        (Termination.ILLEGAL_MOVE, "played illegal move a0a2: a0a2 overlaps"): "own-rules",
    }
    for (kind, detail), key in cases.items():
        assert hint_for(kind, detail) == hint(key), (kind, detail)
    assert hint_for(Termination.MALFORMED_OUTPUT, "printed more than 200000 lines for one move") is None
    assert hint_for(Termination.NORMAL, "Dark has the higher score") is None
