"""Reading Alarún's data from outside, every field checked as it is read.

States and views arrive from files and from the network. Each reader here checks one kind of
Alarún's fields (a card name, a colour, a cell, a whole magic square, an event of the log) and
returns it in the rules' form, or raises :class:`RecordError` naming the field (``hands[1][2]``)
and what is allowed. They are built on the engine's readers (:mod:`nemeton.engine.checks`: a
field of an object, an integer in a range, a seat, a list with bounds...), which this module
passes on to the loaders. A message quotes at most a short snippet of the bad value (a list is
described by its length), never a hand or the stack.

The state loader (:meth:`.rules.AlarunState.from_json`) and the view reader
(:func:`.view.read_view`) use these readers and then check the fields against each other
(hands sized for the phase, every card in exactly one place).
"""

from __future__ import annotations

from typing import Any, Callable

from ...engine import RecordError
from ...engine.checks import (a_list, are_seats, boolean, choice, distinct, event_head, fail, field, integer, is_int,
                              is_seat, keyed, per_seat, seat, shown)
from ...engine.checks import random_stream as rng
from ...engine.log import Event
from .components import CARD_IDS, COLOURS, DRUID, HAND_SIZE, INGREDIENTS, ROUNDS
from .events import EVENT_KINDS
from .square import BOX, ORIGIN, REACH, SIDE, MagicSquare, cell_index

COLOUR_IDS: dict[str, int] = {c: i for i, c in enumerate(COLOURS)}


# ----- Alarún's fields (the engine's readers: nemeton.engine.checks) ---------------------------------
def card(value: Any, name: str) -> int:
    number = CARD_IDS.get(value) if isinstance(value, str) else None
    if number is None:
        fail(name, "a card name (such as dragon_eggs:blue or centum_auri)", value)
    return number


def cards(value: Any, name: str, least: int = 0, most: int | None = None) -> list[int]:
    """A list of card names (between ``least`` and ``most`` of them) as card numbers."""
    a_list(value, name, least, most)
    get = CARD_IDS.get
    out: list[Any] = [get(c) if isinstance(c, str) else None for c in value]  # a number, or None
    if None in out:
        k = out.index(None)
        card(value[k], f"{name}[{k}]")  # raises: it names no card
    return out  # (no None left)


def colour(value: Any, name: str) -> int:
    return choice(value, name, COLOUR_IDS)


def cell(value: Any, name: str) -> int:
    """A cell ``[x, y]`` (offsets from the druid, each from -4 to 4) as a board index."""
    if not (isinstance(value, list) and len(value) == 2 and is_int(value[0]) and is_int(value[1])
            and -REACH <= value[0] <= REACH and -REACH <= value[1] <= REACH):
        fail(name, f"a cell [x, y] (offsets from the druid, each from -{REACH} to {REACH})", value)
    return cell_index(value[0], value[1])


def cells(value: Any, name: str, most: int) -> list[int]:
    """Distinct cells (at most ``most``), in their order."""
    return distinct([cell(c, f"{name}[{k}]") for k, c in enumerate(a_list(value, name, 0, most))], name, "a cell")


def square(value: Any, name: str) -> MagicSquare:
    """A magic square from its cards ``[[x, y, card], ...]``, as the rules build one (A2): one
    card per cell, none on the druid's, all within one 5x5 box around the druid, each joined
    to the druid through cards."""
    built = MagicSquare()
    get = CARD_IDS.get
    for k, item in enumerate(a_list(value, name, 0, BOX * BOX - 1)):
        if type(item) is list and len(item) == 3 and type(item[0]) is int and type(item[1]) is int:
            x, y, c = item
            number = get(c) if type(c) is str else None
            if number is None or not (-REACH <= x <= REACH and -REACH <= y <= REACH):
                number = card(c, f"{name}[{k}][2]")
                cell(item[:2], f"{name}[{k}]")
        else:
            if not (isinstance(item, list) and len(item) == 3):
                fail(f"{name}[{k}]", "a card on a cell, [x, y, card]", item)
            cell(item[:2], f"{name}[{k}]")
            x, y, number = int(item[0]), int(item[1]), card(item[2], f"{name}[{k}][2]")
        i = (y + REACH) * SIDE + x + REACH
        if built.occupied >> i & 1:
            raise RecordError(f"{name}: two cards on one cell, or a card on the druid's cell")
        built.place(number, i)
    if built.max_x - built.min_x >= BOX or built.max_y - built.min_y >= BOX:
        raise RecordError(f"{name}: the cards must fit in a {BOX}x{BOX} square around the druid")
    if not _connected(built.occupied):
        raise RecordError(f"{name}: every card must touch the druid or another card")
    return built


