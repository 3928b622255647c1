"""Options refused as messages (issue 30): every way options can be wrong carries, beside its
English text (unchanged: scripts and older clients read it), a message that reads in English,
Italian and Spanish with the option named by its label in the lobby; the message survives
pickling (agents run in worker processes); `nemeton play` says it in the terminal's language."""

from __future__ import annotations

import pickle
import re

import pytest
from typer.testing import CliRunner

from nemeton.cli import app
from nemeton.engine import InvalidOptionsError, get_game
from nemeton.i18n import LANGUAGES, catalogue, render

# (game, options, the message's id, what the Italian says, English words that must not be left)
CASES = [
    ("amarok", {"players": 5, "teams": True}, "amarok.error.teams_players", "Le squadre richiedono 4 o 6 giocatori", ["Teams"]),
    ("amarok", {"players": 4, "partner_hand": True}, "amarok.error.partner_hand", "«mano del compagno»", ["partner hand"]),
    ("edora", {"players": 2, "shared_herbs": True, "arranged_herbs": True}, "edora.error.herbs_exclusive",
     "«erbe condivise» (V2) e «erbe a piacere» (V3)", ["shared herbs", "arranged herbs"]),
    ("amarok", {"players": 9}, "nemeton.error.option.range", "L'opzione «giocatori» non ammette 9; valori ammessi: da 3 a 6",
     ["players"]),
    ("amarok", {"players": 4, "rounds_to_win": "x"}, "nemeton.error.option.integer", "«round da vincere» richiede un numero intero (da 1 a 9)",
     ["rounds to win"]),
    ("amarok", {"players": 4, "rounds_to_win": 99}, "nemeton.error.option.range", "non ammette 99; valori ammessi: da 1 a 9", []),
    ("amarok", {"players": 4, "teams": "maybe"}, "nemeton.error.option.bool", "L'opzione «squadre» non ammette 'maybe'", []),
    ("amarok", {"players": 4, "bogus": 1, "other": 2}, "nemeton.error.option.unknown", "Opzioni sconosciute: bogus, other", []),
    ("amarok", {"players": 4, "bogus": 1}, "nemeton.error.option.unknown", "Opzione sconosciuta: bogus", []),
    ("edora", {"players": 2, "fire_pit_scoring": "never"}, "nemeton.error.option.choose", "scegli tra: rulebook, summary", []),
    ("alarun", {"players": 2, "action_cap": "lots"}, "nemeton.error.option.integer", "richiede un numero intero", []),
]


def refusal(game, options):
    with pytest.raises(InvalidOptionsError) as caught:
        get_game(game).options(**options)
    return caught.value


@pytest.mark.parametrize("game,options,id_,italian,english", CASES)
def test_each_refusal_is_a_message_in_three_languages_naming_the_option_by_its_label(game, options, id_, italian, english):
    exc = refusal(game, options)
    assert exc.msg["id"] == id_
    message = exc.msg  # the option named by its label (GameSpec.options)
    texts = {lang: render(message, lang) for lang in LANGUAGES}
    for lang, text in texts.items():
        assert "{" not in text and "nemeton." not in text and f"{game}." not in text, (lang, text)
        assert re.match(r"[A-ZÀ-Ý]", text), (lang, text)  # a sentence, as the lobby shows it
    assert italian in texts["it"], texts["it"]
    for word in english:
        assert word.lower() not in texts["it"].lower() and word.lower() not in texts["es"].lower(), texts
    assert len(set(texts.values())) == 3
    # and the message crosses processes
    assert pickle.loads(pickle.dumps(exc)).msg == exc.msg


def test_a_player_count_outside_the_games_counts_names_them():
    from nemeton.engine.options import build_options
    from nemeton.games.alarun.options import AlarunOptions
    with pytest.raises(InvalidOptionsError) as caught:
        build_options(AlarunOptions, {"players": 4}, (2, 3))
    assert render(caught.value.msg, "es") == "Este juego no es para 4 jugadores; valores permitidos: de 2 a 3."
    with pytest.raises(InvalidOptionsError) as caught:
        build_options(AlarunOptions, {"players": 3}, (2, 4))
    assert render(caught.value.msg, "en") == "This game is not for 3 players; allowed: 2, 4."


def test_every_option_of_every_game_has_a_label_for_its_errors():
    for game in ("alarun", "amarok", "edora"):
        for o in get_game(game).describe_options():
            for lang in LANGUAGES:
                assert f"{game}.option.{o.name}.label" in catalogue(lang) or o.name == "players", (game, o.name, lang)


@pytest.mark.parametrize("lang,words", [("it", "Le squadre richiedono 4 o 6 giocatori"),
                                        ("es", "Los equipos requieren 4 o 6 jugadores"),
                                        ("en", "teams=true needs 4 or 6 players")])
def test_nemeton_play_says_a_refusal_in_the_terminals_language(lang, words):
    result = CliRunner().invoke(app, ["--lang", lang, "play", "amarok", "-p", "5", "-o", "teams=true"])
    assert result.exit_code == 2
    assert words in result.output, result.output
