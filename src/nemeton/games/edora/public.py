"""What every seat knows of an Edora game before it starts, fixed for the whole game: the
board's layout (sanctuaries with their places, glades, spaces; paths, stairs, fire pits and
their rewards, the dolmen ring, start spaces), the player board, and the names and texts of
the components. Clients draw the map from it (the views carry only what changes).

The components' names and texts are messages (:mod:`nemeton.i18n`: an id, which each client
renders in its reader's language from the game's catalogue), keyed by the components' codes;
the board's own codes (sanctuaries, glades, rows...) are sent as the board file writes them.
"""

from __future__ import annotations

import json
from typing import Any

import yaml

from ...i18n import msg
from . import components, steps
from .board import standard_board_text
from .options import EdoraOptions

#: A rune stone's code -> the reward it gives (its name is the reward's: edora.reward.*).
RUNE_REWARD = {"MIST": "MIST", "DIE": "DIE", "KNOW": "KNOW", "SICKLE_STEP": "SICKLE", "PRESTIGE_POINT": "VP",
               "PROVISION": "FOOD"}


def component_messages() -> dict[str, Any]:
    """The components' names and texts as messages, keyed by their codes."""
    return {
        "herb_names": {h: msg(f"edora.herb_name.{h}") for h in components.HERBS},
        "herb_effects": {h: msg(f"edora.herb_effect.{h}") for h in components.HERBS},
        "potion_effects": {p: msg(f"edora.potion.{p}") for p in components.POTIONS},
        "tablet_conditions": {t: msg(f"edora.tablet.{t}") for t in components.TABLETS},
        "reward_names": {r: msg(f"edora.reward.{r}") for r in components.REWARD_NAMES},
        "reward_gains": {r: msg(f"edora.gain.{r}") for r in components.REWARD_GAINS},
        "rune_names": {u: msg(f"edora.reward.{RUNE_REWARD[u]}") for u in components.RUNE_NAMES},
        "steps": {str(k): msg(f"edora.step.{k}") for k in steps.STEP_NAMES},
    }


def public_data(options: EdoraOptions) -> dict[str, Any]:
    """The game's fixed public data for ``options`` (its own board, or the designed one)."""
    raw = yaml.safe_load(options.board if options.board is not None else standard_board_text())
    board = {k: v for k, v in raw["board"].items() if k != "dolmen_reference_colours"}
    return json.loads(json.dumps({  # JSON-ready: what a client receives
        "board": board, "player_board": raw["player_board"], **component_messages(),
        "codes": {"take_die": steps.TAKE_DIE, "release": steps.ACTIVATE_HERB, "end_turn": steps.END_TURN},
    }))
