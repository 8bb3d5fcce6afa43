"""arena.toml is read strictly: every wrong key or value is one line naming the file and the key (a
host with several typos sees them all at once), and an arena.toml that cannot be read says why."""

from __future__ import annotations

import pytest

from arena.config import ArenaConfigError, config_text, load_arena, parse_config


def test_the_written_arena_toml_reads_back():
    text = config_text(["hari", "isaac"], "st=0.2", "none", "sqlite:///arena.db", "", "club")
    config = parse_config(text, "club/arena.toml")
    assert (config.games, config.tc, config.sandbox, config.name) == (["hari", "isaac"], "st=0.2", "none", "club")
    assert config.time_control().movetime_ms == 200


def test_every_problem_is_one_line_naming_its_key():
    text = "\n".join(['games = ["chess"]', 'tc = "zz"', "colour = 1", 'readable = ["rel"]',
                      "[ladder]", "concurrency = 0"])
    with pytest.raises(ArenaConfigError) as caught:
        parse_config(text, "club/arena.toml")
    lines = str(caught.value).splitlines()
    assert sorted(line.split(": ")[1] for line in lines) == ["colour", "games", "ladder.concurrency",
                                                             "readable", "tc"]
    said = "\n".join(lines)
    for words in ("games: unknown game 'chess'", "tc: bad time control 'zz'", "colour: unknown key",
                  "readable: readable path 'rel' must be absolute", "ladder.concurrency: Input should be"):
        assert f"club/arena.toml: {words}" in said


def test_games_are_named_once_and_the_file_must_be_toml():
    with pytest.raises(ArenaConfigError, match="a game is named twice"):
        parse_config('games = ["hari", "hari"]', "a.toml")
    with pytest.raises(ArenaConfigError, match="games: Field required"):
        parse_config('tc = "st=0.1"', "a.toml")
    with pytest.raises(ArenaConfigError, match="a.toml: not TOML"):
        parse_config("games = [", "a.toml")


def test_an_arena_toml_that_cannot_be_read(tmp_path):
    with pytest.raises(ArenaConfigError, match="is not an arena directory"):
        load_arena(tmp_path)
    (tmp_path / "arena.toml").write_bytes(b'games = ["hari"]\nname = "\xff"\n')
    with pytest.raises(ArenaConfigError, match=r"arena.toml: not UTF-8 text \(byte 25\)"):
        load_arena(tmp_path)
