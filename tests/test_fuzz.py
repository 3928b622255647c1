"""Fuzzing every decoder of every registered game with malformed input (Hypothesis).

Records, actions, states, views and options can arrive from files and from the network, so
whatever they hold, each decoder either succeeds or raises one of the engine's own errors
(a ``NemetonError`` subclass, with a message): no TypeError, KeyError, IndexError,
ValueError, OverflowError, AttributeError or RecursionError escapes. Where a mutated record
still loads and replays, the replayed state is a proper game. Inputs are real JSON from
random games of every configuration the conformance suite covers, mutated (keys deleted,
types swapped, lists and dicts exchanged, numbers pushed out of range, lists cut or
extended), plus random JSON values. Runs are derandomized so CI sees the same examples.

A mutated state or view that a decoder *accepts* must give a proper game, not one that fails
later: every seat's and the spectator's view and log, the acting seats' legal actions, the
state's JSON, the first legal action and a short random playout each work or raise an engine
error (:func:`exercise`). A failing example notes where its input was mutated.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
import sys
import types
import typing
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, note, settings, strategies as st

import nemeton
from nemeton.engine import Action, GameRecord, NemetonError, RecordError, get_game, list_games

GAMES = [spec.name for spec in list_games()]


def fuzz(examples: int):
    return settings(max_examples=examples, deadline=None, derandomize=True, database=None,
                    suppress_health_check=list(HealthCheck))


# ----- real material from random games ---------------------------------------------------------
@dataclasses.dataclass
class Material:
    states: list[dict]  # state.to_json() of positions from the start to the end
    views: list[dict]  # every seat's and the spectator's view of those positions
    records: list[dict]  # record.to_json() of whole games and of games cut short
    actions: list[dict]  # the JSON of actions that were legal somewhere
    strings: list[str]  # every text value found in all of the above (well-typed junk)


@cache
def material(name: str) -> Material:
    spec = get_game(name)
    states, views, records, actions = [], [], [], {}
    for k, cfg in enumerate(spec.conformance_configs()):
        rng = random.Random(k)
        state = spec.make(seed=100 + k, **{**spec.bot_defaults, **cfg})
        trail = [state.clone()]
        while not state.is_terminal() and len(state.history) < 3000:
            seat = rng.choice(state.acting())
            legal = state.legal_actions(seat)
            for a in legal[:8]:
                actions[json.dumps(a.to_json(), sort_keys=True)] = a.to_json()
            state.apply(rng.choice(legal), seat)
            trail.append(state.clone())
        picks = [trail[0], trail[len(trail) // 3], trail[2 * len(trail) // 3], trail[-1]]
        for st_ in picks:
            states.append(st_.to_json())
            views += [st_.view(s) for s in (None, *range(st_.num_players))]
        records.append(state.record().to_json())
        records.append(picks[1].record().to_json())
    docs = json.loads(json.dumps([states, views, records, list(actions.values())]))
    strings = sorted({s for s in _leaves(docs) if isinstance(s, str) and len(s) <= 40})
    return Material(*docs, strings)


def _leaves(value: Any):
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            stack += list(v.keys()) + list(v.values())
        elif isinstance(v, list):
            stack += v
        else:
            yield v


# ----- strategies --------------------------------------------------------------------------------
ODD_NUMBERS = [-1, 0, 1, 2, 3, 7, 10**6, 10**6 + 1, 2**31, 2**63, 2**64, 10**30, -(2**63), 10**400,
               0.5, 1.0, -0.0, 2.5, 1e300, float("inf"), float("-inf"), float("nan")]
ODD_TEXT = ["", "0", "7", "-1", "true", "false", "none", "null", "x", "NaN", "Infinity", "é" * 3,
            "a" * 150, "[/]", "\x00", "1e400"]
scalars = (st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats()
           | st.text(max_size=12) | st.sampled_from(ODD_NUMBERS) | st.sampled_from(ODD_TEXT))
json_values = st.recursive(
    scalars, lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=10), kids, max_size=4),
    max_leaves=10)


def deep(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


def _wrong_type(value: Any) -> Any:
    """The same content in another JSON type: lists <-> dicts, numbers <-> text, ..."""
    if isinstance(value, list):
        return {str(i): v for i, v in enumerate(value)}
    if isinstance(value, dict):
        return list(value.values())
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return [value]
    return 0


def _odd_number(draw, value: Any) -> Any:
    base = value if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**64 else 0
    return draw(st.sampled_from([base + 1, base - 1, -base - 1, base * 1000 + 7, float(base), True] + ODD_NUMBERS))


def _mutate_once(draw, doc: Any, strings: list[str]) -> Any:
    """One mutation at a random place of ``doc`` (which is modified; the new root is returned)."""
    parent, key, node = None, None, doc
    path = []
    while isinstance(node, (dict, list)) and node and draw(st.integers(0, 99)) < 80:
        key = draw(st.sampled_from(sorted(node))) if isinstance(node, dict) else draw(st.integers(0, len(node) - 1))
        parent, node = node, node[key]
        path.append(str(key))
    op = draw(st.sampled_from(["delete", "junk", "string", "wrong_type", "number", "resize", "add_key"]))
    note(f"mutated /{'/'.join(path)}: {op}")
    if op == "resize" and isinstance(node, list):
        if node and draw(st.booleans()):
            new: Any = node[:draw(st.integers(0, len(node) - 1))]
        else:
            extra = node[:draw(st.integers(0, 3))] or [draw(json_values)]
            new = node + extra
    elif op == "add_key" and isinstance(node, dict):
        new = dict(node)
        new[draw(st.sampled_from(strings) | st.text(max_size=8))] = draw(json_values)
    elif op == "wrong_type":
        new = _wrong_type(node)
    elif op == "number":
        new = _odd_number(draw, node)
    elif op == "string" and strings:
        new = draw(st.sampled_from(strings))
    elif op == "delete" and parent is not None:
        del parent[key]
        return doc
    else:
        new = draw(json_values)
    if parent is None:
        return new
    parent[key] = new
    return doc


def mutated(docs: list[Any], strings: list[str], most: int = 3):
    @st.composite
    def build(draw):
        doc = json.loads(json.dumps(draw(st.sampled_from(docs))))
        for _ in range(draw(st.integers(1, most))):
            doc = _mutate_once(draw, doc, strings)
        return doc
    return build()


def outcome(call, *args) -> Any:
    """The result, or None when the engine refused the input with its own error."""
    try:
        return call(*args)
    except NemetonError as exc:
        assert str(exc), "an engine error says what is wrong"
        return None


def refused(call, *args) -> bool:
    """True when the engine refused with its own error; False when ``call`` worked."""
    return outcome(lambda: (call(*args), True)[1]) is None


PLAYOUT_STEPS = 300


def exercise(state, rng: random.Random) -> None:
    """Use an accepted state as a server, a player and an agent would: every seat's and the
    spectator's view and log, the legal actions of each acting seat, its JSON, the first legal
    action, then a short random playout, and look again. Each works or raises an engine error
    (a state that loads but fails later with a bare exception fails the test)."""
    look(state)
    for seat in outcome(state.acting) or ():
        outcome(state.legal_actions, seat)
    for step in range(PLAYOUT_STEPS):
        acting = outcome(state.acting)
        if not acting:
            break
        seat = acting[0] if step == 0 else rng.choice(acting)
        legal = outcome(state.legal_actions, seat)
        if legal is None:
            break
        assert legal, f"seat {seat} is acting but has no legal action"
        if refused(state.apply, legal[0] if step == 0 else rng.choice(legal), seat):
            break
    look(state)


def look(state) -> None:
    """Every seat's and the spectator's view and log, and the state's JSON."""
    for seat in (None, *range(state.num_players)):
        outcome(state.view, seat)
        outcome(state.log, seat)
    outcome(state.to_json)


