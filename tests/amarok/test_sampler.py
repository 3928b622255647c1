"""Search's fast path (``prepare_sampler``, behind ``SPEC.sampler(view)``): the view is read and
checked once, and every sample is the state the determinizer makes from the same generator,
field for field, drawing the same numbers in the same order; samples share no list with each
other or with what the sampler keeps; a bad view is refused as the determinizer refuses it."""

from __future__ import annotations

import copy
import json
import random

import pytest

from nemeton.agents.base import get_heuristic
from nemeton.engine import RecordError, get_game, make
from nemeton.engine.state import State
from nemeton.games.amarok.infer import determinize, prepare_sampler
from nemeton.games.amarok.rules import AmarokState

SPEC = get_game("amarok")
H = get_heuristic("amarok")

# A small deck of its own (ruling K1), with every symbol, so claws put cards at the bottom.
_SYMBOLS = {1: "heart", 4: "heart", 2: "claw", 6: "claw", 9: "claw", 3: "season", 7: "trap"}
SMALL_DECK = 'name = "small"\n' + "".join(
    f'[[cards]]\nid = "S{i}"\ncolour = "grey"\nvalue = {i}\n'
    + (f'symbol = "{_SYMBOLS[i]}"\n' if i in _SYMBOLS else "") + "\n" for i in range(16))

CONFIGS = [
    {"players": 3},
    {"players": 4},
    {"players": 5},
    {"players": 6},
    {"players": 4, "teams": True},
    {"players": 6, "teams": True},
    {"players": 4, "teams": True, "partner_hand": True},
    {"players": 6, "teams": True, "partner_hand": True},
    {"players": 3, "rounds_to_win": 1},
    {"players": 5, "rounds_to_win": 5},
    {"players": 3, "deck": SMALL_DECK},
    {"players": 6, "deck": SMALL_DECK, "teams": True, "rounds_to_win": 2},
]


def _ids(cfg):
    return "-".join(f"{k}={'small' if k == 'deck' else v}" for k, v in cfg.items())


def _positions(cfg, seed, heuristic):
    """Every position of a game played by random or heuristic players, the end included."""
    state = make("amarok", seed=seed, **cfg)
    rng = random.Random(seed)
    out = [state.clone()]
    while not state.is_terminal():
        seat = state.current_player
        legal = state.legal_actions(seat)
        action = H.choose_in_state(state, seat, legal, rng) if heuristic else rng.choice(legal)
        state.apply(action, seat)
        out.append(state.clone())
    return out


def _fields(state):
    """Every attribute the state has set (its slots), as (name, value)."""
    names = [*State.__slots__, *AmarokState.__slots__]
    return {name: getattr(state, name) for name in names if hasattr(state, name)}


def _same(fast, slow):
    assert fast.to_json() == slow.to_json()
    assert fast.rng.getstate() == slow.rng.getstate()
    assert fast.events is None and slow.events is None
    a, b = _fields(fast), _fields(slow)
    assert a.keys() == b.keys()
    for name in a:
        if name == "rng":
            continue
        if name in ("cards", "acts", "options"):
            assert a[name] is b[name] or a[name] == b[name], name
        else:
            assert a[name] == b[name] and type(a[name]) is type(b[name]), name


def test_the_fast_path_is_used_for_search():
    # the engine wraps the game's function (turning stray errors into its own)
    assert getattr(SPEC.prepare_sampler, "_game_function", SPEC.prepare_sampler) is prepare_sampler


@pytest.mark.parametrize("heuristic", [False, True], ids=["random", "heuristic"])
@pytest.mark.parametrize("cfg", CONFIGS, ids=_ids)
def test_a_sample_is_the_determinizers_state_from_the_same_draws(cfg, heuristic):
    checked = bottoms = hidden = 0
    for seed in range(3):
        positions = _positions(cfg, 100 * seed + len(cfg), heuristic)
        for step, state in enumerate(positions):
            if step % 3 and step != len(positions) - 1:
                continue
            for seat in [*range(state.num_players), None]:
                view = state.view(seat)
                if step % 2:
                    view = json.loads(json.dumps(view))  # as read from outside: scores as floats
                sample = prepare_sampler(view)
                guarded = SPEC.sampler(view)
                for k in range(2):
                    r_fast, r_slow, r_guard = (random.Random(seed * 7919 + step * 31 + k) for _ in range(3))
                    fast, slow = sample(r_fast), determinize(view, r_slow)
                    _same(fast, slow)
                    _same(guarded(r_guard), slow)
                    # the same numbers were drawn: the callers' generators are alike after
                    assert r_fast.getstate() == r_slow.getstate() == r_guard.getstate()
                    checked += 1
                bottoms += view["deck_bottom"] != []
                hidden += any(slot is not None and slot["card"] is None for row in view["hands"] for slot in row)
    assert checked >= 40 and hidden > 0
    if cfg.get("deck") or cfg.get("rounds_to_win", 3) > 3:
        assert bottoms > 0  # claws put cards at the bottom, in the open


