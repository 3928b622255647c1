"""Reading a saved Amarok state from outside: its event log and its seed are checked as they
are read, so a state that loads tells every viewer's log (no bare error later) and a field
that is wrong is refused at once with a RecordError naming it."""

from __future__ import annotations

import json
import random

import pytest

from nemeton.engine import RecordError, get_game

SPEC = get_game("amarok")


def _finished(players: int = 3, seed: int = 2, **options) -> dict:
    state = SPEC.make(players, seed=seed, **options)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return json.loads(json.dumps(state.to_json()))


@pytest.fixture(scope="module")
def saved():
    return _finished()


def _first(data: dict, kind: str, **fields) -> int:
    return next(i for i, e in enumerate(data["events"])
                if e["kind"] == kind and all(e["fields"].get(k) == v for k, v in fields.items()))


def _refused(data: dict, field: str) -> str:
    with pytest.raises(RecordError) as info:
        SPEC.state_from_json(data)
    assert field in str(info.value), str(info.value)
    return str(info.value)


def _changed(saved: dict, kind: str, change, **fields) -> tuple[dict, int]:
    data = json.loads(json.dumps(saved))
    i = _first(data, kind, **fields)
    change(data["events"][i])
    return data, i


def test_a_saved_state_loads_with_its_log_told_to_every_viewer(saved):
    state = SPEC.state_from_json(saved)
    assert state.to_json() == saved
    for viewer in (None, *range(state.num_players)):
        assert [e["text"] for e in state.log(viewer)]


def test_a_card_in_an_event_must_be_a_card_of_the_deck_not_a_list(saved):
    data, i = _changed(saved, "take", lambda e: e["fields"].update(card=["R6"]))
    _refused(data, f"events[{i}].fields.card")


def test_an_events_kind_must_be_known_text(saved):
    for kind in (1.5, ["deal"], "teleport"):
        data, i = _changed(saved, "deal", lambda e: e.update(kind=kind))
        _refused(data, f"events[{i}].kind")


def test_an_event_must_hold_every_field_its_kind_holds(saved):
    data, i = _changed(saved, "deal", lambda e: e["fields"].pop("deck_size"))
    message = _refused(data, f"events[{i}].fields")
    assert "deck_size" in message


def test_a_take_names_its_source_among_those_the_rules_know(saved):
    data, i = _changed(saved, "take", lambda e: e["fields"].update(source="pocket"))
    _refused(data, f"events[{i}].fields")


def test_a_secret_card_must_be_a_card_of_the_deck(saved):
    data, i = _changed(saved, "hand_dealt", lambda e: e["secret"]["cards"].__setitem__(0, [1]))
    _refused(data, f"events[{i}].secret.cards")


def test_a_secret_field_may_not_hide_an_entry_key(saved):
    data, i = _changed(saved, "take", lambda e: e.update(secret={"kind": "deal"}, seen_by=[0]))
    _refused(data, f"events[{i}].secret")


def test_a_round_end_by_mating_names_the_mating_player():
    data = next(d for d in (_finished(seed=s) for s in range(40))
                if any(e["kind"] == "round_end" and e["fields"]["reason"] == "mating" for e in d["events"]))
    data, i = _changed(data, "round_end", lambda e: e["fields"].pop("player"), reason="mating")
    _refused(data, f"events[{i}].fields")


def test_team_mode_round_ends_carry_the_team_totals():
    data, i = _changed(_finished(4, seed=3, teams=True), "round_end", lambda e: e["fields"].pop("team_totals"))
    _refused(data, f"events[{i}].fields")


def test_event_seats_rounds_and_audiences_are_in_range(saved):
    data, i = _changed(saved, "take", lambda e: e.update(seat=3))
    _refused(data, f"events[{i}].seat")
    data, i = _changed(saved, "take", lambda e: e.update(round=True))
    _refused(data, f"events[{i}].round")
    data, i = _changed(saved, "hand_dealt", lambda e: e.update(seen_by=[0, 0]))
    _refused(data, f"events[{i}].seen_by")


