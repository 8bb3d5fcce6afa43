"""Time controls (SPEC 10.1): what an engine is allowed a move or a game, read and written as text.

A time control is written the cutechess way, as one or more space-separated
parts (see `TimeControl.parse`). The clocks that run during a game, measured by
the referee itself, are referee/matches/clock.py's.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

_CLOCK_RE = re.compile(r"(?:(?P<moves>[0-9]+)/)?(?:(?P<minutes>[0-9]{1,9}):)?(?P<base>[0-9]+(?:\.[0-9]+)?)"
                       r"(?:\+(?P<inc>[0-9]+(?:\.[0-9]+)?))?")
"""'[moves/][minutes:]seconds[+increment]': cutechess writes one minute as 1:00 or 60."""
_MS_RE = re.compile(r"(?P<num>[0-9]+(?:\.[0-9]+)?)(?P<unit>ms|s)?")
_SECONDS_RE = re.compile(r"[0-9]+(?:\.[0-9]+)?")
"""Numbers are ASCII digits only ('１０' is not 10), with no exponent ('1e306' is refused)."""
MAX_MS = 2**31 - 1
"""Every time of a control is at most this many ms (about 24.8 days), as on the wire (SPEC 9.4)."""
MAX_DEPTH = 1_000
MAX_NODES = 2**63 - 1
MAX_MOVES = 10_000
MAX_TEXT = 1_000
"""Longest time-control text."""

TC_SYNTAX = ("a time control is space-separated parts: 'inf', '[<minutes>:]<seconds>[+<increment seconds>]', "
             "'<moves>/<seconds>[+<increment>]', 'st=<seconds per move>', 'movetime=<ms>', "
             "'depth=<plies>', 'nodes=<n>', 'margin=<ms>'")


def _seconds_to_ms(text: str, what: str) -> int:
    if not _SECONDS_RE.fullmatch(text):
        raise ValueError(f"{what} needs a non-negative number of seconds (ASCII digits, e.g. 10 or 0.5), "
                         f"not {_cut(text)}")
    return _bounded_ms(float(text) * 1000, text, what)


def _bounded_ms(ms: float, text: str, what: str) -> int:
    if not math.isfinite(ms) or ms > MAX_MS:
        shown = text if len(text) <= 25 else f"a {len(text)}-character number"
        raise ValueError(f"{what} must be at most {MAX_MS} ms ({MAX_MS // 86_400_000} days), not {shown}")
    return int(round(ms))


def _cut(text: str) -> str:
    """repr of text, cut to 60 characters (an error line stays one readable line)."""
    return repr(text) if len(text) <= 60 else repr(text[:57] + "...")


def _format_seconds(ms: int) -> str:
    """1000 -> '1', 100 -> '0.1', 1500 -> '1.5': the shortest text that parses back exactly."""
    text = f"{ms / 1000:.3f}".rstrip("0").rstrip(".")
    return text or "0"


def _positive_int(text: str, what: str, minimum: int = 1, maximum: int = MAX_NODES) -> int:
    if not text.isascii() or not text.isdigit() or len(text) > 25:
        raise ValueError(f"{what} needs a whole number of at most 25 ASCII digits, not {text[:40]!r}")
    value = int(text)
    if value < minimum:
        raise ValueError(f"{what} must be at least {minimum}, not {value}")
    if value > maximum:
        raise ValueError(f"{what} must be at most {maximum}, not {value}")
    return value


@dataclass(frozen=True)
class TimeControl:
    """What each move may cost. Times in milliseconds; None means 'not limited this way'."""

    base_ms: int | None = None      # game clock ('10+0.1' -> 10000, inc 100)
    inc_ms: int = 0
    movetime_ms: int | None = None  # fixed time per move ('st=0.1' or 'movetime=100')
    depth: int | None = None        # 'depth=4'
    nodes: int | None = None        # 'nodes=5000'
    margin_ms: int = 50             # grace before a time forfeit
    moves: int | None = None        # '40/60': the base time is given again every `moves` moves

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """Parse e.g. '10+0.1', '40/60+0.5', 'st=0.1', 'movetime=100', 'depth=4', 'nodes=5000', 'inf',
        or several parts: 'inf depth=4', '5+0.05 margin=100'. ValueError says what is wrong."""
        if not isinstance(text, str) or not text.strip():
            raise ValueError(f"empty time control; {TC_SYNTAX}")
        if len(text) > MAX_TEXT:
            raise ValueError(f"time control of {len(text)} characters; at most {MAX_TEXT}")
        fields: dict[str, int] = {}
        for part in text.replace(",", " ").split():
            try:
                cls._parse_part(part, fields)
            except ValueError as exc:
                raise ValueError(f"bad time control {_cut(text)}: part {_cut(part)}: {exc}") from None
        return cls(**fields)

    @staticmethod
    def _parse_part(part: str, fields: dict[str, int]) -> None:
        def put(key: str, value: int) -> None:
            if key in fields:
                raise ValueError(f"{key.replace('_ms', '')} given twice")
            fields[key] = value

        low = part.lower()
        if low in ("inf", "infinite"):
            return  # 'inf' adds no limit; accepted so cutechess habits ('inf depth=4') work
        if "=" in low:
            key, _, value = low.partition("=")
            if not value:
                raise ValueError(f"{key}= needs a value")
            if key == "st":
                put("movetime_ms", _seconds_to_ms(value, "st"))
            elif key == "movetime":
                match = _MS_RE.fullmatch(value)
                if not match:
                    raise ValueError(f"movetime needs milliseconds like 100 or 100ms, not {value!r}")
                number = float(match["num"]) * (1000 if match["unit"] == "s" else 1)
                put("movetime_ms", _bounded_ms(number, value, "movetime"))
            elif key == "depth":
                put("depth", _positive_int(value, "depth", 1, MAX_DEPTH))
            elif key == "nodes":
                put("nodes", _positive_int(value, "nodes"))
            elif key in ("margin", "timemargin"):
                put("margin_ms", _positive_int(value.removesuffix("ms"), "margin", 0, MAX_MS))
            elif key == "tc":
                if "=" in value:
                    raise ValueError("tc= takes a clock such as 10+0.1; settings cannot be nested in it")
                TimeControl._parse_part(value, fields)
            else:
                raise ValueError(f"unknown setting {key!r}; {TC_SYNTAX}")
            if fields.get("movetime_ms") == 0:
                raise ValueError("time per move must be more than 0 ms")
            return
        match = _CLOCK_RE.fullmatch(low)
        if not match:
            raise ValueError(f"not understood; {TC_SYNTAX}")
        put("base_ms", _bounded_ms(_seconds_to_ms(match["base"], "base time") + 60_000 * int(match["minutes"] or 0),
                                   low, "base time"))
        if fields["base_ms"] <= 0:
            raise ValueError("the base time must be more than 0 seconds")
        fields["inc_ms"] = _seconds_to_ms(match["inc"], "increment") if match["inc"] else 0
        if match["moves"]:
            fields["moves"] = _positive_int(match["moves"], "moves per session", 1, MAX_MOVES)

    def __post_init__(self) -> None:
        if self.base_ms is None and (self.inc_ms or self.moves):
            raise ValueError("an increment or moves per session needs a base time")

    @property
    def timed(self) -> bool:
        """True when a move can be lost on time (a game clock or a fixed time per move)."""
        return self.base_ms is not None or self.movetime_ms is not None

    def __str__(self) -> str:
        parts = []
        if self.base_ms is not None:
            clock = _format_seconds(self.base_ms)
            if self.moves:
                clock = f"{self.moves}/{clock}"
            if self.inc_ms:
                clock += f"+{_format_seconds(self.inc_ms)}"
            parts.append(clock)
        if self.movetime_ms is not None:
            parts.append(f"movetime={self.movetime_ms}")
        if self.depth is not None:
            parts.append(f"depth={self.depth}")
        if self.nodes is not None:
            parts.append(f"nodes={self.nodes}")
        if not parts:
            parts.append("inf")
        if self.margin_ms != 50:
            parts.append(f"margin={self.margin_ms}")
        return " ".join(parts)
