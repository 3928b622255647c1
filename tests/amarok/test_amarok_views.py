"""LE CARTE IN MANO and ruling K2: who sees which hand card; views, the determinizer, rendering."""

import json
import random
from collections import Counter

from nemeton.engine import get_game, make

from amarok_positions import act, position

SPEC = get_game("amarok")
# seat 0: no win, seat 1: one win (sees slot 0), seat 2: two wins, seat 3: no win
LEVELS = [0, 1, 2, 0]
HANDS = "R5 B7 | R3 B2 | B4 B9 | R1 R7"


def _seen(view, owner):
    return [None if s is None else s["card"] for s in view["hands"][owner]]


def test_level_0_owner_sees_both_others_see_none():
    state = position(4, hands=HANDS, levels=LEVELS)
    assert _seen(state.view(0), 0) == ["R5", "B7"]
    for viewer in (1, 2, 3, None):
        assert _seen(state.view(viewer), 0) == [None, None]


def test_level_1_owner_sees_one_card_the_others_see_the_other():
    state = position(4, hands=HANDS, levels=LEVELS)
    assert _seen(state.view(1), 1) == ["R3", None]
    for viewer in (0, 2, 3):
        assert _seen(state.view(viewer), 1) == [None, "B2"]
    assert _seen(state.view(None), 1) == [None, None]


def test_level_2_owner_sees_none_all_others_see_both():
    state = position(4, hands=HANDS, levels=LEVELS)
    assert _seen(state.view(2), 2) == [None, None]
    for viewer in (0, 1, 3):
        assert _seen(state.view(viewer), 2) == ["B4", "B9"]
    assert _seen(state.view(None), 2) == [None, None]


def test_partners_see_like_everyone_else():
    state = position(4, teams=True, hands=HANDS, levels=[0, 1, 2, 0])
    assert _seen(state.view(0), 2) == ["B4", "B9"]  # partner at level 2: faces seat 0
    assert _seen(state.view(2), 0) == [None, None]  # partner at level 0: faces its owner


def test_the_card_a_level_1_player_sees_is_chosen_at_random_at_the_deal():
    seen_slot = Counter()
    for seed in range(60):
        state = position(hands="- - | - - | B9 -", fronts="R3 B4 | R7 B2 | R10", turn=2,
                         levels=[1, 0, 0], seed=seed)
        act(state, "take own hand slot 0")  # round 2 is dealt
        facing = [s["facing"] for s in state.view(None)["hands"][0]]
        seen_slot[facing.index("owner")] += 1
    assert seen_slot[0] > 10 and seen_slot[1] > 10


def test_view_never_contains_a_card_the_seat_cannot_see():
    state = position(4, hands=HANDS, levels=LEVELS, river="R0 B5", deck_top="B0")
    deck = state.to_json()["deck"]
    hidden = {0: {"R3", "R1", "R7"},
              1: {"R5", "B7", "B2", "R1", "R7"},
              2: {"R5", "B7", "R3", "B4", "B9", "R1", "R7"},
              3: {"R5", "B7", "R3"}}
    for seat, cards in hidden.items():
        view = state.view(seat)
        del view["cards"]  # the deck list names every card of the game
        text = json.dumps(view)
        assert '"R0"' in text and '"B0"' not in text
        for c in cards | set(deck):
            assert f'"{c}"' not in text, (seat, c)
    public = json.dumps(state.view(None)["hands"])
    assert not any(f'"{c}"' in public for c in ["R5", "B7", "R3", "B2", "B4", "B9", "R1", "R7"])


def test_spectator_view_is_public_information_only():
    state = position(4, hands=HANDS, fronts="R10 | | | ", river="R0 B5", levels=LEVELS,
                     bottom="B0", objective="lone_wolf")
    view = state.view(None)
    assert view["seat"] is None and view["hand_sizes"] == [2, 2, 2, 2]
    assert view["fronts"][0] == ["R10"] and view["river"] == ["R0", "B5"]
    assert view["objective"] == "lone_wolf" and view["scores"] == LEVELS
    assert view["deck_bottom"] == ["B0"] and view["deck_size"] == 22 - 8 - 2 - 1


def test_legal_actions_derive_from_the_view_alone():
    for state in (position(4, hands=HANDS, levels=LEVELS, river="R0 B5"),
                  position(4, teams=True, hands=HANDS, levels=LEVELS, river="R0 B5"),
                  position(4, hands="B5 B7 | R3 B2 | B4 B9 | R1 R7", levels=LEVELS, river="R0")):
        if state.legal_actions()[0].kind == "take_own" and state.hand[0] == state.cards.index["B5"]:
            act(state, "take own hand slot 0")  # into the claw phase
        view = json.loads(json.dumps(state.view(0)))
        assert SPEC.legal_actions_from_view(view) == state.legal_actions(0)
        assert SPEC.legal_actions_from_view(state.view(1)) == []


