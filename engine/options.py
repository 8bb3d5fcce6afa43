"""The engine's options: what `uci` announces and `setoption` may change.

Names are matched case-insensitively, as UCI GUIs expect. Values are checked
by protocol.messages.OptionSpec.coerce, so the engine and the referee agree on
what each option type accepts.
"""

from __future__ import annotations

import re

from protocol import registry
from protocol.messages import OptionSpec, OptionValue, ProtocolError, SetOption

from .search.timeman import DEFAULT_OVERHEAD_MS
from .strategies import STRATEGY_NAMES
from .strategies.base import FULL_SKILL

SEED_MAX = 2**31 - 1
NO_SETTINGS = "<empty>"
"""SearchSettings' default: the search plays its own settings (UCI's spelling of an empty string)."""



def option_specs() -> tuple[OptionSpec, ...]:
    """Every option, in the order `uci` lists them; the games and strategies as their registries
    hold them when the engine starts (a game registered at run time, as a test's, is a variant)."""
    return (
        OptionSpec("UCI_Variant", "combo", registry.names()[0], vars=list(registry.names())),
        OptionSpec("Strategy", "combo", STRATEGY_NAMES[0], vars=list(STRATEGY_NAMES)),
        OptionSpec("Seed", "spin", "0", min=0, max=SEED_MAX),
        OptionSpec("MoveOverhead", "spin", str(DEFAULT_OVERHEAD_MS), min=0, max=5000),
        OptionSpec("OwnBook", "check", "true"),
        OptionSpec("Skill Level", "spin", str(FULL_SKILL), min=0, max=FULL_SKILL),
        OptionSpec("SearchSettings", "string", NO_SETTINGS),
    )


def _default(spec: OptionSpec) -> OptionValue:
    return spec.coerce(spec.default)


class Options:
    """Current option values, keyed by the canonical option name."""

    def __init__(self) -> None:
        self.specs = option_specs()
        self._specs = {spec.name.lower(): spec for spec in self.specs}
        self.values = {spec.name: _default(spec) for spec in self.specs}

    def __getitem__(self, name: str) -> OptionValue:
        return self.values[name]

    def text(self, name: str) -> str:
        """The value of a combo or string option (its spec guarantees a str)."""
        value = self.values[name]
        assert isinstance(value, str), f"option {name} is not a text option"
        return value

    def number(self, name: str) -> int:
        """The value of a spin option (its spec guarantees an int)."""
        value = self.values[name]
        assert isinstance(value, int) and not isinstance(value, bool), f"option {name} is not a spin option"
        return value

    def flag(self, name: str) -> bool:
        """The value of a check option (its spec guarantees a bool)."""
        value = self.values[name]
        assert isinstance(value, bool), f"option {name} is not a check option"
        return value

    def lines(self) -> list[str]:
        """The `option name ... type ...` lines of the `uci` answer."""
        return [spec.format() for spec in self.specs]

    def set(self, line: str, cmd: SetOption) -> tuple[str, object]:
        """Apply a parsed `setoption`; returns (canonical name, typed value).

        Raises ProtocolError pointing into `line` (the text the user sent) when
        the option is unknown or the value is not allowed; nothing changes then.
        """
        spec = self._specs.get(cmd.name.lower())
        if spec is None:
            known = ", ".join(s.name for s in self.specs)
            raise ProtocolError(line, _word_column(line, "name", 1), f"unknown option {cmd.name!r}; options are {known}")
        try:
            value = spec.coerce(cmd.value)
        except ProtocolError as e:
            where = _word_column(line, "value", 1) if cmd.value is not None else len(line.rstrip()) + 1
            raise ProtocolError(line, where, e.message) from None
        self.values[spec.name] = value
        return spec.name, value


def _word_column(line: str, keyword: str, skip: int) -> int:
    """1-based column of the word `skip` words after the first `keyword` word of `line`."""
    words = [m for m in re.finditer(r"[^ \t]+", line)]
    for k, m in enumerate(words):
        if m.group() == keyword and k + skip < len(words):
            return words[k + skip].start() + 1
    return len(line) + 1
