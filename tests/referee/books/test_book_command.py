"""`isaac-referee book` through engine executables: building a book (drawing, judging by score,
games in pairs with a seed per game) and re-judging one (--rejudge), errors said clearly."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

from referee.books.opening_results import by_opening
from referee.cli import main
from referee.engines.player import EnginePlayer
from referee.engines.process import EngineSpec
from referee.matches.openings import OpeningBook, parse_source, read_opening_file, shipped_book
from tests.support.paths import BAD_ENGINES, MINIMAL_ENGINE

pytestmark = pytest.mark.slow

RANDOM = ["-engine", "name=random", f"cmd={sys.executable} {BAD_ENGINES / 'good_random.py'}"]
"""A random engine that reseeds from its Seed option at ucinewgame and reports `score cp 0`."""
SEARCH = ["-engine", "name=search", f"cmd={sys.executable} -m engine", "option.Strategy=search"]
BUILD = ["book", "--game", "hari", "--count", "3", "--plies", "4", "--games", "4", "--max-gap", "0.5"]


def _book_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line and not line.startswith("#")]


def test_a_book_is_reproducible_at_any_concurrency_and_readable_by_a_match(tmp_path, capsys, engine_dir):
    texts = []
    for concurrency in ("1", "2"):
        out = tmp_path / f"book{concurrency}.txt"
        assert main([*BUILD, *RANDOM, "--concurrency", concurrency, "-o", str(out)]) == 0
        texts.append(out.read_text())
    assert texts[0] == texts[1]
    lines = _book_lines(texts[0])
    assert len(lines) == 3 and all(" ".join(line.split()[4:-1]) == "# cp +0 dark" and line.endswith("/4")
                                   for line in lines)   # 4 plies, the random engine's score, 4 games
    assert texts[0].startswith("# hari opening book: isaac-referee book --game hari --count 3 --plies 4 --seed 1 ")
    assert "# engines: random: python " in texts[0]
    assert len(OpeningBook("hari", parse_source(str(tmp_path / "book1.txt"), "hari"), 0)) == 3
    err = capsys.readouterr().err
    assert "3 kept" in err and "12 games played" in err and "repeating" not in err
    assert main([*BUILD, *RANDOM, "--seed", "2", "-o", str(tmp_path / "other.txt")]) == 0
    assert _book_lines((tmp_path / "other.txt").read_text()) != lines


def test_only_openings_whose_games_come_out_even_are_kept(tmp_path, engine_dir):
    records = tmp_path / "games"
    assert main([*BUILD[:-1], "0", "--count", "2", *RANDOM, "--out", str(records), "-o", str(tmp_path / "b.txt")]) == 0
    kept = _book_lines((tmp_path / "b.txt").read_text())
    assert len(kept) == 2 and all(line.endswith("dark 2/4") for line in kept)
    games = [json.loads(line) for line in (records / "records.jsonl").read_text().splitlines()]
    results = by_opening(games)
    played = [r for r in results if r.games == 4]
    assert {r.opening for r in played if r.dark_points == 2} == {line.split("  #")[0] for line in kept}
    stopped = [r for r in results if r.games < 4]   # hopeless openings stop early
    assert all(abs(r.dark_points - (r.games - r.dark_points)) > 0 for r in stopped)
    assert all(r.repeats == 0 for r in results)   # every game had its own seeds


def test_the_judging_score_keeps_openings_within_max_cp(tmp_path, engine_dir):
    out = tmp_path / "book.txt"
    assert main(["book", "--game", "foundations", "--count", "2", "--plies", "4", "--games", "0", "--max-cp", "15",
                 *SEARCH, "--judge-tc", "nodes=150", "-o", str(out)]) == 0
    cps = [int(line.split("# cp ")[1]) for line in _book_lines(out.read_text())]
    assert len(cps) == 2 and all(abs(cp) <= 15 for cp in cps)
    read_opening_file("foundations", str(out))


def test_the_built_in_engine_plays_itself_by_default(tmp_path, capsys, engine_dir):
    assert main(["book", "--game", "hari", "--count", "1", "--plies", "6", "--games", "2", "--max-gap", "0.5",
                 "--max-cp", "100", "--tc", "nodes=100", "--judge-tc", "nodes=100", "--concurrency", "1"]) == 0
    captured = capsys.readouterr()
    assert "# engines: search: python -m engine option.Strategy=search tc=nodes=100 (against itself)" in captured.out
    assert len(_book_lines(captured.out)) == 1 and "1 openings written to stdout" in captured.err


def test_an_engine_without_seed_or_score_can_build_a_book(tmp_path, engine_dir):
    out = tmp_path / "book.txt"
    assert main([*BUILD, "--count", "1", "-engine", "name=minimal", f"cmd={sys.executable} {MINIMAL_ENGINE}",
                 "-o", str(out)]) == 0
    assert _book_lines(out.read_text())[0].split("  # ")[1].startswith("cp none dark ")


def _small_book(tmp_path: Path, count: int = 3) -> Path:
    path = tmp_path / "small.txt"
    lines = shipped_book("hari").read_text().splitlines()
    header = [line for line in lines if line.startswith("#")]
    path.write_text("\n".join(header + [line for line in lines if line and not line.startswith("#")][:count]) + "\n")
    return path


def test_rejudging_plays_pairs_prints_each_opening_and_keeps_the_even_ones(tmp_path, capsys, engine_dir):
    source = _small_book(tmp_path, 4)
    out, records = tmp_path / "rejudged.txt", tmp_path / "games"
    assert main(["book", "--game", "hari", "--rejudge", str(source), *RANDOM, "-engine", "name=random2",
                 f"cmd={sys.executable} {BAD_ENGINES / 'good_random.py'}", "--pairs", "2", "--max-gap", "0.2",
                 "--out", str(records), "-o", str(out)]) == 0
    captured = capsys.readouterr()
    rows = [line for line in captured.out.splitlines() if line.startswith("   ")]
    games = [json.loads(line) for line in (records / "records.jsonl").read_text().splitlines()]
    assert len(games) == 16 and sorted(g["game_id"] for g in games) == list(range(1, 17))
    results = by_opening(games)
    openings = [o for o in read_opening_file("hari", str(source))]
    assert [r.opening for r in results] == [" ".join(o.moves) for o in openings]
    assert all(len(r.pairs) == 2 and all(len(p) == 2 for p in r.pairs.values()) for r in results)
    for game in games:   # colours swap within each pair
        partner = next(g for g in games if g["pair"] == game["pair"] and g is not game)
        assert game["dark"]["name"] == partner["light"]["name"]
    assert len(rows) == 4
    for row, result in zip(rows, results, strict=True):
        assert f"dark {result.dark_points:g}/4" in row.replace("  ", " ").replace("  ", " ")
        assert row.endswith("kept" if result.is_even(0.2) else "dropped")
        assert f"random {sum(s.points for s in result.engines['random']):g}/4" in row
    kept = [r for r in results if r.is_even(0.2)]
    written = _book_lines(out.read_text())
    assert [line.split("  #")[0] for line in written] == [r.opening for r in kept]
    assert all("  # rejudged dark " in line and "; was cp " in line for line in written)
    assert "4 openings, 16 games: Dark scored" in captured.out
    assert f"{len(kept)} of 4 openings kept" in captured.out
    assert out.read_text().startswith(f"# hari opening book: isaac-referee book --game hari --rejudge {source} "
                                      f"--pairs 2 --seed 1 --tc nodes=30000 --max-gap 0.2")


def test_rejudging_with_the_book_on_stdout_prints_the_results_on_stderr(tmp_path, capsys, engine_dir):
    assert main(["book", "--game", "hari", "--rejudge", str(_small_book(tmp_path, 2)), *RANDOM, "--pairs", "1",
                 "--max-gap", "0.5"]) == 0
    captured = capsys.readouterr()
    assert len(_book_lines(captured.out)) == 2 and "re-judging 2 openings" in captured.err
    assert "2 openings, 4 games" in captured.err


FIRST = ["-engine", "name=first", f"cmd={sys.executable} {BAD_ENGINES / 'first_move.py'}"]
"""An engine that ignores its Seed: every game from one opening is the same game."""


def test_a_deterministic_engine_is_reported_repeating_its_games(tmp_path, capsys, engine_dir):
    assert main(["book", "--game", "hari", "--rejudge", str(_small_book(tmp_path, 1)), *FIRST, "--pairs", "2",
                 "--tc", "nodes=100", "--max-gap", "0.5", "-o", str(tmp_path / "out.txt")]) == 0
    out = capsys.readouterr().out
    assert "repeated 3" in out and "3 games repeated an earlier game" in out


def test_a_forfeit_is_counted_and_shown(tmp_path, capsys, engine_dir):
    book = tmp_path / "one.txt"
    book.write_text("# two plies: the crashing engine gets its third `go` in both games of the pair\n"
                    "a6a9 j6j9\n")
    assert main(["book", "--game", "hari", "--rejudge", str(book), *RANDOM, "-engine",
                 "name=crash", f"cmd={sys.executable} {BAD_ENGINES / 'crash_mid_game.py'}", "--pairs", "1",
                 "--max-gap", "0.5", "-o", str(tmp_path / "out.txt")]) == 0
    out = capsys.readouterr().out
    assert "random 2/2" in out and "forfeits 2" in out and "2 games ended by a forfeit" in out


@pytest.mark.parametrize("argv, message", [
    (["--rejudge", "book", "--count", "3"], "--count build a book; leave it out with --rejudge"),
    (["--pairs", "3"], "--pairs only mean something with --rejudge BOOK"),
    (["--max-gap", "0.7"], "--max-gap 0.7: expected a share between 0 and 0.5"),
    ([*RANDOM, *RANDOM[:1], "name=b", RANDOM[2], *RANDOM[:1], "name=c", RANDOM[2]], "give one engine"),
    (["-engine", "name=x", "cmd=python", "tc=zz"], "-engine x: tc: bad time control 'zz'"),
    (["--tc", "fast"], "--tc: bad time control 'fast'"),
    (["-engine", "name=dead", f"cmd={sys.executable} {BAD_ENGINES / 'exit_at_startup.py'}"],
     "engine dead failed while judging"),
])
def test_bad_arguments_and_engines_are_one_clear_error(argv, message, capsys, engine_dir):
    with pytest.raises(SystemExit) as exc:
        main(["book", "--game", "hari", "--count", "1", *argv] if "--rejudge" not in argv and "--pairs" not in argv
             else ["book", "--game", "hari", *argv])
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


def test_a_bad_book_to_rejudge_names_the_line(tmp_path, capsys):
    path = tmp_path / "bad.txt"
    path.write_text("# a book\na0a2 j7j9\na0a2 zz9\n")
    with pytest.raises(SystemExit) as exc:
        main(["book", "--game", "hari", "--rejudge", str(path), *RANDOM])
    assert exc.value.code == 2
    assert f"--rejudge {path}, line 3:" in capsys.readouterr().err


def test_output_is_never_overwritten_without_force_and_the_shipped_books_stay(tmp_path, capsys, monkeypatch,
                                                                               engine_dir):
    shipped = {game: shipped_book(game).read_bytes() for game in ("isaac", "foundations", "hari")}
    out = tmp_path / "book.txt"
    out.write_text("precious\n")
    with pytest.raises(SystemExit) as exc:
        main([*BUILD, *RANDOM, "-o", str(out)])
    assert exc.value.code == 2 and "exists; add --force" in capsys.readouterr().err
    assert out.read_text() == "precious\n"
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "records.jsonl").write_text("{}\n")
    with pytest.raises(SystemExit):
        main([*BUILD, *RANDOM, "--out", str(tmp_path / "games")])
    assert "already holds records.jsonl" in capsys.readouterr().err
    monkeypatch.chdir(tmp_path)
    assert main([*BUILD, *RANDOM, "-o", str(out), "--force"]) == 0
    assert out.read_text().startswith("# hari opening book")
    assert {game: shipped_book(game).read_bytes() for game in shipped} == shipped


def test_rejudging_the_shipped_book_plays_each_of_its_openings(tmp_path, capsys, engine_dir):
    out = tmp_path / "hari.txt"
    assert main(["book", "--game", "hari", "--rejudge", "book", *RANDOM, "--pairs", "1", "--concurrency", "2",
                 "-o", str(out)]) == 0
    shipped = read_opening_file("hari", str(shipped_book("hari")))
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("  ")]
    assert len(rows) == len(shipped)
    assert sorted(int(row.split()[0]) for row in rows) == list(range(1, len(shipped) + 1))
    header = out.read_text().splitlines()[:2]
    assert header[0].startswith("# hari opening book: isaac-referee book --game hari --rejudge book --pairs 1")
    first = shipped_book("hari").read_text().splitlines()[0].removeprefix("# ")
    assert header[1] == f"# from {shipped_book('hari')}: {first}"  # the source book's own first line
    kept = read_opening_file("hari", str(out))
    assert 0 < len(kept) < len(shipped) and set(kept) <= set(shipped)


def test_a_player_sets_a_declared_option_between_games_and_refuses_others():
    async def scenario() -> None:
        player = EnginePlayer(EngineSpec("random", [sys.executable, str(BAD_ENGINES / "good_random.py")]))
        await player.start()
        try:
            await player.set_option("seed", "5")   # names are case-insensitive (SPEC 9.2)
            with pytest.raises(ValueError, match="declares no option 'Hash'"):
                await player.set_option("Hash", "16")
            with pytest.raises(ValueError, match="must be in 0..2147483647, not -1"):
                await player.set_option("Seed", "-1")
            await player.new_game("hari")   # still answering: isready -> readyok
        finally:
            await player.quit()

    asyncio.run(scenario())
