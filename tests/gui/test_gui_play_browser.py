"""Playing in the browser: the move being entered drawn on the board, ISAAC's counter placed by
clicking, hands showing values as the board does, set-up errors counted as typed, results in each
game's words, FOUNDATIONS' board levels, edge numbers only where they mean something, the favicon;
no console error anywhere. (Clocks, Start, takeback and reloads: test_gui_clock_browser.py; the
thinking panel and strengths: test_gui_thinking_browser.py.)"""

from __future__ import annotations

import random
import re
import urllib.request

import pytest

from protocol import new_game
from tests.gui.page import ECHO_ENGINE, RANDOM_ENGINE, Page
from tests.support.gui_server import serving

pytestmark = pytest.mark.browser

HARI_SLIDES = "hari c3c7,e2g2/d4d8,a9c9 3333444455667/3333444455667 d -"
"""Dark's c3c7 may slide up to c4c8; its e2g2 may slide too."""
ISAAC_SCORING = "isaac c2e2,g0g3/a2a4,i1i5 333444555667/333444455667 d - score 0/0"
"""Removing c2e2 earns 3: Dark's counter may go to a0 (0), b0, c0 or d0 (3) (SPEC 9.11's sample)."""
FOUNDATIONS_BRIDGE = "foundations d1d7,f1f6,e3e7,j3j8/c1c7,g2g7,a8f8,c6c8^2 33333444455/33334444555 d -"
"""Light's c6c8 on level 2 covers the middle of its a8f8 below, where a8f8's value is drawn."""


@pytest.fixture(scope="module")
def server():
    yield from serving("-engine", "name=echo", f"cmd={ECHO_ENGINE}",
                    "-engine", "name=random", f"cmd={RANDOM_ENGINE}", "option.Strategy=random")


def centre(page: Page, css: str) -> tuple[float, float]:
    r = page.rect(css)
    return (r["left"] + r["right"]) / 2, (r["top"] + r["bottom"]) / 2


def covers(page: Page, piece_css: str, cell: str) -> bool:
    x, y = centre(page, f'#board [data-cell="{cell}"]')
    r = page.rect(piece_css)
    return r["left"] <= x <= r["right"] and r["top"] <= y <= r["bottom"]


def test_a_slide_is_drawn_before_the_play(server, browser):
    page = Page(browser, server.url)
    page.set_up(HARI_SLIDES)
    page.wait_for(page.my_turn, "my turn")
    piece = '#board [data-segment="c3c7"]'
    assert covers(page, piece, "c3") and not covers(page, piece, "c8")
    # green marks never hide a value: a piece that can be picked up gets a ring around its badge
    ring = page.el('#board circle.hint-ring[data-mark="e2"]')
    assert float(ring.get_attribute("r")) > 12      # the badge's radius is 10
    assert not page.els('#board circle.hint-dot[data-mark="e2"]')
    assert page.els('#board circle.hint-dot[data-mark="a0"]')   # an empty cell gets a dot
    page.click_board('[data-segment="c3c7"]')
    assert page.data("entry", "sel") == "c3 c7"
    page.click_cell("c8")
    page.wait_for(lambda: page.data("entry", "steps") == "c3c7>c4c8", "the slide entered")
    assert page.text("#entered") == "c3c7>c4c8"
    assert page.data("board", "ply") == "0"                  # not played yet ...
    assert covers(page, piece, "c8") and not covers(page, piece, "c3")   # ... but drawn where it went
    assert page.els('#board [data-layer="preview"] .ghost')   # its start outlined
    page.el("#unstep").click()                               # taken back: drawn at its start again
    page.wait_for(lambda: page.data("entry", "steps") == "", "the slide taken back")
    assert covers(page, piece, "c3") and not covers(page, piece, "c8")
    page.enter("c3c7>c4c8")
    assert "h3h7*" in page.options()          # after a slide worth 3, a piece worth 3 or more
    page.enter("h3h7*")
    page.wait_for(lambda: page.data("board", "ply") in ("1", "2"), "the move played")
    assert page.moves()[0] == ("d", "c3c7>c4c8,h3h7")
    assert "c4c8" in page.attr("position", "value")
    assert page.errors() == []


def test_isaac_counter_is_placed_by_clicking_its_cell(server, browser):
    page = Page(browser, server.url)
    page.set_up(ISAAC_SCORING)
    page.wait_for(page.my_turn, "my turn")
    page.click_board('[data-segment="c2e2"]')
    page.wait_for(lambda: page.data("entry", "steps") == "xc2e2", "the removal entered")
    page.wait_for(lambda: page.data("entry", "targets"), "the counter's cells")
    assert page.data("entry", "targets") == "0*=a0 1*=b0 2*=c0 3*=d0"
    assert "struck" in page.el('#board [data-segment="c2e2"]').get_attribute("class")
    assert page.els('#board [data-layer="preview"] .strike')
    targets = {t.get_attribute("data-target"): t.text for t in page.els("#board [data-target]")}
    assert targets == {"a0": "0", "b0": "1", "c0": "2", "d0": "3"}
    page.click_cell("d0")
    page.wait_for(lambda: page.data("board", "ply") in ("1", "2"), "the removal played")
    assert page.moves()[0] == ("d", "xc2e2:3")
    assert page.text("#clock-d .measure").startswith("score 3")
    # hands show each piece's value, as the board's badges do (a piece of length 7 is worth 6)
    # (read by one script each: the clocks are redrawn while the test reads them)
    seven = page.js("const g = document.querySelector('#clock-l .hand-group[data-length=\"7\"]');"
                    "return [g.dataset.value, g.querySelector('.bar').textContent];")
    assert seven == ["6", "6"]
    badge = page.text('#board [data-segment="i1i5"] text')   # Light's length-5 piece: value 3 on the board
    assert badge == "3" == page.text('#clock-l .hand-group[data-length="5"] .bar')
    assert page.errors() == []


