"""A text file handed to the referee or the arena is read, or refused with one message naming it and
what is wrong (missing, a directory, not UTF-8)."""

from __future__ import annotations

import pytest

from referee.formats.textfile import UnreadableFile, read_text_file


def test_a_text_file_reads_and_each_fault_is_named(tmp_path):
    good = tmp_path / "good.toml"
    good.write_text("a = 'é'\n", encoding="utf-8")
    assert read_text_file(good, "--engines-file good.toml") == "a = 'é'\n"
    faults = {tmp_path / "missing.toml": "where: no such file",
              tmp_path: "where: is a directory, expected a TOML file",
              tmp_path / "latin1.toml": "where: not UTF-8 text (byte 5)"}
    (tmp_path / "latin1.toml").write_bytes(b"a = '\xe9'\n")
    for path, says in faults.items():
        with pytest.raises(UnreadableFile) as caught:
            read_text_file(path, "where", "a TOML file")
        assert str(caught.value) == says
