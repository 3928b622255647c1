"""Tournaments: many games between a pool of agents, duplicate deals, resumable, in parallel.

``run_tournament(config, games)`` plays games ``0 .. games-1`` of the tournament ``config``
(see :mod:`nemeton.arena.schedule` for who sits where and with which deal) on local
processes or on Ray, and returns every game's outcome in index order. With ``out``, each
finished game is written at once to ``out/games/<index>.json`` (its outcome and its full
record, so any game can be replayed), and games already there are not played again: an
interrupted tournament resumes where it stopped, and the result equals one uninterrupted run.

With ``until_decided=LINE`` the tournament stops as soon as the first agent's share of the
wins is decided against LINE: the anytime-valid 95% confidence sequence of
:class:`nemeton.arena.stats.ConfidenceSequence`, fed one duplicate block at a time in block
order, lies wholly above or below LINE. The decision depends only on the games' results in
index order, so it is the same whatever the backend, the workers or the interruptions.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from ..agents.base import AgentSpecError, make_agent, parse_agent_spec
from ..engine import GameRecord, NemetonError, get_game
from ..table import Table
from .backends import check_backend, run_jobs
from .schedule import Schedule
from .stats import ConfidenceSequence, Estimate

FORMAT = 1  # the layout of tournament.json and games/*.json


class TournamentError(NemetonError, ValueError):
    """A tournament that cannot run as asked (bad agents, an output directory that holds
    another tournament, ...)."""


@dataclass(frozen=True)
class TournamentConfig:
    """What fixes a tournament's games: the same config gives the same games."""

    game: str
    players: int
    agents: tuple[str, ...]
    options: Mapping[str, Any]  # the validated options' JSON form (players included)
    seed: int
    lineup: str = "rotate"

    @classmethod
    def build(cls, game: str, players: int, agents: Sequence[str], seed: int = 0,
              options: Mapping[str, Any] | None = None, lineup: str = "rotate") -> "TournamentConfig":
        """Check everything before any game is played: the game, its options (bot defaults
        under the given ones), every agent spec, the line-up."""
        spec = get_game(game)
        if not agents:
            raise TournamentError("give at least one agent")
        for text in agents:
            if text == "human":
                raise AgentSpecError("'human' is for `nemeton play`; a tournament needs agents")
            parse_agent_spec(text)
            make_agent(text, spec, 0, 0)
        built = spec.options(**{**spec.bot_defaults, **(options or {}), "players": players}).to_json()
        config = cls(game, players, tuple(agents), built, seed, lineup)
        config.schedule()  # checks the line-up against the pool
        return config

    def schedule(self) -> Schedule:
        return Schedule.for_game(get_game(self.game), self.options, self.seed, len(self.agents), self.lineup)

    def agent_settings(self) -> list[dict[str, Any]]:
        """Each agent's parameters with its defaults resolved for these options: stored with
        the games, so that a directory is never resumed by an agent whose defaults changed
        since (the same spec would then play another agent)."""
        spec = get_game(self.game)
        return [make_agent(text, spec, 0, 0).settings_for(self.options) for text in self.agents]

    def identity(self) -> dict[str, Any]:
        """What names the tournament (its JSON form without the agents' settings)."""
        return {"format": FORMAT, "game": self.game, "players": self.players, "agents": list(self.agents),
                "options": dict(self.options), "seed": self.seed, "lineup": self.lineup}

    def to_json(self) -> dict[str, Any]:
        return {**self.identity(), "settings": self.agent_settings()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "TournamentConfig":
        if data.get("format") != FORMAT:
            raise TournamentError(f"tournament format {data.get('format')!r}; this Nemeton reads {FORMAT}")
        return cls(data["game"], data["players"], tuple(data["agents"]), data["options"], data["seed"],
                   data.get("lineup", "rotate"))


@dataclass
class GameOutcome:
    """One finished game of a tournament."""

    index: int
    deal: int
    seats: list[int]  # the pool index of the agent in each seat
    units: list[list[int]]  # seats grouped by team
    game_seed: int
    scores: list[float]
    ranking: list[int]
    winners: list[int]
    returns: list[float]
    steps: int
    rounds: int
    decisions: list[int]
    seconds: list[float]
    record: dict[str, Any] | None = field(default=None, repr=False)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "GameOutcome":
        return cls(**{k: data[k] for k in cls.__dataclass_fields__ if k in data})

    def share(self, agent: int) -> float:
        """The agent's share of this game's win: the returns of the units it plays (a team's
        share counted once per team)."""
        return sum(self.returns[unit[0]] for unit in self.units if self.seats[unit[0]] == agent)

    def replay(self):
        """The finished game's state, rebuilt from its record (with its whole event log)."""
        if self.record is None:
            raise TournamentError(f"game {self.index} was stored without its record")
        return GameRecord.from_json(self.record).replay()


@dataclass(frozen=True)
class GameJob:
    game: str
    options: Mapping[str, Any]
    specs: tuple[str, ...]  # per seat
    seats: tuple[int, ...]
    units: tuple[tuple[int, ...], ...]
    index: int
    deal: int
    game_seed: int
    agent_seeds: tuple[int, ...]
    record: bool = True


def play_game(job: GameJob) -> GameOutcome:
    """Play one game of a tournament (in whatever process runs it)."""
    spec = get_game(job.game)
    state = spec.make(seed=job.game_seed, **job.options)
    agents = [make_agent(job.specs[s], spec, s, job.agent_seeds[s]) for s in range(len(job.specs))]
    result = Table(state, agents).run(job.record)
    return GameOutcome(job.index, job.deal, list(job.seats), [list(u) for u in job.units], job.game_seed,
                       [float(x) for x in result.scores], list(result.ranking), list(result.winners),
                       [float(x) for x in result.returns], result.steps, state.round, list(result.decisions),
                       list(result.seconds), result.record.to_json() if result.record else None)


@dataclass
class Decision:
    """Where sequential stopping stands: the first agent's share against ``line``."""

    line: float
    interval: Estimate
    verdict: str | None  # "above", "below" or None (undecided at the end)
    blocks: int
    games: int

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "verdict": self.verdict, "interval": self.interval.to_json(),
                "blocks": self.blocks, "games": self.games,
                "method": "hedged betting confidence sequence (Waudby-Smith & Ramdas), "
                          "one observation per duplicate block"}


