"""Build Amarok positions from readable strings, for the rule tests.

    position(hands="R5 B7 | R3 - | B2 B9", fronts="R1 | | ", river="R0 B5", turn=1)

``hands`` and ``fronts`` list seats separated by ``|``; ``-`` is an empty hand slot. Cards not
named anywhere go to the deck below ``deck_top`` (top first) and above ``bottom`` (the cards a claw
put at the bottom, upper to lowest). Hand facing follows the levels unless ``facing`` is given
("oo | o. | .." per seat: ``o`` faces the owner, ``.`` faces the others); at level 1 slot 0 is
the one the owner sees. Other keyword arguments are game options (``teams=True``,
``deck=<a deck file's text>``).
"""

from __future__ import annotations

import random

from nemeton.games.amarok.components import load_deck
from nemeton.games.amarok.rules import AmarokOptions, AmarokState, assemble, options_from_json


def _seats(text: str, n: int) -> list[list[str]]:
    parts = [p.split() for p in text.split("|")] if text.strip() else []
    parts += [[] for _ in range(n - len(parts))]
    assert len(parts) == n, f"{text!r} names {len(parts)} seats, the game has {n}"
    return parts


def _facing(level: int) -> list[bool]:
    return [True, True] if level == 0 else ([True, False] if level == 1 else [False, False])


def position(players: int = 3, *, hands: str, fronts: str = "", river: str = "", deck_top: str = "",
             bottom: str = "", levels: list[int] | None = None, objective: str = "wolf_pack",
             holder: int = 0, turn: int = 0, claw: bool = False, round: int = 1,
             facing: str | None = None, seed: int = 0, **options) -> AmarokState:
    opts: AmarokOptions = options_from_json({"players": players, **options})
    ids = load_deck(opts.deck).ids
    levels = levels or [0] * players
    hand_rows = _seats(hands, players)
    hand_cards = [[None if c == "-" else c for c in row] + [None] * (2 - len(row)) for row in hand_rows]
    front_rows = _seats(fronts, players)
    named = [c for row in hand_cards for c in row if c] + [c for row in front_rows for c in row]
    named += river.split() + deck_top.split() + bottom.split()
    assert len(named) == len(set(named)), f"a card is named twice: {sorted(named)}"
    assert all(c in ids for c in named), f"unknown card in {named}"
    rest = [c for c in ids if c not in named]
    if facing is None:
        owner_sees = [_facing(levels[p]) for p in range(players)]
    else:
        owner_sees = [[ch == "o" for ch in row.strip()] for row in facing.split("|")]
    data = {
        "round": round, "levels": list(levels), "objective": objective, "objective_holder": holder,
        "turn": turn, "claw_pending": claw, "hands": hand_cards, "owner_sees": owner_sees,
        "fronts": front_rows, "river": river.split(),
        "deck": deck_top.split() + rest + bottom.split(), "known_bottom": len(bottom.split()),
        "last": None, "last_round": None,
    }
    return assemble(opts, data, random.Random(seed), seed)


def act(state: AmarokState, text: str):
    """Apply the legal action whose string is ``text`` (checked), for the current player."""
    legal = state.legal_actions()
    for a in legal:
        if str(a) == text:
            state.apply(a)
            return a
    raise AssertionError(f"{text!r} is not legal; legal: {[str(a) for a in legal]}")


def legal_texts(state: AmarokState, seat: int | None = None) -> list[str]:
    return [str(a) for a in state.legal_actions(seat)]


def fronts(state: AmarokState) -> list[list[str]]:
    return state.to_json()["fronts"]
