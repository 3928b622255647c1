"""Statistics against known cases: a fair coin, a biased one, and the sequential rule's error rate."""

from __future__ import annotations

import random

import pytest

from nemeton.arena.stats import ConfidenceSequence
from nemeton.arena.summary import seat_tests


def test_seat_tests_match_the_textbook_chi_square_and_binomial_values():
    # 100 games between two seats: 60 wins for seat 0 (first player in every game)
    seat, first = seat_tests([[1.0] * 60 + [0.0] * 40, [0.0] * 60 + [1.0] * 40], [1.0] * 60 + [0.0] * 40, 2)
    assert seat.statistic == pytest.approx(4.0) and seat.p_value == pytest.approx(0.0455, abs=1e-4)
    assert first.statistic == 60 and first.p_value == pytest.approx(0.0569, abs=1e-4)


def test_the_pure_python_tests_agree_with_scipy():
    stats = pytest.importorskip("scipy.stats")
    from nemeton.arena.stats import binomial_test, chi_square_sf
    rng = random.Random(2)
    for _ in range(200):
        df, x = rng.randint(1, 8), rng.uniform(0, 30)
        assert chi_square_sf(x, df) == pytest.approx(float(stats.chi2.sf(x, df)), abs=1e-12)
        n = rng.randint(1, 300)
        k, p = rng.randint(0, n), rng.choice([0.5, 1 / 3, 0.25, 1 / 6, 0.65])
        assert binomial_test(k, n, p) == pytest.approx(float(stats.binomtest(k, n, p).pvalue), abs=1e-9)


def test_a_fair_coin_shows_no_seat_advantage_and_a_biased_one_does():
    rng = random.Random(3)
    fair = [float(rng.random() < 0.5) for _ in range(400)]
    biased = [float(rng.random() < 0.6) for _ in range(400)]
    fair_seat, fair_first = seat_tests([fair, [1 - x for x in fair]], fair, 2)
    biased_seat, biased_first = seat_tests([biased, [1 - x for x in biased]], biased, 2)
    assert fair_seat.p_value > 0.05 and fair_first.p_value > 0.05
    assert biased_seat.p_value < 0.001 and biased_first.p_value < 0.001


def test_the_confidence_sequence_keeps_its_error_rate_on_a_fair_game_looked_at_after_every_block():
    """Probability that the 95% sequence *ever* excludes the true mean 1/2 within 200 looks:
    at most 5% (a fixed-n 95% interval looked at 200 times would exceed it several-fold)."""
    rng = random.Random(11)
    runs, wrong = 1000, 0
    for _ in range(runs):
        cs = ConfidenceSequence(points=[0.5])
        for _ in range(200):
            cs.update(float(rng.random() < 0.5))
            if cs.decided(0.5):
                wrong += 1
                break
    assert wrong / runs <= 0.05


def test_the_confidence_sequence_decides_a_biased_coin_on_the_right_side():
    rng = random.Random(5)
    above = ConfidenceSequence()
    below = ConfidenceSequence()
    for n in range(1, 401):
        above.update(float(rng.random() < 0.85))
        below.update(float(rng.random() < 0.45))
    assert above.decided(0.65) == "above" and below.decided(0.65) == "below"
    assert above.interval().low > 0.65 and below.interval().high < 0.65
    assert above.interval().low < 0.85 < above.interval().high


def test_the_confidence_sequence_is_wider_than_a_fixed_sample_interval_and_shrinks():
    from nemeton.arena.stats import wilson
    cs = ConfidenceSequence()
    for x in [1.0, 0.0] * 50:
        cs.update(x)
    est = cs.interval()
    fixed = wilson(50, 100)
    assert est.low < fixed.low and est.high > fixed.high  # the price of looking at every step
    for x in [1.0, 0.0] * 450:
        cs.update(x)
    assert cs.interval().high - cs.interval().low < est.high - est.low
    assert cs.interval().low < 0.5 < cs.interval().high


def test_observations_outside_zero_one_are_refused():
    with pytest.raises(ValueError):
        ConfidenceSequence().update(1.5)
