"""The RL edge's fast paths give what the engine's generic paths give: the whole shared view
(envelope written by the game), legal actions for a plain int seat, and observations whose
boards are read once for every observer's memo."""

import random

import numpy as np
import pytest

from nemeton.engine import InvalidSeatError, get_game

SPEC = get_game("edora")


def _random_steps(options: dict, seed: int, steps: int):
    """The states of a random game (variants included), one per step."""
    opts = SPEC.options(**{**SPEC.bot_defaults, **options})
    state = SPEC.new_state(opts, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        yield state
        seat = rng.choice(state.acting())
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    yield state


@pytest.mark.parametrize("options", [{"players": 2}, {"players": 3, "arranged_herbs": True},
                                     {"players": 4, "tablet_draft": True, "shared_dice": True}])
def test_the_shared_view_is_the_engines_view_with_its_envelope_for_every_viewer(options):
    for state in _random_steps(options, 3, 120):
        for seat in [*range(state.n), None]:
            shared = state.shared_view(seat)
            assert shared == state.view(seat)
            envelope = state._envelope(seat)   # the engine's own values for the keys the game writes
            assert {key: shared[key] for key in envelope} == envelope


def test_a_shared_view_checks_its_seat_like_any_view():
    state = SPEC.new_state(SPEC.options(players=2), 1)
    assert state.shared_view(np.int64(1)) == state.view(1)
    for bad in (2, -1, "0", True, 1.0):
        with pytest.raises(InvalidSeatError):
            state.shared_view(bad)


@pytest.mark.parametrize("options", [{"players": 2}, {"players": 3, "arranged_herbs": True}])
def test_legal_actions_of_a_plain_int_seat_are_the_engines_for_acting_and_waiting_seats(options):
    for state in _random_steps(options, 5, 150):
        acting = state.acting()
        for seat in range(state.n):
            assert state.legal_actions(seat) == (state._legal_actions(seat) if seat in acting else [])
    assert state.legal_actions(np.int64(0)) == (state._legal_actions(0) if 0 in state.acting() else [])
    with pytest.raises(InvalidSeatError):
        state.legal_actions(state.n)


@pytest.mark.parametrize("players", [2, 4])
def test_every_observers_memo_gives_the_fresh_observation_at_every_step(players):
    opts = SPEC.options(**{**SPEC.bot_defaults, "players": players})
    encoding = SPEC.encoding(opts)
    memos = {seat: encoding.new_memo() for seat in [*range(players), None]}
    for state in _random_steps({"players": players}, 11, 150):
        for seat, memo in memos.items():
            fresh = encoding.encode(state.view(seat))
            assert np.array_equal(encoding.encode(state.shared_view(seat), memo=memo), fresh)


def test_a_fresh_observation_reads_a_view_changed_in_place_again():
    opts = SPEC.options(players=2)
    encoding = SPEC.encoding(opts)
    state = SPEC.new_state(opts, 2)
    memo = encoding.new_memo()
    view = state.view(1)
    encoding.encode(view, memo=memo)        # the memo path keeps the boards it read
    before = encoding.encode(view)
    view["boards"][0]["provisions"] += 6    # a fresh view may be changed; only memos must not see it
    after = encoding.encode(view)
    changed = np.flatnonzero(after != before)
    assert len(changed) == 1 and after[changed[0]] - before[changed[0]] == pytest.approx(6 / 30)
