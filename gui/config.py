"""What the server may run: engines come from its command line or engines file, never the browser.

The browser names engines from the list built here; a name not in it is refused, so a page cannot
start programs of its choosing. Engine specs are parsed by the referee's own code (referee.engines.config),
so `-engine`, `-each` and `--engines-file` mean exactly what they mean to isaac-referee.
"""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import dataclass, field
from pathlib import Path

from referee.engines.config import ConfigError, build_engines
from referee.engines.process import EngineSpec

BUILTIN_STRATEGIES = ("search", "greedy", "random")
"""The reference engine's strategies, offered when no engine is given."""

DEFAULT_TC = "5+3"
"""5 minutes and 3 s a move (the page's clocks count minutes, as lichess's: gui/clock.py)."""
HUMAN = "human"


def reference_engine_cmd() -> list[str]:
    """The reference engine run by this very interpreter (so venvs carry over)."""
    return [sys.executable, "-m", "engine"]


def reference_engine_env() -> dict[str, str]:
    """PYTHONPATH naming where this interpreter finds the project's `engine` package: engines get none
    of the server's environment but PATH, HOME and LANG (referee/engines/environment.py), so a server
    run from a checkout with PYTHONPATH set tells its reference engine where the checkout is."""
    found = importlib.util.find_spec("engine")
    if found is None or found.origin is None:
        return {}
    return {"PYTHONPATH": str(Path(found.origin).resolve().parent.parent)}


@dataclass
class GuiConfig:
    """The server's settings: engines by name, the rules engine, run directories, the default clock."""

    engines: dict[str, EngineSpec]
    rules: EngineSpec
    runs_dirs: list[Path] = field(default_factory=list)
    default_tc: str = DEFAULT_TC

    def engine(self, name: object) -> EngineSpec:
        """The engine called `name`; ConfigError for anything else (the browser's word is a name only)."""
        if not isinstance(name, str) or name not in self.engines:
            raise ConfigError(f"no engine named {str(name)[:40]!r}; the server offers: "
                              f"{', '.join(self.engines)}")
        return self.engines[name]


def builtin_engines() -> dict[str, EngineSpec]:
    """One engine per built-in strategy of isaac-engine."""
    return {s: EngineSpec(name=s, cmd=reference_engine_cmd(), options={"Strategy": s}, env=reference_engine_env())
            for s in BUILTIN_STRATEGIES}


def build_config(engine_words: list[list[str]], each_words: list[list[str]], engines_file: str | None,
                 rules_words: list[str] | None, runs_dirs: list[str], tc: str | None = None) -> GuiConfig:
    """GuiConfig from the command line; ConfigError names the mistake."""
    if engine_words or engines_file:
        specs = build_engines(engine_words, each_words, engines_file)
        engines = {spec.name: spec for spec in specs}
    else:
        engines = builtin_engines()
    if HUMAN in engines:
        raise ConfigError(f"an engine may not be called {HUMAN!r}: that name means a person at the board")
    if rules_words:
        rules = build_engines([["name=rules", *rules_words]], None, None)[0]
    else:
        rules = EngineSpec(name="rules", cmd=reference_engine_cmd(), env=reference_engine_env())
    dirs = []
    for text in runs_dirs:
        path = Path(text)
        if not path.is_dir():
            raise ConfigError(f"--runs: {text!r} is not a directory")
        dirs.append(path.resolve())
    if tc is not None:
        from .clock import ClockError, parse_clock
        try:
            parse_clock(tc)
        except ClockError as exc:
            raise ConfigError(f"--tc: {exc}") from None
    return GuiConfig(engines=engines, rules=rules, runs_dirs=dirs, default_tc=tc or DEFAULT_TC)
