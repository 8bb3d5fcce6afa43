"""`isaac-referee check <engine command>`: an engine's conformance to SPEC.md, before a tournament.

Each check reports PASS, FAIL (with the evidence) or SKIP (an optional feature the engine does
not have), in one of two tiers (SPEC 10.5): **required** (what a tournament needs: handshake,
UCI_Variant, legal moves in each game, isready, quit) and **recommended** (id, error lines, `d`,
`moves`, perft, stop and isready during a search, the GUI commands `state` and `steps`). A crash is
a FAIL of the check that caused it; the engine is restarted so the remaining checks still say
something useful. Layout: ``session`` (the protocol client as the check uses it), ``positions``,
``checks``, ``report``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any

import protocol

from ..engines.process import EngineSpec
from .checks import Checker
from .positions import Positions, illegal_repeat, make_positions
from .report import CheckReport, CheckResult, Status, Tier
from .session import CHECK_MAX_LINE, CheckFailed, Skipped

__all__ = ["CHECK_MAX_LINE", "CheckFailed", "CheckReport", "CheckResult", "Positions", "Skipped", "Status",
           "Tier", "check_engine", "illegal_repeat", "make_positions", "run_check"]


async def check_engine(cmd: list[str], *, cwd: str | None = None, options: dict[str, str] | None = None,
                       games: Sequence[str] | None = None, timeout: float = 5.0, start_timeout: float = 10.0,
                       stop_ms: int = 50, movetime_ms: int = 100, seed: int = 1, perft_depth: int = 2,
                       io_log: Callable[[str], None] | None = None) -> CheckReport:
    """The conformance report of the engine run by `cmd` (asyncio form of run_check)."""
    spec = EngineSpec(name=cmd[0] if cmd else "engine", cmd=list(cmd), cwd=cwd, options=dict(options or {}))
    checker = Checker(spec, tuple(protocol.GAME_NAMES if games is None else games), dict(options or {}),
                      timeout=timeout, start_timeout=start_timeout, stop_ms=stop_ms, movetime_ms=movetime_ms,
                      seed=seed, perft_depth=perft_depth, io_log=io_log)
    return await checker.run()


def run_check(cmd: list[str], **kw: Any) -> CheckReport:
    """`isaac-referee check <engine command>`: run every check and return the report (.ok, .render())."""
    return asyncio.run(check_engine(cmd, **kw))
