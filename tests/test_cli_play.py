"""Terminal play of every game: a person answering '1' at every prompt plays a full game
against bots, seeing their own view (the renderer) and their seat's log each turn."""

from __future__ import annotations

import json

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


def test_record_writes_the_finished_game_for_analyse_and_nothing_before_the_end(tmp_path, monkeypatch):
    """`--record FILE`: the record (seed and moves) of the game just played, replaying to its end
    with the same scores; the end says how to analyse it, in the terminal's language; the file
    is written only at the end, and a folder that does not exist is refused before the game."""
    from nemeton.engine import GameRecord
    path = tmp_path / "game.json"
    quit_early = runner.invoke(app, ["play", "amarok", "--players", "3", "--record", str(path)], input="q\n")
    assert quit_early.exit_code == 0 and not path.exists()
    spec = get_game("amarok")
    options = [f"--option={k}={v}" for k, v in spec.bot_defaults.items()]
    result = runner.invoke(app, ["play", "amarok", "--players", "3", "--seed", str(SEED), *options, "--record", str(path),
                                 "--lang", "it"], input="1\n" * 3000)
    assert result.exit_code == 0, result.output[-2000:]
    assert f"La registrazione della partita è in {path}: `nemeton analyse {path}`" in " ".join(result.output.split())
    record = GameRecord.loads(path.read_text(encoding="utf-8"))
    state = record.replay()
    assert record.seed == SEED and state.is_terminal() and record.actions and record.actions[0][0] == 0
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    analysed = runner.invoke(app, ["analyse", str(path), "--iterations", "10", "--json"])
    assert analysed.exit_code == 0 and len(json.loads(analysed.stdout)["decisions"]) == len(record.actions)
    nowhere = runner.invoke(app, ["play", "amarok", "--players", "3", "--record", str(tmp_path / "no" / "game.json")])
    assert nowhere.exit_code == 2 and "--record: no folder" in nowhere.output and "Legal actions" not in nowhere.output
