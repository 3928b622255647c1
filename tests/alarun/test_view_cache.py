"""The views' cache of each square's shown cards and potion points (kept in the state and
updated card by card) always equals what a fresh state, computing from scratch, shows."""

from __future__ import annotations

import random

import pytest

import nemeton


@pytest.mark.parametrize("players", [2, 3, 4])
def test_cached_squares_and_potion_points_equal_a_fresh_computation_at_every_step(players):
    rng = random.Random(players)
    for game in range(3):
        state = nemeton.make("alarun", players=players, seed=100 * players + game, action_cap=30)
        spec = nemeton.get_game("alarun")
        steps = 0
        while not state.is_terminal():
            if steps % 3 == 0 or state.view(None)["phase"] != "actions":
                fresh = spec.state_from_json(state.to_json())
                for seat in [None, *range(players)]:
                    cached, computed = state.view(seat), fresh.view(seat)
                    assert (cached["squares"], cached["potion_points"]) == (computed["squares"], computed["potion_points"])
            seat = state.acting()[0]
            state.apply(rng.choice(state.legal_actions(seat)), seat)
            steps += 1
        assert steps > 50
