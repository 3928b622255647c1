"""The action phase of a round: swap, pass, swap all and pass, the 2-player flip, the first
pass and the one-more-action rule (A4, A5), the centre between rounds (A6), the cap (A9)."""

from __future__ import annotations

import random

from nemeton.engine import IllegalActionError, random_playout

import pytest

from alarun_helpers import act, cards, new, pass_round, place_all


def test_swap_exchanges_one_hand_card_with_one_face_up_centre_card():
    st = new(3)
    st.hands[0] = sorted(cards("MA-r DE-b FM-y"))
    st.centre = cards("MY-b CA-g PF-o")
    act(st, "swap mandrake:red <-> myrrh:blue")
    assert st.hands[0] == sorted(cards("MY-b DE-b FM-y"))
    assert st.centre == cards("MA-r CA-g PF-o")
    assert st.current_player == 1  # the turn is over; clockwise to the next seat


def test_the_centum_auri_is_swapped_like_any_ingredient():
    st = new(3)
    st.hands[0] = sorted(cards("CENT DE-b FM-y"))
    st.centre = cards("MY-b CA-g PF-o")
    act(st, "swap centum_auri <-> calendula:green")
    assert st.centre == cards("MY-b CENT PF-o")
    assert any(str(a).endswith("<-> centum_auri") for a in st.legal_actions())  # seat 1 may take it


def test_swapping_two_identical_cards_is_not_offered():
    st = new(3)
    st.hands[0] = sorted(cards("MA-r DE-b FM-y"))
    st.centre = cards("MA-r CA-g PF-o")
    texts = [str(a) for a in st.legal_actions()]
    assert "swap mandrake:red <-> mandrake:red" not in texts
    assert len([t for t in texts if t.startswith("swap ") and "<->" in t]) == 3 * 3 - 1


def test_players_keep_acting_in_turn_until_the_first_pass():
    st = new(3)
    for expected in (0, 1, 2, 0, 1, 2, 0):
        assert st.current_player == expected
        st.apply(st.legal_actions()[0])  # a swap
    assert st.phase == 0 and st.first_passer == -1


def test_first_pass_gives_each_other_player_exactly_one_more_action():
    st = new(4)
    st.apply(st.legal_actions()[0])   # seat 0 swaps
    act(st, "pass")                   # seat 1 passes first
    assert st.first_passer == 1
    st.apply(st.legal_actions()[0])   # seat 2: one more action (a swap)
    st.apply(st.legal_actions()[0])   # seat 3: one more action
    assert st.phase == 0 and st.current_player == 0
    st.apply(st.legal_actions()[0])   # seat 0: one more action
    assert st.phase == 1              # the round ends: placement; seat 1 never acts again
    assert st.actions_taken == 5


def test_a_player_who_passed_first_acts_no_more_that_round():
    st = new(3)
    act(st, "pass")
    act(st, "pass")
    with pytest.raises(IllegalActionError):
        st.apply(st.legal_actions(2)[0], 0)
    act(st, "pass")
    assert st.phase == 1


def test_swap_all_and_pass_swaps_the_whole_hand_and_is_a_pass():
    st = new(3)
    st.hands[0] = sorted(cards("MA-r DE-b FM-y"))
    st.centre = cards("MY-b CA-g PF-o")
    act(st, "swap all and pass")
    assert st.hands[0] == sorted(cards("MY-b CA-g PF-o"))
    assert sorted(st.centre) == sorted(cards("MA-r DE-b FM-y"))
    assert st.first_passer == 0 and st.extra_left == 2


def test_first_passer_holds_alarun_and_starts_the_next_round():
    st = new(3)
    st.apply(st.legal_actions()[0])   # seat 0 swaps
    act(st, "pass")                   # seat 1 first pass
    act(st, "pass")
    act(st, "pass")
    assert st.view(None)["alarun"] == 1
    place_all(st)
    assert st.round == 2 and st.start_player == 1 and st.current_player == 1
    assert st.view(None)["alarun"] is None  # Alarún is back on the stack


@pytest.mark.parametrize("players", [3, 4])
def test_flip_exists_only_with_two_players(players):
    st = new(players)
    assert not any(a.kind == "flip" for a in st.legal_actions())


def test_two_player_flip_once_per_round_and_not_a_pass():
    st = new(2)
    up, down = st.centre[:], st.face_down[:]
    act(st, "flip: discard the face-up centre, turn the face-down cards up")
    assert st.centre == down and st.face_down == [] and st.discard == up
    assert st.first_passer == -1  # not a pass
    assert not any(a.kind == "flip" for a in st.legal_actions())  # seat 1: none left this round
    act(st, "pass")
    act(st, "pass")
    place_all(st)
    assert len(st.face_down) == 3 and any(a.kind == "flip" for a in st.legal_actions())


def test_four_players_keep_the_centre_between_rounds():
    st = new(4)
    st.apply(st.legal_actions()[0])
    pass_round(st)
    centre = st.centre[:]
    place_all(st)
    assert st.round == 2 and st.centre == centre and st.discard == []


@pytest.mark.parametrize("players", [2, 3])
def test_two_and_three_players_discard_the_centre_and_deal_a_new_one(players):
    st = new(players)
    old = st.centre + st.face_down
    pass_round(st)
    place_all(st)
    assert st.round == 2
    assert st.discard == old  # the open discard pile (2 players: the face-down cards too, face up)
    assert len(st.centre) == 3 and len(st.face_down) == (3 if players == 2 else 0)


def test_action_cap_leaves_only_pass_after_that_many_actions_a9():
    st = new(3, action_cap=4)
    for _ in range(4):
        st.apply(st.legal_actions()[0])  # four swaps
    assert [str(a) for a in st.legal_actions()] == ["pass"]
    act(st, "pass")
    assert [str(a) for a in st.legal_actions()] == ["pass"]  # the one more action too


def test_without_a_cap_random_play_still_terminates_a9():
    for seed in range(3):
        st = new(4, seed=seed)
        assert st.options.action_cap is None
        random_playout(st, random.Random(seed), max_steps=100_000)
        assert st.is_terminal()


def test_the_game_lasts_8_rounds():
    st = new(3)
    for r in range(1, 9):
        assert st.round == r
        pass_round(st)
        place_all(st)
    assert st.is_terminal() and st.legal_actions() == []
