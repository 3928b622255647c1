"""Reading Alarún's states and views from outside: every field is checked as it is read.

A state or view that loads is a proper game (it plays on without a bare error), so a field
of the wrong type or range, or fields that contradict each other, are refused at once with a
RecordError naming the field; the message never quotes the hidden cards.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from nemeton.engine import RecordError, get_game
from nemeton.games.alarun.rules import ACTIONS, OVER, PLACEMENT

from alarun_helpers import new

SPEC = get_game("alarun")


def _play_until(state, phase: int, round_: int = 1, placed: int = 0, seed: int = 0):
    """Play at random until the phase (and round) is reached; in the placement phase, until
    seat 0 has placed ``placed`` cards."""
    rng = random.Random(seed)
    while not (state.phase == phase and state.round >= round_
               and (phase != PLACEMENT or len(state.pending[0]) == placed)):
        seat = 0 if state.phase == PLACEMENT and 0 in state.acting() else rng.choice(state.acting())
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    return state


def _json(value):
    return json.loads(json.dumps(value))


@pytest.fixture(scope="module")
def action_phase():
    return _json(_play_until(new(3, seed=4), ACTIONS, round_=3).to_json())


@pytest.fixture(scope="module")
def placing():
    """Round 2 of a 2-player game, seat 0 has placed one card (hidden from seat 1)."""
    return _play_until(new(2, seed=5), PLACEMENT, round_=2, placed=1)


def _load(data):
    return SPEC.state_from_json(_json(data))


def _refused(call, *args, field: str):
    """The RecordError ``call`` raises, which must name ``field``."""
    with pytest.raises(RecordError) as info:
        call(*args)
    message = str(info.value)
    assert re.search(r"(^|[\s(,:])" + re.escape(field) + r"($|[\s:;,)])", message), message
    return message


# ----- states ------------------------------------------------------------------------------------
def test_a_state_loads_as_it_was_saved(action_phase, placing):
    for data in (action_phase, _json(placing.to_json())):
        assert _load(data).to_json() == data


def test_a_turn_that_is_no_seat_is_refused_not_an_index_error_later(action_phase):
    data = {**action_phase, "turn": 101}
    _refused(_load, data, field="turn")


def test_a_round_past_the_eighth_is_refused(action_phase):
    _refused(_load, {**action_phase, "round": 103}, field="round")


def test_a_round_that_does_not_match_the_stack_is_refused(action_phase):
    # round 3 of 8 is a real round, but the stack still holds round 3's cards
    assert "deck" in _refused(_load, {**action_phase, "round": 4}, field="deck")


@pytest.mark.parametrize("value", [True, 1.0, "1", None, [1]])
def test_whole_numbers_must_be_integers_not_bools_floats_or_text(action_phase, value):
    _refused(_load, {**action_phase, "start_player": value}, field="start_player")


def test_a_placement_on_a_fractional_cell_is_refused(placing):
    data = _json(placing.to_json())
    data["pending"][0][0][0] = 1.5
    _refused(_load, data, field="pending[0][0]")


def test_a_placement_must_be_on_a_card_of_the_square(placing):
    data = _json(placing.to_json())
    data["pending"][0] = [[4, 4]]
    _refused(_load, data, field="pending[0]")


def test_an_unknown_phase_is_refused(action_phase):
    message = _refused(_load, {**action_phase, "phase": "bidding"}, field="phase")
    assert "actions, placement, over" in message


def test_an_unknown_card_is_refused_naming_where_it_lies(action_phase):
    data = _json(action_phase)
    data["hands"][1][2] = "unicorn_horn:gold"
    _refused(_load, data, field="hands[1][2]")


def test_a_hand_too_big_for_the_action_phase_is_refused(action_phase):
    data = _json(action_phase)
    data["hands"][0].append(data["deck"].pop())
    _refused(_load, data, field="hands[0]")


def test_a_card_beyond_the_decks_copies_is_refused_without_quoting_the_stack(action_phase):
    data = _json(action_phase)
    data["deck"][0] = data["centre"][0]  # a third copy (or a second Centum auri) somewhere
    message = _refused(_load, data, field="cards")
    assert not any(card in message for card in set(data["deck"])), message


def test_every_message_is_short_and_quotes_no_hand_or_stack(action_phase):
    for key in ("deck", "hands", "known", "squares", "discard"):
        data = {**action_phase, key: {"oops": action_phase[key]}}
        message = _refused(_load, data, field=key)
        assert len(message) < 200 and ":" not in message.split("got", 1)[1], message


def test_a_square_that_does_not_hold_together_is_refused(action_phase):
    data = _json(action_phase)
    x, y, card = data["squares"][0][0]
    data["squares"][0][0] = [4, 4, card]  # far from the druid and the other cards
    message = _refused(_load, data, field="squares[0]")
    assert "touch" in message or "5x5" in message


def test_two_cards_on_one_cell_are_refused(action_phase):
    data = _json(action_phase)
    data["squares"][1][1][:2] = data["squares"][1][0][:2]
    _refused(_load, data, field="squares[1]")


def test_secret_colours_must_be_different_known_colours(action_phase):
    data = _json(action_phase)
    _refused(_load, {**data, "secret_colours": ["blue", "blue", "red"]}, field="secret_colours")
    _refused(_load, {**data, "secret_colours": ["blue", "teal", "red"]}, field="secret_colours[1]")


def test_the_turn_must_follow_the_actions_taken(action_phase):
    data = {**action_phase, "actions_taken": action_phase["actions_taken"] + 1}
    _refused(_load, data, field="actions_taken")


def test_cards_seen_taken_must_be_in_that_hand(action_phase):
    data = _json(action_phase)
    data["known"][2] = [c for c in data["centre"][:1]]
    _refused(_load, data, field="known[2]")


def test_a_malformed_random_stream_is_refused(action_phase):
    data = _json(action_phase)
    data["rng"][1][5] = -1
    _refused(_load, data, field="rng")


def test_history_seats_must_be_seats(action_phase):
    data = _json(action_phase)
    data["history"][0]["seat"] = 3
    _refused(_load, data, field="history[0].seat")


@pytest.mark.parametrize("change,field", [
    (lambda e: e.update(kind="teleport"), "events[{i}].kind"),
    (lambda e: e["fields"].pop("give"), "events[{i}].fields"),
    (lambda e: e["fields"].update(give=["a"]), "events[{i}].fields.give"),
    (lambda e: e.update(round=9), "events[{i}].round"),
    (lambda e: e.update(seat=7), "events[{i}].seat"),
    (lambda e: e.update(secret={"kind": "pass"}, seen_by=[0]), "events[{i}].secret"),
])
def test_events_must_hold_what_their_kind_holds(action_phase, change, field):
    data = _json(action_phase)
    i = next(k for k, e in enumerate(data["events"]) if e["kind"] == "swap")
    change(data["events"][i])
    _refused(_load, data, field=field.format(i=i))


def test_a_loaded_state_tells_every_log_and_plays_to_the_end(placing):
    state = _load(placing.to_json())
    rng = random.Random(1)
    while not state.is_terminal():
        for seat in (None, *range(state.num_players)):
            state.log(seat)
        seat = rng.choice(state.acting())
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    assert state.phase == OVER


# ----- views -----------------------------------------------------------------------------------------
def _view(state, seat):
    return _json(state.view(seat))


def test_actions_taken_given_as_text_is_refused_not_a_type_error_later(action_phase):
    view = _view(_load(action_phase), 0)
    view["actions_taken"] = "5"
    _refused(SPEC.determinize, view, random.Random(0), field="actions_taken")
    _refused(SPEC.sampler, view, field="actions_taken")
    acting = _view(_load(action_phase), _load(action_phase).turn)
    acting["actions_taken"] = "5"
    _refused(SPEC.legal_actions_from_view, acting, field="actions_taken")


def test_my_placements_off_the_board_are_refused(placing):
    view = _view(placing, 0)
    view["my_placements"][0][0] = 101
    _refused(SPEC.determinize, view, random.Random(0), field="my_placements[0]")
    _refused(SPEC.sampler, view, field="my_placements[0]")


def test_a_round_past_the_eighth_is_refused_in_a_view(action_phase):
    view = _view(_load(action_phase), 1)
    view["round"] = 103
    _refused(SPEC.determinize, view, random.Random(0), field="round")


def test_the_sampler_reads_the_view_once_and_refuses_it_before_sampling(placing):
    view = _view(placing, 1)
    view["hand_sizes"][0] = 3  # seat 0 has placed a card: 2 left
    _refused(SPEC.sampler, view, field="hand_sizes")


def test_a_view_showing_more_copies_than_the_game_has_is_refused(action_phase):
    view = _view(_load(action_phase), 0)
    view["discard"] = view["discard"] + [view["hand"][0]] * 3
    message = _refused(SPEC.determinize, view, random.Random(0), field="copies")
    assert view["hand"][0] in message  # the viewer's own card, shown to it anyway


def test_the_unseen_cards_must_add_up_to_the_hidden_ones(action_phase):
    view = _view(_load(action_phase), 0)
    view["discard"].pop()  # a card the view no longer shows: one unseen card too many
    message = _refused(SPEC.determinize, view, random.Random(0), field="discard")
    assert "add up" in message


def test_acting_must_match_the_phase(action_phase, placing):
    view = _view(_load(action_phase), 0)
    view["acting"] = [0, 1]
    _refused(SPEC.determinize, view, random.Random(0), field="acting")
    view = _view(placing, None)
    view["acting"] = [1]
    _refused(SPEC.determinize, view, random.Random(0), field="acting")


def test_legal_actions_from_a_view_check_the_hand_and_the_square(placing):
    view = _view(placing, 0)
    assert SPEC.legal_actions_from_view(view) == placing.legal_actions(0)
    bad = _json(view)
    bad["hand"][0] = 7
    _refused(SPEC.legal_actions_from_view, bad, field="hand[0]")
    bad = _json(view)
    bad["squares"][0].append([4, 4, "myrrh:blue"])
    _refused(SPEC.legal_actions_from_view, bad, field="squares[0]")


def test_an_action_cap_that_is_no_whole_number_is_refused(action_phase):
    view = _view(_load(action_phase), 0)
    for cap in ("5", 2.5, True, 0):
        view["action_cap"] = cap
        _refused(SPEC.determinize, view, random.Random(0), field="action_cap")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_view_of_a_real_game_is_read_by_every_reader(players):
    state = new(players, seed=players, action_cap=12)
    rng = random.Random(players)
    step = 0
    while True:
        if step % 7 == 0 or state.is_terminal():
            for seat in (None, *range(players)):
                view = _view(state, seat)
                assert SPEC.legal_actions_from_view(view) == (state.legal_actions(seat) if seat is not None else [])
                assert SPEC.determinize(view, rng).view(seat) == view
                assert SPEC.sampler(view)(rng).view(seat) == view
        if state.is_terminal():
            break
        seat = rng.choice(state.acting())
        state.apply(rng.choice(state.legal_actions(seat)), seat)
        step += 1
