"""The analysis board in the browser, at a phone's size and a desktop's: a game of a referee run
(its run named whole in the Runs tab) replayed, opened at a ply on the analysis board; the engine's
evaluation as a side's chances, several lines (MultiPV) and the chosen line drawn; the moves walked
by keys (arrows, Home, End) and by clicks; a move entered on the board; the line exported as the
referee's record line and as PGN; and the link it makes reopening the same position."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from protocol import new_game
from protocol.notation import parse_segment
from protocol.steps import next_steps
from tests.gui.page import ECHO_ENGINE, Page
from tests.support.gui_server import serving

pytestmark = pytest.mark.browser

def cells(segment: str) -> range:
    return range(parse_segment(segment).length)


RUN = "match-20261207-093015-hari-search-vs-fastmc-at-100ms"
"""A long run name, as the referee makes them: the Runs menu shows it whole."""
SIZES = [(360, 740, "phone"), (1280, 800, "desktop")]


def _record(game_id: int, seed: int) -> dict[str, Any]:
    """A finished HARI game as the referee records it (SPEC 10.4): short pieces placed at random while
    they fit (a game of some length), then random moves to the end."""
    rng = random.Random(seed)
    game = new_game("hari")
    start, moves = game.position(), []
    while not game.is_over():
        places = [o.word for o in next_steps(game, []).options if re.fullmatch(r"[a-j]\d[a-j]\d", o.word)]
        shortest = min((len(cells(p)) for p in places), default=0)
        pool = [p for p in places if len(cells(p)) == shortest]
        move = rng.choice(pool) if pool else str(game.random_move(rng))
        game.play(move)
        moves.append({"move": move, "ms": 5})
    outcome = game.result()
    side = {"cmd": ["x"], "cwd": None, "options": {}, "tc": None, "memory_mb": None, "cpu_seconds": None}
    return {"game_id": game_id, "game_type": "hari", "rules_version": "1", "start_position": start, "opening": [],
            "dark": {**side, "name": "alpha"}, "light": {**side, "name": "beta"},
            "time_control": {"dark": "st=0.1", "light": "st=0.1"}, "moves": moves, "result": outcome.text,
            "termination": "normal", "reason": outcome.reason, "final_scores": list(outcome.scores),
            "final_position": game.position()}


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return _record(0, 11)


@pytest.fixture(scope="module")
def server(tmp_path_factory, record):
    runs = tmp_path_factory.mktemp("runs")
    (runs / RUN).mkdir()
    (runs / RUN / "records.jsonl").write_text(json.dumps(record) + "\n")
    yield from serving("-engine", "name=echo", f"cmd={ECHO_ENGINE}", "--runs", str(runs))


def replay_at(page: Page, ply: int) -> None:
    """The Runs tab: the run chosen by its name, its game replayed to `ply`."""
    page.el("#tab-runs").click()
    page.wait_for(lambda: page.js(f"return document.querySelector('#run option[value=\"{RUN}\"]')?.textContent")
                  == RUN, "the run listed by its whole name")
    room = page.js("""const s = document.getElementById('run'), probe = document.createElement('span');
        probe.style.font = getComputedStyle(s).font; probe.textContent = arguments[0];
        document.body.appendChild(probe); const need = probe.getBoundingClientRect().width; probe.remove();
        return [s.getBoundingClientRect().width - need, s.getBoundingClientRect().width, window.innerWidth];""", RUN)
    if room[2] >= 880:
        assert room[0] >= 20, room                     # the menu is wide enough for the whole name (and its arrow)
    else:
        assert room[1] >= 0.8 * room[2], room         # a phone: the menu nearly as wide as the screen ...
    page.select("run", RUN)
    page.wait_for(lambda: page.els("#games tr[data-game-id]"), "the run's games")
    assert page.text("#run-info").startswith(RUN)      # ... and the chosen run's whole name written out
    page.js("document.querySelector('#games tr[data-game-id]').click()")   # (the list may be redrawn meanwhile)
    page.wait_for(lambda: page.data("replay-board", "ply") == "0", "the replay")
    for _ in range(ply):
        page.el("#next").click()
    page.wait_for(lambda: page.data("replay-board", "ply") == str(ply), "the ply")


def analysis_ply(page: Page) -> str:
    return page.data("a-board", "ply")


@pytest.mark.parametrize("width, height, kind", SIZES)
def test_a_replayed_game_on_the_analysis_board(server, browser, record, width, height, kind):
    page = Page(browser, server.url, width=width, height=height, phone=kind == "phone", viewport=kind == "desktop")
    moves = [m["move"] for m in record["moves"]]
    replay_at(page, 5)
    page.el("#replay-analyse").click()
    page.wait_for(lambda: page.attr("analysis", "hidden") == "false" and analysis_ply(page) == "5", "the analysis")
    assert page.moves("a-moves") and [m for _, m in page.moves("a-moves")] == moves
    assert page.el("#a-moves td.current").get_attribute("data-ply") == "4"   # the move that led here
    page.wait_for(lambda: "%" in page.text("#a-eval-text"), "the evaluation")
    assert page.text("#a-eval-text") in ("Dark\xa060%", "Light\xa060%")   # score cp 20 for the side to move
    page.select("a-lines", "3")                                              # several lines (MultiPV)
    page.wait_for(lambda: len(page.els("#a-pvs li")) == 3, "three lines")
    evals = [li.find_element("css selector", ".line-eval").text for li in page.els("#a-pvs li")]
    assert len(set(evals)) == 3, evals                                       # each line its own evaluation
    page.wait_for(lambda: page.els('#a-board [data-layer="pv"] .pv-place'), "the best line drawn")
    second = page.els("#a-pvs li")[1]
    shown = second.find_element("css selector", ".pv-move").text
    second.click()                                                           # another line drawn on the board
    page.wait_for(lambda: page.els(f'#a-board [data-layer="pv"] .pv-place[data-pv="{shown}"]'), "the chosen line")
    # the moves walked by keys and clicks
    body = page.el("body")
    body.send_keys("\ue014")                                                 # right arrow
    page.wait_for(lambda: analysis_ply(page) == "6", "the next move")
    body.send_keys("\ue012\ue012")                                           # left arrow, twice
    page.wait_for(lambda: analysis_ply(page) == "4", "two moves back")
    body.send_keys("\ue011")                                                 # Home
    page.wait_for(lambda: analysis_ply(page) == "0", "the start")
    body.send_keys("\ue010")                                                 # End
    page.wait_for(lambda: analysis_ply(page) == str(len(moves)), "the end")
    assert page.text("#a-status-title") in ("Dark wins", "Light wins", "Draw")   # the game's result there
    page.el('#a-moves td[data-ply="2"]').click()
    page.wait_for(lambda: analysis_ply(page) == "3", "the clicked move")
    page.el("#a-prev").click()
    page.wait_for(lambda: analysis_ply(page) == "2", "the previous move")
    assert page.attr("a-position", "value") == replayed_position(record, 2)
    assert page.errors() == []


def replayed_position(record: dict[str, Any], ply: int) -> str:
    game = new_game("hari")
    for move in record["moves"][:ply]:
        game.play(move["move"])
    return game.position()


def test_export_and_the_link_reopen_the_line(server, browser, record):
    page = Page(browser, server.url, width=1280, height=800, viewport=True)
    replay_at(page, 0)
    page.el("#replay-analyse").click()
    page.wait_for(lambda: analysis_ply(page) == "0", "the analysis at the start")
    page.el("#a-last").click()
    page.wait_for(lambda: analysis_ply(page) == str(len(record["moves"])), "the end")
    page.el("#a-record").click()                   # a finished game: the referee's record line
    page.wait_for(lambda: page.data("a-export", "kind") == "record" and page.attr("a-export-text", "value"), "the record")
    exported = json.loads(page.attr("a-export-text", "value"))
    assert [m["move"] for m in exported["moves"]] == [m["move"] for m in record["moves"]]
    assert (exported["result"], exported["final_position"]) == (record["result"], record["final_position"])
    assert exported["dark"]["name"] == "alpha"
    page.el("#a-pgn").click()
    page.wait_for(lambda: page.data("a-export", "kind") == "pgn", "the PGN")
    pgn = page.attr("a-export-text", "value")
    assert '[Game "hari"]' in pgn and f"1. {record['moves'][0]['move']}" in pgn and '[Dark "alpha"]' in pgn
    page.el('#a-moves td[data-ply="6"]').click()   # the link of ply 7
    page.wait_for(lambda: analysis_ply(page) == "7", "ply 7")
    position = page.attr("a-position", "value")
    page.el("#a-link").click()
    link = page.attr("a-export-text", "value")
    assert link.startswith(server.url + "#analysis?") and "ply=7" in link
    again = Page(browser, server.url, path=link[len(server.url):])   # a fresh page opened from the link
    again.wait_for(lambda: again.attr("analysis", "hidden") == "false" and analysis_ply(again) == "7",
                   "the linked position")
    assert again.attr("a-position", "value") == position
    assert [m for _, m in again.moves("a-moves")] == [m["move"] for m in record["moves"]]
    assert again.errors() == []


def test_a_pasted_position_and_a_move_entered_on_the_board(server, browser):
    page = Page(browser, server.url)
    page.el("#tab-analysis").click()
    box = page.el("#a-position")
    box.clear()
    box.send_keys("hari c3c7,e2g2/d4d8,a9c9 3333444455667/3333444455667 d -\n")
    page.wait_for(lambda: analysis_ply(page) == "0" and page.data("a-entry", "ready") == "1", "the position")
    page.wait_for(lambda: "%" in page.text("#a-eval-text"), "the evaluation")
    page.el('#a-board [data-segment="c3c7"]').click()              # a slide entered by clicks, then a play
    page.el('#a-board [data-cell="c8"]').click()
    page.wait_for(lambda: page.data("a-entry", "steps") == "c3c7>c4c8", "the slide")
    page.el('#a-board [data-cell="h3"]').click()
    page.el('#a-board [data-cell="h7"]').click()
    page.wait_for(lambda: analysis_ply(page) == "1", "the move played on the analysis board")
    assert page.moves("a-moves") == [("d", "c3c7>c4c8,h3h7")]
    box = page.el("#a-position")
    box.clear()
    box.send_keys("hari zz9/- 1 x -\n")
    page.wait_for(lambda: page.attr("a-error", "textContent"), "the error")
    assert "at column 6" in page.attr("a-error", "textContent")
    assert analysis_ply(page) == "1"                                 # the board shown stays
    assert page.errors() == []

