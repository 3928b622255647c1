"""Hand-built actions with wrong values in their fields, of every action class of every game.

A Python user, an agent or a client can build an action by hand (``Place("x", nan, 0)``,
``Brew({"a": 1})``) and hand it to ``State.apply``. Whatever the fields hold (NaN, infinities,
huge integers, dicts, lists, None, text, negative numbers, tuples of a wrong length, values whose
every method fails), the checked ``apply`` either refuses with the engine's own
:class:`IllegalActionError` (a message, the state unchanged: ``to_json()`` before and after) or,
when the odd action equals a legal one (``1.0 == 1``), applies the legal action itself, so the
history and the record hold only well-formed actions. The action's JSON decodes to the engine's
:class:`RecordError` or to exactly that action.

The classes are discovered from each game's action codec (and checked against every
:class:`Action` subclass the game's modules define); each class is tried in positions where the
game really offers an action of that class, with one or more fields of such an action replaced.
"""

from __future__ import annotations

import dataclasses
import json
import math
import random
import sys
import typing
from functools import cache
from typing import Any

import pytest
from hypothesis import assume, given, note, strategies as st

from nemeton.engine import Action, IllegalActionError, NemetonError, RecordError, get_game, list_games
from test_fuzz import _junk_value, fuzz, json_values


class Spiteful:
    """A field value whose every method fails: text, comparison, hashing, truth, numbers."""

    def _fail(self, *args: Any) -> Any:
        raise RuntimeError("spiteful")

    __eq__ = __ne__ = __lt__ = __hash__ = __repr__ = __str__ = __format__ = __bool__ = _fail  # type: ignore[assignment]
    __int__ = __index__ = __float__ = __len__ = __iter__ = _fail  # type: ignore[assignment]


class NotAnAction(Action):
    """An Action subclass that is no dataclass (its text and fields cannot be listed)."""

    __slots__ = ()


WRONG = [float("nan"), float("inf"), float("-inf"), 0.5, -0.0, 10**400, 10**5000, 2**64, -(2**63), -1, -7,
         {}, {"a": 1}, [], [1, 2], [[[]]], None, "", "x", "a" * 150, "nan", "\ue0003\ue001", (), (1,),
         (1, 2, 3), ("x", None), b"x", True, False, object(), 1 + 2j]


def odd_values(base: Any) -> st.SearchStrategy:
    """Values of a wrong type (or range) for a field whose proper value is ``base``."""
    shifted = [[base], (base,), {"v": base}, str(base), (base, base, base)]
    if isinstance(base, int) and not isinstance(base, bool):
        shifted += [float(base), base + 2**40, -base - 1, base * 10**30]
    if isinstance(base, str):
        shifted += [base.upper(), base + " ", base * 40, len(base)]
    if isinstance(base, tuple):
        shifted += [base[:-1], base + base, list(base), tuple(str(v) for v in base)]
    return (st.sampled_from(WRONG) | st.sampled_from(shifted) | st.builds(Spiteful) | st.floats()
            | st.integers(-(2**80), 2**80) | st.text(max_size=8) | json_values)


# ----- where each class of action is offered ---------------------------------------------------------
@dataclasses.dataclass
class Spot:
    state_json: dict  # a position (to_json) where ``seat`` may act
    seat: int
    base: Action  # a legal action of the class there


GAMES = [spec.name for spec in list_games()]


def _kinds() -> list:
    return [pytest.param(spec.name, cls.kind, id=f"{spec.name}-{cls.kind}")
            for spec in list_games() for cls in spec.action_codec.classes()]


