"""The `fastmc` partner cores (engine/games/<game>/_playout_core.c) held to the rules and to their contract.

Each core is a private bitboard model of its game for playouts. These tests replay its
playouts on the protocol's rules (every move legal, the same end: scores and winner), check
its root candidates (legal, distinct), its search (statistics that add up, reproducible for
a seed and a node limit, limits obeyed, stopped by its progress callback), and that bad
input is refused with an exception rather than a crash. Game-specific cases are in
test_partner_<game>.py."""

from __future__ import annotations

import time

import pytest

from protocol import new_game
from protocol.board import SEGMENTS
from tests.support.playout_positions import partner, replay, varied_positions

GAMES = ("isaac", "foundations", "hari")
POSITIONS = {name: varied_positions(name, 120, seed=11) for name in GAMES}


def budget(seed=1, c=0.4, nodes=0, playouts=0, deadline=0.0, progress=None, every=0.005):
    return (seed, c, nodes, playouts, deadline, progress, every)


@pytest.mark.parametrize("name", GAMES)
def test_the_core_is_built(name):
    """fastmc is the strength runs' partner: a failed build must not pass unnoticed (needs a C compiler)."""
    assert partner(name).AVAILABLE


@pytest.mark.parametrize("name", GAMES)
def test_segments_are_the_boards(name):
    assert partner(name).core().segments() == [(s.lo, s.hi, s.length, int(s.horizontal)) for s in SEGMENTS]


@pytest.mark.parametrize("name", GAMES)
def test_playouts_replay_on_the_rules_to_the_same_end(name):
    module = partner(name)
    for i, game in enumerate(POSITIONS[name]):
        for seed in (i, 1000 + i):
            natives, scores, winner = module.core().playout(module.position_tuple(game), module.DEFAULTS.params(), seed)
            end = replay(game, module, natives)
            assert end.is_over(), (game.position(), natives)
            result = end.result()
            assert tuple(result.scores) == tuple(scores), game.position()
            assert (-1 if result.winner is None else result.winner) == winner, game.position()


@pytest.mark.parametrize("name", GAMES)
def test_root_candidates_are_legal_and_distinct(name):
    module = partner(name)
    for game in POSITIONS[name]:
        moves = [module.to_move(m) for m in module.core().candidates(module.position_tuple(game), module.DEFAULTS.params())]
        assert moves, game.position()
        canonical = [game.check_move(m) for m in moves]
        assert len(set(map(str, canonical))) == len(canonical), game.position()


@pytest.mark.parametrize("name", GAMES)
def test_search_statistics_add_up_and_repeat_for_a_seed_and_a_node_limit(name):
    module = partner(name)
    for game in POSITIONS[name][:20]:
        position = module.position_tuple(game)
        first = module.core().search(position, module.DEFAULTS.params(), budget(seed=7, nodes=3000))
        moves, visits, totals, nodes, playouts = first
        assert moves == module.core().candidates(position, module.DEFAULTS.params())
        assert sum(visits) == playouts and len(visits) == len(totals) == len(moves)
        assert 3000 <= nodes and playouts >= 1
        assert all(0.0 <= t <= v for t, v in zip(totals, visits, strict=True))
        assert module.core().search(position, module.DEFAULTS.params(), budget(seed=7, nodes=3000)) == first


@pytest.mark.parametrize("name", GAMES)
def test_search_obeys_its_playout_limit_and_its_deadline(name):
    module = partner(name)
    position = module.position_tuple(POSITIONS[name][0])
    assert module.core().search(position, module.DEFAULTS.params(), budget(playouts=37))[4] == 37
    start = time.monotonic()
    module.core().search(position, module.DEFAULTS.params(), budget(deadline=start + 0.03))
    assert time.monotonic() - start < 0.5


@pytest.mark.parametrize("name", GAMES)
def test_progress_is_called_and_stops_the_search(name):
    module = partner(name)
    calls = []

    def progress(nodes, playouts, best, mean):
        calls.append((nodes, playouts, best, mean))
        return len(calls) >= 3

    moves, visits, _, nodes, playouts = module.core().search(
        module.position_tuple(POSITIONS[name][1]), module.DEFAULTS.params(),
        budget(progress=progress, every=0.001, deadline=time.monotonic() + 5))  # the deadline: a safety net
    assert len(calls) == 3 and calls[-1][1] <= playouts
    assert all(0 <= best < len(moves) and 0.0 <= mean <= 1.0 for _, _, best, mean in calls)


@pytest.mark.parametrize("name", GAMES)
def test_an_error_in_progress_is_raised_not_swallowed(name):
    module = partner(name)

    def progress(*args):
        raise RuntimeError("from the callback")

    with pytest.raises(RuntimeError, match="from the callback"):
        module.core().search(module.position_tuple(POSITIONS[name][2]), module.DEFAULTS.params(),
                             budget(progress=progress, every=0.001, deadline=time.monotonic() + 5))


