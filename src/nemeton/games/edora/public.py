"""What every seat knows of an Edora game before it starts, fixed for the whole game: the
board's layout (sanctuaries with their places, glades, spaces; paths, stairs, fire pits and
their rewards, the dolmen ring, start spaces), the player board, and the names and texts of
the components. Clients draw the map from it (the views carry only what changes)."""

from __future__ import annotations

import json
from typing import Any

import yaml

from . import components, steps
from .board import standard_board_text
from .options import EdoraOptions


def public_data(options: EdoraOptions) -> dict[str, Any]:
    """The game's fixed public data for ``options`` (its own board, or the designed one)."""
    raw = yaml.safe_load(options.board if options.board is not None else standard_board_text())
    board = {k: v for k, v in raw["board"].items() if k != "dolmen_reference_colours"}
    return json.loads(json.dumps({  # JSON-ready: what a client receives
        "board": board, "player_board": raw["player_board"],
        "herb_names": components.HERB_NAMES, "herb_effects": components.HERB_EFFECTS,
        "potion_effects": components.POTION_EFFECTS, "tablet_conditions": components.TABLET_CONDITIONS,
        "reward_names": components.REWARD_NAMES, "reward_gains": components.REWARD_GAINS,
        "rune_names": components.RUNE_NAMES, "steps": {str(k): v for k, v in steps.STEP_NAMES.items()},
        "codes": {"take_die": steps.TAKE_DIE, "release": steps.ACTIVATE_HERB, "end_turn": steps.END_TURN},
    }))
