"""Alarún's table and terminal in three languages: the terminal screen (render.py) in Italian
and Spanish keeps none of the English words it has in English (names aside), the terminal's
moves (events.action_message) in each language while str(action) stays English, and every
message id the web table (web/renderer.js) and the terminal name exists in every catalogue."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from nemeton.engine import get_game
from nemeton.games.alarun.actions import FLIP, PASS, SWAP_ALL, Place, Swap
from nemeton.games.alarun.components import COLOURS, INGREDIENTS
from nemeton.games.alarun.events import action_message
from nemeton.i18n import catalogue, render
from nemeton.i18n.tools import used_ids

from alarun_helpers import new

SPEC = get_game("alarun")
NAMES = ["Ann", "Bob", "Cleo", "Dario"]
ROOT = Path(__file__).resolve().parents[2]
RENDERER = ROOT / "src" / "nemeton" / "games" / "alarun" / "web" / "renderer.js"
WORD = re.compile(r"[A-Za-zÀ-ÿ]{2,}")
# Words a screen in Italian or Spanish shares with the English one on purpose: the players'
# names, proper nouns and Latin (Alarún, Fungi magica, Centum auri), the abbreviations of the
# grids the legend explains, and words the language writes as English does.
ALIKE = {w.casefold() for w in NAMES + ["Alarún", "Fungi", "magica", "Centum", "auri", "FM", "CA", "PF", "MA",
                                        "DRUI", "CENT", "rosa"]}
SAME_WORD = {"it": {"calendula", "round", "in", "bonus"}, "es": {"total", "de"}}


def views(players: int, seed: int):
    """Views of a random game (every seat and the spectator) at a few moments: the start, a
    placement, the action phase later on with Alarún taken, and the end."""
    st = new(players, seed=seed, action_cap=12)
    rng = random.Random(seed)
    out, moves = [], 0
    while True:
        if moves in (0, 7, 30) or st.phase == 1 and moves % 11 == 0 or st.is_terminal():
            out += [st.view(s) for s in range(players)] + [st.view(None)]
        if st.is_terminal():
            return out
        seat = rng.choice(st.acting())
        st.apply(rng.choice(st.legal_actions(seat)), seat)
        moves += 1


def words(text: str) -> set[str]:
    return {w.casefold() for w in WORD.findall(text)}


@pytest.mark.parametrize("lang", ["it", "es"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_terminal_screen_in_italian_and_spanish_has_none_of_its_english_words(lang, players):
    checked = 0
    for view in views(players, seed=players):
        english = SPEC.render(view, names=NAMES[:players])
        other = SPEC.render(view, names=NAMES[:players], lang=lang)
        assert other != english
        left = (words(english) & words(other)) - ALIKE - SAME_WORD[lang]
        assert not left, (lang, sorted(left), other)
        assert "{" not in other and "alarun." not in other, other
        checked += 1
    assert checked >= 8


def test_the_english_screen_is_unchanged_where_tests_and_docs_quote_it():
    st = new(2, seed=2)
    text = SPEC.render(st.view(0))
    assert text.splitlines()[0] == "Alarún, 2 players, round 1/8, actions (seat 0)"
    assert "seat 0 (you): potion points so far" in text
    assert "DRUI = druid, CENT = Centum auri; * = placed this round, + = open cell, . = empty" in " ".join(text.split())


def test_without_names_the_screen_names_seats_in_its_language():
    st = new(3, seed=1)
    assert "to act: seat 0" in SPEC.render(st.view(None))
    assert "di turno: giocatore 0" in SPEC.render(st.view(None), lang="it")


ACTIONS = [Swap("dragon_eggs:blue", "centum_auri"), PASS, SWAP_ALL, FLIP, Place("myrrh:red", 1, -2)]


def test_every_action_kind_has_a_message_in_each_language_and_str_stays_english():
    texts = {lang: [render(action_message(a), lang) for a in ACTIONS] for lang in ("en", "it", "es")}
    assert texts["en"] == ["swap Dragon eggs (blue) for Centum auri", "pass", "swap all and pass",
                           "flip: discard the face-up centre, turn the face-down cards up", "place Myrrh (red) at (+1,-2)"]
    assert texts["it"] == ["scambia Uova di drago (blu) con Centum auri", "passa", "scambia tutto e passa",
                           "gira: scarta le carte scoperte al centro, scopri quelle coperte", "piazza Mirra (rosso) in (+1,-2)"]
    assert texts["es"] == ["intercambiar Huevos de dragón (azul) por Centum auri", "pasar", "intercambiar todo y pasar",
                           "dar la vuelta: descartar las cartas boca arriba del centro, descubrir las que están boca abajo",
                           "colocar Mirra (rojo) en (+1,-2)"]
    assert [str(a) for a in ACTIONS] == ["swap dragon_eggs:blue <-> centum_auri", "pass", "swap all and pass",
                                         "flip: discard the face-up centre, turn the face-down cards up",
                                         "place myrrh:red at (+1,-2)"]
    assert SPEC.action_message is action_message
    assert action_message(object()) is None


def test_every_id_the_table_and_the_terminal_name_exists_in_every_language():
    used = {id for id, files in used_ids().items() if id.startswith("alarun.")
            and any("games/alarun/" in f.replace("\\", "/") for f in files)}
    web = {id for id in used if id.startswith("alarun.web.")}
    assert len(web) > 100, len(web)
    # ids the sources build at run time: the symbols' names and the terminal's abbreviations
    built = {f"alarun.web.symbol.{c}" for c in COLOURS} | {f"alarun.term.short.{k}" for k in INGREDIENTS + COLOURS}
    built |= {f"alarun.term.phase.{p}" for p in ("actions", "placement", "over")}
    source = RENDERER.read_text(encoding="utf-8")
    named = set(re.findall(r"\"(alarun\.web\.[A-Za-z0-9_.]+)\"", source))
    assert named <= web | built
    for lang in ("en", "it", "es"):
        own = catalogue(lang)
        missing = sorted(id for id in used | built if id not in own)
        assert not missing, (lang, missing)
