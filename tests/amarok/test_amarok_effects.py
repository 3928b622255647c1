"""EFFETTI DELLE CARTE and rulings K4, K5, K6: change of season, mating, claw.

Default deck (K1): hearts R0 R6 B3 B8, claws R2 R8 B5 B10, seasons R4 B6, traps R9 B1.
"""

from amarok_positions import act, fronts, legal_texts, position


# ----- change of season ----------------------------------------------------------------------
def test_change_of_season_flips_the_objective_at_once():
    state = position(hands="R4 B7 | B6 B2 | B4 B9", river="R1 R7")
    act(state, "take own hand slot 0")  # R4: change of season
    assert state.view(None)["objective"] == "lone_wolf"
    act(state, "take own hand slot 0")  # B6: change of season again
    assert state.view(None)["objective"] == "wolf_pack"


def test_change_of_season_decides_the_round_end():
    # seat 2 plays the season as the round's last card: lowest total now wins
    state = position(hands="- - | - - | R4 -", fronts="R10 B9 | R1 B2 | R3", turn=2)
    act(state, "take own hand slot 0")
    done = state.view(None)["last_round"]
    assert done["objective"] == "lone_wolf" and done["winners"] == [1]


# ----- mating --------------------------------------------------------------------------------
def test_second_heart_ends_the_round_at_once_mid_turn_order():
    # seat 1 has a heart in front; seat 2 has not played yet
    state = position(hands="R5 B7 | B3 B2 | B4 B9", fronts="R1 | R0 | ", river="R3 R7", turn=1)
    act(state, "take own hand slot 0")  # B3: second heart
    done = state.view(None)["last_round"]
    assert done["reason"] == "mating" and done["mating_seat"] == 1 and done["winners"] == [1]
    assert done["fronts"] == [["R1"], ["R0", "B3"], []]
    assert state.scores() == [0.0, 1.0, 0.0] and state.round == 2


def test_mating_wins_whatever_the_objective_and_totals():
    state = position(hands="- - | R6 - | B4 B9", fronts="R10 B10 | B3 | R7", objective="wolf_pack",
                     turn=1)
    act(state, "take own hand slot 0")  # 3 + 6 = 9 loses to 20 on totals, but it is mating
    assert state.view(None)["last_round"]["winners"] == [1]


def test_one_heart_is_not_mating():
    state = position(hands="B3 B7 | R5 B2 | B4 B9", fronts=" | R0 | ", turn=0)
    act(state, "take own hand slot 0")
    assert state.round == 1 and fronts(state)[0] == ["B3"]


def test_mating_in_team_mode_beats_the_teams_wolf_trap():
    # seats 0 and 2 are partners; seat 2 has a wolf trap in front
    state = position(4, teams=True, hands="R6 B7 | R5 B2 | B4 B9 | R1 R7",
                     fronts="R0 | R3 | R9 | R10", turn=0)
    act(state, "take own hand slot 0")
    done = state.view(None)["last_round"]
    assert done["reason"] == "mating" and done["winners"] == [0, 2]
    assert state.scores() == [1.0, 0.0, 1.0, 0.0]


def test_mating_in_team_mode_needs_both_hearts_in_front_of_one_player():
    state = position(4, teams=True, hands="R5 B7 | R3 B2 | R6 B9 | R1 R7", fronts="R0 | | | ", turn=2)
    act(state, "take own hand slot 0")  # seat 2 (partner of seat 0) plays a heart
    assert state.round == 1 and state.current_player == 3


# ----- claw ----------------------------------------------------------------------------------
def test_claw_lets_the_same_player_choose_any_other_card():
    state = position(hands="B5 B7 | R3 B2 | B4 B9", fronts=" | R7 R1 | R10", river="R0 R5",
                     deck_top="B0")
    act(state, "take own hand slot 0")  # B5: claw
    assert state.current_player == 0 and state.view(0)["phase"] == "claw"
    assert legal_texts(state) == [
        "claw R7 in front of seat 1", "claw R1 in front of seat 1", "claw R10 in front of seat 2",
        "claw the card in seat 0's hand slot 1", "claw the card in seat 1's hand slot 0",
        "claw the card in seat 1's hand slot 1", "claw the card in seat 2's hand slot 0",
        "claw the card in seat 2's hand slot 1",
        "claw R0 in the river", "claw R5 in the river", "claw the top card of the deck",
    ]  # never the claw itself (B5 in front of seat 0)


