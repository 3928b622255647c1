"""Reading Amarok's data from outside (a saved state, the state a determinizer builds from a
view), every field checked as it is read.

The engine's readers (:mod:`nemeton.engine.checks`) check the plain fields; the readers here
check Amarok's own: a card of the game's deck, the last move, the last round's summary and the
events of the log. Each raises :class:`RecordError` naming the field and what is allowed.
:func:`.rules.assemble` uses them and then checks the fields against each other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ...engine.checks import (a_list, are_seats, event_head, fail, field, integer, integers, is_int, is_seat, keyed,
                              rows, seat, seats)
from ...engine.errors import RecordError, snippet
from ...engine.log import Event
from .actions import decode_action
from .components import MAX_VALUE, OBJECTIVE_NAMES, Deck
from .events import EVENT_KINDS

if TYPE_CHECKING:
    from .rules import AmarokState

EMPTY = -1              # an empty hand slot (rules.EMPTY)
MAX_ROUND = 1_000_000
OBJECTIVE_IDS = {name: k for k, name in enumerate(OBJECTIVE_NAMES)}
LAST_ROUND_KEYS = frozenset(("round", "reason", "mating_seat", "objective", "fronts", "totals", "trapped",
                             "winners"))


def card(value: Any, path: str, index: dict[str, int]) -> int:
    """The number of a card of the game's deck (``index``: card id -> number)."""
    number = index.get(value) if isinstance(value, str) else None
    if number is None:
        raise RecordError(f"{path}: {snippet(value)} is not a card of this game's deck")
    return number


def slot(value: Any, path: str, index: dict[str, int]) -> int:
    """A hand slot: a card of the deck, or null (empty)."""
    return EMPTY if value is None else card(value, path, index)


def last(value: Any, n: int, deck: Deck) -> tuple[int, Any, int] | None:
    """The last move (null before the first): its seat, its action and the card it moved."""
    if value is None:
        return None
    who = seat(field(value, "seat", "last"), "last.seat", n)
    action = decode_action(field(value, "action", "last"), deck, n)
    return who, action, card(field(value, "card", "last"), "last", deck.index)


def last_round(value: Any, n: int, deck: Deck) -> dict[str, Any] | None:
    """The summary of the last round played (null before the first round ends), checked."""
    if value is None:
        return None
    if not (isinstance(value, dict) and value.keys() == LAST_ROUND_KEYS):
        raise RecordError(f"last_round must be null or an object with the keys {', '.join(sorted(LAST_ROUND_KEYS))}")
    integer(value["round"], "last_round.round", 1, MAX_ROUND)
    if value["reason"] not in ("mating", "totals") or value["objective"] not in OBJECTIVE_NAMES:
        raise RecordError("last_round: reason must be mating or totals and objective a side of the card")
    if value["mating_seat"] is not None:
        seat(value["mating_seat"], "last_round.mating_seat", n)
    for row in rows(value["fronts"], "last_round.fronts", n, 0, 2):
        for cid in row:
            card(cid, "last_round.fronts", deck.index)
    integers(value["totals"], "last_round.totals", -4 * MAX_VALUE, 4 * MAX_VALUE, n)
    if not (isinstance(value["trapped"], list) and len(value["trapped"]) == n
            and all(isinstance(t, bool) for t in value["trapped"])):
        raise RecordError(f"last_round.trapped must list {n} booleans")
    seats(value["winners"], "last_round.winners", n)
    return value


# ----- the event log ---------------------------------------------------------------------------
# The fields of each kind of event, as the rules record them and the sentences read them: name ->
# what it holds. A take has one shape per source, a claw one per target; a round's end names the
# mating player and (team mode) the team totals only where the rules put them.
EVENT_SHAPES: dict[str, dict[str, str]] = {
    "deal": {"holder": "seat", "objective": "objective", "river": "cards", "deck_size": "count"},
    "hand_dealt": {"player": "seat", "facing": "facing", "slots": "slots"},
    "take/own_hand": {"source": "source", "slot": "slot", "card": "card"},
    "take/river": {"source": "source", "card": "card"},
    "take/deck": {"source": "source", "card": "card"},
    "take/hand": {"source": "source", "player": "seat", "card": "card", "chosen": "chosen"},
    "season": {"player": "seat", "objective": "objective"},
    "claw/front": {"target": "target", "player": "seat", "card": "card"},
    "claw/hand": {"target": "target", "player": "seat", "slot": "slot", "card": "card"},
    "claw/river": {"target": "target", "card": "card"},
    "claw/deck": {"target": "target", "card": "card"},
    "round_end": {"winners": "seats", "levels": "levels", "reason": "reason", "objective": "objective",
                  "fronts": "fronts", "totals": "totals", "trapped": "seats"},
    "game_end": {"winners": "seats", "levels": "levels"},
}
SECRET_SHAPES: dict[str, dict[str, str]] = {"hand_dealt": {"cards": "cards"}}


