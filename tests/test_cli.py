"""The command line, driven through Typer's test runner (the Kuhn test game keeps it game-agnostic)."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from typing import ClassVar, Optional

import pytest
from typer.testing import CliRunner

import toygame
from nemeton.cli import app
from nemeton.cli.play import choose, prompt_text
from nemeton.engine import Action, GameOptions, content_hash, option, register
from nemeton.engine.registry import _REGISTRY

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
    (["simulate", "kuhn", "-p", "2", "--agents", "ismcts:iterations=0"], "iterations must be from 1 to"),
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
    assert "You are player 2" in result.output


def test_closing_the_input_abandons_the_game_with_a_message(kuhn):
    result = runner.invoke(app, ["play", "kuhn", "-p", "2", "--seed", "1"], input="")
    assert result.exit_code == 1
    assert "Input closed: game abandoned." in result.output


# ----- a Kuhn variant with a data option (a deck given as a file's text) and float scores ------
@dataclasses.dataclass(frozen=True)
class DeckKuhnOptions(GameOptions):
    players: int = 2
    deck: Optional[str] = option(None, "the deck: three card names", data="text deck",
                                 standard=lambda: "J Q K")


class DeckKuhnState(toygame.KuhnState):
    game_name = "deckkuhn"

    def scores(self):
        return [float(x) for x in super().scores()]


DECK_KUHN = dataclasses.replace(toygame.SPEC, name="deckkuhn", title="Kuhn poker with a deck (test game)",
                                options_cls=DeckKuhnOptions,
                                new_state=lambda o, s: DeckKuhnState(o, s, random.Random(s)))


@pytest.fixture()
def deckkuhn():
    register(DECK_KUHN)
    yield
    _REGISTRY.pop("deckkuhn", None)


def test_a_data_option_reads_the_file_and_passes_its_text(deckkuhn, tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_text("A B C", encoding="utf-8")
    result = runner.invoke(app, ["simulate", "deckkuhn", "-p", "2", "-n", "2", "--option", f"deck={deck}", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["options"] == {"deck": content_hash("A B C")}
    standard = runner.invoke(app, ["simulate", "deckkuhn", "-p", "2", "-n", "2", "--option", "deck=standard", "--json"])
    assert json.loads(standard.stdout)["options"] == {"deck": f"standard ({content_hash('J Q K')})"}


@pytest.mark.parametrize("content,fragment", [
    (b"caf\xe9", "is not UTF-8 text"),
    (None, "cannot read"),
])
def test_a_data_file_that_is_missing_or_not_utf8_exits_2_with_a_message(deckkuhn, tmp_path, content, fragment):
    path = tmp_path / "deck.txt"
    if content is not None:
        path.write_bytes(content)
    for command in (["simulate", "deckkuhn", "-p", "2", "-n", "1"], ["play", "deckkuhn", "-p", "2"]):
        result = runner.invoke(app, [*command, "--option", f"deck={path}"])
        assert result.exit_code == 2, result.output
        assert fragment in result.output and "Traceback" not in result.output


def test_a_real_deck_file_that_is_not_utf8_exits_2(tmp_path):
    path = tmp_path / "deck.toml"
    path.write_bytes(b'[[card]]\nid = "R\xff"\n')
    result = runner.invoke(app, ["simulate", "amarok", "-p", "3", "-n", "1", "--deck", str(path)])
    assert result.exit_code == 2 and "--deck" in result.output and "not UTF-8" in result.output


def test_games_shows_data_options_by_content_hash(deckkuhn):
    listed = {g["name"]: g for g in json.loads(runner.invoke(app, ["games", "--json"]).stdout)}
    (deck,) = listed["deckkuhn"]["options"]
    assert deck["default"] == f"standard ({content_hash('J Q K')})" and deck["data"] == "text deck"
    table = runner.invoke(app, ["games"]).output.split("deckkuhn")[1]
    assert re.search(rf"deck +│ standard +│.*\n.*│ \({content_hash('J Q K')}\) +│", table)


@pytest.mark.parametrize("args,literal", [
    (["play", "chess[/]", "--players", "2"], "unknown game 'chess[/]'"),
    (["play", "kuhn", "-p", "2", "--option", "foo[/]=1"], "unknown option foo[/]"),
    (["play", "kuhn", "-p", "2", "--agents", "gpt[/]"], "unknown agent 'gpt[/]'"),
    (["simulate", "kuhn", "-p", "2", "--agents", "[bold]x"], "unknown agent '[bold]x'"),
    (["simulate", "kuhn", "-p", "2", "--option", "[red]=1"], "unknown option [red]"),
])
def test_brackets_in_user_text_are_printed_literally(kuhn, args, literal):
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert literal in result.output


def test_brackets_typed_at_the_prompt_are_an_answer_like_any_other(kuhn):
    result = runner.invoke(app, ["play", "kuhn", "-p", "2", "--seed", "1"], input="[/]\n[bold]x\nq\n")
    assert result.exit_code == 0, result.output
    assert "'[/]' is not one of the 2 legal actions" in result.output
    assert "'[bold]x' is not one of the 2 legal actions" in result.output


def test_the_seed_is_shown_only_at_the_end(kuhn):
    result = runner.invoke(app, ["play", "kuhn", "-p", "2", "--seed", "1234567"], input="1\n" * 5)
    assert result.exit_code == 0, result.output
    before, _, after = result.output.partition("Game over")
    assert "1234567" not in before and "Seed: 1234567" in after


def test_a_drawn_seed_is_shown_only_at_the_end(kuhn):
    result = runner.invoke(app, ["play", "kuhn", "-p", "2"], input="1\n" * 5)
    assert result.exit_code == 0, result.output
    seed = re.search(r"Seed: (\d+)", result.output).group(1)
    before, _, _ = result.output.partition("Game over")
    assert seed not in before


def test_play_shows_the_events_since_the_last_decision(kuhn):
    # seat 1 acts first as a person: seat 0's bot has moved, and its move is told
    result = runner.invoke(app, ["play", "kuhn", "-p", "2", "--seed", "1", "--agents", "random,human"],
                           input="2\n" * 3)
    assert result.exit_code == 0, result.output
    first_screen = result.output.split("Legal actions")[0]
    assert re.search(r"Bot 1 \(random\): (check|bet)\.", first_screen)
    assert "You: bet." in result.output.split("Game over")[1]  # own last action, then what followed


def test_the_end_shows_whole_scores_ranks_winners_and_seed(deckkuhn):
    result = runner.invoke(app, ["play", "deckkuhn", "-p", "2", "--seed", "3"], input="2\n" * 3)
    assert result.exit_code == 0, result.output
    end = result.output.split("Game over")[1]
    assert re.search(r"\nYou: score -?\d+, rank [12]\n", end)
    assert ".0," not in end
    assert re.search(r"Winners?: (You|Bot 2 \(random\))", end)
    assert "Seed: 3" in end


def test_play_shows_data_options_by_hash(deckkuhn, tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_text("A B C", encoding="utf-8")
    result = runner.invoke(app, ["play", "deckkuhn", "-p", "2", "--option", f"deck={deck}"], input="q\n")
    assert f"deck: {content_hash('A B C')}" in result.output and "A B C" not in result.output


# ----- choosing an action by number, prefix or short key --------------------------------------
@dataclasses.dataclass(frozen=True, slots=True)
class Named(Action):
    kind: ClassVar[str] = "named"
    text: str

    def __str__(self):
        return self.text


LEGAL = [Named("swap DE-b <-> MY-r"), Named("swap DE-b <-> CA-g"), Named("Pass"), Named("place MY-r at (0,1)"),
         Named("flip"), Named("swap all and pass")]


@pytest.mark.parametrize("answer,expected", [
    ("3", "Pass"),
    ("pass", "Pass"),               # exact text wins over the longer action it starts
    ("PLACE", "place MY-r at (0,1)"),  # unique prefix, any case
    ("swap  de-b <-> ca", "swap DE-b <-> CA-g"),  # repeated spaces do not matter
    ("swap all", "swap all and pass"),
    ("p", "Pass"),                  # short keys
    ("F", "flip"),
])
def test_an_answer_names_an_action_by_number_text_prefix_or_short_key(answer, expected):
    assert str(choose(answer, LEGAL)) == expected


def test_an_ambiguous_prefix_says_which_actions_it_starts():
    message = choose("swap de", LEGAL)
    assert message == "'swap de' starts 2 actions: 1 = swap DE-b <-> MY-r; 2 = swap DE-b <-> CA-g. Type more of it, or a number."


def test_a_short_key_whose_action_is_not_legal_says_so():
    message = choose("f", [Named("pass"), Named("fold")])
    assert message.startswith("'f' means flip, which is not legal now")


def test_the_prompt_lists_only_the_short_keys_that_are_legal():
    assert "p = pass" in prompt_text(LEGAL) and "f = flip" in prompt_text(LEGAL)
    assert "f =" not in prompt_text([Named("pass")])


def test_the_shared_file_reader_takes_standard_input_and_refuses_non_utf8(tmp_path):
    import typer
    from nemeton.cli.common import read_text_file
    reader = typer.Typer()

    @reader.command()
    def read(path: str) -> None:
        print(repr(read_text_file(path, "score")))

    assert runner.invoke(reader, ["-"], input="café").stdout.strip() == "'café'"
    bad = runner.invoke(reader, ["-"], input=b"caf\xe9")
    assert bad.exit_code == 2 and "score: standard input is not UTF-8 text" in bad.output
    path = tmp_path / "square.json"
    path.write_bytes("\ufeff{}".encode("utf-8"))
    assert runner.invoke(reader, [str(path)]).stdout.strip() == "'{}'"


def test_f_flips_in_a_real_two_player_alarun_game():
    import nemeton
    from nemeton.cli.play import short_keys
    state = nemeton.make("alarun", players=2, seed=1)
    keys = short_keys(state.legal_actions(0))
    assert str(keys["f"]).startswith("flip") and str(keys["p"]) == "pass"
    assert "f = flip," in prompt_text(state.legal_actions(0)), "the prompt names the key, not the whole text"


@pytest.mark.parametrize("lang, keys, refusal", [
    ("it", ("p = passa", "f = gira"), "'f' significa gira, che ora non è possibile"),
    ("es", ("p = pasar", "f = dar la vuelta"), "«f» significa dar la vuelta, que ahora no es posible"),
])
def test_the_short_keys_are_explained_in_the_terminals_language(monkeypatch, lang, keys, refusal):
    from nemeton.cli import common
    monkeypatch.setattr(common, "_LANGUAGE", [lang])
    shown = prompt_text(LEGAL)
    assert all(key in shown for key in keys) and "= pass," not in shown and "= flip" not in shown
    assert choose("f", [Named("pass"), Named("fold")]).startswith(refusal)
