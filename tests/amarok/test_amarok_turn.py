"""SVOLGIMENTO DEL TURNO and rulings K3, K4: what a turn may take, and who plays next.

Default deck (K1): hearts R0 R6 B3 B8, claws R2 R8 B5 B10, seasons R4 B6, traps R9 B1.
"""

from collections import Counter

import pytest

from nemeton.engine import IllegalActionError

from amarok_positions import act, fronts, legal_texts, position

HANDS = "R5 B7 | R3 B2 | B4 B9"


def test_a_turn_may_take_own_card_river_deck_or_another_hand_in_a_fixed_order():
    state = position(hands=HANDS, river="R1 R7", deck_top="B0")
    assert legal_texts(state) == [
        "take own hand slot 0", "take own hand slot 1",
        "take R1 from the river", "take R7 from the river",
        "take the top card of the deck",
        "take an unseen card from seat 1's hand",
        "take an unseen card from seat 2's hand",
    ]


def test_taken_card_is_played_face_up_in_front_and_leaves_the_hand():
    state = position(hands=HANDS, river="R1 R7")
    act(state, "take own hand slot 1")
    assert fronts(state) == [["B7"], [], []]
    assert state.to_json()["hands"][0] == ["R5", None]
    assert legal_texts(state, 0) == []  # not seat 0's turn any more
    assert "take own hand slot 1" not in legal_texts(position(hands="R5 - | R3 B2 | B4 B9"))


def test_river_is_never_refilled():
    state = position(hands=HANDS, river="R1 R7", deck_top="B0")
    act(state, "take R7 from the river")
    assert state.to_json()["river"] == ["R1"]
    act(state, "take R1 from the river")
    assert state.to_json()["river"] == []
    assert state.to_json()["deck"][0] == "B0"
    assert not any("river" in t for t in legal_texts(state))


def test_take_top_of_deck():
    state = position(hands=HANDS, river="R1 R7", deck_top="B0 R10")
    act(state, "take the top card of the deck")
    assert fronts(state)[0] == ["B0"]
    assert state.view(None)["deck_size"] == 22 - 6 - 2 - 1


def test_a_card_seen_in_another_hand_is_taken_by_name():
    # seat 2 has two wins: both cards face the others, so seat 0 sees them
    state = position(hands=HANDS, river="R1 R7", levels=[0, 0, 2])
    texts = legal_texts(state)
    assert "take B4 from seat 2's hand" in texts and "take B9 from seat 2's hand" in texts
    assert "take an unseen card from seat 2's hand" not in texts
    act(state, "take B9 from seat 2's hand")
    assert fronts(state)[0] == ["B9"] and state.to_json()["hands"][2] == ["B4", None]


def test_unseen_card_is_drawn_among_the_cards_the_actor_cannot_see():
    # seat 1 has one win: it sees slot 0 (R3), the others see slot 1 (B2)
    state = position(hands=HANDS, river="R1 R7", levels=[0, 1, 0])
    texts = legal_texts(state)
    assert "take B2 from seat 1's hand" in texts
    act(state, "take an unseen card from seat 1's hand")
    assert fronts(state)[0] == ["R3"]  # the only card seat 0 could not see


def test_unseen_card_is_drawn_uniformly_with_the_state_rng():
    taken = Counter()
    for seed in range(200):
        state = position(hands=HANDS, river="R1 R7", seed=seed)
        act(state, "take an unseen card from seat 2's hand")
        taken[fronts(state)[0][0]] += 1
    assert set(taken) == {"B4", "B9"} and 70 < taken["B4"] < 130
    a, b = position(hands=HANDS, seed=5), position(hands=HANDS, seed=5)
    act(a, "take an unseen card from seat 1's hand")
    act(b, "take an unseen card from seat 1's hand")
    assert fronts(a) == fronts(b)  # same seed, same draw


def test_own_card_is_taken_by_slot_even_when_unseen():
    state = position(hands=HANDS, river="R1 R7", levels=[2, 0, 0])
    assert state.view(0)["hands"][0] == [{"card": None, "facing": "others"}] * 2
    act(state, "take own hand slot 1")
    assert fronts(state)[0] == ["B7"]


def test_player_with_two_cards_in_front_is_skipped():
    state = position(hands="- - | R3 B2 | B4 B9", fronts="R5 B7 | | ", turn=2)
    act(state, "take own hand slot 0")
    assert state.current_player == 1  # clockwise from 2: seat 0 is full, seat 1 next
    act(state, "take own hand slot 0")
    assert state.current_player == 2


def test_turn_order_is_clockwise_from_the_objective_holder():
    state = position(hands=HANDS, river="R1 R7", holder=1, turn=1)
    order = []
    for _ in range(6):
        order.append(state.current_player)
        act(state, legal_texts(state)[0])
    assert order == [1, 2, 0, 1, 2, 0]


def test_round_ends_when_everyone_has_two_cards_in_front():
    state = position(hands="- - | - B2 | - B9", fronts="R5 B7 | R3 | B4", river="R1 R7", turn=1)
    act(state, "take own hand slot 1")
    assert state.round == 1 and state.current_player == 2
    act(state, "take own hand slot 1")
    assert state.round == 2
    assert state.view(None)["last_round"]["fronts"] == [["R5", "B7"], ["R3", "B2"], ["B4", "B9"]]


def test_team_mode_takes_from_opponents_not_the_partner():
    state = position(4, teams=True, hands="R5 B7 | R3 B2 | B4 B9 | R1 R7", levels=[0, 0, 2, 2])
    texts = legal_texts(state)
    assert not any("seat 2's hand" in t for t in texts)  # seat 2 is seat 0's partner
    assert "take R1 from seat 3's hand" in texts


def test_partner_hand_option_allows_taking_from_the_partner():
    state = position(4, teams=True, partner_hand=True, hands="R5 B7 | R3 B2 | B4 B9 | R1 R7",
                     levels=[0, 0, 2, 0])
    assert "take B4 from seat 2's hand" in legal_texts(state)


def test_illegal_take_raises_and_changes_nothing():
    state = position(hands=HANDS, river="R1 R7")
    before = state.to_json()
    legal = state.legal_actions()
    from nemeton.games.amarok.actions import TakeRiver, TakeSeen
    with pytest.raises(IllegalActionError, match="is not legal for seat 0"):
        state.apply(TakeRiver("B10"))
    with pytest.raises(IllegalActionError):
        state.apply(TakeSeen(1, "R3"))  # seat 0 cannot see seat 1's cards
    with pytest.raises(IllegalActionError, match="may not act now"):
        state.apply(legal[0], 1)
    assert state.to_json() == before
