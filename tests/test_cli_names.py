"""Terminal play names players, never engine indices: ``nemeton play --names`` (checked) and
the default names ("You", "Bot 2 (heuristic)"), run as a person runs it, in a subprocess."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from nemeton.cli import app

NEMETON = str(Path(sys.executable).with_name("nemeton"))
INDEX = re.compile(r"\b[Ss]eats? \d")
runner = CliRunner()

GAMES = [("alarun", 3, []), ("amarok", 4, ["-o", "teams=true"]), ("edora", 2, ["-o", "safety_valve=true"])]


def play(*args: str, answers: str) -> subprocess.CompletedProcess:
    return subprocess.run([NEMETON, "play", *args], input=answers, capture_output=True, text=True,
                          timeout=600, env={"COLUMNS": "200", "PATH": "/usr/bin:/bin", "TERM": "dumb"})


@pytest.mark.parametrize("game,players,extra", GAMES)
def test_a_whole_game_names_the_players(game, players, extra):
    names = ["Ann", "Bob", "Cid", "Dee"][:players]
    done = play(game, "--players", str(players), "--names", ",".join(names), "--agents", "random",
                "--seed", "11", *extra, answers="1\n" * 4000)
    out = done.stdout
    assert done.returncode == 0, done.stderr[-2000:] + out[-2000:]
    assert not INDEX.search(out), INDEX.search(out) and out[max(0, INDEX.search(out).start() - 300):][:600]
    assert "\ue000" not in out and "\ue001" not in out
    before, over, after = out.partition("Game over")
    assert over and all(name in before for name in names)
    assert f"players: {', '.join(names)}. You are player 1 (Ann)" in out
    assert re.search(r"(Ann|Bob|Cid|Dee)\b.*: score -?\d+, rank \d", after)
    assert "Winner" in after


@pytest.mark.parametrize("game,players,extra", GAMES)
def test_default_names_say_you_and_the_bots(game, players, extra):
    done = play(game, "--players", str(players), "--seat", "1", "--agents", "heuristic", "--seed", "5", *extra,
                answers="q\n")
    out = done.stdout
    assert done.returncode == 0, done.stderr[-2000:]
    assert not INDEX.search(out) and "\ue000" not in out
    bots = [f"Bot {k} (heuristic)" for k in range(1, players + 1) if k != 2]
    assert f"players: {', '.join([bots[0], 'You', *bots[1:]])}. You are player 2." in out
    assert "Game abandoned." in out


def test_amarok_menu_names_the_hands_to_take_from_and_answers_match_it():
    done = play("amarok", "--players", "3", "--names", "Ann,Bob,Cid", "--seed", "2", answers="take an unseen card from bob\nq\n")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "take an unseen card from Bob's hand" in done.stdout
    assert "You take " in done.stdout.split("Your choice", 1)[1]  # the answer named an action


@pytest.mark.parametrize("names,fragment", [
    ("Ann,Bob", "--names needs one name per seat, 3 in all"),
    ("Ann,,Cid", "name 2 is empty"),
    ("Ann,Bob," + "x" * 25, "longer than 24 characters"),
    ("Ann,Bob,ann", "two players may not share a name"),
    ("Ann,Bob,C\ue0001\ue001d", "cannot be shown"),
])
def test_bad_names_are_refused_with_a_clear_message(names, fragment):
    result = runner.invoke(app, ["play", "amarok", "--players", "3", "--names", names], input="q\n")
    assert result.exit_code == 2
    assert fragment in result.output


def test_a_name_of_24_characters_is_fine():
    result = runner.invoke(app, ["play", "amarok", "--players", "3", "--names", "Ann,Bob," + "y" * 24], input="q\n")
    assert result.exit_code == 0, result.output
    assert "y" * 24 in result.output