# ----- records ---------------------------------------------------------------------------------------
def assert_proper_game(spec, record: GameRecord, state) -> None:
    """A replayed record is a whole game: its history is the record's, it saves and loads,
    every seat's view is JSON, and a seat that acts has something to do."""
    assert state.history == record.actions
    assert state.options == spec.options(**record.options)
    copy = spec.state_from_json(json.loads(json.dumps(state.to_json())))
    assert copy.to_json() == state.to_json()
    for seat in (None, *range(state.num_players)):
        view = state.view(seat)
        assert json.loads(json.dumps(view)) == view
    assert state.is_terminal() or all(state.legal_actions(s) for s in state.acting())
    again = GameRecord.loads(state.record().dumps())
    assert again.replay().to_json() == state.to_json()


def _record_mutation(draw, doc: dict, mat: Material) -> dict:
    """Mutations aimed at what a record holds: versions, seed, seats, the action list."""
    op = draw(st.sampled_from(["format", "rules_version", "seed", "seat", "cut", "extend", "swap"]))
    if op in ("format", "rules_version", "seed"):
        doc[op] = draw(st.sampled_from(ODD_NUMBERS + ODD_TEXT + [None, True, [1], {"a": 1}]) | json_values)
    elif op == "seat" and doc["actions"]:
        entry = draw(st.sampled_from(doc["actions"]))
        entry["seat"] = draw(st.sampled_from([-1, 0, 1, 2, 3, 5, 6, "0", 0.9, 1.0, True, None, [0], 2**64]))
    elif op == "cut":
        doc["actions"] = doc["actions"][:draw(st.integers(0, len(doc["actions"])))]
    elif op == "extend":
        doc["actions"] += [{"seat": draw(st.integers(-1, 6)), "action": draw(st.sampled_from(mat.actions))}
                           for _ in range(draw(st.integers(1, 3)))]
    elif op == "swap" and len(doc["actions"]) > 1:
        i = draw(st.integers(0, len(doc["actions"]) - 2))
        doc["actions"][i], doc["actions"][i + 1] = doc["actions"][i + 1], doc["actions"][i]
    return doc


