"""The web GUI in a real browser (headless Chromium): whole games entered by clicking.

The test reads only what the page offers (the steps the server listed, in `#entry`'s
data-options) and enters them the way a person would: clicking pieces and cells of the SVG
board, or the buttons for discards and passes. Screenshots are checked to be boards, not blank.
"""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.support.browser import browser, png_colours  # noqa: F401  (browser is a fixture)
from tests.support.gui_server import GuiServer

pytestmark = pytest.mark.browser

CELL = re.compile(r"[a-j][0-9]")
WAIT = 20.0


@pytest.fixture(scope="module")
def server():
    srv = GuiServer()
    yield srv
    srv.stop()


class Page:
    """The GUI page as a person uses it."""

    def __init__(self, driver: Any, url: str):
        self.driver = driver
        driver.get(url)
        self.wait_for(lambda: self.attr("connection", "textContent") == "connected" and
                      len(driver.find_elements("css selector", "#dark option")) > 1, "connection")

    def el(self, css: str) -> Any:
        return self.driver.find_element("css selector", css)

    def attr(self, element_id: str, name: str) -> str:
        return self.driver.execute_script(
            f"const e = document.getElementById('{element_id}'); return e ? String(e.{name}) : '';")

    def data(self, element_id: str, key: str) -> str:
        return self.driver.execute_script(
            f"const e = document.getElementById('{element_id}'); return e ? (e.dataset['{key}'] || '') : '';")

    def wait_for(self, condition, what: str, timeout: float = WAIT) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if condition():
                return
            time.sleep(0.03)
        raise AssertionError(f"timed out waiting for {what}; status: {self.attr('status', 'textContent')!r}, "
                             f"error: {self.attr('error', 'textContent')!r}")

    def select(self, element_id: str, value: str) -> None:
        self.driver.execute_script(f"document.getElementById('{element_id}').value = arguments[0];", value)

    def new_game(self, game: str, dark: str, light: str, tc: str) -> None:
        self.select("game", game)
        self.select("dark", dark)
        self.select("light", light)
        tc_input = self.el("#tc")
        tc_input.clear()
        tc_input.send_keys(tc)
        self.el("#new").click()
        self.wait_for(lambda: self.data("board", "game") == game and self.data("board", "ply") == "0", "new game")

    def over(self) -> bool:
        return bool(self.data("status", "result"))

    def my_turn(self) -> bool:
        return self.data("entry", "ready") == "1" and not self.over()

    def options(self) -> list[str]:
        return self.data("entry", "options").split()

    def click_board(self, css: str) -> None:
        from selenium.webdriver.common.action_chains import ActionChains

        element = self.el(f"#board {css}")
        ActionChains(self.driver).move_to_element(element).click().perform()

    def enter(self, option: str) -> None:
        """Enter one offered step by clicks; returns when the server has answered it."""
        before = (self.data("board", "ply"), self.data("entry", "steps"))

        def sent() -> bool:   # the clicks named one step and the page sent it
            return (self.data("entry", "ready") != "1"
                    or (self.data("board", "ply"), self.data("entry", "steps")) != before)

        cells = CELL.findall(option)
        if not cells:
            self.el(f'#choices button[data-word="{option}"]').click()
        else:
            for i in range(0, len(cells), 2):
                pair = cells[i:i + 2]
                if i == 0 and ">" in option:
                    self.click_board(f'[data-segment="{pair[0]}{pair[1]}"]')   # pick the piece up
                else:
                    for cell in pair:
                        if sent():
                            break
                        self.click_board(f'[data-cell="{cell}"]')
                if sent():
                    break
            if not sent():   # complete but not alone (b2e2>off): its button
                self.el(f'#choices button[data-word="{option}"]').click()
        self.wait_for(lambda: (self.data("board", "ply"), self.data("entry", "steps")) != before
                      or self.over(), f"the step {option} to be taken")


def board_screenshot(page: Page, path: Path) -> bytes:
    board = page.el("#board")
    assert board.size["width"] >= 400 and board.size["height"] >= 400, board.size
    png = board.screenshot_as_png
    path.write_bytes(png)
    return png


def test_hari_game_by_clicking_with_slides(server, browser, tmp_path):  # noqa: F811
    page = Page(browser, server.url)
    page.new_game("hari", "human", "random", "300+0")
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
    status = page.attr("status", "textContent")
    assert "Game over" in status and page.data("status", "result") in ("1-0", "0-1", "1/2-1/2")
    moves = [li.text for li in browser.find_elements("css selector", "#moves li")]
    assert any(">" in m for m in moves[0::2]), moves   # Dark (the person) slid
    assert page.attr("think-pv", "textContent")      # the engine's PV was shown
    for side in ("d", "l"):
        shown = browser.find_element("css selector", f"#clock-{side} .time").text
        assert re.fullmatch(r"[0-4]:[0-5]\d\.\d", shown), shown   # 300 s clock, never '4:60.0'

    png = board_screenshot(page, tmp_path / "hari-end.png")
    assert png_colours(png) > 10


def test_foundations_game_reaches_level_two(server, browser, tmp_path):  # noqa: F811
    page = Page(browser, server.url)
    page.new_game("foundations", "human", "random", "300+0")
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
