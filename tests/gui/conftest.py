"""Fixtures of the GUI's tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.browser import browser_session


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium for a test module, each Page starting with empty storage (tests/gui/page.py);
    a module that wants a fresh browser per test imports `browser` from tests.support.browser."""
    yield from browser_session()
