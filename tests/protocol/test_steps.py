"""Step-by-step move entry, `state` and paged `moves` (SPEC 9.11).

The subprocess client here knows only the notation: it joins words with the
game's joiner and strips a trailing `*`; every rule comes from the engine.
"""

from __future__ import annotations

import json

import pytest

from protocol import game_from_position
from protocol.steps import StepError, complete_move, next_steps
from tests.support.engine_client import EngineClient

JOIN = {"isaac": ":", "foundations": "", "hari": ","}
"""The notation's joiners (SPEC 9.11), all the client knows of the games."""

HARI_SLIDES = "hari c1g1,b2e2,a5a8,d6i6,h7j7/j0j4,f2f4,b8h8 3333445567/33334445566 d l"
"""A HARI middle game: 659 slide sets, 11,202 moves (found by random play)."""
HARI_MORE_SLIDES = "hari a0f0,h0h2,a4a9,e5e7,c6c8/g2g4,f3f8,d5d7,b9h9 3344445557/33344445556 d l"
"""1,281 slide sets, 18,479 moves."""
HARI_BENCH = "hari d4f4,e7g7/c0c2,a4a6 3334444555667/3334444555667 d -"
ISAAC_SCORING = ("isaac c0c4,g0j0,d1d4,h1j1,h3j3,h4h6,b5b9,c5g5,a6a8,c6c9/a0a5,b0b2,e0e4,g1g3,h2j2,i4i6,j4j7,"
                 "d6g6,e8g8,d9h9 667/4467 l - score 6/7")
ISAAC_PLACING = "isaac b0f0,c5h5,e7g7,d8i8,e9i9/c3h3,a4a9,c4i4,g6j6,b9d9 3333444457/3333444555 d - place 0/0"
FOUNDATIONS_L2 = "foundations e1g1,c6c8,d6d8/b0h0,f4f7,f0f4^2 334444555667/333334445566 d -"


@pytest.fixture
def engine():
    with EngineClient() as client:
        yield client


def set_position(client: EngineClient, position: str) -> None:
    client.send(f"setoption name UCI_Variant value {position.split()[0]}", f"position fen {position}")


def ask(client: EngineClient, line: str) -> str:
    client.send(line)
    return client.read_line(timeout=10)


# -- the notation-only client ------------------------------------------------------------

def enumerate_by_steps(answer_for, game: str) -> set[str]:
    """Every move reachable by expanding steps; `answer_for(words)` returns the `steps ...` line."""
    moves: set[str] = set()
    expanded: set[str] = set()
    todo: list[list[str]] = [[]]
    while todo:
        words = todo.pop()
        answer = answer_for(words).split()
        assert answer[0] == "steps", answer
        prefix, options = answer[1], answer[2:]
        if words:
            assert prefix != "-" and options, f"steps {' '.join(words)} offered a dead end: {answer}"
        if prefix in expanded:  # the same slides entered in another order
            continue
        expanded.add(prefix)
        for option in options:
            if option.endswith("*"):
                move = option[:-1] if prefix == "-" else prefix + JOIN[game] + option[:-1]
                assert move not in moves, f"{move} offered twice"
                moves.add(move)
            else:
                todo.append(words + [option])
    return moves


def perft_moves(client: EngineClient) -> set[str]:
    client.send("go perft 1")
    lines = client.read_until(lambda line: line.startswith("Nodes searched"), timeout=30)
    moves = [line.split(":")[0] if not line.startswith("x") or line.count(":") == 1 else line.rsplit(":", 1)[0]
             for line in lines if line.endswith(": 1")]
    assert int(lines[-1].split()[-1]) == len(moves)
    return set(moves)


@pytest.mark.parametrize("position", [
    ISAAC_PLACING, ISAAC_SCORING, FOUNDATIONS_L2, HARI_BENCH, HARI_SLIDES,
    "hari -/- 333334444555667/333334444555667 d -",
])
def test_a_notation_only_client_enumerates_exactly_the_perft_moves(engine, position):
    set_position(engine, position)
    game = position.split()[0]
    found = enumerate_by_steps(lambda words: ask(engine, " ".join(["steps", *words])), game)
    assert found == perft_moves(engine)


