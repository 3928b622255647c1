"""The terminal screen: the last round's result as its own block before the new round, the
objective in words people read, a key for the card notation and for claw targets."""

from nemeton.engine import get_game

from amarok_positions import act, position

SPEC = get_game("amarok")


def finish_round_one():
    """Seat 0 ends round 1 with the last card to be played: totals 6/17/7."""
    state = position(hands="R5 - | - - | - - ", fronts="R1 | R10 B7 | R3 B4", turn=0)
    act(state, "take own hand slot 0")
    return state


def test_round_result_is_its_own_block_before_the_new_round():
    state = finish_round_one()
    assert state.round == 2
    lines = SPEC.render(state.view(0)).splitlines()
    assert lines[0] == "Round 1 won by seat 1 — WOLF PACK, totals 6/17/7"
    header = next(i for i, line in enumerate(lines) if line.startswith("Amarok - round 2"))
    assert header > 1 and set(lines[header - 1]) == {"-"}
    assert "cards in front at the end: seat 0 R1 R5 · seat 1 R10 B7 · seat 2 R3 B4" in lines[1]


def test_internal_objective_ids_never_reach_the_screen():
    state = finish_round_one()
    text = SPEC.render(state.view(1))
    assert "wolf_pack" not in text and "lone_wolf" not in text
    assert "Objective: WOLF PACK (highest total wins)" in text
    lone = position(hands="R5 B7 | R3 B2 | B4 B9", objective="lone_wolf")
    assert "Objective: LONE WOLF (lowest total wins)" in SPEC.render(lone.view(0))


def test_mating_and_trapped_rounds_say_why():
    state = position(hands="R6 - | - - | - - ", fronts="B3 | R10 | R9 R2", turn=0)
    act(state, "take own hand slot 0")  # R6: a second heart in front of seat 0
    text = SPEC.render(state.view(2))
    assert "Round 1 won by seat 0 — mating: seat 0 put a second heart in front" in text
    trapped = position(hands="B1 - | - - | - - ", fronts="R10 | R7 B9 | R3 B4", turn=0)
    act(trapped, "take own hand slot 0")  # B1, a wolf trap: seat 0's 11 cannot win
    assert "Round 1 won by seat 1 — WOLF PACK, totals 11/16/7; trapped: seat 0" in SPEC.render(trapped.view(0))


def test_key_explains_the_card_notation_and_symbols():
    text = SPEC.render(position(hands="R5 B7 | R3 B2 | B4 B9").view(0))
    assert "id, colour, value, symbol" in text and "?? = a card you cannot see" in text
    for symbol in ("heart:", "claw:", "season:", "trap:"):
        assert symbol in text


def test_claw_phase_explains_how_hand_targets_are_named():
    state = position(hands="B5 B7 | R3 B2 | B4 B9", fronts=" | R7 R1 | R10", turn=0)
    act(state, "take own hand slot 0")  # B5: claw
    text = SPEC.render(state.view(0)).replace("\n  ", " ")
    assert "choose the claw's target" in text
    assert "\"<player>'s hand slot K\" is slot K of that player's hand as listed above" in text
    assert "your own hand is seat 0's" in text
    assert "slot 0: --  slot 1: [B7 blue 7] (facing you)" in text


def test_the_take_hint_is_only_for_the_acting_player():
    state = position(hands="R5 B7 | R3 B2 | B4 B9", turn=0)
    assert "\"own hand slot K\"" in SPEC.render(state.view(0))
    assert "\"own hand slot K\"" not in SPEC.render(state.view(1))


def test_team_mode_shows_team_totals_and_names_the_winning_team():
    # team 0 = seats 0 and 2, team 1 = seats 1 and 3; seat 3 plays round 1's last card
    state = position(4, teams=True, hands="- - | - - | - - | B9 -", fronts="R10 B2 | R3 B4 | R5 B7 | R7",
                     turn=3)
    act(state, "take own hand slot 0")
    text = SPEC.render(state.view(1))
    assert text.splitlines()[0] == ("Round 1 won by the team of seat 0 & seat 2 — WOLF PACK, team totals "
                                    "seat 0 & seat 2 24, seat 1 & seat 3 23")
    assert "Teams (a team's total is its four cards): seat 0 & seat 2, seat 1 & seat 3 (yours)" in text
    named = SPEC.render(state.view(1), names=["Ann", "Bob", "Cid", "Dee"])
    assert named.splitlines()[0] == ("Round 1 won by the team of Ann & Cid — WOLF PACK, team totals "
                                     "Ann & Cid 24, Bob & Dee 23")
    midway = position(4, teams=True, hands="R5 B7 | R3 B2 | B4 B9 | R1 R7", fronts="R10 | R6 | B3 | ")
    assert "Team totals so far: seat 0 & seat 2 (yours) 13, seat 1 & seat 3 6" in SPEC.render(midway.view(2))


def test_round_wins_print_as_whole_numbers():
    state = position(hands="R5 B7 | R3 B2 | B4 B9", levels=[2, 1, 0])
    assert state.view(0)["scores"] == [2.0, 1.0, 0.0]
    text = SPEC.render(state.view(0))
    assert "wins 2  hand" in text and "wins 1  hand" in text and ".0" not in text


def test_the_envelope_says_who_plays_and_when_the_game_is_over():
    state = position(hands="- - | - - | B9 -", fronts="R3 B4 | R7 B2 | R10", turn=2, levels=[2, 2, 2])
    assert "To play: seat 2 (you): take a card" in SPEC.render(state.view(2))
    act(state, "take own hand slot 0")
    text = SPEC.render(state.view(0))
    assert text.endswith("Game over. Winner(s): seat 2") and "To play" not in text
