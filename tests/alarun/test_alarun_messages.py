"""Alarún's event messages in the three languages: every kind and variant of event, told to
every seat and to the spectator, renders in English, Italian and Spanish from each language's
own catalogue (no missing id, no English fallback, no placeholder left over), with the seats
as parts; and a few sentences as a native player reads them."""

from __future__ import annotations

import json
import random
import re
from functools import lru_cache
from pathlib import Path

import pytest

from nemeton.games.alarun.events import EVENT_KINDS, event_message
from nemeton.i18n import catalogue, render, render_parts
from nemeton.i18n.tools import entries, read

from alarun_helpers import new

LANGS = ("en", "it", "es")
LOCALE = Path(__file__).resolve().parents[2] / "src" / "nemeton" / "games" / "alarun" / "locale"
PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")
# Terms written alike in a language and in English on purpose: Latin names (Fungi magica,
# Centum auri) and Calendula, the same word in Italian.
# The terminal's abbreviations of Latin names and shared letters (FM, CA, DRUI, CENT...) and
# Spanish "total" are alike too.
_SHORT_ALIKE = {f"alarun.term.short.{k}" for k in ("fungi_magica", "calendula", "phoenix_feathers", "mandrake",
                                                    "druid", "centum_auri")}
SAME_AS_ENGLISH = {
    "it": {"alarun.ingredient.fungi_magica", "alarun.ingredients.fungi_magica", "alarun.card.centum_auri",
           "alarun.ingredient.calendula", "alarun.companion.centum_auri", "alarun.companion.column"} | _SHORT_ALIKE,
    "es": {"alarun.ingredient.fungi_magica", "alarun.ingredients.fungi_magica", "alarun.card.centum_auri",
           "alarun.web.sheet.total", "alarun.companion.centum_auri", "alarun.companion.total"} | _SHORT_ALIKE,
}
#: Ids beside the log's: the table's and the terminal's words (tests/alarun/test_alarun_table_i18n.py), the lobby's.
TABLE_PREFIXES = ("alarun.web.", "alarun.term.", "alarun.action.", "alarun.summary", "alarun.option.",
                  "alarun.companion.")  # the score sheet: tests/alarun/test_alarun_companion.py


def english_ids() -> set[str]:
    return set(entries(read(LOCALE, "alarun", "en")))


def play(players: int, seed: int, **options):
    st = new(players, seed=seed, **options)
    rng = random.Random(seed)
    while not st.is_terminal():
        seat = rng.choice(st.acting())
        st.apply(rng.choice(st.legal_actions(seat)), seat)
    return st


def nested(message):
    """The message and every message nested in it."""
    yield message
    for value in (message.get("args") or {}).values():
        yield from _in_arg(value)


def _in_arg(value):
    if isinstance(value, dict):
        if "msg" in value:
            yield from nested(value["msg"])
        elif "list" in value:
            for item in value["list"]:
                yield from _in_arg(item)


def seats_of(message) -> set[int]:
    out = set()
    for m in nested(message):
        for value in (m.get("args") or {}).values():
            items = value["list"] if isinstance(value, dict) and "list" in value else [value]
            out |= {v["seat"] for v in items if isinstance(v, dict) and "seat" in v}
    return out


def tweaked(entries_of_a_game):
    """Entries no random game reaches, built from real ones: a shared victory (with and
    without the reader among the winners), a victory on the tie-break, an empty line and no
    Centum auri, a line without a potion, one ingredient of the secret colour, the druid
    apprentice named as a card."""
    out = []
    for e in entries_of_a_game:
        if e["kind"] == "game_won":
            out += [dict(e, winners=[0, 1], tie_break=False), dict(e, winners=[1, 0], tie_break=False),
                    dict(e, winners=[0], tie_break=True), dict(e, winners=[1], tie_break=True)]
        elif e["kind"] == "potion_scored":
            out += [dict(e, strength=0, by=None, shared=None, points=0),
                    dict(e, strength=1, by=None, shared=None, points=1)]
        elif e["kind"] == "centum_auri_scored":
            out += [dict(e, points=0), dict(e, points=10)]
        elif e["kind"] == "colour_bonus":
            out += [dict(e, cards=1, points=2), dict(e, cards=0, points=0)]
        elif e["kind"] == "druid_value":  # the druid itself, as views name it (the rules never log it)
            out.append(dict(e, card="druid"))
    return out


@lru_cache(maxsize=1)
def every_message() -> dict[str, tuple[dict, int]]:
    """Each distinct message the games tell (as JSON), with its player count: from the logs of
    seeded random games over every player count, with and without the action cap, for each
    seat and the spectator; and each entry with every field (as its owner sees it) told to
    every viewer, so that the variants for "you" and for another seat both occur."""
    found: dict[str, tuple[dict, int]] = {}
    for players in (2, 3, 4):
        for cap in (None, 1, 3):
            for seed in range(2):
                st = play(players, seed, action_cap=cap)
                full = []  # each entry with the most fields any seat receives
                for viewer in [*range(players), None]:
                    for k, e in enumerate(st.log(viewer)):
                        assert e["msg"] == event_message(e, viewer)
                        found.setdefault(json.dumps(e["msg"], sort_keys=True), (e["msg"], players))
                        if viewer == 0:
                            full.append(e)
                        elif viewer is not None and len(e) > len(full[k]):
                            full[k] = e
                bare = st.log(None)  # and each entry as the spectator has it, told to every seat
                for e in full + bare + tweaked(full):
                    for viewer in [*range(players), None]:
                        m = event_message(e, viewer)
                        found.setdefault(json.dumps(m, sort_keys=True), (m, players))
    return found