@cache
def spots(name: str) -> dict[str, list[Spot]]:
    """Up to 6 positions per action kind, from random games of every configuration."""
    spec = get_game(name)
    found: dict[str, list[Spot]] = {}
    for k, cfg in enumerate(spec.conformance_configs()):
        rng = random.Random(50 + k)
        for game in range(2):
            state = spec.make(seed=300 + 10 * k + game, **{**spec.bot_defaults, **cfg})
            while not state.is_terminal() and len(state.history) < 3000:
                seat = rng.choice(state.acting())
                legal = state.legal_actions(seat)
                kinds = {a.kind: a for a in legal}
                for kind, action in kinds.items():
                    if len(found.get(kind, ())) < 6 and (kind not in found or rng.random() < 0.2):
                        found.setdefault(kind, []).append(Spot(state.to_json(), seat, action))
                state.apply(rng.choice(legal), seat)
        found.setdefault("@end", []).append(Spot(state.to_json(), 0, state.history[-1][1]))
    return found


@cache
def loaded(name: str, state_json: str):
    return get_game(name).state_from_json(json.loads(state_json))


def action_class(name: str, kind: str) -> type[Action]:
    return next(cls for cls in get_game(name).action_codec.classes() if cls.kind == kind)


@pytest.mark.parametrize("name", GAMES)
def test_the_codec_reads_every_action_class_the_game_defines(name):
    """Every Action subclass in the game's modules is one the codec reads (so the fuzzing
    below, which takes its classes from the codec, tries them all)."""
    codec_classes = set(get_game(name).action_codec.classes())
    package = next(iter(codec_classes)).__module__.rsplit(".", 1)[0]
    defined = {value for mod_name, module in list(sys.modules.items())
               if mod_name == package or mod_name.startswith(package + ".")
               for value in vars(module).values()
               if isinstance(value, type) and issubclass(value, Action) and value is not Action
               and value.__module__.startswith(package)}
    assert defined and defined <= codec_classes, f"not read by the codec: {defined - codec_classes}"


# ----- the fuzzing ----------------------------------------------------------------------------------
def _well_formed(spec, applied: Action) -> None:
    """``applied`` (from the history) is an action whose JSON reads back as itself."""
    doc = json.loads(json.dumps(applied.to_json(), allow_nan=False))
    assert spec.action_from_json(doc) == applied
    assert json.dumps(spec.action_from_json(doc).to_json()) == json.dumps(applied.to_json())


def _check_apply(spec, state, action: Action, seat: int | None) -> None:
    """``state.apply(action, seat)`` refuses with the engine's error and changes nothing, or
    applies a legal action of that seat that equals ``action``."""
    before = state.to_json()
    length = len(state.history)
    legal = [] if seat is None and state.is_terminal() else state.legal_actions(seat)
    actor = state.current_player if seat is None else seat
    try:
        state.apply(action, seat)
    except IllegalActionError as exc:
        assert str(exc) and exc.parts, "the refusal says what is wrong"
        note(f"refused: {exc}")
        assert len(state.history) == length
        assert state.to_json() == before, "a refused action changes nothing"
        return
    applied_seat, applied = state.history[-1]
    assert len(state.history) == length + 1
    assert any(applied is a for a in legal), "what was applied is the legal action itself"
    assert applied_seat == actor
    _well_formed(spec, applied)
    record = state.record()
    assert record.replay().to_json() == state.to_json()


def _check_decode(spec, action: Action, options) -> None:
    """The action's JSON decodes to RecordError, or to exactly that action (the same JSON)."""
    doc = action.to_json()
    for opts in (None, options):
        try:
            decoded = spec.action_from_json(doc, opts)
        except RecordError as exc:
            assert str(exc)
            continue
        assert json.dumps(decoded.to_json()) == json.dumps(doc), \
            "only an action whose JSON is exactly well-formed is read"


