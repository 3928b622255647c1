"""What the arena measures of one game: signals for balance reports, read from the public log.

A game's ``signals.py`` defines ``SIGNALS``, a :class:`GameSignals`: given the spectator's
event log of one finished game (``state.log(None)`` of the replayed record: every public
event with its kind and fields, as ``docs/rules/<game>.md`` lists them) and the name of the
agent in each seat, its ``extract`` returns that game's measurements as ``{group: {label:
value}}``. The arena's report averages every value over the games (a missing label counts 0)
and draws one chart per group. Nothing here changes a game, and nothing reads more than a
spectator may.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

Log = Sequence[Mapping[str, Any]]
Measurements = dict[str, dict[str, float]]
Extractor = Callable[[Log, Sequence[str]], Measurements]


@dataclass(frozen=True)
class GameSignals:
    extract: Extractor
    groups: Mapping[str, str]  # group -> what it measures (shown under its chart)


def add(table: Measurements, group: str, label: str, value: float = 1.0) -> None:
    """Adds ``value`` to ``table[group][label]`` (0 when missing)."""
    row = table.setdefault(group, {})
    row[label] = row.get(label, 0.0) + value
