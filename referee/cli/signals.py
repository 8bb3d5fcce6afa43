"""SIGINT/SIGTERM during a run: the first stops it cleanly, a second kills every engine at once."""

from __future__ import annotations

import asyncio
import signal

from ..engines.process import kill_all_engines
from ..matches.runner import Runner


async def run_with_signals(runner: Runner) -> bool:
    """Run; True if stopped by SIGINT/SIGTERM. A second signal kills every engine at once."""
    loop = asyncio.get_running_loop()
    signals_seen: list[str] = []

    def on_signal(name: str) -> None:
        signals_seen.append(name)
        if len(signals_seen) == 1:
            runner.progress.note(f"{name}: stopping; finished games are saved, engines are shutting down "
                                 f"(again to kill them at once)")
            runner.interrupt()
        else:
            kill_all_engines()

    installed = []
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, on_signal, sig.name)
            installed.append(sig)
        except (NotImplementedError, RuntimeError):
            pass
    try:
        await runner.run()
    finally:
        for sig in installed:
            loop.remove_signal_handler(sig)
    return runner.interrupted
