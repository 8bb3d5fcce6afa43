"""The engine through real pipes: handshake, positions, moves, perft, stop/isready/quit/EOF, clocks, errors."""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import time

import pytest

from engine.bench import BENCH_POSITIONS
from protocol import GAME_NAMES, game_from_position, new_game
from protocol.messages import parse_engine_line, parse_option_line
from protocol.moves import PASS
from tests.support.engine_client import REPO, EngineClient

pytestmark = pytest.mark.slow

START = {
    "isaac": "isaac -/- 333334444555667/333334444555667 d - place 0/0",
    "foundations": "foundations -/- 333334444555667/333334444555667 d -",
    "hari": "hari -/- 333334444555667/333334444555667 d -",
}


@pytest.fixture
def engine():
    with EngineClient() as client:
        yield client


def use(client: EngineClient, variant: str, strategy: str = "random", seed: int = 1) -> None:
    client.send(f"setoption name UCI_Variant value {variant}", f"setoption name Strategy value {strategy}",
                f"setoption name Seed value {seed}", "ucinewgame")


def random_line(variant: str, plies: int, seed: int) -> list[str]:
    """Move texts of a seeded random game of `plies` plies (fewer if it ends), made by protocol/."""
    game, rng, moves = new_game(variant), random.Random(seed), []
    while len(moves) < plies and not game.is_over():
        moves.append(str(game.play(game.random_move(rng))))
    return moves


def replay(variant: str, moves: list[str]):
    game = new_game(variant)
    for text in moves:
        game.play(text)
    return game


def errors_of(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("info string error:")]


# -- handshake -------------------------------------------------------------------

def test_handshake_lists_the_options_then_uciok(engine):
    lines = engine.ask("uci", "uciok", timeout=5)
    assert lines[0].startswith("id name isaac-arena ")
    assert lines[1] == "id author isaac-arena developers"
    options = {spec.name: spec for spec in map(parse_option_line, lines[2:-1])}
    assert options["UCI_Variant"].type == "combo" and options["UCI_Variant"].default == "isaac"
    assert options["UCI_Variant"].vars == ["isaac", "foundations", "hari"]
    assert options["Strategy"].vars == ["search", "heuristic", "flatmc", "fastmc", "treemc", "greedy", "random"] and options["Strategy"].default == "search"
    assert options["Seed"].type == "spin" and options["MoveOverhead"].type == "spin"
    assert options["MoveOverhead"].default == "15"
    assert engine.sync() == []


def test_the_referee_client_reads_the_same_handshake(engine):
    handshake = engine.handshake()
    assert handshake.id_name is not None and handshake.id_name.startswith("isaac-arena ")
    assert handshake.malformed == []
    assert handshake.option("uci_variant").vars == list(GAME_NAMES)
    assert {"strategy", "seed", "moveoverhead"} <= set(handshake.options)


def test_every_output_line_is_protocol(engine):
    engine.send("uci", "position startpos moves c3c7", "setoption name Strategy value greedy", "go")
    lines = engine.read_until_prefix("bestmove")
    engine.send("go perft 1", "bad", "d", "moves")
    lines += engine.sync()
    for line in lines:
        parse_engine_line(line)  # raises on a malformed known message
    assert any(line.startswith("bestmove ") for line in lines)


# -- each game: positions answered by legal moves --------------------------------

@pytest.mark.parametrize("variant", GAME_NAMES)
@pytest.mark.parametrize("strategy", ["random", "greedy"])
def test_position_answered_by_a_legal_move(engine, variant, strategy):
    use(engine, variant, strategy)
    for plies, seed in ((0, 0), (3, 1), (8, 2), (14, 3)):
        moves = random_line(variant, plies, seed)
        game = replay(variant, moves)
        if game.is_over():
            continue
        engine.send("position startpos" + (" moves " + " ".join(moves) if moves else ""), "go movetime 50")
        answer = engine.bestmove()
        assert game.parse_move(answer) in set(game.legal_moves())


