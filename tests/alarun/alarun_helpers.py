"""Helpers for the Alarún tests: cards, lines and squares from readable text, scripted play."""

from __future__ import annotations

from nemeton.engine import make
from nemeton.games.alarun.components import (CENTUM_AURI, COLOURS, DRUID, EMPTY, INGREDIENTS, card_id,
                                        make_card)

_SHORT_I = {"FM": "fungi_magica", "MB": "moon_berries", "CA": "calendula", "PF": "phoenix_feathers",
            "DE": "dragon_eggs", "MA": "mandrake", "MY": "myrrh"}
_SHORT_C = {c[0]: c for c in COLOURS}


def card(text: str) -> int:
    """'DE-b' (blue dragon eggs), 'dragon_eggs:blue', 'CENT', 'DRUI' or '..' (empty)."""
    if text in ("CENT", "centum_auri"):
        return CENTUM_AURI
    if text in ("DRUI", "druid"):
        return DRUID
    if text == "..":
        return EMPTY
    if "-" in text:
        i, c = text.split("-")
        return make_card(INGREDIENTS.index(_SHORT_I[i]), COLOURS.index(_SHORT_C[c]))
    return card_id(text)


def cards(text: str) -> list[int]:
    return [card(t) for t in text.split()]


def grid(text: str) -> list[int]:
    """A 5x5 square from 5 lines of 5 cards."""
    cells = cards(text)
    assert len(cells) == 25, len(cells)
    return cells


def new(players: int, seed: int = 0, **options):
    return make("alarun", players=players, seed=seed, **options)


def act(state, text: str, seat: int | None = None):
    """Apply the legal action whose text is ``text`` (checked)."""
    if seat is None:
        seat = state.current_player
    legal = state.legal_actions(seat)
    matches = [a for a in legal if str(a) == text]
    assert matches, f"{text!r} is not legal for seat {seat}; legal: {[str(a) for a in legal]}"
    state.apply(matches[0], seat)
    return matches[0]


def place_all(state):
    """Finish the placement phase: every seat puts its cards on its first open cells."""
    while state.phase == 1:
        seat = state.current_player
        state.apply(state.legal_actions(seat)[0], seat)


def pass_round(state):
    """Everyone passes (the first pass, then each other player's one more action)."""
    while state.phase == 0:
        act(state, "pass")
