"""Whether bubblewrap works on this machine, for the tests that run engines under sandbox=bwrap.

Outside CI a machine without a usable bwrap skips those tests (saying why); CI installs it, so there
a missing bwrap fails them instead of hiding the gap."""

from __future__ import annotations

import os

import pytest

from referee.engines.sandbox import SandboxError, check_available

try:
    check_available("bwrap")
    BWRAP_PROBLEM: str | None = None
except SandboxError as exc:
    BWRAP_PROBLEM = str(exc)

needs_bwrap = pytest.mark.skipif(BWRAP_PROBLEM is not None and not os.environ.get("CI"),
                                 reason=f"bwrap unusable here: {BWRAP_PROBLEM}")