@pytest.mark.parametrize("name", GAMES)
@fuzz(250)
@given(data=st.data())
def test_mutated_records_load_and_replay_or_are_refused_clearly(name, data):
    spec, mat = get_game(name), material(name)
    if data.draw(st.booleans()):
        doc = data.draw(mutated(mat.records, mat.strings))
    else:
        doc = _record_mutation(data.draw, json.loads(json.dumps(data.draw(st.sampled_from(mat.records)))), mat)
    record = outcome(GameRecord.from_json, doc)
    again = outcome(GameRecord.loads, json.dumps(doc))
    non_finite = any(isinstance(v, float) and v != v * 0 for v in _leaves(doc) if not isinstance(v, bool))
    assert (again is None) == (record is None or non_finite), "loads and from_json agree"
    if record is None:
        return
    state = outcome(record.replay)
    if state is not None:
        assert_proper_game(spec, record, state)


@fuzz(150)
@given(value=json_values | st.sampled_from([deep(50_000), {"format": 1, "game": deep(100)}]))
def test_random_json_values_are_refused_as_records(value):
    outcome(GameRecord.from_json, value)


@fuzz(150)
@given(text=st.text(max_size=40) | st.sampled_from(
    ["[" * 50_000, "1" * 5_000, "NaN", '{"format": 1e400}', '{"format": NaN}', "\ud800", '{"format": 1}']))
def test_random_text_is_refused_as_a_record(text):
    outcome(GameRecord.loads, text)
    outcome(GameRecord.loads, text.encode("utf-8", "surrogatepass"))


