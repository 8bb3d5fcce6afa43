"""The arena's web service: the pages, the same data as JSON under /api, and the writes (submitting,
deleting, the host's actions), each refused with a status and one sentence when it may not be done.

Reads run in Starlette's thread pool (the database calls block); the leaderboard is cached until
the ladder records a game or a version comes or goes (at most one second when another process
writes). A cached page is answered from the event loop, without a trip to a thread, and as ready
bytes to a visitor who is not signed in (the crowd's case: most requests cost only HTTP). Any
unexpected error is logged on the server with its traceback and answered 500 with one line: a
request never shows a traceback.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from protocol.svg import board_svg
from protocol.svg_replay import PartTable, page_html, record_moves, replay

from ..config import Arena
from ..db import bots as bots_db
from ..db import pages
from ..db.authors import Author, author_by_token
from ..db.results import game_record
from ..intake.pipeline import SubmissionError, submit_archive
from ..season.standings import season_standings
from . import html
from .auth import (
    COOKIE,
    HttpError,
    allowed_hosts,
    check_form,
    check_write,
    current_author,
    require_admin,
    require_author,
)
from .cache import TtlCache

STATIC = Path(__file__).parent / "static"
CACHE_SECONDS = 1.0
BOT_SECONDS = 5.0
"""How old a bot's page may be (it changes with each of the bot's games)."""
STANDINGS_SECONDS = 30.0
DRAIN_FACTOR = 4
"""An upload up to this many times the limit is read (and dropped) before it is refused with 413."""
PUBLIC_ENGINE_KEYS = ("name", "options", "tc")
"""What the public game JSON keeps of each engine (not its command or directory on the host)."""

Handler = Callable[[Request], Awaitable[Response]]


@dataclass(frozen=True)
class Board:
    made: float
    rows: list[dict[str, Any]]
    body: str
    json: bytes
    page: bytes
    """The whole page as a visitor who is not signed in sees it."""


class Site:
    """What the pages need: the arena, its database, and (in `serve`) the ladder and the intake."""

    def __init__(self, arena: Arena, engine: Any, ladder: Any = None, intake: Any = None):
        self.arena = arena
        self.engine = engine
        self.ladder = ladder
        self.intake = intake
        self.finals: Any = None
        self._board: Board | None = None
        self._standings: tuple[float, dict[str, Any]] | None = None
        self.bots = TtlCache(BOT_SECONDS)

    def board(self) -> Board:
        """The leaderboard's rows, page body and JSON, made again at most every CACHE_SECONDS (the
        ladder records several games a second: a page a second old is current enough) and at once
        after a change made through this server."""
        board = self.fresh_board()
        if board is None:
            now = time.monotonic()
            rows = pages.leaderboard(self.engine)
            data = {"arena": self.arena.config.name, "games": self.arena.config.games, "leaderboard": rows}
            body = html.leaderboard(rows)
            page = html.page("Leaderboard", body + self.live_note(), arena_name=self.arena.config.name)
            board = self._board = Board(now, rows, body, json.dumps(data).encode(), page.encode())
        return board

    def fresh_board(self) -> Board | None:
        """The leaderboard if it is young enough to answer with (from the event loop: no database)."""
        board = self._board
        return board if board is not None and time.monotonic() - board.made <= CACHE_SECONDS else None

    def live_note(self) -> str:
        """The leaderboard's line about the games being played now (none when there are none); only
        their count is read, so a worker thread may ask while the event loop changes them."""
        games = None if self.ladder is None else getattr(self.ladder.player, "live", None)
        live = 0 if games is None else len(games.games)
        return f'<p class="note"><a href="/live">{live} game(s) being played now</a></p>' if live else ""

    def standings(self) -> dict[str, Any]:
        """The season's maximum-likelihood standings, fitted again at most every STANDINGS_SECONDS."""
        now = time.monotonic()
        if self._standings is None or now - self._standings[0] > STANDINGS_SECONDS:
            self._standings = (now, season_standings(self.engine))
        return self._standings[1]

    def changed(self) -> None:
        """A version came, went or changed state: the ladder and the caches look again."""
        self._board = None
        self.bots.clear()
        if self.ladder is not None:
            self.ladder.poke()
        if self.intake is not None:
            self.intake.poke()

    def live_games(self) -> list[dict[str, Any]]:
        if self.ladder is None or getattr(self.ladder.player, "live", None) is None:
            return []
        live = self.ladder.player.live
        return [{**g, "moves": list(g["moves"])} for _, g in sorted(live.games.items())]


