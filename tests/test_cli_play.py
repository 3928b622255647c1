"""Terminal play of every game: a person answering '1' at every prompt plays a full game
against bots, seeing their own view (the renderer) each turn."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from nemeton.cli import app
from nemeton.engine import list_games

runner = CliRunner()


@pytest.mark.parametrize("name", [s.name for s in list_games()])
def test_a_person_can_play_a_whole_game_in_the_terminal(name):
    spec = [s for s in list_games() if s.name == name][0]
    players = spec.player_counts[0]
    options = [f"--option={k}={v}" for k, v in spec.bot_defaults.items()]
    result = runner.invoke(app, ["play", name, "--players", str(players), "--seed", "2", *options],
                           input="1\n" * 3000)
    assert result.exit_code == 0, result.output[-2000:]
    assert "Game over" in result.output
    assert "Legal actions" in result.output
    assert "rank" in result.output


def test_play_rejects_a_seat_outside_the_table():
    name = list_games()[0].name
    result = runner.invoke(app, ["play", name, "--players", "3", "--seat", "5"])
    assert result.exit_code == 2
    assert "--seat must be between 0 and 2" in result.output
