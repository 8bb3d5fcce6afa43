"""Opening books without engines: the drawing policy, results per opening, the file format, the
shipped books, and the layers (the book command imports nothing of engine/)."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from protocol import new_game
from referee.books.build import BookEntry, book_text, draw_line, placed_length, shortest_placements
from referee.books.opening_games import derived_seed
from referee.books.opening_results import by_opening, opening_row, opening_text, summary_line
from referee.matches.openings import parse_opening_line, parse_source, read_opening_file, shipped_book
from tests.support.paths import REPO


def test_default_openings_are_the_book_for_foundations_and_hari_only():
    for game in ("foundations", "hari"):
        source = parse_source(None, game)
        assert source.kind == "file" and source.path == str(shipped_book(game))
    assert parse_source(None, "isaac").kind == "none"
    assert parse_source("startpos", "hari").kind == "none"
    assert parse_source("book", "isaac").path == str(shipped_book("isaac"))


@pytest.mark.parametrize("game", ["isaac", "foundations", "hari"])
def test_shipped_books_are_legal_varied_and_judged_and_played_close_to_even(game):
    openings = read_opening_file(game, str(shipped_book(game)))
    assert len(openings) >= 30
    assert len(set(openings)) == len(openings)
    for line in shipped_book(game).read_text().splitlines():
        if line and not line.startswith("#"):
            comment = line.split("  # ", 1)[1]
            if comment.startswith("rejudged dark "):  # judged again by longer games (--rejudge)
                points, games = comment.removeprefix("rejudged dark ").split()[0].split("/")
                assert int(games) >= 8 and abs(float(points) / int(games) - 0.5) <= 0.25
                continue
            cp = int(line.split("# cp ")[1].split()[0])
            assert abs(cp) <= 30
            points, games = line.split(" dark ")[1].split("/")
            assert int(games) >= 16 and abs(float(points) / int(games) - 0.5) <= 0.2
    if game != "isaac":  # nobody opens with a long piece (it would wreck the ascending order)
        for opening in openings:
            position = new_game(game)
            for ply, move in enumerate(opening.moves):
                length = placed_length(position.play(move))
                assert length is not None and length <= (4 if ply < 2 else 5)


def test_hari_book_is_drawn_from_the_shortest_placements():
    """HARI's book was rebuilt by the current drawing (ISAAC's and FOUNDATIONS' keep the first
    builder's: the heuristic's best moves). In every opening of the first HARI book both sides
    had given up their five 3s within the six plies."""
    for opening in read_opening_file("hari", str(shipped_book("hari"))):
        position = new_game("hari")
        for move in opening.moves:
            assert move in {str(m) for m in shortest_placements(position)}, (opening.moves, move)
            position.play(move)


def test_a_trailing_comment_is_not_part_of_the_opening():
    opening = parse_opening_line("hari", "a0a2 j7j9  # cp +3 nodes 100")
    assert opening.moves == ("a0a2", "j7j9")


@pytest.mark.parametrize("game", ["isaac", "foundations", "hari"])
def test_each_drawn_ply_is_one_of_the_shortest_placements(game):
    rng = random.Random(7)
    lines = [draw_line(game, 6, rng) for _ in range(8)]
    assert all(line is not None for line in lines)
    assert len(set(lines)) == 8                                  # varied
    for line in lines:
        assert line is not None
        position = new_game(game)
        for move in line:
            choices = shortest_placements(position)
            assert move in {str(m) for m in choices}
            shortest = min(placed_length(m) or 99 for m in position.legal_moves())
            assert {placed_length(m) for m in choices} == {shortest}
            position.play(move)
    again = random.Random(7)
    assert [draw_line(game, 6, again) for _ in range(8)] == lines   # reproducible from the seed


def test_a_hari_draw_places_only_threes_while_a_three_is_in_hand():
    line = draw_line("hari", 8, random.Random(1))
    assert line is not None
    position = new_game("hari")
    for move in line:
        played = position.play(move)
        assert placed_length(played) == 3 and "," not in str(played)   # no slide, no discard


def test_seeds_are_stable_and_spread():
    assert derived_seed("book", 1, "a0a2", 0, "dark") == derived_seed("book", 1, "a0a2", 0, "dark")
    seeds = {derived_seed("book", 1, "a0a2", game, side) for game in range(50) for side in ("dark", "light")}
    assert len(seeds) == 100 and all(0 <= s < 2**31 for s in seeds)


def _record(game_id, pair, dark, light, result, moves=("a", "b"), termination="normal"):
    return {"game_id": game_id, "game_type": "hari", "pair": pair, "result": result,
            "termination": termination, "dark": {"name": dark}, "light": {"name": light},
            "start_position": new_game("hari").position(), "opening": ["a0a2", "j7j9"] if pair < 3 else ["b0b2"],
            "moves": [{"move": m} for m in moves]}


def test_results_per_opening_tell_the_opening_from_the_engines():
    records = [_record(1, 1, "A", "B", "1-0"), _record(2, 1, "B", "A", "1-0", ("c",)),      # Dark won both
               _record(3, 2, "A", "B", "1-0", ("d",)), _record(4, 2, "B", "A", "0-1", ("e",)),  # A won both
               _record(5, 3, "A", "B", "1/2-1/2"), _record(6, 3, "B", "A", "0-1", termination="time forfeit"),
               _record(7, 4, "A", "B", "1/2-1/2")]                                       # repeats game 5
    first, second = by_opening(reversed(records))
    assert first.opening == "a0a2 j7j9" and second.opening == "b0b2"
    assert (first.games, first.dark_points, first.dark_share) == (4, 3.0, 0.75)
    assert first.pair_texts() == ["DD", "DL"] and first.colour_decided_pairs() == 1
    a_dark, a_light = first.engines["A"]
    assert (a_dark.points, a_dark.games, a_light.points, a_light.games) == (2, 2, 1, 2)
    assert not first.is_even(0.2) and first.is_even(0.25)
    assert second.pair_texts() == ["=L", "="] and second.forfeits == 1 and second.repeats == 1
    assert opening_row(1, first, "A").startswith("   1 a0a2 j7j9")
    assert "A 3/4 (Dark 2/2, Light 1/2)" in opening_row(1, first, "A")
    assert "forfeits 1  repeated 1" in opening_row(2, second)
    summary = summary_line([first, second])
    assert summary.startswith("2 openings, 7 games: Dark scored 4 (57.1%); 1 of 4 pairs won by one colour twice")
    assert "1 games ended by a forfeit" in summary and "1 games repeated" in summary


def test_an_opening_from_a_position_string_is_written_as_a_book_line_writes_it():
    start = new_game("hari")
    start.play("a0a2")
    record = {"game_type": "hari", "start_position": start.position(), "opening": ["j7j9"]}
    text = opening_text(record)
    assert text == f"{start.position()} moves j7j9"
    assert parse_opening_line("hari", text).moves == ("j7j9",)


def test_book_text_is_what_the_opening_reader_reads(tmp_path):
    entries = [BookEntry("a0a2 j7j9", "cp +3 dark 9/16"), BookEntry("b0b2 j6j8")]
    text = book_text("hari", entries, ["isaac-referee book --game hari", "a second header line"])
    assert text.splitlines()[:2] == ["# hari opening book: isaac-referee book --game hari", "# a second header line"]
    assert "a0a2 j7j9  # cp +3 dark 9/16\nb0b2 j6j8\n" in text
    (tmp_path / "book.txt").write_text(text)
    assert [o.moves for o in read_opening_file("hari", str(tmp_path / "book.txt"))] == [("a0a2", "j7j9"),
                                                                                       ("b0b2", "j6j8")]


def test_the_book_command_imports_nothing_of_the_engine():
    code = ("import sys, referee.books.build, referee.books.rejudge, referee.books.opening_games, "
            "referee.cli.cmd_book, referee.pictures\n"
            "bad = sorted(m for m in sys.modules if m == 'engine' or m.startswith('engine.'))\n"
            "assert not bad, bad")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True,
                          env={"PYTHONPATH": str(REPO), "PATH": ""})
    assert done.returncode == 0, done.stderr