@pytest.mark.parametrize("variant", GAME_NAMES)
def test_fen_positions_are_accepted(engine, variant):
    game = replay(variant, random_line(variant, 6, 7))
    use(engine, variant, "greedy")
    engine.send(f"position fen {game.position()}", "d")
    lines = engine.sync()
    assert f"Position: {game.position()}" in lines
    engine.send("go")
    assert game.is_legal(game.parse_move(engine.bestmove()))


@pytest.mark.parametrize("variant", GAME_NAMES)
def test_a_whole_game_with_forced_passes_and_the_end(engine, variant):
    """Engine plays both sides to the end: every move legal, forced passes answered
    `bestmove pass`, and the finished game `bestmove (none)`."""
    use(engine, variant, "random", seed=5)
    game, moves, passes = new_game(variant), [], 0
    while not game.is_over():
        engine.send("position startpos" + (" moves " + " ".join(moves) if moves else ""), "go")
        answer = engine.bestmove()
        if list(game.legal_moves()) == [PASS]:
            assert answer == "pass"
            passes += 1
        moves.append(str(game.play(answer)))
    assert passes > 0, "a random game of each type has forced passes"
    engine.send("position startpos moves " + " ".join(moves), "go")
    lines = engine.read_until_prefix("bestmove")
    assert lines[-1] == "bestmove (none)"


def test_forced_pass_from_a_fen(engine):
    rng = random.Random(11)
    game = new_game("hari")
    while list(game.legal_moves()) != [PASS]:
        game.play(game.random_move(rng))
    use(engine, "hari", "greedy")
    engine.send(f"position fen {game.position()}", "go")
    assert engine.bestmove() == "pass"


# -- moves and perft ---------------------------------------------------------------

@pytest.mark.parametrize("variant", GAME_NAMES)
def test_moves_lists_every_legal_move_once(engine, variant):
    moves = random_line(variant, 4, 3)
    game = replay(variant, moves)
    use(engine, variant)
    line = engine.ask("position startpos moves " + " ".join(moves) + "\nmoves", "moves")[-1]
    assert line.split()[1:] == [str(m) for m in game.legal_moves()]


@pytest.mark.parametrize("variant,total1,total2", [
    ("isaac", 600, 305_600), ("foundations", 600, 305_600), ("hari", 605, 311_625)])
def test_go_perft_counts_in_stockfish_format(engine, variant, total1, total2):
    use(engine, variant)
    lines = engine.ask("go perft 1", "Nodes searched")
    assert lines[-2:] == ["", f"Nodes searched: {total1}"]
    per_move = dict(line.split(": ") for line in lines[:-2])
    assert len(per_move) == total1 and set(per_move.values()) == {"1"}
    lines = engine.ask("go perft 2", "Nodes searched", timeout=30)
    assert lines[-1] == f"Nodes searched: {total2}"
    assert sum(int(line.split(": ")[1]) for line in lines[:-2]) == total2


# -- stop, isready, quit, EOF --------------------------------------------------------

def stop_latency(client: EngineClient) -> float:
    """Seconds from `stop` leaving the pipe to the `bestmove` line arriving, during `go infinite`."""
    client.send("go infinite")
    time.sleep(0.15)
    sent = client.send("stop")
    while True:
        stamp, line = client.read_stamped(2.0)
        if line.startswith("bestmove"):
            return stamp - sent


@pytest.mark.parametrize("strategy", ["random", "greedy", "search"])
def test_stop_answers_within_50_ms(engine, strategy):
    use(engine, "hari", strategy)
    engine.send("position startpos moves " + " ".join(random_line("hari", 6, 4)))
    latencies = [stop_latency(engine) for _ in range(3)]
    assert statistics.median(latencies) < 0.050, latencies


@pytest.mark.parametrize("strategy", ["greedy", "search"])
def test_isready_is_answered_during_a_search(engine, strategy):
    use(engine, "isaac", strategy)
    engine.send("position startpos", "go infinite")
    time.sleep(0.1)
    sent = engine.send("isready")
    lines = []
    while True:
        stamp, line = engine.read_stamped(1.0)
        lines.append(line)
        if line == "readyok":
            break
    assert not any(line.startswith("bestmove") for line in lines), "the search must still be running"
    assert stamp - sent < 0.5  # generous: this 2-core machine may be busy; typically well under 5 ms
    engine.send("stop")
    assert engine.bestmove(1.0)


