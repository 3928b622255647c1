"""The shared conformance suite: every registered game, every player count and variant.

Random playthroughs terminate with valid results, every action taken is legal, replay
and JSON round trips are exact, clones share nothing, views leak nothing the determinizer
can re-sample, and the determinizer's samples are consistent with the view.
"""

from __future__ import annotations

import json
import random

import pytest

from nemeton.engine import (GameRecord, IllegalActionError, get_game, random_playout)
from nemeton.engine.state import TERMINAL

from conftest import game_configs

CONFIGS = game_configs()


def _make(name, cfg, seed):
    spec = get_game(name)
    opts = {**spec.bot_defaults, **cfg}
    return spec, spec.make(seed=seed, **opts)


def _roundtrip(data):
    return json.loads(json.dumps(data))


def _playthrough(state, rng, on_step=None, limit=200_000):
    steps = 0
    while not state.is_terminal():
        assert steps < limit, "game did not terminate"
        acting = state.acting()
        assert acting and state.current_player == min(acting)
        seat = rng.choice(acting)
        legal = state.legal_actions(seat)
        assert legal, f"no legal action for acting seat {seat}"
        action = rng.choice(legal)
        if on_step:
            on_step(state, seat, legal, action, steps)
        state.apply(action, seat)  # checked: every action taken is legal
        steps += 1
    return steps


@pytest.mark.parametrize("name,cfg", CONFIGS)
def test_random_playthroughs_terminate_with_valid_results(name, cfg):
    for seed in range(3):
        spec, state = _make(name, cfg, seed)
        _playthrough(state, random.Random(seed))
        n = state.num_players
        assert state.is_terminal() and state.current_player == TERMINAL
        assert state.acting() == () and state.legal_actions() == []
        scores = state.scores()
        assert len(scores) == n and all(isinstance(s, (int, float)) for s in scores)
        ranks = state.ranking()
        assert sorted(set(ranks))[0] == 1 and all(1 <= r <= n for r in ranks)
        returns = state.returns()
        winners = state.winners()
        assert winners, "a finished game has at least one winner"
        teams = {}
        for s in range(n):
            teams.setdefault(state.team_of(s), returns[s])
            assert returns[s] == teams[state.team_of(s)], "team members share their result"
        assert sum(teams.values()) == pytest.approx(1.0)
        for s in range(n):
            assert (returns[s] > 0) == (s in winners or state.team_of(s) in {state.team_of(w) for w in winners})


@pytest.mark.parametrize("name,cfg", CONFIGS)
def test_same_seed_same_game_and_replay_from_record_is_identical(name, cfg):
    spec, a = _make(name, cfg, 11)
    _, b = _make(name, cfg, 11)
    assert a.to_json() == b.to_json()
    random_playout(a, random.Random(5))
    record = GameRecord.loads(json.dumps(a.record().to_json()))
    replayed = record.replay()
    assert replayed.to_json() == a.to_json()
    assert replayed.scores() == a.scores()


@pytest.mark.parametrize("name,cfg", CONFIGS)
def test_state_and_action_json_round_trip(name, cfg):
    spec, state = _make(name, cfg, 3)
    rng = random.Random(3)

    def check(st, seat, legal, action, step):
        if step % 7:
            return
        data = _roundtrip(st.to_json())
        copy = spec.state_from_json(data)
        assert copy.to_json() == st.to_json()
        for a in legal:
            assert spec.action_from_json(_roundtrip(a.to_json())) == a
            assert str(a)
        # the copy continues exactly like the original (random stream included)
        twin = copy.clone()
        orig = st.clone()
        r1, r2 = random.Random(step), random.Random(step)
        random_playout(twin, r1)
        random_playout(orig, r2)
        assert twin.to_json() == orig.to_json()

    _playthrough(state, rng, check)


@pytest.mark.parametrize("name,cfg", CONFIGS)
def test_clone_shares_no_mutable_part(name, cfg):
    spec, state = _make(name, cfg, 4)
    rng = random.Random(4)

    def check(st, seat, legal, action, step):
        if step % 5:
            return
        before = json.dumps(st.to_json(), sort_keys=True)
        twin = st.clone()
        assert json.dumps(twin.to_json(), sort_keys=True) == before
        random_playout(twin, random.Random(step))  # mutate the clone to the end
        assert json.dumps(st.to_json(), sort_keys=True) == before
        twin2 = st.clone()
        st2 = st.clone()
        st2.apply(action, seat)  # mutating a copy of the original never changes a clone
        assert json.dumps(twin2.to_json(), sort_keys=True) == before

    _playthrough(state, rng, check)


@pytest.mark.parametrize("name,cfg", CONFIGS)
def test_illegal_action_raises_and_changes_nothing(name, cfg):
    spec, state = _make(name, cfg, 6)
    rng = random.Random(6)
    seen = []

    def check(st, seat, legal, action, step):
        seen.extend(legal[:3])
        if step % 9:
            return
        before = st.to_json()
        for candidate in seen[-40:]:
            if candidate not in legal:
                with pytest.raises(IllegalActionError):
                    st.apply(candidate, seat)
                assert st.to_json() == before
        others = [s for s in range(st.num_players) if s not in st.acting()]
        if others:
            with pytest.raises(IllegalActionError):
                st.apply(action, others[0])
            assert st.to_json() == before

    _playthrough(state, rng, check)
    with pytest.raises(IllegalActionError):
        state.apply(seen[0])


@pytest.mark.parametrize("name,cfg", CONFIGS)
def test_views_leak_nothing_and_determinizer_is_consistent(name, cfg):
    spec, state = _make(name, cfg, 8)
    rng = random.Random(8)
    varied = {"hidden": False}

    def check(st, seat, legal, action, step):
        if step % 6:
            return
        full = json.dumps(st.to_json(), sort_keys=True)
        public = st.view(None)
        assert _roundtrip(public) == public
        for s in range(st.num_players):
            view = st.view(s)
            assert _roundtrip(view) == view, "views are JSON-ready"
            if s in st.acting():
                assert spec.legal_actions_from_view(view) == st.legal_actions(s)
            for k in range(2):
                sample = spec.determinize(_roundtrip(view), random.Random(1000 * step + 10 * s + k))
                assert sample.view(s) == view, "re-sampling the hidden part changes the seat's view"
                assert sample.view(None) == public, "re-sampling changes the spectator view"
                if s in st.acting():
                    assert sample.legal_actions(s) == st.legal_actions(s)
                if json.dumps(sample.to_json(), sort_keys=True) != full:
                    varied["hidden"] = True
                assert json.dumps(st.to_json(), sort_keys=True) == full, "determinize must not touch the state"
        # the search fast path (if any) samples states consistent with the view too
        sampler = spec.sampler(_roundtrip(st.view(seat)))
        for k in range(2):
            fast = sampler(random.Random(step + k))
            assert fast.view(seat) == st.view(seat)
            assert fast.legal_actions(seat) == st.legal_actions(seat)
        # a sample is a full, playable state
        sample = spec.determinize(st.view(seat), random.Random(step))
        random_playout(sample, random.Random(step))
        assert sample.is_terminal()

    _playthrough(state, rng, check)
    assert varied["hidden"], "the determinizer never re-sampled anything"
