"""The Druids of Edora's table in Italian and Spanish (games/edora/web/renderer.js, its
catalogue games/edora/locale/): a whole two-player game against an AI seat, played by clicks as
a person plays it, in a browser whose language is Italian or Spanish; at the table (every few
turns) and on the end screen, none of the English the table's messages have in English is
visible (the page's text, the players' names taken out)."""

from __future__ import annotations

import re

import pytest
from conftest import close_pages, create_room, new_page, play_by_clicks, screenshot, snapshot

from nemeton.i18n import catalogue

WORDS = {"it": ["Oracolo", "Pozioni", "Amuleto"], "es": ["Oráculo", "Pociones", "Amuleto"]}


def forms(entry):
    return list(entry) if isinstance(entry, tuple) else [entry or ""]


def english_pieces(lang):
    """The English of Edora's table and components (edora.web.* and the components' messages:
    the text between placeholders that has a word of four letters or more) that ``lang``'s own
    text of the same message does not have."""
    english, theirs = catalogue("en"), catalogue(lang)
    pieces = set()
    for id_, entry in english.items():
        if not id_.startswith("edora.") or id_.startswith("edora.event."):
            continue
        other = "\n".join(forms(theirs.get(id_)))
        for form in forms(entry):
            for piece in re.split(r"\{[A-Za-z_]+\}", form):
                piece = piece.strip().strip(",:;.()· ")
                if re.search(r"[A-Za-z]{4,}", piece) and piece not in other:
                    pieces.add(piece)
    return sorted(pieces)


def context_page(browser, locale):
    return new_page(browser, locale=locale)


def english_left(page, pieces):
    """The English pieces the page shows (document.body.innerText without the players' names)."""
    text = page.evaluate("document.body.innerText")
    for seat in snapshot(page)["seats"]:
        text = text.replace(seat["name"], " ")
    return [p for p in pieces if re.search(r"(?<![A-Za-zÀ-ÿ])" + re.escape(p) + r"(?![A-Za-zÀ-ÿ])", text)], text


@pytest.mark.parametrize("locale,lang", [("it-IT", "it"), ("es-ES", "es")])
def test_a_whole_edora_game_in_italian_or_spanish_shows_no_english(server, browser, locale, lang):
    pieces = english_pieces(lang)
    assert len(pieces) > 150 and "Oracle" in pieces and "Your turn" in pieces
    room, tokens, _ = create_room(server, "edora", ["human", "heuristic"])
    page = context_page(browser, locale)
    seen = {"checks": 0, "moves": None, "words": set()}

    def check(p):
        if p.locator("#score").is_visible():
            return True
        moves = p.evaluate("window.nemeton.snapshot.moves")
        if moves == seen["moves"] or moves % 3:
            return False
        seen["moves"] = moves
        p.wait_for_selector("#board .edora")
        left, text = english_left(p, pieces)
        assert left == [], (lang, moves, left)
        seen["words"].update(w for w in WORDS[lang] if w in text)
        seen["checks"] += 1
        if seen["checks"] == 8 and lang == "es":
            screenshot(p, "edora-es")  # docs/i18n.md (NEMETON_SCREENSHOTS=1 writes it there)
        return False

    try:
        page.goto(f"{server.base}/rooms/{room}?token={tokens[0]}")
        page.wait_for_function(f"document.documentElement.lang === '{lang}' && window.nemeton && window.nemeton.snapshot")
        page.wait_for_selector("#board .edora")
        play_by_clicks(page, until=check, seed=5, timeout=120)
        assert seen["checks"] >= 10 and seen["words"] == set(WORDS[lang]), seen
        # the end screen: the score sheet in the language, nothing English
        assert snapshot(page)["terminal"]
        page.wait_for_selector("#score td[data-step='total']")
        left, text = english_left(page, pieces)
        assert left == [], (lang, "end screen", left)
        sheet = page.inner_text("#score")
        assert catalogue(lang)["edora.web.score.total"] in sheet and catalogue(lang)["edora.web.score.step"] in sheet, sheet
    finally:
        close_pages(page)
