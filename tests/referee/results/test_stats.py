"""Statistics against values worked out by hand (the arithmetic is in the comments)."""

from __future__ import annotations

import math

import pytest

from referee.results.elo import elo_from_score, elo_interval, elo_interval_pentanomial, json_number, los
from referee.results.sprt import Sprt, sprt_bounds, sprt_llr_pentanomial, sprt_llr_trinomial
from referee.results.tally import MatchStats, engine_totals, pentanomial_counts, standings, termination_counts
from referee.results.text import match_headline, standings_table
from tests.support.records import make_record


def rec(game_id, dark, light, result, termination="normal", pair=None, round_=1):
    return make_record(dark, light, result, termination=termination, pair=pair, round_=round_, game_id=game_id)


# -- Elo ---------------------------------------------------------------------

def test_elo_of_known_scores():
    assert elo_from_score(0.5) == 0.0
    # 0.75 = 1/(1+10^(-e/400))  =>  e = 400*log10(3) = 190.848...
    assert elo_from_score(0.75) == pytest.approx(190.848501, abs=1e-5)
    assert elo_from_score(0.25) == pytest.approx(-190.848501, abs=1e-5)
    assert elo_from_score(1.0) == math.inf and elo_from_score(0.0) == -math.inf


def test_elo_interval_trinomial_by_hand():
    # W6 D2 L2: s = 7/10 = 0.7; elo = -400*log10(3/7) = 147.1907
    # var = (6*0.3^2 + 2*0.2^2 + 2*0.7^2)/10 = 1.6/10 = 0.16; se = sqrt(0.16/10) = 0.1264911
    # half = 1.959964*0.1264911 = 0.2479180; s-half = 0.4520820 -> -33.399; s+half = 0.9479180 -> 504.033
    elo, lo, hi = elo_interval(6, 2, 2)
    assert elo == pytest.approx(147.1907, abs=1e-3)
    assert lo == pytest.approx(-33.399, abs=1e-2)
    assert hi == pytest.approx(504.033, abs=1e-2)


def test_elo_interval_pentanomial_by_hand():
    # pair counts [1,2,3,2,2] over x = 0, .25, .5, .75, 1: mean = 5.5/10 = 0.55 -> elo 34.860
    # var = (0.55^2 + 2*0.3^2 + 3*0.05^2 + 2*0.2^2 + 2*0.45^2)/10 = 0.975/10 = 0.0975
    # half = 1.959964*sqrt(0.0975/10) = 0.193530 -> (0.356470, 0.743530) -> (-102.619, +184.906)
    elo, lo, hi = elo_interval_pentanomial([1, 2, 3, 2, 2])
    assert elo == pytest.approx(34.860, abs=1e-3)
    assert lo == pytest.approx(-102.619, abs=1e-2)
    assert hi == pytest.approx(184.906, abs=1e-2)


def test_interval_of_a_one_sided_sample_uses_wilson():
    # 4-0: zero spread, so the Wilson interval of p = 1, n = 4 (z = 1.959964, z^2 = 3.841459):
    # low = (1 + z^2/8 - z*sqrt(z^2/64)) / (1 + z^2/4) = (1 + 0.480182 - 0.480182)/1.960365 = 0.510109
    # -> Elo -400*log10(1/0.510109 - 1) = +7.02
    elo, lo, hi = elo_interval(4, 0, 0)
    assert elo == math.inf and hi == math.inf
    assert lo == pytest.approx(7.02, abs=0.01)
    # all draws: p = 0.5 over 6 games: half = z*sqrt(0.25/6 + z^2/144) / (1 + z^2/6)
    elo, lo, hi = elo_interval(0, 6, 0)
    assert elo == 0.0 and lo == pytest.approx(-hi) and 0 < hi < math.inf
    assert elo_interval(0, 0, 0)[1:] == (-math.inf, math.inf)


def test_los_by_hand():
    # W6 L2: 0.5*(1 + erf(4/sqrt(2*8))) = 0.5*(1 + erf(1)) = 0.5*(1 + 0.8427008) = 0.9213504
    assert los(6, 2) == pytest.approx(0.9213504, abs=1e-7)
    assert los(3, 3) == 0.5 and los(0, 0) == 0.5
    assert los(2, 6) == pytest.approx(1 - 0.9213504, abs=1e-7)


