"""The terminal screen and the moves' words in Italian and Spanish (render.py's ``lang``,
actions.action_message): every word from the catalogue, none of the English screen's words left
(outside the players' names and the words the languages share), and English as before."""

from __future__ import annotations

import random
import re

import pytest

import nemeton
from nemeton.engine import get_game
from nemeton.engine.log import action_marked
from nemeton.games.amarok.actions import ACTION_CLASSES, action_message
from nemeton.i18n import catalogue, render

from amarok_positions import act, position

SPEC = get_game("amarok")
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
WORD = re.compile(r"[^\W\d_]+")
CONFIGS = [{"players": 3}, {"players": 4, "teams": True}, {"players": 5},
           {"players": 6, "teams": True, "partner_hand": True}]
# words an Italian or Spanish screen shares with the English one: the game's name, the card
# ids' letters (R6, B3), the "slot K" placeholder, the rulebook's "round" (Italian), "total"
# (Spanish), and the Italian/Spanish prepositions "a" and "in"
SHARED = {"Amarok", "B", "R", "K", "round", "Round", "total", "a", "in"}


def screens(games: int = 12):
    """(view, names, actions) of every step of seeded random games, for every viewer."""
    for g in range(games):
        state = nemeton.make("amarok", seed=g, **CONFIGS[g % len(CONFIGS)])
        rng = random.Random(g)
        while True:
            legal = [] if state.is_terminal() else state.legal_actions()
            for viewer in [None, *range(state.num_players)]:
                yield state.view(viewer), NAMES[:state.num_players], legal
            if state.is_terminal():
                break
            state.apply(rng.choice(legal))


@pytest.mark.parametrize("lang", ["it", "es"])
def test_the_screen_in_italian_or_spanish_has_none_of_the_english_screens_words(lang):
    checked = 0
    english_words: set[str] = set()
    for view, names, legal in screens():
        english = SPEC.render(view, names=names)
        english_words |= set(WORD.findall(english))
        text = SPEC.render(view, names=names, lang=lang)
        assert "amarok." not in text, text
        moves = [render(action_message(a), lang, seat=lambda n: names[n]) for a in legal]
        left = (set(WORD.findall(text + "\n" + "\n".join(moves))) & english_words) - SHARED - set(names)
        assert not left, (sorted(left), text, moves)
        checked += 1
    assert checked > 500


def test_english_is_unchanged_and_each_language_has_its_own_words():
    state = position(hands="R5 B7 | R3 B2 | B4 B9", turn=0)
    en = SPEC.render(state.view(0))
    assert en == SPEC.render(state.view(0), lang="en")
    assert "Objective: WOLF PACK (highest total wins)" in en
    it = SPEC.render(state.view(0), names=NAMES[:3], lang="it")
    es = SPEC.render(state.view(0), names=NAMES[:3], lang="es")
    assert "Obiettivo: BRANCO DI LUPI (vince il totale più alto)" in it
    assert "Fiume: (vuoto)" in it and "Mazzo: 16 carte" in it
    assert "Ann (tu): round vinti 0  mano posizione 0: [R5 5 rosso] (rivolta verso di te)" in it
    assert "Objetivo: MANADA DE LOBOS (gana el total más alto)" in es
    assert "Turno de Ann (tú): toma una carta" in es
    assert "Di turno: Ann (tu): prendi una carta" in it


def test_a_finished_round_and_a_claw_in_italian():
    state = position(hands="R6 - | - - | - - ", fronts="B3 | R10 | R9 R2", turn=0)
    act(state, "take own hand slot 0")  # R6: a second heart in front of seat 0
    text = SPEC.render(state.view(2), names=NAMES[:3], lang="it")
    assert text.splitlines()[0].startswith("Round 1, vincitori: Ann — Accoppiamento: Ann ha messo davanti a sé un secondo Cuore")
    clawing = position(hands="B5 B7 | R3 B2 | B4 B9", fronts=" | R7 R1 | R10", turn=0)
    act(clawing, "take own hand slot 0")  # B5: claw
    text = SPEC.render(clawing.view(0), names=NAMES[:3], lang="es").replace("\n  ", " ")
    assert "Turno de Ann (tú): elige el objetivo de la Garra" in text
    assert "tu mano es la de Ann" in text


def test_every_action_has_a_message_whose_english_is_its_text():
    seen = set()
    for _view, _names, legal in screens(8):
        for action in legal:
            message = action_message(action)
            assert render(message, "en") == action_marked(action)
            for lang in ("it", "es"):
                assert message["id"] in catalogue(lang)
                assert render(message, lang) != render(message, "en")
            seen.add(action.kind)
    assert seen == {cls.kind for cls in ACTION_CLASSES}
    assert SPEC.action_message is action_message


@pytest.mark.parametrize("lang, line", [
    ("it", "Ultima mossa: Ann: prendi la carta in posizione 1 della propria mano -> [B7 7 blu]"),
    ("es", "Última jugada: Ann: toma la carta de la posición 1 de su propia mano -> [B7 7 azul]"),
    ("en", "Last: Ann: take own hand slot 1 -> [B7 blue 7]"),
])
def test_the_last_move_from_ones_own_hand_names_the_movers_hand_not_the_readers(lang, line):
    """The move list's words are the mover's ("your hand"); the last move seen by another seat or a
    spectator names the mover's own hand (before, Italian and Spanish said "your hand")."""
    state = position(hands="R5 B7 | R3 B2 | B4 B9", turn=0)
    act(state, "take own hand slot 1")
    for viewer in (1, 2, None):
        assert line in SPEC.render(state.view(viewer), names=NAMES[:3], lang=lang).splitlines()
