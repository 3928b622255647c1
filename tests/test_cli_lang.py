"""The terminal in three languages (issue 30): ``nemeton --lang`` and ``LANG`` choose it; a
whole game played in Italian and in Spanish shows the prompts, the log and the end in that
language; a language we lack is refused with the list; English stays as it was."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from nemeton.cli import app
from nemeton.engine import get_game

runner = CliRunner()
SEED = 4242


def play(*head, env=None, game="amarok", players=3):
    spec = get_game(game)
    options = [f"--option={k}={v}" for k, v in spec.bot_defaults.items()]
    return runner.invoke(app, [*head, "play", game, "--players", str(players), "--seed", str(SEED), *options],
                         input="1\n" * 3000, env=env)


@pytest.mark.parametrize("head, env, words", [
    (["--lang", "it"], None, ("Tocca a te.", "Azioni possibili:", "La tua scelta", "Partita finita",
                              f"Seme: {SEED}", "punteggio", "Sei il giocatore 1")),
    ([], {"LANG": "es_ES.UTF-8"}, ("Te toca.", "Acciones posibles:", "Tu elección", "Fin de la partida",
                                   f"Semilla: {SEED}", "puntuación", "Eres el jugador 1")),
])
def test_a_whole_game_in_italian_or_spanish(head, env, words):
    result = play(*head, env=env)
    assert result.exit_code == 0, result.output[-2000:]
    for word in words:
        assert word in result.output, word
    for english in ("Your move", "Legal actions", "Game over", "Your choice", "Seed:"):
        assert english not in result.output
    # the log in the language: the seat's events rendered from the catalogue
    state = get_game("amarok").make(players=3, seed=SEED, **get_game("amarok").bot_defaults)
    lang = "it" if head else "es"
    first = state.log(0, lang=lang)[0]["text"]
    assert first and first != state.log(0)[0]["text"]


def test_english_is_the_default_and_a_language_we_lack_is_refused():
    result = play(env={"LANG": "C.UTF-8", "LANGUAGE": "", "LC_ALL": "", "NEMETON_LANG": ""})
    assert result.exit_code == 0 and "Your move." in result.output and "Game over" in result.output
    refused = runner.invoke(app, ["--lang", "fr", "games"])
    assert refused.exit_code == 2 and "--lang must be one of en, it, es; got 'fr'" in refused.output


def test_a_language_chosen_once_does_not_stay_for_the_next_command():
    assert "Tocca a te." in play("--lang", "it").output
    assert "Your move." in play(env={"LANG": "en_GB.UTF-8"}).output


@pytest.mark.parametrize("lang, line", [
    ("it", "Opzioni: squadre: no, mazzo: standard (sha256:"),
    ("es", "Opciones: equipos: no, mazo: estándar (sha256:"),
    ("en", "Options: teams: false, deck: standard (sha256:"),
])
def test_the_opening_line_names_the_options_by_their_labels(lang, line):
    result = runner.invoke(app, ["--lang", lang, "play", "amarok", "--players", "3", "--seed", "1"], input="q\n")
    assert line in result.output, result.output[:400]


def test_the_players_commands_take_lang_after_the_command_too():
    """``nemeton play GAME --lang it`` as well as ``nemeton --lang it play GAME``: the same deal in
    the same words; the command's --lang wins over LANG; a language we lack is refused."""
    before = play("--lang", "it")
    spec = get_game("amarok")
    options = [f"--option={k}={v}" for k, v in spec.bot_defaults.items()]
    after = runner.invoke(app, ["play", "amarok", "--players", "3", "--seed", str(SEED), *options, "--lang", "it"],
                          input="1\n" * 3000, env={"LANG": "es_ES.UTF-8"})
    assert after.exit_code == 0 and "Tocca a te." in after.output and "Te toca." not in after.output
    first = before.output.index("La tua scelta")  # the same deal, up to the first prompt (the bots then differ)
    assert after.output[:first] == before.output[:first]
    refused = runner.invoke(app, ["play", "amarok", "--players", "3", "--lang", "fr"])
    assert refused.exit_code == 2 and "--lang must be one of en, it, es; got 'fr'" in refused.output