# -- SPRT -----------------------------------------------------------------------

def test_sprt_bounds_by_hand():
    # alpha = beta = 0.05: ln(0.05/0.95) = -2.944439, ln(0.95/0.05) = +2.944439
    lower, upper = sprt_bounds(0.05, 0.05)
    assert lower == pytest.approx(-2.944439, abs=1e-6)
    assert upper == pytest.approx(2.944439, abs=1e-6)
    # alpha 0.05, beta 0.1: ln(0.1/0.95) = -2.251292, ln(0.9/0.05) = 2.890372
    assert sprt_bounds(0.05, 0.1) == pytest.approx((-2.251292, 2.890372), abs=1e-6)


def test_sprt_llr_trinomial_by_hand():
    # elo0 0, elo1 10: s0 = 0.5, s1 = 1/(1+10^-0.025) = 0.5143872
    # W6 D2 L2: mean 0.7, var 0.16 (as above), N = 10
    # LLR = 10*(0.0143872)*(1.4 - 1.0143872)/(2*0.16) = 0.173371
    assert sprt_llr_trinomial(6, 2, 2, 0, 10) == pytest.approx(0.173371, abs=1e-5)


def test_sprt_llr_pentanomial_by_hand():
    # counts [1,2,3,2,2]: mean 0.55, var 0.0975, N = 10 pairs
    # LLR = 10*0.0143872*(1.1 - 1.0143872)/(2*0.0975) = 0.0631655
    assert sprt_llr_pentanomial([1, 2, 3, 2, 2], 0, 10) == pytest.approx(0.0631655, abs=1e-6)


def test_sprt_llr_sign_follows_the_evidence():
    assert sprt_llr_trinomial(2, 2, 6, 0, 10) < 0 < sprt_llr_trinomial(6, 2, 2, 0, 10)
    assert sprt_llr_pentanomial([0, 0, 0, 0, 0], 0, 10) == 0.0


def test_sprt_one_sided_sample_needs_real_evidence():
    # one game won: counts regularized to [1, .5, .5] over x = 1, .5, 0 (N = 2):
    # mean = 1.25/2 = 0.625, var = (0.140625 + 0.5*0.015625 + 0.5*0.390625)/2 = 0.171875
    # LLR = 2*0.0143872*(1.25 - 1.0143872)/(2*0.171875) = 0.019723: far from deciding
    assert sprt_llr_trinomial(1, 0, 0, 0, 10) == pytest.approx(0.019723, abs=1e-6)
    # every pair won 2-0: no decision after 18 pairs, H1 after 19 (Elo 0 vs 10, alpha = beta = 0.05)
    assert Sprt(0, 10).decide(sprt_llr_pentanomial([0, 0, 0, 0, 18], 0, 10)) is None
    llr = sprt_llr_pentanomial([0, 0, 0, 0, 19], 0, 10)
    assert math.isfinite(llr) and Sprt(0, 10).decide(llr) == "H1"
    assert Sprt(0, 10).decide(-3.0) == "H0"
    assert Sprt(0, 10).decide(0.0) is None


def test_sprt_rejects_bad_parameters():
    with pytest.raises(ValueError, match="elo0 < elo1"):
        Sprt(5, 0)
    with pytest.raises(ValueError, match="between 0 and 1"):
        Sprt(0, 5, 0.0, 0.05)


# -- from records --------------------------------------------------------------------

def paired_records():
    """Four pairs of A vs B; A has Dark in the first game of each pair."""
    results = [("1-0", "0-1"),      # A wins both: pair score 2
               ("1-0", "1-0"),      # A wins, loses: 1
               ("1/2-1/2", "0-1"),  # A draws, wins: 1.5
               ("0-1", "1/2-1/2")]  # A loses, draws: 0.5
    out = []
    for pair, (first, second) in enumerate(results):
        out.append(rec(2 * pair, "A", "B", first, pair=pair))
        out.append(rec(2 * pair + 1, "B", "A", second, pair=pair))
    return out