def test_claw_on_card_in_front_makes_owner_play_again():
    state = position(hands="B5 B7 | R3 B2 | B4 B9", fronts=" | R7 R1 | R10", turn=0)
    act(state, "take own hand slot 0")
    act(state, "claw R7 in front of seat 1")
    assert fronts(state) == [["B5"], ["R1"], ["R10"]]
    view = state.view(2)
    assert view["deck_bottom"] == ["R7"]  # revealed to all, at the bottom of the deck
    assert state.to_json()["deck"][-1] == "R7"
    assert state.current_player == 1  # seat 1 is short of two again: next clockwise
    act(state, "take own hand slot 0")
    assert fronts(state)[1] == ["R1", "R3"]


def test_claw_on_own_card_in_front():
    state = position(hands="B5 B7 | R3 B2 | B4 B9", fronts="R10 | R7 R1 | R2", turn=0)
    act(state, "take own hand slot 0")  # second card: the claw
    assert "claw R10 in front of seat 0" in legal_texts(state)
    act(state, "claw R10 in front of seat 0")
    assert fronts(state)[0] == ["B5"]
    assert state.current_player == 2
    act(state, "take own hand slot 0")
    assert state.current_player == 0  # seat 0 plays again


def test_claw_on_a_hand_card_including_own_hand():
    state = position(hands="B5 B7 | R3 B2 | B4 B9", river="R1 R7", turn=0)
    act(state, "take own hand slot 0")
    act(state, "claw the card in seat 0's hand slot 1")
    assert state.to_json()["hands"][0] == [None, None]
    assert state.view(1)["deck_bottom"] == ["B7"]
    state = position(hands="B5 B7 | R3 B2 | B4 B9", river="R1 R7", turn=0)
    act(state, "take own hand slot 0")
    act(state, "claw the card in seat 2's hand slot 1")  # unseen by seat 0: revealed to all
    assert state.to_json()["hands"][2] == ["B4", None]
    assert all(state.view(s)["deck_bottom"] == ["B9"] for s in (None, 0, 1, 2))


def test_claw_on_a_river_card():
    state = position(hands="B5 B7 | R3 B2 | B4 B9", river="R1 R7")
    act(state, "take own hand slot 0")
    act(state, "claw R1 in the river")
    assert state.to_json()["river"] == ["R7"]
    assert state.view(None)["deck_bottom"] == ["R1"]


def test_claw_on_the_top_of_the_deck_reveals_it_and_puts_it_at_the_bottom():
    state = position(hands="B5 B7 | R3 B2 | B4 B9", river="R1 R7", deck_top="B0 R10")
    size = state.view(None)["deck_size"]
    act(state, "take own hand slot 0")
    act(state, "claw the top card of the deck")
    data = state.to_json()
    assert data["deck"][0] == "R10" and data["deck"][-1] == "B0"
    assert state.view(1)["deck_bottom"] == ["B0"] and state.view(None)["deck_size"] == size


def test_clawed_cards_stack_at_the_bottom_in_order_and_come_back_up_when_drawn():
    state = position(hands="B5 R8 | R3 B2 | B4 B9", river="R1 R7", deck_top="B0", turn=0)
    act(state, "take own hand slot 0")
    act(state, "claw R1 in the river")
    act(state, "take own hand slot 0")  # seat 1: R3
    act(state, "take own hand slot 0")  # seat 2: B4
    act(state, "take own hand slot 1")  # seat 0: R8, a claw
    act(state, "claw R7 in the river")
    assert state.view(None)["deck_bottom"] == ["R1", "R7"]  # R7 is the lowest card
    # draw the whole unknown part: the known cards come up to the top
    for _ in range(state.view(None)["deck_size"] - 2):
        state.deck.pop()
    assert state.view(None)["deck_bottom"] == ["R1", "R7"]
    act(state, "take the top card of the deck")  # seat 1 draws R1, known to all
    assert fronts(state)[1] == ["R3", "R1"] and state.view(None)["deck_bottom"] == ["R7"]


def test_claw_as_the_rounds_last_card_waits_for_its_target():
    state = position(hands="B5 - | - B2 | - - ", fronts="R5 | R3 R1 | B4 B9", turn=0)
    act(state, "take own hand slot 0")  # everyone now has two cards, but the claw resolves first
    assert state.round == 1 and state.current_player == 0
    act(state, "claw B9 in front of seat 2")
    assert state.round == 1 and state.current_player == 2  # seat 2 plays again
    act(state, "take the top card of the deck")
    assert state.round == 2


def test_claw_removing_a_heart_stops_mating():
    state = position(hands="B5 - | R6 B2 | B4 B9", fronts="R1 | R0 | ", turn=0)
    act(state, "take own hand slot 0")
    act(state, "claw R0 in front of seat 1")
    act(state, "take own hand slot 0")  # seat 1 plays R6: its only heart in front
    assert state.round == 1 and fronts(state)[1] == ["R6"]
