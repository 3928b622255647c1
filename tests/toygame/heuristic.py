"""The rule of thumb: bet or call with the king, never with the jack, and check with the queen."""

from __future__ import annotations

from nemeton.engine.heuristic import GameHeuristic

from .actions import BET, CHECK


class KuhnHeuristic(GameHeuristic):
    def _choose(self, card, legal):
        wanted = BET if card == 2 else CHECK
        return wanted if wanted in legal else legal[0]

    def choose_from_view(self, view, legal, rng):
        return self._choose(view["my_card"], legal)

    def choose_in_state(self, state, seat, legal, rng):
        return self._choose(state.cards[seat], legal)

    def evaluate(self, state):
        if state.is_terminal():
            return state.returns()
        return [0.5, 0.5]


HEURISTIC = KuhnHeuristic()
