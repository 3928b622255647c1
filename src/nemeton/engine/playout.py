"""Random playouts: the inner loop of simulations, benchmarks and search rollouts."""

from __future__ import annotations

import random

from .state import State


def random_playout(state: State, rng: random.Random, max_steps: int = 1_000_000) -> int:
    """Play uniformly random legal actions until the end; returns the number of steps."""
    steps = 0
    choice = rng.choice
    while not state.is_terminal() and steps < max_steps:
        seat = state.current_player
        state.apply_unchecked(choice(state._legal_actions(seat)), seat)
        steps += 1
    return steps
