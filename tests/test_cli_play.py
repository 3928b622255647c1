"""Terminal play of every game: a person answering '1' at every prompt plays a full game
against bots, seeing their own view (the renderer) and their seat's log each turn."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from nemeton.cli import app
from nemeton.cli.play import default_names
from nemeton.engine.log import render_parts
from nemeton.engine import get_game, list_games

runner = CliRunner()
SEED = 918273645  # distinctive: it must not appear before the end


@pytest.mark.parametrize("name", [s.name for s in list_games()])
def test_a_person_can_play_a_whole_game_in_the_terminal(name):
    spec = get_game(name)
    players = spec.player_counts[0]
    options = [f"--option={k}={v}" for k, v in spec.bot_defaults.items()]
    result = runner.invoke(app, ["play", name, "--players", str(players), "--seed", str(SEED), *options],
                           input="1\n" * 3000)
    assert result.exit_code == 0, result.output[-2000:]
    before, over, after = result.output.partition("Game over")
    assert over and "Legal actions" in before and "rank" in after
    assert str(SEED) not in before and f"Seed: {SEED}" in after
    # the first screen tells what happened at the setup, as seat 0 sees it
    setup = spec.make(players=players, seed=SEED, **spec.bot_defaults).log(0)
    first_screen = before.split("Legal actions")[0]
    names = default_names(["human"] + ["random"] * (players - 1), 0)
    assert all(render_parts(entry["parts"], names) in first_screen for entry in setup)


def test_play_rejects_a_seat_outside_the_table():
    name = list_games()[0].name
    result = runner.invoke(app, ["play", name, "--players", "3", "--seat", "5"])
    assert result.exit_code == 2
    assert "--seat must be between 0 and 2" in result.output


@pytest.mark.parametrize("name", [s.name for s in list_games()])
def test_m_shows_the_full_screen_where_the_game_draws_one_and_asks_again(name):
    from nemeton.cli.play import has_full_screen
    spec = get_game(name)
    players = spec.player_counts[0]
    result = runner.invoke(app, ["play", name, "--players", str(players), "--seed", "5"], input="m\nq\n")
    assert result.exit_code == 0, result.output[-2000:]
    if has_full_screen(spec.render):
        view = spec.make(players=players, seed=5).view(0)
        full = spec.render(view, full=True)
        assert "m = full map" in result.output
        assert full.splitlines()[-1].strip() in result.output and len(full) > len(spec.render(view))
        assert result.output.count("Your choice") == 2, "after the map the same choice is asked again"
    else:
        assert "m = full map" not in result.output
