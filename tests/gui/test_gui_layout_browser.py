"""The page at a phone's size (360 x 740), a narrow window (400 px) and a desktop (1280 x 800): the
game is the first screen (the board, whose turn and the controls of the move being entered all
visible without scrolling, the new-game settings folded away on a phone), no sideways scrolling,
the board scaled to the window, every control on screen and large enough for a finger on a
phone, and a move entered by tapping."""

from __future__ import annotations

import re

import pytest

from tests.gui.page import RANDOM_ENGINE, Page
from tests.support.gui_server import serving

pytestmark = pytest.mark.browser

FINGER_PX = 40
"""Least height of a control at phone widths (WCAG's target size is 24 px; platforms ask 44-48)."""
CELL_PX = 30
"""Least side of a board cell at 360 px (a 10 x 10 board and its coordinates across the screen;
a desktop window's scroll bar takes 15 px of it, a phone's does not)."""
HARI_MIDDLE = "hari h1h4,b3b6,e3e6,f3f5,a4a7,c5c9/g0g3,a2d2,g4g7,d7d9,h7h9 333355667/333555667 d -"
"""Dark to move with six pieces on the board: picking c5c9 up offers `c5c9>off` and three discards,
the controls a phone player needs in the middle of a move."""
FIRST_SCREENS = [(360, 740, "phone"), (1280, 800, "desktop")]
"""The issue's sizes: a phone's screen, and a desktop window's page area."""


@pytest.fixture(scope="module")
def server():
    yield from serving("-engine", "name=random", f"cmd={RANDOM_ENGINE}", "option.Strategy=random")


def open_page(browser, server, width: int, height: int, kind: str) -> Page:
    return Page(browser, server.url, width=width, height=height, phone=kind == "phone",
                viewport=kind == "desktop")


def horizontal_overflow(page: Page) -> int:
    return page.js("return document.documentElement.scrollWidth - document.documentElement.clientWidth")


def controls_off_screen_or_small(page: Page, section: str, least: float) -> list[str]:
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
        return out;""", section, least)


def outside_first_screen(page: Page, selectors: list[str]) -> list[str]:
    """Of the visible elements matching `selectors`, those not wholly inside the window as it opens
    (scrolled to the top): what a player would have to scroll to."""
    return page.js("""
        window.scrollTo(0, 0);
        const out = [], w = document.documentElement.clientWidth, h = window.innerHeight;
        for (const css of arguments[0]) {
          for (const el of document.querySelectorAll(css)) {
            const r = el.getBoundingClientRect();
            if (r.width === 0 && r.height === 0) continue;
            if (r.top < 0 || r.left < 0 || r.bottom > h + 0.5 || r.right > w + 0.5)
              out.push(css + ' ' + (el.textContent || '').trim().slice(0, 20) + ' at ' + Math.round(r.top) + '..'
                       + Math.round(r.bottom) + ' of ' + h);
          }
        }
        return out;""", selectors)


@pytest.mark.parametrize("width, height, kind", FIRST_SCREENS)
def test_the_game_is_the_first_screen(server, browser, width, height, kind):
    page = open_page(browser, server, width, height, kind)
    assert page.js("return [window.innerWidth, window.innerHeight]") == [width, height]
    assert page.js("return document.getElementById('settings').open") == (kind == "desktop")   # folded on small screens
    page.set_up(HARI_MIDDLE)
    page.wait_for(page.my_turn, "my turn")
    page.click_board('[data-segment="c5c9"]')             # a piece picked up: its slides and >off offered
    page.wait_for(lambda: page.data("entry", "sel") == "c5 c9", "the piece picked up")
    buttons = [b.get_attribute("data-word") for b in page.els("#choices button")]
    assert "c5c9>off" in buttons and {"x5*", "x6*", "x7*"} <= set(buttons), buttons
    assert outside_first_screen(page, ["#board svg", "#status-title", "#entry button", "#clock-d", "#clock-l"]) == []
    assert page.js("return window.scrollY") == 0
    assert horizontal_overflow(page) <= 0
    if kind != "desktop":
        assert controls_off_screen_or_small(page, "#play", FINGER_PX) == []
    page.el('#choices button[data-word="c5c9>off"]').click()   # the slide off, then a discard, by buttons
    page.wait_for(lambda: page.data("entry", "steps") == "c5c9>off", "the slide entered")
    assert outside_first_screen(page, ["#entry button"]) == []
    assert page.errors() == []


@pytest.mark.parametrize("width, height, kind", [(360, 740, "phone"), (400, 800, "window")])
def test_phone_width_play(server, browser, width, height, kind):
    page = open_page(browser, server, width, height, kind)
    page.new_game("hari", "human", "random", "5+0", level="1")
    page.wait_for(page.my_turn, "my turn")
    assert horizontal_overflow(page) <= 0
    inner = page.js("return document.documentElement.clientWidth")
    board = page.rect("#board svg")
    assert board["left"] >= 0 and board["right"] <= inner, board
    assert board["width"] >= inner - 40, board          # scaled to the window
    cell = page.rect('#board [data-cell="e4"]')
    assert cell["width"] >= CELL_PX, cell
    turn = page.rect("#turn")
    assert turn["top"] >= board["bottom"], (turn, board)   # whose turn and the move's controls under the board
    for side in "dl":                                  # both players' cards, with their hands, on screen
        card = page.rect(f"#clock-{side}")
        assert card["left"] >= 0 and card["right"] <= inner, card
    assert controls_off_screen_or_small(page, "#play", FINGER_PX) == []
    move = next(o for o in page.options() if re.fullmatch(r"[a-j]\d[a-j]\d\*", o))
    page.enter(move)                                   # tapping the board works at this size
    page.wait_for(lambda: page.data("board", "ply") == "2", "the reply")
    assert page.moves()[0] == ("d", move.rstrip("*"))
    assert horizontal_overflow(page) <= 0              # a long move list does not widen the page
    for tab in ("runs", "analysis"):
        page.el(f"#tab-{tab}").click()
        page.wait_for(lambda: page.attr(tab, "hidden") == "false", f"the {tab} tab")   # noqa: B023
        assert horizontal_overflow(page) <= 0
        assert controls_off_screen_or_small(page, f"#{tab}", FINGER_PX) == []
    assert page.errors() == []
