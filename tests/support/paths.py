"""Where the tests find the repository and their fixture engines (one place, whatever a test's folder)."""

from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
REPO = TESTS.parent
BAD_ENGINES = TESTS / "engines" / "bad"
"""Engines that break the protocol in one way each (the referee's failure tests)."""
HOSTILE_ENGINES = TESTS / "engines" / "hostile"
"""Engines that attack the host (the sandbox tests)."""
MINIMAL_ENGINE = TESTS / "engines" / "minimal.py"
"""The smallest engine that can enter a tournament (docs/referee.md)."""
BENCHMARKS = REPO / "benchmarks"
