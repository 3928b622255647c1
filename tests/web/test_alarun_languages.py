"""Alarún's table in Italian and Spanish in a real browser: a whole game against the AI,
played by clicks as a person plays it, in a browser whose language is Italian or Spanish;
at the table (both phases) and on the end screen no English word of the table's is left on
the page: its text, and the table's labels and titles (the players' names aside)."""

from __future__ import annotations

import re

import pytest
from conftest import close_pages, create_room, new_page, play_by_clicks, snapshot

# English the table draws (games/alarun/web/renderer.js: alarun.web.* in English): words and
# phrases no Italian or Spanish page may show. Words a language writes alike are left out.
TABLE_ENGLISH = [
    "Your turn", "Your hand", "your hand", "secret colour", "Secret colour", "The centre", "centre", "stack", "Discard pile",
    "Empty", "Key to the cards", "square", "potions so far", "points", "winner", "Swap", "Pass", "Flip", "Place",
    "Choose", "Give", "Take", "Waiting for", "placed", "passed", "swapped", "flipped", "druid", "face down",
    "face-down", "selected", "colour bonus", "player", "row", "column", "potion", "in the square", "above", "below",
    "left of", "right of", "ingredients", "different colours", "neighbours", "appointed", "wins", "share the win",
    "cards", "to act", "placing", "taken", "hidden", "Moon berries", "Dragon eggs", "Phoenix feathers", "Mandrake",
    "Myrrh", "blue", "green", "orange", "pink", "red", "white", "yellow", "drop", "leaf", "flame", "heart", "diamond",
    "star", "sun", "action phase", "placement", "lies on the stack", "total", "Round",
]
ALIKE = {"it": {"Round"}, "es": {"total"}}
# Words each language's table and end screen do show (the check reads the right page).
OWN = {"it": {"table": "Legenda delle carte", "end": "bonus colore"},
       "es": {"table": "Leyenda de las cartas", "end": "bonificación de color"}}
# What a person reads on the page: its text, and the table's and score screen's labels and titles.
READ_PAGE = """() => {
  const labels = [...document.querySelectorAll('#board [aria-label], #board [title], #actionbar [aria-label],'
    + ' #actionbar [title], #score [aria-label], #score [title]')]
    .map((e) => `${e.getAttribute('aria-label') || ''} ${e.getAttribute('title') || ''}`);
  return [document.body.innerText, ...labels].join('\\n');
}"""


def context_page(browser, locale):
    return new_page(browser, height=900, locale=locale)


def english_left(page, lang):
    text = page.evaluate(READ_PAGE)
    for seat in snapshot(page)["seats"]:
        text = text.replace(seat["name"], " ")
    return [w for w in TABLE_ENGLISH if w not in ALIKE[lang]
            and re.search(r"(?<![A-Za-zÀ-ÿ])" + re.escape(w) + r"(?![A-Za-zÀ-ÿ])", text)], text


@pytest.mark.parametrize("locale,lang", [("it-IT", "it"), ("es-ES", "es")])
def test_a_whole_game_in_italian_or_spanish_leaves_no_english_on_the_table_or_the_end_screen(server, browser, locale, lang):
    room, tokens, _ = create_room(server, "alarun", ["human", "heuristic"])
    page = context_page(browser, locale)
    try:
        page.goto(f"{server.base}/rooms/{room}?token={tokens[0]}")
        page.wait_for_function(f"document.documentElement.lang === '{lang}' && window.nemeton && window.nemeton.snapshot")
        page.wait_for_selector("#board .legal")
        seen = {"actions": 0, "placement": 0, "selected": 0, "calls": 0}

        def check_now(p):
            if p.locator("#score").is_visible():
                return True
            seen["calls"] += 1
            if seen["calls"] % 6 or not p.locator("#board .legal").count():
                return False
            phase = snapshot(p)["view"]["phase"]
            left, text = english_left(p, lang)
            assert left == [], (lang, phase, left, text)
            assert OWN[lang]["table"] in text
            seen[phase] = seen.get(phase, 0) + 1
            seen["selected"] += p.locator("#board .selected").count() > 0
            return False

        play_by_clicks(page, until=check_now, seed=5, timeout=150)
        assert seen["actions"] >= 2 and seen["placement"] >= 2 and seen["selected"] >= 1, seen
        page.wait_for_selector("#score .al-sheet")
        left, text = english_left(page, lang)
        assert left == [], (lang, "end", left, text)
        assert OWN[lang]["end"] in text
        assert page.locator("#score .al-lines tbody tr").count() >= 20
        assert not page.errors, page.errors[:3]
    finally:
        close_pages(page)