def square_cards(built: MagicSquare) -> list[int]:
    """The cards of a square (the druid excluded)."""
    return [c for c in built.cells if 0 <= c < DRUID]


_LEFT_EDGE = sum(1 << (r * SIDE) for r in range(SIDE))
_RIGHT_EDGE = _LEFT_EDGE << (SIDE - 1)
_BOARD = (1 << (SIDE * SIDE)) - 1


def _connected(occupied: int) -> bool:
    """Whether every cell of the mask ``occupied`` joins the druid's cell through cells of it."""
    reached = 1 << ORIGIN
    while True:
        grown = (reached | ((reached & ~_RIGHT_EDGE) << 1) | ((reached & ~_LEFT_EDGE) >> 1)
                 | (reached << SIDE) | (reached >> SIDE)) & occupied & _BOARD
        if grown == reached:
            return reached == occupied
        reached = grown


# ----- the event log ---------------------------------------------------------------------------
class Kind:
    """What a field of an event may hold: a test ``ok(value, players)`` and its description."""

    __slots__ = ("ok", "allowed")

    def __init__(self, ok: Callable[[Any, int], bool], allowed: str):
        self.ok, self.allowed = ok, allowed


_CARD_NAMES = frozenset(CARD_IDS)
_LINE_NAMES = frozenset(CARD_IDS) | {"druid"}


def _all_str(value: Any) -> bool:
    return all(type(c) is str for c in value)


SEAT = Kind(is_seat, "a seat")
SEATS = Kind(lambda v, n: are_seats(v, n) and len(v) > 0, "a list of distinct seats, at least one")
CARD = Kind(lambda v, n: type(v) is str and v in _CARD_NAMES, "a card name")
CARDS = Kind(lambda v, n: type(v) is list and _all_str(v) and _CARD_NAMES.issuperset(v), "a list of card names")
LINE_CARDS = Kind(lambda v, n: type(v) is list and len(v) == BOX and _all_str(v) and _LINE_NAMES.issuperset(v),
                  f"a list of {BOX} card names (or druid)")
COLOUR = Kind(lambda v, n: type(v) is str and v in COLOUR_IDS, "a colour (" + ", ".join(COLOURS) + ")")
OFFSET = Kind(lambda v, n: type(v) is int and -REACH <= v <= REACH, f"an offset from -{REACH} to {REACH}")
NUMBER = Kind(lambda v, n: type(v) is int or type(v) is float, "a number")
FLAG = Kind(lambda v, n: type(v) is bool, "true or false")
LINE = Kind(lambda v, n: type(v) is str and len(v) == 1 and v in "ABCDEFGHIJ", "a line of the score sheet, A to J")
POTION_BY = Kind(lambda v, n: v is None or v == "ingredient" or v == "colour", "null, ingredient or colour")
SHARED = Kind(lambda v, n: v is None or (type(v) is str and (v in INGREDIENTS or v in COLOURS)),
              "null, an ingredient or a colour")


def count(most: int) -> Kind:
    return Kind(lambda v, n: type(v) is int and 0 <= v <= most, f"an integer from 0 to {most}")


_REVEALED_KEYS = {"card": None, "x": None, "y": None}.keys()
REVEALED = Kind(lambda v, n: type(v) is list and len(v) <= HAND_SIZE and all(
    type(c) is dict and c.keys() == _REVEALED_KEYS and CARD.ok(c["card"], n) and OFFSET.ok(c["x"], n)
    and OFFSET.ok(c["y"], n) for c in v), "a list of up to 3 objects {card, x, y}")

