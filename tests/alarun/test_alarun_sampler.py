"""The search fast path (``SPEC.sampler(view)``): its samples keep the seat's view and legal
actions, re-sample the hidden cards, and draw them from the cards the seat has not seen, like
the determinizer."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from nemeton.engine import get_game
from nemeton.games.alarun.components import full_deck
from nemeton.games.alarun.rules import PLACEMENT
from nemeton.games.alarun.infer import prepare_sampler
from nemeton.games.alarun.infer import unseen_pool

from alarun_helpers import act, new

SPEC = get_game("alarun")


def _positions(players, seed):
    """Positions from a random game: action phases, hidden placements, the end."""
    st = new(players, seed=seed, action_cap=12)
    rng = random.Random(seed)
    out = []
    step = 0
    while True:
        if step % 5 == 0 or st.is_terminal():
            out.append(st.clone())
        if st.is_terminal():
            return out
        p = st.current_player
        st.apply(rng.choice(st.legal_actions(p)), p)
        step += 1


def test_the_fast_path_is_used_for_search():
    # the engine may wrap the game's function (turning stray errors into its own)
    assert getattr(SPEC.prepare_sampler, "_game_function", SPEC.prepare_sampler) is prepare_sampler


@pytest.mark.parametrize("players", [2, 3, 4])
def test_samples_keep_the_seats_view_and_legal_actions(players):
    saw_hidden_placements = False
    for st in _positions(players, seed=players)[::3]:
        for seat in [*range(players), None]:
            view = st.view(seat)
            sample = SPEC.sampler(view)
            for k in range(3):
                s = sample(random.Random(k))
                assert s.view(seat) == view
                assert s.view(None) == st.view(None)
                if seat is not None:
                    assert s.legal_actions(seat) == st.legal_actions(seat)
                assert Counter(s.deck + s.face_down + [c for h in s.hands for c in h]
                               + s.centre + s.discard
                               + [c for sq in s.squares for _, c in sq.placed()]) == Counter(full_deck())
                if st.phase == PLACEMENT and seat is not None and any(
                        st.pending[o] for o in range(players) if o != seat):
                    saw_hidden_placements = True
    assert saw_hidden_placements


def test_a_sample_plays_to_the_end_and_leaves_the_template_alone():
    st = _positions(3, seed=11)[2]
    view = st.view(1)
    sample = SPEC.sampler(view)
    first = sample(random.Random(0))
    rng = random.Random(0)
    while not first.is_terminal():
        p = first.current_player
        first.apply(rng.choice(first.legal_actions(p)), p)
    again = sample(random.Random(0))
    assert again.view(1) == view
    assert again.to_json() != first.to_json()


def test_samples_vary_the_hidden_cards():
    st = new(3, seed=4)
    act(st, "pass")
    sample = SPEC.sampler(st.view(1))
    rng = random.Random(1)
    states = [sample(rng) for _ in range(30)]
    assert len({tuple(s.hands[0]) for s in states}) > 20
    assert len({tuple(s.hands[2]) for s in states}) > 20
    assert len({tuple(s.deck) for s in states}) == 30
    assert len({tuple(s.secret) for s in states}) > 5
    assert all(s.secret[1] == st.secret[1] for s in states)
    assert all(s.hands[1] == st.hands[1] for s in states)


def test_hidden_hand_cards_come_from_the_unseen_cards_uniformly():
    st = new(3, seed=9)
    act(st, "pass")
    seat = 1
    view = st.view(seat)
    pool = Counter(unseen_pool(view))
    assert pool + Counter(st.hands[seat] + st.centre) == Counter(full_deck())  # the other copies
    sample = SPEC.sampler(view)
    rng = random.Random(2)
    draws = 3000
    seen: Counter = Counter()
    for _ in range(draws):
        s = sample(rng)
        seen.update(s.hands[0])
    assert set(seen) <= set(pool)
    size = sum(pool.values())
    # each unseen copy lands in seat 0's hand with probability 3 / size
    for c, copies in pool.items():
        expected = draws * 3 * copies / size
        assert abs(seen[c] - expected) < 5 * expected ** 0.5 + 2, (c, seen[c], expected)


def test_known_hand_cards_stay_in_their_hands():
    st = new(3, seed=5)
    act(st, next(str(a) for a in st.legal_actions(0) if str(a).startswith("swap ")))
    taken = st.known[0]
    assert taken
    sample = SPEC.sampler(st.view(1))
    for k in range(20):
        s = sample(random.Random(k))
        assert all(c in s.hands[0] for c in taken)


def test_the_sampler_and_the_determinizer_agree_in_distribution():
    st = new(2, seed=3)
    act(st, "pass")
    view = st.view(1)
    sample = SPEC.sampler(view)
    fast = Counter()
    slow = Counter()
    for k in range(1500):
        fast.update(sample(random.Random(k)).face_down)
        slow.update(SPEC.determinize(view, random.Random(10_000 + k)).face_down)
    pool = Counter(unseen_pool(view))
    for c in pool:
        expected = 1500 * 3 * pool[c] / sum(pool.values())
        assert abs(fast[c] - slow[c]) < 6 * expected ** 0.5 + 2, (c, fast[c], slow[c])
