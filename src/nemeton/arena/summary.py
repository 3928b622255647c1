"""What a tournament says: ratings, win shares, seat and first-player advantage, scores.

- **Ratings**: OpenSkill's Plackett-Luce model, games taken in index order. The rated units
  are a game's teams (each seat alone without teams): a team is the list of the distinct
  agents playing in it, ranked by the game's ranking. An agent that plays several units of
  one game (``a b a b`` at four seats without teams) gets the sum of its units' mean
  changes, and its variance shrinks by the product of their variance ratios: each of its
  units is one more comparison with the others, and its own units' comparisons cancel out.
- **Win shares**: an agent's share of a game is the sum of the returns of the units it
  plays (1 for a sole win, 1/k for a k-way shared win, a team's share once per team); mean
  over the games with a 95% Wilson interval, against its fair share (its units over all
  units, averaged over its games).
- **Seat advantage**: each unit position's (seat's) share of the wins, with a chi-square
  goodness-of-fit test of "every position wins equally often"; agents are rotated
  over the positions, so agent strength cancels out over complete blocks.
- **First-player advantage**: the seat of the game's first recorded action is its first
  player; its share against the fair share 1/units with an exact two-sided binomial test
  (shares summed and rounded to whole wins: shared wins are rare). Both tests are computed
  exactly in :mod:`nemeton.arena.stats` (checked against scipy in the tests), so the arena
  needs no scipy.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field
from typing import Any, Sequence

from ..engine import display_options, get_game
from .stats import Estimate, binomial_test, chi_square_test, mean_interval, share_interval
from .tournament import Decision, GameOutcome, Tournament


@dataclass
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative skill estimate mu - 3 sigma (OpenSkill's leaderboard value)."""
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict[str, float]:
        return {"mu": round(self.mu, 3), "sigma": round(self.sigma, 3), "ordinal": round(self.ordinal, 3)}


def rate(outcomes: Sequence[GameOutcome], agents: int) -> list[Rating]:
    """OpenSkill Plackett-Luce ratings of the pool after ``outcomes`` (in the order given)."""
    from openskill.models import PlackettLuce
    model = PlackettLuce()
    ratings = [model.rating(name=str(a)) for a in range(agents)]
    for o in outcomes:
        teams, owners = [], []
        ranks: list[float] = []
        for unit in o.units:
            members = sorted({o.seats[s] for s in unit})
            teams.append([model.rating(mu=ratings[a].mu, sigma=ratings[a].sigma) for a in members])
            owners.append(members)
            ranks.append(o.ranking[unit[0]])
        if len(teams) < 2:
            continue
        new = model.rate(teams, ranks=ranks)
        shift = [0.0] * agents
        shrink = [1.0] * agents
        touched = set()
        for team, members in zip(new, owners):
            for rating, a in zip(team, members):
                shift[a] += rating.mu - ratings[a].mu
                shrink[a] *= (rating.sigma / ratings[a].sigma) ** 2
                touched.add(a)
        for a in touched:
            ratings[a] = model.rating(mu=ratings[a].mu + shift[a], sigma=ratings[a].sigma * math.sqrt(shrink[a]))
    return [Rating(r.mu, r.sigma) for r in ratings]


@dataclass
class AgentSummary:
    agent: str
    games: int
    share: Estimate
    fair_share: float
    mean_score: float
    rating: Rating
    scores: list[float] = field(default_factory=list, repr=False)  # one per seat played

    def to_json(self) -> dict[str, Any]:
        return {"agent": self.agent, "games": self.games, "share": self.share.to_json(),
                "fair_share": round(self.fair_share, 4), "mean_score": round(self.mean_score, 3),
                "scores": quantiles(self.scores), "rating": self.rating.to_json()}


@dataclass
class Test:
    name: str
    statistic: float
    p_value: float

    def to_json(self) -> dict[str, Any]:
        return {"test": self.name, "statistic": round(self.statistic, 4), "p_value": round(self.p_value, 6)}


@dataclass
class Summary:
    game: str
    title: str
    players: int
    agents: list[str]
    options: dict[str, Any]
    seed: int
    lineup: str
    games: int
    agent_rows: list[AgentSummary]
    seat_shares: list[Estimate]  # per unit position (per seat without teams)
    seat_test: Test | None
    first_player: Estimate
    first_player_test: Test | None
    seat_scores: list[list[float]] = field(repr=False)
    steps: list[int] = field(repr=False)
    rounds: list[int] = field(repr=False)
    units: list[list[int]] = field(default_factory=list)
    seconds: float = 0.0
    decision: Decision | None = None

    def to_json(self) -> dict[str, Any]:
        fair = 1 / len(self.units) if self.units else 0.0
        return {
            "game": self.game, "players": self.players, "agents": self.agents, "options": self.options,
            "seed": self.seed, "lineup": self.lineup, "games": self.games,
            "ratings_model": "openskill PlackettLuce",
            "agent_results": [a.to_json() for a in self.agent_rows],
            "seats": [{"seats": u, "share": s.to_json(), "mean_score": round(_mean(sc), 3), "scores": quantiles(sc)}
                      for u, s, sc in zip(self.units, self.seat_shares, self.unit_scores())],
            "seat_test": self.seat_test.to_json() if self.seat_test else None,
            "first_player": {"share": self.first_player.to_json(), "fair_share": round(fair, 4),
                             "test": self.first_player_test.to_json() if self.first_player_test else None},
            "mean_steps": round(_mean(self.steps), 2), "mean_rounds": round(_mean(self.rounds), 2),
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games / self.seconds, 3) if self.seconds else None,
            "decision": self.decision.to_json() if self.decision else None,
        }

    def unit_scores(self) -> list[list[float]]:
        return [self.seat_scores[u[0]] for u in self.units]


