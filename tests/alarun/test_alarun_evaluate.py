"""The Alarún heuristic's fast paths: a card's value is its best placement gain over the open
cells (plus bonuses) however it is computed, the quick values used by ``evaluate`` differ
from the exact ones only on the druid's row and column, shared readers follow the square's
cards, and ``evaluate`` gives each seat a share in [0, 1], the shares summing to 1."""

from __future__ import annotations

import random

import pytest

from nemeton.agents.base import get_heuristic
from nemeton.games.alarun.heuristic import COLOUR_BONUS, CENTUM_AURI_VALUE, SquareReader
from nemeton.engine import make
from nemeton.games.alarun.components import CENTUM_AURI
from nemeton.games.alarun.square import CELL_XY, MagicSquare

from alarun_helpers import card

H = get_heuristic("alarun")


def _random_squares(count, seed=0):
    rng = random.Random(seed)
    for _ in range(count):
        sq = MagicSquare()
        for _ in range(rng.randrange(0, 23)):
            sq.place(rng.randrange(50), rng.choice(sq.open_cells()))
        yield sq, rng


def test_a_card_is_worth_its_best_placement_plus_its_bonuses():
    for sq, rng in _random_squares(150):
        reader = SquareReader(sq)
        secret = rng.randrange(7)
        for c in rng.sample(range(50), 8):
            best = max(reader.gain(c, cell) for cell in sq.open_cells())
            bonus = CENTUM_AURI_VALUE if c == CENTUM_AURI else (COLOUR_BONUS if c % 7 == secret else 0.0)
            assert reader.card_value(c, secret) == best + bonus
            assert reader.card_value(c, secret) == best + bonus  # the remembered value


def test_a_hands_value_is_the_sum_of_its_card_values():
    for sq, rng in _random_squares(100, seed=1):
        for exact in (True, False):
            reader = SquareReader(sq, exact_druid=exact)
            hand = rng.sample(range(50), 3)
            secret = rng.randrange(7)
            assert reader.hand_value(hand, secret) == pytest.approx(
                sum(SquareReader(sq, exact_druid=exact).card_value(c, secret) for c in hand))


def test_quick_gains_differ_from_exact_ones_only_on_the_druids_lines():
    differ = 0
    for sq, rng in _random_squares(150, seed=2):
        exact, quick = SquareReader(sq), SquareReader(sq, exact_druid=False)
        for cell in sq.open_cells():
            c = rng.randrange(50)
            if 0 not in CELL_XY[cell]:
                assert quick.gain(c, cell) == exact.gain(c, cell)
            elif quick.gain(c, cell) != exact.gain(c, cell):
                differ += 1
    assert differ  # the druid taking a new value is what the quick kind leaves out


def test_a_shared_reader_follows_the_squares_cards():
    sq = MagicSquare()
    sq.place(card("DE-b"), 41)  # right of the druid
    first = SquareReader.shared(sq)
    assert SquareReader.shared(sq) is first
    value = first.card_value(card("MB-b"), 0)
    sq.place(card("FM-b"), 42)
    second = SquareReader.shared(sq)
    assert second is not first
    assert second.open_cells == sq.open_cells()
    assert first.open_cells != sq.open_cells()  # the first reader kept its own copy
    assert first.card_value(card("MB-b"), 0) == value


@pytest.mark.parametrize("players", [2, 3, 4])
def test_evaluate_gives_shares_in_zero_one_that_sum_to_one(players):
    st = make("alarun", players=players, seed=players, action_cap=20)
    rng = random.Random(players)
    seen_placement = False
    while not st.is_terminal():
        values = H.evaluate(st)
        assert len(values) == players
        assert all(0.0 <= v <= 1.0 for v in values)
        assert sum(values) == pytest.approx(1.0)
        seen_placement |= st.phase == 1
        p = st.current_player
        st.apply(rng.choice(st.legal_actions(p)), p)
    assert seen_placement
    assert H.evaluate(st) == st.returns()
