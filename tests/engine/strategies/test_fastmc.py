"""Strategy `fastmc` (engine/strategies/fast_mc.py, SPEC 9.7): legal, timely, reproducible, honest.

The partner plays whole games of every game with legal moves, thinks for the time it is
given and stops when told, repeats itself for a node limit and a seed, reports `info` lines
(nodes: plies played, rollouts: playouts) with a score that never claims a proof, has a
refused core move replaced by a legal one, and plays flatmc's Python playouts (saying so)
where a game has no compiled core."""

from __future__ import annotations

import random
import threading
import time

import pytest

from engine.strategies import Limits, fast_mc, make_strategy
from engine.strategies.base import PLAY_DEFAULTS, PlayOptions
from engine.strategies.core_partners import first_accepted
from protocol import new_game
from protocol.moves import PASS

GAMES = ("isaac", "foundations", "hari")


def _choose(game, limits: Limits, seed: int = 1, stop: threading.Event | None = None, infos=None,
            options: PlayOptions = PLAY_DEFAULTS):
    sink = infos if infos is not None else []
    return make_strategy("fastmc").choose(game.copy(), limits, stop or threading.Event(), sink.append,
                                          random.Random(seed), options)


@pytest.mark.parametrize("name", GAMES)
def test_plays_legal_games_to_the_end(name):
    game, rng = new_game(name), random.Random(4)
    while not game.is_over():
        if game.turn == 1 and rng.random() < 0.5:  # Light sometimes plays at random: more varied positions
            game.play(game.random_move(rng))
        else:
            game.play(_choose(game, Limits(nodes=2000), seed=game.turn))
    assert game.result() is not None


@pytest.mark.parametrize("name", GAMES)
def test_reproducible_for_a_node_limit_and_a_seed(name):
    game = new_game(name)
    first, infos = [], []
    for _ in range(2):
        infos.clear()
        first.append((_choose(game, Limits(nodes=5000), seed=9, infos=infos), infos[-1].nodes,
                      infos[-1].rollouts))
    assert first[0] == first[1]
    assert first[0][1] >= 5000 and first[0][2] > 0


@pytest.mark.parametrize("name", GAMES)
def test_uses_its_movetime_and_reports_plies_and_playouts(name):
    infos: list = []
    start = time.monotonic()
    move = _choose(new_game(name), Limits(movetime=200, started=start), infos=infos, options=PlayOptions(move_overhead=0))
    spent = time.monotonic() - start
    assert 0.15 < spent < 0.5
    last = infos[-1]
    assert last.depth == 1 and last.pv == [str(move)]
    assert last.rollouts > 100 and last.nodes > last.rollouts  # a playout is many plies
    assert -99 <= last.score_cp <= 99  # an estimate, never a claimed proof
    assert len(infos) >= 2  # a progress line at 100 ms, and the final one


def test_depth_gives_each_candidate_that_many_playouts():
    infos: list = []
    _choose(new_game("foundations"), Limits(depth=3), infos=infos)
    from engine.games.foundations import playout_core as partner

    arms = partner.core().candidates(partner.position_tuple(new_game("foundations")), partner.DEFAULTS.params())
    assert infos[-1].rollouts == 3 * len(arms)


@pytest.mark.parametrize("name", GAMES)
def test_stop_ends_an_infinite_search_at_once(name):
    stop = threading.Event()
    found: list = []
    worker = threading.Thread(target=lambda: found.append(_choose(new_game(name), Limits(infinite=True), stop=stop)))
    worker.start()
    time.sleep(0.15)
    assert worker.is_alive()
    stopped = time.monotonic()
    stop.set()
    worker.join(2)
    assert not worker.is_alive() and time.monotonic() - stopped < 0.1
    assert found and new_game(name).is_legal(found[0])


