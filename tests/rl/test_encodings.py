"""The engine's RL encodings, for every game, player count and variant: action ids, masks,
observation tensors made from views alone, game facts."""

from __future__ import annotations

import math
import random

import pytest

np = pytest.importorskip("numpy")

from configs import game_configs  # noqa: E402

# besides the conformance configurations: Amarok's partner_hand and Alarún without the cap
EXTRA = [pytest.param("amarok", {"players": 4, "teams": True, "partner_hand": True}, id="amarok-partner_hand"),
         pytest.param("alarun", {"players": 2, "action_cap": None}, id="alarun-no-cap")]


def all_configs():
    return game_configs() + EXTRA
from nemeton.engine import IllegalActionError, get_game  # noqa: E402


def _options(game, cfg):
    spec = get_game(game)
    return spec, spec.options(**{**spec.bot_defaults, **cfg})


def _random_game(spec, options, seed):
    """A random game's states (clones, with the seats acting in each) up to the end."""
    state = spec.new_state(options, seed)
    state.record_events(False)
    rng = random.Random(seed)
    states = []
    while not state.is_terminal():
        states.append(state.clone())
        seat = state.current_player
        state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)
    states.append(state)
    return states


@pytest.mark.parametrize("game,cfg", all_configs())
def test_the_action_space_is_fixed_and_every_legal_action_round_trips_through_its_id(game, cfg):
    spec, options = _options(game, cfg)
    encoding = spec.encoding(options)
    space = spec.action_space(options)
    assert space == encoding.actions.actions and len(set(space)) == len(space)
    for state in _random_game(spec, options, 1):
        for seat in state.acting():
            legal = state.legal_actions(seat)
            ids = encoding.actions.ids(legal)
            assert [encoding.actions.action(i) for i in ids] == legal
            for action in legal:  # a decoded copy (from JSON) finds the same id
                copy = spec.action_from_json(action.to_json(), options)
                assert encoding.actions.id(copy) == encoding.actions.id(action)


@pytest.mark.parametrize("game,cfg", all_configs())
def test_the_mask_is_exactly_the_legal_actions_of_each_acting_seat(game, cfg):
    spec, options = _options(game, cfg)
    space = spec.action_space(options)
    for state in _random_game(spec, options, 2)[::3]:
        for seat in range(options.players):
            mask = state.legal_action_mask(seat)
            assert mask.dtype == bool and mask.shape == (len(space),)
            assert {space[i] for i in np.flatnonzero(mask)} == set(state.legal_actions(seat))
    assert not state.legal_action_mask(0).any()  # the game is over


@pytest.mark.parametrize("game,cfg", all_configs())
def test_observations_have_one_fixed_size_within_their_bounds_for_every_seat_and_the_spectator(game, cfg):
    spec, options = _options(game, cfg)
    encoding = spec.encoding(options)
    layout = encoding.layout
    assert sum(s.size for s in layout) == layout.size == encoding.observation_size
    assert [s.offset for s in layout] == [sum(t.size for t in layout.slices[:k]) for k in range(len(layout))]
    low, high = layout.bounds()
    for state in _random_game(spec, options, 3)[::2]:
        for seat in [*range(options.players), None]:
            obs = spec.observe(state.view(seat))
            assert obs.dtype == np.float32 and obs.shape == (layout.size,)
            assert np.isfinite(obs).all() and (obs >= low).all() and (obs <= high).all()
            again = encoding.encode(state.view(seat), np.full(layout.size, 7.0, dtype=np.float32))
            assert np.array_equal(obs, again)  # the buffer is cleared before it is written


