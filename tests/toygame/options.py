"""Kuhn poker's options: two players, no variants."""

from __future__ import annotations

from dataclasses import dataclass

from nemeton.engine import GameOptions


@dataclass(frozen=True)
class KuhnOptions(GameOptions):
    players: int = 2