def test_go_while_searching_is_refused_and_the_search_goes_on(engine):
    use(engine, "foundations", "greedy")
    engine.send("position startpos", "go infinite", "go depth 1", "moves")
    errors = errors_of(engine.sync())
    assert len(errors) == 2 and "send stop first" in errors[0]
    engine.send("stop")
    assert engine.bestmove(1.0) != "(none)"


def test_position_during_a_search_applies_to_the_next_go(engine):
    use(engine, "isaac", "greedy")
    engine.send("position startpos", "go infinite", "position startpos moves a0a6")
    assert errors_of(engine.sync()) == []
    engine.send("stop")
    assert len(engine.bestmove(1.0)) == 4
    engine.send("d")
    assert any(line.startswith("Position: isaac a0a6/-") for line in engine.sync())


@pytest.mark.parametrize("strategy", ["greedy", "search"])
def test_quit_during_a_search_ends_the_process_promptly(strategy):
    with EngineClient() as client:
        use(client, "hari", strategy)
        client.send("position startpos", "go infinite")
        client.sync()
        sent = client.send("quit")
        assert client.wait_exit(1.0) == 0
        assert time.monotonic() - sent < 0.5


def test_end_of_input_during_a_search_ends_the_process():
    with EngineClient() as client:
        use(client, "isaac", "greedy")
        client.send("position startpos", "go infinite")
        client.sync()
        sent = client.close_stdin()
        assert client.wait_exit(1.0) == 0
        assert time.monotonic() - sent < 0.5


def test_stop_abandons_a_perft_between_root_moves(engine):
    use(engine, "hari")
    engine.send("go perft 3")
    time.sleep(0.3)
    engine.send("stop")
    lines = engine.sync(timeout=30)
    assert lines[-1].startswith("info string perft stopped after ")
    assert not any(line.startswith("Nodes searched") for line in lines)
    assert engine.ask("go perft 1", "Nodes searched")[-1] == "Nodes searched: 605"


def test_end_of_input_lets_a_perft_finish():
    with EngineClient() as client:
        client.send("setoption name UCI_Variant value foundations", "go perft 2")
        client.close_stdin()
        assert client.read_until_prefix("Nodes searched", 30)[-1] == "Nodes searched: 305600"
        assert client.wait_exit(2.0) == 0


# -- clocks ---------------------------------------------------------------------------

@pytest.mark.parametrize("strategy", ["greedy", "search"])
@pytest.mark.parametrize("variant", GAME_NAMES)
def test_a_small_clock_is_respected(engine, variant, strategy):
    moves = random_line(variant, 6, 9)
    use(engine, variant, strategy)
    engine.send("setoption name MoveOverhead value 20", "position startpos moves " + " ".join(moves))
    engine.sync()
    sent = engine.send("go p1time 300 p2time 300 p1inc 0 p2inc 0")
    answer = engine.bestmove(2.0)
    assert time.monotonic() - sent < 0.3
    game = replay(variant, moves)
    assert game.is_legal(game.parse_move(answer))


def test_wtime_btime_aliases(engine):
    use(engine, "foundations", "greedy")
    engine.send("position startpos", "go wtime 500 btime 500 winc 10 binc 10 movestogo 20")
    assert len(engine.bestmove(2.0)) == 4


# -- bad input --------------------------------------------------------------------------

def test_rejected_position_keeps_the_previous_one(engine):
    use(engine, "isaac", "greedy")
    bad = "position startpos moves c3c7 a0a9"
    engine.send("position startpos moves c3c7 a0a2", bad, "d")
    lines = engine.sync()
    error, = errors_of(lines)
    assert f"move 2 'a0a9' at column {bad.index('a0a9') + 1}: bad notation" in error
    assert any(line.startswith("Position: isaac c3c7/a0a2 ") for line in lines)


