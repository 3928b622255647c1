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

from configs import game_configs

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


# ----- the view envelope, checked seats, fresh views ---------------------------------------

ENVELOPE = ("game", "seat", "players", "acting", "round", "terminal", "scores")
BAD_SEATS = ("0", 0.9, 1.0, True, False, -1, [0], {"seat": 0})


def _check_envelope(spec, st, viewer, view):
    assert tuple(view)[:len(ENVELOPE)] == ENVELOPE, "every view starts with the engine's envelope"
    n = st.num_players
    assert view["game"] == spec.name and view["seat"] == viewer and view["players"] == n
    assert view["acting"] == list(st.acting()) and view["round"] == st.round
    assert view["terminal"] == st.is_terminal()
    scores = view["scores"]
    assert isinstance(scores, list) and len(scores) == n
    assert all(x is None or isinstance(x, (int, float)) for x in scores)
    if st.is_terminal():
        assert scores == [float(x) for x in st.scores()], "final scores are public at the end"
    for key in ("to_act", "current_player", "player"):
        assert key not in view, f"the envelope's 'acting' replaces {key!r}"


def _scramble(value):
    """Mutate a JSON value in place as deeply as possible."""
    if isinstance(value, dict):
        for k in list(value):
            if isinstance(value[k], (dict, list)):
                _scramble(value[k])
            else:
                value[k] = "scrambled"
        value["scrambled"] = True
    elif isinstance(value, list):
        for i, item in enumerate(value):
            if isinstance(item, (dict, list)):
                _scramble(item)
            else:
                value[i] = "scrambled"
        value.append("scrambled")


def _has_key(value, key):
    if isinstance(value, dict):
        return key in value or any(_has_key(v, key) for v in value.values())
    if isinstance(value, list):
        return any(_has_key(v, key) for v in value)
    return False


@pytest.mark.parametrize("name,cfg", CONFIGS)
def test_views_share_the_envelope_and_are_fresh_data(name, cfg):
    spec, state = _make(name, cfg, 12)

    def check(st, seat, legal, action, step):
        if step % 5:
            return
        for viewer in [None, *range(st.num_players)]:
            view = st.view(viewer)
            _check_envelope(spec, st, viewer, view)
            assert not _has_key(view, "seed") and not _has_key(view, "rng"), "the seed is a secret"
            before = json.dumps(st.to_json(), sort_keys=True)
            _scramble(view)
            assert json.dumps(st.to_json(), sort_keys=True) == before, "a view shares data with the state"

    _playthrough(state, random.Random(12), check)
    for viewer in [None, *range(state.num_players)]:
        _check_envelope(spec, state, viewer, state.view(viewer))


@pytest.mark.parametrize("name,cfg", CONFIGS)
def test_legal_actions_are_empty_for_every_waiting_seat_at_every_step(name, cfg):
    """``legal_actions(seat)`` is empty for a seat that is not acting, and the game over;
    a game that says its ``_legal_actions`` already is (``waiting_seats_have_no_actions``,
    so the engine skips asking ``acting()``) is held to it directly."""
    spec, state = _make(name, cfg, 23)
    direct = state.waiting_seats_have_no_actions

    def check(st, seat, legal, action, step):
        acting = st.acting()
        for other in range(st.num_players):
            if other not in acting:
                assert st.legal_actions(other) == [], f"step {step}: seat {other} waits"
                if direct:
                    assert st._legal_actions(other) == [], f"step {step}: seat {other} waits"

    _playthrough(state, random.Random(23), check)
    for seat in range(state.num_players):
        assert state.legal_actions(seat) == []
        if direct:
            assert state._legal_actions(seat) == []


