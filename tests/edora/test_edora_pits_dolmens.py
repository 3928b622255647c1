"""Fire pits (§3 step 5, E2 summary option) and dolmen links (§3 step 6, Q8)."""

import pytest

from nemeton.games.edora.positions import fresh, play, put_dice, set_player, start_turn

REFERENCE = ["A", "B", "C", "A", "D", "E", "B", "F", "C", "D", "F", "E"]


def _at(st, sanct, **kw):
    start_turn(st, 0, place_at=sanct)
    set_player(st, 0, **kw)


def _pit(st, name):
    return st.board.pit_names.index(name)


def _reference_ring(st):
    st.ring_colours = list(REFERENCE)
    st._index_colours()


# ----- fire pits ------------------------------------------------------------------------------

def test_enclosing_a_fire_pit_gives_its_printed_rewards_and_covers_it():
    st = fresh(2)
    put_dice(st, "S01:A1")
    _at(st, "S04", reserve=[2], provisions=10, overview=[5])
    play(st, "place die 2 on S04 space 2 (MI2P1)", "no more potions")
    assert st.pit_closed[_pit(st, "F01")] == 0
    assert st.provisions[0] == 8 + 3 and st.reserve[5] == 1 and st.prestige[0] == 0


def test_several_fire_pits_close_at_once():
    st = fresh(2)
    put_dice(st, "S01:A1 S08:A1 S11:A1")
    _at(st, "S04", reserve=[2], provisions=10, overview=[5])
    play(st, "place die 2 on S04 space 2 (MI2P1)", "no more potions")
    assert st.pit_closed[_pit(st, "F01")] == 0 and st.pit_closed[_pit(st, "F05")] == 0
    # F01 FOOD+DIE, F05 KNOW+MIST+SICKLE
    assert st.provisions[0] == 11 and st.reserve[5] == 1 and st.knowledge[0] == 1
    assert st.mistletoe[0] == 2 + 1 and st.sickle[0] == 1


def test_a_covered_fire_pit_gives_nothing_to_a_later_encloser():
    st = fresh(2)
    put_dice(st, "S01:A1 S01:B1 S04:B1")
    st.pit_closed[_pit(st, "F01")] = 1
    _at(st, "S04", reserve=[2], provisions=10)
    play(st, "place die 2 on S04 space 2 (MI2P1)", "no more potions")
    assert st.provisions[0] == 8 and st.pit_closed[_pit(st, "F01")] == 1


def test_opponent_dice_around_a_pit_do_not_count():
    st = fresh(2)
    put_dice(st, "S01:B1")
    _at(st, "S04", reserve=[2], provisions=10)
    play(st, "place die 2 on S04 space 2 (MI2P1)", "no more potions")
    assert st.pit_closed[_pit(st, "F01")] == -1


def test_summary_fire_pit_scoring_adds_2_per_die_and_8_6_4_for_the_first_three():
    st = fresh(2, fire_pit_scoring="summary")
    put_dice(st, "S01:A1 S08:A1 S11:A1")
    _at(st, "S04", reserve=[2], provisions=10, overview=[5])
    play(st, "place die 2 on S04 space 2 (MI2P1)", "no more potions")
    # F01: 2 dice x2 + 8; F05: 3 dice x2 + 6 (pits in board order)
    assert st.prestige[0] == (4 + 8) + (6 + 6)
    st.closures = 3
    put_dice(st, "S18:A1")
    start_turn(st, 0, place_at="S22")
    set_player(st, 0, reserve=[2], overview=[4])
    play(st, "place die 2 on S22 space 2 (MI2P1)", "no more potions")
    assert st.prestige[0] == 24 + 4          # F13: 2 dice x2, no bonus after the third


# ----- dolmens ---------------------------------------------------------------------------------

def test_linking_two_dolmens_gives_2_per_sanctuary_the_dolmens_and_the_first_beige_bonus_8():
    st = fresh(2)
    _reference_ring(st)
    put_dice(st, "S01:A1 S02:A1 S03:A1")
    _at(st, "S07", reserve=[2], overview=[3])
    play(st, "place die 2 on S07 space 2 (KN2)")
    # colour A joins S01 and S07 along S01-S02-S03-S07: 4 sanctuaries
    assert st.dolmen_owner[0] == 0 and st.dolmens[0] == 2 and st.beige_dolmens[0] == 1
    assert st.prestige[0] == 8 + 8 and st.links == 1


@pytest.mark.parametrize("links,bonus,beige", [(1, 6, 1), (2, 4, 1), (3, 0, 0)])
def test_second_third_links_get_6_and_4_and_later_links_no_beige(links, bonus, beige):
    st = fresh(2)
    _reference_ring(st)
    st.links = links
    put_dice(st, "S01:A1 S02:A1 S03:A1")
    _at(st, "S07", reserve=[2], overview=[3])
    play(st, "place die 2 on S07 space 2 (KN2)")
    assert st.prestige[0] == 8 + bonus and st.beige_dolmens[0] == beige


@pytest.mark.parametrize("dice,length", [
    ("S01:A1 S05:A1 S06:A1 S10:A1", 5),                   # only the long way round
    ("S01:A1 S05:A1 S06:A1 S10:A1 S02:A1 S03:A1", 4),     # Q8: the shortest occupied path counts
])
def test_link_prestige_counts_the_shortest_fully_occupied_path(dice, length):
    st = fresh(2)
    _reference_ring(st)
    put_dice(st, dice)
    _at(st, "S07", reserve=[2], overview=[3])
    play(st, "place die 2 on S07 space 2 (KN2)")
    assert st.dolmen_owner[0] == 0 and st.prestige[0] == 2 * length + 8


def test_several_links_in_one_turn():
    st = fresh(2)
    _reference_ring(st)
    # place at S02 completing A (S01-S02-S03-S07) and B (S02-S03-S07-S14-S21-S24)
    put_dice(st, "S01:A1 S03:A1 S07:A1 S14:A1 S21:A1 S24:A1")
    _at(st, "S02", reserve=[2], overview=[3])
    play(st, "place die 2 on S02 space 2 (FD)", "take 12 provisions")
    assert st.dolmen_owner[0] == 0 and st.dolmen_owner[1] == 0
    assert st.dolmens[0] == 4 and st.beige_dolmens[0] == 2
    assert st.prestige[0] == 2 * 4 + 2 * 6 + 8 + 6


def test_dice_of_another_colour_break_a_link():
    st = fresh(2)
    _reference_ring(st)
    put_dice(st, "S01:A1 S02:B1 S03:A1")
    _at(st, "S07", reserve=[2])
    play(st, "place die 2 on S07 space 2 (KN2)")
    assert st.dolmen_owner[0] == -1


def test_random_dolmen_layouts_keep_two_other_dolmens_between_each_pair():
    from nemeton.engine import make
    for seed in range(20):
        st = make("edora", players=2, seed=seed)
        ring = st.ring_colours
        for c in set(ring):
            a, b = [k for k, x in enumerate(ring) if x == c]
            assert min(b - a, 12 - (b - a)) >= 3
