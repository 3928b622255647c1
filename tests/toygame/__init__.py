"""Kuhn poker, the engine's test game, in the layout every game has (docs/engine.md, "A game's
folder"; docs/adding-a-game.md starts from a copy of this folder).

Three cards J<Q<K; each of 2 players antes 1 and gets one card; player 0 checks or bets 1;
player 1 then checks/bets (after a check) or calls/folds (after a bet); after check-bet,
player 0 calls or folds. Showdown: the higher card wins the pot. Score = chips won
(zero-sum). Not registered on import: tests call :func:`install` and :func:`uninstall`.
"""

from __future__ import annotations

from nemeton.engine import GameSpec, register
from nemeton.engine.parts import part
from nemeton.engine.registry import _REGISTRY

from .actions import BET, CHECK, CODEC, Bet
from .events import EVENT_KINDS
from .infer import determinize, legal_actions_from_view
from .options import KuhnOptions
from .render import render
from .rules import KuhnState, new_state

SPEC = GameSpec(
    name="kuhn", title="Kuhn poker (test game)", summary="engine test game", player_counts=(2,),
    options_cls=KuhnOptions, new_state=new_state, state_from_json=KuhnState.from_json, action_codec=CODEC,
    legal_actions_from_view=legal_actions_from_view, determinize=determinize, render=render,
    event_kinds=EVENT_KINDS,
    heuristic=part(f"{__name__}.heuristic", "HEURISTIC"),
    signals=part(f"{__name__}.signals", "SIGNALS"),
)


def install():
    register(SPEC)


def uninstall():
    _REGISTRY.pop("kuhn", None)


__all__ = ["BET", "CHECK", "Bet", "KuhnOptions", "KuhnState", "SPEC", "install", "uninstall"]