@pytest.mark.parametrize("position", [HARI_MORE_SLIDES, HARI_SLIDES, ISAAC_SCORING, FOUNDATIONS_L2])
def test_steps_expand_to_exactly_legal_moves_in_process(position):
    """The exhaustive comparison on bigger positions, without the pipe."""
    game = game_from_position(position)
    found = enumerate_by_steps(lambda words: next_steps(game, words).line(), game.name)
    legal = [str(m) for m in game.legal_moves()]
    assert found == set(legal) and len(found) == len(legal)


def test_hari_slides_entered_in_any_legal_order_give_the_canonical_prefix():
    game = game_from_position(
        "hari c3c5,d3f3/a9c9,h9j9 3334444555667/3334444555667 d -")
    blocked = next_steps(game, [])
    assert "d3f3>a3c3" not in {o.word for o in blocked.options}  # c3c5 is in the way
    after = next_steps(game, ["c3c5>c6c8"])
    assert "d3f3>a3c3" in {o.word for o in after.options}
    both = next_steps(game, ["c3c5>c6c8", "d3f3>a3c3"])
    assert both.prefix == "c3c5>c6c8,d3f3>a3c3"
    # two slides of value 1 each: only plays of value >= 2 (length >= 4), no further slide
    assert {o.word for o in both.options if not o.completes} == set()
    assert [o.word for o in both.options][0] == "x4"
    move = complete_move("hari", both.prefix, "a0d0")
    assert str(game.parse_move(move)) == move
    assert next_steps(game, [both.prefix, "a0d0"]).line() == f"steps {move}"


def test_a_slide_is_offered_only_if_a_play_can_follow():
    # Dark's two 6s (value 4 each) can't both slide: no piece in hand is worth 8 (the 7 is worth 6)
    game = game_from_position("hari a0f0,a2f2/j4j6,j7j9 3333344445557/3334444555667 d -")
    words = {o.word for o in next_steps(game, []).options}
    assert {"a0f0>off", "a2f2>off"} <= words
    after = next_steps(game, ["a0f0>off"])
    assert not any(o.word.startswith("a2f2>") for o in after.options)
    assert [o.word for o in after.options if o.word.startswith("x")] == ["x7"]
    with pytest.raises(StepError, match="value sum 8 exceeds"):
        next_steps(game, ["a0f0>off", "a2f2>off"])


# -- errors ------------------------------------------------------------------------------

@pytest.mark.parametrize("position, line, expected", [
    (HARI_BENCH, "steps d4f4>zz", "steps: step 1 'd4f4>zz' at column 12: bad notation"),
    (HARI_BENCH, "steps d4f4>e4g4 d4f4>off", "step 2 'd4f4>off' at column 17: illegal: the piece on d4f4 already slid"),
    (HARI_BENCH, "steps c0c2>off", "step 1 'c0c2>off' at column 7: illegal: slide c0c2>off: c0c2 is Light's piece"),
    (HARI_BENCH, "steps x3 x4", "step 2 'x4' at column 10: the move is already complete"),
    (HARI_BENCH, "steps d4f4>off,,x3", "step 2 '' at column 16: empty step"),
    (HARI_BENCH, "steps x9", "step 1 'x9' at column 8: bad notation: a discard is x and a length"),
    (HARI_BENCH, "steps pass", "step 1 'pass' at column 7: illegal: cannot pass"),
    (ISAAC_SCORING, "steps c0c4", "step 1 'c0c4' at column 7: bad notation: expected a removal"),
    (ISAAC_SCORING, "steps xc0c4", "step 1 'xc0c4' at column 7: illegal: not your piece"),
    (ISAAC_SCORING, "steps xa0a5 999", "step 2 '999' at column 13: illegal: score 999 out of range 7..11"),
    (ISAAC_SCORING, "steps xa0a5:q", "step 2 'q' at column 13: bad notation: expected the new score"),
    (ISAAC_SCORING, "steps xb0b2", "step 1 'xb0b2' at column 7: illegal: b0b2 (length 3) is shorter"),
    (FOUNDATIONS_L2, "steps a0a0", "step 1 'a0a0' at column 7: bad notation"),
    ("hari c4i4/b3h3 3333344445556/33333444455566 l ld", "steps x3", "step 1 'x3' at column 7: the game is over"),
    (HARI_BENCH, "moves from 1", "moves from 1: expected 'max <n>' at column 13"),
    (HARI_BENCH, "moves from 1 max 0", "'max' must be at least 1 at column 18"),
    (HARI_BENCH, "moves from -1 max 5", "'from' must be at least 0 at column 12"),
    (HARI_BENCH, "moves from 1 max 1001", "max 1001 at column 18 is more than 1000"),
    (HARI_BENCH, "moves count 3", "moves count: unexpected '3' at column 13"),
    (HARI_BENCH, "state now", "state takes no arguments; found 'now' at column 7"),
])
def test_bad_input_gets_one_error_line_naming_what_and_where(engine, position, line, expected):
    set_position(engine, position)
    engine.send(line)
    lines = engine.sync()
    assert len(lines) == 1 and lines[0].startswith("info string error: ") and expected in lines[0], lines
    assert ask(engine, "state").startswith("state {")  # the engine goes on


