"""Balanced opening books: building (referee/book.py), the `book` command, shipped books as the default."""

from __future__ import annotations

import pytest

from protocol import new_game
from referee.book import build_book, dark_points, selfplay_game, shipped_book
from referee.cli import main
from referee.openings import OpeningBook, parse_opening_line, parse_source, read_opening_file

pytestmark = pytest.mark.slow


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
            cp = int(line.split("# cp ")[1].split()[0])
            assert abs(cp) <= 30
            points, games = line.split(" dark ")[1].split("/")
            assert int(games) >= 16 and abs(float(points) / int(games) - 0.5) <= 0.2
    if game != "isaac":  # nobody opens with a long piece (it would wreck the ascending order)
        for opening in openings:
            position = new_game(game)
            for ply, move in enumerate(opening.moves):
                played = position.play(move)
                length = getattr(played, "segment", None) or getattr(played, "place", None)
                assert length is not None and length.length <= (4 if ply < 2 else 5)


def test_a_trailing_comment_is_not_part_of_the_opening():
    opening = parse_opening_line("hari", "a0a2 j7j9  # cp +3 nodes 100")
    assert opening.moves == ("a0a2", "j7j9")


def test_build_book_is_reproducible_and_keeps_only_close_openings():
    first = build_book("hari", count=2, plies=2, seed=5, nodes=150, max_cp=100)
    assert first == build_book("hari", count=2, plies=2, seed=5, nodes=150, max_cp=100)
    assert len(first) == 2 and all(abs(e.cp) <= 100 and len(e.moves) == 2 for e in first)
    assert all(e.cp == 0 for e in build_book("hari", count=2, plies=2, seed=5, nodes=150, max_cp=0))


def test_selfplay_games_are_reproducible_and_score_dark_from_the_result():
    opening = ("a0a2", "j7j9")
    points = [selfplay_game("hari", opening, 100, k) for k in range(4)]
    assert points == [selfplay_game("hari", opening, 100, k) for k in range(4)]
    assert set(points) <= {0.0, 0.5, 1.0}
    assert dark_points("hari", opening, 4, 100) == sum(points)


def test_build_book_with_selfplay_keeps_only_openings_played_close_to_even():
    wide = build_book("hari", count=3, plies=2, seed=5, nodes=150, max_cp=100, games=4, max_gap=0.5)
    assert [e.moves for e in wide] == [e.moves for e in build_book("hari", count=3, plies=2, seed=5, nodes=150,
                                                                    max_cp=100)]
    assert all(e.games == 4 and e.dark_points == dark_points("hari", e.moves, 4, 150) for e in wide)
    assert all(e.line().endswith(f"dark {e.dark_points:g}/4") for e in wide)
    even = build_book("hari", count=2, plies=2, seed=5, nodes=150, max_cp=100, games=4, max_gap=0.0)
    assert len(even) == 2 and all(e.dark_points == 2 for e in even)
    assert {e.moves for e in wide if e.dark_points != 2}.isdisjoint({e.moves for e in even})


def test_selfplay_in_two_processes_builds_the_same_book():
    kwargs = dict(count=2, plies=2, seed=5, nodes=120, max_cp=100, games=4, max_gap=0.25)
    assert build_book("foundations", **kwargs, jobs=2) == build_book("foundations", **kwargs)  # type: ignore[arg-type]


def test_book_command_writes_a_file_the_match_can_use(tmp_path, capsys):
    out = tmp_path / "book.txt"
    assert main(["book", "--game", "foundations", "--count", "3", "--plies", "2", "--nodes", "150",
                 "--max-cp", "100", "-o", str(out)]) == 0
    book = OpeningBook("foundations", parse_source(str(out), "foundations"), 0)
    assert len(book) == 3
    assert "3 openings" in capsys.readouterr().err


SMALL_BOOK = ["book", "--game", "hari", "--count", "2", "--plies", "2", "--nodes", "100", "--max-cp", "100",
              "--games", "2", "--max-gap", "0.5"]


def test_book_command_refuses_a_gap_that_is_not_a_share(capsys):
    with pytest.raises(SystemExit) as exc:
        main([*SMALL_BOOK[:-1], "0.7"])
    assert exc.value.code == 2
    assert "--max-gap 0.7: expected a share between 0 and 0.5" in capsys.readouterr().err


def test_book_command_without_output_prints_the_book_and_leaves_the_shipped_one_alone(tmp_path, capsys,
                                                                                   monkeypatch):
    shipped = {game: shipped_book(game).read_bytes() for game in ("isaac", "foundations", "hari")}
    monkeypatch.chdir(tmp_path)
    assert main(SMALL_BOOK) == 0
    captured = capsys.readouterr()
    lines = [line for line in captured.out.splitlines() if not line.startswith("#")]
    assert len(lines) == 2 and all("# cp" in line and "dark " in line for line in lines)
    assert captured.out.startswith("# hari opening book: isaac-referee book --game hari")
    assert "--games 2 --selfplay-nodes 100 --max-gap 0.5" in captured.out.splitlines()[0]
    assert "2 openings written to stdout" in captured.err
    assert list(tmp_path.iterdir()) == []
    assert {game: shipped_book(game).read_bytes() for game in shipped} == shipped
    (tmp_path / "book.txt").write_text(captured.out)
    assert len(OpeningBook("hari", parse_source(str(tmp_path / "book.txt"), "hari"), 0)) == 2


def test_book_command_refuses_to_overwrite_a_file_without_force(tmp_path, capsys):
    out = tmp_path / "book.txt"
    out.write_text("precious\n")
    with pytest.raises(SystemExit) as exc:
        main([*SMALL_BOOK, "-o", str(out)])
    assert exc.value.code == 2
    assert "exists; add --force" in capsys.readouterr().err
    assert out.read_text() == "precious\n"
    assert main([*SMALL_BOOK, "-o", str(out), "--force"]) == 0
    assert out.read_text().startswith("# hari opening book")
