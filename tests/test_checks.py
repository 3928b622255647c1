"""The engine's readers of JSON from outside (nemeton.engine.checks): each returns the value it
checked, or raises RecordError naming the field by its path and saying what is allowed, with
the bad value quoted short (a list or an object by its size)."""

from __future__ import annotations

import random
import re

import pytest

from nemeton.engine import RecordError, rng_to_json
from nemeton.engine import checks


def _refused(call, *args, **kwargs) -> str:
    with pytest.raises(RecordError) as info:
        call(*args, **kwargs)
    return str(info.value)


# ----- one field -------------------------------------------------------------------------------------------
def test_field_returns_the_value_and_names_a_missing_key_by_its_path():
    assert checks.field({"a": 0}, "a") == 0
    assert checks.field({"a": None}, "a", "boards[1]") is None
    assert _refused(checks.field, {}, "a") == "a is missing"
    assert _refused(checks.field, {}, "reserve", "boards[1]") == "boards[1].reserve is missing"
    assert _refused(checks.field, {}, "seat", "history[0].") == "history[0].seat is missing"
    assert _refused(checks.field, [1, 2], "a", "boards[1]") == "boards[1] must be an object; got a list of 2 items"


@pytest.mark.parametrize("value", [True, 1.0, "1", None, [1], 7, -1])
def test_integer_refuses_booleans_floats_text_and_numbers_out_of_range(value):
    message = _refused(checks.integer, value, "boards[0].reserve[2]", 0, 6)
    assert message.startswith("boards[0].reserve[2] must be an integer from 0 to 6; got ")


def test_integer_and_seat_return_what_they_checked():
    assert checks.integer(0, "x", 0, 6) == 0 and checks.integer(6, "x", 0, 6) == 6
    assert checks.seat(2, "turn", 3) == 2
    assert _refused(checks.seat, 3, "turn", 3) == "turn must be an integer from 0 to 2; got 3"
    assert checks.seat_or_none(None, "first", 3) is None and checks.seat_or_none(1, "first", 3) == 1
    assert _refused(checks.seat_or_none, False, "first", 3) == "first must be null or a seat from 0 to 2; got False"


def test_boolean_is_true_or_false_not_a_number():
    assert checks.boolean(False, "ending") is False
    assert _refused(checks.boolean, 0, "ending") == "ending must be true or false; got 0"


def test_choice_numbers_a_name_and_lists_the_names_in_their_order():
    index = {"actions": 0, "placement": 1, "over": 2}
    assert checks.choice("over", "phase", index) == 2
    assert _refused(checks.choice, "bidding", "phase", index) == \
        "phase must be one of actions, placement, over; got 'bidding'"
    assert "one of actions" in _refused(checks.choice, ["over"], "phase", index)


def test_name_allows_null_only_when_asked_and_sorts_a_set_of_names():
    assert checks.name("T1", "slot", ("T1", "T2")) == "T1"
    assert checks.name(None, "slot", ("T1", "T2"), none=True) is None
    assert _refused(checks.name, None, "slot", {"b", "a"}) == "slot must be one of a, b; got None"
    assert _refused(checks.name, "c", "slot", {"b", "a"}, none=True) == "slot must be null or one of a, b; got 'c'"


def test_a_long_list_of_names_is_shown_by_its_first_names():
    names = [f"S{i:02}" for i in range(30)]
    message = _refused(checks.name, "S99", "figure", names)
    assert "one of 30 names (S00, S01, S02, S03, S04, S05, ...)" in message and "S29" not in message


def test_a_message_quotes_a_short_snippet_and_never_a_whole_list_or_object():
    secret = ["TOPSECRET"] * 50
    message = _refused(checks.integer, secret, "deck", 0, 1)
    assert message == "deck must be an integer from 0 to 1; got a list of 50 items"
    assert _refused(checks.integer, {"a": 1}, "deck", 0, 1).endswith("got an object with 1 key")
    assert len(_refused(checks.integer, "x" * 10_000, "deck", 0, 1)) < 100


# ----- lists and objects ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("least,most,size,fits,misfit", [
    (0, None, "items", [], "abc"),
    (2, None, "at least 2 items", [1, 2, 3], [1]),
    (3, 3, "3 items", [1, 2, 3], [1, 2, 3, 4]),
    (0, 4, "0 to 4 items", [1, 2, 3, 4], [1, 2, 3, 4, 5]),
])
def test_a_list_says_how_many_items_it_must_hold(least, most, size, fits, misfit):
    assert checks.a_list(fits, "xs", least, most) is fits
    message = _refused(checks.a_list, misfit, "xs", least, most)
    assert message == f"xs must be a list of {size}; got {checks.shown(misfit)}"


