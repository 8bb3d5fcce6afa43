"""`isaac-engine` (`python -m engine`): the engine on stdin/stdout, speaking SPEC.md section 9.

Without arguments it reads protocol commands on stdin (`uci`, `isready`, `position`, `go`,
...), as a GUI or the referee runs it; the arguments are for a person at a terminal.
"""

from __future__ import annotations

import os
import sys

USAGE = """\
usage: isaac-engine                      play: protocol commands on stdin, answers on stdout
       isaac-engine bench [nodes N] [strategy S]
                                         search fixed positions of every game; print nodes and speed
       isaac-engine --help | --version

isaac-engine is isaac-arena's engine for ISAAC, FOUNDATIONS and HARI. Run without
arguments it waits for protocol commands (SPEC.md section 9), as UCI engines do:

  $ isaac-engine
  uci                              -> id name ..., option ..., uciok
  setoption name UCI_Variant value hari
  position startpos
  go movetime 1000                 -> info ... / bestmove ...
  quit

Options (setoption): UCI_Variant ({games}),
Strategy ({strategies}),
Seed, MoveOverhead, OwnBook, Skill Level, MultiPV, SearchSettings; `uci` lists them all.
Pair it with isaac-referee to play matches, or with isaac-gui to play it in a browser.
"""


def usage() -> str:
    """USAGE with the games and strategies of their registries."""
    from protocol import registry

    from .strategies import STRATEGY_NAMES
    return USAGE.format(games=", ".join(registry.names()), strategies=", ".join(STRATEGY_NAMES))


def main(argv: list[str] | None = None) -> int:
    from .cpu_clock import use_cpu_clock_if_asked

    use_cpu_clock_if_asked()  # before any module that reads the clock is imported
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] in ("-h", "--help", "help"):
        print(usage(), end="")
        return 0
    if args and args[0] in ("-V", "--version"):
        from . import __version__
        print(f"isaac-engine (isaac-arena) {__version__}")
        return 0
    if args and args[0] == "bench":
        from .bench import main as bench_main
        return bench_main(args[1:])
    if args:
        print(f"isaac-engine: unexpected argument {args[0]!r}\n\n{usage()}", end="", file=sys.stderr)
        return 2
    from .uci import Engine
    try:
        status = Engine().run()
    except KeyboardInterrupt:  # Ctrl-C at a terminal: leave quietly
        status = 130
    _exit_now(status)
    return status


def _exit_now(status: int) -> None:
    """Leave at once: a search thread still running must not delay the exit (output is already flushed)."""
    sys.stderr.flush()
    os._exit(status)


if __name__ == "__main__":
    sys.exit(main())
