"""Statistics for match results: win rates and mean returns with 95% confidence intervals."""

from __future__ import annotations

import math
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


def mean_interval(values: Sequence[float], z: float = Z95) -> Estimate:
    """Normal-approximation interval for a mean (e.g. a seat's share of wins in N-player games)."""
    n = len(values)
    if n == 0:
        return Estimate(0.0, 0.0, 0.0, 0)
    m = sum(values) / n
    if n == 1:
        return Estimate(m, m, m, 1)
    var = sum((v - m) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return Estimate(m, m - half, m + half, n)


def share_interval(shares: Sequence[float], z: float = Z95) -> Estimate:
    """Interval for a mean share in [0, 1] (1 = sole win, 1/k = k-way shared win): the Wilson
    interval on the summed shares, which stays inside [0, 1] even at 0% or 100%."""
    return wilson(sum(shares), len(shares), z)
