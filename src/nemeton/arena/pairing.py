"""Head-to-head pairings with seats rotated, on one or several local processes.

``head_to_head(game, players, a, b, games)`` plays ``games`` games in which one seat is
agent ``a`` and every other seat agent ``b`` (in team games, the focal seat's whole team is
agent ``a``); the focal seat rotates over all seats so seat advantage cancels out. The focal agent's result per game is its return (1 for a sole win,
1/k for a k-way shared win, a team's share in team games), so its mean is directly
comparable with 1/N.
"""

from __future__ import annotations

import os
import random
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from ..agents.base import make_agent
from ..engine import get_game
from .match import play_match
from .stats import Estimate, share_interval


@dataclass
class PairingResult:
    game: str
    players: int
    focal: str
    others: str
    returns: list[float]
    focal_seats: list[int]
    steps: int
    teams: int = 0

    @property
    def fair_share(self) -> float:
        """The focal side's expected share among equals: 1 / number of teams (seats)."""
        return 1 / (self.teams or self.players)

    @property
    def share(self) -> Estimate:
        return share_interval(self.returns)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "players": self.players, "focal": self.focal, "others": self.others,
                "games": len(self.returns), "share": self.share.to_json(), "fair_share": self.fair_share}


def _play_one(args: tuple) -> tuple[int, float, int]:
    game, opts, specs, focal_seat, game_seed, agent_seeds = args
    spec = get_game(game)
    agents = [make_agent(specs[s], spec, s, agent_seeds[s]) for s in range(len(specs))]
    result = play_match(spec, opts, agents, game_seed)
    return focal_seat, result.returns[focal_seat], result.steps


def head_to_head(game: str, players: int, focal: str, others: str, games: int, seed: int = 0,
                 options: Mapping[str, Any] | None = None, workers: int = 1,
                 progress: Callable[[int], None] | None = None) -> PairingResult:
    spec = get_game(game)
    opts = {**spec.bot_defaults, **(options or {}), "players": players}
    spec.options(**opts)
    master = random.Random(seed)
    probe = spec.make(seed=0, **opts)
    jobs = []
    for g in range(games):
        focal_seat = g % players
        team = probe.team_of(focal_seat)
        specs = [focal if probe.team_of(s) == team else others for s in range(players)]
        jobs.append((game, opts, specs, focal_seat, master.randrange(2**31),
                     [master.randrange(2**31) for _ in range(players)]))
    out: list[tuple[int, float, int]] = []
    if workers <= 1:
        for job in jobs:
            out.append(_play_one(job))
            if progress:
                progress(len(out))
    else:
        with ProcessPoolExecutor(max_workers=min(workers, os.cpu_count() or 1)) as pool:
            for item in pool.map(_play_one, jobs, chunksize=max(1, games // (8 * workers))):
                out.append(item)
                if progress:
                    progress(len(out))
    teams = len({probe.team_of(s) for s in range(players)})
    return PairingResult(game, players, focal, others, [r for _, r, _ in out], [s for s, _, _ in out],
                         sum(st for _, _, st in out), teams)
