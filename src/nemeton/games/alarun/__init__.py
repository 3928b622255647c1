"""Alarún (the card game), complete, for 2, 3 and 4 players.

The variant implemented is the rulebook's (``/work/shared/rules/alarun-rulebook.txt``) with
the rulings A1-A9 of RULINGS.md; ``docs/rules/alarun.md`` states the rules as implemented,
each ruling beside the rule it refines, with the test that checks it.

- :mod:`.components` the 99 cards and their names; :mod:`.square` a growing magic square;
- :mod:`.options` the typed options; :mod:`.actions` the interned actions (decoding looks an
  action up, never adds one); :mod:`.rules` the game state (``AlarunState.from_json`` loads one);
- :mod:`.scoring` potions, the druid, the Centum auri and the colour bonus;
- :mod:`.events` the kinds of event in the log and their sentences;
- :mod:`.view` what each seat sees; :mod:`.infer` the legal actions of a view, the
  determinizer and its fast path for search (one view, many samples); :mod:`.render` text;
- :mod:`.encoding` the RL action space and observation; :mod:`.heuristic` the rule-of-thumb
  player and evaluation, :mod:`.fitted` the fitted cut-off evaluation; :mod:`.signals` what
  the arena measures; ``web/`` the browser's renderer;
- :mod:`.companion` scoring a physical game's square typed in by a person.
"""

from __future__ import annotations

from pathlib import Path

from ...engine import ActionCodec, GameSpec, register
from ...engine.parts import part
from .actions import ACTION_CLASSES, intern_action
from .events import EVENT_KINDS, action_message
from .render import render
from .options import PLAYER_COUNTS, AlarunOptions
from .rules import AlarunState, new_state
from .infer import determinize, legal_actions_from_view, prepare_sampler

SPEC = register(GameSpec(
    name="alarun",
    title="Alarún",
    summary=("Swap ingredients with the centre for 8 rounds and build a 5x5 magic square of potions "
             "around your druid apprentice; rows and columns score runs of one colour or one ingredient."),
    player_counts=PLAYER_COUNTS,
    options_cls=AlarunOptions,
    new_state=new_state,
    state_from_json=AlarunState.from_json,
    action_codec=ActionCodec(ACTION_CLASSES, intern=intern_action),
    legal_actions_from_view=legal_actions_from_view,
    determinize=determinize,
    render=render,
    bot_defaults={"action_cap": 30},
    conformance_variants=({"players": 4, "action_cap": 2},),
    prepare_sampler=prepare_sampler,
    event_kinds=EVENT_KINDS,
    action_message=action_message,
    playthroughs={"2p": ({"players": 2}, 1, 1), "4p": ({"players": 4, "action_cap": 12}, 2, 2)},
    encoding_module=part(f"{__name__}.encoding"),
    heuristic=part(f"{__name__}.heuristic", "HEURISTIC"),
    signals=part(f"{__name__}.signals", "SIGNALS"),
    fitted=part(f"{__name__}.fitted", "FITTED"),
    kernel=part(f"{__name__}.kernel", "KERNEL"),
    companion=part(f"{__name__}.companion", "COMPANION"),
    web_dir=str(Path(__file__).with_name("web")),
    locale_dir=str(Path(__file__).with_name("locale")),
))

__all__ = ["AlarunOptions", "AlarunState", "SPEC"]
