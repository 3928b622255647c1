"""The 12 herbs (§4.5), their scope, and their release by the sickle (§3 step 7, Q9)."""

from nemeton.games.edora.components import ACTIVE, HERB_INDEX, INACTIVE, ON_BOARD
from nemeton.games.edora.positions import (fresh, layout_herbs, legal_texts, play, put_dice,
                                           set_oracle, set_player, start_turn)

LAYOUT = ["H_FOOD", "H_MIST", "H_SICKLE", "H_KNOW", "H_AMULET", "H_DIE",
          "H_STAND", "H_LEAP", "H_RUNE", "H_FIRE", "H_VP", "H_TABLET"]


def _at(st, sanct, **kw):
    start_turn(st, 0, place_at=sanct)
    set_player(st, 0, **kw)


def _state(st, herb, p=0):
    return st.herb_state[12 * p + HERB_INDEX[herb]]


# ----- the rulebook's examples ---------------------------------------------------------------

def test_fire_pit_vp_vp_die_with_the_prestige_herb_gives_10_prestige_and_the_die():
    st = fresh(2)
    put_dice(st, "S01:A1 S02:A1")
    _at(st, "S05", reserve=[2], overview=[4], herbs=["H_VP"])
    play(st, "place die 2 on S05 space 2 (RS)", "place the mistletoe rune stone")
    assert st.pit_closed[1] == 0                      # F02
    assert st.prestige[0] == 10 and st.reserve[4] == 1


def test_gem_vp_on_an_x2_space_with_amulet_and_prestige_herbs_gives_15():
    st = fresh(2)
    _at(st, "S05", reserve=[2], herbs=["H_AMULET", "H_VP"])
    play(st, "place die 2 on S05 space 1 (AM-SUN-x2)", "put the prestige gem on the SUN row")
    assert st.prestige[0] == 15


def test_potion_p5a_with_gem_vp_amulet_and_prestige_herbs_gives_30():
    st = fresh(2)
    _at(st, "S04", reserve=[2], mistletoe=3, herbs=["H_AMULET", "H_VP"])
    play(st, "place die 2 on S04 space 2 (MI2P1)", "brew P5a: amulet action x5, row of your choice", "put the prestige gem on the MOON row")
    assert st.prestige[0] == 30


# ----- each herb --------------------------------------------------------------------------------

def test_food_herb_gives_18_provisions_and_3_prestige_on_the_provisions_choice_only():
    st = fresh(2)
    _at(st, "S01", reserve=[2], provisions=10, herbs=["H_FOOD"])
    play(st, "place die 2 on S01 space 1 (FD)", "take 12 provisions")
    assert st.provisions[0] == 8 + 18 and st.prestige[0] == 3
    st = fresh(2)
    _at(st, "S01", reserve=[2], provisions=10, overview=[], herbs=["H_FOOD"])
    play(st, "place die 2 on S01 space 1 (FD)", "take 3 dice from the overview board")
    assert st.provisions[0] == 8 and st.prestige[0] == 6       # Q18: only the 3 missing dice


def test_mistletoe_herb_gives_1_more_mistletoe_and_3_prestige():
    st = fresh(2)
    _at(st, "S04", reserve=[2], herbs=["H_MIST"])
    play(st, "place die 2 on S04 space 2 (MI2P1)", "no more potions")
    assert st.mistletoe[0] == 3 and st.prestige[0] == 3


def test_sickle_herb_adds_2_steps_to_the_sickle_action_and_potion():
    st = fresh(2)
    _at(st, "S08", reserve=[2], herbs=["H_SICKLE"])
    play(st, "place die 2 on S08 space 1 (SI2)")
    assert st.sickle[0] == 4
    st = fresh(2)
    _at(st, "S04", reserve=[2], mistletoe=0, herbs=["H_SICKLE"])
    play(st, "place die 2 on S04 space 2 (MI2P1)", "brew P2c: sickle +3")
    assert st.sickle[0] == 5


def test_knowledge_herb_adds_2_steps_to_the_action_and_potion_but_not_to_stone_rewards():
    st = fresh(2)
    _at(st, "S01", reserve=[2], herbs=["H_KNOW"])
    play(st, "place die 2 on S01 space 2 (KN2)")
    assert st.knowledge[0] == 4
    st = fresh(2)
    _at(st, "S04", reserve=[2], mistletoe=2, herbs=["H_KNOW"])
    play(st, "place die 2 on S04 space 2 (MI2P1)", "brew P4a: knowledge +3")
    assert st.knowledge[0] == 5
    st = fresh(2)
    _at(st, "S03", reserve=[2], herbs=["H_KNOW"])
    play(st, "place die 2 on S03 space 1 (SS)", "place the knowledge standing stone")
    assert st.knowledge[0] == 2                               # stone rewards: no herb


