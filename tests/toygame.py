"""Kuhn poker as a tiny engine test game (hidden cards, simple enough to reason about).

Three cards J<Q<K; each of 2 players antes 1 and gets one card; player 0 checks or bets 1;
player 1 then checks/bets (after a check) or calls/folds (after a bet); after check-bet,
player 0 calls or folds. Showdown: higher card wins the pot. Score = chips won (zero-sum).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar

from nemeton.engine import (Action, ActionCodec, GameOptions, GameSpec, State, TERMINAL, register,
                            rng_from_json, rng_to_json)
from nemeton.engine.registry import _REGISTRY


@dataclass(frozen=True, slots=True)
class Bet(Action):
    kind: ClassVar[str] = "bet"
    bet: bool

    def __str__(self):
        return "bet" if self.bet else "check"


BET, CHECK = Bet(True), Bet(False)


@dataclass(frozen=True)
class KuhnOptions(GameOptions):
    players: int = 2


class KuhnState(State):
    game_name = "kuhn"

    def __init__(self, options, seed, rng):
        super().__init__(options, seed, rng)
        deck = [0, 1, 2]
        rng.shuffle(deck)
        self.cards = deck[:2]
        self.moves: list[bool] = []

    @property
    def current_player(self):
        return TERMINAL if self.is_terminal() else len(self.moves) % 2

    def is_terminal(self):
        m = self.moves
        return m in ([False, False], [True, True], [True, False], [False, True, True], [False, True, False])

    def _legal_actions(self, seat):
        return [] if self.is_terminal() else [CHECK, BET]

    def _apply(self, action, seat):
        self.moves.append(action.bet)
        self._event("bet" if action.bet else "check", seat)
        if self.is_terminal():
            if self.moves in ([True, False], [False, True, False]):
                self._event("fold_win", None, winner=1 - seat)
            else:
                self._event("showdown", None, cards=list(self.cards))

    def scores(self):
        if not self.is_terminal():
            return [0, 0]
        m = self.moves
        if m == [True, False]:
            return [1, -1]
        if m == [False, True, False]:
            return [-1, 1]
        stake = 2 if True in m else 1
        w = 0 if self.cards[0] > self.cards[1] else 1
        return [stake, -stake] if w == 0 else [-stake, stake]

    def _view(self, seat):
        showdown = self.is_terminal() and self.moves not in ([True, False], [False, True, False])
        return {"moves": list(self.moves),
                "my_card": None if seat is None else self.cards[seat],
                "cards": list(self.cards) if showdown else None}

    def clone(self):
        twin = KuhnState.__new__(KuhnState)
        State.__init__(twin, self.options, self.seed, random.Random())
        twin.rng.setstate(self.rng.getstate())
        twin.history = list(self.history)
        twin.events = None if self.events is None else list(self.events)
        twin.cards = list(self.cards)
        twin.moves = list(self.moves)
        return twin

    def to_json(self):
        return {"options": self.options.to_json(), "seed": self.seed, "rng": rng_to_json(self.rng),
                "cards": self.cards, "moves": self.moves,
                "history": [{"seat": s, "action": a.to_json()} for s, a in self.history]}


def from_json(data):
    st = KuhnState.__new__(KuhnState)
    State.__init__(st, KuhnOptions(**data["options"]), data["seed"], rng_from_json(data["rng"]))
    st.cards = list(data["cards"])
    st.moves = list(data["moves"])
    st.history = [(h["seat"], CODEC.from_json(h["action"])) for h in data["history"]]
    return st


def legal_from_view(view):
    st = KuhnState.__new__(KuhnState)
    st.moves = list(view["moves"])
    return [] if st.is_terminal() else [CHECK, BET]


def determinize(view, rng):
    st = KuhnState(KuhnOptions(), None, random.Random(rng.randrange(2**63)))
    seat = view["seat"]
    if view["cards"] is not None:
        st.cards = list(view["cards"])
    elif seat is not None:
        other = [c for c in (0, 1, 2) if c != view["my_card"]]
        st.cards = [0, 0]
        st.cards[seat] = view["my_card"]
        st.cards[1 - seat] = rng.choice(other)
    else:
        deck = [0, 1, 2]
        rng.shuffle(deck)
        st.cards = deck[:2]
    st.moves = list(view["moves"])
    st.events = None
    return st


CODEC = ActionCodec([Bet], intern=lambda a: BET if a.bet else CHECK)

SPEC = GameSpec(
    name="kuhn", title="Kuhn poker (test game)", summary="engine test game", player_counts=(2,),
    options_cls=KuhnOptions, new_state=lambda o, s: KuhnState(o, s, random.Random(s)),
    state_from_json=from_json, action_codec=CODEC, legal_actions_from_view=legal_from_view,
    determinize=determinize, render=lambda v: f"card {v['my_card']} moves {v['moves']}",
    event_kinds={"bet": "a seat bets", "check": "a seat checks", "fold_win": "the other seat folded",
                 "showdown": "both cards are shown"})


def install():
    register(SPEC)


def uninstall():
    _REGISTRY.pop("kuhn", None)
