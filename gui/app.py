"""The web server: one page, its static files, and one WebSocket per browser tab.

Each WebSocket gets its own Table (its own engine processes) and is the only way the page acts.
Messages are JSON objects with a `t` (type) field; docs/gui.md lists them. Nothing the browser
sends is ever used as a command line or a path: engines and runs are picked by name from what
the server was started with. A WebSocket from another origin is refused, so a web page
elsewhere cannot drive engines through a user's local server, and a Host header that does not
name this machine is refused (DNS rebinding).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import traceback
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from protocol import GAME_NAMES, registry
from protocol.board import VALUE

from .analysis import MAX_LINES, Analysis, AnalysisError
from .clock import clock_words, parse_clock
from .config import HUMAN, GuiConfig
from .levels import CLOCK, DEFAULT_LEVEL, YARDSTICK, levels_json
from .link import EngineError
from .rules import RulesError
from .runs import RunError, find_runs, records_signature, replay, run_summary
from .table import Table, TableError

STATIC = Path(__file__).parent / "static"
FOLLOW_INTERVAL = 0.5
"""Seconds between two looks at a followed run directory."""
MAX_MESSAGE = 64 * 1024
"""Longest message from the page (a resumed game or an analysis line brings up to 500 moves)."""


class Connection:
    """One browser tab: its table, the run it follows, and the dispatch of its messages."""

    def __init__(self, config: GuiConfig, socket: WebSocket):
        self.config = config
        self.socket = socket
        self.send_lock = asyncio.Lock()
        self.table = Table(config, self.send)
        self.analysis = Analysis(config, self.send, self.table.rules_call)
        self.follow_task: asyncio.Task[None] | None = None
        self.runs: dict[str, Path] = {}

    async def send(self, message: dict[str, Any]) -> None:
        async with self.send_lock:
            with contextlib.suppress(RuntimeError, WebSocketDisconnect):
                await self.socket.send_text(json.dumps(message))

    async def hello(self) -> None:
        self.runs = find_runs(self.config.runs_dirs)
        await self.send({"t": "hello", "games": list(GAME_NAMES), "game_info": games_json(),
                         "engines": list(self.config.engines), "human": HUMAN, "tc": self.config.default_tc,
                         "tc_words": clock_words(parse_clock(self.config.default_tc)),
                         "levels": levels_json(), "level": DEFAULT_LEVEL, "clock_level": CLOCK,
                         "yardstick": YARDSTICK, "analysis_engine": self.analysis.engine,
                         "max_lines": MAX_LINES, "runs": list(self.runs)})

    async def handle(self, text: str) -> None:
        """One message from the page; any refusal is one `error` message back."""
        try:
            if len(text) > MAX_MESSAGE:
                raise TableError(f"message of {len(text)} characters is too long")
            try:
                message = json.loads(text)
            except ValueError:
                raise TableError("not a JSON message") from None
            if not isinstance(message, dict):
                raise TableError("a message is a JSON object with a 't' field")
            await self.dispatch(str(message.get("t")), message)
        except AnalysisError as exc:
            await self.send({"t": "error", "board": "analysis", "text": str(exc)})
        except (TableError, RulesError, RunError, EngineError) as exc:
            await self.send({"t": "error", "text": str(exc)})
        except Exception as exc:   # a bug costs one answer, never the tab's connection
            traceback.print_exc(file=sys.stderr)
            await self.send({"t": "error", "text": f"internal error: {type(exc).__name__}: {exc}"})

    async def dispatch(self, kind: str, m: dict[str, Any]) -> None:
        table = self.table
        analysis = self.analysis
        if kind == "new":
            await table.new_game(m.get("game"), m.get("dark"), m.get("light"), m.get("tc"), m.get("position"),
                                 m.get("level"), m.get("moves"), m.get("clocks"), m.get("started"),
                                 m.get("result"))
        elif kind == "start":
            await table.start()
        elif kind == "takeback":
            await table.takeback()
        elif kind == "export":
            await self.send(analysis.export() if m.get("board") == "analysis" else table.export())
        elif kind.startswith("analysis_"):
            await self.dispatch_analysis(kind, m)
        elif kind == "level":
            await table.set_level(m.get("level"))
        elif kind == "step":
            await table.step(m.get("word"))
        elif kind == "unstep":
            await table.unstep()
        elif kind == "stop":
            await table.stop()
        elif kind == "setup":
            await table.setup(m.get("position"))
        elif kind == "runs":
            self.runs = find_runs(self.config.runs_dirs)
            await self.send({"t": "runs", "runs": list(self.runs)})
        elif kind == "run":
            await self.open_run(m.get("name"), bool(m.get("follow")))
        elif kind == "replay":
            await self.send(replay(self._run_path(m.get("name")), m.get("game_id")))
        else:
            raise TableError(f"unknown message type {kind[:20]!r}")

    async def dispatch_analysis(self, kind: str, m: dict[str, Any]) -> None:
        analysis = self.analysis
        try:
            if kind == "analysis_load":
                await analysis.load(m.get("position"), m.get("moves"), m.get("ply"), m.get("sides"), m.get("label"),
                                    m.get("result"), m.get("tc"), m.get("flipped"))
            elif kind == "analysis_goto":
                await analysis.goto(m.get("ply"))
            elif kind == "analysis_settings":
                await analysis.settings(m.get("engine"), m.get("lines"), m.get("on"), m.get("flipped"))
            elif kind == "analysis_step":
                await analysis.step(m.get("word"))
            elif kind == "analysis_unstep":
                await analysis.unstep()
            else:
                raise AnalysisError(f"unknown message type {kind[:30]!r}")
        except (RulesError, EngineError) as exc:
            raise AnalysisError(str(exc)) from None

    def _run_path(self, name: object) -> Path:
        if not isinstance(name, str) or name not in self.runs:
            raise RunError(f"no run named {str(name)[:60]!r}")
        return self.runs[name]

    async def open_run(self, name: object, follow: bool) -> None:
        path = self._run_path(name)
        assert isinstance(name, str)
        if self.follow_task is not None:
            self.follow_task.cancel()
            self.follow_task = None
        seen = records_signature(path)   # taken first: a change while the summary is built is not missed
        await self.send(run_summary(name, path))
        if follow:
            self.follow_task = asyncio.create_task(self._follow(name, path, seen))

    async def _follow(self, name: str, path: Path, seen: tuple[int, float]) -> None:
        """Send the run again whenever its files change (a move in a live game, a game recorded)."""
        while True:
            await asyncio.sleep(FOLLOW_INTERVAL)
            now = records_signature(path)
            if now != seen:
                seen = now
                try:
                    await self.send(run_summary(name, path))
                except RunError as exc:
                    await self.send({"t": "error", "text": str(exc)})

    async def close(self) -> None:
        if self.follow_task is not None:
            self.follow_task.cancel()
        await asyncio.gather(self.analysis.close(), self.table.close(), return_exceptions=True)


def games_json() -> dict[str, dict[str, Any]]:
    """How the page words each game's measure and result (the registry's words, no rules)."""
    return {e.name: {"title": e.title, "measure": e.measure, "lower_score_wins": e.lower_score_wins,
                     "values": {str(length): value for length, value in VALUE.items()},
                     "levels": e.levels} for e in registry.entries()}


def same_origin(socket: WebSocket) -> bool:
    """True unless the browser says the page comes from another host:port than this server."""
    origin = socket.headers.get("origin")
    if origin is None:
        return True   # not a browser page (a script or test client)
    host = socket.headers.get("host", "")
    return urlsplit(origin).netloc == host


LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1", "[::1]")


def allowed_hosts(bind_host: str) -> list[str]:
    """Host headers accepted: loopback names, and the bound address. A page reached under any other
    name (DNS rebinding: an attacker's name resolving to 127.0.0.1) gets 400, WebSocket included."""
    if bind_host in ("0.0.0.0", "::", ""):
        return ["*"]
    return sorted({*LOOPBACK_NAMES, bind_host.lower()})


def create_app(config: GuiConfig, bind_host: str = "127.0.0.1") -> Starlette:
    """The application; `app.state.connections` holds the open tabs (for shutdown and tests)."""
    connections: set[Connection] = set()

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    async def favicon(request: Request) -> Response:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    async def socket_endpoint(socket: WebSocket) -> None:
        if not same_origin(socket):
            await socket.close(code=1008)
            return
        await socket.accept()
        connection = Connection(config, socket)
        connections.add(connection)
        try:
            await connection.hello()
            while True:
                text = await socket.receive_text()
                await connection.handle(text)
        except WebSocketDisconnect:
            pass
        finally:
            connections.discard(connection)
            await connection.close()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        await asyncio.gather(*(c.close() for c in list(connections)), return_exceptions=True)

    app = Starlette(routes=[Route("/", index), Route("/favicon.ico", favicon), WebSocketRoute("/ws", socket_endpoint),
                            Mount("/static", StaticFiles(directory=STATIC), name="static")],
                    lifespan=lifespan,
                    middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts(bind_host))])
    app.state.connections = connections
    app.state.config = config
    return app