def test_amulet_herb_raises_the_multiplier_by_one():
    st = fresh(2)
    _at(st, "S05", reserve=[2], provisions=10, herbs=["H_AMULET"])
    play(st, "place die 2 on S05 space 1 (AM-SUN-x2)", "put the provisions gem on the SUN row")
    assert st.provisions[0] == 8 + 9


def test_die_herb_changes_the_value_by_up_to_2_within_1_to_6_and_pays_the_new_value():
    st = fresh(2)
    _at(st, "S04", reserve=[1, 6], provisions=20, herbs=["H_DIE"])
    texts = [t for t in legal_texts(st) if "space 1" in t]
    assert texts == ["place die 1 on S04 space 1 (SS)", "place die 1 turned to 2 on S04 space 1 (SS)",
                     "place die 1 turned to 3 on S04 space 1 (SS)", "place die 6 turned to 4 on S04 space 1 (SS)",
                     "place die 6 turned to 5 on S04 space 1 (SS)", "place die 6 on S04 space 1 (SS)"]
    play(st, "place die 6 turned to 4 on S04 space 1 (SS)")
    assert st.provisions[0] == 16 and st.value[st.board.index["S04"] * 4] == 4


def test_die_herb_lets_a_cheaper_die_make_a_destination_affordable():
    st = fresh(2)
    set_player(st, 0, at="S01", provisions=2, reserve=[3], herbs=["H_DIE"])
    assert "move to S02 (cost 1)" in legal_texts(st)


def test_standing_stone_herb_takes_one_of_the_rewards_just_gained_once_more():
    st = fresh(2)
    st.standing[0] = 0b000001          # VP already off
    _at(st, "S03", reserve=[2], provisions=10, herbs=["H_STAND"])
    play(st, "place die 2 on S03 space 1 (SS)", "place the provisions standing stone")
    assert legal_texts(st) == ["take 3 prestige once more", "take 3 provisions once more"]
    play(st, "take 3 provisions once more")
    assert st.provisions[0] == 8 + 9 and st.prestige[0] == 3


def test_leap_herb_moves_to_a_sanctuary_of_the_same_glade_for_1_provision():
    st = fresh(2)
    set_player(st, 0, at="S09", provisions=10, reserve=[2], herbs=["H_LEAP"])
    # G9 = S09, S12, S13, S16; S16 is 2 paths away (cost 2)
    assert "forest leap to S16 (cost 1)" in legal_texts(st)
    assert "forest leap to S12 (cost 1)" not in legal_texts(st)   # a plain move costs 1 too
    play(st, "forest leap to S16 (cost 1)")
    assert st.provisions[0] == 9 and st.board.names[st.figure[0]] == "S16"


def test_without_the_leap_herb_there_is_no_leap():
    st = fresh(2)
    set_player(st, 0, at="S09", provisions=10, inactive=["H_LEAP"])
    assert not any("leap" in t for t in legal_texts(st))


def test_rune_herb_counts_the_die_2_higher_on_the_rune_action():
    st = fresh(2)
    _at(st, "S05", reserve=[5], herbs=["H_RUNE"])
    play(st, "place die 5 on S05 space 2 (RS)", "place the prestige rune stone")
    assert st.prestige[0] == 14                       # 2 x 7


def test_rune_herb_does_not_apply_to_rune_potions():
    st = fresh(2)
    _at(st, "S04", reserve=[2], mistletoe=1, herbs=["H_RUNE"])
    play(st, "place die 2 on S04 space 2 (MI2P1)", "brew P3b: rune-stone action as if the die showed 3", "place the prestige rune stone")
    assert st.prestige[0] == 6                        # Q3: as if 3, no bonus


def test_fire_herb_takes_one_reward_of_each_closed_pit_once_more():
    st = fresh(2)
    put_dice(st, "S01:A1")
    _at(st, "S04", reserve=[2], provisions=10, overview=[3], herbs=["H_FIRE"])
    play(st, "place die 2 on S04 space 1 (SS)", "place the mistletoe standing stone")
    # F01 (S01, S04): FOOD + DIE, then one of them again
    assert legal_texts(st) == ["take 3 provisions once more", "take a die from the overview board once more"]
    play(st, "take 3 provisions once more")
    assert st.provisions[0] == 8 + 6


