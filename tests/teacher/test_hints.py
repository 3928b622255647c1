"""Hints: the search's preferred actions for a seat, from its view alone, reproducible."""

from __future__ import annotations

import json
import random

import pytest

from configs import game_configs
from nemeton.engine import get_game
from nemeton.teacher import HintMove, hint, iterations_for
from nemeton.teacher.hints import MAX_ITERATIONS, MIN_ITERATIONS


def _midgame(name, cfg, seed, steps):
    spec = get_game(name)
    state = spec.make(seed=seed, **{**spec.bot_defaults, **cfg})
    rng = random.Random(seed)
    for _ in range(steps):
        acting = state.acting()
        if not acting:
            break
        seat = acting[0]
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    assert not state.is_terminal()
    return spec, state


@pytest.mark.parametrize("name,cfg", game_configs())
def test_a_hint_is_a_function_of_the_seats_view_and_the_seed(name, cfg):
    """Swap test: true states that differ only in what the seat cannot see give the same
    hint for the same seed; the hint names legal actions of that seat."""
    spec, state = _midgame(name, cfg, seed=11, steps=13)
    seat = state.acting()[-1]
    view = json.loads(json.dumps(state.view(seat)))
    hints = []
    for k in range(3):
        truth = spec.determinize(view, random.Random(500 + k))  # another true state behind the view
        assert truth.view(seat) == view
        hints.append(hint(spec, truth.view(seat), seat, iterations=60, seed=4))
    assert hints[0] == hints[1] == hints[2]
    legal = state.legal_actions(seat)
    moves = hints[0]
    assert 1 <= len(moves) <= 3 and len(moves) == min(3, len(legal))
    assert all(isinstance(m, HintMove) and m.action in legal and 0.0 <= m.win <= 1.0 for m in moves)
    assert [m.visits for m in moves] == sorted((m.visits for m in moves), reverse=True)
    assert len({m.action for m in moves}) == len(moves)


def test_hints_differ_with_the_seed_or_the_view_but_not_on_a_rerun():
    spec, state = _midgame("alarun", {"players": 3}, seed=2, steps=6)
    seat = state.acting()[0]
    view = state.view(seat)
    first = hint(spec, view, seat, iterations=200, seed=1)
    assert hint(spec, view, seat, iterations=200, seed=1) == first
    others = [hint(spec, view, seat, iterations=200, seed=s) for s in (2, 3, 4)]
    assert any([m.visits for m in o] != [m.visits for m in first] for o in others)


def test_hint_json_names_the_action_as_the_server_encodes_it():
    spec, state = _midgame("amarok", {"players": 3}, seed=2, steps=4)
    seat = state.acting()[0]
    move = hint(spec, state.view(seat), seat, iterations=80, seed=0, top=1)[0]
    data = move.to_json()
    assert set(data) == {"action", "text", "win", "visits"}
    assert data["action"] == move.action.to_json() and data["text"] and data["visits"] == move.visits
    assert spec.legal_actions_from_view(state.view(seat))[0].to_json() is not None


def test_a_seat_without_a_decision_gets_a_clear_refusal():
    spec, state = _midgame("edora", {"players": 2}, seed=3, steps=3)
    waiting = next(s for s in range(2) if s not in state.acting())
    with pytest.raises(ValueError, match="no decision"):
        hint(spec, state.view(waiting), waiting, iterations=50)
    acting = state.acting()[0]
    with pytest.raises(ValueError, match="own view"):
        hint(spec, state.view(waiting), acting, iterations=50)


def test_seconds_become_a_bounded_number_of_iterations_measured_once():
    spec = get_game("amarok")
    n = iterations_for(spec, {"players": 3}, 0.5)
    assert MIN_ITERATIONS <= n <= MAX_ITERATIONS
    assert iterations_for(spec, {"players": 3}, 0.5) == n  # cached for the process
    assert iterations_for(spec, {"players": 3}, 1e-6) == MIN_ITERATIONS
    with pytest.raises(ValueError):
        iterations_for(spec, {"players": 3}, -1)


def test_a_hint_on_a_board_the_kernel_does_not_implement_searches_with_the_python_rules():
    # Edora's kernel refuses another board: the hint (and the analysis, through the same
    # search) must still answer, playing out with the reference rules (it used to raise
    # KernelUnsupported from inside the search)
    pytest.importorskip("numba")
    from nemeton.games.edora.board import standard_board_text
    from nemeton.teacher.hints import fast_engine

    spec = get_game("edora")
    board = standard_board_text().replace("start_provisions: 15", "start_provisions: 16")
    state = spec.make(seed=3, players=2, board=board)
    seat = state.current_player
    view = state.view(seat)
    assert fast_engine(spec, view["options"]) is False
    assert fast_engine(spec, spec.make(seed=3, players=2).view(seat)["options"]) is True
    moves = hint(spec, view, seat, iterations=60)
    assert moves and all(m.action in state.legal_actions(seat) for m in moves)
