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


def test_decoding_junk_stores_nothing():
    """Decoding is a lookup among the game's actions or a checked new value, never a table
    that grows with what it reads."""
    from nemeton.games.amarok.actions import tables_for
    from nemeton.games.amarok.components import load_deck
    spec = get_game("amarok")
    standard = tables_for(load_deck(None)).by_value
    size = len(standard)
    for i in range(2000):
        action = spec.action_from_json({"type": "take_river", "card": f"junk{i}"})
        assert action.card == f"junk{i}"
    assert len(standard) == size


def test_loading_a_state_accepts_only_the_actions_of_its_deck():
    from nemeton.games.amarok.actions import decode_action
    state = get_game("amarok").make(players=3, seed=1)
    assert decode_action({"type": "claw_river", "card": "B4"}, state.cards) is state.acts.claw_river[state.cards.index["B4"]]
    with pytest.raises(RecordError, match="the deck has no card 'X9'"):
        decode_action({"type": "take_seen", "seat": 1, "card": "X9"}, state.cards)
    data = state.to_json()
    data["history"] = [{"seat": 0, "action": {"type": "take_river", "card": "X9"}}]
    with pytest.raises(RecordError):
        get_game("amarok").state_from_json(data)


def test_an_action_naming_a_card_of_another_deck_is_refused_when_applied():
    from nemeton.engine import IllegalActionError
    spec = get_game("amarok")
    state = spec.make(players=3, seed=1)
    with pytest.raises(IllegalActionError):
        state.apply(spec.action_from_json({"type": "take_river", "card": "X9"}))


@pytest.mark.parametrize("change, fragment", [
    (lambda d: d["hands"][0].append("R1"), "hands must hold 3 lists"),
    (lambda d: d["river"].append(d["river"][0]), "exactly one place"),
    (lambda d: d.update(turn=7), "turn must be an integer from -1 to 2"),
    (lambda d: d.update(levels=[0, 0, True]), "levels must list 3 integers"),
    (lambda d: d.update(objective="summer"), "objective must be one of wolf_pack, lone_wolf"),
    (lambda d: d["deck"].__setitem__(0, "Z1"), "'Z1' is not a card of this game's deck"),
    (lambda d: d.update(claw_pending=True), "claw_pending needs a claw"),
    (lambda d: d.update(known_bottom=99), "known_bottom must be an integer from 0 to"),
])
def test_a_malformed_state_is_refused_naming_the_field(change, fragment):
    spec = get_game("amarok")
    data = spec.make(players=3, seed=1).to_json()
    change(data)
    with pytest.raises(RecordError, match=fragment):
        spec.state_from_json(data)
