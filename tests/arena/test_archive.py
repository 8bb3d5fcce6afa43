"""Hostile archives are refused with a message naming what is wrong, and nothing lands outside the
bot's own directory: zip bombs, `..` and absolute paths, links, devices, FIFOs, too many files, too
large, a missing or wrong manifest."""

from __future__ import annotations

import io
import stat
import tarfile
import zipfile
from pathlib import Path

import pytest

from arena.intake.archive import ArchiveError, Limits, check_path, unpack
from arena.intake.manifest import ManifestError, parse_manifest, read_manifest
from tests.arena.bots import manifest, tar_gz, tar_with, write, zip_bytes

LIMITS = Limits(max_files=50, max_bytes=1 << 20)
GOOD = {"arena.toml": manifest("bot", "python3 bot.py"), "bot.py": b"print('hi')\n"}


def refused(tmp_path: Path, data: bytes, limits: Limits = LIMITS) -> str:
    dest = tmp_path / "bot"
    with pytest.raises(ArchiveError) as caught:
        unpack(write(tmp_path / "upload", data), dest, limits)
    assert not dest.exists(), "a refused archive leaves nothing behind"
    return str(caught.value)


def outside_untouched(tmp_path: Path) -> None:
    assert sorted(p.name for p in tmp_path.iterdir()) == ["upload"], list(tmp_path.iterdir())


@pytest.mark.parametrize("pack", [tar_gz, zip_bytes])
def test_a_good_archive_unpacks_and_its_manifest_reads(tmp_path, pack):
    dest = tmp_path / "bot"
    assert unpack(write(tmp_path / "upload", pack(GOOD)), dest, LIMITS) == 2
    found = read_manifest(dest)
    assert (found.name, found.command, found.build) == ("bot", ["python3", "bot.py"], None)
    assert (dest / "bot.py").read_bytes() == b"print('hi')\n"


@pytest.mark.parametrize("name", ["../escape.txt", "a/../../escape.txt", "/tmp/escape.txt", "a\\..\\b",
                                  "ok/\x01bad"])
@pytest.mark.parametrize("pack", [tar_gz, zip_bytes])
def test_paths_outside_the_archive_are_refused(tmp_path, name, pack):
    message = refused(tmp_path, pack({**GOOD, name: b"x"}))
    assert repr(name[:80]) in message or "control character" in message, message
    outside_untouched(tmp_path)


def test_check_path_keeps_ordinary_paths():
    assert check_path("./src//main.c").as_posix() == "src/main.c"


def test_a_zip_bomb_stops_at_the_limit_whatever_its_headers_say(tmp_path):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("arena.toml", manifest("bot", "./bot"))
        archive.writestr("bomb.bin", b"\0" * (64 << 20))   # 64 MB of zeros: about 64 KB compressed
    data = buffer.getvalue()
    assert len(data) < 200_000
    message = refused(tmp_path, data)
    assert "unpacks to more than 1 MB" in message and "bomb.bin" in message


def test_a_tar_gz_bomb_stops_at_the_limit(tmp_path):
    message = refused(tmp_path, tar_gz({"arena.toml": manifest("b", "./b"), "big": b"\0" * (8 << 20)}))
    assert "unpacks to more than 1 MB" in message


def test_too_many_files(tmp_path):
    files = {f"f{i}.txt": b"x" for i in range(60)}
    assert "at most 50" in refused(tmp_path, zip_bytes(files)) or "more than 50" in refused(tmp_path, zip_bytes(files))
    assert "more than 50 entries" in refused(tmp_path, tar_gz(files))


def _member(name: str, kind: bytes, **extra: object) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type = kind
    for key, value in extra.items():
        setattr(info, key, value)
    return info


