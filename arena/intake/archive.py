"""Unpacking a submitted archive (zip or tar.gz) without trusting anything in it.

Refused, each with a message naming the entry: more than `max_files` entries, more than
`max_bytes` once unpacked (counted on the bytes actually written, so a zip bomb stops at the
limit whatever its headers claim), a path that is absolute, has a `..` part, a backslash, a
control character or is too long, two entries with one path, symbolic or hard links, devices,
FIFOs and anything else that is not a plain file or a directory. Files are created fresh under
the destination (O_EXCL | O_NOFOLLOW), with mode 0644 or 0755 (no set-uid bits), so nothing is
ever written outside the bot's own directory.
"""

from __future__ import annotations

import os
import shutil
import stat
import tarfile
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO

MAX_PATH = 240
MAX_DEPTH = 32
CHUNK = 1 << 16


class ArchiveError(Exception):
    """The archive is refused; the message says which entry and why."""


@dataclass(frozen=True)
class Limits:
    max_files: int
    max_bytes: int


@dataclass
class Entry:
    """One member: its checked path, whether a directory, its mode bits, and how to read it."""

    path: PurePosixPath
    is_dir: bool
    executable: bool
    open: object   # a callable returning a binary stream (files only)


def kind_of(data_head: bytes) -> str:
    """'zip' or 'tar.gz' from the first bytes; ArchiveError otherwise."""
    if data_head.startswith(b"PK\x03\x04") or data_head.startswith(b"PK\x05\x06"):
        return "zip"
    if data_head.startswith(b"\x1f\x8b"):
        return "tar.gz"
    raise ArchiveError("not a zip or tar.gz archive (its first bytes are neither)")


def check_path(name: str) -> PurePosixPath:
    """The entry's relative path; ArchiveError for anything that could land outside or confuse."""
    shown = repr(name[:80])
    if not name or name in (".", "./"):
        raise ArchiveError(f"an entry has an empty name {shown}")
    if len(name) > MAX_PATH:
        raise ArchiveError(f"entry {shown}...: its path is longer than {MAX_PATH} characters")
    if any(ord(c) < 32 or c == "\x7f" for c in name):
        raise ArchiveError(f"entry {shown}: a control character in its name")
    if "\\" in name:
        raise ArchiveError(f"entry {shown}: a backslash in its name (paths use '/')")
    if name.startswith("/"):
        raise ArchiveError(f"entry {shown}: an absolute path (entries must stay inside the archive)")
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if any(p == ".." for p in parts):
        raise ArchiveError(f"entry {shown}: a '..' in its path (entries must stay inside the archive)")
    if not parts:
        raise ArchiveError(f"an entry has an empty name {shown}")
    if len(parts) > MAX_DEPTH:
        raise ArchiveError(f"entry {shown}: more than {MAX_DEPTH} directories deep")
    return PurePosixPath(*parts)


def _is_top(name: str) -> bool:
    """'.' or './': the archive's own top directory (tar -C dir . writes it), not an entry to make."""
    return name.strip("/") in (".", "")


def _zip_entries(archive: zipfile.ZipFile, limits: Limits) -> Iterator[Entry]:
    infos = archive.infolist()
    if len(infos) > limits.max_files:
        raise ArchiveError(f"the archive has {len(infos)} entries; at most {limits.max_files} are allowed")
    for info in infos:
        if _is_top(info.filename) and info.is_dir():
            continue
        path = check_path(info.filename)
        mode = info.external_attr >> 16
        kind = stat.S_IFMT(mode)
        if kind == stat.S_IFLNK:
            raise ArchiveError(f"entry {info.filename[:80]!r} is a symbolic link (links are not allowed)")
        if kind not in (0, stat.S_IFREG, stat.S_IFDIR):
            raise ArchiveError(f"entry {info.filename[:80]!r} is not a plain file or directory")
        if info.flag_bits & 0x1:
            raise ArchiveError(f"entry {info.filename[:80]!r} is encrypted")
        is_dir = info.is_dir() or kind == stat.S_IFDIR
        yield Entry(path, is_dir, bool(mode & 0o111), lambda info=info: archive.open(info))


