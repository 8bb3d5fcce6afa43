"""Strategy search: legal moves, limits (movetime, nodes, depth, stop), determinism, tactics.

The tactical positions are built by hand and each test checks its own premise
with the rules (the winning move really wins, the obvious alternatives lose),
so a test cannot pass on a wrong position.
"""

import random
import threading
import time

import pytest

from engine.games.foundations.ordering import candidate_moves as foundations_candidates
from engine.games.hari import search_core as hari_native
from engine.games.hari.candidates import candidates as hari_candidates
from engine.games.isaac import knowledge as isaac_knowledge
from engine.search.timeman import DEFAULT_MOVETIME_MS, SAFETY_MS, TimeManager, plan_budget
from engine.strategies import Limits
from engine.strategies.base import PLAY_DEFAULTS, PlayOptions
from engine.strategies.search_strategy import SearchStrategy
from protocol import game_from_position, new_game
from protocol.board import DARK
from protocol.moves import PASS

STARTS = {
    "isaac": "isaac -/- 333334444555667/333334444555667 d - place 0/0",
    "foundations": "foundations -/- 333334444555667/333334444555667 d -",
    "hari": "hari -/- 333334444555667/333334444555667 d -",
}
MIDGAMES = [
    "isaac a0g0,h0h5,b2g2,c3f3,c4c8,d6h6,f7j7/a1a7,b1g1,j1j5,b3b8,d4g4,d5g5,a9c9 "
    "33333444/33334455 d - place 0/0",
    "isaac a0g0,h0h5,i0i3,b2g2,c4c8,i4i6,d6h6,f7j7/b1g1,j1j5,d5g5,d7d9,f8j8,a9c9 "
    "33334/333445 d - score 12/47",
    "foundations a0c0,g0j0,a1c1,a2c2,g2j2,a3c3,a4c4,g4j4,f5j5,a6a9,c6g6,d7h7/d0f0,d1f1,g1j1,"
    "d2f2,d3f3,g3j3,d4f4,a5d5,b6b9,d8h8,f9j9,f1j1^2 667/667 d -",
    "hari a0c0,g0i0,a1c1,g1i1,a2a5,a7a9/d0f0,j0j2,d1f1,b2b5,c2c4,b7b9 444555667/444555667 d -",
]
ALL_POSITIONS = list(STARTS.values()) + MIDGAMES


def run(position, limits, seed=1, stop=None, options=PLAY_DEFAULTS):
    """(move, infos, seconds) of one search from a position string."""
    game = game_from_position(position)
    infos = []
    start = time.perf_counter()
    move = SearchStrategy().choose(game, limits, stop or threading.Event(), infos.append,
                                   random.Random(seed), options)
    return move, infos, time.perf_counter() - start


def assert_legal(position, move):
    game = game_from_position(position)
    assert game.check_move(move) == move
    if game.name != "hari":
        assert str(move) in {str(m) for m in game.legal_moves()}


def finish_with_passes(game):
    """Play out a game in which only passes remain (the mover has no piece left to play)."""
    while not game.is_over():
        game.push(PASS)
    return game.result()


# -- legality -------------------------------------------------------------------

@pytest.mark.parametrize("position", ALL_POSITIONS, ids=lambda p: p.split()[0] + str(len(p)))
def test_search_returns_a_legal_move(position):
    move, infos, _ = run(position, Limits(nodes=300))
    assert_legal(position, move)
    assert not any(i.string and "fell back" in i.string for i in infos)
    final = infos[-1]
    assert final.pv and final.pv[0] == str(move)
    assert final.nodes is not None and final.time is not None and final.nps is not None
    assert final.score_cp is not None and -100 <= final.score_cp <= 100


def test_candidate_moves_are_legal_in_played_out_games():
    """Every removal / slide candidate the knowledge builds is accepted by the rules."""
    rng = random.Random(5)
    checked = 0
    for name in ("isaac", "hari"):
        for _ in range(4):
            game = new_game(name)
            while not game.is_over():
                if name == "isaac" and game.phase == "score":
                    for move in isaac_knowledge.removal_candidates(game):
                        assert game.check_move(move) == move
                        checked += 1
                if name == "hari":
                    for move in hari_candidates(game, 10, 200, 24):
                        assert game.check_move(move) == move
                        checked += 1
                game.push(game.random_move(rng))
    assert checked > 100


