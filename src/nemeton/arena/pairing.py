"""Head-to-head pairings with seats rotated, on one or several local processes.

``head_to_head(game, players, a, b, games)`` plays ``games`` games in which one seat is
agent ``a`` and every other seat agent ``b`` (in team games, the focal seat's whole team is
agent ``a``); the focal seat rotates over all seats so seat advantage cancels out. The focal
agent's result per game is its return (1 for a sole win, 1/k for a k-way shared win, a
team's share in team games), so its mean is directly comparable with 1/N.

Game ``i`` of a pairing is fully determined by the pairing and its master seed, so a long
pairing can be played in pieces (``skip`` the indices already played, ``on_game`` to store
each game as it finishes) and the pieces add up to exactly the games of one run.
"""

from __future__ import annotations

import os
import random
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass
from typing import Any, Callable, Collection, Mapping

from ..agents.base import make_agent
from ..engine import get_game
from .match import play_match
from .stats import Estimate, share_interval


@dataclass(frozen=True)
class PairingGame:
    """One finished game of a pairing, from the focal side's point of view."""

    index: int
    focal_seat: int
    game_seed: int
    focal_return: float
    margin: float  # focal side's score minus the best opposing score
    steps: int
    focal_decisions: int  # decisions with more than one legal action
    focal_seconds: float  # time the focal side spent on those decisions

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class PairingResult:
    game: str
    players: int
    focal: str
    others: str
    games: list[PairingGame]
    teams: int = 0

    @property
    def returns(self) -> list[float]:
        return [g.focal_return for g in self.games]

    @property
    def focal_seats(self) -> list[int]:
        return [g.focal_seat for g in self.games]

    @property
    def steps(self) -> int:
        return sum(g.steps for g in self.games)

    @property
    def fair_share(self) -> float:
        """The focal side's expected share among equals: 1 / number of teams (seats)."""
        return 1 / (self.teams or self.players)

    @property
    def share(self) -> Estimate:
        return share_interval(self.returns)

    @property
    def seconds_per_decision(self) -> float:
        decisions = sum(g.focal_decisions for g in self.games)
        return sum(g.focal_seconds for g in self.games) / decisions if decisions else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "players": self.players, "focal": self.focal, "others": self.others,
                "games": len(self.games), "share": self.share.to_json(), "fair_share": self.fair_share,
                "focal_seconds_per_decision": round(self.seconds_per_decision, 4)}


@dataclass(frozen=True)
class PairingJob:
    game: str
    options: Mapping[str, Any]
    specs: tuple[str, ...]
    focal_seat: int
    index: int
    game_seed: int
    agent_seeds: tuple[int, ...]


def play_job(job: PairingJob) -> PairingGame:
    """Play one game of a pairing (in this process)."""
    spec = get_game(job.game)
    teams = spec.make(seed=job.game_seed, **job.options)  # team_of is fixed by the options
    n = len(job.specs)
    focal_team = teams.team_of(job.focal_seat)
    ours_seats = [s for s in range(n) if teams.team_of(s) == focal_team]
    agents = [make_agent(job.specs[s], spec, s, job.agent_seeds[s]) for s in range(n)]
    result = play_match(spec, job.options, agents, job.game_seed)
    ours = max(result.scores[s] for s in ours_seats)
    theirs = max(result.scores[s] for s in range(n) if s not in ours_seats)
    return PairingGame(job.index, job.focal_seat, job.game_seed, result.returns[job.focal_seat],
                       float(ours - theirs), result.steps, sum(result.decisions[s] for s in ours_seats),
                       round(sum(result.seconds[s] for s in ours_seats), 4))


def pairing_jobs(game: str, players: int, focal: str, others: str, games: int, seed: int = 0,
                 options: Mapping[str, Any] | None = None) -> list[PairingJob]:
    """The games of a pairing, each fully seeded: game ``i`` is the same however the pairing
    is split up."""
    spec = get_game(game)
    opts = spec.options(**{**spec.bot_defaults, **(options or {}), "players": players}).to_json()
    make_agent(focal, spec, 0, 0)  # fail early on a bad spec
    make_agent(others, spec, 0, 0)
    master = random.Random(seed)
    probe = spec.make(seed=0, **opts)
    jobs = []
    for g in range(games):
        focal_seat = g % players
        team = probe.team_of(focal_seat)
        specs = tuple(focal if probe.team_of(s) == team else others for s in range(players))
        jobs.append(PairingJob(game, opts, specs, focal_seat, g, master.randrange(2**31),
                               tuple(master.randrange(2**31) for _ in range(players))))
    return jobs


def head_to_head(game: str, players: int, focal: str, others: str, games: int, seed: int = 0,
                 options: Mapping[str, Any] | None = None, workers: int = 1,
                 progress: Callable[[int], None] | None = None,
                 skip: Collection[int] = (),
                 on_game: Callable[[PairingGame], None] | None = None) -> PairingResult:
    """Play the pairing's games (except the indices in ``skip``) on ``workers`` processes;
    ``on_game`` sees each game as it finishes, ``progress`` the number finished so far."""
    jobs = [j for j in pairing_jobs(game, players, focal, others, games, seed, options) if j.index not in skip]
    out: list[PairingGame] = []

    def done(item: PairingGame) -> None:
        out.append(item)
        if on_game:
            on_game(item)
        if progress:
            progress(len(out))

    if workers <= 1 or len(jobs) <= 1:
        for job in jobs:
            done(play_job(job))
    else:
        pool = ProcessPoolExecutor(max_workers=min(workers, os.cpu_count() or 1))
        try:
            pending = {pool.submit(play_job, job) for job in jobs}
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for fut in finished:
                    done(fut.result())
        finally:  # interrupted or failed: drop the games not started yet
            pool.shutdown(wait=True, cancel_futures=True)
    out.sort(key=lambda g: g.index)
    spec = get_game(game)
    probe = spec.make(seed=0, **spec.options(**{**spec.bot_defaults, **(options or {}), "players": players}).to_json())
    teams = len({probe.team_of(s) for s in range(players)})
    return PairingResult(game, players, focal, others, out, teams)
