"""report.html in a real browser: opened from disk (no server, no network), a game replayed by
clicking "next" until its last ply, each step drawing the board of that ply."""

from __future__ import annotations

from pathlib import Path

import pytest

from protocol import game_from_position
from referee.results.report import ReportBuilder
from tests.support.browser import browser, png_colours  # noqa: F401  (browser is a fixture)

pytestmark = pytest.mark.browser

HARI = "hari -/- 333334444555667/333334444555667 d -"
MOVES = ["c3c7", "d2d6", "c3c7>c4c8,a0a4", "e0e5"]


def _report(tmp_path: Path) -> Path:
    builder = ReportBuilder("browser test")
    for gid, moves in ((1, MOVES[:2]), (2, MOVES)):
        game = game_from_position(HARI)
        for move in moves:
            game.play(move)
        builder.add({"game_id": gid, "game_type": "hari", "start_position": HARI, "opening": [],
                     "dark": {"name": "alpha"}, "light": {"name": "beta"},
                     "moves": [{"move": m, "ms": 1} for m in moves], "result": "1/2-1/2",
                     "termination": "adjudication", "reason": "test", "final_position": game.position(),
                     "rules_version": "1", "time_control": {"dark": None, "light": None}, "final_scores": []})
    return builder.write(tmp_path)


def test_report_replays_a_game_by_clicking_next(browser, tmp_path: Path) -> None:  # noqa: F811
    from selenium.webdriver.support.ui import WebDriverWait

    path = _report(tmp_path)
    browser.get(path.as_uri())
    WebDriverWait(browser, 20).until(lambda d: d.execute_script("return document.body.dataset.ready") == "1")
    browser.find_element("css selector", 'a[data-game="2"]').click()
    board = browser.find_element("id", "vboard")
    assert board.get_attribute("data-game") == "2" and board.get_attribute("data-ply") == "0"
    assert len(board.find_elements("css selector", "[data-cell]")) == 100
    assert board.find_elements("css selector", "[data-segment]") == []
    game = game_from_position(HARI)
    for ply, move in enumerate(MOVES, 1):
        browser.find_element("id", "btn-next").click()
        assert board.get_attribute("data-ply") == str(ply)
        game.play(move)
        segments = sorted(e.get_attribute("data-segment") for e in board.find_elements("css selector", "[data-segment]"))
        assert segments == sorted(p.segment.name for p in game.state().pieces)
        shown = browser.execute_script("return document.getElementById('vboard').innerHTML")
        assert shown.count("<polygon") == move.count(">")         # one arrow per slide of the last move
    assert "ply 4 / 4" in browser.find_element("id", "vply").text
    browser.find_element("id", "btn-next").click()                 # past the end: stays on the last ply
    assert board.get_attribute("data-ply") == "4"
    assert png_colours(board.screenshot_as_png) > 50
    assert browser.execute_script("return location.hash") == "#game-2"
