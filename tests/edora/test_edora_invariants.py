"""Whole random games: the components are conserved after every action."""

import random

import pytest

from nemeton.engine import make


def _check(st):
    n = st.n
    for p in range(n):
        on_board = sum(1 for o in st.owner if o == p)
        assert on_board == st.placed[p]
        assert sum(st.reserve[7 * p:7 * p + 7]) + sum(st.overview[7 * p:7 * p + 7]) + on_board == 13
        assert 0 <= st.knowledge[p] <= st.board.knowledge_end and 0 <= st.sickle[p] <= st.board.sickle_end
        assert st.provisions[p] >= 0 and st.mistletoe[p] >= 0
    tablets = [t for t in st.oracle_slots if t >= 0] + st.deck + st.draft_hand + sum(st.tablets, [])
    assert sorted(tablets) == sorted(t for t in range(15) for _ in range(2))
    assert sum(st.standing_at) == sum(bin(m).count("1") for m in st.standing)
    assert sum(st.rune_at) == sum(bin(m).count("1") for m in st.runes)
    assert all(st.used[s] <= n for s in range(st.board.size))
    if not st.options.revisit_sanctuaries:
        for s in range(st.board.size):
            owners = [st.owner[4 * s + i] for i in range(n) if st.owner[4 * s + i] >= 0]
            assert len(owners) == len(set(owners)), "one die per colour per sanctuary"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_conserve_dice_tablets_and_stones(players):
    for seed in range(4):
        st = make("edora", players=players, seed=seed, safety_valve=True, tablet_draft=seed % 2 == 1)
        rng = random.Random(seed)
        while not st.is_terminal():
            st.apply(rng.choice(st.legal_actions()), st.current_player)
            _check(st)
        assert st.final is not None
