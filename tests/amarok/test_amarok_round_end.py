"""FINE DI UN ROUND, ESEMPI, FINE DELLA PARTITA, MODALITÀ A SQUADRE; rulings K6, K7, K8.

In each position the last player is about to play the round's last card from their hand.
Default deck (K1): hearts R0 R6 B3 B8, claws R2 R8 B5 B10, seasons R4 B6, traps R9 B1.
"""

import random

from nemeton.engine import make

from amarok_positions import act, position


def _finish(players=3, **kw):
    """Play the last card (own slot 0) of the last player and return the round's summary."""
    state = position(players, **kw)
    act(state, "take own hand slot 0")
    return state, state.view(None)["last_round"]


def test_example_1_ten_loses_to_a_lower_total_under_lone_wolf():
    # 8 + 2 = 10; another player has a lower total
    state, done = _finish(hands="- - | - - | B9 -", fronts="R8 B2 | R3 B4 | R10", turn=2,
                          objective="lone_wolf")
    assert done["totals"] == [10, 7, 19] and done["winners"] == [1]
    assert state.scores() == [0.0, 1.0, 0.0]


def test_example_2_seven_is_the_winning_lowest_total():
    state, done = _finish(hands="- - | - - | B9 -", fronts="R3 B4 | R8 B2 | R10", turn=2,
                          objective="lone_wolf")
    assert done["totals"][0] == 7 and done["winners"] == [0]


def test_example_3_a_wolf_trap_loses_even_with_the_best_total():
    # 3 + wolf trap (B1) = 4 is the lowest total, but the trap forbids winning
    state, done = _finish(hands="- - | - - | B9 -", fronts="R3 B1 | R5 B2 | R10", turn=2,
                          objective="lone_wolf")
    assert done["totals"] == [4, 7, 19] and done["trapped"] == [True, False, False]
    assert done["winners"] == [1]


def test_wolf_pack_highest_total_wins():
    state, done = _finish(hands="- - | - - | B9 -", fronts="R3 B4 | R7 B2 | R10", turn=2)
    assert done["objective"] == "wolf_pack" and done["winners"] == [2]


def test_all_tied_best_totals_advance():
    state, done = _finish(hands="- - | - - | B9 -", fronts="R3 B4 | R5 B2 | R10", turn=2,
                          objective="lone_wolf")
    assert done["totals"] == [7, 7, 19] and done["winners"] == [0, 1]
    assert state.scores() == [1.0, 1.0, 0.0]


def test_nobody_advances_when_all_are_trapped():
    deck = "".join(f'[[cards]]\nid = "T{i}"\nvalue = {i}\nsymbol = "trap"\n' for i in range(3))
    deck += "".join(f'[[cards]]\nid = "P{i}"\nvalue = {i}\n' for i in range(10))
    state, done = _finish(deck=deck, hands="- - | - - | P9 -", fronts="T0 P1 | T1 P2 | T2",
                          turn=2)
    assert done["winners"] == [] and state.scores() == [0.0, 0.0, 0.0]
    assert state.round == 2


def test_team_totals_for_four_players_sum_both_partners_cards():
    # team 0 = seats 0, 2; team 1 = seats 1, 3
    state, done = _finish(4, teams=True, hands="- - | - - | - - | B9 -",
                          fronts="R10 B2 | R3 B4 | R5 B7 | R7", turn=3)
    assert done["totals"] == [24, 23, 24, 23] and done["winners"] == [0, 2]
    assert state.scores() == [1.0, 0.0, 1.0, 0.0]


def test_team_totals_for_six_players_three_teams():
    # teams: (0, 3), (1, 4), (2, 5)
    state, done = _finish(6, teams=True, hands="- - | - - | - - | - - | - - | B0 -",
                          fronts="R10 B9 | R1 B2 | R3 B4 | R5 B7 | R7 B3 | R0",
                          turn=5, objective="lone_wolf")
    assert done["totals"] == [31, 13, 7, 31, 13, 7] and done["winners"] == [2, 5]


