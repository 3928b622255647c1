"""Statistics for match results: win rates and mean returns with 95% confidence intervals.

Pure Python (the standard library's :mod:`math` and :mod:`statistics`): the arena needs no
SciPy. The tests check the distributions against SciPy where it is installed.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import Sequence

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Estimate:
    mean: float
    low: float
    high: float
    n: int

    def __str__(self) -> str:
        return f"{self.mean:.1%} [{self.low:.1%}, {self.high:.1%}] (n={self.n})"

    def to_json(self) -> dict:
        return {"mean": round(self.mean, 4), "low": round(self.low, 4), "high": round(self.high, 4), "n": self.n}


def wilson(successes: float, n: int, z: float = Z95) -> Estimate:
    """Wilson score interval for a proportion (ties counted as half a success by callers)."""
    if n == 0:
        return Estimate(0.0, 0.0, 1.0, 0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half), n)


def mean_interval(values: Sequence[float], confidence: float = 0.95) -> Estimate:
    """Student's t interval for a mean (a paired difference, a game's length, a signal per
    game): mean ± t · s / √n, with ``s`` the sample standard deviation and ``t`` the
    ``(1 + confidence) / 2`` quantile of Student's t with n - 1 degrees of freedom, so the
    interval has its stated coverage for normal values at every n (with few games it is
    much wider than the normal one: t = 4.30 at n = 3 against z = 1.96). With one value there
    is no spread to measure: the interval is the value itself; with none, (0, 0, 0)."""
    if not 0 < confidence < 1:
        raise ValueError("confidence must lie strictly between 0 and 1")
    n = len(values)
    if n == 0:
        return Estimate(0.0, 0.0, 0.0, 0)
    m = statistics.fmean(values)
    if n == 1:
        return Estimate(m, m, m, 1)
    half = student_t_quantile((1 + confidence) / 2, n - 1) * statistics.stdev(values, m) / math.sqrt(n)
    return Estimate(m, m - half, m + half, n)


def share_interval(shares: Sequence[float], z: float = Z95) -> Estimate:
    """Interval for a mean share in [0, 1] (1 = sole win, 1/k = k-way shared win): the Wilson
    interval on the summed shares, which stays inside [0, 1] even at 0% or 100%."""
    return wilson(sum(shares), len(shares), z)


# ----- sequential stopping: an anytime-valid confidence sequence for a mean in [0, 1] -------------

class ConfidenceSequence:
    """A 95% (``1 - alpha``) confidence sequence for the mean of independent observations in
    [0, 1]: intervals that hold *simultaneously at every number of observations*, so one may
    look after every observation and stop whenever one likes, and the chance that the
    interval ever excludes the true mean stays at most ``alpha``.

    It is the hedged betting confidence sequence of Waudby-Smith and Ramdas ("Estimating means
    of bounded random variables by betting", JRSS B 2024, Theorem 3 with the predictable
    plug-in bets of their eq. 26): for each candidate mean ``m`` two gamblers bet that the next
    observation lies above (resp. below) ``m``, staking the fraction ``lambda_t`` of their
    capital fixed before seeing it; under mean ``m`` each capital is a nonnegative martingale,
    so by Ville's inequality their average (the hedged capital) ever reaching ``1/alpha`` has
    probability at most ``alpha``. The interval holds the candidate means whose hedged capital
    has stayed below ``1/alpha`` so far (evaluated on a grid of ``grid + 1`` points, and
    intersected over time, which keeps the guarantee).

    In the arena each observation is one *duplicate block*: the focal side's mean share over
    the games that replay one deal with the seats permuted. Blocks are independent and
    identically distributed, as the method requires; games within a block are not.
    """

    def __init__(self, alpha: float = 0.05, grid: int = 1000, truncation: float = 0.5,
                 points: Sequence[float] | None = None):
        if not 0 < alpha < 1:
            raise ValueError("alpha must lie strictly between 0 and 1")
        self.alpha = alpha
        self.truncation = truncation  # the largest stake, as a fraction of the most one may lose
        # the candidate means watched: a grid on [0, 1], or only the given points (a test of a line)
        self.ms = sorted(points) if points is not None else [i / grid for i in range(grid + 1)]
        self.step = 1 / grid if points is None else 0.0
        self.log_up = [0.0] * len(self.ms)  # log capital of the gambler betting "above m"
        self.log_down = [0.0] * len(self.ms)  # ... and of the one betting "below m"
        self.alive = [True] * len(self.ms)  # not rejected yet (the running intersection)
        self.n = 0
        self.total = 0.0
        self.mean_hat = 0.5  # regularised running mean and sum of squares (the plug-in's estimates)
        self.squares = 0.25

    def _stake(self) -> float:
        """The plug-in stake for the next observation, computed from the past only."""
        t = self.n + 1
        variance = self.squares / t
        return math.sqrt(2 * math.log(2 / self.alpha) / (variance * t * math.log(1 + t)))

    def update(self, x: float) -> None:
        """Add one observation in [0, 1]."""
        if not 0.0 <= x <= 1.0:
            raise ValueError(f"observations must lie in [0, 1], got {x}")
        stake = self._stake()
        c = self.truncation
        log_threshold = math.log(1 / self.alpha)
        for k, m in enumerate(self.ms):
            up = min(stake, c / m) if m > 0 else stake
            down = min(stake, c / (1 - m)) if m < 1 else stake
            # c < 1 keeps both factors positive: a gambler never stakes all it has
            a = self.log_up[k] = self.log_up[k] + math.log1p(up * (x - m))
            b = self.log_down[k] = self.log_down[k] + math.log1p(-down * (x - m))
            if self.alive[k]:
                top = max(a, b)  # log of the hedged capital (K_up + K_down) / 2
                if top + math.log(0.5 * math.exp(a - top) + 0.5 * math.exp(b - top)) >= log_threshold:
                    self.alive[k] = False
        self.n += 1
        self.total += x
        self.squares += (x - self.mean_hat) ** 2
        self.mean_hat = (0.5 + self.total) / (self.n + 1)

    def interval(self) -> Estimate:
        """The current interval (the whole [0, 1] before any observation)."""
        alive = [m for m, ok in zip(self.ms, self.alive) if ok]
        mean = self.total / self.n if self.n else 0.5
        if not alive:  # every grid point rejected: the mean lies between two of them
            return Estimate(mean, mean, mean, self.n)
        # the true edge lies between the last rejected and the first kept grid point
        return Estimate(mean, max(0.0, alive[0] - self.step), min(1.0, alive[-1] + self.step), self.n)

    def decided(self, line: float) -> str | None:
        """``"above"`` or ``"below"`` once the interval lies wholly on one side of ``line``."""
        if line in self.ms:  # a watched point: decided once it is rejected
            if self.alive[self.ms.index(line)]:
                return None
            return "above" if self.total / self.n > line else "below"
        est = self.interval()
        if est.low > line:
            return "above"
        if est.high < line:
            return "below"
        return None


# ----- tests of significance (pure Python, checked against scipy in the tests) --------------------

def chi_square_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with ``df`` (a positive integer) degrees of freedom,
    from the closed forms for integer degrees of freedom."""
    if df < 1:
        raise ValueError("degrees of freedom must be a positive integer")
    if x <= 0:
        return 1.0
    half = x / 2
    if df % 2 == 0:
        term = total = 1.0
        for j in range(1, df // 2):
            term *= half / j
            total += term
        return min(1.0, math.exp(-half) * total)
    tail = math.erfc(math.sqrt(half))
    term = math.sqrt(2 * x / math.pi) * math.exp(-half)
    for j in range(1, (df - 1) // 2 + 1):
        tail += term
        term *= x / (2 * j + 1)
    return min(1.0, tail)


def student_t_cdf(t: float, df: int) -> float:
    """P(T <= t) for Student's t with ``df`` (a positive integer) degrees of freedom, from the
    closed forms for integer degrees of freedom (Abramowitz and Stegun 26.7.3 and 26.7.4: with
    θ = atan(|t| / √df), P(|T| < |t|) is a finite series in sin θ and cos θ)."""
    if df < 1:
        raise ValueError("degrees of freedom must be a positive integer")
    theta = math.atan2(abs(t), math.sqrt(df))
    cos2 = math.cos(theta) ** 2
    term = total = 1.0
    if df % 2:  # odd: 2/π (θ + sin θ cos θ (1 + 2/3 cos²θ + 2·4/(3·5) cos⁴θ + ...))
        for k in range(1, (df - 1) // 2):
            term *= cos2 * (2 * k) / (2 * k + 1)
            total += term
        inside = 2 / math.pi * (theta + (math.sin(theta) * math.cos(theta) * total if df > 1 else 0.0))
    else:  # even: sin θ (1 + 1/2 cos²θ + 1·3/(2·4) cos⁴θ + ...)
        for k in range(1, df // 2):
            term *= cos2 * (2 * k - 1) / (2 * k)
            total += term
        inside = math.sin(theta) * total
    return 0.5 + 0.5 * inside if t >= 0 else 0.5 - 0.5 * inside


def _student_t_pdf(t: float, df: int) -> float:
    return math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
                    - (df + 1) / 2 * math.log1p(t * t / df))


def _cornish_fisher(x: float, df: int) -> float:
    """The t quantile from the normal one ``x``, to the fourth power of 1/df (Abramowitz and
    Stegun 26.7.5): exact to double precision for large df, a starting point for small."""
    x2 = x * x
    g1 = (x2 + 1) * x / 4
    g2 = ((5 * x2 + 16) * x2 + 3) * x / 96
    g3 = (((3 * x2 + 19) * x2 + 17) * x2 - 15) * x / 384
    g4 = ((((79 * x2 + 776) * x2 + 1482) * x2 - 1920) * x2 - 945) * x / 92160
    return x + (g1 + (g2 + (g3 + g4 / df) / df) / df) / df


# Above this many degrees of freedom the Cornish-Fisher series alone is exact to double precision
# (its first neglected term is below 1e-15 there), and the closed form's series grows long.
_CORNISH_FISHER_DF = 1000


def student_t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile of Student's t with ``df`` (a positive integer) degrees of freedom:
    closed forms at 1 and 2 degrees of freedom, the Cornish-Fisher series above 1,000, and in
    between the inverse of :func:`student_t_cdf` by Newton's method from the Cornish-Fisher value
    (kept inside a bracket by bisection). ``student_t_quantile(0.975, 5)`` = 2.5706."""
    if not 0 < p < 1:
        raise ValueError("p must lie strictly between 0 and 1")
    if df < 1:
        raise ValueError("degrees of freedom must be a positive integer")
    if p < 0.5:
        return -student_t_quantile(1 - p, df)
    if p == 0.5:
        return 0.0
    if df == 1:
        return math.tan(math.pi * (p - 0.5))
    if df == 2:
        return (2 * p - 1) / math.sqrt(2 * p * (1 - p))
    t = _cornish_fisher(statistics.NormalDist().inv_cdf(p), df)
    if df > _CORNISH_FISHER_DF:
        return t
    low, high = 0.0, math.inf  # the quantile lies in between: F(low) < p <= F(high)
    for _ in range(100):
        gap = student_t_cdf(t, df) - p
        if gap < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        step = gap / _student_t_pdf(t, df)
        following = t - step
        if not low < following < high:
            following = (low + high) / 2 if math.isfinite(high) else 2 * low + 1
        if abs(following - t) <= 1e-14 * max(1.0, abs(t)):
            return following
        t = following
    return t


def chi_square_test(observed: Sequence[float], expected: Sequence[float]) -> tuple[float, float]:
    """Pearson's goodness-of-fit statistic and its p-value (``len - 1`` degrees of freedom)."""
    statistic = sum((o - e) ** 2 / e for o, e in zip(observed, expected) if e > 0)
    return statistic, chi_square_sf(statistic, len(observed) - 1)


def binomial_test(k: int, n: int, p: float) -> float:
    """Exact two-sided binomial test of ``k`` successes in ``n`` trials against ``p``: the
    probability of every outcome no more likely than ``k`` (scipy's ``binomtest`` rule)."""
    if not 0 <= k <= n:
        raise ValueError("need 0 <= k <= n")
    if p <= 0 or p >= 1:
        return 1.0 if (p <= 0 and k == 0) or (p >= 1 and k == n) else 0.0

    def log_pmf(i: int) -> float:
        return (math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1)
                + i * math.log(p) + (n - i) * math.log1p(-p))

    threshold = log_pmf(k) + math.log1p(1e-7)
    return min(1.0, sum(math.exp(lp) for lp in map(log_pmf, range(n + 1)) if lp <= threshold))
