"""Tablet conditions (§4.7) and the five final scoring steps in order (§6), with the tie-break."""

import pytest

from nemeton.games.edora.components import ACTIVE, TABLETS
from nemeton.games.edora.positions import fresh, put_dice, put_stones, set_player
from nemeton.games.edora.scoring import amulet_points, final_scoring, tablet_met


def _met(st, tablet, p=0):
    return tablet_met(st, p, TABLETS.index(tablet))


# ----- tablets ------------------------------------------------------------------------------------

def _stones(st, n):
    st.standing[0] = (1 << n) - 1


def _runes(st, n):
    st.runes[0] = (1 << n) - 1


def _herbs(st, n):
    for h in range(n):
        st.herb_state[h] = ACTIVE


def _gems(st, n):
    for g in range(n):
        st.amulet[g] = g
        st.gem_mask[0] |= 1 << g


def _potions(st, n):
    for k in range(n):
        st.potion_owner[k] = 0


def _tablets(st, n):
    st.tablets[0] = [0] * n


CASES = [
    ("T1", lambda st: _stones(st, 4), lambda st: _stones(st, 3)),
    ("T2", lambda st: put_dice(st, "S01:A1 S07:A1 S24:A1"), lambda st: put_dice(st, "S01:A1 S07:A1 S23:A1")),
    ("T3", lambda st: put_dice(st, "S02:A1 S09:A2 S16:A3 S23:A4"), lambda st: put_dice(st, "S02:A1 S09:A2 S16:A3 S24:A4")),
    ("T4", lambda st: put_dice(st, "S01:A3 S02:A3 S03:A3"), lambda st: put_dice(st, "S01:A3 S02:A3 S03:A4 S06:A3")),
    ("T5", lambda st: (setattr(st, "dolmens", [4, 0]), setattr(st, "beige_dolmens", [1, 0])),
     lambda st: setattr(st, "dolmens", [4, 0])),
    ("T6", lambda st: _runes(st, 4), lambda st: _runes(st, 3)),
    ("T7", lambda st: set_player(st, 0, knowledge=6), lambda st: set_player(st, 0, knowledge=5)),
    ("T8", lambda st: _tablets(st, 4), lambda st: _tablets(st, 3)),
    ("T9", lambda st: _herbs(st, 6), lambda st: _herbs(st, 5)),
    ("T10", lambda st: put_dice(st, "S02:A1 S06:A1 S14:A1 S17:A1 S19:A1 S23:A1"),
     lambda st: put_dice(st, "S02:A1 S06:A1 S14:A1 S17:A1 S19:A1 S23:B1 S09:A1")),
    ("T11", lambda st: _gems(st, 5), lambda st: _gems(st, 4)),
    ("T12", lambda st: put_dice(st, "S01:A1 S02:A1 S03:A1 S08:A1 S09:A1 S14:A1"),
     lambda st: put_dice(st, "S01:A1 S04:A1 S05:A1 S02:A1 S03:A1 S08:A1 S09:A1")),
    ("T13", lambda st: put_dice(st, "S02:A1 S14:A1 S19:A1 S08:A1"), lambda st: put_dice(st, "S02:A1 S06:A1 S14:A1 S01:A1")),
    ("T14", lambda st: _potions(st, 4), lambda st: _potions(st, 3)),
    ("T15", lambda st: put_dice(st, "S01:A5 S01:B4 S02:A5 S02:B4 S03:A5 S03:B4 S04:A5 S04:B4 S05:A5 S05:B4"),
     lambda st: put_dice(st, "S01:A5 S01:B4 S02:A5 S02:B4 S03:A5 S03:B4 S04:A5 S04:B4 S05:A4 S05:B5 S06:A6")),
]


@pytest.mark.parametrize("tablet,meet,miss", CASES, ids=[c[0] for c in CASES])
def test_tablet_condition(tablet, meet, miss):
    st = fresh(2)
    meet(st)
    assert _met(st, tablet)
    st = fresh(2)
    miss(st)
    assert not _met(st, tablet)


def test_t15_ties_are_broken_by_knowledge():
    st = fresh(2)
    put_dice(st, "S01:A5 S01:B5 S02:A5 S02:B5 S03:A5 S03:B5 S04:A5 S04:B5 S05:A5 S05:B5")
    set_player(st, 0, knowledge=3)
    assert _met(st, "T15") and not _met(st, "T15", p=1)


def test_each_met_tablet_scores_10_duplicates_separately():
    st = fresh(2)
    _stones(st, 4)
    st.tablets[0] = [TABLETS.index("T1"), TABLETS.index("T1"), TABLETS.index("T6")]
    st.tablets[1] = []
    f = final_scoring(st)[0]
    assert f["tablets"] == 20 and f["tablets_met"] == ["T1", "T1"]