@pytest.mark.parametrize("name", GAMES)
def test_a_finished_game_is_refused_by_the_search(name):
    module = partner(name)
    game = POSITIONS[name][3].copy()
    natives, _, _ = module.core().playout(module.position_tuple(game), module.DEFAULTS.params(), 3)
    end = replay(game, module, natives)
    assert module.core().candidates(module.position_tuple(end), module.DEFAULTS.params()) == []
    with pytest.raises(ValueError, match="over"):
        module.core().search(module.position_tuple(end), module.DEFAULTS.params(), budget(nodes=100))


def _replace(position, index, value):
    return position[:index] + (value,) + position[index + 1:]


BAD_FIELDS = {
    # game: {field index in the position tuple: [bad values]}
    "isaac": {0: [[600], [-1], [0, 0], [0] * 16], 2: [(0,) * 7, (0, 0, 0, 6, 0, 0, 0, 0), (0, 0, 0, -1, 0, 0, 0, 0)],
              4: [2, -1], 5: [(0, 0), (3,), (0, 1, 0)], 6: [2], 7: [250, -1], 9: [2, 8]},
    "foundations": {0: [2], 1: [(1, 1), (5,)], 2: [(0,) * 9, (0, 0, 0, 9, 0, 0, 0, 0)],
                    4: [[600 * 16 + 1], [5], [-3]], 6: [0, 9], 8: [8, -1]},
    "hari": {0: [[600], [-1], [0, 0]], 2: [(0,) * 3, (0, 0, 0, 0, 0, 0, 0, 2)], 4: [8, -1], 6: [2],
             7: [(0, 0), (7,)]},
}


@pytest.mark.parametrize("name", GAMES)
def test_bad_positions_are_refused_with_a_value_error(name):
    module = partner(name)
    good = module.position_tuple(new_game(name))
    for index, values in BAD_FIELDS[name].items():
        for value in values:
            bad = _replace(good, index, value)
            with pytest.raises(ValueError):
                module.core().candidates(bad, module.DEFAULTS.params())
            with pytest.raises(ValueError):
                module.core().playout(bad, module.DEFAULTS.params(), 1)
            with pytest.raises(ValueError):
                module.core().search(bad, module.DEFAULTS.params(), budget(nodes=50))


@pytest.mark.parametrize("name", GAMES)
def test_malformed_input_is_refused_with_an_exception(name):
    module = partner(name)
    good = module.position_tuple(new_game(name))
    for bad in ((), good[:-1], good + (0,), "isaac", None):
        with pytest.raises((TypeError, ValueError)):
            module.core().candidates(bad, module.DEFAULTS.params())
    with pytest.raises(TypeError):  # Dark's hand (field 2 in every game) of strings
        module.core().candidates(_replace(good, 2, ["x"] * 8), module.DEFAULTS.params())


@pytest.mark.parametrize("name", GAMES)
def test_bad_parameters_and_budgets_are_refused(name):
    module = partner(name)
    position = module.position_tuple(new_game(name))
    params = module.DEFAULTS.params()
    for bad in (params[:-1], params + (1.0,), (float("nan"),) + params[1:], (-1.0,) + params[1:],
                (1e9,) * len(params)):
        with pytest.raises(ValueError, match="params"):
            module.core().candidates(position, bad)
    for bad in (budget(c=-1), budget(nodes=-5), budget(playouts=-1), budget(deadline=-1.0),
                budget(every=0.0), budget(c=float("nan"))):
        with pytest.raises(ValueError, match="budget"):
            module.core().search(position, params, bad)
    with pytest.raises(TypeError, match="progress"):
        module.core().search(position, params, budget(progress=42))


LEAF_GAMES = ("isaac",)
"""The cores with leaf(), their playouts as a search's leaf value (engine/search/native/_playout_api.h's PARTNER_LEAF)."""


@pytest.mark.parametrize("name", LEAF_GAMES)
def test_leaf_values_are_the_cores_playouts_for_the_side_to_move(name):
    """leaf() plays the same playouts as playout() (same seed, same plies) and scores each for the side
    to move: above 1/2 when it wins, below when it loses, 1/2 a draw or a cut."""
    module, decided = partner(name), 0
    for game in POSITIONS[name][:60]:
        for seed in range(2):
            natives, _, winner = module.core().playout(module.position_tuple(game), module.DEFAULTS.params(), seed)
            value, plies = module.leaf(game, seed, 1)
            assert plies == len(natives) and 0.0 <= value <= 1.0
            if winner == game.turn:
                assert value > 0.5
            elif winner == 1 - game.turn:
                assert value < 0.5
            decided += winner >= 0
    assert decided >= 100


@pytest.mark.parametrize("name", LEAF_GAMES)
def test_leaf_means_several_playouts_and_refuses_a_bad_count(name):
    module = partner(name)
    game = new_game(name)   # from the start: long playouts, each seed its own
    value, plies = module.leaf(game, 7, 8)
    assert module.leaf(game, 7, 8) == (value, plies)          # reproducible for a seed
    assert module.leaf(game, 8, 8) != (value, plies) and plies > 0  # another seed, other playouts
    for count in (0, 65):
        with pytest.raises(ValueError, match="count is 1 to 64 playouts"):
            module.leaf(game, 1, count)
