"""The registry of games: ``make("alarun", players=3, seed=7, **options)``."""

from __future__ import annotations

import importlib
import pkgutil
import random
import secrets
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from .action import Action, ActionCodec
from .errors import UnknownGameError
from .options import GameOptions, build_options, describe_options, OptionInfo
from .state import State

# Games are the packages under ``nemeton.games``: importing one registers it. The engine
# names no game.
_GAMES_PACKAGE = "nemeton.games"


@dataclass(frozen=True)
class GameSpec:
    """Everything the rest of Nemeton needs to know about one game."""

    name: str
    title: str
    summary: str
    player_counts: tuple[int, ...]
    options_cls: type[GameOptions]
    new_state: Callable[[GameOptions, int], State]
    state_from_json: Callable[[Mapping[str, Any]], State]
    action_codec: ActionCodec
    legal_actions_from_view: Callable[[Mapping[str, Any]], list[Action]]
    determinize: Callable[[Mapping[str, Any], random.Random], State]
    render: Callable[[Mapping[str, Any]], str]
    # Options that bots, simulations and RL use unless told otherwise (e.g. safety caps).
    bot_defaults: Mapping[str, Any] = field(default_factory=dict)
    # Extra option sets the conformance suite must cover besides each player count.
    conformance_variants: tuple[Mapping[str, Any], ...] = ()
    # Optional fast path for search: read a view once, then sample many states from it.
    # ``prepare_sampler(view)(rng)`` must be distributed like ``determinize(view, rng)``.
    prepare_sampler: Callable[[Mapping[str, Any]], Callable[[random.Random], State]] | None = None
    # The kinds of event the game's log records: kind -> what it means (docs/rules/<game>.md
    # lists the same; the conformance suite checks every recorded kind is declared).
    event_kinds: Mapping[str, str] = field(default_factory=dict)
    # Bumped whenever a rules change makes old records replay differently.
    rules_version: int = 1

    def options(self, players: int | None = None, **raw: Any) -> GameOptions:
        if players is not None:
            raw["players"] = players
        return build_options(self.options_cls, raw, self.player_counts)

    def describe_options(self) -> list[OptionInfo]:
        return describe_options(self.options_cls)

    def make(self, players: int | None = None, seed: int | None = None, **raw: Any) -> State:
        opts = self.options(players, **raw)
        if seed is None:
            seed = secrets.randbelow(2**31)
        return self.new_state(opts, int(seed))

    def sampler(self, view: Mapping[str, Any]) -> Callable[[random.Random], State]:
        """A function rng -> determinized state for one fixed view (search calls it per iteration)."""
        if self.prepare_sampler is not None:
            return self.prepare_sampler(view)
        determinize = self.determinize
        return lambda rng: determinize(view, rng)

    def action_from_json(self, data: Any) -> Action:
        return self.action_codec.from_json(data)

    def conformance_configs(self) -> list[dict[str, Any]]:
        configs: list[dict[str, Any]] = [{"players": n} for n in self.player_counts]
        configs += [dict(v) for v in self.conformance_variants]
        return configs


_REGISTRY: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    _REGISTRY[spec.name] = spec
    return spec


_discovered = False


def _load_builtins() -> None:
    """Import every game package under ``nemeton.games`` once (each registers itself)."""
    global _discovered
    if _discovered:
        return
    package = importlib.import_module(_GAMES_PACKAGE)
    for info in pkgutil.iter_modules(package.__path__):
        if info.ispkg:
            importlib.import_module(f"{_GAMES_PACKAGE}.{info.name}")
    _discovered = True


def get_game(name: str) -> GameSpec:
    _load_builtins()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise UnknownGameError(
            f"unknown game {name!r}; known games: {', '.join(sorted(_REGISTRY))}") from None


def list_games() -> list[GameSpec]:
    _load_builtins()
    return [_REGISTRY[n] for n in sorted(_REGISTRY)]


def make(name: str, players: int | None = None, seed: int | None = None, **options: Any) -> State:
    """Create a game: ``make("alarun", players=3, seed=7, action_cap=40)``."""
    return get_game(name).make(players, seed, **options)
