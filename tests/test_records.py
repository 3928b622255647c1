"""Records, options, actions, states and views that cross a network: versioned records, strict
decoding, and the engine's guards around each game's decoders (on the Kuhn poker test game,
tests/toygame.py, and on every registered game where the property is the engine's)."""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass
from typing import ClassVar, Literal, Optional

import pytest

import toygame
from nemeton.engine import (Action, ActionCodec, GameOptions, GameRecord, InvalidOptionsError, NemetonError,
                            RecordError, UnknownGameError, build_options, get_game, list_games, make, option)
from nemeton.engine.record import MAX_RECORD_ACTIONS, MAX_RECORD_CHARS

GAMES = [spec.name for spec in list_games()]


@pytest.fixture()
def kuhn():
    toygame.install()
    yield get_game("kuhn")
    toygame.uninstall()


def kuhn_record(**changes) -> dict:
    data = {"format": 1, "game": "kuhn", "rules_version": 1, "options": {}, "seed": 3,
            "actions": [{"seat": 0, "action": {"type": "bet", "bet": False}},
                        {"seat": 1, "action": {"type": "bet", "bet": True}}]}
    data.update(changes)
    return data


# ----- versions ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_a_record_carries_its_format_and_rules_version_and_round_trips_identically(name):
    spec = get_game(name)
    state = spec.make(seed=11, **spec.bot_defaults)
    rng = random.Random(11)
    for _ in range(30):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    record = state.record()
    data = record.to_json()
    assert data["format"] == 1 and data["rules_version"] == spec.rules_version
    assert list(data) == ["format", "game", "rules_version", "options", "seed", "actions"]
    text = record.dumps()
    again = GameRecord.loads(text)
    assert again == record and again.dumps() == text
    assert again.replay().to_json() == state.to_json()


@pytest.mark.parametrize("fmt", [None, 0, 2, "1", 1.0, True, [1]])
def test_a_record_of_an_unknown_format_is_refused_naming_the_formats_read(kuhn, fmt):
    data = kuhn_record(format=fmt) if fmt is not None else {k: v for k, v in kuhn_record().items() if k != "format"}
    with pytest.raises(RecordError, match="reads record formats 1"):
        GameRecord.from_json(data)


@pytest.mark.parametrize("version", [0, 2, "1", 1.0, True, None])
def test_a_record_of_other_rules_is_refused_naming_the_version_replayed(kuhn, version):
    with pytest.raises(RecordError, match=r"rules version .*replays kuhn records of rules version 1 only"):
        GameRecord.from_json(kuhn_record(rules_version=version))


def test_a_record_made_under_other_rules_refuses_to_replay(kuhn):
    record = GameRecord.from_json(kuhn_record())
    record.rules_version = 2
    with pytest.raises(RecordError, match="rules version 2"):
        record.replay()


# ----- what a record holds -------------------------------------------------------------------------------
@pytest.mark.parametrize("seat", ["0", 0.9, 1.0, True, -1, 2, None, [0]])
def test_record_seats_must_be_integers_in_range(kuhn, seat):
    data = kuhn_record()
    data["actions"][0]["seat"] = seat
    with pytest.raises(RecordError, match="record action 0: the seat must be an integer from 0 to 1"):
        GameRecord.from_json(data)


@pytest.mark.parametrize("seed", ["7", 7.0, True, -1, 2**64, [7], {"seed": 7}])
def test_a_record_seed_must_be_an_integer(kuhn, seed):
    with pytest.raises(RecordError, match="seed must be an integer from 0 to 2\\*\\*64-1"):
        GameRecord.from_json(kuhn_record(seed=seed))


def test_a_record_without_a_seed_loads_but_cannot_be_replayed(kuhn):
    record = GameRecord.from_json(kuhn_record(seed=None))
    with pytest.raises(RecordError, match="has no seed"):
        record.replay()


