"""Who is asking, and whether a browser form really comes from our own pages.

* A script sends its token as `Authorization: Bearer TOKEN`; a browser signs in once and keeps the
  token in an HttpOnly, SameSite=Strict cookie.
* A write made with the cookie (a form) must come from this server's own pages: its Origin (or,
  without one, its Referer) must name this host, so a page elsewhere cannot submit or delete in
  a signed-in author's name. Bearer requests need no such check (a browser never adds that header
  by itself).
* Host names the server answers to: loopback names and the bound address, plus any the host adds
  (`--allowed-host`, the public name behind a reverse proxy); another name (DNS rebinding) gets 400.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from starlette.requests import Request

from ..db.authors import Author, author_by_token

COOKIE = "arena_token"
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1", "[::1]")


class HttpError(Exception):
    """An answer other than success: its status and one sentence (never a traceback)."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


def token_of(request: Request) -> tuple[str | None, bool]:
    """(token, whether it came from the cookie)."""
    header = request.headers.get("authorization")
    if header is not None:
        scheme, _, value = header.partition(" ")
        if scheme.lower() != "bearer" or not value.strip():
            raise HttpError(401, "the Authorization header must be 'Bearer <token>'")
        return value.strip(), False
    cookie = request.cookies.get(COOKIE)
    return (cookie, True) if cookie else (None, False)


def current_author(request: Request, engine: Any) -> Author | None:
    """The signed-in author, None when no token was given; 401 for a token that matches nobody."""
    token, _ = token_of(request)
    if token is None:
        return None
    author = author_by_token(engine, token)
    if author is None:
        raise HttpError(401, "this token is not known (it may have been replaced): sign in again")
    return author


def require_author(request: Request, engine: Any) -> Author:
    author = current_author(request, engine)
    if author is None:
        raise HttpError(401, "sign in first: send 'Authorization: Bearer <token>' (or sign in on /signin)")
    return author


def require_admin(request: Request, engine: Any) -> Author:
    author = require_author(request, engine)
    if not author.is_admin:
        raise HttpError(403, "only the host's admin token may do this")
    return author


def same_origin(request: Request) -> bool:
    """True when the request's Origin (or Referer) names this server."""
    host = request.headers.get("host", "")
    origin = request.headers.get("origin")
    if origin and origin != "null":
        return urlsplit(origin).netloc == host
    referer = request.headers.get("referer")
    if referer:
        return urlsplit(referer).netloc == host
    return False


def check_form(request: Request) -> None:
    """A browser form's write: refused unless it comes from our own pages."""
    if not same_origin(request):
        raise HttpError(403, "this form was not sent from this arena's own pages (Origin check)")


def check_write(request: Request) -> None:
    """An API write: with the cookie it is a browser's and must pass the Origin check."""
    _, from_cookie = token_of(request)
    if from_cookie:
        check_form(request)


def allowed_hosts(bind_host: str, extra: list[str]) -> list[str]:
    if bind_host in ("0.0.0.0", "::", "") or "*" in extra:
        return ["*"]
    return sorted({*LOOPBACK_NAMES, bind_host.lower(), *(h.lower() for h in extra)})