def quantiles(values: Sequence[float]) -> dict[str, float] | None:
    """The score distribution in five numbers: minimum, quartiles (interpolated between the
    sorted values, ``statistics.quantiles(method="inclusive")``, the median the middle one) and
    maximum; None without values."""
    if not values:
        return None
    if len(values) == 1:
        q25 = median = q75 = values[0]
    else:
        q25, median, q75 = statistics.quantiles(values, n=4, method="inclusive")
    return {"min": min(values), "q25": round(q25, 3), "median": round(median, 3), "q75": round(q75, 3),
            "max": max(values)}


def _mean(values: Sequence[float]) -> float:
    """The mean (``statistics.fmean``), 0 without values."""
    return statistics.fmean(values) if values else 0.0


def summarise(t: Tournament) -> Summary:
    config = t.config
    spec = get_game(config.game)
    outcomes = t.outcomes
    units = config.schedule().units
    n_agents = len(config.agents)
    ratings = rate(outcomes, n_agents)
    rows = []
    for a, name in enumerate(config.agents):
        played = [o for o in outcomes if a in o.seats]
        shares = [o.share(a) for o in played]
        fair = _mean([sum(1 for u in o.units if o.seats[u[0]] == a) / len(o.units) for o in played])
        scores = [o.scores[s] for o in played for s in range(config.players) if o.seats[s] == a]
        rows.append(AgentSummary(name, len(played), share_interval(shares), fair, _mean(scores), ratings[a], scores))
    unit_shares = [[o.returns[u[0]] for o in outcomes] for u in units]
    seat_shares = [share_interval(s) for s in unit_shares]
    firsts = [first_player_share(o) for o in outcomes]
    first = share_interval(firsts)
    seat_test = first_test = None
    if outcomes:
        seat_test, first_test = seat_tests(unit_shares, firsts, len(units))
    options = {k: v for k, v in display_options(spec.options(**config.options)).items() if k != "players"}
    return Summary(config.game, spec.title, config.players, list(config.agents), options, config.seed,
                   config.lineup, len(outcomes), rows, seat_shares, seat_test, first, first_test,
                   [[o.scores[s] for o in outcomes] for s in range(config.players)],
                   [o.steps for o in outcomes], [o.rounds for o in outcomes], [list(u) for u in units],
                   t.seconds, t.decision)


def first_player_share(o: GameOutcome) -> float:
    """The share of the win of the game's first player (the seat of its first action)."""
    if not o.record or not o.record.get("actions"):
        return o.returns[0]
    return o.returns[o.record["actions"][0]["seat"]]


def seat_tests(unit_shares: list[list[float]], firsts: list[float], units: int) -> tuple[Test | None, Test | None]:
    """Chi-square test of equal wins per position, exact binomial test of the first player's
    wins against 1/units."""
    wins = [sum(s) for s in unit_shares]
    total = sum(wins)
    seat = None
    if total > 0 and units > 1:
        statistic, p_value = chi_square_test(wins, [total / units] * units)
        seat = Test(f"chi-square goodness of fit, {units - 1} degree{'s' if units > 2 else ''} of freedom",
                    statistic, p_value)
    n = len(firsts)
    k = min(n, int(round(sum(firsts))))
    first = None
    if n and units > 1:
        first = Test("exact two-sided binomial test against 1/units", float(k), binomial_test(k, n, 1 / units))
    return seat, first


@dataclass
class Difference:
    """A variant's paired difference from the baseline, game by game (same deals and seats)."""

    what: str
    baseline: float
    variant: float
    difference: Estimate

    def to_json(self) -> dict[str, Any]:
        return {"what": self.what, "baseline": round(self.baseline, 4), "variant": round(self.variant, 4),
                "difference": self.difference.to_json()}


def paired_differences(base: Tournament, variant: Tournament) -> list[Difference]:
    """Each agent's share and mean score, the first player's share and the game length,
    compared game by game: game ``i`` of both tournaments has the same deal seed and seats
    (common random numbers), so the difference's interval is a paired one."""
    a = {o.index: o for o in base.outcomes}
    b = {o.index: o for o in variant.outcomes}
    common = sorted(set(a) & set(b))
    out = []

    def compare(what: str, measure, agent: int | None = None) -> None:
        games = [i for i in common if agent is None or agent in a[i].seats]  # the same seats in both
        x = [measure(a[i]) for i in games]
        y = [measure(b[i]) for i in games]
        out.append(Difference(what, _mean(x), _mean(y), mean_interval([q - p for p, q in zip(x, y)])))

    for k, name in enumerate(base.config.agents):
        compare(f"{name} share of wins", lambda o, k=k: o.share(k), k)
    for k, name in enumerate(base.config.agents):
        compare(f"{name} mean score",
                lambda o, k=k: _mean([o.scores[s] for s in range(len(o.seats)) if o.seats[s] == k]), k)
    compare("first player's share", first_player_share)
    compare("steps per game", lambda o: float(o.steps))
    compare("rounds per game", lambda o: float(o.rounds))
    return out
