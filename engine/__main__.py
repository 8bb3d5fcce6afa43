"""`python -m engine` / `isaac-engine`: the engine on stdin/stdout; `isaac-engine bench [args]` runs the bench."""

from __future__ import annotations

import os
import sys


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] == "bench":
        from .bench import main as bench_main
        return bench_main(args[1:])
    if args:
        print(f"usage: isaac-engine [bench [nodes N] [strategy S]]; unexpected {args[0]!r}", file=sys.stderr)
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
