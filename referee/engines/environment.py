"""The environment an engine starts in: the same few variables on every host, whatever the referee's
own environment holds.

A bot that works only because the host happens to set something (PYTHONUNBUFFERED=1 is common in
container images, and hides a Python bot that never flushes its output) would pass a check on one
machine and lose every game on another. So engines get PATH and HOME from the referee (commands are
found as in its shell; under the sandbox HOME is the engine's own directory), LANG=C.UTF-8, and what
the host adds for an engine with `env.NAME=VALUE`: nothing else. Check, match, tournament, book and the
sandbox all start engines through the same EngineProcess, so all get this environment.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

PASSED_ON = ("PATH", "HOME")
"""Taken from the referee's environment when it has them."""
FIXED = {"LANG": "C.UTF-8"}
"""The same on every host: text is UTF-8."""
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def bad_env_name(name: str) -> str | None:
    """Why `name` cannot be an environment variable's name (None if it can)."""
    if NAME.match(name):
        return None
    return f"{name!r} is not a variable name (letters, digits and _, not starting with a digit)"


def engine_environment(extra: Mapping[str, str], referee: Mapping[str, str] | None = None) -> dict[str, str]:
    """PATH and HOME from `referee` (default: this process's environment; PATH falls back to the
    system's default), LANG=C.UTF-8, then `extra` (the host's env.NAME=VALUE), which wins."""
    source = os.environ if referee is None else referee
    env = {name: source[name] for name in PASSED_ON if name in source}
    env.setdefault("PATH", os.defpath)
    return {**env, **FIXED, **extra}
