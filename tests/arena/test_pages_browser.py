"""The leaderboard and an author's own page in Chromium, at a phone's width (360 x 740) and a desktop's
(1280 x 800): nothing wider than the screen, the rating's sparkline drawn, signing in with the form,
the author's build log and check output, the upload form usable by a finger; no console error."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arena.config import load_arena
from arena.db import authors as authors_db
from arena.db import bots as bots_db
from arena.db import results
from arena.db.database import open_database
from arena.ratings import Rating, rate, spark_after
from tests.arena.conftest import RunningServer, make_arena
from tests.support.browser import browser, console_errors  # noqa: F401  (a fixture)

pytestmark = pytest.mark.browser
FINGER_PX = 40


def seed(directory: Path) -> str:
    """Ten bots with a season of games between them; alice's token."""
    engine = open_database(load_arena(directory).database_url())
    alice, token = authors_db.add_author(engine, "alice")
    rows = []
    for i in range(10):
        author = alice if i == 0 else authors_db.add_author(engine, f"author-{i}")[0]
        row = bots_db.new_submission(engine, author.id, f"bot-number-{i}", "x.zip", "0" * 64, ["./bot"], "make")
        report = {"ok": True, "tiers": {"required": {"verdict": "PASS"}}, "text": "required: PASS (9 passed)",
                  "results": [{"name": "start-up", "tier": "required", "status": "PASS", "detail": "uciok after 9 ms"}]}
        bots_db.set_status(engine, row.id, "checking", "checked", build_log="gcc -O2 -o bot bot.c\n" * 3,
                           check_report=json.dumps(report))
        bots_db.activate(engine, row.id, "playing: the check's required tier passed")
        rows.append(row)
    ratings = {row.id: Rating() for row in rows}
    sparks: dict[int, list[float]] = {row.id: [] for row in rows}
    for n in range(60):
        a, b = rows[n % 10], rows[(n * 3 + 1) % 10]
        if a.id == b.id:
            continue
        pair = results.new_pair(engine, "hari", a.id, b.id, 0, 2)
        result = "1-0" if a.id < b.id else "0-1"
        ra, rb = rate(ratings[a.id], ratings[b.id], result)
        ratings[a.id], ratings[b.id] = ra, rb
        sparks[a.id], sparks[b.id] = spark_after(sparks[a.id], ra), spark_after(sparks[b.id], rb)
        record = {"game_id": pair.game_id(0), "game_type": "hari", "result": result, "termination": "normal",
                  "reason": "more points", "moves": [], "opening": []}
        results.store_game(engine, pair, record,
                           results.SideUpdate(a.id, ra, 1.0 if result == "1-0" else 0.0, False, 0, sparks[a.id]),
                           results.SideUpdate(b.id, rb, 0.0 if result == "1-0" else 1.0, False, 0, sparks[b.id]),
                           [results.StderrPart(a.id, "hello", "", 5)])
        results.finish_pair(engine, pair.id)
    engine.dispose()
    return token


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Any:
    directory, _ = make_arena(tmp_path_factory.mktemp("pages") / "arena")
    token = seed(directory)
    server = RunningServer(directory, "--no-ladder").start()
    try:
        yield server, token
    finally:
        server.stop()


def wait(driver: Any, condition: Any, what: str) -> None:
    from selenium.webdriver.support.ui import WebDriverWait
    WebDriverWait(driver, 20).until(lambda d: condition(), message=f"waiting for {what}")


def sized(driver: Any, width: int, height: int, phone: bool) -> None:
    if phone:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": width, "height": height, "deviceScaleFactor": 2, "mobile": True})
    else:
        driver.set_window_size(width, height)


def overflow(driver: Any) -> int:
    return int(driver.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth"))


def small_or_off_screen(driver: Any) -> list[str]:
    return driver.execute_script("""
        const out = [], width = document.documentElement.clientWidth;
        for (const el of document.querySelectorAll('main button, main input, header button')) {
          const r = el.getBoundingClientRect();
          if (r.width === 0 && r.height === 0) continue;
          if (r.left < 0 || r.right > width + 0.5) out.push(el.outerHTML.slice(0, 60) + ' off screen');
          if (r.height < arguments[0]) out.push(el.outerHTML.slice(0, 60) + ' ' + r.height + ' px high');
        }
        return out;""", FINGER_PX)


@pytest.mark.parametrize(("width", "height", "phone"), [(360, 740, True), (1280, 800, False)])
def test_leaderboard_and_an_authors_page(site, browser, width, height, phone):  # noqa: F811
    server, token = site
    sized(browser, width, height, phone)
    browser.get(server.url + "/")
    assert browser.title.startswith("Leaderboard")
    rows = browser.find_elements("css selector", "table.board tbody tr")
    assert len(rows) == 10
    assert rows[0].find_elements("css selector", "svg.spark polyline"), "the rating's sparkline"
    assert overflow(browser) <= 0, "the page never scrolls sideways: the table scrolls in its own box"
    box = browser.execute_script("const r = document.querySelector('.scroll').getBoundingClientRect();"
                                 "return [r.left, r.right, document.documentElement.clientWidth];")
    assert box[0] >= 0 and box[1] <= box[2] + 0.5, box
    rows[0].find_element("css selector", "td:nth-child(2) a").click()
    wait(browser, lambda: "/bots/" in browser.current_url and "Versions" in browser.page_source, "the bot's page")
    assert overflow(browser) <= 0
    browser.get(server.url + "/signin")
    browser.find_element("css selector", "input[name=token]").send_keys(token)
    browser.find_element("css selector", "form.signin button").click()
    wait(browser, lambda: browser.current_url.endswith("/me"), "the author's page")
    heading = browser.find_element("css selector", "main h1").text
    assert heading == "My bots (alice)"
    assert [s.text for s in browser.find_elements("css selector", "section.mybot h2")] == ["bot-number-0"]
    for summary in browser.find_elements("css selector", "article.version summary"):
        summary.click()
    logs = [pre.text for pre in browser.find_elements("css selector", "pre.log")]
    assert any("gcc -O2 -o bot bot.c" in text for text in logs) and any("required: PASS" in text for text in logs)
    assert overflow(browser) <= 0
    if phone:
        assert small_or_off_screen(browser) == []
    browser.find_element("css selector", "header form.who button").click()   # sign out
    wait(browser, lambda: [a.text for a in browser.find_elements("css selector", "header a.who")] == ["Sign in"],
         "signed out")
    assert console_errors(browser) == []