# ----- actions -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
@fuzz(300)
@given(data=st.data())
def test_mutated_actions_decode_to_a_game_action_or_are_refused(name, data):
    spec, mat = get_game(name), material(name)
    doc = data.draw(mutated(mat.actions, mat.strings, most=2) | json_values)
    action = outcome(spec.action_from_json, doc)
    if action is not None:
        assert isinstance(action, Action)
        assert spec.action_from_json(json.loads(json.dumps(action.to_json()))) == action
    config = data.draw(st.sampled_from(spec.conformance_configs()))
    options = spec.options(**{**spec.bot_defaults, **config})
    looked_up = outcome(spec.action_from_json, doc, options)
    if looked_up is not None:
        assert looked_up == action, "an action the options accept is accepted without them too"
        assert spec.action_from_json(looked_up.to_json(), options) is looked_up, "the lookup is canonical"


# ----- states ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
@fuzz(300)
@given(data=st.data())
def test_mutated_states_load_or_are_refused(name, data):
    spec, mat = get_game(name), material(name)
    doc = data.draw(mutated(mat.states, mat.strings) | json_values)
    state = outcome(spec.state_from_json, doc)
    if state is not None:
        exercise(state, random.Random(3))


# ----- views -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
@fuzz(300)
@given(data=st.data())
def test_mutated_views_give_legal_actions_and_samples_or_are_refused(name, data):
    spec, mat = get_game(name), material(name)
    view = data.draw(mutated(mat.views, mat.strings, most=2))
    legal = outcome(spec.legal_actions_from_view, view)
    if legal is not None:
        assert all(isinstance(a, Action) for a in legal)
    state = outcome(spec.determinize, view, random.Random(1))
    if state is not None:
        exercise(state, random.Random(3))
    sample = outcome(spec.sampler, view)
    if sample is not None:
        state = outcome(sample, random.Random(2))
        if state is not None:
            exercise(state, random.Random(4))


# ----- options -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
@fuzz(200)
@given(data=st.data())
def test_options_of_every_json_type_are_accepted_or_refused_clearly(name, data):
    spec = get_game(name)
    names = [info.name for info in spec.describe_options()]
    raw = data.draw(st.dictionaries(st.sampled_from(names) | st.text(max_size=6),
                                    json_values | st.sampled_from(material(name).strings), max_size=3))
    options = outcome(lambda: spec.options(**raw))
    if options is not None:
        assert spec.options(**options.to_json()) == options
    seed = data.draw(st.sampled_from([None, 0, 7, 2**64 - 1]) | json_values)
    state = outcome(lambda: spec.make(seed=seed, **{k: v for k, v in raw.items() if k != "seed"}))
    if state is not None and "seed" not in raw:
        assert isinstance(seed, int) or seed is None
        assert state.options == spec.options(**raw)


# ----- data options (a deck, a board: the text of a file) -------------------------------------------
def data_options() -> list:
    """(game, option, standard text) for every data option of every registered game."""
    out = []
    for spec in list_games():
        for f in dataclasses.fields(spec.options_cls):
            if "data" in f.metadata and "standard" in f.metadata:
                out.append(pytest.param(spec.name, f.name, f.metadata["standard"](), id=f"{spec.name}-{f.name}"))
    return out


ODD_TOKENS = ["-1", "0", "1", "99999999999999999999999", "1e400", "nan", "inf", '"x"', '""', "true", "[]",
              "{}", '"R0"', "null", "~", "-", "é"]


def _mutated_text(draw, text: str) -> str:
    lines = text.splitlines()
    for _ in range(draw(st.integers(1, 3))):
        if not lines:
            break
        k = draw(st.integers(0, len(lines) - 1))
        op = draw(st.sampled_from(["delete", "duplicate", "token", "block", "truncate", "swap"]))
        if op == "delete":
            del lines[k]
        elif op == "duplicate":
            lines.insert(k, lines[k])
        elif op == "token":
            words = re.split(r"(\s+|=|:|,)", lines[k])
            spots = [i for i, w in enumerate(words) if w.strip() and w not in ("=", ":", ",")]
            if spots:
                words[draw(st.sampled_from(spots))] = draw(st.sampled_from(ODD_TOKENS))
                lines[k] = "".join(words)
        elif op == "block":
            j = draw(st.integers(k, min(len(lines), k + 12)))
            lines += lines[k:j]
        elif op == "truncate":
            lines = lines[:k] + [lines[k][:draw(st.integers(0, len(lines[k])))]]
        else:
            j = draw(st.integers(0, len(lines) - 1))
            lines[k], lines[j] = lines[j], lines[k]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name,option_name,standard", data_options())
