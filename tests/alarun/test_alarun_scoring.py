"""Scoring (rulebook "Scoring", ruling A8): potions, duplicates, the Centum auri, the druid,
the colour bonus, and the rulebook's scoring example."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from nemeton.games.alarun.components import CENTUM_AURI, COLOURS, DRUID, EMPTY
from nemeton.games.alarun.scoring import POINTS, line_strength, score_grid

from alarun_helpers import card, cards, grid

RED = COLOURS.index("red")
BLUE = COLOURS.index("blue")

# Lauren's square (rows A-E top to bottom, columns F-J left to right), built to match every
# row and column description of the rulebook's example.
LAUREN = grid("""
    FM-y FM-w FM-p MB-b FM-o
    DE-y DE-w DE-p DRUI DE-r
    CENT MB-w MB-p MB-b MB-r
    CA-y PF-w MA-p MY-b FM-r
    PF-y PF-g PF-p CA-b CA-r
""")


def test_rulebook_example_every_line_and_total_104():
    b = score_grid(LAUREN, RED)
    assert b.druid == card("DE-b")  # the engine finds Lauren's choice: a blue dragon egg
    assert b.rows == (6, 15, 10, 1, 6)        # A-E
    assert b.columns == (3, 10, 15, 10, 10)   # F-J
    assert b.potions == 86
    assert b.centum_auri == 10
    assert b.colour_bonus == 8                # 4 red cards
    assert b.total == 104


def test_rulebook_example_square_respects_two_copies_per_card():
    counts = {c: LAUREN.count(c) for c in set(LAUREN)}
    assert counts[DRUID] == 1 and counts[CENTUM_AURI] == 1
    assert max(k for c, k in counts.items() if c < CENTUM_AURI) == 2


def test_rulebook_example_with_the_druid_imposed():
    assert score_grid(LAUREN, RED, druid=card("DE-b")).total == 104
    # as a blue moon berry the druid breaks row B's dragon eggs: 3 on its left → row B scores 6
    other = score_grid(LAUREN, RED, druid=card("MB-b"))
    assert other.rows[1] == 6 and other.total < 104


def test_potion_table_is_1_3_6_10_15():
    assert POINTS[1:] == (1, 3, 6, 10, 15)
    assert line_strength(cards("DE-b .. .. .. ..")) == 1
    assert line_strength(cards("DE-b DE-r .. .. ..")) == 2
    assert line_strength(cards("DE-b MB-b FM-b CA-b MA-b")) == 5


def test_stretch_shares_colour_or_ingredient_not_a_mix():
    # blue, blue then a red of the same ingredient as the second: two stretches of 2, not 3
    assert line_strength(cards("DE-b MB-b MB-r CA-y MY-g")) == 2


def test_identical_duplicate_neither_breaks_nor_strengthens():
    assert line_strength(cards("MB-b MB-b DE-b CA-b MY-g")) == 3   # 4 blue, 3 distinct
    assert line_strength(cards("MB-b DE-b MB-b CA-b MY-g")) == 3   # apart, still one stretch
    assert line_strength(cards("MB-b MB-b MY-g CA-r PF-o")) == 1


def test_centum_auri_splits_a_line():
    assert line_strength(cards("CA-y FM-y CENT PF-y DE-y")) == 2
    assert line_strength(cards("CA-y FM-y PF-y CENT DE-y")) == 3


def test_only_the_strongest_stretch_of_a_line_scores():
    b = score_grid(LAUREN, RED)
    assert b.rows[4] == 6  # row E: 3 phoenix feathers (6) and 2 calendula (3): 6, not 9


def test_druid_is_chosen_to_maximise_potion_points():
    square = grid("""
        MY-g MY-o DE-w MA-g MB-w
        CA-r CA-o PF-g FM-g CA-w
        FM-b FM-r DRUI FM-w FM-o
        MB-g PF-o MA-w MB-o DE-y
        MA-r DE-o FM-y PF-r MY-r
    """)
    b = score_grid(square, None)
    # row 3 needs a fungi magica of a colour not in the row (green, pink or yellow) for 15;
    # green also joins the green phoenix feathers above it (3 more in column 3)
    assert b.druid == card("FM-g")
    assert b.rows[2] == 15 and b.columns[2] == 3
    assert score_grid(square, None, druid=card("FM-p")).potions == b.potions - 2


def test_druid_never_earns_the_colour_bonus():
    square = grid("""
        DE-r DE-g DE-o DE-p DE-y
        MB-g MB-o MB-p MB-y MB-w
        CA-g CA-o DRUI CA-p CA-w
        PF-g PF-o PF-p PF-y PF-w
        MA-g MA-o MA-p MA-y MA-w
    """)
    b = score_grid(square, RED, druid=card("CA-r"))
    assert b.colour_bonus == 2  # only DE-r; the druid counts as red but earns nothing


def test_colour_bonus_two_per_card_of_the_secret_colour():
    assert score_grid(LAUREN, BLUE).colour_bonus == 2 * 4  # column I: 4 blue cards and the druid, which earns nothing


# ----- properties ------------------------------------------------------------------------
coloured = st.integers(0, 48)
cell = st.one_of(coloured, st.just(CENTUM_AURI))


@given(st.lists(cell, min_size=5, max_size=5))
def test_line_strength_is_symmetric_and_bounded(line):
    s = line_strength(line)
    assert s == line_strength(line[::-1])
    assert (1 if any(c < CENTUM_AURI for c in line) else 0) <= s <= len(set(c for c in line if c < CENTUM_AURI))


@given(st.lists(coloured, min_size=5, max_size=5), st.integers(0, 4))
def test_centum_auri_scores_the_better_part(line, pos):
    split = line[:pos] + [CENTUM_AURI] + line[pos + 1:]
    assert line_strength(split) == max(line_strength(line[:pos] or [EMPTY]),
                                       line_strength(line[pos + 1:] or [EMPTY]))


@given(st.lists(cell, min_size=4, max_size=4), st.integers(0, 3))
def test_an_identical_copy_beside_a_card_changes_nothing(line, pos):
    doubled = line[:pos + 1] + [line[pos]] + line[pos + 1:]
    assert line_strength(doubled) == line_strength(line)


@settings(max_examples=150)
@given(st.lists(cell, min_size=24, max_size=24), st.integers(0, 24))
def test_best_druid_is_the_best_of_all_49_values(cells, pos):
    g = cells[:pos] + [DRUID] + cells[pos:]
    chosen = score_grid(g, None)
    brute = max(score_grid(g, None, druid=d).potions for d in range(49))
    assert chosen.potions == brute
    assert score_grid(g, None, druid=chosen.druid).potions == brute