def test_one_generator_over_many_samples_draws_as_the_determinizer_does():
    # search draws every iteration's sample from one generator
    for cfg in CONFIGS:
        for state in _positions(cfg, 5, False)[::4]:
            seat = state.current_player if not state.is_terminal() else 0
            view = state.view(seat)
            sample = SPEC.sampler(view)
            fast_rng, slow_rng = random.Random(9), random.Random(9)
            for _ in range(5):
                _same(sample(fast_rng), SPEC.determinize(view, slow_rng))
            assert fast_rng.getstate() == slow_rng.getstate()


def test_samples_vary_the_hidden_cards_and_keep_the_view():
    state = make("amarok", players=4, seed=3)
    state.apply(state.legal_actions()[0])
    view = state.view(1)
    sample = prepare_sampler(view)
    rng = random.Random(1)
    states = [sample(rng) for _ in range(30)]
    assert len({tuple(s.deck) for s in states}) > 20
    assert all(s.view(1) == view for s in states)
    assert all(s.legal_actions(1) == state.legal_actions(1) for s in states)


def _containers(value, out):
    """The ids of every list and dict inside ``value``."""
    if isinstance(value, (list, dict)):
        out.add(id(value))
        for item in (value.values() if isinstance(value, dict) else value):
            _containers(item, out)
    elif isinstance(value, tuple):
        for item in value:
            _containers(item, out)
    return out


def _mutables(state):
    out: set[int] = set()
    for name, value in _fields(state).items():
        if name not in ("cards", "acts", "options", "rng"):
            _containers(value, out)
    return out


def _late_position():
    """A position with a known deck bottom, a last action and how the last round ended."""
    for seed in range(200):
        for state in _positions({"players": 3, "deck": SMALL_DECK}, seed, False):
            if state.known_bottom and state.last_round is not None and not state.is_terminal():
                return state
    raise AssertionError("no position with a known bottom and a finished round")


def test_samples_share_no_list_with_each_other_or_the_sampler():
    state = _late_position()
    seat = state.current_player
    view = state.view(seat)
    sample = prepare_sampler(view)
    first, second = sample(random.Random(1)), sample(random.Random(2))
    assert _mutables(first) and not _mutables(first) & _mutables(second)
    # a search plays and changes a sample in place: the next samples are unaffected
    want = determinize(view, random.Random(3)).to_json()
    for name in ("levels", "hand", "owner_sees", "front", "front_count", "river", "deck", "history"):
        getattr(first, name).append(0)
    last_round = first.last_round
    assert last_round is not None
    last_round["fronts"][0].append("X")
    last_round["winners"].append(9)
    last_round["reason"] = "changed"
    played = sample(random.Random(4))
    rng = random.Random(0)
    while not played.is_terminal():
        played.apply(rng.choice(played.legal_actions()))
    assert sample(random.Random(3)).to_json() == want
    assert state.view(seat) == view


def _views():
    state = _late_position()
    return state, state.view(state.current_player)


def _breakages():
    """(what, how to break a view): each makes the determinizer refuse the view."""
    def river_twice(v):
        v["river"].append(v["fronts"][0][0] if v["fronts"][0] else v["deck_bottom"][0])

    def deck_size(v):
        v["deck_size"] += 1

    def scores(v):
        v["scores"][0] = 99

    def objective(v):
        v["objective"] = "moon"

    def holder(v):
        v["objective_holder"] = 7

    def last(v):
        v["last"] = {"seat": 0}

    def last_round(v):
        v["last_round"] = {"round": 1}

    def turn(v):
        v["phase"] = "claw"  # the player to act has no claw in front

    def slot(v):
        v["hands"][0][0] = "R5"  # a slot must be null or an object

    def bottom(v):
        v["deck_bottom"].append(v["river"][0])

    def round_(v):
        v["round"] = 0

    return [river_twice, deck_size, scores, objective, holder, last, last_round, turn, slot, bottom, round_]


@pytest.mark.parametrize("breakage", _breakages(), ids=lambda f: f.__name__)
def test_a_bad_view_is_refused_as_the_determinizer_refuses_it(breakage):
    _, view = _views()
    bad = copy.deepcopy(view)
    breakage(bad)
    with pytest.raises(Exception) as slow:
        determinize(copy.deepcopy(bad), random.Random(0))
    with pytest.raises(Exception) as fast:
        prepare_sampler(copy.deepcopy(bad))
    assert type(fast.value) is type(slow.value) and str(fast.value) == str(slow.value)
    # through the engine (what search calls): the same RecordError, when the sampler is made
    with pytest.raises(RecordError) as slow_guarded:
        SPEC.determinize(copy.deepcopy(bad), random.Random(0))
    with pytest.raises(RecordError) as fast_guarded:
        SPEC.sampler(copy.deepcopy(bad))
    assert type(fast_guarded.value) is type(slow_guarded.value)
    assert str(fast_guarded.value) == str(slow_guarded.value)


def test_the_broken_views_are_otherwise_good():
    _, view = _views()
    _same(prepare_sampler(copy.deepcopy(view))(random.Random(0)), determinize(view, random.Random(0)))
