"""Play games between agents: one match, or a batch with summary statistics.

Agents see only ``state.view(seat)`` and the legal actions; an agent that declares
``needs_view = False`` (random) is spared building the view. Seeds are derived from one
master seed, so the same seed always gives the same games.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from ..agents.base import Agent, make_agent, parse_agent_spec
from ..engine import GameRecord, GameSpec, State, get_game


@dataclass
class MatchResult:
    scores: list[float]
    ranking: list[int]
    winners: list[int]
    returns: list[float]
    steps: int
    record: GameRecord


@dataclass
class SimulationSummary:
    game: str
    players: int
    games: int
    seed: int
    agents: list[str]
    options: dict[str, Any]
    wins: list[int]
    mean_scores: list[float]
    mean_returns: list[float]
    mean_steps: float
    seconds: float
    games_per_second: float
    steps_per_second: float
    results: list[MatchResult] = field(default_factory=list, repr=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game, "players": self.players, "games": self.games, "seed": self.seed,
            "agents": self.agents, "options": self.options, "wins": self.wins,
            "mean_scores": self.mean_scores, "mean_returns": self.mean_returns,
            "mean_steps": round(self.mean_steps, 2), "seconds": round(self.seconds, 4),
            "games_per_second": round(self.games_per_second, 3),
            "steps_per_second": round(self.steps_per_second, 1),
        }


def play_match(spec: GameSpec, options: Mapping[str, Any], agents: Sequence[Agent], seed: int) -> MatchResult:
    """Play one game to the end; every action is checked against the legal ones."""
    state = spec.make(seed=seed, **options)
    steps = 0
    while not state.is_terminal():
        seat = state.current_player
        agent = agents[seat]
        legal = state.legal_actions(seat)
        view = state.view(seat) if getattr(agent, "needs_view", True) else None
        action = agent.act(view, legal)
        state.apply(action, seat)
        steps += 1
    return MatchResult(state.scores(), state.ranking(), state.winners(), state.returns(), steps, state.record())


def simulate(game: str, players: int, games: int, seed: int, agent_specs: Sequence[str] = ("random",),
             options: Mapping[str, Any] | None = None,
             progress: Callable[[int], None] | None = None) -> SimulationSummary:
    """Play ``games`` games; agent specs are per seat (one spec is used for every seat)."""
    spec = get_game(game)
    specs = list(agent_specs) or ["random"]
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise ValueError(f"give one agent spec per seat ({players}), or one for all; got {len(specs)}")
    for s in specs:
        parse_agent_spec(s)  # fail early with a clear message
    opts = spec.options(**{**spec.bot_defaults, **(options or {}), "players": players}).to_json()
    master = random.Random(seed)
    wins = [0] * players
    score_sums = [0.0] * players
    return_sums = [0.0] * players
    total_steps = 0
    results = []
    started = time.perf_counter()
    for g in range(games):
        game_seed = master.randrange(2**31)
        agents = [make_agent(specs[s], spec, s, master.randrange(2**31)) for s in range(players)]
        result = play_match(spec, opts, agents, game_seed)
        results.append(result)
        total_steps += result.steps
        for s in range(players):
            score_sums[s] += result.scores[s]
            return_sums[s] += result.returns[s]
        for w in result.winners:
            wins[w] += 1
        if progress:
            progress(g + 1)
    seconds = max(time.perf_counter() - started, 1e-9)
    return SimulationSummary(
        game=game, players=players, games=games, seed=seed, agents=specs,
        options={k: v for k, v in opts.items() if k != "players"}, wins=wins,
        mean_scores=[round(x / max(games, 1), 4) for x in score_sums],
        mean_returns=[round(x / max(games, 1), 4) for x in return_sums],
        mean_steps=total_steps / max(games, 1), seconds=seconds,
        games_per_second=games / seconds, steps_per_second=total_steps / seconds, results=results)
