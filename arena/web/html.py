"""The pages as HTML, drawn on the server from the same data the JSON API returns.

Plain HTML and one stylesheet (static/arena.css): tables that could be wider than a phone scroll
in their own box, so no page scrolls sideways at 360 px. Every value from the database or a bot
is escaped here; no page runs a script except the live page's refresh and the game replay.
"""

from __future__ import annotations

import time
from html import escape
from typing import Any
from urllib.parse import quote

NAV = (("/", "Leaderboard"), ("/live", "Live"), ("/season", "Season"), ("/final", "Final"), ("/me", "My bots"))


def esc(value: object) -> str:
    return escape("" if value is None else str(value), quote=True)


def when(t: float | None) -> str:
    if not t:
        return "-"
    ago = time.time() - t
    if ago < 90:
        return f"{max(0, int(ago))} s ago"
    if ago < 5400:
        return f"{int(ago // 60)} min ago"
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(t))


def page(title: str, body: str, *, arena_name: str, signed_in: str | None = None, extra_head: str = "") -> str:
    links = " ".join(f'<a href="{href}">{esc(text)}</a>' for href, text in NAV)
    who = (f'<form method="post" action="/signout" class="who">{esc(signed_in)} <button>Sign out</button></form>'
           if signed_in else '<a class="who" href="/signin">Sign in</a>')
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{esc(title)} - {esc(arena_name)}'
            f'</title><meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">'
            f'<link rel="stylesheet" href="/static/arena.css">{extra_head}</head>\n<body><header><b>{esc(arena_name)}</b>'
            f"<nav>{links}</nav>{who}</header>\n<main>{body}</main></body></html>\n")


def sparkline(points: list[float], width: int = 90, height: int = 22) -> str:
    """The rating's recent course as a small inline SVG (conservative ratings, oldest first)."""
    if len(points) < 2:
        return '<span class="spark-none">-</span>'
    low, high = min(points), max(points)
    span = (high - low) or 1.0
    step = width / (len(points) - 1)
    coords = " ".join(f"{i * step:.1f},{height - 2 - (p - low) / span * (height - 4):.1f}" for i, p in enumerate(points))
    return (f'<svg class="spark" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" '
            f'aria-label="rating from {points[0]:.1f} to {points[-1]:.1f}"><polyline fill="none" stroke="currentColor" '
            f'stroke-width="1.5" points="{coords}"/></svg>')


def rating_text(row: dict[str, Any]) -> str:
    return f"{row['mu']:.1f} &plusmn; {3 * row['sigma']:.1f}"


def bot_link(name: str | None) -> str:
    if not name:
        return "?"
    return f'<a href="/bots/{quote(name)}">{esc(name)}</a>'