@pytest.mark.parametrize("name,cfg", CONFIGS)
def test_shared_views_equal_fresh_views_at_every_step_and_share_nothing_with_them(name, cfg):
    """``shared_view`` (read-only, unchanged parts handed out again) is the view, key for
    key, for every viewer at every step, through clones and JSON round trips; changing a
    fresh view changes no later shared view."""
    spec, state = _make(name, cfg, 21)

    def check(st, seat, legal, action, step):
        for viewer in [None, *range(st.num_players)]:
            view = st.view(viewer)
            assert st.shared_view(viewer) == view, f"step {step}, viewer {viewer}"
            _scramble(view)
            assert st.shared_view(viewer) == st.view(viewer), "a fresh view shares data with the shared one"
        if step % 40 == 17:
            twin = st.clone() if step % 80 == 17 else type(st).from_json(_roundtrip(st.to_json()))
            for viewer in [None, *range(st.num_players)]:
                assert twin.shared_view(viewer) == st.view(viewer)

    _playthrough(state, random.Random(21), check)
    for viewer in [None, *range(state.num_players)]:
        assert state.shared_view(viewer) == state.view(viewer)


@pytest.mark.parametrize("name,cfg", CONFIGS)
def test_seats_are_checked_everywhere(name, cfg):
    from nemeton.engine import InvalidSeatError
    spec, state = _make(name, cfg, 13)
    rng = random.Random(13)

    def check(st, seat, legal, action, step):
        if step % 11:
            return
        n = st.num_players
        before = st.to_json()
        for bad in (*BAD_SEATS, n, n + 5):
            for call in (lambda: st.view(bad), lambda: st.legal_actions(bad), lambda: st.log(bad),
                         lambda: st.apply(action, bad), lambda: st.describe_action(bad, action, None),
                         lambda: st.describe_action(seat, action, bad)):
                with pytest.raises(InvalidSeatError):
                    call()
        assert st.to_json() == before, "a bad seat changes nothing"
        for s in range(n):
            if s not in st.acting():
                assert st.legal_actions(s) == [], "a seat that is not acting has no legal action"

    _playthrough(state, rng, check)
    assert state.legal_actions() == [] and all(state.legal_actions(s) == [] for s in range(state.num_players))
    with pytest.raises(InvalidSeatError):
        state.view(state.current_player)  # TERMINAL is not a seat


# ----- the event log ---------------------------------------------------------------------------

def _new_entries(st, viewer, since):
    return st.log(viewer, since=since)


def _strip_index(entries):
    return [{k: v for k, v in e.items() if k != "i"} for e in entries]