def test_every_event_kind_and_every_catalogue_id_is_told():
    messages = [m for m, _ in every_message().values()]
    kinds = {m["id"].split(".")[2] for m in messages}
    assert kinds == set(EVENT_KINDS)
    used = {n["id"] for m in messages for n in nested(m)}
    log_ids = {id for id in english_ids() if not id.startswith(TABLE_PREFIXES)}
    assert used == log_ids  # every id is reached, and none is missing from English


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_renders_from_the_languages_own_catalogue(lang):
    own = catalogue(lang)
    for message, players in every_message().values():
        for m in nested(message):
            assert m["id"] in own, (lang, m["id"])
        text, parts = render_parts(message, lang, players)
        assert not PLACEHOLDER.search(text), (lang, text)
        assert "\ue000" not in text and "\ue001" not in text
        assert text[:1].isupper() and text[-1] == ".", (lang, text)
        # the seats are parts (names in a client), as many as the message names
        assert {p["seat"] for p in parts if isinstance(p, dict)} == seats_of(message), (lang, parts)


@pytest.mark.parametrize("lang", LANGS[1:])
def test_italian_and_spanish_never_fall_back_on_english(lang):
    words = re.compile(r"[A-Za-z]{2,}")
    for id in english_ids():
        english = render({"id": id}, "en")
        if words.search(PLACEHOLDER.sub("", english)) and id not in SAME_AS_ENGLISH[lang]:
            assert render({"id": id}, lang) != english, (lang, id)
    for message, players in every_message().values():
        if message["id"].startswith("alarun.event."):
            assert render_parts(message, lang, players)[0] != render_parts(message, "en", players)[0]


def text_of(st, viewer, lang, kind, **fields):
    [entry] = [e for e in st.log(viewer, lang=lang) if e["kind"] == kind
               and all(e.get(k) == v for k, v in fields.items())][:1]
    return entry["text"]


def test_a_few_sentences_in_italian_and_spanish():
    st = new(3, seed=1)
    st.apply(next(a for a in st.legal_actions(0) if str(a) == "pass"), 0)
    assert text_of(st, 1, "it", "pass") == "Giocatore 0 passa."
    assert text_of(st, 0, "it", "pass") == "Passi."
    assert text_of(st, 0, "es", "pass") == "Pasas."
    assert text_of(st, 2, "it", "alarun_taken") == ("Giocatore 0 ha passato prima di tutti e prende Alarún; giocatore 1 "
                                                    "e tu avete ancora un'azione a testa, poi si piazzano le carte del round.")
    assert text_of(st, 2, "es", "alarun_taken").endswith("tenéis una acción más cada uno, y después se colocan "
                                                         "las cartas de la ronda.")
    assert text_of(st, 0, "es", "round_started") == "Empieza la ronda 1 de 8: sales tú."

    swap = {"kind": "swap", "seat": 1, "give": "mandrake:red", "take": "druid"}
    assert render_parts(event_message(swap, 1), "it")[0] == ("Scambi: metti Mandragora (rosso) al centro e prendi "
                                                             "l'apprendista druido.")
    assert render_parts(event_message(swap, 0), "es")[0] == ("Jugador 1 intercambia: deja Mandrágora (rojo) en el "
                                                             "centro y toma el aprendiz de druida.")
    line = {"kind": "potion_scored", "player": 0, "line": "H", "cards": [], "strength": 5, "by": "colour",
            "shared": "pink", "points": 15}
    assert render_parts(event_message(line, 0), "it")[0] == ("Nella tua colonna H (3ª da sinistra): una pozione di 5 "
                                                             "ingredienti diversi di colore rosa, 15 punti.")
    line = dict(line, line="B", by="ingredient", shared="dragon_eggs")
    assert render_parts(event_message(line, 0), "es")[0] == ("En tu fila B (2.ª desde arriba): una poción de 5 "
                                                             "huevos de dragón de colores distintos, 15 puntos.")
    bonus = {"kind": "colour_bonus", "player": 0, "colour": "red", "cards": 1, "points": 2}
    assert render_parts(event_message(bonus, 0), "it")[0] == ("Il tuo colore segreto è rosso: 1 ingrediente di colore "
                                                              "rosso nel quadrato, bonus colore 2 punti.")
    won = {"kind": "game_won", "winners": [1, 0], "total": 90, "potions": 80, "tie_break": False}
    assert render_parts(event_message(won, 1), "es")[0] == ("Tú y jugador 0 compartís la victoria con 90 puntos cada "
                                                            "uno (también empatáis en puntos de poción: 80).")
    assert render_parts(event_message(won, None), "it")[0] == ("Giocatore 1 e giocatore 0 si dividono la vittoria con "
                                                               "90 punti a testa (pari anche nei punti pozione, 80).")


def test_the_log_is_told_in_the_language_asked_with_the_same_message():
    st = play(2, 5)
    english, italian = st.log(0), st.log(0, lang="it")
    assert [e["msg"] for e in english] == [e["msg"] for e in italian]
    assert all(a["text"] != b["text"] for a, b in zip(english, italian))
    assert [p for e in english for p in e["parts"] if isinstance(p, dict)] == \
        [p for e in italian for p in e["parts"] if isinstance(p, dict)]
