"""Alarún's cards: 7 ingredients x 7 colours x 2 copies, plus the one Centum auri (99 cards).

A card is a small integer: ``ingredient * 7 + colour`` (0..48) for the coloured
ingredients, :data:`CENTUM_AURI` (49) for the rare card. In a magic square the druid
apprentice is :data:`DRUID` (50) and an empty cell is :data:`EMPTY` (-1). People and JSON
see the names of RULINGS.md: ``dragon_eggs:blue``, ``centum_auri``, ``druid``.
"""

from __future__ import annotations

INGREDIENTS: tuple[str, ...] = (
    "fungi_magica", "moon_berries", "calendula", "phoenix_feathers", "dragon_eggs", "mandrake", "myrrh",
)
COLOURS: tuple[str, ...] = ("blue", "green", "orange", "pink", "red", "white", "yellow")

COPIES = 2            # each coloured ingredient exists twice
CENTUM_AURI = 49      # the one very rare ingredient
DRUID = 50            # the druid apprentice in a square (wildcard at scoring)
EMPTY = -1            # an empty cell of a square
HAND_SIZE = 3
CENTRE_SIZE = 3
ROUNDS = 8

CARD_NAMES: tuple[str, ...] = tuple(
    f"{INGREDIENTS[i]}:{COLOURS[c]}" for i in range(7) for c in range(7)) + ("centum_auri",)
CARD_IDS: dict[str, int] = {name: i for i, name in enumerate(CARD_NAMES)}

# Per-card attributes for the hot paths (the Centum auri and the druid have neither).
COLOUR_OF: tuple[int, ...] = tuple(c % 7 for c in range(49)) + (-1, -1)
INGREDIENT_OF: tuple[int, ...] = tuple(c // 7 for c in range(49)) + (-1, -1)

_SHORT_INGREDIENT = ("FM", "MB", "CA", "PF", "DE", "MA", "MY")
_SHORT_COLOUR = ("b", "g", "o", "p", "r", "w", "y")


def full_deck() -> list[int]:
    """The 99 ingredient cards, in a fixed order (shuffle before use)."""
    return [c for c in range(49) for _ in range(COPIES)] + [CENTUM_AURI]


def card_name(card: int) -> str:
    if card == DRUID:
        return "druid"
    return CARD_NAMES[card]


def card_id(name: str) -> int:
    """The card called ``name`` (``druid`` included); KeyError if there is none."""
    if name == "druid":
        return DRUID
    return CARD_IDS[name]


def make_card(ingredient: int, colour: int) -> int:
    return ingredient * 7 + colour


def short_name(card: int) -> str:
    """A 4-character label for grids: ``DE-b`` (blue dragon eggs), ``CENT``, ``DRUI``."""
    if card == CENTUM_AURI:
        return "CENT"
    if card == DRUID:
        return "DRUI"
    if card == EMPTY:
        return " .. "
    return f"{_SHORT_INGREDIENT[card // 7]}-{_SHORT_COLOUR[card % 7]}"


LEGEND = ("ingredients: " + ", ".join(f"{s}={n}" for s, n in zip(_SHORT_INGREDIENT, INGREDIENTS))
          + "; colours: " + ", ".join(f"{s}={n}" for s, n in zip(_SHORT_COLOUR, COLOURS)))
