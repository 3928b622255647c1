"""Actions: readable text, JSON form, interning, and records that name impossible actions."""

from __future__ import annotations

import pytest

from nemeton.engine import RecordError, get_game
from nemeton.games.alarun.actions import FLIP, PASS, PLACES, SWAP_ALL, SWAPS, Place, Swap

from alarun_helpers import card, new

SPEC = get_game("alarun")


def test_actions_read_like_the_rulebook():
    assert str(SWAPS[card("MA-r")][card("MY-b")]) == "swap mandrake:red <-> myrrh:blue"
    assert str(PASS) == "pass" and str(SWAP_ALL) == "swap all and pass"
    assert str(FLIP).startswith("flip")
    assert str(Place("dragon_eggs:blue", 1, 0)) == "place dragon_eggs:blue at (+1,0)"
    assert str(Place("centum_auri", -2, 3)) == "place centum_auri at (-2,+3)"


def test_every_action_round_trips_through_json_to_the_same_interned_object():
    for action in (PASS, SWAP_ALL, FLIP, SWAPS[3][40], PLACES[49][0], PLACES[7][80]):
        back = SPEC.action_from_json(action.to_json())
        assert back is action


def test_legal_actions_are_interned():
    st = new(3, seed=2)
    first = st.legal_actions()
    again = st.legal_actions()
    assert all(a is b for a, b in zip(first, again))


@pytest.mark.parametrize("data,message", [
    ({"type": "swap", "give": "mandrake:purple", "take": "myrrh:blue"}, "unknown card 'mandrake:purple'"),
    ({"type": "swap", "give": "myrrh:blue", "take": "myrrh:blue"}, "two different cards"),
    ({"type": "place", "card": "myrrh:blue", "x": 5, "y": 0}, "x and y run from -4 to 4"),
    ({"type": "place", "card": "myrrh:blue", "x": 0, "y": 0}, "(0,0) is the druid"),
    ({"type": "dance"}, "unknown action type"),
])
def test_a_record_naming_an_impossible_action_is_rejected(data, message):
    with pytest.raises(RecordError, match=message.replace("(", r"\(").replace(")", r"\)")):
        SPEC.action_from_json(data)


def test_swap_fields_name_the_cards():
    a = SWAPS[card("CENT")][card("DE-b")]
    assert isinstance(a, Swap) and a.to_json() == {"type": "swap", "give": "centum_auri", "take": "dragon_eggs:blue"}


def test_decoding_looks_an_action_up_and_never_adds_one():
    from nemeton.games.alarun import actions
    size = len(actions._INTERNED)
    junk = [{"type": "place", "card": "myrrh:blue", "x": x, "y": 9} for x in range(-300, 300)]
    junk += [{"type": "swap", "give": f"myrrh:colour{k}", "take": "myrrh:blue"} for k in range(300)]
    junk += [{"type": "place", "card": "myrrh:blue", "x": bad, "y": 0}
             for bad in (True, 1.0, None, [1], float("inf"), "1", 2**80)]
    junk += [{"type": "pass", "extra": 1}, {"type": "swap", "give": "myrrh:blue"}, {"type": "flip", "x": None}]
    for data in junk:
        with pytest.raises(RecordError):
            SPEC.action_from_json(data)
    for action in (PASS, SWAPS[3][40], PLACES[7][80]):
        assert SPEC.action_from_json(action.to_json()) is action
    assert len(actions._INTERNED) == size