def test_foundations_candidates_cover_every_legal_move_and_keep_the_best():
    """Priors for every legal placement; `keep` returns the same first moves and priors, only fewer."""
    rng = random.Random(8)
    game = new_game("foundations")
    while not game.is_over():
        legal = list(game.legal_moves())
        full = foundations_candidates(game, 1.0)
        assert sorted(str(m) for m, _ in full) == sorted(str(m) for m in legal)
        assert foundations_candidates(game, 1.0, keep=5) == full[:5]
        root = foundations_candidates(game, 1.0, refined=16)
        assert sorted(str(m) for m, _ in root) == sorted(str(m) for m in legal)
        game.push(rng.choice(legal))


# -- limits -----------------------------------------------------------------------

@pytest.mark.parametrize("position", [STARTS["isaac"], MIDGAMES[2], MIDGAMES[3], MIDGAMES[1]],
                         ids=["isaac", "foundations", "hari", "isaac-scoring"])
def test_movetime_is_respected(position):
    move, infos, seconds = run(position, Limits(movetime=150), options=PlayOptions(move_overhead=30))
    assert_legal(position, move)
    assert infos[-1].time <= 150 - 30 + 10  # it plans movetime - MoveOverhead and stops on time
    assert seconds * 1000 < 150 + 60  # wall clock, with room for a busy test machine


ISAAC_SCORING_START = ("isaac b2h2,i2i7,j5j9,a6a9,c6h6,c7c9,d7d9,e7h7,e8i8,e9i9/a0d0,e0h0,a1a5,b1f1,g1i1,j1j4,"
                       "b3b9,c3h3,d4h4,c5h5 33344/33334 d - score 0/0")
"""A scoring phase's first move with 20 pieces on the board (MIDGAMES[1] is solved in fewer than 400 nodes)."""


@pytest.mark.parametrize("position", [STARTS["isaac"], ISAAC_SCORING_START, MIDGAMES[2], MIDGAMES[3]],
                         ids=["isaac", "isaac-scoring", "foundations", "hari"])
def test_node_limit_is_respected(position):
    move, infos, _ = run(position, Limits(nodes=400))
    nodes = infos[-1].nodes
    assert 400 <= nodes < 400 + 120  # stops at the first check after the limit
    assert_legal(position, move)


def test_depth_limit_alpha_beta():
    _, infos, _ = run(MIDGAMES[1], Limits(depth=2))
    assert infos[-1].depth == 2
    _, deeper, _ = run(MIDGAMES[1], Limits(depth=3))
    assert deeper[-1].depth == 3 and deeper[-1].nodes > infos[-1].nodes


@pytest.mark.parametrize("position", [STARTS["isaac"], MIDGAMES[2]], ids=["isaac", "foundations"])
def test_depth_limit_tree_search(position):
    move, infos, seconds = run(position, Limits(depth=2))
    assert infos[-1].depth >= 2 or infos[-1].pv[-1] == "pass"
    assert seconds < 10
    assert_legal(position, move)


def test_depth_limit_hari_flat_monte_carlo(monkeypatch):
    """HARI's flat Monte Carlo (the search where the C core is not built) reads `go depth d` as d playouts
    per root candidate."""
    monkeypatch.setattr(hari_native, "AVAILABLE", False)
    move, infos, seconds = run(MIDGAMES[3], Limits(depth=1))
    _, twice, _ = run(MIDGAMES[3], Limits(depth=2))
    assert infos[-1].depth == 1 and infos[-1].rollouts
    assert twice[-1].rollouts == 2 * infos[-1].rollouts
    assert seconds < 10
    assert_legal(MIDGAMES[3], move)


@pytest.mark.parametrize("position", [STARTS["hari"], MIDGAMES[1], MIDGAMES[2]],
                         ids=["hari", "isaac-scoring", "foundations"])
def test_stop_ends_an_infinite_search_promptly(position):
    stop = threading.Event()
    stopped_at: list[float] = []

    def press_stop() -> None:
        stopped_at.append(time.perf_counter())
        stop.set()
    timer = threading.Timer(0.15, press_stop)
    timer.start()
    try:
        move, infos, _ = run(position, Limits(infinite=True), stop=stop)
    finally:
        timer.cancel()
    answered = time.perf_counter()
    assert stop.is_set()  # it searched until told to stop
    assert answered - stopped_at[0] < 0.05  # and answered within 50 ms of the stop (a late timer is not the search's)
    assert_legal(position, move)
    assert len(infos) <= 0.15 * 10 + 2  # at most ten info lines a second, plus the last