def test_tablet_herb_gains_the_two_oracle_rewards_again():
    st = fresh(2)
    set_oracle(st, ["VP", "KNOW", "FOOD", "DIE", "MIST", "SICKLE"])
    _at(st, "S02", reserve=[2], herbs=["H_TABLET"])
    play(st, "place die 2 on S02 space 1 (TB)")
    play(st, [t for t in legal_texts(st) if "slot 0)" in t][0])    # side 0: VP + KNOW
    assert st.prestige[0] == 6 and st.knowledge[0] == 2


def test_inactive_herbs_have_no_effect():
    st = fresh(2)
    _at(st, "S01", reserve=[2], provisions=10, inactive=["H_FOOD"])
    play(st, "place die 2 on S01 space 1 (FD)", "take 12 provisions")
    assert st.provisions[0] == 20 and st.prestige[0] == 0


def test_prestige_herb_makes_every_3_prestige_award_5_but_not_competitions_or_flat_potions():
    st = fresh(2)
    put_dice(st, "S04:B6")
    _at(st, "S04", reserve=[2], mistletoe=1, herbs=["H_VP"])
    play(st, "place die 2 on S04 space 2 (MI2P1)", "brew P3a: +10 prestige")
    assert st.prestige[0] == 10 and st.prestige[1] == 2


# ----- release ------------------------------------------------------------------------------------

def test_sickle_reaching_a_pair_releases_it_one_active_one_face_down_at_the_end_of_the_turn():
    st = fresh(2)
    layout_herbs(st, 0, LAYOUT)
    _at(st, "S08", reserve=[2])
    play(st, "place die 2 on S08 space 1 (SI2)")
    assert legal_texts(st) == ["activate the provisions herb (the mistletoe herb face down)", "activate the mistletoe herb (the provisions herb face down)"]
    play(st, "activate the mistletoe herb (the provisions herb face down)")
    assert _state(st, "H_MIST") == ACTIVE and _state(st, "H_FOOD") == INACTIVE
    assert st.current_player == 1


def test_passing_several_pairs_releases_each_split_one_and_one():
    st = fresh(2)
    layout_herbs(st, 0, ["H_FOOD", "H_MIST", "H_KNOW", "H_AMULET", "H_DIE", "H_STAND",
                         "H_SICKLE", "H_LEAP", "H_RUNE", "H_FIRE", "H_VP", "H_TABLET"])
    _at(st, "S12", reserve=[2], sickle=3)
    st.sickle[0] = 5
    play(st, "place die 2 on S12 space 1 (SI3)")        # 5 + 3 = 8: pairs at 5 and 8 both released
    assert st.sickle[0] == 8
    seen = []
    while st.current_player == 0:
        texts = legal_texts(st)
        seen.append(texts)
        play(st, texts[0])
    assert len(seen) == 2
    assert [_state(st, h) for h in ("H_KNOW", "H_AMULET")].count(ACTIVE) == 1
    assert [_state(st, h) for h in ("H_DIE", "H_STAND")].count(INACTIVE) == 1
    assert _state(st, "H_SICKLE") == ON_BOARD


def test_a_herb_released_this_turn_does_not_affect_this_turn():
    st = fresh(2)
    layout_herbs(st, 0, ["H_KNOW", "H_MIST"] + LAYOUT[2:3] + ["H_FOOD"] + LAYOUT[4:])
    _at(st, "S08", reserve=[2])
    play(st, "place die 2 on S08 space 1 (SI2)", "activate the knowledge herb (the mistletoe herb face down)")
    assert st.knowledge[0] == 0


def test_a_pair_emptied_by_potions_releases_nothing_and_a_single_survivor_goes_active():
    st = fresh(2)
    layout_herbs(st, 0, LAYOUT)
    _at(st, "S01", reserve=[2], mistletoe=6)
    play(st, "place die 2 on S01 space 2 (KN2)")
    st.herb_state[HERB_INDEX["H_FOOD"]] = ACTIVE        # taken by P2a earlier
    st.herb_state[HERB_INDEX["H_SICKLE"]] = ACTIVE      # pair 2 emptied by P4c
    st.herb_state[HERB_INDEX["H_KNOW"]] = ACTIVE
    set_player(st, 0, sickle=0)
    st.advance_sickle(0, 5)
    st.release_herbs(0)
    assert _state(st, "H_MIST") == ACTIVE             # the single survivor
    assert st.stack[-1][0] != 17                       # no decision for the emptied pair
    assert st.pairs_released[0] == 2