@pytest.mark.parametrize("seed", ["7", {"a": 1}, -1, 2**64, 1.5, True])
def test_a_seed_must_be_an_integer_from_0_to_2_64(saved, seed):
    _refused({**saved, "seed": seed}, "seed")


# ----- decoding an action against the game's deck and seats ------------------------------------

def _moss_deck() -> str:
    """The standard deck with its card R3 renamed Moss3."""
    from nemeton.games.amarok.components import standard_deck_text
    text = standard_deck_text()
    assert 'id = "R3"' in text and "Moss3" not in text
    return text.replace('id = "R3"', 'id = "Moss3"')


@pytest.mark.parametrize("kind", ["take_river", "claw_river"])
def test_a_card_of_another_deck_is_decoded_with_that_decks_options_only(kind):
    deck = _moss_deck()
    data = {"type": kind, "card": "Moss3"}
    action = SPEC.action_from_json(data, SPEC.options(players=3, deck=deck))
    assert action.card == "Moss3"
    with pytest.raises(RecordError, match="the deck has no card 'Moss3'"):
        SPEC.action_from_json(data, SPEC.options(players=3))
    with pytest.raises(RecordError, match="the deck has no card 'R3'"):
        SPEC.action_from_json({"type": kind, "card": "R3"}, SPEC.options(players=3, deck=deck))


def test_decoding_with_the_options_returns_the_decks_own_instance():
    from nemeton.games.amarok.actions import tables_for
    from nemeton.games.amarok.components import load_deck
    deck = _moss_deck()
    options = SPEC.options(players=3, deck=deck)
    action = SPEC.action_from_json({"type": "take_seen", "seat": 2, "card": "Moss3"}, options)
    tables = tables_for(load_deck(deck))
    assert action is tables.take_seen[2][load_deck(deck).index["Moss3"]]


@pytest.mark.parametrize("data", [
    {"type": "take_seen", "seat": 3, "card": "R1"},
    {"type": "take_unseen", "seat": 5},
    {"type": "claw_hand", "seat": 4, "slot": 0},
])
def test_a_seat_the_game_does_not_have_is_refused_given_the_options(data):
    SPEC.action_from_json(data)  # a seat of some game: without the options, that is all we know
    with pytest.raises(RecordError, match=r"seat must be 0\.\.2 \(a 3-player game\)"):
        SPEC.action_from_json(data, SPEC.options(players=3))


def test_a_record_of_another_deck_loads_its_own_actions_and_refuses_the_standard_decks_cards():
    from nemeton.engine import GameRecord
    deck = _moss_deck()
    state = SPEC.make(3, seed=6, deck=deck)
    rng = random.Random(6)
    for _ in range(10):
        state.apply(rng.choice(state.legal_actions()))
    record = state.record().to_json()
    assert GameRecord.from_json(record).replay().to_json() == state.to_json()
    record["actions"].append({"seat": 0, "action": {"type": "claw_river", "card": "R3"}})
    with pytest.raises(RecordError, match="record action 10: .*the deck has no card 'R3'"):
        GameRecord.from_json(record)


def test_decoding_junk_with_the_options_grows_no_table():
    from nemeton.games.amarok.actions import tables_for
    from nemeton.games.amarok.components import load_deck
    options = SPEC.options(players=3)
    by_value = tables_for(load_deck(None)).by_value
    size, decks = len(by_value), load_deck.cache_info().currsize
    for i in range(3000):
        data = ({"type": "take_river", "card": f"junk{i}"} if i % 2
                else {"type": "claw_front", "seat": 1, "card": f"junk{i}"})
        with pytest.raises(RecordError):
            SPEC.action_from_json(data, options)
    assert len(by_value) == size and load_deck.cache_info().currsize == decks


def test_a_saved_states_history_names_only_seats_of_its_game(saved):
    data = json.loads(json.dumps(saved))
    data["history"][0]["action"] = {"type": "take_unseen", "seat": 4}
    _refused(data, "seat must be 0..2 (a 3-player game)")