def test_determinizer_keeps_what_the_seat_saw_and_resamples_the_rest():
    state = position(4, hands=HANDS, levels=LEVELS, fronts="R10 | | | ", river="R0 B5",
                     bottom="B0 R6", turn=0)
    view = state.view(0)
    unknown = {"R3", "R1", "R7"} | set(state.to_json()["deck"][:-2])
    placed = Counter()
    for seed in range(300):
        sample = SPEC.determinize(view, random.Random(seed))
        data = sample.to_json()
        assert sample.view(0) == view and sample.seed is None and sample.history == []
        assert data["hands"][0] == ["R5", "B7"] and data["hands"][1][1] == "B2"
        assert data["hands"][2] == ["B4", "B9"]
        assert data["deck"][-2:] == ["B0", "R6"]  # known bottom cards stay, in order
        hidden = [data["hands"][1][0], *data["hands"][3], *data["deck"][:-2]]
        assert set(hidden) == unknown  # never a played, river or clawed card
        placed[data["hands"][1][0]] += 1
    assert len(placed) == len(unknown)  # every unseen card can be sampled into seat 1's hand
    assert max(placed.values()) < 3 * 300 / len(unknown)


def test_determinized_state_draws_unseen_cards_with_its_own_rng():
    state = make("amarok", players=3, seed=4)
    a = SPEC.determinize(state.view(1), random.Random(1))
    b = SPEC.determinize(state.view(1), random.Random(1))
    assert a.to_json() == b.to_json()
    assert a.to_json()["rng"] != state.to_json()["rng"]


def test_renderer_shows_own_forehead_cards_as_hidden():
    state = position(4, hands=HANDS, levels=LEVELS, fronts="R10 | | | ", river="R0 B5")
    text = SPEC.render(state.view(2))
    assert "seat 2 (you)" in text
    mine = [line for line in text.splitlines() if "seat 2 (you)" in line][0]
    assert mine.count("[ ?? ]") == 2 and "B4" not in text and "B9" not in text
    assert "R3" not in text and "[B2 blue 2] (facing you)" in text
    assert "[R10 red 10]" in text and "WOLF PACK" in text
    spectator = SPEC.render(state.view(None))
    assert spectator.count("[ ?? ]") == 8


def test_renderer_tells_the_claw_phase_and_the_last_round():
    state = position(hands="B5 - | - - | - - ", fronts="R5 | R3 R1 | B4 B9", turn=0)
    act(state, "take own hand slot 0")
    assert "choose the claw's target" in SPEC.render(state.view(0))
    act(state, "claw R1 in front of seat 1")
    act(state, "take the top card of the deck")
    text = SPEC.render(state.view(1))
    assert "Round 1 won by" in text and "clawed to the bottom" not in text


def _scramble(value):
    """Change every value of a JSON tree in place, as deeply as it goes."""
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for k, item in list(items):
        if isinstance(item, (dict, list)):
            _scramble(item)
        else:
            value[k] = "scrambled"
    if isinstance(value, list):
        value.append("scrambled")
    else:
        value["scrambled"] = True


def test_view_carries_the_envelope_once_and_round_wins_as_public_scores():
    state = position(4, hands=HANDS, levels=LEVELS, turn=2, holder=2)
    for viewer in (None, 0, 1, 2, 3):
        view = state.view(viewer)
        assert list(view)[:7] == ["game", "seat", "players", "acting", "round", "terminal", "scores"]
        assert view["seat"] == viewer and view["acting"] == [2] and view["players"] == 4
        assert view["scores"] == [0.0, 1.0, 2.0, 0.0]  # round wins are public during play (K2)
        for gone in ("current_player", "levels", "to_act", "player"):
            assert gone not in view


def test_mutating_a_view_deeply_never_changes_the_state():
    state = position(4, hands=HANDS, levels=LEVELS, fronts="R10 | | | ", river="R0 B5", bottom="B0")
    act(state, "take own hand slot 0")  # a last action to show
    finished = position(hands="- - | - - | B9 -", fronts="R3 B4 | R7 B2 | R10", turn=2, levels=[2, 2, 2])
    act(finished, "take own hand slot 0")  # a finished round and a finished game
    for st in (state, finished):
        for viewer in (None, *range(st.n)):
            before = json.dumps(st.to_json(), sort_keys=True)
            _scramble(st.view(viewer))
            assert json.dumps(st.to_json(), sort_keys=True) == before