def _is_api(request: Request) -> bool:
    return request.url.path.startswith("/api/")


def _error(request: Request, site: Site, status: int, message: str) -> Response:
    if _is_api(request):
        return JSONResponse({"error": message}, status_code=status)
    body = f"<h1>{status}</h1><p class=\"error\">{html.esc(message)}</p>"
    return HTMLResponse(html.page(str(status), body, arena_name=site.arena.config.name), status_code=status)


def _int_param(request: Request, name: str, default: int | None, low: int, high: int) -> int | None:
    text = request.query_params.get(name)
    if text is None:
        return default
    if not text.isdigit() or len(text) > 12:
        raise HttpError(400, f"query parameter {name}={text[:20]!r}: a whole number is expected")
    value = int(text)
    if not low <= value <= high:
        raise HttpError(400, f"query parameter {name}={value}: must be {low}..{high}")
    return value


def _author_or_none(request: Request, site: Site) -> Author | None:
    """The signed-in author for a page that anyone may see (a stale cookie: nobody)."""
    try:
        return current_author(request, site.engine)
    except HttpError:
        return None


def _anonymous(request: Request) -> bool:
    """No token at all (no cookie, no Authorization header): the page every visitor sees."""
    return "authorization" not in request.headers and not request.cookies.get(COOKIE)


def _signed_in(request: Request, site: Site) -> str | None:
    author = _author_or_none(request, site)
    return None if author is None else author.name


def _public_record(record: dict[str, Any]) -> dict[str, Any]:
    out = dict(record)
    for side in ("dark", "light"):
        engine = record.get(side)
        if isinstance(engine, dict):
            out[side] = {k: engine.get(k) for k in PUBLIC_ENGINE_KEYS}
    return out


