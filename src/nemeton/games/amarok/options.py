"""Amarok's options: player count, team mode, the deck (data, ruling K1) and the variants."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from ...engine import GameOptions, InvalidOptionsError, build_options, option
from ...i18n import msg
from .components import load_deck, standard_deck_text

PLAYER_COUNTS = (3, 4, 5, 6)


@dataclass(frozen=True)
class AmarokOptions(GameOptions):
    players: int = option(3, "number of players", min=3, max=6)
    teams: bool = option(False, "team mode: 4 players (2 teams) or 6 players (3 teams), "
                                "partners sit opposite (seat i with seat i + players/2)")
    deck: str | None = option(None, "the deck (ruling K1): the text of a TOML or JSON deck file; "
                                    "none = the standard deck", data="TOML or JSON deck",
                              standard=standard_deck_text)
    rounds_to_win: int = option(3, "round wins needed to win the game", min=1, max=9)
    partner_hand: bool = option(False, "team mode only: a player may also take a card from their "
                                       "partner's hand (the rulebook says 'an opponent's hand')")

    def validate(self) -> None:
        if self.teams and self.players not in (4, 6):
            raise InvalidOptionsError(
                f"teams=true needs 4 or 6 players (2 or 3 teams of partners sitting opposite); "
                f"got players={self.players}. Use players=4 or 6, or teams=false.",
                msg=msg("amarok.error.teams_players", players=self.players))
        if self.partner_hand and not self.teams:
            raise InvalidOptionsError("partner_hand=true only applies with teams=true",
                                      msg=msg("amarok.error.partner_hand", name=msg("amarok.option.partner_hand.label"),
                                              teams=msg("amarok.option.teams.label")))
        load_deck(self.deck).check_size(self.players)


def options_from_json(data: Mapping[str, Any]) -> AmarokOptions:
    return build_options(AmarokOptions, dict(data), PLAYER_COUNTS)
