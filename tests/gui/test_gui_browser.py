"""The web GUI in a real browser (headless Chromium): whole games entered by clicking.

The test reads only what the page offers (the steps the server listed, in `#entry`'s
data-options) and enters them the way a person would: clicking pieces and cells of the SVG
board, or the buttons for discards and passes. Screenshots are checked to be boards, not blank.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from tests.gui.page import CELL, Page
from tests.support.browser import browser, png_colours  # noqa: F401  (browser is a fixture)
from tests.support.gui_server import serving

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server():
    yield from serving()


def board_screenshot(page: Page, path: Path) -> bytes:
    board = page.el("#board")
    assert board.size["width"] >= 400 and board.size["height"] >= 400, board.size
    png = board.screenshot_as_png
    path.write_bytes(png)
    return png


def test_hari_game_by_clicking_with_slides(server, browser, tmp_path):  # noqa: F811
    page = Page(browser, server.url)
    page.new_game("hari", "human", "random", "5+0", level="1")
    rng = random.Random(3)
    slides = turns = 0
    while not page.over() and turns < 40:
        page.wait_for(lambda: page.my_turn() or page.over(), "my turn")
        if page.over():
            break
        turns += 1
        options = page.options()
        slide_options = [o for o in options if ">" in o and not o.endswith("*")]
        if slide_options and slides < 3:
            page.enter(rng.choice(slide_options))
            slides += 1
            if turns == 3:
                png = board_screenshot(page, tmp_path / "hari-slide.png")
                assert png_colours(png) > 10
            options = page.options()
            assert options, "after a slide a play must be offered"
        plays = [o for o in options if o.endswith("*")]
        places = [o for o in plays if CELL.search(o)]
        page.enter(rng.choice(places) if places and turns <= 8 else plays[0])
    assert page.over(), f"the game did not end in {turns} turns"
    assert slides >= 1
    assert page.data("status", "result") in ("1-0", "0-1", "1/2-1/2")
    title = page.text("#status-title")
    assert title in ("Dark wins", "Light wins", "Draw"), title
    assert "on the board" in page.text("#status-detail")
    moves = page.moves()
    assert any(">" in move for side, move in moves if side == "d"), moves   # Dark (the person) slid
    # numbered by moves: row n holds Dark's n-th move and Light's reply
    rows = page.els("#moves tr")
    assert len(rows) == (len(moves) + 1) // 2
    assert [r.find_element("css selector", "th").text for r in rows[:2]] == ["1.", "2."]
    assert [c.get_attribute("data-side") for c in rows[0].find_elements("css selector", "td")] == ["d", "l"]
    for side in ("d", "l"):
        shown = browser.find_element("css selector", f"#clock-{side} .time").text
        assert re.fullmatch(r"[0-4]:[0-5]\d\.\d", shown), shown   # 300 s clock, never '4:60.0'
    png = board_screenshot(page, tmp_path / "hari-end.png")
    assert png_colours(png) > 10
    assert page.errors() == []


def test_foundations_game_reaches_level_two(server, browser, tmp_path):  # noqa: F811
    page = Page(browser, server.url)
    page.new_game("foundations", "human", "random", "5+0", level="1")
    rng = random.Random(5)
    for _ in range(40):
        page.wait_for(lambda: page.my_turn() or page.over(), "my turn")
        if page.over() or "^" in page.attr("position", "value"):
            break
        options = page.options()
        higher = [o for o in options if "^" in o]
        places = [o for o in options if CELL.search(o)]
        page.enter(rng.choice(higher or places or options))
    position = page.attr("position", "value")
    assert "^2" in position, position
    assert browser.find_elements("css selector", '#board [data-level="2"]')
    png = board_screenshot(page, tmp_path / "foundations-level2.png")
    assert png_colours(png) > 10
    assert page.errors() == []