@pytest.mark.parametrize("seed", ["7", 7.0, 7.5, True, -1, 2**64, None])
def test_make_refuses_a_seed_that_is_not_an_integer(kuhn, seed):
    if seed is None:
        assert make("kuhn", seed=seed).seed is not None  # None: drawn at random
        return
    with pytest.raises(InvalidOptionsError, match="seed must be an integer"):
        make("kuhn", seed=seed)


def test_the_largest_seed_and_integer_types_such_as_numpys_make_a_game(kuhn):
    class Seven:  # an integer type (numpy.int64 and the like implement __index__)
        def __index__(self):
            return 7
    assert make("kuhn", seed=2**64 - 1).seed == 2**64 - 1
    assert make("kuhn", seed=Seven()).to_json() == make("kuhn", seed=7).to_json()


@pytest.mark.parametrize("changes,fragment", [
    ({"options": {"players": 3}}, "record's options are invalid: players=3 is not allowed"),
    ({"options": {"colour": "red"}}, "record's options are invalid: unknown option colour"),
    ({"options": ["players", 2]}, "options must be a JSON object"),
    ({"actions": {"0": {}}}, "actions must be a list"),
    ({"actions": [{"seat": 0, "action": {"type": "bet", "bet": False}, "note": 1}]}, "exactly 'seat' and 'action'"),
    ({"actions": [{"seat": 0, "action": {"type": "bet", "bet": 0}}]}, "record action 0: action 'bet': bet must be true or false"),
    ({"winner": 1}, "unexpected 'winner'"),
    ({"game": ["kuhn"]}, "unknown game \\['kuhn'\\]"),
])
def test_a_malformed_record_is_refused_naming_the_bad_part(kuhn, changes, fragment):
    with pytest.raises(NemetonError, match=fragment):
        GameRecord.from_json(kuhn_record(**changes))


def test_a_record_holds_at_most_so_many_actions(kuhn):
    entry = {"seat": 0, "action": {"type": "bet", "bet": False}}
    with pytest.raises(RecordError, match="at most 100,000 actions"):
        GameRecord.from_json(kuhn_record(actions=[entry] * (MAX_RECORD_ACTIONS + 1)))
    with pytest.raises(RecordError, match="characters long"):
        GameRecord.loads(" " * (MAX_RECORD_CHARS + 1))


@pytest.mark.parametrize("text,fragment", [
    ('{"format": NaN}', "not a JSON game record"),
    ('{"format": Infinity}', "not a JSON game record"),
    ('{"format": ' + "1" * 5000 + "}", "not a JSON game record"),
    ("[" * 100_000 + "]" * 100_000, "not a JSON game record"),
    (b"\xff\xfe", "must be UTF-8"),
    (12, "must be JSON text"),
    ("", "not JSON"),
])
def test_loads_refuses_what_json_cannot_hold_and_what_would_crash_it(text, fragment):
    with pytest.raises(RecordError, match=fragment):
        GameRecord.loads(text)


def test_an_illegal_action_in_a_record_names_its_index(kuhn):
    data = kuhn_record()
    data["actions"][1]["seat"] = 0
    with pytest.raises(RecordError, match="record action 1 .*cannot be replayed: seat 0 may not act now"):
        GameRecord.from_json(data).replay()


# ----- options ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SampleOptions(GameOptions):
    players: int = 3
    teams: bool = option(False, "team mode")
    scoring: Literal["rulebook", "summary"] = option("rulebook", "which scoring")
    cap: Optional[int] = option(None, "a cap", min=1)
    rounds: int = option(3, "rounds", min=1, max=9)
    label: str = option("x", "a label")


