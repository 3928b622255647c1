"""Amarok's actions: taking one card (ruling K3) and choosing a claw's target (ruling K5).

Cards the actor can see are named by their id; cards the actor may not see are named by
position (own hand slot, "a card of seat k's hand I cannot see", the top of the deck). The
claw names hand cards by (seat, slot), seen or not. Every value is built once (per deck for
the actions naming a card: :class:`ActionTables`) and reused, so ``legal_actions`` allocates
nothing but its list.

Decoding (records, clients) never stores what it reads. Given the game's options,
:func:`checked` (the codec's lookup) accepts only the actions of the options' deck and seats
and returns the deck's own instance; without them (the deck is not known) it checks that the
seat, slot and card id could exist and returns the standard deck's instance or the checked
value. :func:`decode_action` (loading a state, whose deck is known) accepts only the actions of
that deck. The tables looked in are built once per deck and live as long as it does (decks are
cached by content in a bounded cache).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ...engine import Action, ActionCodec, RecordError
from ...engine.errors import snippet
from ...engine.log import seat_ref, split_parts
from ...i18n import msg, seat
from .components import MAX_ID_CHARS, Deck, load_deck


def _plain(marked: str) -> str:
    """An action's text for Python users: its seats as "seat n" (``marked()`` names them with
    :func:`~nemeton.engine.log.seat_ref`, which a client renders with the players' names)."""
    return split_parts(marked, capital=False)[0]


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

    def marked(self) -> str:
        return f"take {self.card} from {seat_ref(self.seat)}'s hand"

    def __str__(self) -> str:
        return _plain(self.marked())


@dataclass(frozen=True, slots=True)
class TakeUnseen(Action):
    """Take one of the cards of a player's hand that you cannot see, drawn at random."""
    kind: ClassVar[str] = "take_unseen"
    seat: int

    def marked(self) -> str:
        return f"take an unseen card from {seat_ref(self.seat)}'s hand"

    def __str__(self) -> str:
        return _plain(self.marked())


@dataclass(frozen=True, slots=True)
class ClawFront(Action):
    kind: ClassVar[str] = "claw_front"
    seat: int
    card: str

    def marked(self) -> str:
        return f"claw {self.card} in front of {seat_ref(self.seat)}"

    def __str__(self) -> str:
        return _plain(self.marked())


@dataclass(frozen=True, slots=True)
class ClawHand(Action):
    kind: ClassVar[str] = "claw_hand"
    seat: int
    slot: int

    def marked(self) -> str:
        return f"claw the card in {seat_ref(self.seat)}'s hand slot {self.slot}"

    def __str__(self) -> str:
        return _plain(self.marked())


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


def action_message(action: Action) -> dict:
    """An action as a message (``amarok.action.*``, seats as seat arguments, cards by their id):
    the terminal lists the moves with it in the reader's language (``str(action)`` and
    ``marked()`` stay the English text, which records and answers use)."""
    if isinstance(action, TakeOwn):
        return msg("amarok.action.take_own", slot=action.slot)
    if isinstance(action, TakeRiver):
        return msg("amarok.action.take_river", card=action.card)
    if isinstance(action, TakeDeck):
        return msg("amarok.action.take_deck")
    if isinstance(action, TakeSeen):
        return msg("amarok.action.take_seen", card=action.card, seat=seat(action.seat))
    if isinstance(action, TakeUnseen):
        return msg("amarok.action.take_unseen", seat=seat(action.seat))
    if isinstance(action, ClawFront):
        return msg("amarok.action.claw_front", card=action.card, seat=seat(action.seat))
    if isinstance(action, ClawHand):
        return msg("amarok.action.claw_hand", seat=seat(action.seat), slot=action.slot)
    if isinstance(action, ClawRiver):
        return msg("amarok.action.claw_river", card=action.card)
    if isinstance(action, ClawDeck):
        return msg("amarok.action.claw_deck")
    raise ValueError(f"not an Amarok action: {action!r}")


ACTION_CLASSES = (TakeOwn, TakeRiver, TakeDeck, TakeSeen, TakeUnseen,
                  ClawFront, ClawHand, ClawRiver, ClawDeck)
TAKE_KINDS = frozenset(c.kind for c in ACTION_CLASSES[:5])
MAX_PLAYERS = 6
SEATS = range(MAX_PLAYERS)

