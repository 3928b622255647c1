"""Who sits where in each game of a tournament, and with which deal.

A tournament is a sequence of *duplicate blocks*. Block ``d`` replays one deal (the game seed
of deal ``d``) once per line-up of the block, the line-ups being the rotations of one base
line-up over the game's *units* (its teams; each seat is its own unit without teams). Every
agent therefore meets the same cards from every position, which cancels most of the luck of
the deal out of comparisons between agents ("common random numbers"), and seat advantage
cancels out of every agent's results.

Line-ups (``lineup``):

``rotate`` (default)
    With no more agents than units, unit ``u`` of block ``d``'s base line-up gets agent
    ``(d + u) mod M`` (so ``a,b`` at four seats plays ``a b a b``, then ``b a b a``); with more
    agents than units, block ``d`` takes the ``d``-th combination of ``U`` agents out of the
    ``M`` (cyclically), so every group of agents meets. Repeated rotations are played once.
``focal``
    Exactly two agents: the first (focal) agent plays one unit, the second every other one;
    the block rotates the focal unit through every position. This is the head-to-head
    pairing of the strength table.

Game ``i`` of a tournament is fully determined by the master seed and ``i`` (its block, its
line-up, the deal's game seed and its agents' seeds), whatever the backend, the number of
workers or the order in which games finish, so a tournament can be split, resumed or
distributed and still add up to the same games.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Mapping, Sequence

from ..engine import GameSpec, NemetonError
from .match import game_seeds

LINEUPS = ("rotate", "focal")


class ScheduleError(NemetonError, ValueError):
    """A tournament that cannot be scheduled (e.g. a focal line-up without two agents)."""


@dataclass(frozen=True)
class ScheduledGame:
    """One game of a tournament: where it sits in its block and who plays which seat."""

    index: int
    deal: int  # the duplicate block: games of one block replay the same deal
    game_seed: int
    agent_seeds: tuple[int, ...]
    seats: tuple[int, ...]  # the pool index of the agent in each seat


def units_of(team_of: Sequence[int]) -> list[list[int]]:
    """Seats grouped by team, teams in order of their first seat: ``[0, 1, 0, 1]`` ->
    ``[[0, 2], [1, 3]]``."""
    order: dict[int, list[int]] = {}
    for seat, team in enumerate(team_of):
        order.setdefault(team, []).append(seat)
    return list(order.values())


def rotations(base: Sequence[int]) -> list[tuple[int, ...]]:
    """The distinct cyclic rotations of ``base``, first the base itself."""
    seen: list[tuple[int, ...]] = []
    for k in range(len(base)):
        line = tuple(base[k:]) + tuple(base[:k])
        if line not in seen:
            seen.append(line)
    return seen


@dataclass(frozen=True)
class Schedule:
    """The games of a tournament between ``pool`` agents at a table whose seats form ``units``."""

    seed: int
    players: int
    pool: int
    units: tuple[tuple[int, ...], ...]
    lineup: str = "rotate"

    def __post_init__(self) -> None:
        if self.lineup not in LINEUPS:
            raise ScheduleError(f"unknown line-up {self.lineup!r}; choose one of {', '.join(LINEUPS)}")
        if self.pool < 1:
            raise ScheduleError("a tournament needs at least one agent")
        if self.lineup == "focal" and self.pool != 2:
            raise ScheduleError(f"the focal line-up takes exactly two agents (focal, others); got {self.pool}")

    @classmethod
    def for_game(cls, spec: GameSpec, options: Mapping[str, Any], seed: int, pool: int,
                 lineup: str = "rotate") -> "Schedule":
        probe = spec.make(seed=0, **options)  # teams are fixed by the options
        players = probe.num_players
        units = units_of([probe.team_of(s) for s in range(players)])
        return cls(seed, players, pool, tuple(tuple(u) for u in units), lineup)

    @cached_property
    def _groups(self) -> list[tuple[int, ...]]:
        return list(itertools.combinations(range(self.pool), len(self.units)))

    def block(self, deal: int) -> list[tuple[int, ...]]:
        """The line-ups of block ``deal``: the pool index of the agent of each unit."""
        u = len(self.units)
        if self.lineup == "focal":
            base: tuple[int, ...] = (0,) + (1,) * (u - 1)
        elif self.pool <= u:
            base = tuple((deal + k) % self.pool for k in range(u))
        else:
            base = self._groups[deal % len(self._groups)]
        return rotations(base)

    def block_size(self, deal: int) -> int:
        return self._cycle[deal % len(self._cycle)]

    @cached_property
    def _cycle(self) -> list[int]:
        """Block sizes over one period of the schedule (line-ups repeat after it)."""
        if self.lineup == "focal":
            period = 1
        elif self.pool <= len(self.units):
            period = self.pool
        else:
            period = len(self._groups)
        return [len(self.block(d)) for d in range(period)]

    def locate(self, index: int) -> tuple[int, int]:
        """(block, position in the block) of game ``index``."""
        if index < 0:
            raise IndexError(index)
        cycles, index = divmod(index, sum(self._cycle))
        deal = cycles * len(self._cycle)
        for size in self._cycle:
            if index < size:
                return deal, index
            index -= size
            deal += 1
        raise AssertionError("unreachable")

    def blocks_upto(self, games: int) -> list[range]:
        """The game indices of each complete block among the first ``games`` games."""
        out: list[range] = []
        start = deal = 0
        while True:
            size = self.block_size(deal)
            if start + size > games:
                return out
            out.append(range(start, start + size))
            start += size
            deal += 1

    def game(self, index: int) -> ScheduledGame:
        deal, position = self.locate(index)
        lineup = self.block(deal)[position]
        seats = [0] * self.players
        for unit, agent in zip(self.units, lineup):
            for seat in unit:
                seats[seat] = agent
        game_seed = game_seeds(self.seed, deal, self.players)[0]
        # the agents' streams differ from game to game (and never tell the deal's seed)
        agent_seeds = game_seeds(self.seed, index, self.players)[1]
        return ScheduledGame(index, deal, game_seed, tuple(agent_seeds), tuple(seats))
