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


# ----- Student's t: the quantiles behind mean_interval --------------------------------------------
# t(0.975, df) from the standard tables (two-sided 95%), and a few other points
T_TABLE = [(0.975, 1, 12.706), (0.975, 2, 4.303), (0.975, 3, 3.182), (0.975, 4, 2.776), (0.975, 5, 2.571),
           (0.975, 9, 2.262), (0.975, 10, 2.228), (0.975, 19, 2.093), (0.975, 30, 2.042), (0.975, 60, 2.000),
           (0.975, 120, 1.980), (0.95, 1, 6.314), (0.95, 10, 1.812), (0.95, 30, 1.697), (0.995, 5, 4.032),
           (0.995, 30, 2.750), (0.9, 4, 1.533), (0.999, 10, 4.144)]


@pytest.mark.parametrize("p,df,expected", T_TABLE)
def test_the_t_quantile_matches_the_printed_tables(p, df, expected):
    from nemeton.arena.stats import student_t_quantile
    assert round(student_t_quantile(p, df), 3) == expected
    assert round(student_t_quantile(1 - p, df), 3) == -expected  # symmetric


def test_the_t_quantile_inverts_the_t_distribution_and_tends_to_the_normal():
    from statistics import NormalDist
    from nemeton.arena.stats import student_t_cdf, student_t_quantile
    for df in [1, 2, 3, 4, 7, 12, 50, 999, 1000, 1001, 5000]:
        for p in [0.6, 0.9, 0.975, 0.995]:
            assert student_t_cdf(student_t_quantile(p, df), df) == pytest.approx(p, abs=1e-12)
    assert student_t_quantile(0.5, 7) == 0.0
    assert student_t_quantile(0.975, 10**7) == pytest.approx(NormalDist().inv_cdf(0.975), abs=1e-6)
    quantiles = [student_t_quantile(0.975, df) for df in range(1, 200)]
    assert all(a > b for a, b in zip(quantiles, quantiles[1:])), "fewer degrees of freedom, wider"
    for bad in [(0.0, 3), (1.0, 3), (0.5, 0)]:
        with pytest.raises(ValueError):
            student_t_quantile(*bad)


def test_the_t_distribution_agrees_with_scipy():
    stats = pytest.importorskip("scipy.stats")
    from nemeton.arena.stats import student_t_cdf, student_t_quantile
    rng = random.Random(7)
    for df in list(range(1, 40)) + [rng.randint(40, 3000) for _ in range(40)]:
        for p in [0.55, 0.8, 0.95, 0.975, 0.99, 0.999, rng.uniform(0.001, 0.999)]:
            assert student_t_quantile(p, df) == pytest.approx(float(stats.t.ppf(p, df)), rel=1e-11, abs=1e-12)
        t = rng.uniform(-8, 8)
        assert student_t_cdf(t, df) == pytest.approx(float(stats.t.cdf(t, df)), abs=1e-12)


def test_the_mean_interval_of_three_games_is_mean_plus_or_minus_t_s_over_root_n():
    from statistics import NormalDist, mean, stdev
    from nemeton.arena.stats import mean_interval
    values = [0.2, 0.5, 1.1]
    e = mean_interval(values)
    half = 4.302652729749464 * stdev(values) / 3 ** 0.5  # t(0.975, 2) = 0.95 / √(2 · 0.975 · 0.025)
    assert e.mean == pytest.approx(mean(values)) and e.n == 3
    assert e.low == pytest.approx(mean(values) - half, abs=1e-12)
    assert e.high == pytest.approx(mean(values) + half, abs=1e-12)
    z_half = NormalDist().inv_cdf(0.975) * stdev(values) / 3 ** 0.5
    assert e.high - e.low > 2 * 2 * z_half, "more than twice as wide as the normal interval at n = 3"


def test_the_mean_interval_covers_the_true_mean_95_percent_of_the_time_with_few_games():
    """Normal values, 4 per sample: the t interval covers the mean in about 95% of samples,
    the normal (z) one in only about 86%."""
    from nemeton.arena.stats import mean_interval
    rng = random.Random(13)
    runs = 4000
    covered = 0
    for _ in range(runs):
        e = mean_interval([rng.gauss(1.0, 2.0) for _ in range(4)])
        covered += e.low <= 1.0 <= e.high
    assert 0.935 <= covered / runs <= 0.965


def test_the_mean_interval_at_the_edges():
    from nemeton.arena.stats import mean_interval
    assert mean_interval([]).n == 0
    one = mean_interval([0.7])
    assert one.mean == one.low == one.high == 0.7 and one.n == 1
    same = mean_interval([2.0] * 5)
    assert same.low == same.high == 2.0
    wider = mean_interval([0.0, 1.0] * 5, confidence=0.99)
    assert wider.high - wider.low > mean_interval([0.0, 1.0] * 5).high - mean_interval([0.0, 1.0] * 5).low
    with pytest.raises(ValueError):
        mean_interval([1.0, 2.0], confidence=1.0)