def test_a_finished_game_answers_steps_with_no_options(engine):
    set_position(engine, "hari c4i4/b3h3 3333344445556/33333444455566 l ld")
    assert ask(engine, "steps") == "steps -"


# -- state -------------------------------------------------------------------------------

def state_of(engine: EngineClient, position: str) -> dict:
    set_position(engine, position)
    line = ask(engine, "state")
    assert line.startswith("state {")
    return json.loads(line[len("state "):])


def test_state_of_an_isaac_scoring_position_has_the_counter_cells(engine):
    state = state_of(engine, ISAAC_SCORING)
    assert state == {
        "game": "isaac", "position": ISAAC_SCORING, "over": False, "turn": "l", "phase": "score",
        "scores": [6, 7], "hands": [[6, 6, 7], [4, 4, 6, 7]], "passes": "-",
        "counters": ["g0", "c9"], "result": None, "termination": None, "reason": None,
    }


def test_state_of_finished_games(engine):
    hari = state_of(engine, "hari c4i4/b3h3 3333344445556/33333444455566 l ld")
    assert (hari["over"], hari["result"], hari["termination"], hari["scores"]) == (True, "1/2-1/2", "both-passed", [6, 6])
    assert hari["reason"] == "both have 6 points on the board" and hari["counters"] is None
    isaac = state_of(engine, "isaac c2e2/a2a4 333444555667/333444455667 l - score 104/0")
    assert (isaac["over"], isaac["result"], isaac["termination"]) == (True, "1-0", "score-limit")
    assert isaac["counters"] == [None, "j9"] and isaac["scores"] == [104, 0]


def test_state_of_foundations_scores_values_in_hand(engine):
    state = state_of(engine, FOUNDATIONS_L2)
    assert state["scores"] == [33, 25]  # 334444555667: 2+8+9+8+6; 333334445566: 5+6+6+8 and state["phase"] == "play" and state["counters"] is None


# -- paging ------------------------------------------------------------------------------

def test_pages_concatenate_to_the_full_move_list(engine):
    set_position(engine, HARI_BENCH)
    engine.send("moves")
    full = engine.read_line(timeout=30).split()[1:]
    assert ask(engine, "moves count") == f"moves total {len(full)}"
    pages: list[str] = []
    start = 0
    while True:
        page = ask(engine, f"moves from {start} max 1000").split()
        assert page[0] == "moves" and len(" ".join(page)) < 65536
        if len(page) == 1:
            break
        pages += page[1:]
        start += 1000
    assert pages == full
    assert ask(engine, f"moves from {len(full) - 2} max 5").split()[1:] == full[-2:]


def test_gui_commands_are_answered_during_a_search(engine):
    set_position(engine, HARI_BENCH)
    engine.send("go infinite")
    for line, answer in [("steps d4f4>off", "steps d4f4>off e7g7>d7f7 "), ("moves count", "moves total 21110"),
                         ("state", 'state {"game":"hari"')]:
        engine.send(line)
        assert engine.read_until(lambda text: not text.startswith("info "))[-1].startswith(answer)
    engine.send("stop")
    assert engine.bestmove()  # the search still answers
