"""Clocks as players write them: `5+3` is 5 minutes and 3 s added a move, as on lichess.

The referee's time controls count seconds (`60+1` is a minute); a person typing `5+3` means five
minutes. The page's Clock box (and `isaac-gui --tc`) reads a bare `<minutes>+<seconds>` as
minutes, and takes the seconds form only where it cannot be mistaken: `1:30+2` (minutes:seconds),
`90s+2` (seconds said), `st=1` (seconds a move), and the referee's other `key=value` parts
(`movetime=`, `depth=`, `nodes=`, `margin=`). `untimed` (or `inf`, `-`) has no clock. Whatever is
typed becomes a referee TimeControl (referee/formats/timecontrol.py), which keeps the game's clocks.
"""

from __future__ import annotations

import re

from referee.formats.timecontrol import TimeControl

UNTIMED = "untimed"
UNTIMED_WORDS = (UNTIMED, "inf", "infinite", "unlimited", "none", "-", "\u221e")
NUMBER = r"[0-9]{1,9}(?:\.[0-9]{1,3})?"
_MINUTES = re.compile(rf"(?:(?P<moves>[0-9]{{1,5}})/)?(?P<min>{NUMBER})(?:m|min)?(?:\+(?P<inc>{NUMBER})s?)?")
_MIN_SEC = re.compile(rf"(?:(?P<moves>[0-9]{{1,5}})/)?(?P<min>[0-9]{{1,6}}):(?P<sec>[0-5][0-9](?:\.[0-9]{{1,3}})?)"
                      rf"(?:\+(?P<inc>{NUMBER})s?)?")
_SECONDS = re.compile(rf"(?:(?P<moves>[0-9]{{1,5}})/)?(?P<sec>{NUMBER})s(?:\+(?P<inc>{NUMBER})s?)?")
HOW = "write minutes + seconds a move, e.g. 5+3 (or 1:30+2, 90s+2, st=1, untimed)"
MAX_TEXT = 100


class ClockError(ValueError):
    """A clock the page cannot read; the text is one short sentence for the person who typed it."""


def parse_clock(text: object) -> TimeControl:
    """The time control a person means by `text` (ClockError, short and specific, if none)."""
    if not isinstance(text, str):
        raise ClockError(f"the clock is text, e.g. 5+3; {HOW}")
    words = text.replace(",", " ").split()
    if not words:
        raise ClockError(f"the clock is empty: {HOW}")
    if len(text) > MAX_TEXT:
        raise ClockError(f"a clock of {len(text)} characters is too long: {HOW}")
    parts = []
    for word in words:
        low = word.lower()
        if low in UNTIMED_WORDS:
            continue
        if "=" in low:
            parts.append(low)
        else:
            parts.append(_player_clock(word))
    try:
        return TimeControl.parse(" ".join(parts) or "inf")
    except ValueError as exc:
        raise ClockError(_short(str(exc), text)) from None


def _player_clock(word: str) -> str:
    """One clock part as a person writes it, in the referee's seconds ('5+3' -> '300+3')."""
    low = word.lower()
    for pattern in (_MIN_SEC, _SECONDS, _MINUTES):
        match = pattern.fullmatch(low)
        if match is None:
            continue
        fields = match.groupdict()
        if pattern is _MIN_SEC:
            seconds = 60 * int(fields["min"]) + float(fields["sec"])
        elif pattern is _SECONDS:
            seconds = float(fields["sec"])
        else:
            seconds = 60 * float(fields["min"])
        if seconds <= 0:
            raise ClockError(f"clock {word!r}: the time for the game must be more than 0 (or write untimed)")
        moves = f"{fields['moves']}/" if fields.get("moves") else ""
        inc = f"+{fields['inc']}" if fields.get("inc") else ""
        return f"{moves}{seconds:.3f}".rstrip("0").rstrip(".") + inc
    raise ClockError(f"clock {word!r} not understood: {HOW}")


def _short(referee_error: str, typed: str) -> str:
    """The referee's complaint about a part, without its grammar dump (the page states its own)."""
    detail = referee_error.split(": part ", 1)[-1].split("; a time control is", 1)[0]
    if detail.startswith("'") and "': " in detail:
        detail = detail.split("': ", 1)[1]   # the part's text again: the person sees what they typed
    if detail.startswith("unknown setting"):
        detail += f"; {HOW}"
    return f"clock {typed.strip()[:40]!r}: {detail}"


def clock_text(tc: TimeControl) -> str:
    """A time control as the Clock box shows it, read back by parse_clock to the same control."""
    parts = []
    if tc.base_ms is not None:
        base = tc.base_ms
        if base % 60_000 == 0:
            clock = str(base // 60_000)
        elif base % 1000 == 0 and base > 60_000:
            clock = f"{base // 60_000}:{base % 60_000 // 1000:02d}"
        else:
            clock = f"{_seconds(base)}s"
        if tc.moves:
            clock = f"{tc.moves}/{clock}"
        clock += f"+{_seconds(tc.inc_ms)}"
        parts.append(clock)
    if tc.movetime_ms is not None:
        parts.append(f"st={_seconds(tc.movetime_ms)}")
    parts += tc.search_limit_words()
    if tc.margin_ms != TimeControl().margin_ms:
        parts.append(f"margin={tc.margin_ms}")
    if tc.base_ms is None and tc.movetime_ms is None:
        parts.insert(0, UNTIMED)
    return " ".join(parts)


def clock_words(tc: TimeControl) -> str:
    """What the control means, in words: '5 min + 3 s a move', '1 s a move', 'untimed'."""
    out = []
    if tc.base_ms is not None:
        words = _duration(tc.base_ms)
        if tc.moves:
            words += f" per {tc.moves} moves"
        if tc.inc_ms:
            words += f" + {_seconds(tc.inc_ms)} s a move"
        out.append(words)
    if tc.movetime_ms is not None:
        out.append(f"{_seconds(tc.movetime_ms)} s a move")
    if tc.base_ms is None and tc.movetime_ms is None:
        out.append(UNTIMED)
    if tc.depth is not None:
        out.append(f"depth {tc.depth}")
    if tc.nodes is not None:
        out.append(f"{tc.nodes} nodes")
    return ", ".join(out)


def _seconds(ms: int) -> str:
    return f"{ms / 1000:.3f}".rstrip("0").rstrip(".") or "0"


def _duration(ms: int) -> str:
    minutes, rest = divmod(ms, 60_000)
    if minutes and rest:
        return f"{minutes} min {_seconds(rest)} s"
    return f"{minutes} min" if minutes else f"{_seconds(rest)} s"