@pytest.mark.parametrize("raw,fragment", [
    ({"cap": math.inf}, "cap=inf is not an integer; allowed: integer >= 1 or none"),
    ({"cap": -math.inf}, "is not an integer"),
    ({"cap": math.nan}, "cap=nan is not an integer"),
    ({"cap": json.loads("1e400")}, "cap=inf is not an integer"),
    ({"cap": 2.5}, "cap=2.5 is not an integer"),
    ({"cap": True}, "cap=True is not an integer"),
    ({"cap": [3]}, "cap=\\[3\\] is not an integer"),
    ({"cap": {"a": 1}}, "is not an integer"),
    ({"cap": 10**100}, "out of range; allowed: integer >= 1 or none \\(and at most 1,000,000"),
    ({"cap": "9" * 5000}, "is not an integer"),
    ({"cap": "1e3"}, "is not an integer"),
    ({"rounds": 10}, "out of range; allowed: integer 1..9"),
    ({"players": None}, "players=None is not an integer"),
    ({"teams": "maybe"}, "choose one of: true, false"),
    ({"teams": 1}, "choose one of: true, false"),
    ({"teams": None}, "choose one of: true, false"),
    ({"teams": ["true"]}, "choose one of: true, false"),
    ({"scoring": ["rulebook"]}, "choose one of: rulebook, summary"),
    ({"scoring": True}, "choose one of: rulebook, summary"),
    ({"label": 3}, "label=3 must be text"),
    ({"label": "x" * 1001}, "at most 1000"),
    ({("cap",): 1}, "unknown option \\('cap',\\)"),
])
def test_options_of_the_wrong_type_or_range_are_refused_with_the_allowed_values(raw, fragment):
    with pytest.raises(InvalidOptionsError, match=fragment):
        build_options(SampleOptions, raw, (3, 4))


def test_options_accept_what_people_type():
    opts = build_options(SampleOptions, {"players": " 4 ", "teams": "YES", "cap": 30.0, "rounds": "+2",
                                         "scoring": "summary"}, (3, 4))
    assert opts == SampleOptions(players=4, teams=True, cap=30, rounds=2, scoring="summary")
    assert build_options(SampleOptions, {"teams": "off", "cap": "none"}, None).teams is False


@pytest.mark.parametrize("name", GAMES)
def test_every_game_option_refuses_infinity_lists_and_dicts_clearly(name):
    spec = get_game(name)
    for info in spec.describe_options():
        for value in (math.inf, [1], {"a": 1}):
            with pytest.raises(InvalidOptionsError, match=f"option {info.name}"):
                spec.options(**{info.name: value})


def test_an_option_named_like_a_parameter_is_just_an_unknown_option(kuhn):
    for raw in ({"self": 1}, {"name": "x"}):
        with pytest.raises(InvalidOptionsError, match="unknown option"):
            make("kuhn", **raw)


def test_a_game_name_that_is_not_text_is_an_unknown_game():
    with pytest.raises(UnknownGameError, match="unknown game \\['alarun'\\]; known games"):
        get_game(["alarun"])


# ----- the action codec ------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Sample(Action):
    kind: ClassVar[str] = "sample"
    name: str
    count: int
    flag: bool
    maybe: Optional[int]
    cells: tuple[int, ...]


CODEC = ActionCodec([Sample])
GOOD = {"type": "sample", "name": "oak", "count": 3, "flag": True, "maybe": None, "cells": [1, 2]}


def test_the_codec_reads_each_field_by_its_annotation():
    assert CODEC.from_json(GOOD) == Sample("oak", 3, True, None, (1, 2))
    assert CODEC.from_json({**GOOD, "maybe": 4, "cells": []}) == Sample("oak", 3, True, 4, ())


