"""isaac-gui: serve the web GUI on 127.0.0.1 (see docs/gui.md).

    isaac-gui                                   # the reference engine's strategies, port 8000
    isaac-gui -engine name=mybot cmd=./mybot --runs referee-runs
    isaac-gui --engines-file engines.toml --rules-engine cmd="./myrules"
"""

from __future__ import annotations

import argparse
import signal
import socket
import sys
from typing import TYPE_CHECKING

import protocol
from referee.engines.config import ConfigError

from .config import DEFAULT_TC, build_config

if TYPE_CHECKING:
    import uvicorn

DEFAULT_PORT = 8000


class CtrlC:
    """The SIGINT handler from the start of main() on: it notes Ctrl-C and asks the server to end.

    It never raises. Python's own handler raises KeyboardInterrupt between any two bytecodes, and
    one raised inside a weakref callback or __del__ (importlib's module-lock cleanup runs after every
    import, as uvicorn imports its event loop) is printed and dropped: the server kept serving. One
    raised as asyncio's handler, before uvicorn's, cancelled the start-up with tracebacks. And until
    main() sets a handler, a SIGINT ignored when the process started stays ignored. uvicorn puts its
    own handler in place while it serves and, on Ctrl-C, sends SIGINT again under this one once it
    has shut down (engines ended).
    """

    def __init__(self) -> None:
        self.seen = False
        self.server: uvicorn.Server | None = None

    def __call__(self, signum: int, frame: object) -> None:
        self.seen = True
        if self.server is not None:
            self.server.force_exit = self.server.should_exit   # a second Ctrl-C: do not wait for connections
            self.server.should_exit = True


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="isaac-gui", description="isaac-gui is isaac-arena's local web GUI for ISAAC, "
                                "FOUNDATIONS and HARI: play or watch engines, replay and follow referee runs. It "
                                "serves a page on http://HOST:PORT/ (open it in a browser); Ctrl-C ends it.",
                                epilog="docs/gui.md tells more.")
    p.add_argument("-V", "--version", action="version", version=f"isaac-gui (isaac-arena) {protocol.__version__}")
    p.add_argument("-engine", dest="engine", action="append", nargs="+", metavar="KEY=VALUE", default=[],
                   help="an engine the page may use, as isaac-referee's -engine (name=, cmd=, option.<Name>=, "
                        "...); default: the reference engine's strategies search, greedy, random")
    p.add_argument("-each", dest="each", action="append", nargs="+", metavar="KEY=VALUE", default=[],
                   help="settings for every -engine")
    p.add_argument("--engines-file", metavar="TOML", help="engines as for isaac-referee")
    p.add_argument("--rules-engine", nargs="+", metavar="KEY=VALUE",
                   help="the engine that answers 'steps' and 'state' (cmd=..., option.<Name>=...); "
                        "default: the reference engine")
    p.add_argument("--runs", action="append", default=[], metavar="DIR",
                   help="a referee run directory, or a directory of them, to replay and follow (repeatable)")
    p.add_argument("--tc", help=f"default time control of new games (default {DEFAULT_TC})")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT}; 0 picks a free one)")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    ctrl_c = CtrlC()
    signal.signal(signal.SIGINT, ctrl_c)
    args = parse_args(argv)
    try:
        config = build_config(args.engine, args.each, args.engines_file, args.rules_engine, args.runs, args.tc)
    except ConfigError as exc:
        print(f"isaac-gui: error: {exc}", file=sys.stderr)
        return 2
    try:
        import uvicorn

        from .app import create_app
    except ImportError as exc:
        print(f"isaac-gui: error: the web stack is not installed ({exc.name}); "
              f"install it with: pip install 'isaac-arena[gui]'", file=sys.stderr)
        return 2
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"isaac-gui: warning: serving on {args.host}: anyone who can reach it can run the configured "
              f"engines", file=sys.stderr)
    try:
        sock = socket.create_server((args.host, args.port))
    except OSError as exc:
        print(f"isaac-gui: error: cannot listen on {args.host}:{args.port}: {exc.strerror}", file=sys.stderr)
        return 2
    host, port = sock.getsockname()[:2]
    ctrl_c.server = uvicorn.Server(uvicorn.Config(create_app(config, args.host), log_level="warning",
                                                  ws="websockets", lifespan="on"))
    if ctrl_c.seen:
        return 130
    print(f"isaac-gui: serving http://{host}:{port}/ (Ctrl-C to stop)", file=sys.stderr, flush=True)
    ctrl_c.server.run(sockets=[sock])
    return 130 if ctrl_c.seen else 0


if __name__ == "__main__":
    sys.exit(main())
