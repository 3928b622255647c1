"""The Druids of Edora (alea/Ravensburger 2025) for 2-4 players.

Implements ``edora-spec.md`` (the rulebook restated, with the designed §9 board as package
data) and rulings E1-E4; the rules as implemented are in ``docs/rules/edora.md``.
Variants: the rulebook's V1-V4 and the Spanish summary's two rules (``revisit_sanctuaries``,
``fire_pit_scoring="summary"``) as options; ``board`` holds another board's YAML text (the
command line reads the file); the ``safety_valve`` (on for bots)
ends stalled games.
"""

from __future__ import annotations

import random
from pathlib import Path

from ...engine.parts import part
from ...engine.registry import GameSpec, register
from .actions import CODEC, action_message
from .events import EVENT_KINDS
from .options import EdoraOptions
from .public import public_data
from .render import render
from .rules import EdoraState
from .infer import determinize, legal_actions_from_view, prepare_sampler


def new_state(options: EdoraOptions, seed: int) -> EdoraState:
    return EdoraState(options, seed, random.Random(seed))


SPEC = register(GameSpec(
    name="edora",
    title="The Druids of Edora",
    summary="Move your druid through the forest, place dice in sanctuaries, brew potions, "
            "release herbs, link dolmens and enclose fire pits; most prestige wins.",
    player_counts=(2, 3, 4),
    options_cls=EdoraOptions,
    new_state=new_state,
    state_from_json=EdoraState.from_json,
    action_codec=CODEC,
    legal_actions_from_view=legal_actions_from_view,
    determinize=determinize,
    prepare_sampler=prepare_sampler,
    public_data=public_data,
    render=render,
    action_message=action_message,
    event_kinds=EVENT_KINDS,
    # 2: dice taken from an overview board holding no more than are to be taken are taken at
    # once (no take_die decision), so version-1 records with such a pick no longer replay
    rules_version=2,
    bot_defaults={"safety_valve": True},
    conformance_variants=(
        {"players": 3, "tablet_draft": True, "arranged_herbs": True, "shared_dice": True},
        {"players": 2, "revisit_sanctuaries": True, "fire_pit_scoring": "summary", "shared_herbs": True},
    ),
    playthroughs={"2p": ({"players": 2, "safety_valve": True}, 5, 5),
                  "2p-variants": ({"players": 2, "tablet_draft": True, "arranged_herbs": True,
                                   "shared_dice": True, "safety_valve": True}, 6, 6)},
    encoding_module=part(f"{__name__}.encoding"),
    heuristic=part(f"{__name__}.heuristic", "HEURISTIC"),
    kernel=part(f"{__name__}.kernel", "KERNEL"),
    signals=part(f"{__name__}.signals", "SIGNALS"),
    web_dir=str(Path(__file__).with_name("web")),
    locale_dir=str(Path(__file__).with_name("locale")),
))

__all__ = ["EdoraOptions", "EdoraState", "SPEC"]
