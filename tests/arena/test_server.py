"""A real `isaac-arena serve` on a loopback port: tokens and refusals (401/403/400/404/413 with a message,
never a traceback), the Origin check on forms, a submission from `isaac-arena submit` that is checked,
enters the ladder and plays, and every page and its JSON."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from typing import Any

import pytest

from tests.arena.bots import chatty_bot, random_bot, tar_gz, write, zip_bytes
from tests.arena.conftest import RunningServer, add_author, arena_cli, make_arena

pytestmark = pytest.mark.slow

EDITS = {"max_mb = 20": "max_mb = 1"}


def request(server: RunningServer, path: str, *, method: str = "GET", data: bytes | None = None,
            token: str | None = None, headers: dict[str, str] | None = None) -> tuple[int, Any, dict[str, str]]:
    """(status, parsed JSON or text, headers); never raises for an HTTP status."""
    all_headers = dict(headers or {})
    if token:
        all_headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(server.url + path, data=data, method=method, headers=all_headers)

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: Any, **kwargs: Any) -> None:
            return None

    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(req, timeout=30) as answer:
            status, body, got = answer.status, answer.read(), dict(answer.headers)
    except urllib.error.HTTPError as exc:
        status, body, got = exc.code, exc.read(), dict(exc.headers)
    text = body.decode("utf-8", "replace")
    assert "Traceback" not in text, text[:2000]
    try:
        return status, json.loads(text), got
    except ValueError:
        return status, text, got


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Any:
    root = tmp_path_factory.mktemp("site")
    directory, admin = make_arena(root / "arena", edits=EDITS)
    tokens = {"admin": admin, "alice": add_author(directory, "alice"), "bob": add_author(directory, "bob")}
    server = RunningServer(directory).start()
    try:
        yield server, tokens, root
    finally:
        server.stop()


def wait_for(what: Any, timeout: float = 60.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = what()
        if found:
            return found
        time.sleep(0.3)
    raise AssertionError("timed out")


def test_tokens_and_bad_requests_get_a_status_and_a_sentence(site):
    server, tokens, _ = site
    archive = tar_gz(random_bot("anon"))
    cases = [
        (dict(path="/api/bots", method="POST", data=archive), 401, "sign in first"),
        (dict(path="/api/bots", method="POST", data=archive, token="ia_wrong"), 401, "not known"),
        (dict(path="/api/bots", method="POST", data=archive, headers={"Authorization": "Basic abc"}), 401,
         "must be 'Bearer <token>'"),
        (dict(path="/api/me"), 401, "sign in first"),
        (dict(path="/api/admin/bots/x/suspend", method="POST", token=tokens["alice"]), 403, "admin token"),
        (dict(path="/api/admin/final", method="POST", data=b"{not json", token=tokens["admin"]), 400, "must be JSON"),
        (dict(path="/api/admin/final", method="POST", data=b'{"top": "8"}', token=tokens["admin"]), 400, "top must be"),
        (dict(path="/api/bots", method="POST", data=b"hello", token=tokens["alice"]), 400, "not a zip or tar.gz"),
        (dict(path="/api/bots", method="POST", data=b"", token=tokens["alice"]), 400, "no archive"),
        (dict(path="/api/bots", method="POST", data=b"\x1f\x8b" + b"\0" * (2 << 20), token=tokens["alice"]), 413,
         "at most 1 MB"),
        (dict(path="/api/bots", method="POST", data=tar_gz({"x.py": b"1"}), token=tokens["alice"]), 400,
         "no arena.toml"),
        (dict(path="/api/bots/nobody"), 404, "no bot called 'nobody'"),
        (dict(path="/api/bots/x?limit=abc"), 400, "limit='abc'"),
        (dict(path="/api/bots/x?limit=0"), 400, "must be 1..200"),
        (dict(path="/api/games/abc"), 400, "a whole number"),
        (dict(path="/api/games/123456"), 404, "no game 123456"),
        (dict(path="/api/nothing-here"), 404, "no such page"),
        (dict(path="/api/leaderboard", method="POST"), 405, "does not take that method"),
        (dict(path="/api/bots/x", method="DELETE"), 401, "sign in first"),
    ]
    for kwargs, status, words in cases:
        got, body, _ = request(server, **kwargs)   # type: ignore[arg-type]
        assert got == status, (kwargs["path"], got, body)
        assert isinstance(body, dict) and words in body["error"], (kwargs["path"], body)
    got, body, _ = request(server, "/", headers={"Host": "evil.example"})
    assert got == 400
    got, body, _ = request(server, "/bots/nobody")
    assert got == 404 and "no bot called" in body


def test_forms_must_come_from_our_own_pages(site):
    server, tokens, _ = site
    form = f"token={tokens['alice']}".encode()
    kind = {"Content-Type": "application/x-www-form-urlencoded"}
    got, body, _ = request(server, "/signin", method="POST", data=form, headers={**kind, "Origin": "http://evil.example"})
    assert got == 403 and "Origin check" in body
    got, body, _ = request(server, "/signin", method="POST", data=b"token=ia_wrong",
                           headers={**kind, "Origin": server.url})
    assert got == 401 and "not known" in body
    got, _, headers = request(server, "/signin", method="POST", data=form, headers={**kind, "Origin": server.url})
    assert got == 303 and headers["location"] == "/me"
    cookie = headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie.replace("Strict", "strict")
    token_cookie = cookie.split(";")[0]
    got, body, _ = request(server, "/me", headers={"Cookie": token_cookie})
    assert got == 200 and "My bots (alice)" in body
    # the leaderboard a visitor gets as ready bytes is not the one a signed-in author sees
    for _ in range(2):   # the second from the cache
        assert 'href="/signin">Sign in' in request(server, "/")[1]
        got, body, _ = request(server, "/", headers={"Cookie": token_cookie})
        assert got == 200 and "alice <button>Sign out" in body and 'href="/signin"' not in body
    # a write with the cookie from another site is refused, even with a valid cookie
    got, body, _ = request(server, "/api/bots", method="POST", data=tar_gz(random_bot("csrf")),
                           headers={"Cookie": token_cookie, "Origin": "http://evil.example"})
    assert got == 403 and "Origin check" in body["error"]
    got, body, _ = request(server, "/api/bots/csrf")
    assert got == 404


def test_a_submitted_bot_is_checked_plays_and_shows_on_every_page(site):
    server, tokens, root = site
    for author, name, pack in (("alice", "chatty-a", tar_gz), ("bob", "chatty-b", zip_bytes)):
        archive = write(root / f"{name}.archive", pack(chatty_bot(name), prefix=f"{name}-folder/"))
        done = arena_cli("submit", server.url, tokens[author], str(archive))
        assert done.returncode == 0, done.stderr
        assert f"{name} v1: queued" in done.stdout
    # bob may not take alice's bot name
    done = arena_cli("submit", server.url, tokens["bob"], str(root / "chatty-a.archive"))
    assert done.returncode == 1 and "(403): the bot name 'chatty-a' belongs to another author" in done.stderr

    def board() -> list[dict[str, Any]]:
        rows = request(server, "/api/leaderboard")[1]["leaderboard"]
        return rows if len(rows) == 2 and all(r["games"] >= 4 for r in rows) else []

    rows = wait_for(board, 90)
    assert {r["bot"] for r in rows} == {"chatty-a", "chatty-b"}
    assert all(r["wins"] + r["draws"] + r["losses"] == r["games"] for r in rows)
    status, page, _ = request(server, "/")
    assert status == 200 and "chatty-a" in page and "<svg class=\"spark\"" in page
    for _ in range(2):   # made, then from the cache: a visitor's ready page, an author's own
        assert 'href="/signin">Sign in' in request(server, "/bots/chatty-a")[1]
        status, page, _ = request(server, "/bots/chatty-a", token=tokens["bob"])
        assert status == 200 and "bob <button>Sign out" in page and "chatty-a" in page
    status, bot, _ = request(server, "/api/bots/chatty-a")
    assert status == 200 and bot["author"] == "alice" and bot["check"]["ok"] is True
    assert bot["against"][0]["opponent"] == "chatty-b" and bot["recent_games"]
    game_id = bot["recent_games"][0]["id"]
    status, game, _ = request(server, f"/api/games/{game_id}")
    assert status == 200 and game["record"]["moves"], (game["termination"], game["reason"])
    assert set(game["record"]["dark"]) == {"name", "options", "tc"}   # no command or directory of the host
    status, html, _ = request(server, f"/games/{game_id}")
    assert status == 200 and 'id="replay-data"' in html and "chatty" in html
    # the authors' own view: check output and build log; stderr of their own bot only
    status, mine, _ = request(server, "/api/me", token=tokens["alice"])
    assert status == 200 and [b["bot"] for b in mine["bots"]] == ["chatty-a"]
    assert "required: PASS" in mine["bots"][0]["versions"][0]["check"]["text"]
    status, own, _ = request(server, f"/api/me/games/{game_id}/stderr", token=tokens["alice"])
    assert status == 200 and own["stderr"][0]["bot"] == "chatty-a"
    assert "chatty thinks about: go movetime 1000" in own["stderr"][0]["head"]
    status, other, _ = request(server, f"/api/me/games/{game_id}/stderr", token=tokens["bob"])
    assert [p["bot"] for p in other["stderr"]] == ["chatty-b"]
    status, live, _ = request(server, "/api/live")
    assert status == 200 and isinstance(live["games"], list)
    # the host suspends and resumes; an author deletes only their own bot
    assert request(server, "/api/bots/chatty-a", method="DELETE", token=tokens["bob"])[0] == 403
    assert request(server, "/api/admin/bots/chatty-b/suspend", method="POST", token=tokens["admin"])[0] == 200
    assert [r["bot"] for r in request(server, "/api/leaderboard")[1]["leaderboard"]] == ["chatty-a"]
    status, body, _ = request(server, "/api/bots/chatty-b")
    assert body["versions"][0]["status"] == "suspended" and body["versions"][0]["reason"] == "suspended by the host"
    assert request(server, "/api/admin/bots/chatty-b/resume", method="POST", token=tokens["admin"])[0] == 200
    assert request(server, "/api/bots/chatty-a", method="DELETE", token=tokens["alice"])[0] == 200
    assert request(server, "/api/bots/chatty-a")[0] == 404
