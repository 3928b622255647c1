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
