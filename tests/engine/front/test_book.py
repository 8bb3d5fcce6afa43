"""The engine's own opening book (engine/book.py, option OwnBook; built by engine/book_build.py)."""

from __future__ import annotations

import pytest

from engine import book as opening_book
from engine import book_build
from engine.book import BookError, book_move, book_path, check_book, read_book
from engine.book_build import book_positions
from protocol import game_from_position, new_game
from tests.support.engine_client import EngineClient

START = "foundations -/- 333334444555667/333334444555667 d -"


def test_the_shipped_foundations_book_answers_every_book_position_with_a_legal_move():
    text = book_path("foundations").read_text(encoding="utf-8")
    assert check_book(text, "foundations", "foundations.txt") == len(book_positions("foundations")) == 301
    entries = read_book(text)
    assert set(entries) == set(book_positions("foundations"))
    for position in entries:
        game = game_from_position(position)
        assert book_move(game) is not None


def test_book_positions_are_the_start_and_the_replies_to_short_first_moves():
    positions = book_positions("foundations")
    assert positions[0] == START
    first_pieces = [game_from_position(p).pieces(0) for p in positions[1:]]
    assert all(len(pieces) == 1 and pieces[0][0].length in (3, 4) for pieces in first_pieces)
    assert len(set(positions)) == len(positions)


def test_read_book_skips_comments_and_blank_lines():
    assert read_book(f"# header\n\na0c0 {START}  # nodes 5 cp +1\n") == {START: "a0c0"}


@pytest.mark.parametrize("line,problem", [
    (f"a0a9 {START}", "line 2"),  # a 10-cell run is no piece
    ("a0c0 foundations -/- 33333/333334444555667 d -", "line 2"),  # an impossible position
    (f"a0c0 {START.replace(' d -', ' l -')}", "line 2"),  # Light cannot be first to move with nothing placed
    ("b1d1 foundations a0c0/- 33334444555667/333334444555667 l -x", "line 2"),
])
def test_check_book_names_the_bad_line(line, problem):
    with pytest.raises(BookError, match=problem):
        check_book(f"# header\n{line}\n", "foundations")


def test_check_book_wants_canonical_positions():
    spaced = START.replace(" d -", "  d -")
    with pytest.raises(BookError, match="canonical"):
        check_book(f"a0c0 {spaced}\n", "foundations")


def test_book_move_is_none_off_the_book_and_for_a_move_the_position_does_not_allow(monkeypatch, tmp_path):
    monkeypatch.setattr(opening_book, "BOOK_DIR", tmp_path)
    opening_book.load_book.cache_clear()
    try:
        after = new_game("foundations")
        after.push(after.parse_move("a0c0"))
        (tmp_path / "foundations.txt").write_text(f"e4g4 {START}\na0c0 {after.position()}\n", encoding="utf-8")
        assert str(book_move(new_game("foundations"))) == "e4g4"
        assert book_move(after) is None  # a0c0 is taken: the search decides
        off = after.copy()
        off.push(off.parse_move("j9j7"))
        assert book_move(off) is None
        assert book_move(new_game("hari")) is None  # no HARI book in this folder
    finally:
        opening_book.load_book.cache_clear()


def _first_move(client: EngineClient, *setup: str) -> list[str]:
    client.send("uci", "setoption name UCI_Variant value foundations", *setup, "isready")
    client.read_until_prefix("readyok")
    client.send("position startpos", "go movetime 100")
    return client.read_until_prefix("bestmove", timeout=10)


def test_the_engine_plays_the_book_move_and_searches_when_ownbook_is_off():
    want = read_book(book_path("foundations").read_text(encoding="utf-8"))[START]
    with EngineClient() as client:
        lines = _first_move(client)
        assert lines[-1] == f"bestmove {want}"
        assert any(line.endswith("string book move") for line in lines)
    with EngineClient() as client:
        lines = _first_move(client, "setoption name OwnBook value false")
        assert not any("book move" in line for line in lines)
        assert any(" nodes " in line for line in lines)  # it searched


def test_build_writes_a_checked_book_of_every_book_position(monkeypatch, tmp_path):
    monkeypatch.setattr(book_build, "REPLY_LENGTHS", (7,))  # a small book: replies to a first 7
    out = tmp_path / "foundations.txt"
    count = book_build.build("foundations", nodes=30, jobs=1, out=out)
    text = out.read_text(encoding="utf-8")
    assert count == len(book_positions("foundations")) == check_book(text, "foundations") == 81
    assert set(read_book(text)) == set(book_positions("foundations"))
    assert text.startswith("# foundations opening book: python -m engine.book_build")
