"""Edora's terminal in three languages: the screen (render.py, ``lang``) in Italian and Spanish
has none of the English words it has in English (but names, codes and the words the languages
share), and the moves as messages (``actions.action_message``) read in English exactly as
``str(action)`` and in Italian and Spanish from their own catalogues."""

from __future__ import annotations

import importlib
import random
import re

import pytest

from nemeton.engine import get_game
from nemeton.games.edora.actions import action_message
from nemeton.i18n import catalogue, render

R = importlib.import_module("nemeton.games.edora.render")
SPEC = get_game("edora")
NAMES = ["Ann", "Bob", "Cleo", "Dara"]
# words an Italian or Spanish screen shares with the English one: the game's name, the key's
# codes (KNk, SIk, MImPn), and words that are the same in the language
TITLE = {"The", "Druids", "Edora"}  # the game's title is a proper noun (docs/i18n.md)
SHARED = {"it": TITLE | {"KNk", "SIk", "MImPn", "round", "rune"},
          "es": TITLE | {"KNk", "SIk", "MImPn", "final", "total", "portal"}}
OPTIONS = [{"players": 2}, {"players": 3, "tablet_draft": True, "arranged_herbs": True},
           {"players": 4, "shared_dice": True, "revisit_sanctuaries": True}]


def words(text):
    """The words of a screen, codes in capitals (S01, VP, SUN) left out."""
    return {w for w in re.findall(r"[A-Za-zÀ-ÿ]+", text) if len(w) >= 3 and not w.isupper()}


def games(seeds=2, every=5):
    """(state, k) at every ``every``-th move and the end of seeded random games of each option set."""
    for options in OPTIONS:
        for seed in range(seeds):
            state = SPEC.make(seed=seed, **options)
            rng = random.Random(seed)
            k = 0
            while True:
                if k % every == 0 or state.is_terminal():
                    yield state
                if state.is_terminal():
                    break
                seat = state.acting()[0]
                state.apply(rng.choice(state.legal_actions(seat)), seat)
                k += 1


def ids(message):
    yield message["id"]
    for value in (message.get("args") or {}).values():
        if isinstance(value, dict) and "msg" in value:
            yield from ids(value["msg"])


@pytest.mark.parametrize("lang", ["it", "es"])
def test_the_screen_in_italian_or_spanish_has_none_of_its_english_words(lang):
    checked = 0
    for state in games():
        for seat in [None, *sorted({0, *state.acting()})]:
            view = state.view(seat)
            for full in (False, True):
                en = R.render(view, full=full, names=NAMES[:state.num_players])
                there = R.render(view, full=full, names=NAMES[:state.num_players], lang=lang)
                left = (words(en) & words(there)) - SHARED[lang] - set(NAMES)
                assert not left, (lang, seat, full, sorted(left), there)
                assert "edora." not in there  # no message missing
                checked += 1
    assert checked > 100


def test_english_is_the_default_and_the_screen_speaks_each_language():
    state = SPEC.make(seed=1, players=2)
    view = state.view(0)
    assert R.render(view) == R.render(view, lang="en")
    assert "The Druids of Edora · round 1" in R.render(view)
    assert "The Druids of Edora · round 1 · primo giocatore" in R.render(view, lang="it")
    assert "The Druids of Edora · ronda 1 · jugador inicial" in R.render(view, lang="es")
    # without names, a seat is the language's word for it (with names, the name)
    assert "primo giocatore giocatore 1 [B]" in R.render(view, lang="it")
    assert "jugador inicial jugador 1 [B]" in R.render(view, lang="es")
    assert "primo giocatore Bob [B]" in R.render(view, names=["Ann", "Bob"], lang="it")


def test_every_move_as_a_message_reads_as_its_english_text_and_is_translated():
    seen = set()
    for state in games(seeds=3, every=1):
        if state.is_terminal():
            continue
        seat = state.acting()[0]
        for action in state.legal_actions(seat):
            message = action_message(action)
            assert message is not None and message["id"].startswith("edora.action.")
            assert render(message, "en") == str(action)
            for lang in ("it", "es"):
                assert all(i in catalogue(lang) for i in ids(message)), (lang, message)
                text = render(message, lang)
                assert text != str(action) and "edora." not in text, (lang, text)
            seen.add(message["id"])
    assert len(seen) >= 18, sorted(seen)
    assert action_message(object()) is None