@pytest.mark.parametrize("game,cfg", all_configs())
def test_resampling_the_hidden_state_leaves_every_observation_unchanged(game, cfg):
    """Observations come from views alone: a state re-sampled by the determinizer from a
    seat's view gives that seat the same observation (and the same mask)."""
    spec, options = _options(game, cfg)
    rng = random.Random(4)
    states = _random_game(spec, options, 4)
    for state in states[:: max(1, len(states) // 12)]:
        for seat in [*range(options.players), None]:
            view = state.view(seat)
            obs = spec.observe(view)
            for _ in range(2):
                sample = spec.determinize(view, rng)
                assert np.array_equal(spec.observe(sample.view(seat)), obs)
                if seat is not None:
                    assert np.array_equal(sample.legal_action_mask(seat), state.legal_action_mask(seat))


def test_observations_differ_where_the_views_differ():
    """The tensor is no constant: two seats of one game see different things."""
    spec = get_game("amarok")
    state = spec.make(players=3, seed=5)
    assert not np.array_equal(spec.observe(state.view(0)), spec.observe(state.view(1)))


@pytest.mark.parametrize("game,cfg", all_configs())
def test_memo_observations_from_shared_views_equal_fresh_ones_through_whole_games(game, cfg):
    """The fast path (``shared_view`` with one memo per observer, as the PettingZoo env
    takes it) gives at every step, for every seat and the spectator, the tensor made from a
    fresh view; through a clone taken mid-game, a second game on the same memos, and memos
    handed from one seat to another (the memo starts again)."""
    spec, options = _options(game, cfg)
    encoding = spec.encoding(options)
    n = options.players
    viewers = [None, *range(n)]
    memos = {v: encoding.new_memo() for v in viewers}
    checked = 0
    for seed in (3, 4):
        state = spec.new_state(options, seed)
        state.record_events(False)
        rng = random.Random(seed)
        step = 0
        while not state.is_terminal():
            for viewer in viewers:
                fresh = encoding.encode(state.view(viewer))
                fast = encoding.encode(state.shared_view(viewer), memo=memos[viewer])
                assert np.array_equal(fresh, fast), f"step {step}, viewer {viewer}"
                checked += 1
            seat = state.current_player
            state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)
            step += 1
            if step == 25:
                state = state.clone()
        memos = {v: memos[viewers[(i + 1) % len(viewers)]] for i, v in enumerate(viewers)}   # swapped round
    assert checked > 50


def test_a_memo_is_for_the_encoding_that_made_it():
    spec = get_game("amarok")
    three, four = spec.encoding(spec.options(3)), spec.encoding(spec.options(4))
    state = spec.make(players=4, seed=1)
    with pytest.raises(ValueError, match="another encoding"):
        four.encode(state.shared_view(0), memo=three.new_memo())


def test_a_view_the_encoder_cannot_read_leaves_the_memo_as_new():
    spec = get_game("edora")
    state = spec.make(players=2, seed=4)
    encoding = spec.encoding(state.options)
    memo = encoding.new_memo()
    encoding.encode(state.shared_view(0), memo=memo)
    broken = dict(state.shared_view(0))
    del broken["sanctuaries"]
    with pytest.raises(KeyError):
        encoding.encode(broken, memo=memo)
    assert not memo.parts and not memo.array.any()
    assert np.array_equal(encoding.encode(state.shared_view(0), memo=memo), encoding.encode(state.view(0)))


def test_a_memo_reads_again_only_the_parts_that_changed():
    """The memo's point: with shared views, the parts of the table that did not change are
    the same objects, and the encoder does not read them again (Edora: the sanctuaries and
    every board but the mover's, while one seat moves its druid)."""
    spec = get_game("edora")
    state = spec.make(players=3, seed=2)
    encoding = spec.encoding(state.options)
    memo = encoding.new_memo()
    first = state.shared_view(0)
    encoding.encode(first, memo=memo)
    kept = dict(memo.parts)
    again = state.shared_view(0)
    assert again is not first and again["sanctuaries"] is first["sanctuaries"]
    assert all(a is b for a, b in zip(again["boards"], first["boards"]))
    encoding.encode(again, memo=memo)
    assert all(memo.parts[k] is kept[k] for k in kept if k != "head"), "unchanged parts were read again"
    assert memo.parts["head"] is not kept["head"], "the table's state is read at every step"


@pytest.mark.parametrize("game,cfg", all_configs())
def test_game_facts_bound_the_returns_and_the_length(game, cfg):
    spec, options = _options(game, cfg)
    facts = spec.facts(options)
    state = spec.new_state(options, 6)
    teams = len({state.team_of(s) for s in range(options.players)})
    assert (facts.players, facts.teams) == (options.players, teams)
    states = _random_game(spec, options, 6)
    end = states[-1]
    returns = end.returns()
    assert all(facts.min_utility <= r <= facts.max_utility for r in returns)
    assert math.isclose(sum(returns), facts.utility_sum)
    if facts.max_game_length is not None:
        assert len(end.history) <= facts.max_game_length
    assert len(end.history) <= facts.typical_game_length


def test_a_bad_action_id_is_refused_with_the_range():
    space = get_game("alarun").encoding({"players": 2}).actions
    for bad in (-1, len(space), 1.5, "3", True, None):
        with pytest.raises(IllegalActionError, match="action id"):
            space.action(bad)
    assert space.action(np.int64(0)) is space.actions[0]


def test_every_slice_is_named_and_described_in_docs_rl_md():
    from pathlib import Path
    text = (Path(__file__).resolve().parents[2] / "docs" / "rl.md").read_text()
    for spec in (get_game(g) for g in ("alarun", "amarok", "edora")):
        for name, _, _ in spec.observation_layout():
            assert f"`{name}`" in text, f"{spec.name}: slice {name} is not in docs/rl.md"
