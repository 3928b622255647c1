"""Alarún's typed options: the player count and the safety cap of ruling A9."""

from __future__ import annotations

from dataclasses import dataclass

from ...engine import GameOptions, InvalidOptionsError, option

PLAYER_COUNTS = (2, 3, 4)


@dataclass(frozen=True)
class AlarunOptions(GameOptions):
    players: int = option(3, "Number of players.", min=2, max=4)
    action_cap: int | None = option(
        None, "Safety cap (ruling A9): once this many actions (swaps, flips and passes of all players "
              "together) have been taken in a round's action phase, the only legal action is to pass. "
              "None = no cap (as people play).", min=1)

    def validate(self) -> None:
        if self.players not in PLAYER_COUNTS:
            raise InvalidOptionsError(f"players={self.players} is not allowed; Alarún is for 2, 3 or 4 players")


__all__ = ["AlarunOptions", "PLAYER_COUNTS"]
