"""Ruling K9 and invariants over random games: a legal action always exists, every card is
in exactly one place, nobody has more than two cards in front, hands are never refilled."""

import random

from hypothesis import given, settings, strategies as st

from nemeton.engine import get_game, make, random_playout

SPEC = get_game("amarok")
CONFIGS = [{"players": 3}, {"players": 4}, {"players": 5}, {"players": 6},
           {"players": 4, "teams": True}, {"players": 6, "teams": True},
           {"players": 4, "teams": True, "partner_hand": True}]


def _places(data):
    cards = [c for row in data["hands"] for c in row if c] + [c for row in data["fronts"] for c in row]
    return cards + data["river"] + data["deck"]


@settings(max_examples=40, deadline=None)
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**31 - 1))
def test_a_legal_action_always_exists_and_cards_are_conserved(config, seed):
    state = make("amarok", seed=seed, **config)
    rng = random.Random(seed)
    all_cards = sorted(c["id"] for c in state.view(None)["cards"])
    hand_sizes = None
    last_round = state.round
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal, "K9: a legal action always exists"
        data = state.to_json()
        assert sorted(_places(data)) == all_cards
        assert all(len(row) <= 2 for row in data["fronts"])
        sizes = [sum(1 for c in row if c) for row in data["hands"]]
        if state.round == last_round and hand_sizes is not None:
            assert all(a <= b for a, b in zip(sizes, hand_sizes)), "nothing goes back into a hand"
        hand_sizes, last_round = sizes, state.round
        if len(state.history) % 5 == 0:
            assert SPEC.legal_actions_from_view(state.view(state.current_player)) == legal
        state.apply(rng.choice(legal))
    assert max(state.levels) == state.options.rounds_to_win
    assert sum(state.returns()) > 0


def test_a_game_lasts_at_least_rounds_to_win_rounds_and_ends():
    rounds = []
    for seed in range(50):
        state = make("amarok", players=4, seed=seed)
        random_playout(state, random.Random(seed))
        rounds.append(state.round)
    assert 3 <= min(rounds) and max(rounds) < 40
