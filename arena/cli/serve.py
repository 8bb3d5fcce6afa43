"""`isaac-arena serve DIR`: the web service, the intake and the ladder in one process.

uvicorn serves the pages; the application's lifespan starts the intake (builds and checks) and
the ladder (games), and on shutdown (Ctrl-C: exit status 130; SIGTERM: 0) stops them: the games being played are
abandoned, their pairs stay `running` in the database and are played again on the next start.
If the ladder cannot go on (the database or the Dask scheduler is gone) the server stops with
exit status 2 and says why.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
import sys
from collections.abc import AsyncIterator
from typing import Any

from referee.engines.sandbox import SandboxError, check_available
from referee.matches.live import LiveGames

from ..config import Arena
from ..intake.pipeline import Intake
from ..ladder.runner import Ladder, LocalPairs, PairPlayer
from ..season.final import FinalRunner
from ..web.app import Site, create_app


def log(text: str) -> None:
    print(f"isaac-arena: {text}", file=sys.stderr, flush=True)


def make_player(arena: Arena, concurrency: int, cluster: str | None, live: LiveGames) -> PairPlayer:
    options = {"start_timeout": arena.config.limits.start_timeout}
    if cluster:
        from ..ladder.cluster import DaskPairs
        return DaskPairs(cluster, live, options)
    return LocalPairs(concurrency, live, options)


def serve(arena: Arena, engine: Any, *, host: str, port: int, concurrency: int, cluster: str | None,
          allowed: list[str], ladder_on: bool = True) -> int:
    import uvicorn

    if arena.config.sandbox == "bwrap":
        try:
            check_available("bwrap")
        except SandboxError as exc:
            log(f"error: {exc} (or set sandbox = \"none\" in arena.toml for trusted bots only)")
            return 2
    live = LiveGames(arena.dir)
    player = make_player(arena, concurrency, cluster, live)
    ladder = Ladder(arena, engine, player, concurrency=concurrency, log=log)
    intake = Intake(arena, engine, on_activated=ladder.poke, log=log)
    site = Site(arena, engine, ladder, intake)
    site.finals = FinalRunner(arena, engine, ladder, log)
    failure: list[str] = []
    server: uvicorn.Server | None = None

    async def guard(name: str, coro: Any) -> None:
        try:
            await coro
        except asyncio.CancelledError:
            raise
        except Exception as exc:   # the ladder or the intake cannot go on: stop the server, say why
            failure.append(f"the {name} stopped: {exc}")
            log(f"error: the {name} stopped: {exc}")
            if server is not None:
                server.should_exit = True

    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[None]:
        tasks = [asyncio.create_task(guard("intake", intake.run()))]
        if ladder_on:
            tasks.append(asyncio.create_task(guard("ladder", ladder.run())))
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            live.close()

    try:
        sock = socket.create_server((host, port))
    except OSError as exc:
        log(f"error: cannot listen on {host}:{port}: {exc.strerror}")
        return 2
    # Accepted connections inherit this (Linux). asyncio sets it only on sockets made with proto
    # IPPROTO_TCP, which socket.create_server's are not: without it a keep-alive client waits 40 ms
    # for every answer (Nagle's algorithm against the client's delayed ACK).
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    bound_host, bound_port = sock.getsockname()[:2]
    if host not in ("127.0.0.1", "localhost", "::1"):
        log(f"warning: serving on {host}: put it behind a reverse proxy with TLS (docs/arena.md)")
    app = create_app(site, host, allowed, lifespan=lifespan)
    # access_log off: at log level warning its lines are never shown, but their arguments were still
    # formatted for every request
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on", proxy_headers=True,
                                           loop="asyncio", timeout_graceful_shutdown=5))
    stopped_by: list[int] = []

    def on_signal(signum: int, frame: object) -> None:
        """uvicorn stops on these and raises them again once it has shut down: noted, never fatal."""
        stopped_by.append(signum)
        if server is not None:
            server.force_exit = server.should_exit   # a second one: do not wait for connections
            server.should_exit = True

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    where = f"the Dask cluster {cluster}" if cluster else f"{concurrency} game(s) at once"
    log(f"serving {arena.config.name} on http://{bound_host}:{bound_port}/ ({where}; Ctrl-C to stop)")
    server.run(sockets=[sock])
    if failure:
        log("stopped: " + "; ".join(failure) + " (finished games are recorded; start it again to go on)")
        return 2
    return 130 if signal.SIGINT in stopped_by else 0
