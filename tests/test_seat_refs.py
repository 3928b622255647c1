"""Seats as structured references: sentences name seats with markers (``seat_ref``), and
every log entry and error carries ``parts`` (strings and ``{"seat": n}``) beside its plain
text, so that clients show the players' names and never parse English."""

from __future__ import annotations

import pickle
import re

import pytest

import nemeton
from nemeton.engine.errors import IllegalActionError, InvalidOptionsError, NemetonError, RecordError
from nemeton.engine.log import ENTRY_KEYS, render_parts, seat_ref, split_parts, who

INDEX = re.compile(r"\b[Ss]eats? \d")
MARK = re.compile("[\ue000\ue001]")


# ----- the units -------------------------------------------------------------------------
def test_seat_ref_is_a_private_use_marker():
    assert seat_ref(2) == "\ue0002\ue001"
    assert who(2, 0) == seat_ref(2) and who(2, 0, capital=True) == seat_ref(2)
    assert who(0, 0) == "you" and who(0, 0, capital=True) == "You"
    assert who(None, 0) == "the game" and who(None, 1, capital=True) == "The game"


def test_split_parts_gives_plain_text_and_parts():
    text = f"{seat_ref(2)} takes the card of {seat_ref(0)}. {seat_ref(1)}'s turn"
    plain, parts = split_parts(text, 3)
    assert plain == "Seat 2 takes the card of seat 0. Seat 1's turn"
    assert parts == [{"seat": 2}, " takes the card of ", {"seat": 0}, ". ", {"seat": 1}, "'s turn"]
    assert render_parts(parts, ["Ann", "Bob", "Cid"]) == "Cid takes the card of Ann. Bob's turn"
    assert render_parts(parts, lambda s: f"<{s}>") == "<2> takes the card of <0>. <1>'s turn"
    assert render_parts(parts, {0: "A", 1: "B", 2: "C"}) == "C takes the card of A. B's turn"


def test_split_parts_without_markers_and_empty():
    assert split_parts("You pass.") == ("You pass.", ["You pass."])
    assert split_parts("") == ("", [])
    assert split_parts(seat_ref(0)) == ("Seat 0", [{"seat": 0}])
    assert split_parts(f"{seat_ref(0)}{seat_ref(1)}", 2)[1] == [{"seat": 0}, {"seat": 1}]


def test_split_parts_capital_only_where_a_sentence_starts():
    assert split_parts(f"the team of {seat_ref(1)} and {seat_ref(3)} wins")[0] == "the team of seat 1 and seat 3 wins"
    assert split_parts(f"Round over: {seat_ref(1)} wins")[0] == "Round over: seat 1 wins"
    assert split_parts(f"{seat_ref(1)} may not act", capital=False)[0] == "seat 1 may not act"


@pytest.mark.parametrize("text,players,plain,parts", [
    # a number that is not a seat: plain text without the marker characters
    ("\ue0009\ue001 wins", 4, "9 wins", ["9 wins"]),
    ("x \ue00012\ue001 y \ue0001\ue001", 4, "x 12 y seat 1", ["x 12 y ", {"seat": 1}]),
    # stray marker characters, a marker around something that is no number, leading zeros
    ("a\ue000b\ue001c", None, "abc", ["abc"]),
    ("\ue001\ue000\ue000", None, "", []),
    ("\ue000-1\ue001 and \ue00001\ue001", 4, "-1 and 01", ["-1 and 01"]),
    ("\ue000\ue0002\ue001\ue001!", 4, "Seat 2!", [{"seat": 2}, "!"]),
    # a huge number never becomes a seat (nor an int too long to convert)
    ("\ue000" + "9" * 5000 + "\ue001", None, "9" * 5000, ["9" * 5000]),
])
def test_split_parts_with_hostile_text(text, players, plain, parts):
    got_plain, got_parts = split_parts(text, players)
    assert (got_plain, got_parts) == (plain, parts)
    assert not MARK.search(got_plain)
    assert all(not MARK.search(p) for p in got_parts if isinstance(p, str))
    assert all(p for p in got_parts if isinstance(p, str))  # no empty string


def test_adjacent_strings_are_merged():
    _, parts = split_parts("a\ue000x\ue001b\ue0007\ue001c", 3)
    assert parts == ["axb7c"]


# ----- errors ----------------------------------------------------------------------------
def test_errors_split_their_message_and_pickle():
    exc = IllegalActionError(f"{seat_ref(1)} may not act now; acting: {seat_ref(0)}")
    assert str(exc) == "seat 1 may not act now; acting: seat 0"
    assert exc.parts == [{"seat": 1}, " may not act now; acting: ", {"seat": 0}]
    for error in (exc, RecordError("plain"), NemetonError(), InvalidOptionsError("bad \ue000x")):
        twin = pickle.loads(pickle.dumps(error))
        assert type(twin) is type(error) and str(twin) == str(error) and twin.parts == error.parts
        assert not MARK.search(str(twin))
    assert str(InvalidOptionsError("bad \ue000x")) == "bad x"


def test_a_marker_in_an_option_value_echoed_in_an_error_is_no_seat():
    with pytest.raises(InvalidOptionsError) as caught:
        nemeton.make("amarok", players=3, rounds_to_win=f"{seat_ref(1)}")
    assert not any(isinstance(p, dict) for p in caught.value.parts)
    assert not MARK.search(str(caught.value))


def test_entry_keys_include_parts():
    assert "parts" in ENTRY_KEYS and "text" in ENTRY_KEYS