@pytest.mark.parametrize(("member", "words"), [
    (_member("link", tarfile.SYMTYPE, linkname="/etc/passwd"), "symbolic link"),
    (_member("hard", tarfile.LNKTYPE, linkname="arena.toml"), "hard link"),
    (_member("dev", tarfile.CHRTYPE, devmajor=1, devminor=3), "device"),
    (_member("blk", tarfile.BLKTYPE, devmajor=8, devminor=0), "device"),
    (_member("fifo", tarfile.FIFOTYPE), "FIFO"),
])
def test_links_devices_and_fifos_in_a_tar_are_refused(tmp_path, member, words):
    message = refused(tmp_path, tar_with([member], GOOD))
    assert words in message and repr(member.name) in message
    outside_untouched(tmp_path)


def test_a_symbolic_link_in_a_zip_is_refused(tmp_path):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("arena.toml", manifest("bot", "./bot"))
        info = zipfile.ZipInfo("link")
        info.external_attr = (stat.S_IFLNK | 0o777) << 16
        archive.writestr(info, "/etc/passwd")
    assert "symbolic link" in refused(tmp_path, buffer.getvalue())


def test_a_link_then_a_file_through_it_cannot_write_outside(tmp_path):
    """The classic: a symlink `d -> /somewhere` then `d/file`; refused at the link, nothing written."""
    target = tmp_path / "victim"
    target.mkdir()
    data = tar_with([_member("d", tarfile.SYMTYPE, linkname=str(target))], {"d/file": b"pwned"})
    assert "symbolic link" in refused(tmp_path, data)
    assert list(target.iterdir()) == []


def test_duplicate_entries_and_file_over_directory(tmp_path):
    assert "appears twice" in refused(tmp_path, tar_with([], {"a.txt": b"1", "a.txt ": b"2", "./a.txt": b"3"}))
    (tmp_path / "upload").unlink()
    assert "crosses a file" in refused(tmp_path, tar_with([], {"a": b"1", "a/b": b"2"}))


def test_not_an_archive_and_a_broken_one(tmp_path):
    assert "not a zip or tar.gz" in refused(tmp_path, b"#!/bin/sh\necho hi\n")
    (tmp_path / "upload").unlink()
    assert "broken" in refused(tmp_path, zip_bytes(GOOD)[:60])


def test_files_get_plain_permissions(tmp_path):
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        info = tarfile.TarInfo("run.sh")
        info.size, info.mode = 3, 0o6777   # set-uid and set-gid asked for
        tar.addfile(info, io.BytesIO(b"hi\n"))
    dest = tmp_path / "bot"
    unpack(write(tmp_path / "upload", buffer.getvalue()), dest, LIMITS)
    assert stat.S_IMODE((dest / "run.sh").stat().st_mode) == 0o755


MANIFEST_KEYS = {"name": '"bot"', "command": '"./bot"'}
"""A good manifest's keys as TOML values; each case below changes one (None: left out)."""


@pytest.mark.parametrize(("change", "words"), [
    ({"command": None}, "command is missing"),
    ({"name": None}, "name is missing"),
    ({"comand": '"x"'}, "unknown key(s) comand"),
    ({"name": '"../evil"'}, "bot name '../evil' is not allowed"),
    ({"name": "5"}, "name must be a string"),
    ({"command": "5"}, "command must be a string"),
    ({"command": '""'}, "command is empty"),
    ({"build": '""'}, "build must be a non-empty string"),
    ({"command": "\"'unclosed\""}, "cannot be split into words"),
    ({"name": "["}, "not valid TOML"),
])
def test_wrong_manifests_say_what_to_write(change, words):
    keys = {**MANIFEST_KEYS, **change}
    text = "\n".join(f"{key} = {value}" for key, value in keys.items() if value is not None)
    with pytest.raises(ManifestError) as caught:
        parse_manifest(text)
    assert words in str(caught.value)


def test_a_missing_manifest(tmp_path):
    dest = tmp_path / "bot"
    unpack(write(tmp_path / "upload", tar_gz({"bot.py": b"x"})), dest, LIMITS)
    with pytest.raises(ManifestError, match="no arena.toml at the top"):
        read_manifest(dest)