# ----- final scoring ----------------------------------------------------------------------------

def _spread(st, spec_dice, stones):
    put_dice(st, spec_dice)
    put_stones(st, stones)


@pytest.mark.parametrize("knowledge,dice,stones,expected", [
    (6, 7, 4, 22),      # [R] 7 dice + 4 stones on the 7th space
    (14, 10, 7, 68),    # [R] 10 + 7 at the end
    (1, 4, 3, 0),       # [R] 4 + 3 on the 2nd space
])
def test_sanctuary_scoring_rulebook_examples(knowledge, dice, stones, expected):
    st = fresh(2)
    names = st.board.names
    put_dice(st, " ".join(f"{names[s]}:A3" for s in range(dice)))
    for k in range(stones):
        st.standing_at[k] += 1
    set_player(st, 0, knowledge=knowledge)
    assert final_scoring(st)[0]["sanctuaries"] == expected


def test_only_the_highest_die_scores_and_its_owner_takes_every_stone_there():
    st = fresh(2)
    put_dice(st, "S01:A2 S01:B5 S02:A4")
    put_stones(st, "S01:2")
    st.rune_at[0] += 1
    set_player(st, 0, knowledge=3)
    set_player(st, 1, knowledge=3)
    f = final_scoring(st)
    assert f[1]["collected"] == 1 + 3 and f[0]["collected"] == 1


def test_sanctuary_ties_keep_the_die_of_the_player_ahead_on_knowledge():
    st = fresh(2)
    put_dice(st, "S01:A5 S01:B5")
    set_player(st, 0, knowledge=4)
    set_player(st, 1, knowledge=3)
    assert final_scoring(st)[0]["collected"] == 1 and final_scoring(st)[1]["collected"] == 0


def test_leftovers_count_full_sixes_of_provisions_mistletoe_and_reserve_dice_only():
    st = fresh(2)
    set_player(st, 0, provisions=17, mistletoe=3, reserve=[1, 6], overview=[2, 2, 2])
    assert final_scoring(st)[0]["leftovers"] == 2 + 3 + 2


@pytest.mark.parametrize("pos,points", [(0, 0), (4, 0), (5, 5), (8, 5), (9, 10), (13, 15), (16, 15), (17, 20), (18, 20)])
def test_sickle_final_score_bands(pos, points):
    st = fresh(2)
    st.sickle[0] = pos
    assert final_scoring(st)[0]["sickle"] == points


def test_amulet_scores_10_per_full_row_and_20_for_all_three_left_slots():
    st = fresh(2)
    st.amulet[0:6] = [0, 1, 2, -1, 3, -1]
    assert amulet_points(st, 0) == 10 + 20
    st.amulet[0:6] = [0, 1, 2, 3, 4, 5]
    assert amulet_points(st, 0) == 50
    st.amulet[0:6] = [0, 1, -1, -1, -1, -1]
    assert amulet_points(st, 0) == 10


def test_final_total_adds_the_five_steps_to_the_prestige_track():
    st = fresh(2)
    set_player(st, 0, prestige=40, provisions=12, mistletoe=1, reserve=[], knowledge=3, sickle=5)
    st.amulet[0:2] = [0, 1]
    put_dice(st, "S01:A3")
    f = final_scoring(st)[0]
    assert f["total"] == 40 + 3 + 5 + 0 + 10 + 1
    assert f["total"] == f["prestige"] + f["leftovers"] + f["sickle"] + f["tablets"] + f["amulet"] + f["sanctuaries"]


def test_final_tie_goes_to_the_player_behind_on_knowledge_then_lower_in_the_stack():
    st = fresh(2)
    st.final = [{"total": 50}, {"total": 50}]
    st.over = True
    set_player(st, 0, knowledge=5)
    set_player(st, 1, knowledge=7)
    assert st.winners() == [0]
    set_player(st, 1, knowledge=5)
    st.knowledge_stack = [9, 4]         # P1 lower in the stack
    assert st.winners() == [1]


def test_tablets_are_scored_with_all_dice_still_on_the_board():
    # T15 needs opponents' dice that step 5 would remove
    st = fresh(2)
    put_dice(st, "S01:A5 S01:B4 S02:A5 S02:B4 S03:A5 S03:B4 S04:A5 S04:B4 S05:A5 S05:B4")
    st.tablets[0] = [TABLETS.index("T15")]
    assert final_scoring(st)[0]["tablets"] == 10