def test_per_seat_and_rows_hold_one_entry_per_seat():
    assert checks.per_seat([[], []], "hands", 2) == [[], []]
    assert _refused(checks.per_seat, [[]], "hands", 2) == \
        "hands must be a list with one entry per seat (2); got a list of 1 item"
    assert checks.rows([["a"], []], "fronts", 2, 0, 2) == [["a"], []]
    assert _refused(checks.rows, [["a", "b", "c"], []], "fronts", 2, 0, 2).startswith(
        "fronts must hold 2 lists (one per seat) of 0 to 2 items")
    assert "of 2 items" in _refused(checks.rows, [["a"], ["b"]], "hands", 2, 2, 2)


def test_integers_and_booleans_check_every_item_and_the_count():
    assert checks.integers([0, 3, 1], "levels", 0, 3, 3) == [0, 3, 1]
    for bad in ([0, 0, True], [0, 0], [0, 0, 4], "000"):
        assert _refused(checks.integers, bad, "levels", 0, 3, 3).startswith("levels must list 3 integers from 0 to 3")
    assert checks.booleans([True, False], "trapped", 2) == [True, False]
    assert _refused(checks.booleans, [1, 0], "trapped", 2).startswith("trapped must list 2 booleans")


def test_names_and_distinct_refuse_a_name_listed_twice():
    assert checks.names(["P1a", "P2a"], "potions", {"P1a", "P2a"}, unique=True) == ["P1a", "P2a"]
    assert checks.names(["T1", "T1"], "tablets", ("T1",)) == ["T1", "T1"]
    assert _refused(checks.names, ["P1a", "P1a"], "potions", {"P1a"}, unique=True) == "potions: lists a name twice"
    assert _refused(checks.names, ["P1a", "X"], "potions", ("P1a",)) == "potions[1] must be one of P1a; got 'X'"
    assert _refused(checks.distinct, [(0, 1), (0, 1)], "pending[0]", "a cell") == "pending[0]: lists a cell twice"


def test_seats_are_distinct_seats_in_range():
    assert checks.seats([2, 0], "winners", 3) == [2, 0]
    for bad in ([0, 0], [3], [True], "0", [0.0]):
        assert _refused(checks.seats, bad, "winners", 3).startswith(
            "winners must be a list of distinct seats from 0 to 2; got")
    assert "at least 1" in _refused(checks.seats, [], "one_more", 3, least=1)


def test_keyed_needs_exactly_the_keys():
    assert checks.keyed({"a": 1, "b": 2}, "gems", {"a": 0, "b": 0}) == {"a": 1, "b": 2}
    assert checks.keyed({"a": 1}, "gems", frozenset({"a"})) == {"a": 1}
    assert _refused(checks.keyed, {"a": 1}, "gems", {"a": 0, "b": 0}) == \
        "gems must be an object with the keys a, b; got an object with 1 key"
    assert _refused(checks.keyed, [], "gems", {}, "an object counting the gems") == \
        "gems must be an object counting the gems; got a list of 0 items"


def test_random_stream_reads_what_rng_to_json_wrote_and_names_the_field_otherwise():
    stream = random.Random(5)
    assert checks.random_stream(rng_to_json(stream)).random() == stream.random()
    broken = rng_to_json(random.Random(5))
    broken[1][3] = -1
    assert re.match(r"rng: a random stream's words must be", _refused(checks.random_stream, broken))
    assert _refused(checks.random_stream, [], "state.rng").startswith("state.rng: a random stream must be")


# ----- the entries of a saved log ------------------------------------------------------------------------------------
def _event(**changes):
    return {"kind": "swap", "seat": 1, "round": 2, "fields": {}, "secret": None, "seen_by": [], **changes}


def test_event_head_returns_the_envelope_of_an_event():
    assert checks.event_head(_event(), "events[4]", 3, {"swap"}, (1, 8), "a kind") == ("swap", 1, 2, frozenset())
    assert checks.event_head(_event(seat=None, seen_by=[2, 0]), "events[4]", 3, {"swap"}, (1, 8), "a kind") == \
        ("swap", None, 2, frozenset({0, 2}))


@pytest.mark.parametrize("changes,fragment", [
    ({"kind": "teleport"}, "events[4].kind must be a kind of event; got 'teleport'"),
    ({"seat": 3}, "events[4].seat must be null or a seat from 0 to 2; got 3"),
    ({"seat": True}, "events[4].seat must be null or a seat"),
    ({"round": 9}, "events[4].round must be an integer from 1 to 8; got 9"),
    ({"seen_by": [1, 1]}, "events[4].seen_by must be a list of distinct seats from 0 to 2"),
    ({"note": "x"}, "events[4] must be an event, an object with the keys fields, kind, round, secret, seat, seen_by"),
])
def test_event_head_names_the_bad_part_of_an_event(changes, fragment):
    message = _refused(checks.event_head, _event(**changes), "events[4]", 3, {"swap"}, (1, 8), "a kind of event")
    assert message.startswith(fragment), message


def test_event_head_needs_the_seat_the_round_and_the_fields():
    for key in ("kind", "seat", "round", "fields"):
        data = _event()
        del data[key]
        assert _refused(checks.event_head, data, "events[0]", 3, {"swap"}, (1, 8), "a kind") == \
            f"events[0].{key} is missing"
