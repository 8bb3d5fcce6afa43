"""The browser fixture itself: headless Chromium starts offline, renders SVG, and the screenshot
check tells a drawn board from a blank element."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from tests.support.browser import browser, png_colours  # noqa: F401  (browser is a fixture)

pytestmark = pytest.mark.browser


def _page(body: str) -> str:
    return "data:text/html;charset=utf-8," + quote(f"<!doctype html><html><body style='margin:0'>{body}</body></html>")


def test_chromium_draws_svg_and_blank_is_told_apart(browser):  # noqa: F811
    cells = "".join(f"<rect data-cell='c{i}' x='{(i % 10) * 30}' y='{(i // 10) * 30}' width='30' height='30' "
                    f"fill='rgb({i * 2},{255 - i * 2},{(i * 37) % 256})'/>" for i in range(100))
    text = "<text x='40' y='150' font-size='40' fill='black'>board</text>"
    browser.get(_page(f"<div id='b' style='width:300px'><svg width='300' height='300'>{cells}{text}</svg></div>"
                      f"<div id='blank' style='width:300px;height:300px;background:#fff'></div>"))
    board = browser.find_element("css selector", "#b")
    assert board.size["width"] == 300
    assert len(browser.find_elements("css selector", "[data-cell]")) == 100
    assert png_colours(board.screenshot_as_png) >= 100
    assert png_colours(browser.find_element("css selector", "#blank").screenshot_as_png) == 1
