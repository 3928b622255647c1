"""Amarok: the Italian rulebook (``amarok-rulebook-it.txt``) with rulings K1-K9.

Individual mode for 3-6 players; team mode for 4 (2 teams) and 6 (3 teams), partners sitting
opposite. Each round every player plays two cards in front of them, taken from their own
hand, the river, the deck or another player's hand, and the best total per the objective card
(wolf pack: highest, lone wolf: lowest) wins the round unless trapped; a second heart wins at
once. The more rounds you win, the less of your own hand you see. First to ``rounds_to_win``
(3) round wins wins the game. The deck is data (ruling K1): the ``deck`` option holds a deck
file's text (None = the standard deck); the command line reads ``--deck FILE``.

Rules as implemented, rulings and the tests of each: ``docs/rules/amarok.md``.
"""

from pathlib import Path

from ...engine import GameSpec, register
from ...engine.parts import part
from .actions import ACTION_CODEC, action_message
from .events import EVENT_KINDS
from .options import PLAYER_COUNTS, AmarokOptions
from .render import render
from .rules import AmarokState, new_state
from .infer import determinize, legal_actions_from_view, prepare_sampler

SPEC = register(GameSpec(
    name="amarok",
    title="Amarok",
    summary="Play two cards in front of you for the highest or lowest total; "
            "the more rounds you win, the less of your own hand you see.",
    player_counts=PLAYER_COUNTS,
    options_cls=AmarokOptions,
    new_state=new_state,
    state_from_json=AmarokState.from_json,
    action_codec=ACTION_CODEC,
    action_message=action_message,
    legal_actions_from_view=legal_actions_from_view,
    determinize=determinize,
    prepare_sampler=prepare_sampler,
    render=render,
    conformance_variants=({"players": 4, "teams": True}, {"players": 6, "teams": True}),
    event_kinds=EVENT_KINDS,
    playthroughs={"3p": ({"players": 3}, 3, 3),
                  "4p-teams-partner-hand": ({"players": 4, "teams": True, "partner_hand": True}, 4, 4)},
    encoding_module=part(f"{__name__}.encoding"),
    heuristic=part(f"{__name__}.heuristic", "HEURISTIC"),
    kernel=part(f"{__name__}.kernel", "KERNEL"),
    signals=part(f"{__name__}.signals", "SIGNALS"),
    web_dir=str(Path(__file__).with_name("web")),
    locale_dir=str(Path(__file__).with_name("locale")),
))

__all__ = ["AmarokOptions", "AmarokState", "SPEC"]