@pytest.mark.parametrize("name,kind", _kinds())
@fuzz(40)
@given(data=st.data())
def test_odd_fields_in_every_action_class_are_refused_by_the_engine(name, kind, data):
    spec = get_game(name)
    cls = action_class(name, kind)
    places = spots(name).get(kind) or spots(name)["@end"]
    spot = data.draw(st.sampled_from(places))
    state = loaded(name, json.dumps(spot.state_json)).clone()
    fields = [f.name for f in dataclasses.fields(cls)]
    if isinstance(spot.base, cls):
        base = {f: getattr(spot.base, f) for f in fields}
    else:  # the class was never offered in the games played: typed values that name nothing
        rng = random.Random(data.draw(st.integers(0, 99)))
        hints = typing.get_type_hints(cls)
        base = {f: _junk_value(hints[f], rng) for f in fields}
        base = {f: tuple(v) if isinstance(v, list) else v for f, v in base.items()}
    values = dict(base)
    if fields:
        changed = data.draw(st.lists(st.sampled_from(fields), min_size=1, max_size=len(fields), unique=True))
        for f in changed:
            values[f] = data.draw(odd_values(base[f]), label=f)
    try:
        action = cls(**values)
    except Exception:  # a class that checks its fields when built: nothing to hand over
        assume(False)
    seat = data.draw(st.sampled_from([spot.seat, None, *range(state.num_players)]))
    _check_apply(spec, state, action, seat)
    _check_decode(spec, action, state.options)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("odd", [Spiteful(), float("nan"), 10**5000, {"a": [1]}, None],
                         ids=["spiteful", "nan", "huge", "dict", "none"])
def test_every_class_with_one_odd_field_is_refused_in_every_position(name, odd):
    """Not left to chance: every field of every class of action, set to a few odd values, in
    every kind of position (and at the game's end), gives the engine's refusal."""
    spec = get_game(name)
    for cls in spec.action_codec.classes():
        fields = [f.name for f in dataclasses.fields(cls)]
        for kind, places in spots(name).items():
            spot = places[0]
            state = loaded(name, json.dumps(spot.state_json)).clone()
            base = ({f: getattr(spot.base, f) for f in fields} if isinstance(spot.base, cls)
                    else {f: 0 for f in fields})
            for f in fields:
                action = cls(**{**base, f: odd})
                before = state.to_json()
                with pytest.raises(IllegalActionError):
                    state.apply(action, spot.seat)
                assert state.to_json() == before, (cls.kind, f, kind)
                with pytest.raises(RecordError):
                    spec.action_from_json(action.to_json(), state.options)


@pytest.mark.parametrize("name", GAMES)
def test_an_action_that_is_no_dataclass_is_refused_with_a_message(name):
    spec = get_game(name)
    spot = next(iter(spots(name).values()))[0]
    state = loaded(name, json.dumps(spot.state_json)).clone()
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="is not legal"):
        state.apply(NotAnAction(), spot.seat)
    assert state.to_json() == before
    assert isinstance(IllegalActionError("x"), NemetonError)


def test_an_odd_action_equal_to_a_legal_one_is_applied_as_the_legal_one():
    """Alarún's ``Place(card, 1.0, True)`` equals the legal ``Place(card, 1, 1)``: the legal,
    well-typed action is what the history and the record hold."""
    spec = get_game("alarun")
    for spot in spots("alarun")["place"]:
        base = spot.base
        if base.x and base.y == 1:
            break
    else:
        pytest.skip("no place at y = 1 among the positions played")
    state = loaded("alarun", json.dumps(spot.state_json)).clone()
    odd = type(base)(base.card, float(base.x), True)
    state.apply(odd, spot.seat)
    applied = state.history[-1][1]
    assert applied == base and type(applied.x) is int and type(applied.y) is int
    assert math.isfinite(applied.x)
    _well_formed(spec, applied)


@pytest.mark.parametrize("name", GAMES)
def test_describing_an_odd_action_is_refused_by_the_engine(name):
    """``describe_action`` compares the action with the history: an action whose fields cannot
    be compared was never taken."""
    for cls in get_game(name).action_codec.classes():
        fields = [f.name for f in dataclasses.fields(cls)]
        if not fields:
            continue
        spot = spots(name)["@end"][0]
        state = loaded(name, json.dumps(spot.state_json)).clone()
        taken_seat, taken = next(((s, a) for s, a in state.history if isinstance(a, cls)), (0, None))
        base = {f: getattr(taken, f) for f in fields} if taken is not None else {f: 0 for f in fields}
        with pytest.raises(IllegalActionError, match="has not taken"):
            state.describe_action(taken_seat, cls(**{**base, fields[0]: Spiteful()}), None)
