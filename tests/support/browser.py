"""Headless Chromium through Selenium, for tests that must run in a real browser.

Use it from a test module with `from browser import browser  # noqa: F401` (a pytest fixture),
or call `start_chromium()` yourself. The machine has no network: Debian's chromium and
chromium-driver are used as installed (.ci/run installs them), never downloaded, and every
background fetch of Chromium is switched off. Without them the tests skip on a developer's
machine but fail under CI (CI=true), so a missing browser cannot pass unnoticed.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
WINDOW = (1280, 1000)


def browser_problem() -> str | None:
    """Why no browser can run here, or None."""
    for path in (CHROMIUM, CHROMEDRIVER):
        if not os.access(path, os.X_OK):
            return f"{path} is missing (apt-get install chromium chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    return None


def start_chromium(profile_dir: str) -> Any:
    """A headless Chromium WebDriver with a fresh profile in `profile_dir`."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--disable-extensions", "--no-default-browser-check",
                 f"--user-data-dir={profile_dir}", f"--window-size={WINDOW[0]},{WINDOW[1]}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})   # console_errors() reads them
    if os.geteuid() == 0:
        options.add_argument("--no-sandbox")   # Chromium refuses to run as root with its sandbox
    driver = webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER))
    driver.set_page_load_timeout(30)
    return driver


def browser_session() -> Iterator[Any]:
    """A WebDriver, skipped (failed under CI) without a browser; the browser and its profile are removed
    afterwards. `browser` gives one per test; a module may share one (a fixture of scope "module"
    yielding from this), each test then starting from a page with its storage cleared (tests/gui/page.py)."""
    problem = browser_problem()
    if problem is not None:
        if os.environ.get("CI"):
            pytest.fail(f"browser tests cannot run under CI: {problem}")
        pytest.skip(problem)
    profile = tempfile.mkdtemp(prefix="isaac-chromium-")
    driver = start_chromium(profile)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
def browser() -> Iterator[Any]:
    """A WebDriver for one test."""
    yield from browser_session()


def console_errors(driver: Any) -> list[str]:
    """Messages the page logged at level SEVERE since the last call (console errors, uncaught
    exceptions, failed loads such as a 404): a page in good order has none."""
    return [entry["message"] for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]


def png_colours(png: bytes) -> int:
    """Distinct colours in a PNG screenshot (non-interlaced 8-bit RGB/RGBA, as Chromium writes),
    read with the standard library: a blank or failed page has very few."""
    import struct
    import zlib

    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        data = png[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", data[:10])
            if depth != 8 or colour not in (2, 6):
                raise ValueError(f"unsupported PNG (depth {depth}, colour type {colour})")
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += data
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    previous = bytearray(stride)
    colours: set[bytes] = set()
    for row in range(height):
        start = row * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        colours.update(bytes(line[i:i + 3]) for i in range(0, stride, channels))
        previous = line
    return len(colours)


def save_screenshot(element: Any, path: Path) -> bytes:
    """The element's screenshot as PNG bytes, also written to `path`."""
    png = element.screenshot_as_png
    path.write_bytes(png)
    return png
