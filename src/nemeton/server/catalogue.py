"""What a client needs to offer a new game: the games, their options and the agents."""

from __future__ import annotations

import functools
from typing import Any

from ..engine import get_game, list_games
from ..engine.options import OptionInfo, content_hash
from .agents import DEFAULT_AGENTS, active

# The AI opponents a lobby offers, weakest first, unless the server's operator names others
# (nemeton.server.agents; a client names one of them, it never sends a spec).
AGENTS = tuple(a.entry() for a in DEFAULT_AGENTS)


def _option(o: OptionInfo) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": o.name, "kind": o.kind, "default": o.default, "allowed": o.allowed,
                             "help": o.help}
    if o.kind == "choice":
        entry["choices"] = o.allowed.split(", ")
    if o.kind == "data":
        entry["default"] = None
        entry["format"] = o.data
        entry["standard"] = o.standard_hash
    return entry


def game_catalogue() -> list[dict[str, Any]]:
    """Every game with its player counts, options (kind, default, allowed values, help) and
    the agents this server offers for it (its operator's configuration)."""
    policy = active()
    return [{**game, "agents": policy.entries_for(get_game(game["name"]))} for game in _games()]


@functools.lru_cache(maxsize=1)
def _games() -> tuple[dict[str, Any], ...]:
    return tuple({"name": s.name, "title": s.title, "summary": s.summary, "players": list(s.player_counts),
                  "options": [_option(o) for o in s.describe_options() if o.name != "players"]}
                 for s in list_games())


@functools.lru_cache(maxsize=None)
def _data_options(game: str) -> dict[str, str | None]:
    """A game's data options: name -> the standard one's hash (None: no standard)."""
    return {o.name: o.standard_hash for o in get_game(game).describe_options() if o.kind == "data"}


def display_stored_options(game: str, options: dict[str, Any]) -> dict[str, Any]:
    """A room's stored options (the checked options' JSON) as a lobby shows them, without
    parsing any rules data: a data option's text becomes its content hash, the standard one
    ``"standard (sha256:...)"``. Equals ``display_options(spec.options(**options))``."""
    out = dict(options)
    for name, standard in _data_options(game).items():
        if name in out:
            value = out[name]
            if value is None:
                out[name] = "standard" + (f" ({standard})" if standard else "")
            elif isinstance(value, str):
                out[name] = content_hash(value)
    return out
