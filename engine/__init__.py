"""isaac-arena's engine: a UCI-style stdin/stdout program for ISAAC, FOUNDATIONS and HARI.

`python -m engine` (or `isaac-engine`) speaks the protocol of SPEC.md; the
command loop is engine/uci.py, the ways of choosing a move are engine/strategies/.
Importing this package is cheap on purpose: start-up to `uciok` must be fast.
"""

from protocol import __version__

__all__ = ["__version__"]