@pytest.mark.parametrize("name,cfg", CONFIGS)
def test_every_action_is_logged_first_then_its_effects(name, cfg):
    spec, state = _make(name, cfg, 14)
    kinds = set(spec.event_kinds)
    assert kinds, "the game declares its event kinds"
    seen_kinds = set()

    def check(st, seat, legal, action, step):
        start = st.log_length()
        after = st.clone()
        after.apply(action, seat)
        told = {v: after.describe_action(seat, action, v) for v in [None, *range(st.num_players)]} if step % 9 == 0 else {}
        new = after.log(None, since=start)
        assert new, f"{action} recorded no event"
        assert new[0]["seat"] == seat, "the first event an action records is the action itself"
        for viewer in [None, *range(st.num_players)]:
            entries = after.log(viewer, since=start)
            assert len(entries) == len(new), "events are redacted for a viewer, never dropped"
            for k, e in enumerate(entries):
                assert e["i"] == start + k and e["round"] >= 0 and e["kind"] in kinds
                assert e["seat"] is None or 0 <= e["seat"] < st.num_players
                assert isinstance(e["text"], str) and e["text"].strip(), "every entry has a sentence"
                assert _roundtrip(e) == e, "entries are JSON-ready"
                assert not _has_key(e, "seed")
                seen_kinds.add(e["kind"])
            if viewer in told:
                assert told[viewer] == entries[0]["text"], "describe_action is the action's event"
        if step % 9 == 0 and action not in [a for _, a in st.history]:
            with pytest.raises(IllegalActionError):  # told only after the fact: a preview could leak
                st.describe_action(seat, action, seat)

    _playthrough(state, random.Random(14), check)
    before = json.dumps(state.to_json(), sort_keys=True)
    for viewer in [None, *range(state.num_players)]:
        _scramble(state.log(viewer))
    assert json.dumps(state.to_json(), sort_keys=True) == before, "a log entry shares data with the state"
    full = state.log(0)
    assert [e["i"] for e in full] == list(range(len(full)))
    assert state.log(0, since=len(full) // 2) == full[len(full) // 2:]
    assert seen_kinds <= kinds


def _views(st):
    return {v: st.view(v) for v in [None, *range(st.num_players)]}


@pytest.mark.parametrize("name,cfg", CONFIGS)
def test_log_gate_same_view_after_different_actions_means_same_events(name, cfg):
    """Whenever two different actions leave a viewer's view identical, that viewer receives
    identical events."""
    spec, state = _make(name, cfg, 15)
    compared = {"pairs": 0}

    def check(st, seat, legal, action, step):
        if step % 3:
            return
        pick = legal if len(legal) <= 10 else random.Random(step).sample(legal, 10)
        start = st.log_length()
        outcomes = []
        for a in pick:
            twin = st.clone()
            twin.apply(a, seat)
            outcomes.append((a, _views(twin), twin))
        for i in range(len(outcomes)):
            for j in range(i + 1, len(outcomes)):
                a, va, ta = outcomes[i]
                b, vb, tb = outcomes[j]
                for viewer in va:
                    if va[viewer] == vb[viewer]:
                        compared["pairs"] += 1
                        assert ta.log(viewer, start) == tb.log(viewer, start), (
                            f"viewer {viewer} sees the same view after {a} and {b} but different events")

    _playthrough(state, random.Random(15), check)
    # In some games (Amarok) any two different actions always look different to everyone, so
    # the premise may never hold here; the re-sampling test below always exercises the gate.


@pytest.mark.parametrize("name,cfg", CONFIGS)
def test_log_gate_resampling_the_hidden_part_leaves_each_log_unchanged(name, cfg):
    """A state re-sampled from a viewer's view (other hidden cards, another random stream)
    tells that viewer the same events for the same actions wherever its view stays the same."""
    spec, state = _make(name, cfg, 16)
    compared = {"steps": 0}

    def check(st, seat, legal, action, step):
        if step % 4:
            return
        for viewer in [None, *range(st.num_players)]:
            sample = spec.determinize(_roundtrip(st.view(viewer)), random.Random(step * 31 + (viewer or 0)))
            sample.record_events(True)
            if action not in sample.legal_actions(seat):
                continue
            real = st.clone()
            start = real.log_length()
            real.apply(action, seat)
            sample.apply(action, seat)
            if real.view(viewer) == sample.view(viewer):
                compared["steps"] += 1
                assert _strip_index(real.log(viewer, start)) == _strip_index(sample.log(viewer)), (
                    f"viewer {viewer}'s events after {action} depend on hidden parts")

    _playthrough(state, random.Random(16), check)
    assert compared["steps"] > 0


@pytest.mark.parametrize("name", sorted({p.values[0] for p in CONFIGS}))
def test_every_event_kind_is_documented_in_the_rules(name):
    from pathlib import Path
    spec = get_game(name)
    doc = (Path(__file__).resolve().parents[1] / "docs" / "rules" / f"{name}.md").read_text("utf-8")
    missing = [k for k in spec.event_kinds if f"`{k}`" not in doc]
    assert spec.event_kinds and not missing, f"docs/rules/{name}.md does not list: {missing}"


@pytest.mark.parametrize("name,cfg", CONFIGS)
def test_public_data_is_json_ready_fixed_and_known_from_the_options_alone(name, cfg):
    """A game's public data (what clients draw beside the views, e.g. Edora's board) depends on
    the options only: the same for every seed and at every point of a game, and JSON-ready."""
    spec = get_game(name)
    options = spec.options(**cfg)
    data = spec.public_data(options)
    assert json.loads(json.dumps(data)) == data
    again = spec.public_data(spec.make(seed=3, **cfg).options)
    assert again == data and again is not data or again == {}