def table(head: list[str], rows: list[list[str]], css: str = "") -> str:
    th = "".join(f"<th>{h}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f'<div class="scroll"><table class="{css}"><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table></div>'


def leaderboard(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return ("<h1>Leaderboard</h1><p>No bot is playing yet. Authors submit bots with "
                "<code>isaac-arena submit</code> or from <a href=\"/me\">My bots</a>.</p>")
    body = [[str(r["rank"]), bot_link(r["bot"]), esc(r["author"]), f"v{r['version']}", rating_text(r),
             f"{r['conservative']:.1f}", str(r["games"]), f"{r['wins']}/{r['draws']}/{r['losses']}",
             when(r["last_game_at"]), sparkline(r["spark"])] for r in rows]
    return ('<h1>Leaderboard</h1><p class="note">Rating &mu; &plusmn; 3&sigma; (OpenSkill); ranked by the conservative '
            'estimate &mu; &minus; 3&sigma;.</p>'
            + table(["#", "Bot", "Author", "Version", "Rating", "Rank by", "Games", "W/D/L", "Last game", "Trend"],
                    body, "board"))


def _player(side: dict[str, Any] | None) -> str:
    if side is None:
        return "?"
    return f"{bot_link(side['bot'])} v{side['version']}"


def games_table(games: list[dict[str, Any]], stderr_links: bool = False) -> str:
    if not games:
        return "<p>No games yet.</p>"
    rows = []
    for g in games:
        cells = [f'<a href="/games/{g["id"]}">{g["id"]}</a>', esc(g["game_type"]), _player(g["dark"]),
                 _player(g["light"]), esc(g["result"]), esc(g["termination"]), str(g["plies"]), when(g["finished_at"])]
        if stderr_links:
            cells.append(f'<a href="/games/{g["id"]}#stderr">stderr</a>' if g.get("stderr") else "-")
        rows.append(cells)
    head = ["Game", "Type", "Dark", "Light", "Result", "Ended by", "Plies", "When"] + (["Stderr"] if stderr_links else [])
    return table(head, rows, "games")


def check_verdicts(check: dict[str, Any] | None) -> str:
    if not check:
        return "<p>No check report yet.</p>"
    tiers = check.get("tiers") or {}
    head = " &middot; ".join(f"{esc(t)}: <b>{esc(v.get('verdict'))}</b>" for t, v in tiers.items())
    rows = [[esc(r["tier"]), esc(r["name"]), f'<span class="st-{esc(r["status"]).lower()}">{esc(r["status"])}</span>']
            for r in check.get("results", [])]
    return f"<p>{head}</p>" + table(["Tier", "Check", "Status"], rows, "check")


def bot(data: dict[str, Any]) -> str:
    versions = [[f"v{v['version']}", esc(v["status"]), esc(v["reason"]), rating_text(v), str(v["games"]),
                 f"{v['wins']}/{v['draws']}/{v['losses']}", sparkline(v["spark"]), when(v["created_at"])]
                for v in data["versions"]]
    against = [[bot_link(a["opponent"]), str(a["games"]), f"{a['wins']}/{a['draws']}/{a['losses']}",
                f"{100 * a['score']:.1f}%"] for a in data["against"]]
    return (f"<h1>{esc(data['bot'])}</h1><p>by {esc(data['author'])}</p><h2>Versions</h2>"
            + table(["Version", "Status", "Why", "Rating", "Games", "W/D/L", "Trend", "Submitted"], versions)
            + "<h2>Recent games</h2>" + games_table(data["recent_games"])
            + "<h2>Score against each opponent</h2>"
            + (table(["Opponent", "Games", "W/D/L", "Score"], against) if against else "<p>No games yet.</p>")
            + "<h2>Check (latest version)</h2>" + check_verdicts(data["check"]))


def me(author: str, data: dict[str, Any], max_mb: int) -> str:
    form = ('<h2>Submit a version</h2><form method="post" action="/me/submit" enctype="multipart/form-data" '
            'class="upload"><input type="file" name="archive" accept=".zip,.tar.gz,.tgz" required> '
            f'<button>Upload</button></form><p class="note">A zip or tar.gz of at most {max_mb} MB with '
            '<code>arena.toml</code> at its top (name, command, optional build).</p>')
    parts = [f"<h1>My bots ({esc(author)})</h1>", form]
    if not data["bots"]:
        parts.append("<p>You have no bot yet.</p>")
    for b in data["bots"]:
        parts.append(f'<section class="mybot"><h2>{bot_link(b["bot"])}</h2>')
        for v in b["versions"]:
            check = v["check"]
            check_text = esc(check.get("text") or check.get("error") or "") if check else ""
            parts.append(
                f'<article class="version"><h3>v{v["version"]}: <span class="status">{esc(v["status"])}</span></h3>'
                f'<p class="reason">{esc(v["reason"])}</p><p>{rating_text(v)} &middot; {v["games"]} games &middot; '
                f'submitted {when(v["created_at"])}</p>'
                f'<details><summary>Build log</summary><pre class="log">{esc(v["build_log"]) or "(no build command)"}</pre></details>'
                f'<details{" open" if v["status"] == "rejected" else ""}><summary>Check output</summary>'
                f'<pre class="log">{check_text or "(not checked yet)"}</pre></details></article>')
        parts.append("<h3>Recent games</h3>" + games_table(b["recent_games"], stderr_links=True) + "</section>")
    return "".join(parts)


def stderr_block(parts: list[dict[str, Any]]) -> str:
    if not parts:
        return ""
    out = ['<section id="stderr"><h2>Your bot\'s stderr in this game</h2>']
    for p in parts:
        cut = p["total"] - len(p["head"].encode()) - len(p["tail"].encode())
        out.append(f"<h3>{esc(p['bot'])} v{p['version']} ({p['total']} bytes)</h3><pre class=\"log\">{esc(p['head'])}"
                   + (f"\n[... {cut} bytes ...]\n" if cut > 0 else "") + f"{esc(p['tail'])}</pre>")
    return "".join(out) + "</section>"


def signin(message: str = "") -> str:
    note = f'<p class="error">{esc(message)}</p>' if message else ""
    return (f"<h1>Sign in</h1>{note}<form method=\"post\" action=\"/signin\" class=\"signin\">"
            '<label>Your token <input type="password" name="token" autocomplete="current-password" required></label> '
            "<button>Sign in</button></form><p class=\"note\">The host gave you a token with "
            "<code>isaac-arena author add</code>. It stays in this browser as a cookie until you sign out.</p>")


def live(games: list[dict[str, Any]], boards: list[str]) -> str:
    if not games:
        return '<div id="live"><p>No game is being played right now.</p></div>'
    cards = []
    for g, svg in zip(games, boards):
        cards.append(f'<article class="livegame"><h3>{esc(g["dark"])} (Dark) vs {esc(g["light"])} (Light)</h3>'
                     f'<p>{len(g["moves"])} plies</p><div class="board">{svg}</div></article>')
    return '<div id="live">' + "".join(cards) + "</div>"


LIVE_SCRIPT = """<script>
setInterval(async () => {
  try {
    const r = await fetch('/live?fragment=1', {cache: 'no-store'});
    if (r.ok) document.getElementById('live').outerHTML = await r.text();
  } catch (e) { /* the server restarts: try again */ }
}, 2000);
</script>"""


def final(data: dict[str, Any] | None) -> str:
    if data is None:
        return "<h1>Final ranking</h1><p>No final round-robin has been run yet (the host runs <code>isaac-arena final</code>).</p>"
    rows = [[str(r["rank"]), bot_link(r["bot"]), f"v{r['version']}", esc(r.get("author")),
             "-" if r.get("elo") is None else f"{r['elo']:+.1f}",
             "-" if r.get("low") is None else f"{r['low']:+.1f} .. {r['high']:+.1f}", f"{r['points']:g}", str(r["games"])]
            for r in data["ranking"]]
    return (f"<h1>Final ranking</h1><p>{esc(data['status'])}: round-robin of the top {data['top']} "
            f"({data['games']} games per encounter), {when(data['finished_at'] or data['created_at'])}. "
            f"{esc(data['message'])}</p><p class=\"note\">Maximum-likelihood Elo over the final's games (the referee's fit, "
            f"average 0) with its 95% interval.</p>"
            + table(["#", "Bot", "Version", "Author", "Elo", "95% interval", "Points", "Games"], rows))


def season(data: dict[str, Any]) -> str:
    fitted = data["ratings"]
    rows = []
    for rank, e in enumerate(fitted["engines"], 1):
        bot, _, version = e["name"].rpartition("-v")
        rows.append([str(rank), bot_link(bot), f"v{esc(version)}", "-" if e["elo"] is None else f"{e['elo']:+.1f}",
                     "-" if e["low"] is None else f"{e['low']:+.1f} .. {e['high']:+.1f}", f"{e['points']:g}",
                     str(e["games"])])
    w = fitted["first_move_advantage"]
    first = "" if w["elo"] is None else f" First-move advantage {w['elo']:+.1f} Elo ({w['low']:+.1f} .. {w['high']:+.1f})."
    return (f"<h1>Season standings</h1><p class=\"note\">Every ladder game so far ({data['games']}), every version: "
            f"the referee's maximum-likelihood Elo ({esc(fitted['method'])}, average 0) with its 95% interval.{first}</p>"
            + (table(["#", "Bot", "Version", "Elo", "95% interval", "Points", "Games"], rows) if rows
               else "<p>No games yet.</p>"))
