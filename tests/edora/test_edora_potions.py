"""The 18 potions (§4.6; Q1 cost of P3a, Q2 own dice only, Q3 rune potions, Q11)."""

from nemeton.games.edora.components import HERB_INDEX, POTION_COST, POTION_EFFECTS, POTIONS
from nemeton.games.edora.positions import (fresh, layout_herbs, legal_texts, play, put_dice,
                                           set_oracle, set_player, start_turn)


def _brew(st, potion, **kw):
    """P0 at S04 (2p space 2 = MI2P1: +2 mistletoe, brew <= 1) with exactly the cost."""
    cost = int(potion[1])
    start_turn(st, 0, place_at="S04")
    set_player(st, 0, reserve=[2], mistletoe=cost - 2 if cost >= 2 else 0, **kw)
    play(st, "place die 2 on S04 space 2 (MI2P1)", f"brew {potion}: {POTION_EFFECTS[potion]}")


def test_potion_costs_run_1_to_6_three_of_each_with_p3a_costing_3():
    assert [POTION_COST[POTIONS.index(p)] for p in POTIONS] == [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6]
    assert POTION_COST[POTIONS.index("P3a")] == 3


def test_p1a_is_a_standing_stone_action_at_this_sanctuary():
    st = fresh(2)
    _brew(st, "P1a")
    play(st, "place the prestige standing stone")
    assert st.prestige[0] == 6 and st.standing_at[st.board.index["S04"]] == 1


def test_p1b_turns_an_inactive_herb_face_up():
    st = fresh(2)
    _brew(st, "P1b", inactive=["H_VP", "H_DIE"])
    assert legal_texts(st) == ["turn the die herb face up", "turn the prestige herb face up"]
    play(st, "turn the prestige herb face up")
    assert st.herb_active(0, HERB_INDEX["H_VP"])


def test_p1c_sets_an_own_die_to_6_and_runs_a_new_competition_there():
    st = fresh(2)
    put_dice(st, "S05:A2 S05:B4")
    _brew(st, "P1c")
    # Q2: own dice only (the one just placed too), never the opponent's
    assert legal_texts(st) == ["set your die 2 on S04 space 2 to 6", "set your die 2 on S05 space 1 to 6"]
    play(st, "set your die 2 on S05 space 1 to 6")
    assert st.value[st.board.index["S05"] * 4] == 6 and st.prestige[0] == 2


def test_p2a_takes_an_unreleased_herb_active_and_its_partner_later_goes_active_alone():
    st = fresh(2)
    layout_herbs(st, 0, ["H_FOOD", "H_MIST", "H_SICKLE", "H_KNOW", "H_AMULET", "H_DIE",
                         "H_STAND", "H_LEAP", "H_RUNE", "H_FIRE", "H_VP", "H_TABLET"])
    _brew(st, "P2a")
    assert len(legal_texts(st)) == 12
    play(st, "take the mistletoe herb from the sickle track (face up)")
    assert st.herb_active(0, HERB_INDEX["H_MIST"])
    st.advance_sickle(0, 2)
    st.release_herbs(0)
    assert st.herb_active(0, HERB_INDEX["H_FOOD"])


def test_p2b_gives_one_die_and_6_provisions():
    st = fresh(2)
    _brew(st, "P2b", provisions=10, overview=[5])
    assert st.provisions[0] == 14 and st.reserve[5] == 1


def test_p2c_advances_the_sickle_3():
    st = fresh(2)
    _brew(st, "P2c")
    assert st.sickle[0] == 3


def test_p3a_gives_10_prestige():
    st = fresh(2)
    _brew(st, "P3a")
    assert st.prestige[0] == 10


def test_p3b_is_a_rune_action_as_if_the_die_showed_3():
    st = fresh(2)
    _brew(st, "P3b")
    play(st, "place the mistletoe rune stone")
    assert st.mistletoe[0] == 2 and st.rune_at[st.board.index["S04"]] == 1


def test_p3c_is_a_tablet_action():
    st = fresh(2)
    set_oracle(st, ["VP", "KNOW", "FOOD", "DIE", "MIST", "SICKLE"])
    _brew(st, "P3c")
    play(st, [t for t in legal_texts(st) if "slot 0)" in t][0])
    assert len(st.tablets[0]) == 2 and st.prestige[0] == 3 and st.knowledge[0] == 1


def test_p4a_advances_knowledge_3():
    st = fresh(2)
    _brew(st, "P4a")
    assert st.knowledge[0] == 3


def test_p4b_gives_2_dice_6_provisions_and_5_prestige():
    st = fresh(2)
    _brew(st, "P4b", provisions=10, overview=[6, 6])
    assert st.reserve[6] == 2 and st.provisions[0] == 14 and st.prestige[0] == 5


def test_p4c_takes_two_unreleased_herbs_active():
    st = fresh(2)
    _brew(st, "P4c")
    play(st, "take the prestige herb from the sickle track (face up)", "take the die herb from the sickle track (face up)")
    assert st.herb_active(0, HERB_INDEX["H_VP"]) and st.herb_active(0, HERB_INDEX["H_DIE"])


def test_p5a_is_an_amulet_action_x5_in_a_row_of_your_choice():
    st = fresh(2)
    _brew(st, "P5a", provisions=2)
    assert "put the provisions gem on the STAR row" in legal_texts(st) and len(legal_texts(st)) == 18
    play(st, "put the provisions gem on the STAR row")
    assert st.provisions[0] == 15 and st.amulet[4] == 2


def test_p5b_is_a_rune_action_as_if_the_die_showed_6():
    st = fresh(2)
    _brew(st, "P5b")
    play(st, "place the prestige rune stone")
    assert st.prestige[0] == 12


def test_p5c_is_two_standing_stone_actions_each_fully_resolved():
    st = fresh(2)
    _brew(st, "P5c", herbs=["H_STAND"])
    play(st, "place the prestige standing stone", "place the provisions standing stone")
    # first: VP + VP (6), herb repeats VP automatically (single reward) -> 9;
    # second: FOOD + VP + FOOD, then the herb asks which to repeat
    assert st.prestige[0] == 9 + 3
    assert legal_texts(st) == ["take 3 prestige once more", "take 3 provisions once more"]


def test_p6a_sets_up_to_3_own_dice_to_6_with_new_competitions_and_may_stop():
    st = fresh(2)
    put_dice(st, "S05:A2 S05:B4 S10:A1 S10:B5 S11:A3")
    _brew(st, "P6a")
    assert "no more dice to raise" in legal_texts(st)
    play(st, "set your die 2 on S05 space 1 to 6", "set your die 1 on S10 space 1 to 6",
         "no more dice to raise")
    assert st.prestige[0] == 4 and st.current_player == 1


def test_p6b_is_two_tablet_actions_refilling_between():
    st = fresh(2)
    top = st.deck[-1]
    _brew(st, "P6b")
    play(st, legal_texts(st)[0])
    assert st.oracle_slots[0] == top
    play(st, legal_texts(st)[0])
    assert len(st.tablets[0]) == 3


def test_p6c_gives_25_prestige():
    st = fresh(2)
    _brew(st, "P6c")
    assert st.prestige[0] == 25


def test_a_potion_with_no_possible_effect_may_still_be_brewed():
    st = fresh(2)
    _brew(st, "P1b")          # no inactive herb
    assert st.current_player == 1 and st.potion_owner[POTIONS.index("P1b")] == 0
