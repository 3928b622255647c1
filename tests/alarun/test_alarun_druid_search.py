"""The druid's value is found by classes of values, not by trying all 49: it must still be
the first value in card order among those scoring the most (rulebook "Scoring": the druid
takes the value best for the square)."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from nemeton.games.alarun.components import CENTUM_AURI, DRUID, EMPTY
from nemeton.games.alarun.scoring import score_grid

from alarun_helpers import card, grid

# few kinds of cards, so that stretches, duplicates and shared values are common
few = st.sampled_from([0, 1, 2, 7, 8, 9, 14, 15, 21, 22, 48, CENTUM_AURI, EMPTY])
any_cell = st.integers(-1, CENTUM_AURI)


def _first_best(g):
    points = [score_grid(g, None, druid=d).potions for d in range(49)]
    return points.index(max(points)), max(points)


@settings(max_examples=300)
@given(st.lists(st.one_of(few, any_cell), min_size=24, max_size=24), st.integers(0, 24))
def test_the_druid_is_the_first_of_the_best_values(cells, pos):
    g = cells[:pos] + [DRUID] + cells[pos:]
    chosen = score_grid(g, None)
    assert (chosen.druid, chosen.potions) == _first_best(g)


@settings(max_examples=200)
@given(st.lists(few, min_size=24, max_size=24), st.integers(0, 24))
def test_the_druid_among_repeated_cards_is_the_first_of_the_best(cells, pos):
    g = cells[:pos] + [DRUID] + cells[pos:]
    chosen = score_grid(g, None)
    assert (chosen.druid, chosen.potions) == _first_best(g)


def test_a_druid_with_no_neighbour_is_the_first_card():
    g = grid(""".. .. .. .. ..
                .. .. .. .. ..
                .. .. DRUI .. ..
                .. .. .. .. ..
                .. .. .. .. DE-b""")
    assert score_grid(g, None).druid == 0


def test_a_druid_between_a_blue_and_a_red_dragon_egg_takes_the_first_dragon_egg():
    # a third distinct dragon egg makes the row's stretch 3; blue is already in it, so the
    # first in card order is the green one
    g = grid(""".. .. .. .. ..
                .. .. .. .. ..
                .. DE-b DRUI DE-r ..
                .. .. .. .. ..
                .. .. .. .. ..""")
    chosen = score_grid(g, None)
    assert chosen.potions == 6 + 1 + 1 + 1  # the row; the druid's column and the two eggs' alone
    assert chosen.druid == card("DE-g") == _first_best(g)[0]
