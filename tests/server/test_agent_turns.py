"""The table's split agent turn the server uses (ask under the lock, decide on a worker, play
under the lock): the same game as the plain loop, stale answers refused, illegal ones named."""

from __future__ import annotations

import pytest

from nemeton import get_game, list_games
from nemeton.agents.base import make_agent
from nemeton.table import AgentActionError, Table


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