def _tar_entries(archive: tarfile.TarFile, limits: Limits) -> Iterator[Entry]:
    count = 0
    for member in archive:   # streamed: the members are read as they come
        count += 1
        if count > limits.max_files:
            raise ArchiveError(f"the archive has more than {limits.max_files} entries")
        if _is_top(member.name) and member.isdir():
            continue
        path = check_path(member.name)
        if member.issym() or member.islnk():
            raise ArchiveError(f"entry {member.name[:80]!r} is a {'symbolic' if member.issym() else 'hard'} link "
                               f"(links are not allowed)")
        if member.ischr() or member.isblk():
            raise ArchiveError(f"entry {member.name[:80]!r} is a device (not allowed)")
        if member.isfifo():
            raise ArchiveError(f"entry {member.name[:80]!r} is a FIFO (not allowed)")
        if not (member.isreg() or member.isdir()):
            raise ArchiveError(f"entry {member.name[:80]!r} is not a plain file or directory")
        yield Entry(path, member.isdir(), bool(member.mode & 0o111),
                    lambda member=member: archive.extractfile(member))


def _write_file(target: Path, stream: IO[bytes], executable: bool, budget: list[int], name: str) -> None:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(target, flags, 0o755 if executable else 0o644)
    with os.fdopen(fd, "wb") as out:
        while True:
            chunk = stream.read(CHUNK)
            if not chunk:
                return
            budget[0] -= len(chunk)
            if budget[0] < 0:
                raise ArchiveError(f"the archive unpacks to more than {budget[1] // (1 << 20)} MB "
                                   f"(stopped at {name[:80]!r})")
            out.write(chunk)


def _make_dirs(dest: Path, relative: PurePosixPath) -> Path:
    """dest/relative as directories, each checked to be a real directory (never a link)."""
    here = dest
    for part in relative.parts:
        here = here / part
        if here.is_symlink() or (here.exists() and not here.is_dir()):
            raise ArchiveError(f"entry path {relative.as_posix()[:80]!r} crosses a file of the archive")
        here.mkdir(mode=0o755, exist_ok=True)
    return here


def _extract(entries: Iterator[Entry], dest: Path, limits: Limits) -> int:
    seen: set[PurePosixPath] = set()
    budget = [limits.max_bytes, limits.max_bytes]
    files = 0
    for entry in entries:
        if entry.path in seen and not entry.is_dir:
            raise ArchiveError(f"entry {entry.path.as_posix()[:80]!r} appears twice")
        seen.add(entry.path)
        if entry.is_dir:
            _make_dirs(dest, entry.path)
            continue
        parent = _make_dirs(dest, entry.path.parent)
        target = parent / entry.path.name
        if target.exists() or target.is_symlink():
            raise ArchiveError(f"entry {entry.path.as_posix()[:80]!r} appears twice")
        opener = entry.open
        assert callable(opener)
        stream = opener()
        if stream is None:
            raise ArchiveError(f"entry {entry.path.as_posix()[:80]!r} cannot be read")
        with stream:
            _write_file(target, stream, entry.executable, budget, entry.path.as_posix())
        files += 1
    return files


def unpack(archive_path: Path, dest: Path, limits: Limits) -> int:
    """Unpack into `dest`, which must not exist (it is created); the number of files written.
    On any refusal `dest` is removed and ArchiveError says why."""
    if dest.exists():
        raise ArchiveError(f"{dest} exists already")
    with open(archive_path, "rb") as handle:
        kind = kind_of(handle.read(8))
    dest.mkdir(parents=True, mode=0o755)
    try:
        if kind == "zip":
            try:
                with zipfile.ZipFile(archive_path) as archive:
                    return _extract(_zip_entries(archive, limits), dest, limits)
            except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, EOFError) as exc:
                raise ArchiveError(f"a broken zip archive ({exc})") from None
        try:
            with tarfile.open(archive_path, "r|gz") as tar:
                return _extract(_tar_entries(tar, limits), dest, limits)
        except (tarfile.TarError, EOFError, OSError, UnicodeDecodeError) as exc:
            if isinstance(exc, OSError) and not isinstance(exc, tarfile.TarError) and exc.errno is not None:
                raise
            raise ArchiveError(f"a broken tar.gz archive ({exc})") from None
    except BaseException:
        shutil.rmtree(dest, ignore_errors=True)
        raise


def single_root(dest: Path) -> Path:
    """Where the bot's files are: `dest`, or its only directory when everything was packed in one
    folder (as zipping a folder does) and the manifest is there."""
    children = [p for p in dest.iterdir()]
    if len(children) == 1 and children[0].is_dir() and not children[0].is_symlink():
        return children[0]
    return dest