@dataclass
class Tournament:
    config: TournamentConfig
    outcomes: list[GameOutcome]
    seconds: float = 0.0
    played: int = 0  # games played by this run (the rest were loaded from the output directory)
    decision: Decision | None = None


# ----- the output directory -----------------------------------------------------------------

def game_path(out: Path, index: int) -> Path:
    return out / "games" / f"{index:06d}.json"


def open_directory(out: Path, config: TournamentConfig, to_play: bool = True) -> dict[int, GameOutcome]:
    """Prepare ``out`` for ``config``: a new directory gets the config; an existing one must
    hold the same tournament, and (``to_play``: more games will be played there) have been
    played by agents with the same settings. Returns the games already played there."""
    meta = out / "tournament.json"
    if meta.exists():
        try:
            stored = json.loads(meta.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise TournamentError(f"{meta} is not a tournament file: {exc}") from None
        wanted = config.identity()
        if not isinstance(stored, dict) or {k: v for k, v in stored.items() if k != "settings"} != wanted:
            stored = stored if isinstance(stored, dict) else {}
            diff = [k for k in wanted if stored.get(k) != wanted[k]]
            raise TournamentError(f"{out} holds another tournament (different {', '.join(diff)}); "
                                  "use another --out directory, or the same settings to resume it")
        # a directory from before settings were stored is resumed on its specs alone
        settings = config.agent_settings() if to_play and "settings" in stored else None
        if settings is not None and stored["settings"] != settings:
            was_all = stored["settings"]
            if isinstance(was_all, list) and len(was_all) == len(settings) and all(isinstance(w, dict) for w in was_all):
                changed = sorted({f"{config.agents[i]}: {k}" for i, (was, now) in enumerate(zip(was_all, settings))
                                  for k in {*was, *now} if was.get(k) != now.get(k)})
            else:
                changed = ["the stored settings are unreadable"]
            raise TournamentError(
                f"{out} was played by agents whose defaults have changed since ({'; '.join(changed)[:400]}): "
                "spell the stored settings in the agent specs to resume it, or use another --out directory")
    else:
        (out / "games").mkdir(parents=True, exist_ok=True)
        write_atomically(meta, json.dumps(config.to_json(), indent=1))
    (out / "games").mkdir(parents=True, exist_ok=True)
    done: dict[int, GameOutcome] = {}
    for path in (out / "games").glob("*.json"):
        try:
            outcome = GameOutcome.from_json(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError, KeyError):
            continue  # a file cut short by an interruption: the game is played again
        done[outcome.index] = outcome
    return done


def write_atomically(path: Path, text: str) -> None:
    tmp = path.with_suffix(path.suffix + f".{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def load_tournament(out: str | os.PathLike) -> Tournament:
    """A tournament read back from its output directory (every stored game, in order)."""
    out = Path(out)
    meta = out / "tournament.json"
    if not meta.exists():
        raise TournamentError(f"{out} holds no tournament (no tournament.json)")
    config = TournamentConfig.from_json(json.loads(meta.read_text(encoding="utf-8")))
    done = open_directory(out, config, to_play=False)   # read back whatever played them
    return Tournament(config, [done[i] for i in sorted(done)])


# ----- running ------------------------------------------------------------------------------

def run_tournament(config: TournamentConfig, games: int, *, workers: int | None = None, backend: str = "local",
                   address: str | None = None, out: str | os.PathLike | None = None,
                   until_decided: float | None = None, records: bool = True,
                   progress: Callable[[int, int], None] | None = None) -> Tournament:
    """Play (or resume) games ``0 .. games-1``; ``progress(done, total)`` after each game."""
    if games < 1:
        raise TournamentError("a tournament needs at least one game")
    if until_decided is not None and not 0 < until_decided < 1:
        raise TournamentError(f"--until-decided takes a share strictly between 0 and 1, got {until_decided}")
    check_backend(backend, address)
    schedule = config.schedule()
    out_dir = Path(out) if out is not None else None
    done: dict[int, GameOutcome] = open_directory(out_dir, config) if out_dir else {}
    done = {i: g for i, g in done.items() if i < games}
    watcher = _Watcher(schedule, games, until_decided) if until_decided is not None else None
    if watcher:
        watcher.advance(done)
    started = time.perf_counter()
    played = 0

    def jobs():
        for i in range(games):
            if i in done:
                continue
            if watcher and watcher.verdict is not None:
                return
            g = schedule.game(i)
            yield GameJob(config.game, config.options, tuple(config.agents[a] for a in g.seats), g.seats,
                          schedule.units, i, g.deal, g.game_seed, g.agent_seeds, records)

    if progress:
        progress(len(done), games)
    if not (watcher and watcher.verdict is not None):
        results = run_jobs(play_game, jobs(), workers, backend, address)
        try:
            for outcome in results:
                done[outcome.index] = outcome
                played += 1
                if out_dir:
                    write_atomically(game_path(out_dir, outcome.index), json.dumps(outcome.to_json()))
                if progress:
                    progress(len(done), games)
                if watcher and watcher.advance(done):
                    break
        finally:
            results.close()
    limit = watcher.games_used if watcher and watcher.verdict is not None else games
    outcomes = [done[i] for i in sorted(done) if i < limit]
    return Tournament(config, outcomes, time.perf_counter() - started, played,
                      watcher.decision() if watcher else None)


def sequential_decision(config: TournamentConfig, outcomes: Sequence[GameOutcome], line: float,
                        games: int) -> tuple[Decision, list[GameOutcome]]:
    """The stopping rule applied to stored games: the decision after the games of a
    tournament capped at ``games``, and the games it counts (those up to the deciding
    block, or all of them when undecided)."""
    watcher = _Watcher(config.schedule(), games, line)
    done = {o.index: o for o in outcomes if o.index < games}
    watcher.advance(done)
    limit = watcher.games_used if watcher.verdict is not None else games
    return watcher.decision(), [done[i] for i in sorted(done) if i < limit]


class _Watcher:
    """Feeds complete duplicate blocks, in block order, to a confidence sequence."""

    def __init__(self, schedule: Schedule, games: int, line: float):
        self.blocks = schedule.blocks_upto(games)
        self.line = line
        self.cs = ConfidenceSequence()
        self.next_block = 0
        self.verdict: str | None = None
        self.games_used = 0

    def advance(self, done: Mapping[int, GameOutcome]) -> bool:
        """Take every newly complete block; True once decided."""
        while self.verdict is None and self.next_block < len(self.blocks):
            block = self.blocks[self.next_block]
            if any(i not in done for i in block):
                break
            self.cs.update(min(1.0, max(0.0, sum(done[i].share(0) for i in block) / len(block))))
            self.next_block += 1
            self.games_used = block.stop
            self.verdict = self.cs.decided(self.line)
        return self.verdict is not None

    def decision(self) -> Decision:
        return Decision(self.line, self.cs.interval(), self.verdict, self.next_block, self.games_used)
