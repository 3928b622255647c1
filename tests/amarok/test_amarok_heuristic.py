"""The Amarok heuristic: plays to the objective, avoids traps, mates, claws the threat; sees
only its seat's view; beats random play clearly."""

import random

import pytest

from nemeton.agents.base import get_heuristic
from nemeton.engine import get_game, make

from amarok_positions import position

H = get_heuristic("amarok")
SPEC = get_game("amarok")


def _choice(state, seat=None):
    seat = state.current_player if seat is None else seat
    legal = state.legal_actions(seat)
    from_view = H.choose_from_view(state.view(seat), legal, random.Random(0))
    in_state = H.choose_in_state(state, seat, legal, random.Random(0))
    assert from_view == in_state
    return str(from_view)


def test_takes_a_second_heart_to_mate():
    state = position(hands="R5 B7 | R3 B2 | B4 B9", fronts="R0 | R10 | R7", river="B3 R1")
    assert _choice(state) == "take B3 from the river"


def test_plays_high_under_wolf_pack_and_low_under_lone_wolf():
    hands = "R5 B7 | R3 B2 | B4 B9"
    assert _choice(position(hands=hands, river="R1 R10")) == "take R10 from the river"
    assert _choice(position(hands=hands, river="B0 R10", objective="lone_wolf")) == "take B0 from the river"


def test_avoids_the_wolf_trap():
    # R9 is the best value under wolf pack, but a trap
    state = position(hands="R9 R7 | R3 B2 | B4 B9", fronts="R10 | | ", river="R1 B0")
    assert _choice(state) == "take own hand slot 1"


def test_flips_the_season_when_it_turns_the_round_its_way():
    # seat 0 has the lowest total; flipping to lone wolf with the season card (R4) wins the round
    state = position(hands="R4 - | - - | - - ", fronts="B0 | R10 B9 | B7 R7", river="R1 R3")
    assert _choice(state) == "take own hand slot 0"


def test_claws_its_own_wolf_trap():
    state = position(hands="- - | R3 B2 | B4 B9", fronts="R9 B5 | R10 | R7", claw=True)
    assert _choice(state) == "claw R9 in front of seat 0"


def test_claws_an_opponents_heart_when_a_second_is_in_reach():
    state = position(hands="- B4 | R3 B2 | B7 B9", fronts="R10 B5 | R0 | R7", river="B3 R1",
                     claw=True)
    choice = _choice(state)
    assert choice in ("claw R0 in front of seat 1", "claw B3 in the river")


def test_claws_the_leaders_best_card():
    state = position(hands="- - | B0 B2 | B4 R1", fronts="R7 B5 | R10 B9 | R3", claw=True)
    assert _choice(state) == "claw R10 in front of seat 1"


def test_choice_depends_only_on_what_the_seat_sees():
    rng = random.Random(3)
    for seed in range(20):
        state = make("amarok", players=4, seed=seed, teams=seed % 2 == 0)
        for _ in range(rng.randrange(12)):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        seat = state.current_player
        legal = state.legal_actions(seat)
        want = H.choose_in_state(state, seat, legal, random.Random(7))
        for k in range(3):
            sample = SPEC.determinize(state.view(seat), random.Random(k))
            assert H.choose_in_state(sample, seat, legal, random.Random(7)) == want


def test_evaluate_shares_one_and_favours_the_leader():
    state = position(4, teams=True, hands="R5 B7 | R3 B2 | B4 B9 | R1 R7", levels=[2, 0, 2, 0])
    values = H.evaluate(state)
    assert values[0] == values[2] and values[1] == values[3]
    assert values[0] + values[1] == pytest.approx(1.0) and values[0] > values[1]
    solo = make("amarok", players=3, seed=1)
    assert sum(H.evaluate(solo)) == pytest.approx(1.0)


def _hero_share(players, teams, games):
    total = 0.0
    for g in range(games):
        hero = g % players
        state = make("amarok", players=players, seed=500 + g, teams=teams)
        rng = random.Random(g)
        while not state.is_terminal():
            seat = state.current_player
            legal = state.legal_actions(seat)
            if state.team_of(seat) == state.team_of(hero):
                action = H.choose_in_state(state, seat, legal, rng)
            else:
                action = rng.choice(legal)
            state.apply(action, seat)
        total += state.returns()[hero]
    return total / games


def test_beats_random_players_clearly():
    assert _hero_share(3, False, 30) > 0.55  # random play would share 1/3
    assert _hero_share(4, True, 20) > 0.75  # random play would share 1/2
