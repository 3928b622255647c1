"""The engine protocol itself: options, registry, records, shared policies, agents and ISMCTS,
checked on a tiny hidden-information game (Kuhn poker, tests/toygame.py)."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Literal, Optional

import pytest

import toygame
from nemeton.agents.base import AgentSpecError, make_agent, parse_agent_spec
from nemeton.engine import (GameOptions, GameRecord, IllegalActionError, InvalidOptionsError, RecordError,
                            UnknownGameError, build_options, get_game, make, option)


@pytest.fixture()
def kuhn():
    toygame.install()
    yield get_game("kuhn")
    toygame.uninstall()


@dataclass(frozen=True)
class SampleOptions(GameOptions):
    players: int = 3
    teams: bool = option(False, "team mode")
    scoring: Literal["rulebook", "summary"] = option("rulebook", "which scoring")
    cap: Optional[int] = option(None, "a cap", min=1)


def test_options_are_coerced_from_cli_strings():
    opts = build_options(SampleOptions, {"players": "4", "teams": "true", "scoring": "summary", "cap": "30"}, (3, 4))
    assert opts == SampleOptions(players=4, teams=True, scoring="summary", cap=30)
    assert build_options(SampleOptions, {"cap": "none"}, None).cap is None


@pytest.mark.parametrize("raw,fragment", [
    ({"colour": "red"}, "allowed options: players, teams, scoring, cap"),
    ({"teams": "maybe"}, "choose one of: true, false"),
    ({"scoring": "house"}, "choose one of: rulebook, summary"),
    ({"cap": "0"}, "integer >= 1"),
    ({"cap": "x"}, "not an integer"),
    ({"players": 7}, "for 3, 4 players"),
])
def test_invalid_options_raise_a_clear_error_naming_allowed_values(raw, fragment):
    with pytest.raises(InvalidOptionsError, match=fragment.replace("(", r"\(")):
        build_options(SampleOptions, raw, (3, 4))


def test_unknown_game_lists_known_games():
    with pytest.raises(UnknownGameError, match="unknown game 'chess'; known games"):
        make("chess")


def test_illegal_action_and_wrong_seat_change_nothing(kuhn):
    state = kuhn.make(seed=1)
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="seat 1 may not act now"):
        state.apply(toygame.BET, seat=1)
    assert state.to_json() == before
    state.apply(toygame.BET)
    state.apply(toygame.BET)
    assert state.is_terminal()
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply(toygame.BET)


def test_ranking_returns_and_ties_share(kuhn):
    state = kuhn.make(seed=2)
    state.apply(toygame.BET)
    state.apply(toygame.CHECK)  # fold: seat 0 wins
    assert state.scores() == [1, -1] and state.ranking() == [1, 2]
    assert state.winners() == [0] and state.returns() == [1.0, 0.0]

    class Tied(type(state)):
        def ranking_key(self, seat):
            return (0,)
    tied = state.clone()
    tied.__class__ = Tied
    assert tied.ranking() == [1, 1] and tied.returns() == [0.5, 0.5]


def test_record_round_trip_and_replay(kuhn):
    state = kuhn.make(seed=3)
    state.apply(toygame.CHECK)
    state.apply(toygame.BET)
    state.apply(toygame.BET)
    record = GameRecord.loads(state.record().dumps())
    assert record.replay().to_json() == state.to_json()
    assert record.replay(upto=1).to_json()["moves"] == [False]


_HEAD = '"format": 1, "game": "kuhn", "rules_version": 1'


@pytest.mark.parametrize("text,fragment", [
    ("not json", "not JSON"),
    ('{%s}' % _HEAD, "missing options, seed, actions"),
    ('{%s, "options": {}, "seed": 1, "actions": [{"seat": 0, "action": {"type": "fly"}}]}' % _HEAD,
     "record action 0: unknown action type 'fly'"),
    ('{%s, "options": {}, "seed": 1, "actions": [{"seat": 1, "action": {"type": "bet", "bet": true}}]}' % _HEAD,
     "record action 0 .* cannot be replayed: seat 1 may not act now"),
])
def test_bad_records_are_rejected_clearly(kuhn, text, fragment):
    with pytest.raises(RecordError, match=fragment):
        GameRecord.loads(text).replay()


def test_agent_specs_parse_and_reject_unknowns():
    cls, params = parse_agent_spec("ismcts:seconds=1.0:c=0.7")
    assert cls.name == "ismcts" and params == {"seconds": 1.0, "c": 0.7}
    with pytest.raises(AgentSpecError, match="available agents: random, heuristic, ismcts"):
        parse_agent_spec("alphazero")
    with pytest.raises(AgentSpecError, match="its parameters: iterations, seconds"):
        parse_agent_spec("ismcts:depth=3")
    with pytest.raises(AgentSpecError, match="expected random|heuristic"):
        parse_agent_spec("ismcts:rollout=smart")


def _facing_bet(kuhn, card_of_seat1):
    for seed in range(50):
        state = kuhn.make(seed=seed)
        if state.cards[1] == card_of_seat1:
            state.apply(toygame.BET)
            return state
    raise AssertionError


def test_ismcts_calls_with_the_king(kuhn):
    state = _facing_bet(kuhn, 2)
    agent = make_agent("ismcts:iterations=300", kuhn, 1, seed=5)
    assert agent.act(state.view(1), state.legal_actions(1)) == toygame.BET


def test_ismcts_sees_that_the_jack_loses_whether_it_folds_or_calls(kuhn):
    """Returns are shares of the win, so with the jack facing a bet folding and calling
    both lose: the search finds both worth nothing (which it plays is a tie, broken at
    random)."""
    state = _facing_bet(kuhn, 0)
    agent = make_agent("ismcts:iterations=300", kuhn, 1, seed=5)
    agent.act(state.view(1), state.legal_actions(1))
    children = agent.last_root.children
    assert set(children) == {toygame.CHECK, toygame.BET}
    assert all(child.visits > 0 and child.reward == 0.0 for child in children.values())


def test_ismcts_decision_does_not_depend_on_the_hidden_card(kuhn):
    state = _facing_bet(kuhn, 1)
    view = state.view(1)
    decisions = set()
    for k in range(4):  # the same view over different true hidden cards
        alt = kuhn.determinize(view, random.Random(k))
        assert alt.view(1) == view
        agent = make_agent("ismcts:iterations=200", kuhn, 1, seed=9)
        decisions.add(agent.act(alt.view(1), alt.legal_actions(1)))
    assert len(decisions) == 1
