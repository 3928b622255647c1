"""Edora's typed options: player count, the rulebook variants (§7), the summary's rules as
options (ruling E2), another board file (E3) and the safety valve (E4)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Optional

from ...engine.errors import InvalidOptionsError
from ...engine.options import GameOptions, option
from ...i18n import msg
from .board import board_from_text, standard_board_text


@dataclass(frozen=True)
class EdoraOptions(GameOptions):
    players: int = option(2, "number of players (2, 3 or 4)", min=2, max=4)
    revisit_sanctuaries: bool = option(
        False, "summary rule (E2): one die per sanctuary per turn only, so you may return to a "
               "sanctuary on a later turn (rulebook: one die per sanctuary for the whole game)")
    fire_pit_scoring: Literal["rulebook", "summary"] = option(
        "rulebook", "rulebook: a closed fire pit gives its printed rewards; summary (E2): also "
                    "2 prestige per enclosing die and 8/6/4 for the first three pits closed")
    tablet_draft: bool = option(False, "variant V1: draw 3 tablets at setup, keep 1, put 2 under the deck")
    shared_herbs: bool = option(False, "variant V2: everybody copies the start player's random herb layout")
    arranged_herbs: bool = option(False, "variant V3: each player arranges their herbs as they like")
    shared_dice: bool = option(False, "variant V4: everybody copies the start player's 9 overview dice")
    board: Optional[str] = option(
        None, "another board (E3): the text of a board YAML file like data/board.yaml; none = the "
              "designed §9 board", data="YAML board", standard=standard_board_text)
    safety_valve: bool = option(
        False, "end the game after 3 rounds without any die placed or after 40 rounds "
               "(E4; on for bots and simulations, off for people)")

    def validate(self) -> None:
        if self.shared_herbs and self.arranged_herbs:
            raise InvalidOptionsError(
                "shared_herbs (V2) and arranged_herbs (V3) exclude each other; choose at most one",
                msg=msg("edora.error.herbs_exclusive", first=msg("edora.option.shared_herbs.label"),
                        second=msg("edora.option.arranged_herbs.label")))
        board = board_from_text(self.board)
        if board.max_spaces < self.players:
            short = [board.names[s] for s in range(board.size) if len(board.spaces[s]) < self.players]
            raise InvalidOptionsError(
                f"the board gives {board.max_spaces} spaces to some sanctuaries ({', '.join(short)}); "
                f"{self.players} players need {self.players}",
                msg=msg("edora.error.board_spaces", spaces=board.max_spaces, sanctuaries=", ".join(short),
                        players=self.players))
