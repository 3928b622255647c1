"""Amarok's forest cards: the deck file format, loading and validation (ruling K1).

A deck is package data, not code. The default deck (``data/default_deck.toml``) is ruling K1;
``deck=<path>`` loads any other TOML or JSON file in the same format, e.g. the printed deck::

    name = "My deck"            # optional
    [[cards]]
    id = "R6"                   # unique text, shown to players and used in actions
    colour = "red"              # any text
    value = 6                   # an integer
    symbol = "heart"            # optional: heart, claw, season, trap (or "none")

JSON: ``{"name": "...", "cards": [{"id": "R6", "colour": "red", "value": 6, "symbol": "heart"}]}``.

Inside the rules a card is its index in the deck (an ``int``); views and actions use its ``id``.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Mapping, Sequence

from ...engine import InputError, InvalidOptionsError

# Symbol codes used in the hot path (ints, not strings).
PLAIN, HEART, CLAW, SEASON, TRAP = 0, 1, 2, 3, 4
SYMBOL_NAMES = {PLAIN: None, HEART: "heart", CLAW: "claw", SEASON: "season", TRAP: "trap"}
# Names accepted in deck files (the rulebook's words too) -> code.
_SYMBOL_CODES = {
    "none": PLAIN, "plain": PLAIN, "": PLAIN,
    "heart": HEART, "mating": HEART,
    "claw": CLAW,
    "season": SEASON, "change_of_season": SEASON,
    "trap": TRAP, "wolf_trap": TRAP,
}
_CARD_KEYS = ("id", "colour", "value", "symbol")


class DeckError(InputError, InvalidOptionsError):
    """A deck file that cannot be used (the message names the file and the bad card)."""


@dataclass(frozen=True)
class Card:
    id: str
    colour: str
    value: int
    symbol: int  # PLAIN, HEART, CLAW, SEASON or TRAP

    @property
    def symbol_name(self) -> str | None:
        return SYMBOL_NAMES[self.symbol]

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "colour": self.colour, "value": self.value, "symbol": self.symbol_name}


class Deck:
    """A validated list of cards, with per-card tables for the rules' hot path."""

    def __init__(self, cards: Sequence[Card], name: str = "", source: str = ""):
        self.cards = tuple(cards)
        self.name = name
        self.source = source
        self.ids = tuple(c.id for c in self.cards)
        self.values = tuple(c.value for c in self.cards)
        self.symbols = tuple(c.symbol for c in self.cards)
        self.index = {c.id: i for i, c in enumerate(self.cards)}
        self.cards_json = [c.to_json() for c in self.cards]  # the public list, as views show it

    def __len__(self) -> int:
        return len(self.cards)

    @staticmethod
    def min_size(players: int) -> int:
        """2 cards dealt to each player and 2 to the river; with at least 2 cards per player
        outside the fronts a card can always be taken (ruling K9)."""
        return 2 * players + 2

    def check_size(self, players: int) -> None:
        need = self.min_size(players)
        if len(self) < need:
            raise DeckError(
                f"the deck {self.source or self.name!r} has {len(self)} cards; {players} players need "
                f"at least {need} (2 per player and 2 for the river)")


def deck_from_records(records: Any, name: str = "", source: str = "deck") -> Deck:
    """Validate a list of card mappings; every error names the bad card."""
    if not isinstance(records, list) or not records:
        raise DeckError(f"{source}: a deck needs a non-empty list 'cards' of card tables")
    cards: list[Card] = []
    seen: dict[str, int] = {}
    for pos, rec in enumerate(records, 1):
        where = f"{source}: card {pos}"
        if not isinstance(rec, Mapping):
            raise DeckError(f"{where} must be a table with keys {', '.join(_CARD_KEYS)}; got {rec!r}")
        cid = rec.get("id")
        if isinstance(cid, str) and cid.strip():
            where += f" ({cid!r})"
        extra = sorted(set(rec) - set(_CARD_KEYS))
        if extra:
            raise DeckError(f"{where} has unknown key(s) {', '.join(extra)}; allowed: {', '.join(_CARD_KEYS)}")
        if not isinstance(cid, str) or not cid.strip() or cid != cid.strip():
            raise DeckError(f"{where}: 'id' must be non-empty text without surrounding spaces; got {cid!r}")
        if cid in seen:
            raise DeckError(f"{where}: id {cid!r} is already used by card {seen[cid]}; ids must be unique")
        seen[cid] = pos
        colour = rec.get("colour", "")
        if not isinstance(colour, str):
            raise DeckError(f"{where}: 'colour' must be text; got {colour!r}")
        value = rec.get("value")
        if isinstance(value, bool) or not isinstance(value, int):
            raise DeckError(f"{where}: 'value' must be an integer; got {value!r}")
        symbol = rec.get("symbol", "none")
        if symbol is None:
            symbol = "none"
        if not isinstance(symbol, str) or symbol.lower() not in _SYMBOL_CODES:
            raise DeckError(f"{where}: symbol {symbol!r} is unknown; allowed: heart, claw, season, trap, none")
        cards.append(Card(cid, colour, value, _SYMBOL_CODES[symbol.lower()]))
    return Deck(cards, name=name, source=source)


def parse_deck_text(text: str, fmt: str, source: str) -> Deck:
    try:
        data = json.loads(text) if fmt == "json" else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        raise DeckError(f"{source}: not valid {fmt.upper()}: {exc}") from None
    if not isinstance(data, Mapping):
        raise DeckError(f"{source}: a deck file must hold a table with a list 'cards'")
    extra = sorted(set(data) - {"name", "cards"})
    if extra:
        raise DeckError(f"{source}: unknown top-level key(s) {', '.join(extra)}; allowed: name, cards")
    name = data.get("name", "")
    if not isinstance(name, str):
        raise DeckError(f"{source}: 'name' must be text; got {name!r}")
    return deck_from_records(data.get("cards"), name=name, source=source)


@lru_cache(maxsize=32)
def load_deck(deck: str = "default") -> Deck:
    """The deck named by the ``deck`` option: ``"default"`` or a path to a .toml/.json file."""
    if deck == "default":
        text = resources.files(__package__).joinpath("data/default_deck.toml").read_text("utf-8")
        return parse_deck_text(text, "toml", "default")
    path = Path(deck).expanduser()
    suffix = path.suffix.lower()
    if suffix not in (".toml", ".json"):
        raise DeckError(f"deck={deck!r}: use 'default' or a path to a .toml or .json deck file")
    try:
        text = path.read_text("utf-8")
    except OSError as exc:
        raise DeckError(f"deck={deck!r}: cannot read the file ({exc.strerror or exc})") from None
    return parse_deck_text(text, suffix[1:], str(deck))
