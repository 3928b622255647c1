"""Messages and catalogues (nemeton.i18n, issue 30): rendering every argument kind in the
three languages, plural forms from the catalogue, locale numbers and lists, the language a
browser or a terminal asks for, and the catalogues themselves: every language has every id
English has, with the same placeholders, and the compiled files are current."""

from __future__ import annotations

import pytest

import nemeton.i18n as i18n
from nemeton.engine import get_game, list_games
from nemeton.engine.log import SEAT_CLOSE, SEAT_OPEN
from nemeton.i18n import (LANGUAGES, arg, format_list, format_number, format_percent, from_environment, msg,
                          negotiate, normalize, render, render_parts, seat)
from nemeton.i18n.tools import problems, used_ids

FAKE = {
    "en": {"t.move": "{who} moves {n} steps to {place}.", "t.place": "the {colour} well",
           "t.colour.red": "red", "t.cards": ("{count} card", "{count} cards"), "t.took": "{seat} takes {cards}.",
           "t.all": "Winners: {names}."},
    "it": {"t.move": "{who} avanza di {n} passi fino a {place}.", "t.place": "il pozzo {colour}",
           "t.colour.red": "rosso", "t.cards": ("{count} carta", "{count} carte"), "t.took": "{seat} prende {cards}."},
    "es": {"t.move": "{who} avanza {n} pasos hasta {place}.", "t.place": "el pozo {colour}",
           "t.colour.red": "rojo", "t.cards": ("{count} carta", "{count} cartas"), "t.took": "{seat} toma {cards}.",
           "t.all": "Ganadores: {names}.", "nemeton.seat": "jugador {n}"},
}


@pytest.fixture
def fake(monkeypatch):
    monkeypatch.setattr(i18n, "catalogue", lambda lang: FAKE[lang])


def test_every_argument_kind_renders_in_each_language(fake):
    move = msg("t.move", who="Ana", n=1234, place=msg("t.place", colour=msg("t.colour.red")))
    assert move == {"id": "t.move", "args": {"who": "Ana", "n": 1234, "place": {"msg": {
        "id": "t.place", "args": {"colour": {"msg": {"id": "t.colour.red"}}}}}}}
    assert render(move, "en") == "Ana moves 1,234 steps to the red well."
    # CLDR (and browsers): Italian and Spanish group thousands from five digits up
    assert render(move, "it") == "Ana avanza di 1234 passi fino a il pozzo rosso."
    assert render(move, "es") == "Ana avanza 1234 pasos hasta el pozo rojo."
    assert render(msg("t.move", who="Ana", n=12345, place="X"), "it") == "Ana avanza di 12.345 passi fino a X."
    # a list, joined as each language joins one
    names = msg("t.all", names=["Ana", "Bruno", "Carla"])
    assert render(names, "en") == "Winners: Ana, Bruno and Carla."
    assert render(names, "es") == "Ganadores: Ana, Bruno y Carla."
    assert render(names, "it") == "Winners: Ana, Bruno e Carla."  # Italian lacks the id: English, Italian list


def test_plural_forms_come_from_the_catalogue_chosen_by_count(fake):
    for n, en, it, es in ((1, "1 card", "1 carta", "1 carta"), (0, "0 cards", "0 carte", "0 cartas"),
                          (3, "3 cards", "3 carte", "3 cartas")):
        took = msg("t.took", seat=seat(2), cards=msg("t.cards", count=n))
        assert render(took, "en", seat=lambda s: f"P{s}") == f"P2 takes {en}."
        assert render(took, "it", seat=lambda s: f"P{s}") == f"P2 prende {it}."
        assert render(took, "es", seat=lambda s: f"P{s}") == f"P2 toma {es}."


def test_seats_become_parts_and_the_plain_text_names_them_in_the_language(fake):
    took = msg("t.took", seat=seat(1), cards=msg("t.cards", count=2))
    text, parts = render_parts(took, "en", players=3)
    assert parts == [{"seat": 1}, " takes 2 cards."] and text == "Seat 1 takes 2 cards."