@pytest.mark.parametrize("changes,fragment", [
    ({"name": 5}, "name must be text of at most 100 characters; got 5"),
    ({"name": "x" * 101}, "name must be text"),
    ({"name": None}, "name must be text"),
    ({"count": True}, "count must be an integer"),
    ({"count": 1.0}, "count must be an integer"),
    ({"count": "3"}, "count must be an integer"),
    ({"count": 2**40}, "count must be an integer from -2147483647 to 2147483647"),
    ({"count": 10**5000}, "got <an integer of 16610 bits>"),
    ({"flag": 1}, "flag must be true or false"),
    ({"flag": "true"}, "flag must be true or false"),
    ({"maybe": 1.5}, "maybe must be an integer .* or null"),
    ({"maybe": "none"}, "maybe must be"),
    ({"cells": [1, "2"]}, "cells must be a list of at most 64 items, each an integer"),
    ({"cells": [[1]]}, "cells must be a list"),
    ({"cells": list(range(65))}, "cells must be a list of at most 64"),
    ({"cells": {"0": 1}}, "cells must be a list"),
    ({"type": ["sample"]}, "unknown action type \\['sample'\\]; known: sample"),
    ({"type": "fly"}, "unknown action type 'fly'"),
    ({"extra": 1}, "unexpected 'extra'"),
])
def test_the_codec_refuses_fields_that_do_not_fit_their_annotation(changes, fragment):
    with pytest.raises(RecordError, match=fragment):
        CODEC.from_json({**GOOD, **changes})


def test_the_codec_needs_every_field():
    with pytest.raises(RecordError, match="missing \\['cells'\\]"):
        CODEC.from_json({k: v for k, v in GOOD.items() if k != "cells"})


def test_a_failing_game_lookup_becomes_a_record_error():
    def intern(action):
        return {}[action]
    codec = ActionCodec([Sample], intern=intern)
    with pytest.raises(RecordError, match="action 'sample' cannot be read: KeyError"):
        codec.from_json(GOOD)


def test_the_codec_hands_the_options_to_a_lookup_that_takes_them():
    seen = []

    def intern(action, options):
        seen.append(options)
        if options is not None and action.count > options:
            raise RecordError("count: no such count for these options")
        return action
    codec = ActionCodec([Sample], intern=intern)
    assert codec.from_json(GOOD) == Sample("oak", 3, True, None, (1, 2))
    assert codec.from_json(GOOD, 5).count == 3
    with pytest.raises(RecordError, match="no such count"):
        codec.from_json(GOOD, 2)
    assert seen == [None, 5, 2]


def test_a_lookup_of_one_argument_still_works_when_options_are_given():
    canonical = Sample("oak", 3, True, None, (1, 2))
    codec = ActionCodec([Sample], intern=lambda action: canonical if action == canonical else action)
    assert codec.from_json(dict(GOOD), object()) is canonical
    assert codec.from_json(dict(GOOD)) is canonical


@pytest.mark.parametrize("name", GAMES)
def test_action_from_json_takes_only_the_games_own_validated_options(name):
    spec = get_game(name)
    state = spec.make(seed=3)
    action = state.legal_actions()[0]
    assert spec.action_from_json(action.to_json(), spec.options()) == action
    with pytest.raises(InvalidOptionsError, match="validated options"):
        spec.action_from_json(action.to_json(), {"players": 2})


@pytest.mark.parametrize("name,junk,fragment", [
    ("edora", {"type": "start", "start": "X", "sanctuary": "Y"}, "field 'start' must be a start space"),
    ("edora", {"type": "move", "to": "ZZZZZZZZZZZZ", "cost": 100}, "field 'to' must be a sanctuary"),
    ("amarok", {"type": "take_river", "card": "X9"}, "the deck has no card 'X9'"),
])
def test_a_record_naming_what_its_options_lack_is_refused_at_load(name, junk, fragment):
    spec = get_game(name)
    record = spec.make(seed=5).record().to_json()
    record["actions"] = [{"seat": 0, "action": junk}]
    with pytest.raises(RecordError, match="record action 0: .*" + fragment):
        GameRecord.from_json(record)


def test_an_action_field_of_another_type_is_refused_when_the_game_is_built():
    @dataclass(frozen=True, slots=True)
    class Weighed(Action):
        kind: ClassVar[str] = "weighed"
        weight: float
    with pytest.raises(TypeError, match="action fields may be"):
        ActionCodec([Weighed])