# The actions that name no card are the same whatever the deck: built once, here.
TAKE_OWN = tuple(TakeOwn(s) for s in (0, 1))
TAKE_DECK = TakeDeck()
TAKE_UNSEEN = tuple(TakeUnseen(p) for p in SEATS)
CLAW_HAND = tuple(tuple(ClawHand(p, s) for s in (0, 1)) for p in SEATS)
CLAW_DECK = ClawDeck()
_CARDLESS = {a: a for a in (*TAKE_OWN, TAKE_DECK, *TAKE_UNSEEN, *(a for row in CLAW_HAND for a in row), CLAW_DECK)}


class ActionTables:
    """Every action of one deck, indexed the way the rules look them up; ``by_value`` finds
    the deck's own instance of an equal action (decoding)."""

    def __init__(self, deck: Deck):
        ids = deck.ids
        self.take_own = TAKE_OWN
        self.take_river = tuple(TakeRiver(c) for c in ids)
        self.take_deck = TAKE_DECK
        self.take_seen = tuple(tuple(TakeSeen(p, c) for c in ids) for p in SEATS)
        self.take_unseen = TAKE_UNSEEN
        self.claw_front = tuple(tuple(ClawFront(p, c) for c in ids) for p in SEATS)
        self.claw_hand = CLAW_HAND
        self.claw_river = tuple(ClawRiver(c) for c in ids)
        self.claw_deck = CLAW_DECK
        by_value = dict(_CARDLESS)
        for group in (self.take_river, self.claw_river, *self.take_seen, *self.claw_front):
            by_value.update((a, a) for a in group)
        self.by_value = by_value


def tables_for(deck: Deck) -> ActionTables:
    """The deck's action tables, built on first use and kept on the deck (so they live as long
    as the deck does: decks are cached by content in a bounded cache)."""
    tables = getattr(deck, "action_tables", None)
    if tables is None:
        tables = deck.action_tables = ActionTables(deck)  # type: ignore[attr-defined]
    return tables


def checked(action: Action, options: Any = None) -> Action:
    """A decoded action (the engine has checked each field's type), looked up. Given the
    game's validated ``options``: the instance of the options' deck, its seat one of the game's
    seats, or :class:`RecordError` naming the field. Without options: the canonical instance
    when it is an action of the standard deck, else ``action`` itself once its seat, slot and
    card could exist (whether the card is in the game's deck is then checked when the action is
    applied, or by :func:`decode_action` when a state is loaded). Nothing is stored."""
    if options is not None:
        return _of_game(action, load_deck(options.deck), options.players)
    seat = getattr(action, "seat", 0)
    slot = getattr(action, "slot", 0)
    card = getattr(action, "card", "R0")
    if not 0 <= seat < MAX_PLAYERS:
        raise RecordError(f"{action.kind}: seat must be 0..{MAX_PLAYERS - 1}, got {seat!r}")
    if slot not in (0, 1):
        raise RecordError(f"{action.kind}: hand slot must be 0 or 1, got {slot!r}")
    if not card or card != card.strip() or len(card) > MAX_ID_CHARS:
        raise RecordError(f"{action.kind}: card must be a card id (text of 1..{MAX_ID_CHARS} characters "
                          f"without surrounding spaces), got {snippet(card)}")
    return tables_for(load_deck(None)).by_value.get(action, action)


def _of_game(action: Action, deck: Deck, players: int) -> Action:
    """The deck's instance of ``action`` in a game of ``players`` seats, or RecordError."""
    seat = getattr(action, "seat", 0)
    if not 0 <= seat < players:
        raise RecordError(f"{action.kind}: seat must be 0..{players - 1} (a {players}-player game), "
                          f"got {seat!r}")
    found = tables_for(deck).by_value.get(action)
    if found is None:
        slot = getattr(action, "slot", 0)
        if slot not in (0, 1):
            raise RecordError(f"{action.kind}: hand slot must be 0 or 1, got {slot!r}")
        raise RecordError(f"{action.kind}: card must be a card of the game's deck; "
                          f"the deck has no card {snippet(getattr(action, 'card', ''))}")
    return found


def decode_action(data: Any, deck: Deck, players: int = MAX_PLAYERS) -> Action:
    """The action of a game of ``players`` seats with ``deck`` that ``data`` (its JSON form)
    names, or RecordError."""
    return _of_game(ACTION_CODEC.from_json(data), deck, players)


ACTION_CODEC = ActionCodec(ACTION_CLASSES, intern=checked)
