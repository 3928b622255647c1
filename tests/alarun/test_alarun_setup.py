"""Setup (rulebook "Setup") and the card budget (ruling A1)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from nemeton.engine import InvalidOptionsError, make
from nemeton.games.alarun.components import CENTUM_AURI, COLOURS, DRUID, full_deck
from nemeton.games.alarun.square import ORIGIN

from alarun_helpers import new


def all_cards(state) -> Counter:
    """Every ingredient card wherever it is (stack, centre, face down, discard, hands, squares)."""
    where = Counter(state.deck)
    where.update(state.centre)
    where.update(state.face_down)
    where.update(state.discard)
    for h in state.hands:
        where.update(h)
    for sq in state.squares:
        where.update(c for _, c in sq.placed())
    return where


def test_the_deck_is_99_cards_7_ingredients_7_colours_2_copies_and_one_centum_auri():
    deck = Counter(full_deck())
    assert sum(deck.values()) == 99
    assert deck[CENTUM_AURI] == 1
    assert all(deck[c] == 2 for c in range(49))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_centre_hands_druid_and_secret_colours(players):
    st = new(players, seed=5)
    assert len(st.centre) == 3
    assert all(len(h) == 3 for h in st.hands)
    assert len(st.face_down) == (3 if players == 2 else 0)  # 2 players: 3 face down beside the centre
    assert all(sq.cells[ORIGIN] == DRUID and sq.count() == 1 for sq in st.squares)
    assert len(set(st.secret)) == players and all(0 <= c < len(COLOURS) for c in st.secret)
    assert st.current_player == 0 and st.start_player == 0  # the game's start player is seat 0
    assert all_cards(st) == Counter(full_deck())


def test_secret_colours_are_dealt_at_random():
    seen = {tuple(new(3, seed=s).secret) for s in range(30)}
    assert len(seen) > 10


@pytest.mark.parametrize("players,used", [(2, 96), (3, 96), (4, 99)])
def test_card_budget_a1_never_runs_out(players, used):
    for seed in range(4):
        st = new(players, seed=seed, action_cap=30)
        rng = random.Random(seed)
        rounds_dealt = set()
        while not st.is_terminal():
            assert all_cards(st) == Counter(full_deck())  # no card is created or lost
            if st.phase == 0 and st.actions_taken == 0 and st.round not in rounds_dealt:
                rounds_dealt.add(st.round)
                assert all(len(h) == 3 for h in st.hands) and len(st.centre) == 3
                assert len(st.face_down) == (3 if players == 2 else 0)
            seat = st.current_player
            st.apply(rng.choice(st.legal_actions(seat)), seat)
        assert rounds_dealt == set(range(1, 9))
        assert 99 - len(st.deck) == used
        assert all(sq.count() == 25 for sq in st.squares)


def test_player_counts_are_2_to_4():
    for bad in (1, 5):
        with pytest.raises(InvalidOptionsError, match="players="):
            make("alarun", players=bad, seed=0)
