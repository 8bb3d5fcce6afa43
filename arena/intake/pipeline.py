"""A submission from upload to the ladder: stored, unpacked, built, checked, activated.

1. `submit_archive` (the web API, `isaac-arena submit`, `isaac-arena add`): the archive is written
   to archives/ (fsync'ed) and unpacked into a staging directory; a bad archive or manifest is
   refused at once with its message (nothing is kept). Then the version is recorded `queued` in
   the database and its directory moved to bots/<bot>/v<N>. From here a kill -9 loses nothing:
   the archive and the row are on disk.
2. `Intake.run` takes queued versions one at a time (oldest first): unpacks again if the directory
   is missing, runs the build (intake/build.py), then the referee's `check` on the bot as it will
   play (its sandbox, limits and directory) for every game of the arena. A version whose required
   tier passes becomes `active` (the bot's previous version retires); otherwise `rejected`, and
   its author sees the build log, the check's report and the reason.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import shutil
import sys
import traceback
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from referee.check import Status, Tier, run_check
from referee.results.store import write_atomic_bytes

from ..config import Arena
from ..db import bots as bots_db
from ..db.bots import VersionRow
from ..db.schema import BUILDING, CHECKING, QUEUED, REJECTED
from ..ladder.players import bot_dir, bot_spec
from .archive import ArchiveError, Limits, kind_of, single_root, unpack
from .build import run_build
from .manifest import MANIFEST, Manifest, ManifestError, read_manifest

POLL_INTERVAL = 2.0
CHECK_PERFT_DEPTH = 1
"""The check's perft depth: 1 keeps a Python bot's check to seconds (depth 2 of a slow perft took
it 25 s); perft is a recommended check, the required tier alone decides entry."""


class SubmissionError(Exception):
    """A submission refused before it was queued; `status` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


def archive_limits(arena: Arena) -> Limits:
    config = arena.config.archive
    return Limits(max_files=config.max_files, max_bytes=config.max_unpacked_mb << 20)


def unpack_bot(arena: Arena, archive: Path, dest: Path) -> Manifest:
    """Unpack `archive` into `dest` (files of a single top folder moved up) and read its manifest."""
    unpack(archive, dest, archive_limits(arena))
    try:
        root = single_root(dest)
        if root != dest and not (dest / MANIFEST).exists():
            inner = dest.with_name(dest.name + ".inner")
            root.rename(inner)
            dest.rmdir()
            inner.rename(dest)
        return read_manifest(dest)
    except BaseException:
        shutil.rmtree(dest, ignore_errors=True)
        raise


def submit_archive(arena: Arena, engine: Any, author_id: int, data: bytes) -> VersionRow:
    """Store and queue one submitted archive; SubmissionError (400/403/413) if it is refused."""
    if len(data) > arena.config.archive.max_mb << 20:
        raise SubmissionError(f"the archive is {len(data)} bytes; at most {arena.config.archive.max_mb} MB", 413)
    try:
        kind = kind_of(data[:8])
    except ArchiveError as exc:
        raise SubmissionError(str(exc)) from None
    sha = hashlib.sha256(data).hexdigest()
    arena.archives.mkdir(parents=True, exist_ok=True)
    arena.bots.mkdir(parents=True, exist_ok=True)
    name = f"{uuid.uuid4().hex}.{'zip' if kind == 'zip' else 'tar.gz'}"
    archive = arena.archives / name
    write_atomic_bytes(archive, data, durable=True)
    staging = arena.bots / f".staging-{uuid.uuid4().hex}"
    try:
        manifest = unpack_bot(arena, archive, staging)
    except (ArchiveError, ManifestError) as exc:
        archive.unlink(missing_ok=True)
        raise SubmissionError(str(exc)) from None
    try:
        row = bots_db.new_submission(engine, author_id, manifest.name, name, sha, manifest.argv(), manifest.build)
    except bots_db.BotError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        archive.unlink(missing_ok=True)
        raise SubmissionError(str(exc), exc.status) from None
    final = bot_dir(arena, row)
    final.parent.mkdir(parents=True, exist_ok=True)
    if final.exists():
        shutil.rmtree(final)
    staging.rename(final)
    return row


def pack_directory(path: Path) -> bytes:
    """A local bot directory as a tar.gz (for `isaac-arena add`): it then goes the same safe way."""
    import io
    import tarfile
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        tar.add(str(path), arcname=".", recursive=True)
    return buffer.getvalue()


