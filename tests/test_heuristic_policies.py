"""Every game's heuristic is one policy of what its seat sees (engine/heuristic.py).

``choose_from_view`` (what the heuristic agent plays) and ``choose_in_state`` (search's
rollouts) must be the same function of the seat's view: for a view and any state with that
view they choose the same action and draw the same numbers from the caller's random stream
(after the call both streams are in the same state); and the state policy must not read the
hidden parts: a state the determinizer deals from the seat's view gets the same choice. The
positions come from random games and from games the heuristic plays itself, at every player
count and listed variant, and from the test game (Kuhn poker).
"""

from __future__ import annotations

import json
import random

import pytest

import toygame
from nemeton.engine import get_game, list_games

CONFIGS = [pytest.param(spec.name, cfg, id=spec.name + "-" + "-".join(f"{k}={v}" for k, v in cfg.items()))
           for spec in list_games() if spec.heuristic is not None for cfg in spec.conformance_configs()]
# Edora's lookahead costs milliseconds an action: fewer positions there
EVERY = {"edora": 9}
SAMPLES = 2


@pytest.fixture
def kuhn():
    toygame.install()
    yield
    toygame.uninstall()


def _positions(name, cfg, seed, by_heuristic):
    """(state, seat) at decisions with a real choice, along one game."""
    spec = get_game(name)
    heuristic = spec.heuristic()
    st = spec.make(seed=seed, **{**spec.bot_defaults, **cfg})
    rng = random.Random(seed)
    every = EVERY.get(name, 2)
    step = 0
    while not st.is_terminal():
        if step % every == 0:
            for seat in st.acting():
                if len(st.legal_actions(seat)) > 1:
                    yield st, seat
        seat = rng.choice(st.acting())
        legal = st.legal_actions(seat)
        action = heuristic.choose_in_state(st, seat, legal, rng) if by_heuristic else rng.choice(legal)
        st.apply(action, seat)
        step += 1


def _check_policies(name, st, seat, key):
    """The three calls agree on the action and on the random stream; none changes the state."""
    spec = get_game(name)
    heuristic = spec.heuristic()
    legal = st.legal_actions(seat)
    view = json.loads(json.dumps(st.view(seat)))
    before = json.dumps(st.to_json(), sort_keys=True)
    r_view = random.Random(key)
    by_view = heuristic.choose_from_view(view, legal, r_view)
    r_state = random.Random(key)
    by_state = heuristic.choose_in_state(st, seat, legal, r_state)
    assert json.dumps(st.to_json(), sort_keys=True) == before, "choose_in_state changed the state"
    where = f"{name} seat {seat}, {len(legal)} legal actions"
    assert by_view == by_state, f"{where}: from the view {by_view}, in the state {by_state}"
    assert r_view.getstate() == r_state.getstate(), f"{where}: the two policies use the random stream differently"
    for k in range(SAMPLES):
        sample = spec.determinize(view, random.Random(1000 * key + k))
        r_sample = random.Random(key)
        by_sample = heuristic.choose_in_state(sample, seat, legal, r_sample)
        assert by_sample == by_state, f"{where}: a state dealt from the view gets {by_sample}, the real one {by_state}"
        assert r_sample.getstate() == r_state.getstate(), f"{where}: the stream's use depends on hidden parts"


@pytest.mark.parametrize("by_heuristic", [False, True], ids=["random-games", "heuristic-games"])
@pytest.mark.parametrize("name,cfg", CONFIGS)
def test_view_policy_and_state_policy_are_one_function_of_what_the_seat_sees(name, cfg, by_heuristic):
    checked = 0
    for seed in range(2):
        for st, seat in _positions(name, cfg, 10 * seed + by_heuristic, by_heuristic):
            _check_policies(name, st, seat, checked)
            checked += 1
    assert checked >= 5, "too few positions with a choice were checked"


def test_the_test_games_policies_agree_too(kuhn):
    checked = 0
    for seed in range(12):
        for st, seat in _positions("kuhn", {}, seed, seed % 2 == 1):
            _check_policies("kuhn", st, seat, seed)
            checked += 1
    assert checked >= 12
