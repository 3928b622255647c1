"""The state: the two cards dealt and the moves so far."""

from __future__ import annotations

import random

from nemeton.engine import TERMINAL, State, rng_from_json, rng_to_json

from .actions import BET, CHECK, CODEC
from .options import KuhnOptions
from .scoring import ENDS, FOLDS, chips
from .view import build_view


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
        return self.moves in ENDS

    def _legal_actions(self, seat):
        return [] if self.is_terminal() else [CHECK, BET]

    def _apply(self, action, seat):
        self.moves.append(action.bet)
        self._event("bet" if action.bet else "check", seat)
        if self.is_terminal():
            if self.moves in FOLDS:
                self._event("fold_win", None, winner=1 - seat)
            else:
                self._event("showdown", None, cards=list(self.cards))

    def scores(self):
        return chips(self.moves, self.cards) if self.is_terminal() else [0, 0]

    def _view(self, seat):
        return build_view(self, seat)

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

    @staticmethod
    def from_json(data):
        st = KuhnState.__new__(KuhnState)
        State.__init__(st, KuhnOptions(**data["options"]), data["seed"], rng_from_json(data["rng"]))
        st.cards = list(data["cards"])
        st.moves = list(data["moves"])
        st.history = [(h["seat"], CODEC.from_json(h["action"])) for h in data["history"]]
        return st


def new_state(options, seed):
    return KuhnState(options, seed, random.Random(seed))
