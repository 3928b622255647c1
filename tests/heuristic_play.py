"""Shared by the per-game heuristic tests: one game of the game's heuristic in one seat
against random play, through ``choose_in_state`` (search's fast path) or ``choose_from_view``."""

import random

from nemeton.agents.base import get_heuristic
from nemeton.engine import make


def play_heuristic_vs_random(game, players, seed, heuristic_seat, via_view=False, **options):
    heuristic = get_heuristic(game)
    st = make(game, players=players, seed=seed, **options)
    rng = random.Random(seed)
    while not st.is_terminal():
        p = st.current_player
        legal = st.legal_actions(p)
        if p == heuristic_seat:
            a = (heuristic.choose_from_view(st.view(p), legal, rng) if via_view
                 else heuristic.choose_in_state(st, p, legal, rng))
            assert a in legal
        else:
            a = rng.choice(legal)
        st.apply(a, p)
    return st