# Every kind of event: its public fields, and its secret fields (None: it has none).
EVENT_FIELDS: dict[str, tuple[dict[str, Kind], dict[str, Kind] | None]] = {
    "round_started": ({"start_player": SEAT}, None),
    "centre_dealt": ({"cards": CARDS, "face_down": count(3)}, None),
    "hand_dealt": ({"player": SEAT, "count": count(3)}, {"cards": CARDS}),
    "colour_dealt": ({"player": SEAT}, {"colour": COLOUR}),
    "swap": ({"give": CARD, "take": CARD}, None),
    "pass": ({}, None),
    "swap_all_and_pass": ({"gave": CARDS, "took": CARDS}, None),
    "flip": ({"discarded": CARDS, "turned_up": CARDS}, None),
    "alarun_taken": ({"player": SEAT, "one_more": SEATS}, None),
    "action_cap_reached": ({"cap": count(2**62)}, None),
    "placement_started": ({"cards": count(HAND_SIZE)}, None),
    "place": ({"placed": count(HAND_SIZE)}, {"card": CARD, "x": OFFSET, "y": OFFSET}),
    "placements_revealed": ({"player": SEAT, "cards": REVEALED}, None),
    "centre_discarded": ({"cards": CARDS, "face_down": CARDS}, None),
    "centre_kept": ({"cards": CARDS}, None),
    "druid_value": ({"player": SEAT, "card": CARD}, None),
    "potion_scored": ({"player": SEAT, "line": LINE, "cards": LINE_CARDS, "strength": count(BOX),
                       "by": POTION_BY, "shared": SHARED, "points": NUMBER}, None),
    "centum_auri_scored": ({"player": SEAT, "points": NUMBER}, None),
    "colour_bonus": ({"player": SEAT, "colour": COLOUR, "cards": count(BOX * BOX), "points": NUMBER}, None),
    "final_score": ({"player": SEAT, "potions": NUMBER, "centum_auri": NUMBER, "colour_bonus": NUMBER,
                     "total": NUMBER}, None),
    "game_won": ({"winners": SEATS, "total": NUMBER, "potions": NUMBER, "tie_break": FLAG}, None),
}
assert set(EVENT_FIELDS) == set(EVENT_KINDS)
_NO_FIELDS: dict[str, Kind] = {}


def events(value: Any, players: int) -> list[Event] | None:
    """The event log as ``to_json`` wrote it (null: not recorded), each event's fields checked
    against its kind, so that every viewer's log can be told."""
    if value is None:
        return None
    return [event(e, i, players) for i, e in enumerate(a_list(value, "events"))]


def event(data: Any, i: int, players: int) -> Event:
    """Event ``i`` of a log: a known kind, the actor (null or a seat), the round, exactly the
    kind's fields (and its secret fields, with the seats that see them)."""
    path = f"events[{i}]"
    kind, actor, round_, seen_by = event_head(data, path, players, EVENT_FIELDS, (1, ROUNDS),
                                                "a kind of Alarún event (see docs/rules/alarun.md)")
    public, private = EVENT_FIELDS[kind]
    fields = _fields(data["fields"], public, f"{path}.fields", players)
    secret = data.get("secret")
    if secret or private is not None:
        secret = _fields(secret, private or _NO_FIELDS, f"{path}.secret", players)
    return Event(kind, actor, round_, fields, secret or None, seen_by)


def _fields(data: Any, kinds: dict[str, Kind], path: str, players: int) -> dict[str, Any]:
    keyed(data, path, kinds)
    for key, kind in kinds.items():
        if not kind.ok(data[key], players):
            where = f" from 0 to {players - 1}" if kind is SEAT else ""
            fail(f"{path}.{key}", kind.allowed + where, data[key])
    return dict(data)


__all__ = ["a_list", "boolean", "card", "cards", "cell", "cells", "choice", "colour", "events", "fail", "field",
           "integer", "is_int", "per_seat", "rng", "seat", "shown", "square", "square_cards"]