# ----- the guards around a game's decoders ---------------------------------------------------------------
def test_a_seat_that_is_not_acting_and_the_spectator_have_no_legal_actions_from_a_view(kuhn):
    state = kuhn.make(seed=1)
    assert kuhn.legal_actions_from_view(state.view(0)) == [toygame.CHECK, toygame.BET]
    assert kuhn.legal_actions_from_view(state.view(1)) == []
    assert kuhn.legal_actions_from_view(state.view(None)) == []


@pytest.mark.parametrize("changes,fragment", [
    ({"game": "chess"}, "not a view of kuhn: its game is 'chess'"),
    ({"game": "x" * 10_000}, "not a view of kuhn"),
    ({"players": 3}, "players must be one of 2; got 3"),
    ({"seat": 2}, "seat must be null \\(the spectator\\) or 0..1; got 2"),
    ({"seat": "0"}, "seat must be null"),
    ({"acting": [0, 0]}, "acting must be a list of distinct seats"),
    ({"acting": [[0]]}, "acting must be a list"),
    ({"terminal": 0}, "terminal must be true or false"),
    ({"scores": [None]}, "scores must be a list of 2"),
    ({"moves": [math.inf]}, "infinite"),
    ({"moves": [10**7]}, "out of range"),
    ({"moves": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[0]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}, "nested more than 32 deep"),
    ({"moves": {1, 2}}, "a set \\(not JSON data\\)"),
    ({"moves": None}, "cannot read this kuhn view: TypeError"),
])
def test_a_malformed_view_is_refused_with_a_short_message(kuhn, changes, fragment):
    view = {**kuhn.make(seed=1).view(0), **changes}
    for call in (kuhn.legal_actions_from_view, lambda v: kuhn.determinize(v, random.Random(0)),
                 lambda v: kuhn.sampler(v)(random.Random(0))):
        with pytest.raises(RecordError, match=fragment) as info:
            call(view)
        assert len(str(info.value)) < 300


def test_a_view_without_its_envelope_is_refused(kuhn):
    view = kuhn.make(seed=1).view(0)
    del view["acting"]
    with pytest.raises(RecordError, match="missing acting"):
        kuhn.determinize(view, random.Random(0))


def test_a_sampler_checks_its_view_once_and_turns_a_failing_sample_into_a_record_error(kuhn):
    view = kuhn.make(seed=1).view(0)
    del view["my_card"]
    sample = kuhn.sampler(view)  # the envelope is fine: the game's part fails per sample
    with pytest.raises(RecordError, match="cannot read this kuhn view: KeyError: 'my_card'"):
        sample(random.Random(0))


@pytest.mark.parametrize("data,fragment", [
    ([], "must be a JSON object"),
    ({}, "cannot read this kuhn state: KeyError: 'options'"),
    ({"options": {}, "seed": 1, "rng": [3, [1.5], None], "cards": [], "moves": [], "history": []},
     "a random stream must be"),
    ({"seed": float("nan")}, "infinite, or not a number"),
    ({"seed": 2**65}, "out of range"),
])
def test_a_malformed_state_is_refused_with_a_short_message(kuhn, data, fragment):
    with pytest.raises(RecordError, match=fragment):
        kuhn.state_from_json(data)


def test_the_guards_stay_single_when_a_spec_is_copied(kuhn):
    import dataclasses
    copy = dataclasses.replace(kuhn, title="copy")
    assert copy.determinize._game_function is kuhn.determinize._game_function
    assert kuhn.state_from_json(kuhn.make(seed=2).to_json()).to_json() == kuhn.make(seed=2).to_json()


def test_a_record_keeps_its_options_in_canonical_form():
    import json as _json
    import nemeton
    record = nemeton.make("alarun", players=3, seed=4).record().to_json()
    record["options"]["players"] = "3"
    loaded = GameRecord.from_json(_json.loads(_json.dumps(record)))
    assert loaded.options["players"] == 3 and loaded.to_json()["options"] == nemeton.make(
        "alarun", players=3, seed=4).record().to_json()["options"]