def check_summary(report_json: dict[str, Any]) -> str:
    """Why a check failed, in one line: the failing required checks and their evidence."""
    failing = [r for r in report_json.get("results", []) if r["tier"] == Tier.REQUIRED and r["status"] == Status.FAIL]
    if not failing:
        return "the required tier of the check failed"
    shown = "; ".join(f"{r['name']}: {r['detail']}" for r in failing[:3])
    return f"the check's required tier failed ({len(failing)} check(s)): {shown}"[:1000]


class Intake:
    """Builds and checks queued versions one at a time, for as long as the server runs."""

    def __init__(self, arena: Arena, engine: Any, on_activated: Callable[[], None] = lambda: None,
                 log: Callable[[str], None] | None = None):
        self.arena = arena
        self.engine = engine
        self.on_activated = on_activated
        self.log = log or (lambda text: print(f"isaac-arena: {text}", file=sys.stderr, flush=True))
        self.wakeup = asyncio.Event()

    def poke(self) -> None:
        self.wakeup.set()

    async def run(self) -> None:
        requeued = await asyncio.to_thread(bots_db.requeue_interrupted, self.engine)
        if requeued:
            self.log(f"{requeued} submission(s) whose build or check the last stop cut off are queued again")
        while True:
            queued = await asyncio.to_thread(bots_db.versions_with_status, self.engine, QUEUED)
            for row in queued:
                try:
                    await self.process(row)
                except Exception as exc:   # a bug or a broken machine costs this version, not the server
                    traceback.print_exc(file=sys.stderr)
                    await self._reject(row, f"the arena could not build or check it ({type(exc).__name__}: "
                                            f"{str(exc)[:200]}); the host's log has the details")
            self.wakeup.clear()
            try:
                await asyncio.wait_for(self.wakeup.wait(), POLL_INTERVAL)
            except TimeoutError:
                pass

    async def process(self, row: VersionRow) -> None:
        """Build and check one version; it ends active or rejected."""
        directory = bot_dir(self.arena, row)
        try:
            if not directory.is_dir():
                await asyncio.to_thread(unpack_bot, self.arena, self.arena.archives / row.archive, directory)
        except (ArchiveError, ManifestError, OSError) as exc:
            await self._reject(row, f"the archive cannot be unpacked again: {exc}")
            return
        log = ""
        if row.build_command:
            await asyncio.to_thread(bots_db.set_status, self.engine, row.id, BUILDING, "building")
            result = await run_build(row.build_command, directory, self.arena.config.build, self.arena.config.sandbox)
            log = result.log
            if not result.ok:
                await self._reject(row, result.reason, build_log=log)
                return
        await asyncio.to_thread(bots_db.set_status, self.engine, row.id, CHECKING, "checking", build_log=log)
        report = await asyncio.to_thread(self._check, row)
        text = json.dumps(report)
        if report.get("ok"):
            await asyncio.to_thread(bots_db.set_status, self.engine, row.id, CHECKING, "checked", check_report=text)
            await asyncio.to_thread(bots_db.activate, self.engine, row.id,
                                    "playing: the check's required tier passed")
            self.log(f"{row.engine_name} passed its check and enters the ladder")
            self.on_activated()
        else:
            await self._reject(row, check_summary(report), check_report=text)

    def _check(self, row: VersionRow) -> dict[str, Any]:
        """The referee's check of the bot exactly as it will play (in a thread: it runs its own loop)."""
        spec = bot_spec(self.arena, row)
        try:
            argv = spec.argv()
        except ValueError as exc:
            return {"ok": False, "results": [], "error": str(exc)}
        report = run_check(argv, cwd=spec.cwd, games=list(self.arena.config.games),
                           timeout=self.arena.config.ladder.check_timeout,
                           start_timeout=self.arena.config.limits.start_timeout, perft_depth=CHECK_PERFT_DEPTH)
        out = report.to_json()
        out["text"] = report.render()
        out["command"] = list(row.command)   # the bot's own command, not the sandbox around it
        return out

    async def _reject(self, row: VersionRow, reason: str, **columns: Any) -> None:
        await asyncio.to_thread(bots_db.set_status, self.engine, row.id, REJECTED, reason, **columns)
        self.log(f"{row.engine_name} rejected: {reason}")
