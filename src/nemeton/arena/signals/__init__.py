"""Each game's own signals for balance reports, read from the public event log.

A game's module here (``signals/<game>.py``, found by the game's name like the agents'
heuristics) registers an extractor: given the spectator's event log of one finished game
(``state.log(None)`` of the replayed record: every public event with its kind and fields,
as ``docs/rules/<game>.md`` lists them) and the name of the agent in each seat, it returns
that game's measurements as ``{group: {label: value}}``. The report averages every value
over the games (a missing label counts 0) and draws one chart per group. Nothing here
changes a game, and nothing reads more than a spectator may.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

Log = Sequence[Mapping[str, Any]]
Measurements = dict[str, dict[str, float]]
Extractor = Callable[[Log, Sequence[str]], Measurements]


@dataclass(frozen=True)
class GameSignals:
    extract: Extractor
    groups: Mapping[str, str]  # group -> what it measures (shown under its chart)


_SIGNALS: dict[str, GameSignals] = {}


def register_signals(game: str, extract: Extractor, groups: Mapping[str, str]) -> None:
    _SIGNALS[game] = GameSignals(extract, dict(groups))


def signals_for(game: str) -> GameSignals | None:
    """The game's registered signals, or None when it has none."""
    if game not in _SIGNALS and game.isidentifier():
        try:
            importlib.import_module(f"{__name__}.{game}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{game}":
                raise
    return _SIGNALS.get(game)


def add(table: Measurements, group: str, label: str, value: float = 1.0) -> None:
    row = table.setdefault(group, {})
    row[label] = row.get(label, 0.0) + value