def test_a_single_candidate_is_answered_at_once():
    """Dark played its 7, so its shorter pieces are dead: the pass is the only move, no playout needed."""
    from protocol import game_from_position

    game = game_from_position("hari c0c2,b3h3,g6g8/e0i0,d8f8,g9i9 333444455566/333444455667 d -")
    start = time.monotonic()
    infos: list = []
    assert _choose(game, Limits(movetime=1000, started=start), infos=infos) == PASS
    assert time.monotonic() - start < 0.2 and infos[-1].rollouts == 0


def test_a_move_the_rules_refuse_gives_way_to_the_next():
    """The core is a model, not the rules: if it answered an illegal move, the next best legal one is played."""
    from engine.games.isaac import playout_core as partner

    game = new_game("isaac")
    legal = partner.to_move(partner.core().candidates(partner.position_tuple(game), partner.DEFAULTS.params())[0])
    infos: list = []
    assert first_accepted(game, [PASS, legal], infos.append, "fastmc") == legal  # no pass at the start
    assert any(i.string and i.string.startswith("fastmc: ") and "illegal" in i.string for i in infos)
    assert game.is_legal(first_accepted(game, [PASS], infos.append, "fastmc"))  # then the first legal move


def test_without_a_core_it_plays_flatmc_and_says_so(monkeypatch):
    monkeypatch.setattr(fast_mc, "playout_core_for", lambda name: None)
    infos: list = []
    game = new_game("hari")
    move = _choose(game, Limits(nodes=300), infos=infos)
    assert game.is_legal(move)
    assert any(i.string and "flatmc" in i.string for i in infos)


def test_prepare_warms_up_once_per_game_type():
    strategy = make_strategy("fastmc")
    start = time.monotonic()
    for name in GAMES:
        strategy.prepare(new_game(name))
    assert time.monotonic() - start < 2.0
    assert strategy._prepared == set(GAMES)


def test_a_sure_looking_position_is_still_reported_as_an_estimate():
    """Every playout from here is won (Dark reaches 100 at once), yet no playout mean is a proof: cp 99, not 100."""
    from protocol import game_from_position

    infos: list = []
    _choose(game_from_position("isaac a4e4,h3h7,j4j6/a5g5 667/- d - score 95/90"), Limits(nodes=5000), infos=infos)
    assert 80 < infos[-1].score_cp <= 99


def test_bench_prints_the_partners_playouts_per_second():
    from engine.bench import BENCH_POSITIONS, BenchSettings, bench_lines

    lines = list(bench_lines(BenchSettings(nodes=20_000, strategy="fastmc")))
    positions = [line for line in lines if line.startswith("position ")]
    assert len(positions) == len(BENCH_POSITIONS) and all(" pps " in line for line in positions)
    playouts = int(next(line for line in lines if line.startswith("Playouts        :")).split(":")[1])
    assert playouts > 0 and any(line.startswith("Playouts/second :") for line in lines)
    assert BenchSettings(strategy="fastmc").node_limit == 200_000 and BenchSettings().node_limit == 2000
    search = list(bench_lines(BenchSettings(nodes=50, strategy="greedy")))
    assert not any("Playouts" in line for line in search)


def test_variants_of_the_partner_are_built_from_text():
    from engine.games.hari import playout_core as hari
    from engine.games.isaac import playout_core as isaac

    variant = fast_mc.playout_settings("hari.jump=0.3,isaac.per_length=12")
    assert variant["hari"] == hari.PlayoutSettings(jump=0.3) and variant["isaac"].per_length == 12
    assert hari.DEFAULTS.jump == 0.0  # the defaults are untouched
    for bad in ("hari.nonsense=1", "chess.jump=1", "hari.sample=0.5"):
        with pytest.raises(ValueError):
            fast_mc.playout_settings(bad)
    strategy = fast_mc.FastMCStrategy(variant)
    infos: list = []
    move = strategy.choose(new_game("isaac"), Limits(nodes=3000), threading.Event(), infos.append, random.Random(1))
    assert new_game("isaac").is_legal(move) and isaac.DEFAULTS.per_length != 12