def read_event(data: Any, i: int, state: AmarokState) -> Event:
    """Event ``i`` of a saved log: a known kind, its actor (null or a seat), its round, and
    exactly the fields its kind holds (RecordError naming the field), so that every viewer's
    log can be told."""
    where = f"events[{i}]"
    kind, actor, round_, seen_by = event_head(data, where, state.n, EVENT_KINDS, (1, MAX_ROUND),
                                                "a kind of Amarok event")
    fields = data["fields"]
    if not isinstance(fields, dict):
        fail(f"{where}.fields", "an object", fields)
    variant = fields.get("source" if kind == "take" else "target") if kind in ("take", "claw") else None
    shape = dict(EVENT_SHAPES.get(f"{kind}/{variant}" if isinstance(variant, str) else kind, {}))
    if kind in ("take", "claw") and not shape:
        raise RecordError(f"{where}.fields: a {kind} event's {'source' if kind == 'take' else 'target'} "
                          f"must be one of {', '.join(k.split('/')[1] for k in EVENT_SHAPES if k.startswith(kind))}")
    if kind == "round_end":
        if state.teams:
            shape["team_totals"] = "team_totals"
        if fields.get("reason") == "mating":
            shape["player"] = "seat"
    _check_fields(fields, shape, f"{where}.fields", state)
    secret = data.get("secret")
    if secret or kind in SECRET_SHAPES:
        _check_fields(secret, SECRET_SHAPES.get(kind, {}), f"{where}.secret", state)
    return Event(kind, actor, round_, dict(fields), dict(secret) if secret else None, seen_by)


def _is_card(value: Any, state: AmarokState) -> bool:
    return isinstance(value, str) and value in state.cards.index


def _are_ints(value: Any, size: int, lo: int, hi: int) -> bool:
    return isinstance(value, list) and len(value) == size and all(is_int(x) and lo <= x <= hi for x in value)


# What each name of EVENT_SHAPES holds: a test and its description.
FIELD_KINDS: dict[str, tuple[Callable[[Any, AmarokState], bool], str]] = {
    "seat": (lambda v, st: is_seat(v, st.n), "a seat"),
    "seats": (lambda v, st: are_seats(v, st.n), "a list of distinct seats"),
    "card": (_is_card, "a card of this game's deck"),
    "cards": (lambda v, st: isinstance(v, list) and all(_is_card(c, st) for c in v),
              "a list of cards of this game's deck"),
    "fronts": (lambda v, st: isinstance(v, list) and len(v) == st.n and all(
        isinstance(row, list) and len(row) <= 2 and all(_is_card(c, st) for c in row) for row in v),
        "a list of the cards in front of each seat (at most 2)"),
    "count": (lambda v, st: is_int(v) and 0 <= v <= len(st.cards), "a number of cards"),
    "slot": (lambda v, st: type(v) is int and v in (0, 1), "a hand slot, 0 or 1"),
    "slots": (lambda v, st: isinstance(v, list) and all(type(x) is int for x in v) and v in ([0], [1], [0, 1]),
              "[0], [1] or [0, 1]"),
    "levels": (lambda v, st: _are_ints(v, st.n, 0, MAX_ROUND), "a list of each seat's round wins"),
    "totals": (lambda v, st: _are_ints(v, st.n, -4 * MAX_VALUE, 4 * MAX_VALUE), "a list of each seat's total"),
    "team_totals": (lambda v, st: _are_ints(v, st.n // 2, -4 * MAX_VALUE, 4 * MAX_VALUE),
                    "a list of each team's total"),
    "objective": (lambda v, st: v in OBJECTIVE_NAMES, "wolf_pack or lone_wolf"),
    "facing": (lambda v, st: v in ("owner", "others"), "owner or others"),
    "source": (lambda v, st: True, "a source"),
    "target": (lambda v, st: True, "a target"),
    "chosen": (lambda v, st: v in ("seen", "unseen"), "seen or unseen"),
    "reason": (lambda v, st: v in ("mating", "totals", "all_trapped"), "mating, totals or all_trapped"),
}


def _check_fields(fields: Any, shape: dict[str, str], where: str, state: AmarokState) -> None:
    keyed(fields, where, shape)
    for key, kind in shape.items():
        ok, allowed = FIELD_KINDS[kind]
        if not ok(fields[key], state):
            fail(f"{where}.{key}", allowed, fields[key])


def history(value: Any, n: int, deck: Deck) -> list[tuple[int, Any]]:
    """The moves of a saved state: (seat, action) pairs."""
    out = []
    for k, entry in enumerate(a_list(value, "history")):
        who = seat(field(entry, "seat", f"history[{k}]"), f"history[{k}].seat", n)
        out.append((who, decode_action(field(entry, "action", f"history[{k}]"), deck, n)))
    return out
