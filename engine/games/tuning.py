"""Variants of the searchers' settings, written as text: `<game>.<field>=<value>,...`.

How a tuning run or an SPRT asks for a variant of the search without patching a module: the
engine's SearchSettings option (SPEC 9.3) and benchmarks/ab_inprocess.py take this text, e.g.
`hari.scarce=8,hari.widths=((24,12),(32,24)),foundations.mcts.c_puct=1.2`. Each field keeps its
type (a whole number where the setting is one; a number where it is a float; a tuple of pairs
for HARI's widths), and a nested settings value is reached by dots.
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Mapping
from typing import Any

from engine.games import searcher_for, searcher_names


def parse_changes(text: str, defaults: Mapping[str, object] | None = None) -> dict[str, object]:
    """{game name: its searcher's default settings with the changes of `text` made}; ValueError
    naming the part that is wrong (and why) otherwise. An empty text changes nothing.
    `defaults`: {game name: settings} to change instead of the searchers' (the `fastmc`
    partner's PlayoutSettings)."""
    settings: dict[str, object] = {}
    known = defaults if defaults is not None else {name: None for name in searcher_names()}
    for part in _top_level(text):
        if not part.strip():
            continue
        key, equals, value_text = part.partition("=")
        game, _, path = key.strip().partition(".")
        if not equals or not path or not value_text.strip():
            raise ValueError(f"{part.strip()!r}: expected <game>.<field>=<value>")
        if game not in known:
            kind = "searcher" if defaults is None else "settings"
            raise ValueError(f"{part.strip()!r}: no {kind} for game {game!r} (one of {', '.join(known)})")
        try:
            value = ast.literal_eval(value_text.strip())
        except (ValueError, SyntaxError):
            raise ValueError(f"{part.strip()!r}: {value_text.strip()!r} is not a number or a tuple") from None
        current = settings.get(game, known[game] if defaults is not None else searcher_for(game).defaults)
        settings[game] = _replaced(current, path.strip().split("."), value, part.strip())
    return settings


def _top_level(text: str) -> list[str]:
    """`text` split at the commas outside brackets (a value may be a tuple)."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += (ch in "([") - (ch in ")]")
        if ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def _replaced(settings: Any, path: list[str], value: Any, part: str) -> Any:
    """`settings` with the field at `path` set to `value` (nested settings by dots), its type kept."""
    names = {f.name for f in dataclasses.fields(settings)} if dataclasses.is_dataclass(settings) else set()
    if path[0] not in names:
        raise ValueError(f"{part!r}: no field {path[0]!r} in {type(settings).__name__} "
                         f"(fields: {', '.join(sorted(names))})")
    old = getattr(settings, path[0])
    if len(path) > 1:
        value = _replaced(old, path[1:], value, part)
    elif isinstance(old, float) and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    elif type(value) is not type(old) or (isinstance(old, tuple) and not _same_shape(old, value)):
        raise ValueError(f"{part!r}: {path[0]} is {_shape(old)}, not {_shape(value)}")
    try:
        return dataclasses.replace(settings, **{path[0]: value})
    except ValueError as out_of_range:
        raise ValueError(f"{part!r}: {out_of_range}") from None


def _same_shape(old: tuple[Any, ...], new: tuple[Any, ...]) -> bool:
    """A tuple setting keeps the type of its elements (HARI's widths: pairs of whole numbers); an empty one
    fits any (whether a setting may be empty is its settings' own check: HARI's budget_tiers may, widths not)."""
    if not old or not new:
        return True
    kinds = {_shape(x) for x in old}
    return all(_shape(x) in kinds for x in new)


def _shape(value: Any) -> str:
    if isinstance(value, tuple):
        return "a tuple of " + ("/".join(sorted({_shape(x) for x in value})) or "nothing")
    name = type(value).__name__
    return f"an {name}" if name[0] in "aeiou" else f"a {name}"
