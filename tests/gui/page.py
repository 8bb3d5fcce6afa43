"""The GUI page as a person uses it, for the browser tests: choosing players, entering steps by
clicking pieces and cells, reading what the page shows (its data- attributes and texts)."""

from __future__ import annotations

import re
import sys
import time
from typing import Any

from tests.support.browser import console_errors
from tests.support.paths import REPO

CELL = re.compile(r"[a-j][0-9]")
WAIT = 20.0
ECHO_ENGINE = f"{sys.executable} {REPO / 'tests' / 'gui' / 'level_echo_engine.py'}"
"""cmd= of the engine that reports its Skill Level and go line (level_echo_engine.py)."""
RANDOM_ENGINE = f"{sys.executable} -m engine"


class Page:
    """The GUI page in a browser, loaded and connected."""

    def __init__(self, driver: Any, url: str, *, width: int | None = None, height: int = 900,
                 phone: bool = False, viewport: bool = False, fresh: bool = True, path: str = ""):
        """`width`: the window's; `phone`: a phone's screen of that width and height instead (Chromium's
        device emulation: the page laid out for a mobile viewport, scroll bars over the page as on a
        phone); `viewport`: a desktop window whose page area is exactly width x height. `fresh`: the
        page's storage emptied first (a browser shared by the tests of a module remembers nothing
        of the last test). `path`: what follows the server's address (a link made by the page)."""
        self.driver = driver
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        if (phone or viewport) and width is not None:
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                   {"width": width, "height": height, "deviceScaleFactor": 2 if phone else 1,
                                    "mobile": phone})
        elif width is not None:
            driver.set_window_size(width, height)
        if fresh:
            driver.get(url + "favicon.ico")   # the same origin, without the page's script
            driver.execute_script("localStorage.clear(); sessionStorage.clear();")
        driver.get(url + path)
        self.wait_connected()

    def wait_connected(self) -> None:
        """Connected, and the game the page starts by itself (a person plays a side) drawn."""
        self.wait_for(lambda: self.attr("connection", "textContent") == "connected" and
                      len(self.driver.find_elements("css selector", "#dark option")) > 1, "connection")
        if "human" in (self.attr("dark", "value"), self.attr("light", "value")):
            self.wait_for(lambda: self.game_no() != "", "the first game")

    def el(self, css: str) -> Any:
        return self.driver.find_element("css selector", css)

    def els(self, css: str) -> list[Any]:
        return self.driver.find_elements("css selector", css)

    def js(self, script: str, *args: Any) -> Any:
        return self.driver.execute_script(script, *args)

    def attr(self, element_id: str, name: str) -> str:
        return self.js(f"const e = document.getElementById('{element_id}'); return e ? String(e.{name}) : '';")

    def data(self, element_id: str, key: str) -> str:
        return self.js(f"const e = document.getElementById('{element_id}'); return e ? (e.dataset['{key}'] || '') : '';")

    def text(self, css: str) -> str:
        return self.js("const e = document.querySelector(arguments[0]); return e ? e.textContent : '';", css)

    def wait_for(self, condition, what: str, timeout: float = WAIT) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if condition():
                return
            time.sleep(0.03)
        raise AssertionError(f"timed out waiting for {what}; status: {self.attr('status', 'textContent')!r}, "
                             f"error: {self.attr('error', 'textContent')!r}, board: ply {self.data('board', 'ply')} "
                             f"started {self.data('board', 'started')}, entry: steps {self.data('entry', 'steps')!r} "
                             f"sel {self.data('entry', 'sel')!r} ready {self.data('entry', 'ready')}")

    def select(self, element_id: str, value: str) -> None:
        """Choose in a select as a person does (the page hears a change)."""
        self.js("const s = document.getElementById(arguments[0]); s.value = arguments[1];"
                "s.dispatchEvent(new Event('change'));", element_id, value)
        assert self.attr(element_id, "value") == value, f"{element_id} has no choice {value!r}"

    def new_game(self, game: str, dark: str, light: str, tc: str, level: str | None = None,
                 start: bool = False) -> None:
        """A new game through the folded settings, as a person starts one; `start`: press Start too
        (an engine to move waits for it)."""
        before = self.game_no()
        self.open_settings()
        self.select("game", game)
        self.select("dark", dark)
        self.select("light", light)
        if level is not None:
            self.select("level", level)
        tc_input = self.el("#tc")
        tc_input.clear()
        tc_input.send_keys(tc)
        self.el("#new").click()
        self.wait_for(lambda: self.game_no() != before and self.data("board", "game") == game,
                      "the new game")
        if start:
            self.press_start()

    def open_settings(self) -> None:
        """Unfold the new-game settings (folded on a phone)."""
        if not self.js("return document.getElementById('settings').open"):
            self.el("#settings > summary").click()

    def press_start(self) -> None:
        self.el("#start").click()
        self.wait_for(lambda: self.data("board", "started") == "1", "the clocks started")

    def game_no(self) -> str:
        return self.data("board", "gameNo")

    def set_up(self, position: str) -> None:
        """Type a position string and press Enter."""
        before = self.game_no()
        box = self.el("#position")
        box.clear()
        box.send_keys(position + "\n")
        self.wait_for(lambda: self.game_no() != before or self.attr("error", "textContent"), "the set-up")

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

    def click_cell(self, cell: str) -> None:
        self.click_board(f'[data-cell="{cell}"]')

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
                        self.click_cell(cell)
                if sent():
                    break
            if not sent():   # complete but not alone (b2e2>off): its button
                self.el(f'#choices button[data-word="{option}"]').click()
        self.wait_for(lambda: (self.data("board", "ply"), self.data("entry", "steps")) != before
                      or self.over(), f"the step {option} to be taken")

    def moves(self, table: str = "moves") -> list[tuple[str, str]]:
        """A move list as shown: (side, move) in order (read at once: the list may be redrawn meanwhile)."""
        return [tuple(pair) for pair in self.js(
            "return [...document.querySelectorAll(arguments[0])].map((c) => [c.dataset.side, c.textContent]);",
            f"#{table} td[data-ply]")]

    def rect(self, css: str) -> dict[str, float]:
        return self.js("const r = document.querySelector(arguments[0]).getBoundingClientRect();"
                       "return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, "
                       "width: r.width, height: r.height};", css)

    def errors(self) -> list[str]:
        """Console errors since the last look (a page in good order has none)."""
        return console_errors(self.driver)
