"""Clocks as players expect them, in the browser at a phone's size (360 x 740) and a desktop's
(1280 x 800): the Clock box reads `5+3` as minutes (a bad clock gets one short sentence), no clock
runs before the person's first move or Start (an engine to move waits for Start), a takeback
against the engine, and reloads: the game resumes with its clocks as they stood, a lost game stays
lost (never started again), and a half-entered move is still there."""

from __future__ import annotations

import re
import time

import pytest

from tests.gui.page import ECHO_ENGINE, RANDOM_ENGINE, Page
from tests.support.gui_server import serving

pytestmark = pytest.mark.browser

SIZES = [(360, 740, "phone"), (1280, 800, "desktop")]
HARI_SLIDES = "hari c3c7,e2g2/d4d8,a9c9 3333444455667/3333444455667 d -"
PLACEMENT = re.compile(r"[a-j]\d[a-j]\d\*")


@pytest.fixture(scope="module")
def server():
    yield from serving("-engine", "name=random", f"cmd={RANDOM_ENGINE}", "option.Strategy=random",
                    "-engine", "name=echo", f"cmd={ECHO_ENGINE}")


def open_page(browser, server, width: int, height: int, kind: str) -> Page:
    return Page(browser, server.url, width=width, height=height, phone=kind == "phone", viewport=kind == "desktop")


def clock(page: Page, side: str) -> str:
    return page.text(f"#clock-{side} .time")


def running(page: Page) -> list[str]:
    return [c.get_attribute("data-side") for c in page.els(".card.running")]


def enter_placement(page: Page) -> None:
    page.wait_for(page.my_turn, "my turn")
    page.enter(next(o for o in page.options() if PLACEMENT.fullmatch(o)))


@pytest.mark.parametrize("width, height, kind", SIZES)
def test_no_clock_runs_before_the_first_move(server, browser, width, height, kind):
    page = open_page(browser, server, width, height, kind)
    page.new_game("hari", "human", "random", "1+2", level="1")
    assert page.attr("tc-words", "textContent") == "1 min + 2 s a move"   # the box says what it means
    page.wait_for(page.my_turn, "my turn")
    assert "clocks start with your first move" in page.text("#status-detail")
    time.sleep(1.2)                                 # reading the page costs nothing
    assert (clock(page, "d"), clock(page, "l")) == ("1:00.0", "1:00.0") and running(page) == []
    enter_placement(page)                           # the first move starts the clocks
    page.wait_for(lambda: page.data("board", "ply") == "2" and page.my_turn(), "the reply")
    page.wait_for(lambda: running(page) == ["d"] and clock(page, "d") < "1:00.0", "my clock running")
    assert page.data("board", "started") == "1"
    assert page.errors() == []


@pytest.mark.parametrize("width, height, kind", SIZES)
def test_an_engine_to_move_waits_for_start(server, browser, width, height, kind):
    page = open_page(browser, server, width, height, kind)
    page.new_game("hari", "echo", "human", "1+0", level="1")
    assert "press Start" in page.text("#status-detail")
    time.sleep(1.0)
    assert page.data("board", "ply") == "0" and page.text("#think-line") == "" and running(page) == []
    assert page.el("#start").is_displayed()
    page.press_start()
    page.wait_for(lambda: page.data("board", "ply") == "1", "the engine's first move")   # 0.1 s a move
    assert not page.el("#start").is_displayed()
    page.wait_for(lambda: running(page) == ["l"], "my clock running")
    assert page.errors() == []