def test_set_up_error_names_the_column_in_the_position_string(server, browser):
    page = Page(browser, server.url)
    before = page.attr("position", "value")
    page.set_up("hari zz9/- 1 x -")          # Enter in the box sets up
    error = page.attr("error", "textContent")
    assert "at column 6" in error, error
    assert page.attr("position", "value") == "hari zz9/- 1 x -"   # left as typed, to be corrected
    assert page.data("board", "gameNo") == "1" and before.startswith("isaac")
    page.set_up("   hari zz9/- 1 x -")       # typed with leading spaces: the column counts them
    assert "at column 9" in page.attr("error", "textContent"), page.attr("error", "textContent")
    page.set_up("  " + HARI_SLIDES.replace(" 3333", "  3333", 1))
    assert page.attr("error", "textContent") == "" and page.data("board", "game") == "hari"
    assert page.errors() == []


def _finished(game: str, seed: int) -> str:
    g = new_game(game)
    rng = random.Random(seed)
    while not g.is_over():
        g.push(g.random_move(rng))
    return g.position()


@pytest.mark.parametrize("game, words", [("foundations", ["in hand", "(the lower wins)"]),
                                         ("hari", ["on the board"]), ("isaac", ["score"])])
def test_results_are_worded_for_each_game(server, browser, game, words):
    page = Page(browser, server.url)
    page.set_up(_finished(game, 7))
    page.wait_for(page.over, "the finished game")
    title, detail = page.text("#status-title"), page.text("#status-detail")
    assert title in ("Dark wins", "Light wins", "Draw"), title
    assert all(w in detail for w in words), detail
    assert not re.search(r"wins \d+-\d+", title + detail)      # never a bare '12-0' that reads backwards
    badges = [page.text(f"#clock-{s} .badge") for s in "dl"]
    assert badges.count("winner") == (0 if title == "Draw" else 1)
    assert page.errors() == []


def test_foundations_levels_can_each_be_read(server, browser):
    page = Page(browser, server.url)
    page.set_up(FOUNDATIONS_BRIDGE)
    page.wait_for(page.my_turn, "my turn")
    assert not page.el("#level-view").get_property("hidden")
    views = [b.get_attribute("data-view") for b in page.els("#level-buttons button")]
    assert views == ["all", "1", "2"]
    upper, lower = '#board [data-segment="c6c8"]', '#board [data-segment="a8f8"]'
    badge = f"{lower} text"
    assert covers(page, upper, "c8")                 # in the stack a8f8's value lies under c6c8
    page.el('#level-buttons button[data-view="1"]').click()
    opacity = float(page.js("return getComputedStyle(document.querySelector(arguments[0])).opacity", upper))
    assert opacity <= 0.15
    x, y = centre(page, badge)
    top = page.js("const e = document.elementFromPoint(arguments[0], arguments[1]); "
                  "const g = e && e.closest('[data-segment]'); return g ? g.dataset.segment : null;", x, y)
    assert top == "a8f8"
    page.el('#level-buttons button[data-view="2"]').click()
    assert "below" in page.el(lower).get_attribute("class")
    assert "above" not in page.el(upper).get_attribute("class")
    page.el('#level-buttons button[data-view="all"]').click()
    assert not page.els("#board .above, #board .below")
    assert page.text("#level-view").strip().startswith("Show board level")   # the board's levels; engines have strengths
    hari = Page(browser, server.url)                 # other games have one level: no control
    hari.set_up(HARI_SLIDES)
    assert hari.el("#level-view").get_property("hidden")
    assert page.errors() == []


@pytest.mark.parametrize("game", ["isaac", "foundations", "hari"])
def test_far_edge_numbers_only_where_they_mean_something(server, browser, game):
    """ISAAC numbers the far edges in the viewer's own frame (its counters count scores from each
    player's corner); in HARI and FOUNDATIONS those numbers mean nothing and are not drawn."""
    page = Page(browser, server.url)
    page.new_game(game, "human", "random", "5+0")
    faint = len(page.els('#board svg text[fill-opacity="0.55"]'))
    assert faint == (20 if game == "isaac" else 0)
    assert len(page.els("#board svg text")) >= 20          # the notation's names stay on the near edges
    assert page.errors() == []


def test_favicon_and_tabs_without_console_errors(server, browser):
    with urllib.request.urlopen(server.url + "favicon.ico", timeout=10) as answer:
        assert answer.status == 200 and answer.headers["Content-Type"].startswith("image/svg+xml")
    page = Page(browser, server.url)
    icon = page.js("return document.querySelector('link[rel=icon]').href")
    with urllib.request.urlopen(icon, timeout=10) as answer:
        assert answer.status == 200 and b"<svg" in answer.read()
    for tab in ("runs", "analysis", "play"):
        page.el(f"#tab-{tab}").click()
        page.wait_for(lambda: page.attr(tab, "hidden") == "false", f"the {tab} tab")   # noqa: B023
    assert page.errors() == []