def test_match_stats_from_records():
    match = MatchStats("A", "B")
    for r in paired_records():
        match.add(r)
    t = match.tally()
    # A's games: W, W, W, L, D, W, L, D  -> W4 D2 L2
    assert (t.wins, t.draws, t.losses) == (4, 2, 2)
    assert t.points == 5.0
    assert match.pentanomial() == [0, 1, 1, 1, 1]
    summary = match.to_json()
    assert summary["pentanomial"] == [0, 1, 1, 1, 1]
    assert summary["los"] == pytest.approx(los(4, 2), abs=1e-4)


def test_match_headline_is_the_score_elo_los_and_llr_in_one_line():
    match = MatchStats("A", "B", sprt=Sprt(0, 10))
    for r in paired_records():
        match.add(r)
    # W4 D2 L2: 5 - 3, score 0.625 -> Elo -400*log10(1/0.625 - 1) = +88.7; LOS Phi(2/sqrt(6)) = 79%;
    # bounds log(0.05/0.95) = -2.94 and +2.94
    assert match_headline(match) == "A vs B: 5 - 3 [W4 D2 L2] Elo +88.7 (-117.0, +406.8) LOS 79% LLR 0.03 (-2.94, 2.94)"
    assert match_headline(MatchStats("A", "B")) == "A vs B: 0 - 0 [W0 D0 L0] Elo +0.0 (-inf, +inf) LOS 50%"


def test_pentanomial_skips_unfinished_pairs():
    records = paired_records()[:-1]   # the last pair (A scored 0.5) is half played
    assert pentanomial_counts(records, "A") == [0, 0, 1, 1, 1]
    assert pentanomial_counts(records, "B") == [1, 1, 1, 0, 0]


def test_match_sprt_uses_pairs_when_there_are_pairs():
    match = MatchStats("A", "B", sprt=Sprt(0, 10))
    for r in paired_records():
        match.add(r)
    assert match.llr() == pytest.approx(sprt_llr_pentanomial([0, 1, 1, 1, 1], 0, 10))
    half = MatchStats("A", "B", sprt=Sprt(0, 10))
    half.add(rec(0, "A", "B", "1-0", pair=0))
    assert half.llr() == 0.0            # a paired match counts complete pairs only
    lone = MatchStats("A", "B", sprt=Sprt(0, 10))
    lone.add(rec(0, "A", "B", "1-0"))
    lone.add(rec(1, "A", "B", "1/2-1/2"))
    assert lone.llr() == pytest.approx(sprt_llr_trinomial(1, 1, 0, 0, 10))


def test_per_colour_and_forfeit_tallies():
    records = paired_records() + [rec(8, "A", "B", "0-1", termination="time forfeit")]
    totals = engine_totals(records, ["A", "B"])
    a = totals["A"]
    # A as Dark: 1-0 W, 1-0 W, 1/2 D, 0-1 L, 0-1 (forfeit) L -> W2 D1 L2
    assert (a.as_dark.wins, a.as_dark.draws, a.as_dark.losses) == (2, 1, 2)
    # A as Light: 0-1 W, 1-0 L, 0-1 W, 1/2 D -> W2 D1 L1
    assert (a.as_light.wins, a.as_light.draws, a.as_light.losses) == (2, 1, 1)
    assert a.forfeits == {"time forfeit": 1}
    assert totals["B"].forfeits == {}
    assert termination_counts(records) == {"normal": 8, "time forfeit": 1}


def test_standings_order_and_table():
    records = [rec(0, "A", "B", "1-0"), rec(1, "B", "C", "1/2-1/2"), rec(2, "C", "A", "0-1"),
               rec(3, "B", "A", "1/2-1/2")]
    order = [e.name for e in standings(records, ["A", "B", "C"])]
    # A: 1 + 1 + 0.5 = 2.5; B: 0 + 0.5 + 0.5 = 1; C: 0.5 + 0 = 0.5
    assert order == ["A", "B", "C"]
    table = standings_table(records, ["A", "B", "C"])
    lines = table.splitlines()
    assert lines[2].split()[:4] == ["1", "A", "3", "2.5"]
    assert lines[4].split()[:4] == ["3", "C", "2", "0.5"]
    total_points = sum(e.total.points for e in standings(records, ["A", "B", "C"]))
    assert total_points == len(records)


def test_json_numbers_have_no_infinity():
    assert json_number(math.inf) is None
    assert json_number(-math.inf) is None
    assert json_number(math.nan) is None
    assert json_number(12.3456) == 12.35