@pytest.mark.parametrize("width, height, kind", SIZES)
def test_takeback_against_the_engine(server, browser, width, height, kind):
    page = open_page(browser, server, width, height, kind)
    page.new_game("hari", "human", "random", "5+0", level="1")
    page.wait_for(page.my_turn, "my turn")
    assert page.el("#takeback").get_property("disabled")          # nothing of mine to take back yet
    enter_placement(page)
    page.wait_for(lambda: page.data("board", "ply") == "2" and page.my_turn(), "the reply")
    first = page.moves()[0]
    enter_placement(page)
    page.wait_for(lambda: page.data("board", "ply") == "4" and page.my_turn(), "the second reply")
    page.el("#takeback").click()                   # my last move and the engine's reply to it go
    page.wait_for(lambda: page.data("board", "ply") == "2", "the takeback")
    page.wait_for(page.my_turn, "my turn again")
    assert len(page.moves()) == 2 and page.moves()[0] == first
    page.el("#takeback").click()
    page.wait_for(lambda: page.data("board", "ply") == "0", "the second takeback")
    page.wait_for(page.my_turn, "my turn at the start")
    assert page.el("#takeback").get_property("disabled")
    assert page.errors() == []


def test_a_bad_clock_says_so_in_one_short_sentence(server, browser):
    page = Page(browser, server.url)
    before = page.game_no()
    page.open_settings()
    box = page.el("#tc")
    box.clear()
    box.send_keys("abc")
    page.el("#new").click()
    page.wait_for(lambda: page.attr("error", "textContent"), "the error")
    error = page.attr("error", "textContent")
    assert error.startswith("clock 'abc' not understood: write minutes + seconds a move, e.g. 5+3"), error
    assert len(error) < 130 and "a time control is" not in error
    assert page.game_no() == before                # the game in play goes on
    assert page.errors() == []


def test_a_reload_never_restarts_a_lost_game(server, browser):
    page = Page(browser, server.url)
    page.new_game("hari", "human", "random", "2s+0", level="1")   # two seconds, said in seconds
    enter_placement(page)                          # the clocks start now: then mine runs out
    page.wait_for(page.over, "the loss on time", timeout=15)
    assert page.text("#status-title") == "Light wins" and "time forfeit" in page.text("#status-detail")
    moves = page.moves()
    browser.refresh()
    page.wait_connected()
    page.wait_for(page.over, "the lost game shown again")
    assert page.text("#status-title") == "Light wins" and "time forfeit" in page.text("#status-detail")
    assert page.moves() == moves and running(page) == [] and not page.my_turn()
    time.sleep(1.0)
    assert page.text("#status-title") == "Light wins"   # not started again, not lost again
    assert page.errors() == []


def test_a_reload_resumes_the_game_with_its_clocks(server, browser):
    page = Page(browser, server.url)
    page.new_game("hari", "human", "random", "2+2", level="3")
    enter_placement(page)
    page.wait_for(lambda: page.data("board", "ply") == "2" and page.my_turn(), "the reply")
    moves, position = page.moves(), page.attr("position", "value")
    light_clock = clock(page, "l")                 # stopped while Dark is to move
    assert light_clock != "2:00.0"
    browser.refresh()
    page.wait_connected()
    page.wait_for(lambda: page.data("board", "ply") == "2", "the game resumed")
    assert page.moves() == moves and page.attr("position", "value") == position
    assert [page.attr(i, "value") for i in ("game", "dark", "light", "level", "tc")] == \
        ["hari", "human", "random", "3", "2+2"]
    assert clock(page, "l") == light_clock         # the time it had, not a fresh clock
    page.wait_for(page.my_turn, "my turn again")
    assert page.errors() == []


def test_a_reload_keeps_the_move_being_entered(server, browser):
    page = Page(browser, server.url)
    page.set_up(HARI_SLIDES)
    page.wait_for(page.my_turn, "my turn")
    page.enter("c3c7>c4c8")                        # a slide entered ...
    page.click_cell("h3")                          # ... and one end of the play chosen
    assert page.data("entry", "sel") == "h3"
    browser.refresh()
    page.wait_connected()
    page.wait_for(lambda: page.data("entry", "steps") == "c3c7>c4c8" and page.data("entry", "sel") == "h3",
                  "the move being entered restored")
    assert page.text("#entered") == "c3c7>c4c8 [h3]"
    page.click_cell("h7")                          # and it can be finished
    page.wait_for(lambda: page.data("board", "ply") in ("1", "2"), "the move played (and maybe the reply)")
    assert page.moves()[0] == ("d", "c3c7>c4c8,h3h7")
    assert page.errors() == []