def create_app(site: Site, bind_host: str = "127.0.0.1", extra_hosts: list[str] | None = None,
               lifespan: Any = None) -> Starlette:
    def wrap(handler: Handler) -> Handler:
        async def run(request: Request) -> Response:
            try:
                return await handler(request)
            except HttpError as exc:
                return _error(request, site, exc.status, exc.message)
            except Exception as exc:   # a bug costs one answer, never the server
                traceback.print_exc(file=sys.stderr)
                return _error(request, site, 500, f"internal error ({type(exc).__name__}); the host's log has the details")
        return run

    def page(title: str, body: str, request: Request, extra_head: str = "", status: int = 200) -> HTMLResponse:
        return HTMLResponse(html.page(title, body, arena_name=site.arena.config.name,
                                      signed_in=_signed_in(request, site), extra_head=extra_head), status_code=status)

    async def in_thread(fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.to_thread(fn, *args)

    # -- public pages -----------------------------------------------------------------------------
    async def index(request: Request) -> Response:
        board = site.fresh_board() or await in_thread(site.board)
        if _anonymous(request):
            return HTMLResponse(board.page)
        return page("Leaderboard", board.body + site.live_note(), request)

    async def api_leaderboard(request: Request) -> Response:
        board = site.fresh_board() or await in_thread(site.board)
        return Response(board.json, media_type="application/json")

    async def _bot(request: Request) -> dict[str, Any]:
        name = request.path_params["name"]
        limit = _int_param(request, "limit", pages.RECENT_GAMES, 1, 200)
        before = _int_param(request, "before", None, 0, 1 << 62)
        key = (name, limit, before)
        cached, found = site.bots.peek(key)
        if not cached:
            found = await in_thread(site.bots.get, key, lambda: _bot_entry(site, name, limit, before))
        if found is None:
            raise HttpError(404, f"no bot called {name[:60]!r}")
        return found   # type: ignore[no-any-return]

    async def bot_page(request: Request) -> Response:
        found = await _bot(request)
        if _anonymous(request):
            return HTMLResponse(found["page"])
        return page(found["data"]["bot"], found["html"], request)

    async def api_bot(request: Request) -> Response:
        return Response((await _bot(request))["json"], media_type="application/json")

    def _game_id(request: Request) -> int:
        text = request.path_params["game_id"]
        if not text.isdigit() or len(text) > 15:
            raise HttpError(400, f"game id {text[:20]!r}: a whole number is expected")
        return int(text)

    async def game_page(request: Request) -> Response:
        game_id = _game_id(request)
        record = await in_thread(game_record, site.engine, game_id)
        if record is None:
            raise HttpError(404, f"no game {game_id}")
        signed = _author_or_none(request, site)
        parts = await in_thread(pages.stderr_of, site.engine, game_id, signed.id) if signed else []
        table = PartTable()
        moves, notes, opening = record_moves(record)
        dark, light = record["dark"].get("name", "?"), record["light"].get("name", "?")
        title = f"Game {game_id}: {dark} (Dark) vs {light} (Light)"
        shown = replay(table, str(game_id), title, str(record.get("start_position", "")), moves,
                       opening_plies=opening, players=(dark, light), notes=notes)
        head = (f'<p class="arena-nav"><a href="/">{html.esc(site.arena.config.name)}</a> &middot; '
                f'<a href="/api/games/{game_id}">JSON</a></p><h1>{html.esc(title)}</h1>'
                f"<p>{html.esc(str(record.get('game_type', '')).upper())} &middot; result <b>{html.esc(record['result'])}</b> "
                f"({html.esc(record['termination'])}: {html.esc(record['reason'])})</p>")
        text = page_html(title, head, table, [shown])
        block = html.stderr_block(parts)
        if block:
            text = text.replace("</body>", f'<div class="stderr-view">{block}</div></body>', 1)
        return HTMLResponse(text)

    async def api_game(request: Request) -> Response:
        game_id = _game_id(request)
        row = await in_thread(pages.game, site.engine, game_id)
        if row is None:
            raise HttpError(404, f"no game {game_id}")
        record = await in_thread(game_record, site.engine, game_id)
        return JSONResponse({**row, "record": _public_record(record or {})})

    async def live_page(request: Request) -> Response:
        games = site.live_games()
        boards = [board_svg(g["position"], size=360) for g in games]
        fragment = html.live(games, boards)
        if request.query_params.get("fragment") == "1":
            return HTMLResponse(fragment)
        return page("Live", "<h1>Games being played</h1>" + fragment + html.LIVE_SCRIPT, request)

    async def api_live(request: Request) -> Response:
        return JSONResponse({"games": site.live_games()})

    async def season_page(request: Request) -> Response:
        return page("Season", html.season(await in_thread(site.standings)), request)

    async def api_season(request: Request) -> Response:
        return JSONResponse(await in_thread(site.standings))

    async def final_page(request: Request) -> Response:
        return page("Final", html.final(await in_thread(pages.latest_final, site.engine)), request)

    async def api_final(request: Request) -> Response:
        return JSONResponse({"final": await in_thread(pages.latest_final, site.engine)})

    # -- signing in and the author's own view -------------------------------------------------------
    async def signin_form(request: Request) -> Response:
        return page("Sign in", html.signin(), request)

    async def signin(request: Request) -> Response:
        check_form(request)
        form = await request.form(max_fields=5, max_files=0)
        token = str(form.get("token") or "").strip()
        if not token or await in_thread(author_by_token, site.engine, token) is None:
            return page("Sign in", html.signin("This token is not known."), request, status=401)
        response = RedirectResponse("/me", status_code=303)
        response.set_cookie(COOKIE, token, httponly=True, samesite="strict", secure=request.url.scheme == "https",
                            max_age=180 * 24 * 3600)
        return response

    async def signout(request: Request) -> Response:
        check_form(request)
        response = RedirectResponse("/", status_code=303)
        response.delete_cookie(COOKIE)
        return response

    async def me_page(request: Request) -> Response:
        author = current_author(request, site.engine)
        if author is None:
            return RedirectResponse("/signin", status_code=303)
        data = await in_thread(pages.author_view, site.engine, author.id)
        return page("My bots", html.me(author.name, data, site.arena.config.archive.max_mb), request)

    async def api_me(request: Request) -> Response:
        author = require_author(request, site.engine)
        data = await in_thread(pages.author_view, site.engine, author.id)
        return JSONResponse({"author": author.name, "admin": author.is_admin, **data})

    async def api_stderr(request: Request) -> Response:
        author = require_author(request, site.engine)
        game_id = _game_id(request)
        if await in_thread(pages.game, site.engine, game_id) is None:
            raise HttpError(404, f"no game {game_id}")
        parts = await in_thread(pages.stderr_of, site.engine, game_id, author.id)
        return JSONResponse({"game_id": game_id, "stderr": parts})

    # -- writes -------------------------------------------------------------------------------------
    async def _body(request: Request) -> bytes:
        limit = site.arena.config.archive.max_mb << 20
        declared = request.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit + 65536:
            if int(declared) <= DRAIN_FACTOR * limit:   # read and drop it, so the client reads our answer
                async for _ in request.stream():        # (refused mid-upload, it would see a broken pipe)
                    pass
            raise HttpError(413, f"the upload is {declared} bytes; an archive may be at most {site.arena.config.archive.max_mb} MB")
        content_type = request.headers.get("content-type", "")
        if content_type.startswith("multipart/form-data"):
            if declared is None:   # a form's file would be spooled to disk whatever its size
                raise HttpError(411, "an upload form must say its Content-Length")
            form = await request.form(max_files=1, max_fields=5)
            upload = form.get("archive")
            if upload is None or isinstance(upload, str):
                raise HttpError(400, "the form has no file field 'archive'")
            data = await upload.read(limit + 1)
        else:
            chunks, size = [], 0
            async for chunk in request.stream():
                size += len(chunk)
                if size > limit:
                    raise HttpError(413, f"the archive is larger than {site.arena.config.archive.max_mb} MB")
                chunks.append(chunk)
            data = b"".join(chunks)
        if len(data) > limit:
            raise HttpError(413, f"the archive is larger than {site.arena.config.archive.max_mb} MB")
        if not data:
            raise HttpError(400, "the request has no archive (send the zip or tar.gz as the body)")
        return data

    async def _submit(request: Request) -> tuple[Any, Any]:
        author = require_author(request, site.engine)
        check_write(request)
        data = await _body(request)
        try:
            row = await in_thread(submit_archive, site.arena, site.engine, author.id, data)
        except SubmissionError as exc:
            raise HttpError(exc.status, str(exc)) from None
        site.changed()
        return author, row

    async def api_submit(request: Request) -> Response:
        _, row = await _submit(request)
        return JSONResponse({"bot": row.bot, "version": row.number, "version_id": row.id, "status": row.status,
                             "reason": row.reason, "page": f"/bots/{row.bot}"}, status_code=202)

    async def me_submit(request: Request) -> Response:
        check_form(request)
        try:
            await _submit(request)
        except HttpError as exc:
            author = current_author(request, site.engine)
            if author is None or exc.status in (401, 403):
                raise
            data = await in_thread(pages.author_view, site.engine, author.id)
            body = f'<p class="error">Refused: {html.esc(exc.message)}</p>' + html.me(author.name, data, site.arena.config.archive.max_mb)
            return page("My bots", body, request, status=exc.status)
        return RedirectResponse("/me", status_code=303)

    async def api_delete(request: Request) -> Response:
        author = require_author(request, site.engine)
        check_write(request)
        name = request.path_params["name"]
        await in_thread(_bot_action, lambda: bots_db.delete(site.engine, name, author.id, author.is_admin))
        site.changed()
        return JSONResponse({"bot": name, "deleted": True})

    async def api_admin_bot(request: Request) -> Response:
        require_admin(request, site.engine)
        check_write(request)
        name, action = request.path_params["name"], request.path_params["action"]
        if action == "suspend":
            changed = await in_thread(_bot_action, lambda: bots_db.suspend(site.engine, name, "suspended by the host"))
        elif action == "resume":
            changed = await in_thread(_bot_action, lambda: bots_db.resume(site.engine, name))
        else:
            raise HttpError(404, f"no admin action {action[:30]!r} (suspend, resume)")
        site.changed()
        return JSONResponse({"bot": name, "action": action, "versions_changed": changed})

    async def api_admin_final(request: Request) -> Response:
        require_admin(request, site.engine)
        check_write(request)
        try:
            body = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise HttpError(400, "the body must be JSON: {\"top\": N, \"games\": G}") from None
        if not isinstance(body, dict):
            raise HttpError(400, "the body must be a JSON object: {\"top\": N, \"games\": G}")
        top, games = body.get("top", 8), body.get("games", 2)
        if not isinstance(top, int) or isinstance(top, bool) or not 2 <= top <= 64:
            raise HttpError(400, "top must be a whole number 2..64")
        if not isinstance(games, int) or isinstance(games, bool) or not 2 <= games <= 1000 or games % 2:
            raise HttpError(400, "games must be an even whole number 2..1000")
        if site.finals is None:
            raise HttpError(503, "this server cannot run a final (start it with isaac-arena serve)")
        started = site.finals.start(top, games)
        if not started:
            raise HttpError(409, "a final is running already")
        return JSONResponse({"final": "started", "top": top, "games": games}, status_code=202)

    async def favicon(request: Request) -> Response:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    routes = [
        Route("/", wrap(index)), Route("/favicon.ico", favicon), Route("/api/leaderboard", wrap(api_leaderboard)),
        Route("/bots/{name}", wrap(bot_page)), Route("/api/bots/{name}", wrap(api_bot), methods=["GET"]),
        Route("/api/bots/{name}", wrap(api_delete), methods=["DELETE"]),
        Route("/games/{game_id}", wrap(game_page)), Route("/api/games/{game_id}", wrap(api_game)),
        Route("/live", wrap(live_page)), Route("/api/live", wrap(api_live)),
        Route("/season", wrap(season_page)), Route("/api/season", wrap(api_season)),
        Route("/final", wrap(final_page)), Route("/api/final", wrap(api_final)),
        Route("/signin", wrap(signin_form), methods=["GET"]), Route("/signin", wrap(signin), methods=["POST"]),
        Route("/signout", wrap(signout), methods=["POST"]),
        Route("/me", wrap(me_page)), Route("/api/me", wrap(api_me)),
        Route("/me/submit", wrap(me_submit), methods=["POST"]),
        Route("/api/me/games/{game_id}/stderr", wrap(api_stderr)),
        Route("/api/bots", wrap(api_submit), methods=["POST"]),
        Route("/api/admin/bots/{name}/{action}", wrap(api_admin_bot), methods=["POST"]),
        Route("/api/admin/final", wrap(api_admin_final), methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

    async def not_found(request: Request, exc: Exception) -> Response:
        status = getattr(exc, "status_code", 404)
        detail = {404: "no such page", 405: "this address does not take that method"}.get(status, "bad request")
        return _error(request, site, status, detail)

    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={404: not_found, 405: not_found},
                    middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts(bind_host, extra_hosts or []))])
    app.state.site = site
    return app


def _bot_entry(site: Site, name: str, limit: int | None, before: int | None) -> dict[str, Any] | None:
    """A bot's page as data, HTML body and JSON, for the cache (None: no such bot)."""
    data = pages.bot(site.engine, name, limit or pages.RECENT_GAMES, before)
    if data is None:
        return None
    body = html.bot(data)
    return {"data": data, "html": body, "json": json.dumps(data).encode(),
            "page": html.page(data["bot"], body, arena_name=site.arena.config.name).encode()}


def _bot_action(action: Callable[[], Any]) -> Any:
    try:
        return action()
    except bots_db.BotError as exc:
        raise HttpError(exc.status, str(exc)) from None