def test_a_wolf_trap_in_front_of_either_partner_stops_the_team():
    state, done = _finish(4, teams=True, hands="- - | - - | - - | B9 -",
                          fronts="R10 B10 | R3 B4 | R5 R9 | R7", turn=3)
    assert done["trapped"] == [True, False, True, False] and done["winners"] == [1, 3]


def test_all_teams_trapped_nobody_advances():
    state, done = _finish(4, teams=True, hands="- - | - - | - - | B9 -",
                          fronts="R10 R9 | R3 B4 | R5 R7 | B1", turn=3)
    assert done["winners"] == [] and state.scores() == [0.0] * 4


def test_objective_side_carries_over_and_passes_left():
    state = position(hands="- - | - - | R4 -", fronts="R10 B9 | R1 B2 | R3", turn=2, holder=0)
    act(state, "take own hand slot 0")  # season: lone wolf, round over
    view = state.view(None)
    assert state.round == 2 and view["objective"] == "lone_wolf"  # not flipped back
    assert view["objective_holder"] == 1 and state.current_player == 1  # the holder starts
    assert view["fronts"] == [[], [], []] and len(view["river"]) == 2


def test_holder_passes_left_every_round_and_wraps_around():
    state = make("amarok", players=3, seed=2, rounds_to_win=9)
    rng = random.Random(0)
    holders = {}
    while state.round <= 4:
        holders.setdefault(state.round, (state.view(None)["objective_holder"], state.current_player))
        state.apply(rng.choice(state.legal_actions()))
    assert holders == {1: (0, 0), 2: (1, 1), 3: (2, 2), 4: (0, 0)}


def test_a_round_win_changes_how_the_winner_holds_cards_next_round():
    state, _ = _finish(hands="- - | - - | B9 -", fronts="R3 B4 | R7 B2 | R10", turn=2,
                       levels=[1, 0, 0])
    # seat 2 won: level 1, one card faces it; seat 0 keeps level 1
    hands = state.view(None)["hands"]
    assert sorted(s["facing"] for s in hands[2]) == ["others", "owner"]
    assert sorted(s["facing"] for s in hands[0]) == ["others", "owner"]
    assert [s["facing"] for s in hands[1]] == ["owner", "owner"]


def test_first_to_three_round_wins_wins_the_game():
    state, done = _finish(hands="- - | - - | B9 -", fronts="R3 B4 | R7 B2 | R10", turn=2,
                          levels=[2, 2, 2])
    assert state.is_terminal() and state.winners() == [2]
    assert state.returns() == [0.0, 0.0, 1.0]
    assert state.view(0)["phase"] == "over" and state.view(0)["winners"] == [2]
    assert state.legal_actions() == [] and state.round == 1


def test_simultaneous_third_wins_share_the_victory():
    state, done = _finish(hands="- - | - - | B9 -", fronts="R3 B4 | R5 B2 | R10", turn=2,
                          levels=[2, 2, 1], objective="lone_wolf")
    assert state.is_terminal() and state.winners() == [0, 1]
    assert state.returns() == [0.5, 0.5, 0.0]
    assert state.ranking() == [1, 1, 3]


def test_team_partners_advance_and_win_together():
    state, done = _finish(4, teams=True, hands="- - | - - | - - | B9 -",
                          fronts="R10 B2 | R3 B4 | R5 B7 | R7", turn=3, levels=[2, 2, 2, 2])
    assert state.winners() == [0, 2] and state.returns() == [1.0, 0.0, 1.0, 0.0]


def test_rounds_to_win_option():
    state, _ = _finish(hands="- - | - - | B9 -", fronts="R3 B4 | R7 B2 | R10", turn=2,
                       rounds_to_win=1)
    assert state.is_terminal() and state.winners() == [2]
