"""Alarún's own paths for what the RL environments ask at every step give what the engine's
generic paths give: legal actions for a plain int seat, the shared view with its envelope
written by view.py, and each square's potion points as the view keeps them (grown card by
card, the other seats' hidden placements left out) against a square scored from scratch."""

from __future__ import annotations

import copy
import random

import numpy as np
import pytest

from nemeton.engine import InvalidSeatError
from nemeton.games.alarun.components import CARD_IDS
from nemeton.games.alarun.scoring import score_grid
from nemeton.games.alarun.square import MagicSquare, cell_index

from alarun_helpers import new


def _play(players: int, seed: int):
    """Every state of one random game (placements by any acting seat, in random order)."""
    rng = random.Random(seed)
    state = new(players, seed=seed)
    while not state.is_terminal():
        yield state
        seat = rng.choice(state.acting())
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    yield state


def _scored_from_scratch(cells: list) -> int:
    square = MagicSquare.from_cards([(cell_index(x, y), CARD_IDS[name]) for x, y, name in cells])
    return score_grid(square.grid(), None).potions


@pytest.mark.parametrize("players", [2, 3, 4])
def test_legal_actions_of_every_seat_are_the_acting_seats_rules_at_every_step(players):
    """Without asking acting() (waiting_seats_have_no_actions), a seat gets the rules'
    actions when it acts and none when it waits."""
    for state in _play(players, seed=players):
        acting = state.acting()
        for seat in range(players):
            expected = state._legal_actions(seat) if seat in acting else []
            assert state.legal_actions(seat) == expected
            assert state.legal_actions(np.int64(seat)) == expected
        assert state.legal_actions() == (state._legal_actions(state.current_player) if acting else [])


def test_legal_actions_refuse_a_seat_that_is_not_one_as_the_engine_does():
    state = new(3, seed=1)
    for bad in (3, -1, True, "0", 1.0):
        with pytest.raises(InvalidSeatError):
            state.legal_actions(bad)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_shared_views_equal_fresh_views_with_potion_points_scored_from_scratch(players):
    for state in _play(players, seed=10 + players):
        for seat in [None, *range(players)]:
            shared = state.shared_view(seat)
            assert shared == state.view(seat)
            assert shared["potion_points"] == [_scored_from_scratch(cells) for cells in shared["squares"]]


def test_the_shared_view_takes_numpy_seats_and_refuses_bad_ones_as_the_engine_does():
    state = new(2, seed=3)
    assert state.shared_view(np.int32(1)) == state.view(1)
    for bad in (2, -1, True, "1"):
        with pytest.raises(InvalidSeatError):
            state.shared_view(bad)


def test_a_fresh_view_edited_between_two_encodings_is_read_again():
    """The centre's and discard's parts are kept by the list's identity for every observer
    only for shared views (never edited); a fresh view may be edited and encoded again."""
    from nemeton.engine import get_game
    state = new(2, seed=4)
    encoding = get_game("alarun").encoding(state.options)
    view = state.view(0)
    before = encoding.encode(view)
    view["centre"].append(view["centre"][0])
    view["discard"].append(view["centre"][0])
    edited = encoding.encode(view)
    assert not np.array_equal(edited, before)
    assert np.array_equal(edited, encoding.encode(copy.deepcopy(view)))
