"""The usual cause of an engine's failure, in one sentence that links to the section of docs/bots.md
("Common mistakes") saying how to fix it. The check prints one under each failure it explains, a match
under each forfeit and each start-up problem, so a bot author reads the way out next to the evidence.
"""

from __future__ import annotations

from ..formats.terminations import Termination

DOCS = "docs/bots.md"

HINTS = {
    "no-output": "nothing reached the referee: flush stdout after every line, or make it line-buffered "
                 "(Python print(..., flush=True), C fflush(stdout))",
    "time": "count the time from the moment `go` arrived, keep a reserve, and do slow set-up (imports, "
            "tables, a JIT's first run) on `uci` or `isready`, never in the first `go`",
    "stall": "a move that took far too long, or `isready` not answered while thinking: read stdin in one "
             "thread and think in another, or think in slices and look at stdin between them",
    "stdout-is-for-protocol": "debug text belongs on stderr: the referee reads every line on stdout as protocol",
    "one-game": "a bot for one game: declare only its games in UCI_Variant, and check it with --game <game>",
    "crash": "the head of its stderr, quoted above, usually names the error and the line of the bot that raised it",
    "crash-silent": "it wrote nothing on stderr: let the error reach stderr (an uncaught exception does) to see why",
    "quit": "`quit` (or the end of input) must end the process at once with exit status 0; a Python bot with "
            "a reader thread flushes stdout and calls os._exit(0)",
    "options": "declare every option a host sets, one `option name ...` line each in the answer to `uci`",
    "own-rules": "the bot's rules disagree with SPEC.md: `isaac-referee check` compares its perft and `moves` "
                 "with the rules move by move",
}
ANCHORS = {"crash-silent": "crash"}


def hint(key: str) -> str:
    """The hint named `key` with its link, e.g. '... (see docs/bots.md#no-output)'."""
    return f"{HINTS[key]} (see {DOCS}#{ANCHORS.get(key, key)})"


def hint_for(termination: Termination | str, detail: str, stderr: bool = True) -> str | None:
    """The hint for a failure of this kind whose evidence is `detail`; None when no cause is usual.
    `stderr`: whether the engine wrote anything on stderr (a crash without a word gets another hint)."""
    kind, text = Termination(termination), detail.lower()
    if "no output" in text:
        return hint("no-output")
    if kind == Termination.START_FAILURE:
        if "does not play" in text or "no uci_variant" in text or "uci_variant lacks" in text:
            return hint("one-game")
        if "option" in text:
            return hint("options")
        if "exited" in text or "gone" in text:
            return hint("crash" if stderr and "stderr" in text else "crash-silent")
        return None
    if kind == Termination.TIME_FORFEIT:
        return hint("time")
    if kind == Termination.STALL:
        return hint("stall")
    if kind == Termination.MALFORMED_OUTPUT:
        return hint("stdout-is-for-protocol") if "bestmove" in text else None
    if kind in (Termination.CRASH, Termination.DISCONNECT):
        return hint("crash" if stderr and "stderr" in text else "crash-silent")
    if kind == Termination.ILLEGAL_MOVE:
        return hint("own-rules")
    return None