def test_search_is_deterministic_with_a_seed_and_node_limit():
    for position in (STARTS["isaac"], MIDGAMES[1], MIDGAMES[2], MIDGAMES[3]):
        first = run(position, Limits(nodes=600), seed=7)
        second = run(position, Limits(nodes=600), seed=7)
        assert first[0] == second[0]
        assert first[1][-1].nodes == second[1][-1].nodes
        assert first[1][-1].pv == second[1][-1].pv


# -- time manager -------------------------------------------------------------------

def test_budget_movetime_keeps_the_overhead():
    budget = plan_budget(Limits(movetime=100), moves_left=10, overhead_ms=30)
    assert budget.soft_ms == budget.hard_ms == 100 - 30 - SAFETY_MS
    tiny = plan_budget(Limits(movetime=20), moves_left=10, overhead_ms=30)
    assert 0 < tiny.hard_ms <= 20


def test_budget_spends_the_whole_clock_only_on_movestogo_1():
    """The search's estimate of one move left keeps to a quarter of the clock; `movestogo 1` may use it all."""
    estimated = plan_budget(Limits(time_left=3_000, increment=100), moves_left=1, overhead_ms=30)
    told = plan_budget(Limits(time_left=3_000, increment=100, movestogo=1), moves_left=1, overhead_ms=30)
    available = 3_000 - 30 - SAFETY_MS - 0.02 * 3_000
    assert estimated.soft_ms <= 0.25 * available + 0.8 * 100
    assert estimated.hard_ms <= 0.6 * available + 0.8 * 100
    assert told.soft_ms == told.hard_ms == available


@pytest.mark.parametrize("time_left,inc,togo", [(60_000, 0, None), (1_000, 0, None), (200, 50, None),
                                                 (5_000, 0, 1), (50, 0, None), (10_000, 1_000, 3)])
def test_budget_clock_never_spends_the_reserve(time_left, inc, togo):
    limits = Limits(time_left=time_left, increment=inc, movestogo=togo)
    budget = plan_budget(limits, moves_left=12, overhead_ms=30)
    assert 0 < budget.soft_ms <= budget.hard_ms
    assert budget.hard_ms <= max(1, time_left - 30 - SAFETY_MS)
    if togo is None:
        assert budget.soft_ms <= time_left / 4 + inc


def test_budget_without_time_limits():
    assert plan_budget(Limits(infinite=True), 10).hard_ms is None
    assert plan_budget(Limits(depth=3), 10).hard_ms is None
    assert plan_budget(Limits(nodes=1000), 10).hard_ms is None
    assert plan_budget(Limits(), 10).hard_ms == DEFAULT_MOVETIME_MS - PLAY_DEFAULTS.move_overhead


def test_time_manager_counts_nodes_and_sees_stop():
    stop = threading.Event()
    tm = TimeManager(Limits(nodes=10), stop)
    assert not tm.must_stop()
    tm.nodes = 10
    assert tm.must_stop()
    tm2 = TimeManager(Limits(infinite=True), stop)
    assert not tm2.must_stop() and not tm2.soft_expired()
    stop.set()
    assert tm2.must_stop() and tm2.soft_expired()


# -- tactics -------------------------------------------------------------------------

ISAAC_REACH_100 = "isaac a1g1,i0i2,c4e4/h0h2,a6c6 3444455566/3444555667 d - score 90/60"


def test_isaac_takes_the_removal_that_reaches_100():
    game = game_from_position(ISAAC_REACH_100)
    winning = [m for m in game.legal_moves() if m.score >= 100]
    assert [str(m) for m in winning] == ["xa1g1:102"]  # the premise: exactly one removal wins now
    move, infos, _ = run(ISAAC_REACH_100, Limits(movetime=200))
    assert str(move) == "xa1g1:102"
    game.play(move)
    assert game.is_over() and game.result().winner == DARK
    assert infos[-1].score_cp == 100


FOUNDATIONS_ENDGAME = "foundations h1h5,b3b8,b9h9/e0j0,i2i8,c8h8 333334444556/333334444555 d -"


def _solve(game, me):
    """Exact value for `me` (1 win, 0.5 draw, 0 loss) by full minimax; small endgames only."""
    if game.is_over():
        winner = game.result().winner
        return 0.5 if winner is None else float(winner == me)
    values = []
    for move in list(game.legal_moves()):
        game.push(move)
        try:
            values.append(_solve(game, me))
        finally:
            game.pop()
    return max(values) if game.turn == me else min(values)


