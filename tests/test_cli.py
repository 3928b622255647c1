"""The command line, driven through Typer's test runner (the Kuhn test game keeps it game-agnostic)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import toygame
from nemeton.cli import app

runner = CliRunner()


@pytest.fixture()
def kuhn():
    toygame.install()
    yield
    toygame.uninstall()


def test_games_lists_every_registered_game_with_player_counts(kuhn):
    result = runner.invoke(app, ["games", "--json"])
    assert result.exit_code == 0, result.output
    games = {g["name"]: g for g in json.loads(result.output)}
    assert games["kuhn"]["players"] == [2]


def test_simulate_json_has_the_documented_keys_and_is_reproducible(kuhn):
    args = ["simulate", "kuhn", "--players", "2", "--games", "40", "--seed", "3", "--json"]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    data = json.loads(first.stdout)
    for key in ("game", "players", "games", "seed", "wins", "mean_scores", "games_per_second", "steps_per_second"):
        assert key in data
    assert data["game"] == "kuhn" and data["games"] == 40 and len(data["wins"]) == 2
    assert sum(data["wins"]) == 40  # Kuhn poker has no ties
    assert abs(sum(data["mean_scores"])) < 1e-9  # zero-sum
    again = json.loads(runner.invoke(app, args).stdout)
    assert again["wins"] == data["wins"] and again["mean_scores"] == data["mean_scores"]


def test_simulate_accepts_agent_specs_per_seat(kuhn):
    result = runner.invoke(app, ["simulate", "kuhn", "-p", "2", "-n", "30", "--agents", "ismcts:iterations=50,random", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["agents"] == ["ismcts:iterations=50", "random"]
    assert data["mean_scores"][0] > data["mean_scores"][1]


@pytest.mark.parametrize("args,fragment", [
    (["simulate", "chess", "-p", "2"], "unknown game 'chess'"),
    (["simulate", "kuhn", "-p", "3"], "players=3 is not allowed"),
    (["simulate", "kuhn", "-p", "2", "--option", "colour=red"], "unknown option colour"),
    (["simulate", "kuhn", "-p", "2", "--option", "oops"], "name=value"),
    (["simulate", "kuhn", "-p", "2", "--agents", "genius"], "unknown agent 'genius'"),
    (["simulate", "kuhn", "-p", "2", "--agents", "random,random,random"], "exactly 2 specs"),
])
def test_bad_input_exits_2_with_a_clear_message(kuhn, args, fragment):
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert fragment in result.output


def test_play_prompts_until_a_valid_choice_and_finishes(kuhn):
    result = runner.invoke(app, ["play", "kuhn", "-p", "2", "--seed", "1", "--agents", "random"],
                           input="9\nfoo\n2\n2\n1\n")
    assert result.exit_code == 0, result.output
    assert "'9' is not one of the 2 legal actions" in result.output
    assert "'foo' is not one of the 2 legal actions" in result.output
    assert "Game over" in result.output


def test_deck_and_board_files_can_be_given_by_flag(tmp_path):
    from importlib.resources import files
    deck = files("nemeton.games.amarok") / "data" / "default_deck.toml"
    board = files("nemeton.games.edora") / "data" / "board.yaml"
    ok = runner.invoke(app, ["simulate", "amarok", "-p", "3", "-n", "3", "--deck", str(deck), "--json"])
    assert ok.exit_code == 0, ok.output
    ok = runner.invoke(app, ["simulate", "edora", "-p", "2", "-n", "1", "--board", str(board), "--json"])
    assert ok.exit_code == 0, ok.output
    bad = tmp_path / "deck.toml"
    bad.write_text('[[card]]\nid = "X"\n')
    result = runner.invoke(app, ["simulate", "amarok", "-p", "3", "-n", "3", "--deck", str(bad)])
    assert result.exit_code == 2 and "unknown top-level key" in result.output
    result = runner.invoke(app, ["simulate", "alarun", "-p", "3", "-n", "3", "--deck", str(bad)])
    assert result.exit_code == 2 and "unknown option deck" in result.output


@pytest.mark.parametrize("args,fragment", [
    (["simulate", "kuhn", "-p", "2", "--agents", "ismcts:iterations=0"], "iterations must be at least 1"),
    (["simulate", "kuhn", "-p", "2", "--agents", "random,"], "has an empty entry"),
    (["simulate", "kuhn", "-p", "2", "--agents", "ismcts:foo=1"], "no parameter 'foo'"),
    (["simulate", "kuhn", "-p", "2", "--option", "players=3"], "with --players"),
    (["simulate", "kuhn", "-p", "2", "--agents", "human,random"], "'human' is for `nemeton play`"),
    (["play", "kuhn", "-p", "2", "--agents", "heuristic,random"], "put 'human' there"),
    (["play", "kuhn", "-p", "2", "--agents", "human,human"], "only one seat can be 'human'"),
    (["play", "kuhn", "-p", "2", "--seat", "0", "--agents", "random,human"], "disagrees with 'human' at seat 1"),
])
def test_more_bad_input_exits_2_before_anything_runs(kuhn, args, fragment):
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert fragment in result.output


def test_simulate_json_reports_validated_option_values():
    result = runner.invoke(app, ["simulate", "alarun", "-p", "2", "-n", "2", "--option", "action_cap=5", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["options"] == {"action_cap": 5}


def test_play_takes_the_human_seat_from_the_agent_list(kuhn):
    result = runner.invoke(app, ["play", "kuhn", "-p", "2", "--seed", "1", "--agents", "random,human"],
                           input="1\n" * 5)
    assert result.exit_code == 0, result.output
    assert "You are seat 1" in result.output


def test_closing_the_input_abandons_the_game_with_a_message(kuhn):
    result = runner.invoke(app, ["play", "kuhn", "-p", "2", "--seed", "1"], input="")
    assert result.exit_code == 1
    assert "Input closed: game abandoned." in result.output
