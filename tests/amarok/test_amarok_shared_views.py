"""Amarok's shared views (the RL fast path): the same view as ``view(seat)``, whose unchanged
parts are handed out again as the same objects, never showing a seat what it may not see."""

import copy
import random

import numpy as np
import pytest

from nemeton.engine import InvalidSeatError, get_game

from amarok_positions import position

SPEC = get_game("amarok")
HANDS = "R5 B7 | R3 B2 | B4 B9 | R1 R7"


def test_shared_view_checks_the_seat_like_the_view():
    state = SPEC.make(players=4, seed=3)
    for bad in (True, 1.5, "1", -1, 4, 9):
        with pytest.raises(InvalidSeatError):
            state.shared_view(bad)
    assert state.shared_view(np.int64(2)) == state.view(2)
    assert state.shared_view(None) == state.view(None)


def test_a_hand_row_is_one_object_for_every_viewer_who_sees_it_alike():
    # seat 1 has one round win: it sees its slot 0, every other seat its slot 1
    state = position(4, hands=HANDS, levels=[0, 1, 2, 0])
    views = {seat: state.shared_view(seat) for seat in (None, 0, 1, 2, 3)}
    assert views[0]["hands"][1] is views[2]["hands"][1] is views[3]["hands"][1]
    assert views[0]["hands"][1] == [{"card": None, "facing": "owner"}, {"card": "B2", "facing": "others"}]
    assert views[1]["hands"][1] == [{"card": "R3", "facing": "owner"}, {"card": None, "facing": "others"}]
    assert views[None]["hands"][1] == [{"card": None, "facing": "owner"}, {"card": None, "facing": "others"}]
    for seat, view in views.items():
        assert view == state.view(seat)


def test_parts_no_card_touched_are_handed_out_again_and_earlier_views_stay_as_they_were():
    state = SPEC.make(players=6, seed=8)
    state.record_events(False)
    rng = random.Random(8)
    for _ in range(30):
        if state.is_terminal():
            break
        seat = state.current_player
        before = state.shared_view(seat)
        kept = copy.deepcopy(before)
        state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)
        after = state.shared_view(seat)
        assert before == kept, "a later step changed a view handed out earlier"
        if after["round"] == before["round"]:
            unchanged = [p for p in range(6) if after["fronts"][p] == before["fronts"][p]]
            assert len(unchanged) >= 5 and all(after["fronts"][p] is before["fronts"][p] for p in unchanged)
            assert all(a is b for a, b in zip(after["hands"], before["hands"]) if a == b)
        assert after == state.view(seat)


def test_a_fresh_view_edited_between_two_encodings_is_read_again():
    """The encoder keeps what a row gives by the row's identity only for memos (fed shared
    views, never edited); a fresh view may be edited and encoded again."""
    state = position(4, hands=HANDS, fronts="R10 | | | ", levels=[0, 1, 2, 0])
    encoding = SPEC.encoding(state.options)
    view = state.view(0)
    before = encoding.encode(view)
    encoding.encode(view, memo=encoding.new_memo())
    view["hands"][2][0] = None
    view["fronts"][0].append("B0")
    edited = encoding.encode(view)
    assert not np.array_equal(edited, before)
    assert np.array_equal(edited, encoding.encode(copy.deepcopy(view)))


def test_a_hand_rows_identity_never_tells_which_hidden_card_it_hides():
    """Rows are interned by what is seen, not by the cards behind them: two tables whose
    hidden cards differ hand out the very same row objects to a seat that sees them alike."""
    first = position(4, hands=HANDS, levels=[0, 1, 2, 0])
    other = position(4, hands="R5 B7 | R9 B2 | B4 B9 | R1 R7", levels=[0, 1, 2, 0])  # seat 1's hidden R3 -> R9
    for seat in (None, 0, 2, 3):
        a, b = first.shared_view(seat)["hands"][1], other.shared_view(seat)["hands"][1]
        assert a == b and a is b
    assert first.shared_view(1)["hands"][1] != other.shared_view(1)["hands"][1]
