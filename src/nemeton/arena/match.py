"""Play games between agents: one match, or a batch with summary statistics.

Games are played by the table loop (:mod:`nemeton.table`): agents see only their seat's
view and the legal actions, and an agent that declares ``needs_view = False`` (random) is
spared building the view. A simulation's game and agent seeds are derived one way from its
master seed, so the same seed always gives the same games and no agent's random stream
reveals a game's seed.
"""

from __future__ import annotations

import hashlib
import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from ..agents.base import AgentSpecError, Agent, parse_agent_spec
from ..engine import GameSpec, display_options, get_game
from ..table import Table, TableResult

# A finished match: scores, ranking, winners, returns, steps, record, think time per seat.
MatchResult = TableResult


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
    """Play one game between agents to the end (through the table loop: every action checked)."""
    return Table(spec.make(seed=seed, **options), agents).run()


def game_seeds(master: int, index: int, players: int) -> tuple[int, list[int]]:
    """Game ``index`` of a simulation with master seed ``master``: its game seed (31 bits) and
    one seed per agent (63 bits), drawn one way from SHAKE-256 of ``"master:index"``. No
    agent's seed, nor its random stream, says anything about the game's seed (and so its
    hidden cards), and every game is the same however the simulation is split up."""
    digest = hashlib.shake_256(f"{master}:{index}".encode()).digest(8 * (players + 1))
    words = [int.from_bytes(digest[i:i + 8], "big") for i in range(0, len(digest), 8)]
    return words[0] >> 33, [w >> 1 for w in words[1:]]


ENGINES = ("reference", "fast")


def simulate(game: str, players: int, games: int, seed: int, agent_specs: Sequence[str] = ("random",),
             options: Mapping[str, Any] | None = None,
             progress: Callable[[int], None] | None = None, records: bool = False,
             engine: str = "reference") -> SimulationSummary:
    """Play ``games`` games; agent specs are per seat (one spec is used for every seat).
    Each game's result is kept in ``results``, with its record if ``records`` is True (a
    long simulation keeping every record slows down as they pile up).

    ``engine="fast"`` plays them on the game's compiled kernel (``games/<g>/kernel.py``):
    the same games and, for random agents, the same choices as the reference, so the same
    results (without records or rankings: the kernel keeps no events)."""
    spec = get_game(game)
    specs = list(agent_specs) or ["random"]
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise AgentSpecError(f"give one agent spec per seat ({players}), or one for all; got {len(specs)}")
    if engine not in ENGINES:
        raise AgentSpecError(f"unknown engine {engine!r}; choose one of {', '.join(ENGINES)}")
    built = spec.options(**{**spec.bot_defaults, **(options or {}), "players": players})
    if engine == "fast":
        if records:
            raise AgentSpecError("the fast engine keeps no records; use --engine reference")
        return _simulate_fast(spec, built, players, games, seed, specs, progress)
    agent_types = [parse_agent_spec(s) for s in specs]  # fails early with a clear message
    results = []
    started = time.perf_counter()
    for g in range(games):
        game_seed, agent_seeds = game_seeds(seed, g, players)
        agents = [cls(spec, s, random.Random(agent_seeds[s]), **params) for s, (cls, params) in enumerate(agent_types)]
        results.append(Table(spec.new_state(built, game_seed), agents, clock=None).run(records))
        if progress:
            progress(g + 1)
    return _summary(spec, built, players, games, seed, specs, results, started)


FAST_BATCH = 4096  # games dealt and played together by one kernel call


def _simulate_fast(spec: GameSpec, built: Any, players: int, games: int, seed: int, specs: list[str],
                   progress: Callable[[int], None] | None) -> SimulationSummary:
    """``simulate`` on the compiled kernel: batches of up to FAST_BATCH games, each seat's
    agent a playout policy of the kernel drawing from its agent seed's stream."""
    try:
        import numba  # noqa: F401
    except ImportError:
        raise AgentSpecError("the fast engine needs Numba: pip install 'nemeton[fast]'") from None
    from ..engine.kernel import KernelUnsupported, kernel_policies
    from ..engine import mt
    import numpy as np

    if spec.kernel is None:
        raise KernelUnsupported(f"{spec.name} has no compiled kernel; use --engine reference")
    policies = np.array(kernel_policies(specs), dtype=np.int64)
    kernel_cls = spec.kernel()
    results: list[MatchResult] = []
    kernel = kernel_cls(built, min(FAST_BATCH, games))  # compiles (or loads) before the clock starts
    started = time.perf_counter()
    for first in range(0, games, FAST_BATCH):
        count = min(FAST_BATCH, games - first)
        if kernel.batch != count:
            kernel = kernel_cls(built, count)
        seeds = np.zeros(count, dtype=np.int64)
        streams = np.zeros((count, players, mt.STREAM_WORDS), dtype=np.uint32)
        for i in range(count):
            game_seed, agent_seeds = game_seeds(seed, first + i, players)
            seeds[i] = game_seed
            for s in range(players):
                mt.seed(streams[i, s], agent_seeds[s])
        kernel.deal(seeds)
        counts = kernel.playout(policies, streams)
        scores, winners, returns = kernel.outcome()  # one pass, not three
        for i in range(count):
            results.append(MatchResult(
                scores=[float(x) for x in scores[i]], ranking=[],
                winners=[s for s in range(players) if winners[i, s]],
                returns=[float(x) for x in returns[i]], steps=int(counts[i, 0]), record=None))
        if progress:
            progress(first + count)
    return _summary(spec, built, players, games, seed, specs, results, started)


def _summary(spec: GameSpec, built: Any, players: int, games: int, seed: int, specs: list[str],
             results: list[MatchResult], started: float) -> SimulationSummary:
    seconds = max(time.perf_counter() - started, 1e-9)
    wins = [0] * players
    score_sums = [0.0] * players
    return_sums = [0.0] * players
    total_steps = 0
    for result in results:
        total_steps += result.steps
        for s in range(players):
            score_sums[s] += result.scores[s]
            return_sums[s] += result.returns[s]
        for w in result.winners:
            wins[w] += 1
    return SimulationSummary(
        game=spec.name, players=players, games=games, seed=seed, agents=specs,
        options={k: v for k, v in display_options(built).items() if k != "players"}, wins=wins,
        mean_scores=[round(x / max(games, 1), 4) for x in score_sums],
        mean_returns=[round(x / max(games, 1), 4) for x in return_sums],
        mean_steps=total_steps / max(games, 1), seconds=seconds,
        games_per_second=games / seconds, steps_per_second=total_steps / seconds, results=results)