def test_foundations_finds_the_only_winning_move():
    game = game_from_position(FOUNDATIONS_ENDGAME)
    outcome = {}
    for move in list(game.legal_moves()):
        game.push(move)
        outcome[str(move)] = _solve(game, DARK)
        game.pop()
    assert [m for m, v in outcome.items() if v == 1.0] == ["h5h9^2"]  # the premise
    assert sum(1 for v in outcome.values() if v == 0.0) >= 3
    move, _, _ = run(FOUNDATIONS_ENDGAME, Limits(nodes=3000))
    assert str(move) == "h5h9^2"


HARI_SLIDE_TO_FIT = ("hari a5a9,b1b4,c1c3,f3f6,f7f9,g0g2,h0j0,h1h4,i1i5,i6i8/a1a4,b5b7,c5c8,d2d6,"
                     "e3e9,g5g7,h5h8,j3j6,j7j9 7/33 d l")


def test_hari_slides_to_make_room_for_the_seven():
    game = game_from_position(HARI_SLIDE_TO_FIT)
    # The premise: with no slide the 7 fits nowhere, and discarding it loses.
    assert [str(m) for m in game.plays_after(next(game.slide_sets()))] == ["x7"]
    game.push(game.parse_move("x7"))
    assert finish_with_passes(game).winner != DARK
    move, _, _ = run(HARI_SLIDE_TO_FIT, Limits(movetime=300))
    game = game_from_position(HARI_SLIDE_TO_FIT)
    game.play(move)
    assert move.slides and move.place is not None
    assert finish_with_passes(game).winner == DARK


def test_best_score_on_agrees_with_the_rules_counter_cells():
    from protocol.games.isaac.rules import counter_cell_for

    rng = random.Random(3)
    for _ in range(300):
        color = rng.randrange(2)
        cells = rng.getrandbits(100)
        lo = rng.randrange(100)
        hi = rng.randrange(lo, 100)
        forbidden = rng.randrange(100)
        naive = next((t for t in range(hi, lo - 1, -1)
                      if t != forbidden and cells >> counter_cell_for(color, t) & 1), None)
        assert isaac_knowledge._best_score_on(color, cells, lo, hi, forbidden) == naive


@pytest.mark.parametrize("name", ["isaac", "foundations", "hari"])
def test_a_whole_game_on_a_short_clock_never_runs_out(name):
    """2 s for the whole game, no increment: the clock (with MoveOverhead) must never fall."""
    game = new_game(name)
    rng = random.Random(2)
    clock_ms = 2000.0
    overhead = 30
    strategy = SearchStrategy()
    while not game.is_over():
        if next(game.legal_moves()) is PASS:
            game.push(PASS)
            continue
        if game.turn == DARK:
            limits = Limits(time_left=int(clock_ms))
            start = time.perf_counter()
            move = strategy.choose(game.copy(), limits, threading.Event(), lambda _: None, rng,
                                   PlayOptions(move_overhead=overhead))
            clock_ms -= (time.perf_counter() - start) * 1000 + overhead
            assert clock_ms > 0
        else:
            move = game.random_move(rng)
        game.play(move)


@pytest.mark.parametrize("position", [
    "isaac a1c1/h0h2,a6c6 3333444555667/3334444555667 d - score 10/0",  # Dark's only piece is too short
    "hari a5a9,b1b4,c1c3,f3f6,f7f9,g0g2,h0j0,h1h4,i1i5,i6i8/a1a4,b5b7,c5c8,d2d6,e3e9,g5g7,h5h8,j3j6,"
    "j7j9 -/33 d l",  # Dark has no piece left
])
def test_pass_when_it_is_the_only_move(position):
    assert [str(m) for m in game_from_position(position).legal_moves()] == ["pass"]
    move, infos, _ = run(position, Limits(nodes=100))
    assert move is PASS and infos[-1].pv == ["pass"]


def test_a_finished_game_is_refused_clearly():
    over = game_from_position(HARI_SLIDE_TO_FIT)
    over.push(over.parse_move("x7"))
    finish_with_passes(over)
    with pytest.raises(ValueError, match="over"):
        SearchStrategy().choose(over, Limits(nodes=10), threading.Event(), lambda _: None, random.Random(1))
