"""From a view back to the game: its legal actions and the determinizer."""

from __future__ import annotations

import random

from .actions import BET, CHECK
from .options import KuhnOptions
from .rules import KuhnState
from .scoring import ENDS


def legal_actions_from_view(view):
    return [] if list(view["moves"]) in ENDS else [CHECK, BET]


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
