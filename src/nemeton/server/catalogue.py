"""What a client needs to offer a new game: the games, their options and the agents."""

from __future__ import annotations

import functools
from typing import Any

from ..engine import list_games
from ..engine.options import OptionInfo

# The AI opponents a lobby offers, weakest first (any agent spec is accepted by the API).
AGENTS = (
    {"spec": "random", "label": "Random", "help": "plays any legal move"},
    {"spec": "heuristic", "label": "Heuristic", "help": "plays by rules of thumb, at once"},
    {"spec": "ismcts:seconds=1", "label": "Search (1 s)", "help": "information-set MCTS, about a second a move"},
    {"spec": "ismcts:seconds=3", "label": "Search (3 s)", "help": "information-set MCTS, about three seconds a move"},
)


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


@functools.lru_cache(maxsize=1)
def game_catalogue() -> list[dict[str, Any]]:
    """Every game with its player counts, options (kind, default, allowed values, help) and
    the agents a lobby offers."""
    return [{"name": s.name, "title": s.title, "summary": s.summary, "players": list(s.player_counts),
             "options": [_option(o) for o in s.describe_options() if o.name != "players"],
             "agents": list(AGENTS)}
            for s in list_games()]
