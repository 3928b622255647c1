"""The two ISMCTS changes the teacher needed: ``root_actions`` (a search restricted to some
root actions, spending its whole budget) and the heuristic prior of engine=fast for a seat
that acts beside a lower seat in a simultaneous phase."""

from __future__ import annotations

import random

import pytest

from nemeton.engine import get_game
from nemeton.teacher.hints import fast_engine, search_agent


def _placement(seed=11):
    """Alarún 3 players in a simultaneous placement where seats 1 and 2 act."""
    spec = get_game("alarun")
    state = spec.make(seed=seed, players=3, **spec.bot_defaults)
    rng = random.Random(seed)
    for _ in range(13):
        seat = state.acting()[0]
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    assert state.acting() == (1, 2)
    return spec, state


@pytest.mark.skipif(not fast_engine(get_game("alarun")), reason="needs the fast extra")
def test_fast_search_for_the_higher_of_two_acting_seats_expands_that_seats_actions():
    spec, state = _placement()
    agent = search_agent(spec, 2, 80, seed=4)
    root = agent.search(state.view(2))  # the kernel's prior would choose for seat 1 and fail
    assert root.children and set(root.children) <= set(state.legal_actions(2))


def test_root_actions_restrict_the_root_and_spend_the_whole_budget():
    spec, state = _placement()
    legal = state.legal_actions(1)
    chosen = legal[len(legal) // 2]
    agent = search_agent(spec, 1, 96, seed=0)
    agent.root_actions = [chosen]
    root = agent.search(state.view(1))
    assert list(root.children) == [chosen]
    assert root.children[chosen].visits == 96 == agent.last_iterations
    plain = search_agent(spec, 1, 96, seed=0)
    plain.search(state.view(1))
    assert len(plain.last_root.children) > 1