def test_the_plain_seat_word_is_the_languages():
    text, parts = render_parts({"id": "nemeton.seat", "args": {"n": 4}}, "it")
    assert text == "giocatore 4" and parts == ["giocatore 4"]
    unknown = {"id": "no.such.id", "args": {"who": {"seat": 1}}}
    assert render_parts(unknown, "es")[0] == "no.such.id (who=jugador 1)"
    assert render_parts(unknown, "en") == ("no.such.id (who=seat 1)", ["no.such.id (who=", {"seat": 1}, ")"])


def test_an_unknown_id_shows_itself_and_its_arguments_never_an_error():
    assert render({"id": "x.unknown", "args": {"a": 1, "b": {"seat": 0}}}, "it", seat=lambda s: f"P{s}") \
        == "x.unknown (a=1, b=P0)"
    assert render({"id": "x.unknown"}, "zz") == "x.unknown"


def test_arguments_are_checked_when_a_message_is_built():
    assert arg((1, "a", {"seat": 2})) == {"list": [1, "a", {"seat": 2}]}
    for bad in (True, None, {"colour": "red"}, object()):
        with pytest.raises(TypeError):
            arg(bad)


def test_numbers_percentages_and_lists_follow_the_locale():
    assert format_number(12.0) == "12" and format_number(2.5, "it") == "2,5" and format_number(12345, "es") == "12.345"
    assert format_number(1234.5, "it") == "1234,5" and format_number(1234.5, "en") == "1,234.5"
    assert format_percent(0.685, "en", 1) == "68.5%" and format_percent(0.685, "it", 1) == "68,5%"
    assert format_list(["a", "b"], "it") == "a e b" and format_list([], "es") == ""


@pytest.mark.parametrize("header, lang", [
    ("it-IT,it;q=0.9,en;q=0.8", "it"), ("fr-CH, es;q=0.5, en;q=0.4", "es"), ("de, fr", "en"),
    ("en-GB", "en"), ("", "en"), (None, "en"), ("es-419", "es"), ("it;q=0, es;q=0.1", "es"),
])
def test_a_browser_gets_the_first_language_it_accepts_that_we_have(header, lang):
    assert negotiate(header) == lang


@pytest.mark.parametrize("environ, lang", [
    ({"LANG": "it_IT.UTF-8"}, "it"), ({"LANG": "C.UTF-8"}, "en"), ({}, "en"),
    ({"LANGUAGE": "fr:es", "LANG": "fr_FR.UTF-8"}, "es"), ({"LC_ALL": "es_ES", "LANG": "it_IT"}, "es"),
    ({"NEMETON_LANG": "it", "LANG": "es_ES"}, "it"), ({"LC_ALL": "C", "LANG": "it_IT"}, "en"),
])
def test_the_terminal_follows_the_environment(environ, lang):
    assert from_environment(environ) == lang


def test_normalize():
    assert [normalize(x) for x in ("it-IT", "ES", "en_GB.UTF-8", "fr", "", None)] == ["it", "es", "en", None, None, None]


def test_the_catalogues_are_complete_consistent_and_compiled():
    # every id English has is translated in Italian and Spanish with the same placeholders
    # (a missing one fails here), none is fuzzy, and the .mo and web JSON files are current
    assert problems() == []


def test_every_id_the_code_names_is_in_the_english_catalogue():
    english = i18n.catalogue("en")
    missing = {k: v for k, v in used_ids().items() if k not in english}
    assert not missing


def test_every_game_has_its_catalogue_in_the_three_languages():
    for spec in list_games():
        assert spec.locale_dir, spec.name
        for lang in LANGUAGES:
            assert (get_game(spec.name).locale_dir and
                    __import__("pathlib").Path(spec.locale_dir, lang, "LC_MESSAGES", f"{spec.name}.mo").is_file())


def test_seat_markers_never_leak_into_rendered_text(fake):
    text = render(msg("t.took", seat=seat(0), cards=msg("t.cards", count=1)), "es")
    assert SEAT_OPEN in text and SEAT_CLOSE in text  # markers for split_parts...
    plain, _parts = render_parts(msg("t.took", seat=seat(0), cards=msg("t.cards", count=1)), "es", 2)
    assert SEAT_OPEN not in plain and plain == "Jugador 0 toma 1 carta."  # ...never in the text
