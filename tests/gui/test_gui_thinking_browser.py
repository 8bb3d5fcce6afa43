"""The engine's thinking in the browser, at a phone's size and a desktop's: the panel updated while
the engine thinks (several times a second), its evaluation as a side's chances and its counts with
units, the best line's moves kept whole and drawn on the board (placements outlined, slides as
arrows), cleared when the move is made (what the engine thought stays on its move in the list);
strengths labelled with their measured score and reaching the engine as `Skill Level` and time."""

from __future__ import annotations

import re
import time

import pytest

from gui.levels import MEASURED
from tests.gui.page import ECHO_ENGINE, Page
from tests.support.gui_server import serving

pytestmark = pytest.mark.browser

HARI_SLIDES = "hari c3c7,e2g2/d4d8,a9c9 3333444455667/3333444455667 d -"
"""Dark (the echo engine) to move; Light's d4d8 and a9c9 can slide, so its PV's reply is a slide."""
SIZES = [(360, 740, "phone"), (1280, 800, "desktop")]


@pytest.fixture(scope="module")
def server():
    yield from serving("-engine", "name=echo", f"cmd={ECHO_ENGINE}")


def move_note(page: Page, ply: int) -> str:
    return page.js("const c = document.querySelector(`#moves td[data-ply='${arguments[0]}']`);"
                   "return c ? c.title : '';", ply)


@pytest.mark.parametrize("width, height, kind", SIZES)
def test_the_thinking_panel_while_the_engine_thinks_and_after(server, browser, width, height, kind):
    page = Page(browser, server.url, width=width, height=height, phone=kind == "phone", viewport=kind == "desktop")
    page.new_game("hari", "echo", "human", "1+1", level="clock")
    page.set_up(HARI_SLIDES)
    page.press_start()
    page.wait_for(lambda: "go p1time 60000" in page.text("#think-line"), "the engine thinking")
    line = page.text("#think-line")
    assert "Dark\xa060%" in line and "skill 20" in line       # score cp 20 for Dark: its chances, in percent
    seen, end = [], time.monotonic() + 1.5                    # the engine reports every 100 ms
    while time.monotonic() < end:
        text = page.text("#think-line")
        if not seen or seen[-1] != text:
            seen.append(text)
        time.sleep(0.03)
    assert len(seen) >= 6, seen                               # at least one update each 250 ms
    assert re.search(r"\d[\d,.k]*\xa0nodes", seen[-1]), seen[-1]   # counts with their units, never parted
    pv = page.els("#think-pv .pv-move")
    moves = [m.text for m in pv]
    assert len(moves) == 2 and ">" in moves[1], moves         # a placement, then Light's slide
    assert all(m.value_of_css_property("white-space") == "nowrap" for m in pv)   # a move never breaks
    place = page.el(f'#board [data-layer="pv"] .pv-place[data-pv="{moves[0]}"]')
    a, b = page.rect(f'#board [data-cell="{moves[0][:2]}"]'), page.rect(f'#board [data-cell="{moves[0][2:4]}"]')
    box = place.rect                                          # the placement outlined whole, end to end
    assert box["width"] >= max(a["right"], b["right"]) - min(a["left"], b["left"]) - 8, (box, a, b)
    assert box["height"] >= max(a["bottom"], b["bottom"]) - min(a["top"], b["top"]) - 8, (box, a, b)
    slide = moves[1].split(",")[0]
    arrow = page.el(f'#board [data-layer="pv"] .pv-arrow[data-pv="{slide}"]')
    piece = page.rect(f'#board [data-segment="{slide[:4]}"]')
    start = page.js("const l = arguments[0].querySelector('line').getBoundingClientRect(); return [l.left, l.top, "
                    "l.right, l.bottom];", arrow)
    assert piece["left"] - 4 <= start[0] and start[1] <= piece["bottom"] + 4   # the arrow leaves the slid piece
    page.el("#stop").click()
    page.wait_for(lambda: page.data("board", "ply") == "1", "the engine's move")
    assert page.text("#think-line") == "" and page.text("#think-pv") == ""     # cleared with the move
    assert page.text("#think-engine") == "No engine thinking"
    assert not page.els('#board [data-layer="pv"] *') and page.el("#stop").get_property("disabled")
    note = move_note(page, 0)                                 # what it thought stays on its move
    assert "Dark\xa060%" in note and "skill 20" in note, note
    assert page.errors() == []


def test_strengths_are_labelled_and_reach_the_engine(server, browser):
    page = Page(browser, server.url)
    page.open_settings()
    for game in ("hari", "isaac", "foundations"):
        page.select("game", game)
        labels = {o.get_attribute("value"): o.text for o in page.els("#level option")}
        for level, measured in MEASURED.items():
            score = int(measured[game].score + 0.5)   # as the page rounds (half up)
            assert labels[str(level)] == f"{level} · {score}% vs fastmc", labels
        assert labels["clock"] == "full (by the clock)"
    page.select("level", "3")
    words = page.text("#level-words")
    assert words.startswith("Strength 3 scored") and "fastmc at 0.1 s in FOUNDATIONS" in words, words
    page.new_game("hari", "human", "echo", "1+1", level="2")
    page.wait_for(page.my_turn, "my turn")
    page.enter(next(o for o in page.options() if re.fullmatch(r"[a-j]\d[a-j]\d\*", o)))
    page.wait_for(lambda: page.data("board", "ply") == "2", "the engine's move at strength 2")
    assert "skill 3 go movetime 150" in move_note(page, 1)   # Skill Level 3 and 0.15 s a move
    assert "echo, strength 2" in page.text("#clock-l .name")
    page.new_game("hari", "human", "echo", "1+1", level="5")  # a new game: nothing of the last one's thinking
    assert page.text("#think-line") == "" and page.text("#think-engine") == "No engine thinking"
    page.wait_for(page.my_turn, "my turn")
    page.enter(next(o for o in page.options() if re.fullmatch(r"[a-j]\d[a-j]\d\*", o)))
    page.wait_for(lambda: page.data("board", "ply") == "2", "the engine's move at strength 5")
    assert "skill 12 go movetime 600" in move_note(page, 1)
    assert page.errors() == []
