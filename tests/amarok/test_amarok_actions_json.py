"""Actions read from JSON are checked for values that cannot exist (records, the web API)."""

import pytest

from nemeton.engine import RecordError, get_game


@pytest.mark.parametrize("data,fragment", [
    ({"type": "take_unseen", "seat": 9}, "seat must be 0..5"),
    ({"type": "take_own", "slot": 5}, "hand slot must be 0 or 1"),
    ({"type": "take_own", "slot": -1}, "hand slot must be 0 or 1"),
    ({"type": "claw_hand", "seat": 1, "slot": 2}, "hand slot must be 0 or 1"),
    ({"type": "take_seen", "seat": 1, "card": 3}, "card must be text"),
])
def test_impossible_actions_are_rejected_when_read(data, fragment):
    with pytest.raises(RecordError, match=fragment):
        get_game("amarok").action_from_json(data)


def test_a_readable_action_comes_back_as_the_canonical_instance():
    spec = get_game("amarok")
    state = spec.make(players=3, seed=1)
    for action in state.legal_actions():
        assert spec.action_from_json(action.to_json()) is action
