"""A real referee run seen in the browser: its report.html opened from disk and a game replayed to
the end, and the same game replayed in isaac-gui's Runs tab (its move list too); both end on the
recorded final board, and both number the games as the referee's console does (from 1)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from protocol import game_from_position
from tests.support.browser import browser, console_errors, png_colours  # noqa: F401  (browser is a fixture)
from tests.support.gui_server import REPO, GuiServer

pytestmark = pytest.mark.browser


CONSOLE: list[str] = []
"""What the referee printed while it played the run (its progress names each game)."""


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    """Two HARI games between random engines, played by the referee as a person would run it."""
    out = tmp_path_factory.mktemp("runs") / "match-hari"
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    engine = f"{sys.executable} -m engine"
    done = subprocess.run([sys.executable, "-m", "referee", "match", "--game", "hari", "--games", "2", "--seed", "3",
                           "--out", str(out), "-engine", "name=r1", f"cmd={engine}", "option.Strategy=random",
                           "-engine", "name=r2", f"cmd={engine}", "option.Strategy=random", "-each", "tc=st=0.01"],
                          cwd=REPO, env=env, check=True, capture_output=True, text=True, timeout=120)
    CONSOLE[:] = [done.stdout, done.stderr]
    return out


def _records(run: Path) -> list[dict]:
    return [json.loads(line) for line in (run / "records.jsonl").read_text().splitlines() if line.strip()]


def _segments(position: str) -> list[str]:
    return sorted(p.segment.name for p in game_from_position(position).state().pieces)


def _wait(condition, what: str, timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return
        time.sleep(0.03)
    raise AssertionError(f"timed out waiting for {what}")


def test_report_of_a_real_run_replays_a_game_to_its_end(browser, run_dir):  # noqa: F811
    record = _records(run_dir)[1]
    browser.get((run_dir / "report.html").as_uri())
    _wait(lambda: browser.execute_script("return document.body.dataset.ready") == "1", "the report")
    standings = browser.find_element("id", "standings").text
    assert "r1" in standings and "r2" in standings
    browser.find_element("css selector", f'a[data-game="{record["game_id"]}"]').click()
    board = browser.find_element("id", "vboard")
    plies = len(record["opening"]) + len(record["moves"])
    for ply in range(1, plies + 1):
        browser.find_element("id", "btn-next").click()
        assert board.get_attribute("data-ply") == str(ply)
    shown = sorted(e.get_attribute("data-segment") for e in board.find_elements("css selector", "[data-segment]"))
    assert shown == _segments(record["final_position"])
    assert png_colours(board.screenshot_as_png) > 50
    # numbered as the referee's console numbers them
    numbers = [a.text for a in browser.find_elements("css selector", "#games a[data-game]")]
    ids = [a.get_attribute("data-game") for a in browser.find_elements("css selector", "#games a[data-game]")]
    assert ids == ["0", "1"] and numbers == ["1", "2"]
    for number in numbers:
        assert f"game {number}" in "".join(CONSOLE), CONSOLE
    assert console_errors(browser) == []


def test_gui_replays_the_run_from_its_records(browser, run_dir):  # noqa: F811
    records = _records(run_dir)
    server = GuiServer("--runs", str(run_dir.parent))
    try:
        browser.get(server.url)
        _wait(lambda: len(browser.find_elements("css selector", "#run option")) == 2, "the run list")
        browser.find_element("id", "tab-runs").click()
        browser.execute_script("const s = document.getElementById('run'); s.value = 'match-hari';"
                               "s.dispatchEvent(new Event('change'));")
        _wait(lambda: len(browser.find_elements("css selector", "#games tr[data-game-id]")) == 2, "the games")
        rows = browser.find_elements("css selector", "#standings tr")
        assert {r.find_elements("css selector", "td")[1].text for r in rows[1:]} == {"r1", "r2"}
        numbers = [r.find_element("css selector", "td").text
                   for r in browser.find_elements("css selector", "#games tr[data-game-id]")]
        assert numbers == ["1", "2"]             # as report.html and the referee's console
        record = records[1]
        browser.find_element("css selector", f'#games tr[data-game-id="{record["game_id"]}"]').click()
        board = browser.find_element("id", "replay-board")
        _wait(lambda: board.get_attribute("data-ply") == "0" and
              browser.find_element("id", "replay-position").text == record["start_position"], "the replay")
        plies = len(record["opening"]) + len(record["moves"])
        for ply in range(1, plies + 1):
            browser.find_element("id", "next").click()
            assert board.get_attribute("data-ply") == str(ply)
        assert browser.find_element("id", "replay-position").text == record["final_position"]
        shown = sorted(e.get_attribute("data-segment") for e in board.find_elements("css selector", "[data-segment]"))
        assert shown == _segments(record["final_position"])
        assert record["result"] in browser.find_element("id", "replay-info").text
        # the replay's move list: every move, numbered by moves, a click shows the position after it
        cells = browser.find_elements("css selector", "#replay-moves td[data-ply]")
        assert [c.text for c in cells] == record["opening"] + [m["move"] for m in record["moves"]]
        assert browser.find_element("css selector", "#replay-moves th").text == "1."
        cells[2].click()
        assert board.get_attribute("data-ply") == "3"
        assert "current" in browser.find_elements("css selector", "#replay-moves td[data-ply]")[2].get_attribute("class")
        browser.find_element("id", "last").click()
        # following the run: a game in progress (the referee's live.json) is shown as it goes
        browser.find_element("id", "follow").click()
        position = records[0]["final_position"]
        (run_dir / "live.json").write_text(json.dumps({"games": [
            {"game_id": 7, "dark": "r2", "light": "r1", "moves": [m["move"] for m in records[0]["moves"]],
             "position": position}]}))
        _wait(lambda: board.get_attribute("data-live") == "7", "the live game")
        assert "live: game 8" in browser.find_element("id", "replay-info").text
        assert browser.find_element("id", "replay-position").text == position
        assert console_errors(browser) == []
    finally:
        (run_dir / "live.json").unlink(missing_ok=True)
        server.stop()
