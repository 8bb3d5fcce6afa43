"""The page at phone widths (360 and 400 px): no sideways scrolling, the whole board in view and
scaled to the window, the panels below it, every control on screen and large enough for a finger,
and a move entered by tapping the board."""

from __future__ import annotations

import re

import pytest

from tests.gui.page import RANDOM_ENGINE, Page
from tests.support.browser import browser  # noqa: F401  (a fixture)
from tests.support.gui_server import GuiServer

pytestmark = pytest.mark.browser

FINGER_PX = 40
"""Least height of a control at phone widths (WCAG's target size is 24 px; platforms ask 44-48)."""
CELL_PX = 30
"""Least side of a board cell at 360 px (a 10 x 10 board and its coordinates across the screen;
a desktop window's scroll bar takes 15 px of it, a phone's does not)."""


@pytest.fixture(scope="module")
def server():
    srv = GuiServer("-engine", "name=random", f"cmd={RANDOM_ENGINE}", "option.Strategy=random")
    yield srv
    srv.stop()


def horizontal_overflow(page: Page) -> int:
    return page.js("return document.documentElement.scrollWidth - document.documentElement.clientWidth")


def controls_off_screen_or_small(page: Page, section: str) -> list[str]:
    """Visible buttons, selects and inputs of a section that leave the screen or are too small."""
    return page.js("""
        const out = [], width = document.documentElement.clientWidth;
        for (const el of document.querySelectorAll(arguments[0] + ' button, ' + arguments[0] + ' select, '
                                                   + arguments[0] + ' input')) {
          const r = el.getBoundingClientRect();
          if (r.width === 0 && r.height === 0) continue;            // not shown
          const name = el.id || el.dataset.word || el.dataset.view || el.textContent;
          if (r.left < 0 || r.right > width + 0.5) out.push(name + ' off screen ' + r.left + '..' + r.right);
          if (r.height < arguments[1]) out.push(name + ' only ' + r.height + ' px high');
        }
        return out;""", section, FINGER_PX)


@pytest.mark.parametrize("width, phone", [(360, True), (400, True), (400, False)])
def test_phone_width_play(server, browser, width, phone):  # noqa: F811
    page = Page(browser, server.url, width=width, height=780, phone=phone)
    assert page.js("return window.innerWidth") == width
    page.new_game("hari", "human", "random", "300+0", level="1")
    page.wait_for(page.my_turn, "my turn")
    assert horizontal_overflow(page) <= 0
    inner = page.js("return document.documentElement.clientWidth")
    board = page.rect("#board svg")
    assert board["left"] >= 0 and board["right"] <= inner, board
    assert board["width"] >= inner - 40, board          # scaled to the window
    cell = page.rect('#board [data-cell="e4"]')
    assert cell["width"] >= CELL_PX, cell
    aside = page.rect("#play aside")
    assert aside["top"] >= board["bottom"], (aside, board)   # the panels go below the board
    for side in "dl":                                  # both players' cards, with their hands, on screen
        card = page.rect(f"#clock-{side}")
        assert card["left"] >= 0 and card["right"] <= inner, card
    assert controls_off_screen_or_small(page, "#play") == []
    move = next(o for o in page.options() if re.fullmatch(r"[a-j]\d[a-j]\d\*", o))
    page.enter(move)                                   # tapping the board works at this size
    page.wait_for(lambda: page.data("board", "ply") == "2", "the reply")
    assert page.moves()[0] == ("d", move.rstrip("*"))
    assert horizontal_overflow(page) <= 0              # a long move list does not widen the page
    page.el("#tab-runs").click()
    page.wait_for(lambda: page.attr("runs", "hidden") == "false", "the Runs tab")
    assert horizontal_overflow(page) <= 0
    assert controls_off_screen_or_small(page, "#runs") == []
    assert page.errors() == []
