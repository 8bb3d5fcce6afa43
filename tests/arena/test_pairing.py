"""The ladder's choice of pairings, simulated on its own: no bot waits long, new and uncertain bots play
more, close ratings meet more often, and no pair is rematched without end; the ratings move the
right way and rank by the conservative estimate."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from arena.ladder.pairing import Contender, RecentPairings, choose_pair
from arena.ratings import MU0, SIGMA0, Rating, rate, spark_after, win_chance


def simulate(contenders: list[Contender], pairings: int, seed: int = 1, new_at: dict[int, Contender] | None = None):
    """Play `pairings` pairings one at a time (each takes one time unit); per-bot waits and pair counts."""
    rng, recent = random.Random(seed), RecentPairings()
    played: Counter[int] = Counter()
    pairs: Counter[tuple[int, int]] = Counter()
    longest_wait: Counter[int] = Counter()
    last: dict[int, float] = {c.version_id: c.waiting_since for c in contenders}
    for step in range(pairings):
        now = float(step + 1)
        if new_at and step in new_at:
            contenders.append(new_at[step])
            last[new_at[step].version_id] = now
        chosen = choose_pair(contenders, recent, now, rng)
        assert chosen is not None
        a, b = chosen
        recent.add(a.version_id, b.version_id, len(contenders))
        for c in chosen:
            longest_wait[c.version_id] = max(longest_wait[c.version_id], int(now - last[c.version_id]))
            last[c.version_id] = now
            c.waiting_since = now
            c.games += 2
            played[c.version_id] += 1
        pairs[RecentPairings.key(a.version_id, b.version_id)] += 1
    return played, pairs, longest_wait


def field(n: int, spread: float = 1.0, sigma: float = 2.0) -> list[Contender]:
    return [Contender(i, i, Rating(MU0 + spread * (i - n / 2), sigma), 100, 0.0) for i in range(n)]


def test_no_bot_waits_long():
    bots = field(20, spread=2.0)
    played, _, longest = simulate(bots, 2000)
    assert set(played) == set(range(20))
    assert max(longest.values()) <= 20, longest   # a pairing seats two: the average wait is 10
    assert min(played.values()) >= 0.6 * max(played.values()), played


def test_a_new_bot_plays_first_and_more_while_uncertain():
    bots = field(10)
    newcomer = Contender(99, 99, Rating(MU0, SIGMA0), 0, 0.0)
    played, _, _ = simulate(bots, 300, new_at={100: newcomer})
    assert played[99] > 1.4 * sum(played[i] for i in range(10)) / 10 * (200 / 300), played


def test_no_endless_rematch_even_between_the_two_closest():
    bots = [Contender(0, 0, Rating(30, 1), 100, 0.0), Contender(1, 1, Rating(30, 1), 100, 0.0)]
    bots += [Contender(i, i, Rating(10 + i, 1), 100, 0.0) for i in range(2, 6)]
    _, pairs, _ = simulate(bots, 600)
    assert pairs[(0, 1)] < 0.25 * 600, pairs   # without the rematch weights they would meet almost always
    assert len(pairs) >= 6


def test_close_ratings_meet_more_often_than_distant_ones():
    bots = [Contender(i, i, Rating(10.0 + 5 * i, 1.0), 100, 0.0) for i in range(5)]
    _, pairs, _ = simulate(bots, 2000)
    assert pairs[(1, 2)] > 2 * pairs[(0, 4)], pairs


def test_busy_bots_and_a_bots_own_versions_are_not_paired():
    a, b, c = Contender(1, 7, Rating(), 0, 0.0), Contender(2, 7, Rating(), 0, 0.0), Contender(3, 8, Rating(), 0, 0.0)
    c.busy = True
    assert choose_pair([a, b, c], RecentPairings(), 1.0, random.Random(1)) is None
    c.busy = False
    chosen = choose_pair([a, b, c], RecentPairings(), 1.0, random.Random(1))
    assert chosen is not None and {x.version_id for x in chosen} in ({1, 3}, {2, 3})


@pytest.mark.parametrize(("result", "dark_up"), [("1-0", True), ("0-1", False)])
def test_ratings_move_the_winner_up_and_shrink_uncertainty(result, dark_up):
    dark, light = rate(Rating(), Rating(), result)
    assert (dark.mu > MU0) == dark_up and (light.mu > MU0) != dark_up
    assert dark.sigma < SIGMA0 and light.sigma < SIGMA0
    drawn = rate(Rating(30, 3), Rating(20, 3), "1/2-1/2")
    assert drawn[0].mu < 30 < 20 + 20 and drawn[1].mu > 20   # a draw pulls the two together


def test_the_conservative_estimate_ranks_a_lucky_newcomer_below_a_proven_bot():
    lucky = rate(Rating(), Rating(), "1-0")[0]
    proven = Rating(28.0, 1.5)
    assert lucky.mu > 27 and lucky.conservative < proven.conservative
    assert 0.5 < win_chance(proven, Rating(25, 1.5)) < 1
    assert spark_after([0.0] * 40, proven)[-1] == round(proven.conservative, 2) and len(spark_after([0.0] * 40, proven)) == 40