@pytest.mark.parametrize("variant, bad, fault, expected", [
    ("isaac", "position startpos moves c3c7 c5e5", "c5e5", "move 2 'c5e5' at column {column}: illegal:"),
    ("hari", "position fen hari -/- 333334444555667/333334444555667 x -", "x ",
     "bad position string at column {column}"),
])
def test_an_illegal_move_or_bad_position_string_names_its_column(engine, variant, bad, fault, expected):
    use(engine, variant, "greedy")
    engine.send(bad)
    error, = errors_of(engine.sync())
    assert expected.format(column=bad.index(fault) + 1) in error


def test_position_of_another_game_is_refused(engine):
    use(engine, "hari")
    engine.send(f"position fen {START['isaac']}")
    error, = errors_of(engine.sync())
    assert "UCI_Variant is hari" in error


@pytest.mark.parametrize("line,expected", [
    ("foo", "unknown command 'foo'"),
    ("go depth x", "depth needs a whole number"),
    ("go ponder", "pondering is not supported"),
    ("setoption name Strategy value best", "one of search, heuristic, flatmc, fastmc, treemc, greedy, random"),
    ("setoption name Seed value -1", "must be in 0..2147483647"),
    ("setoption name Colour value red", "unknown option 'Colour'"),
    ("position", "needs 'startpos'"),
    ("position startpos moves", None),
    ("moves now", "expected nothing, 'count' or 'from <k> max <n>' at column 7"),
    ("debug maybe", "expected 'on' or 'off'"),
])
def test_each_bad_command_gets_one_error_line(engine, line, expected):
    engine.send(line)
    errors = errors_of(engine.sync())
    if expected is None:
        assert errors == []
    else:
        assert len(errors) == 1 and expected in errors[0], errors


def test_option_changes_do_not_happen_when_refused(engine):
    engine.send("setoption name UCI_Variant value hari", "setoption name UCI_Variant value chess", "d")
    lines = engine.sync()
    assert len(errors_of(lines)) == 1
    assert f"Position: {START['hari']}" in lines


def test_d_shows_foundations_as_one_board_of_top_pieces_with_levels(engine):
    use(engine, "foundations", "greedy")
    game = new_game("foundations")
    rng = random.Random(3)
    moves = []
    while not any(getattr(m, "level", 1) > 1 for m in game.legal_moves()) and not game.is_over():
        moves.append(str(game.play(game.random_move(rng))))
    level2 = next(m for m in game.legal_moves() if getattr(m, "level", 1) > 1)
    mark = "DL"[game.turn]
    moves.append(str(game.play(level2)))
    engine.send("position startpos moves " + " ".join(moves), "d")
    lines = engine.sync()
    assert not any(line.startswith("Level") for line in lines)
    rows = {int(line[1]): line[4:] for line in lines if line[:1] == " " and line[1:2].isdigit()}
    assert len(rows) == 10
    for cell in level2.segment.cells:
        assert rows[cell // 10][3 * (cell % 10):3 * (cell % 10) + 2] == f"{mark}2"
    assert f"Position: {game.position()}" in lines
    assert game_from_position(lines[-1].split(": ", 1)[1]) == game


# -- bench ---------------------------------------------------------------------------------

def test_bench_node_total_is_deterministic():
    runs = [subprocess.run([sys.executable, "-m", "engine", "bench", "nodes", "200"], cwd=REPO,
                           capture_output=True, text=True, timeout=60) for _ in range(2)]
    assert [r.returncode for r in runs] == [0, 0]
    totals = [[line for line in r.stdout.splitlines() if line.startswith("Nodes searched")] for r in runs]
    assert totals[0] == totals[1] and len(totals[0]) == 1 and int(totals[0][0].split(":")[1]) > 0
    names = [line.split()[2] for line in runs[0].stdout.splitlines() if line.startswith("position ")]
    assert set(names) == set(GAME_NAMES) and len(names) == len(BENCH_POSITIONS)


def test_bench_command_answers_in_info_strings(engine):
    engine.send("bench nodes 50 strategy greedy")
    lines = engine.read_until(lambda line: "Nodes/second" in line, 30)
    assert len(lines) == len(BENCH_POSITIONS) + 3
    assert all(line.startswith("info string bench ") for line in lines)
    assert engine.sync() == []