@fuzz(150)
@given(data=st.data())
def test_mutated_data_options_make_a_playable_game_or_are_refused(name, option_name, standard, data):
    spec = get_game(name)
    text = _mutated_text(data.draw, standard)
    players = data.draw(st.sampled_from(spec.player_counts))
    state = outcome(lambda: spec.make(players, 5, **{**spec.bot_defaults, option_name: text}))
    if state is None:
        return
    rng = random.Random(5)
    while not state.is_terminal() and len(state.history) < 60:
        seat = state.current_player
        state.view(seat)
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    record = GameRecord.loads(state.record().dumps())
    assert record.replay().to_json() == state.to_json()


# ----- decoding never grows a table --------------------------------------------------------------------
def _junk_value(tp: Any, rng: random.Random) -> Any:
    """A value of the annotated type that names nothing the game has."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp is str:
        return f"junk{rng.randrange(10**9)}"
    if tp is bool:
        return rng.random() < 0.5
    if tp is int:
        return rng.randrange(-50, 10**6)
    if origin is typing.Literal:
        return rng.choice(args)
    if origin in (typing.Union, types.UnionType):
        return _junk_value(rng.choice([a for a in args if a is not type(None)] or [type(None)]), rng)
    if origin is tuple:
        item = args[0]
        return [_junk_value(item, rng) for _ in range(rng.randrange(4))]
    return None


def _table_sizes(package: str) -> dict[str, int]:
    """The size of every module-level dict, list and set (and lru cache) of a game package."""
    sizes = {}
    for mod_name, module in list(sys.modules.items()):
        if not (mod_name == package or mod_name.startswith(package + ".")):
            continue
        for attr, value in vars(module).items():
            if isinstance(value, (dict, list, set)):
                sizes[f"{mod_name}.{attr}"] = len(value)
            elif hasattr(value, "cache_info") and callable(value.cache_info):
                sizes[f"{mod_name}.{attr}()"] = value.cache_info().currsize
    return sizes


@pytest.mark.parametrize("name", GAMES)
def test_decoding_junk_actions_never_grows_a_global_table(name):
    spec = get_game(name)
    classes = spec.action_codec.classes()
    package = classes[0].__module__.rsplit(".", 1)[0]
    rng = random.Random(0)
    options = spec.options(**spec.bot_defaults)
    for data in material(name).actions:  # what decoding real actions fills is filled once
        spec.action_from_json(data)
        outcome(spec.action_from_json, data, options)
    before = _table_sizes(package)
    hints = {cls: typing.get_type_hints(cls) for cls in classes}
    for k in range(20_000):
        cls = classes[k % len(classes)]
        data = {"type": cls.kind, **{f.name: _junk_value(hints[cls][f.name], rng) for f in dataclasses.fields(cls)}}
        outcome(spec.action_from_json, data)
        outcome(spec.action_from_json, data, options)
    grown = {k: (before.get(k), v) for k, v in _table_sizes(package).items() if before.get(k) != v}
    assert not grown, f"decoding junk actions grew tables (before, after): {grown}"


# ----- versions and seeds ------------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_a_seed_given_as_text_is_refused_clearly(name):
    with pytest.raises(NemetonError, match="seed must be an integer .* got '7'"):
        nemeton.make(name, seed="7")
    record = nemeton.make(name, seed=7).record().to_json()
    record["seed"] = "7"
    with pytest.raises(RecordError, match="seed must be an integer"):
        GameRecord.from_json(record)
