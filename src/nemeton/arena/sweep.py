"""Rule-variant sweeps: the same tournament under each combination of option values.

Every variant plays the same games (the same master seed: the same deals, line-ups and
agents' seeds), so the variants' results can be compared game by game ("common random
numbers"); :func:`nemeton.arena.summary.paired_differences` gives the paired differences.
A deal may still unfold differently under another rule, since the rules draw from the same
seeded stream in another order.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from .report import Variant
from .tournament import TournamentConfig, run_tournament


@dataclass(frozen=True)
class Axis:
    """One swept option: its values and how each is shown (a file's name for a data option)."""

    key: str
    values: tuple[Any, ...]
    shown: tuple[str, ...]


def variants(axes: Sequence[Axis]) -> list[tuple[str, dict[str, Any]]]:
    """Every combination of the axes' values, the first value of each axis first: (label, options)."""
    if not axes:
        return [("standard", {})]
    out = []
    for combo in itertools.product(*[range(len(a.values)) for a in axes]):
        label = ", ".join(f"{a.key}={a.shown[k]}" for a, k in zip(axes, combo))
        out.append((label, {a.key: a.values[k] for a, k in zip(axes, combo)}))
    return out


def slug(label: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.=-]+", "_", label)[:80] or "standard"


def run_sweep(game: str, players: int, agents: Sequence[str], seed: int, options: Mapping[str, Any],
              axes: Sequence[Axis], games: int, out: str | Path | None = None,
              progress: Callable[[int, int], None] | None = None, lineup: str = "rotate",
              **run: Any) -> list[Variant]:
    """Build every variant's config first (any bad value fails before a game is played), then
    play each tournament (resuming from ``out/<k>-<label>/``)."""
    configs = [(label, TournamentConfig.build(game, players, agents, seed, {**options, **extra}, lineup))
               for label, extra in variants(axes)]
    results = []
    total = games * len(configs)
    for k, (label, config) in enumerate(configs):
        directory = None
        if out is not None:  # one tournament: the directory itself (shared with `nemeton tournament --out`)
            directory = Path(out) / f"{k}-{slug(label)}" if len(configs) > 1 else Path(out)
        tick = (lambda done, _, k=k: progress(k * games + done, total)) if progress else None
        results.append(Variant(label, run_tournament(config, games, out=directory, progress=tick, **run)))
    return results
