"""Why a game ended: the closed set every record's `termination` field takes its value from.

A StrEnum, so records, summaries and JSON keep the plain strings ('time forfeit', ...).
"""

from __future__ import annotations

from enum import StrEnum


class Termination(StrEnum):
    """How a game ended. Every value but NORMAL and ADJUDICATION is a forfeit by one engine."""

    NORMAL = "normal"
    ILLEGAL_MOVE = "illegal move"
    MALFORMED_OUTPUT = "malformed output"
    TIME_FORFEIT = "time forfeit"
    CRASH = "crash"
    DISCONNECT = "disconnect"
    STALL = "stall"
    START_FAILURE = "start failure"
    ADJUDICATION = "adjudication"

    @property
    def is_forfeit(self) -> bool:
        """True when one engine lost by breaking the protocol or the rules of play."""
        return self not in (Termination.NORMAL, Termination.ADJUDICATION)
