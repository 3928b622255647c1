"""Amarok's actions: taking one card (ruling K3) and choosing a claw's target (ruling K5).

Cards the actor can see are named by their id; cards the actor may not see are named by
position (own hand slot, "a card of seat k's hand I cannot see", the top of the deck). The
claw names hand cards by (seat, slot), seen or not. Every value is built once per deck
(:class:`ActionTables`) and reused, so ``legal_actions`` allocates nothing but its list.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...engine import Action, ActionCodec, RecordError
from .cards import Deck


@dataclass(frozen=True, slots=True)
class TakeOwn(Action):
    """Take the card in slot 0 or 1 of your own hand (even one you cannot see)."""
    kind: ClassVar[str] = "take_own"
    slot: int

    def __str__(self) -> str:
        return f"take own hand slot {self.slot}"


@dataclass(frozen=True, slots=True)
class TakeRiver(Action):
    kind: ClassVar[str] = "take_river"
    card: str

    def __str__(self) -> str:
        return f"take {self.card} from the river"


@dataclass(frozen=True, slots=True)
class TakeDeck(Action):
    kind: ClassVar[str] = "take_deck"

    def __str__(self) -> str:
        return "take the top card of the deck"


@dataclass(frozen=True, slots=True)
class TakeSeen(Action):
    """Take a specific card you can see in another player's hand."""
    kind: ClassVar[str] = "take_seen"
    seat: int
    card: str

    def __str__(self) -> str:
        return f"take {self.card} from seat {self.seat}'s hand"


@dataclass(frozen=True, slots=True)
class TakeUnseen(Action):
    """Take one of the cards of a player's hand that you cannot see, drawn at random."""
    kind: ClassVar[str] = "take_unseen"
    seat: int

    def __str__(self) -> str:
        return f"take an unseen card from seat {self.seat}'s hand"


@dataclass(frozen=True, slots=True)
class ClawFront(Action):
    kind: ClassVar[str] = "claw_front"
    seat: int
    card: str

    def __str__(self) -> str:
        return f"claw {self.card} in front of seat {self.seat}"


@dataclass(frozen=True, slots=True)
class ClawHand(Action):
    kind: ClassVar[str] = "claw_hand"
    seat: int
    slot: int

    def __str__(self) -> str:
        return f"claw the card in seat {self.seat}'s hand slot {self.slot}"


@dataclass(frozen=True, slots=True)
class ClawRiver(Action):
    kind: ClassVar[str] = "claw_river"
    card: str

    def __str__(self) -> str:
        return f"claw {self.card} in the river"


@dataclass(frozen=True, slots=True)
class ClawDeck(Action):
    kind: ClassVar[str] = "claw_deck"

    def __str__(self) -> str:
        return "claw the top card of the deck"


ACTION_CLASSES = (TakeOwn, TakeRiver, TakeDeck, TakeSeen, TakeUnseen,
                  ClawFront, ClawHand, ClawRiver, ClawDeck)
TAKE_KINDS = frozenset(c.kind for c in ACTION_CLASSES[:5])
MAX_PLAYERS = 6

# One canonical instance per value, whatever the deck (the codec returns these).
_CANON: dict[Action, Action] = {}


def _canon(action: Action) -> Action:
    return _CANON.setdefault(action, action)


class ActionTables:
    """Every action of one deck, indexed the way the rules look them up."""

    def __init__(self, deck: Deck):
        ids, seats = deck.ids, range(MAX_PLAYERS)
        self.take_own = tuple(_canon(TakeOwn(s)) for s in (0, 1))
        self.take_river = tuple(_canon(TakeRiver(c)) for c in ids)
        self.take_deck = _canon(TakeDeck())
        self.take_seen = tuple(tuple(_canon(TakeSeen(p, c)) for c in ids) for p in seats)
        self.take_unseen = tuple(_canon(TakeUnseen(p)) for p in seats)
        self.claw_front = tuple(tuple(_canon(ClawFront(p, c)) for c in ids) for p in seats)
        self.claw_hand = tuple(tuple(_canon(ClawHand(p, s)) for s in (0, 1)) for p in seats)
        self.claw_river = tuple(_canon(ClawRiver(c)) for c in ids)
        self.claw_deck = _canon(ClawDeck())


def tables_for(deck: Deck) -> ActionTables:
    """The deck's action tables, built on first use and kept on the deck."""
    tables = getattr(deck, "action_tables", None)
    if tables is None:
        tables = deck.action_tables = ActionTables(deck)  # type: ignore[attr-defined]
    return tables


def _read(action: Action) -> Action:
    """The canonical instance of an action read from JSON, after checking that its seat,
    slot and card fields could exist at all (legality is checked when it is applied)."""
    seat = getattr(action, "seat", 0)
    slot = getattr(action, "slot", 0)
    card = getattr(action, "card", "")
    if not (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < MAX_PLAYERS):
        raise RecordError(f"{action.kind}: seat must be 0..{MAX_PLAYERS - 1}, got {seat!r}")
    if not (isinstance(slot, int) and not isinstance(slot, bool) and slot in (0, 1)):
        raise RecordError(f"{action.kind}: hand slot must be 0 or 1, got {slot!r}")
    if not isinstance(card, str):
        raise RecordError(f"{action.kind}: card must be a card id, got {card!r}")
    return _CANON.get(action, action)


ACTION_CODEC = ActionCodec(ACTION_CLASSES, intern=_read)
