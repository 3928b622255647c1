"""Amarok's forest cards: the deck format, parsing and validation (ruling K1).

A deck is data, not code, and the ``deck`` option holds it as *text* (never a path): None is
the standard deck (``data/default_deck.toml``, ruling K1); any other value is the text of a
TOML or JSON deck file in the same format, e.g. the printed deck::

    name = "My deck"            # optional
    [[cards]]
    id = "R6"                   # unique text, shown to players and used in actions
    colour = "red"              # any text
    value = 6                   # an integer
    symbol = "heart"            # optional: heart, claw, season, trap (or "none")

JSON: ``{"name": "...", "cards": [{"id": "R6", "colour": "red", "value": 6, "symbol": "heart"}]}``.

Only the command line reads a deck file (``--deck FILE``, ``nemeton.cli.common``); the
rules parse the text they are given (:func:`load_deck`, cached by content), so a record
replays anywhere without the file. Inside the rules a card is its index in the deck (an
``int``); views and actions use its ``id``.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Mapping, Sequence

from ...engine import InputError, InvalidOptionsError
from ...engine.errors import snippet

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
# Bounds on a deck file's contents: ids fit in an action, values keep totals small numbers.
MAX_CARDS = 1000
MAX_ID_CHARS = 40
MAX_NAME_CHARS = 200
MAX_VALUE = 100_000


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
                f"{self.source or 'the deck'} has {len(self)} cards; {players} players need "
                f"at least {need} (2 per player and 2 for the river)")


def deck_from_records(records: Any, name: str = "", source: str = "deck") -> Deck:
    """Validate a list of card mappings; every error names the bad card."""
    if not isinstance(records, list) or not records:
        raise DeckError(f"{source}: a deck needs a non-empty list 'cards' of card tables")
    if len(records) > MAX_CARDS:
        raise DeckError(f"{source}: a deck holds at most {MAX_CARDS} cards; this one has {len(records)}")
    cards: list[Card] = []
    seen: dict[str, int] = {}
    for pos, rec in enumerate(records, 1):
        where = f"{source}: card {pos}"
        if not isinstance(rec, Mapping):
            raise DeckError(f"{where} must be a table with keys {', '.join(_CARD_KEYS)}; got {snippet(rec)}")
        cid = rec.get("id")
        if isinstance(cid, str) and cid.strip():
            where += f" ({snippet(cid)})"
        extra = sorted(map(str, set(rec) - set(_CARD_KEYS)))
        if extra:
            raise DeckError(f"{where} has unknown key(s) {_names(extra)}; allowed: {', '.join(_CARD_KEYS)}")
        if not isinstance(cid, str) or not cid.strip() or cid != cid.strip() or len(cid) > MAX_ID_CHARS:
            raise DeckError(f"{where}: 'id' must be non-empty text of at most {MAX_ID_CHARS} characters "
                            f"without surrounding spaces; got {snippet(cid)}")
        if cid in seen:
            raise DeckError(f"{where}: id {cid!r} is already used by card {seen[cid]}; ids must be unique")
        seen[cid] = pos
        colour = rec.get("colour", "")
        if not isinstance(colour, str) or len(colour) > MAX_ID_CHARS:
            raise DeckError(f"{where}: 'colour' must be text of at most {MAX_ID_CHARS} characters; "
                            f"got {snippet(colour)}")
        value = rec.get("value")
        if isinstance(value, bool) or not isinstance(value, int):
            raise DeckError(f"{where}: 'value' must be an integer; got {snippet(value)}")
        if not -MAX_VALUE <= value <= MAX_VALUE:
            raise DeckError(f"{where}: 'value' must be from {-MAX_VALUE:,} to {MAX_VALUE:,}; got {snippet(value)}")
        symbol = rec.get("symbol", "none")
        if symbol is None:
            symbol = "none"
        if not isinstance(symbol, str) or symbol.lower() not in _SYMBOL_CODES:
            raise DeckError(f"{where}: symbol {snippet(symbol)} is unknown; allowed: heart, claw, season, trap, none")
        cards.append(Card(cid, colour, value, _SYMBOL_CODES[symbol.lower()]))
    return Deck(cards, name=name, source=source)


def parse_deck_text(text: str, source: str = "deck", fmt: str | None = None) -> Deck:
    """The deck in ``text``: JSON or TOML (``fmt`` "json"/"toml", or None to tell them apart:
    JSON is tried first). Every error is a :class:`DeckError` naming ``source`` and the bad card."""
    data = _decode(text, source, fmt)
    if not isinstance(data, Mapping):
        raise DeckError(f"{source}: a deck file must hold a table with a list 'cards'")
    extra = sorted(map(str, set(data) - {"name", "cards"}))
    if extra:
        raise DeckError(f"{source}: unknown top-level key(s) {_names(extra)}; allowed: name, cards")
    name = data.get("name", "")
    if not isinstance(name, str) or len(name) > MAX_NAME_CHARS:
        raise DeckError(f"{source}: 'name' must be text of at most {MAX_NAME_CHARS} characters; "
                        f"got {snippet(name)}")
    return deck_from_records(data.get("cards"), name=name, source=source)


def _decode(text: str, source: str, fmt: str | None) -> Any:
    if not isinstance(text, str):
        raise DeckError(f"{source}: a deck must be the text of a TOML or JSON file; got {type(text).__name__}")
    if fmt in (None, "json"):
        try:
            return json.loads(text)
        except (ValueError, RecursionError) as exc:
            json_error = exc
    if fmt in (None, "toml"):
        try:
            return tomllib.loads(text)
        except (ValueError, RecursionError) as exc:
            toml_error = exc
    if fmt is None and _looks_like_a_name(text):
        raise DeckError(f"{source}: the deck option holds the text of a deck file, not a name or a "
                        f"path (got {snippet(text)}); leave it unset for the standard deck, and on "
                        f"the command line use --deck FILE") from None
    if fmt == "json" or (fmt is None and text.lstrip()[:1] == "{"):
        raise DeckError(f"{source}: not valid JSON: {str(json_error)[:160]}") from None
    raise DeckError(f"{source}: not valid TOML: {str(toml_error)[:160]}") from None


def _looks_like_a_name(text: str) -> bool:
    """A path (``decks/printed.toml``) or the old deck name ``default`` given as the text."""
    line = text.strip()
    if not line or len(line) > 300 or "\n" in line:
        return False
    return line == "default" or line.lower().endswith((".toml", ".json")) or "/" in line or "\\" in line


def _names(items: Sequence[str]) -> str:
    shown = (i if len(i) <= 30 and i.isprintable() else snippet(i, 30) for i in items[:5])
    return ", ".join(shown) + (", ..." if len(items) > 5 else "")


@lru_cache(maxsize=1)
def standard_deck_text() -> str:
    """The text of the standard deck (ruling K1), shipped with the game."""
    return resources.files(__package__).joinpath("data/default_deck.toml").read_text("utf-8")


@lru_cache(maxsize=32)
def load_deck(text: str | None = None) -> Deck:
    """The deck of the ``deck`` option: None = the standard deck (K1), else a deck file's text.
    Parsed once per distinct text while it stays among the 32 most recently used."""
    if text is None:
        return parse_deck_text(standard_deck_text(), "the standard deck", "toml")
    return parse_deck_text(text)


WOLF_PACK, LONE_WOLF = 0, 1  # the objective card's sides: highest total / lowest total wins
OBJECTIVE_NAMES = ("wolf_pack", "lone_wolf")
