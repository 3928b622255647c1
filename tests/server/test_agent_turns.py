"""The table's split agent turn the server uses (ask under the lock, decide on a worker, play
under the lock): the same game as the plain loop, stale answers refused, illegal ones named."""

from __future__ import annotations

import pytest

from nemeton import get_game, list_games
from nemeton.agents.base import make_agent
from nemeton.table import AgentActionError, Table, TableError


def tables(game, agent="heuristic"):
    spec = get_game(game)
    players = min(spec.player_counts)
    made = []
    for _ in range(2):
        state = spec.make(players, seed=4, **spec.bot_defaults)
        made.append(Table(state, [make_agent(agent, spec, s, 100 + s) for s in range(players)], keep_log=True))
    return made


@pytest.mark.parametrize("game", [s.name for s in list_games()])
def test_asking_deciding_and_playing_each_turn_plays_the_same_game_as_the_loop(game):
    plain, split = tables(game)
    plain.run()
    while (turn := split.ask_agent()) is not None:
        assert split.play_agent(turn, turn.decide())
    assert split.over
    assert split.state.history == plain.state.history
    assert split.decisions == plain.decisions and split.steps == plain.steps
    assert split.state.log(None) == plain.state.log(None)  # keep_log: the spectator's log is recorded


def test_an_answer_to_a_turn_the_game_has_moved_past_is_not_applied():
    _, table = tables("amarok", "random")
    turn = table.ask_agent()
    action = turn.decide()
    assert table.play_agent(turn, action)
    before = list(table.state.history)
    assert not table.play_agent(turn, action)
    assert table.state.history == before


def test_an_illegal_answer_names_the_agent_and_changes_nothing():
    _, table = tables("alarun", "random")
    turn = table.ask_agent()
    other = tables("amarok", "random")[0].ask_agent().legal[0]
    with pytest.raises(AgentActionError, match="agent random at seat"):
        table.play_agent(turn, other)
    assert table.state.history == []


def test_a_seat_handed_to_a_person_waits_for_them_and_back_to_an_agent_moves_again():
    _, table = tables("amarok", "random")
    first = table.agent_to_act()
    agent = table.seats[first]
    table.replace_seat(first, None)
    assert table.agent_to_act() is None and table.pending() == [first] and table.step() is None
    table.replace_seat(first, agent)
    assert table.pending() == [] and table.step() == first


def test_an_answer_from_an_agent_whose_seat_was_handed_over_is_not_applied():
    _, table = tables("amarok", "random")
    turn = table.ask_agent()
    action = turn.decide()
    table.replace_seat(turn.seat, None)
    assert not table.play_agent(turn, action) and table.state.history == []


def test_a_person_cannot_join_a_table_that_does_not_record_the_log():
    spec = get_game("amarok")
    table = Table(spec.make(3, seed=1), [make_agent("random", spec, s, s) for s in range(3)])
    with pytest.raises(TableError, match="keep_log"):
        table.replace_seat(0, None)
    assert table.seats[0] is not None
