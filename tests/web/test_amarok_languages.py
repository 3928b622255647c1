"""Amarok's table in Italian and Spanish in a real browser: a whole game against AI seats,
played by clicks on the cards, in a browser whose language is Italian or Spanish; at the table
(every few moves) and on the end screen, none of the English the table draws in English
(games/amarok/web/renderer.js: the ids amarok.web.* and the card terms) is visible on the page
(document.body.innerText, players' names taken out), nor in the table's labels and tooltips."""

from __future__ import annotations

import re

import pytest
from conftest import close_pages, create_room, new_page, play_by_clicks, screenshot, snapshot

from nemeton.i18n import catalogue

PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")


def english_phrases(lang: str) -> list[str]:
    """The words of the table's English messages (amarok.web.*, amarok.symbol.*, amarok.colour.*):
    each message's text between its placeholders, without the punctuation around it, where it
    holds a word; a phrase the language's Amarok catalogue also writes ("Round", "total") is left
    out."""
    english, own = catalogue("en"), catalogue(lang)
    theirs = "\n".join(v if isinstance(v, str) else "\n".join(v)
                       for k, v in own.items() if k.startswith("amarok."))
    phrases = set()
    for key, value in english.items():
        if not key.startswith(("amarok.web.", "amarok.symbol.", "amarok.colour.")):
            continue
        for text in ([value] if isinstance(value, str) else value):
            for piece in PLACEHOLDER.split(text):
                piece = piece.strip(" .,:;()—·&/-⚠♥★")
                if re.search(r"[A-Za-z]{3}", piece) and not re.search(rf"(?<![^\W\d_]){re.escape(piece)}(?![^\W\d_])", theirs):
                    phrases.add(piece)
    return sorted(phrases)


def english_left(text: str, phrases: list[str]) -> list[str]:
    return [p for p in phrases if re.search(rf"(?<![^\W\d_]){re.escape(p)}(?![^\W\d_])", text)]


READ_PAGE = """(names) => {
  const strip = (s) => names.reduce((acc, n) => acc.split(n).join(" "), s || "");
  const labels = [...document.querySelectorAll("#board [aria-label], #board [title], #score [aria-label], #score [title]")]
    .flatMap((e) => [e.getAttribute("aria-label"), e.getAttribute("title")]).filter(Boolean);
  return { body: strip(document.body.innerText), labels: strip(labels.join("\\n")),
           table: document.querySelectorAll("#board .amarok").length, lang: document.documentElement.lang };
}"""


def context_page(browser, locale):
    return new_page(browser, locale=locale)


def test_the_phrases_are_the_tables_english():
    it = english_phrases("it")
    assert {"Take", "your place", "Wolf pack", "new", "heart",
            "Round by round: the cards in front, totals, traps and round wins after the round"} <= set(it)
    assert "Round" not in it and "total" not in english_phrases("es")


@pytest.mark.parametrize("locale,lang", [("it-IT", "it"), ("es-ES", "es")])
def test_a_whole_game_in_italian_or_spanish_shows_no_english_at_the_table_or_the_end(server, browser, locale, lang):
    phrases = english_phrases(lang)
    room, tokens, _ = create_room(server, "amarok", ["human", "heuristic", "random"])
    page = context_page(browser, locale)
    try:
        page.goto(f"{server.base}/rooms/{room}?token={tokens[0]}")
        page.wait_for_function(f"document.documentElement.lang === '{lang}' && window.nemeton && "
                               "window.nemeton.snapshot && document.querySelector('#board .amarok')")
        names = [s["name"] for s in snapshot(page)["seats"]]
        seen = {"tables": 0, "claws": 0, "banners": 0}

        def check(p):
            if p.locator("#score").is_visible():
                return True
            shown = p.evaluate(READ_PAGE, names)
            if not shown["table"]:
                return False
            assert shown["lang"] == lang
            assert english_left(shown["body"], phrases) == [], (lang, shown["body"])
            assert english_left(shown["labels"], phrases) == [], (lang, shown["labels"])
            seen["tables"] += 1
            if seen["tables"] == 4 and lang == "it":
                screenshot(p, "amarok-it")  # docs/i18n.md (NEMETON_SCREENSHOTS=1 writes it there)
            view = snapshot(p)["view"]
            seen["claws"] += view["phase"] == "claw"
            seen["banners"] += bool(view.get("last_round"))
            return False

        play_by_clicks(page, until=check, seed=11, timeout=90)
        assert seen["tables"] >= 3
        page.wait_for_selector("#score .amk-levels")
        shown = page.evaluate(READ_PAGE, names)
        assert english_left(shown["body"], phrases) == [], (lang, shown["body"])
        assert english_left(shown["labels"], phrases) == [], (lang, shown["labels"])
        words = catalogue(lang)
        assert words["amarok.web.sheet.round_wins"] in shown["body"]
        assert words["amarok.web.sheet.winners"] in shown["body"]
    finally:
        close_pages(page)
