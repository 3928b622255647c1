"""Reading JSON from outside, one field at a time: the engine's one checker.

Records, states, views, actions and options arrive from files and from the network, so every
field a decoder reads is checked as it is read. Each reader here checks one kind of field (a
field of an object, an integer in a range, true or false, a name among names, a list with
bounds, one entry per seat, a seat, distinct names) and returns it, or raises
:class:`~nemeton.engine.errors.RecordError` naming the field by its path (``boards[1].reserve[2]``)
and saying what is allowed::

    boards[1].reserve[2] must be an integer from 1 to 6; got 7

A message quotes at most a short snippet of the bad value and describes a list or an object by
its size (:func:`shown`), so it never quotes a hand, a deck or a random stream.

A path names the field from the top of the data: a key after a dot, an index in brackets.
Readers take the value first, then its path, then what bounds it. A game builds its own readers
(a card of its deck, a cell of its board) on these, in its ``checks.py``. The readers are plain
functions with no state: a decoder calls them once per field of the data it reads, never per
step of a search (a sampler checks its view once).
"""

from __future__ import annotations

import random
from typing import AbstractSet, Any, Collection, Mapping, NoReturn

from .errors import RecordError, snippet


# ----- messages -------------------------------------------------------------------------------
def fail(path: str, allowed: str, value: Any) -> NoReturn:
    """Raise the RecordError ``<path> must be <allowed>; got <value>``."""
    raise RecordError(f"{path} must be {allowed}; got {shown(value)}")


def refuse(path: str, problem: str) -> NoReturn:
    """Raise the RecordError ``<path>: <problem>``, for a field that disagrees with others
    (``stack: a decision must be on top``)."""
    raise RecordError(f"{path}: {problem}")


def shown(value: Any) -> str:
    """A bad value as a message may quote it: scalars in short, containers by their size."""
    if isinstance(value, list):
        return f"a list of {len(value)} item{'' if len(value) == 1 else 's'}"
    if isinstance(value, dict):
        return f"an object with {len(value)} key{'' if len(value) == 1 else 's'}"
    return snippet(value, 40)


def one_of(names: Collection[str]) -> str:
    """``one of a, b, c`` for a message: in the order given (a set is sorted), and at most 12
    names (a longer collection is shown by its first names)."""
    ordered = sorted(names) if isinstance(names, (set, frozenset)) else list(names)
    if len(ordered) > 12:
        return f"one of {len(ordered)} names ({', '.join(map(str, ordered[:6]))}, ...)"
    return "one of " + ", ".join(map(str, ordered))


def join(where: str, key: str) -> str:
    """The path of ``key`` inside the object at ``where`` (a trailing dot is allowed)."""
    where = where.rstrip(".")
    return f"{where}.{key}" if where else key


# ----- tests without a message ------------------------------------------------------------------
def is_int(value: Any) -> bool:
    """An integer, and not a boolean (JSON's true is not 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: Any) -> bool:
    """An integer or a float, and not a boolean."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def is_seat(value: Any, players: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < players


def are_seats(value: Any, players: int) -> bool:
    """A list of distinct seats."""
    return (isinstance(value, list) and all(is_seat(s, players) for s in value)
            and len(set(value)) == len(value))


# ----- one field ------------------------------------------------------------------------------------
def field(data: Any, key: str, where: str = "") -> Any:
    """``data[key]``, where ``data`` is the object at path ``where`` ("" at the top);
    RecordError when ``data`` is not an object or has no ``key``."""
    if not isinstance(data, dict):
        fail(where.rstrip(".") or "the data", "an object", data)
    try:
        return data[key]
    except KeyError:
        raise RecordError(f"{join(where, key)} is missing") from None


def integer(value: Any, path: str, lo: int, hi: int) -> int:
    """An integer from ``lo`` to ``hi``."""
    if not (isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi):
        fail(path, f"an integer from {lo} to {hi}", value)
    return value


def seat(value: Any, path: str, players: int) -> int:
    """A seat of a game of ``players``: an integer from 0 to players-1."""
    return integer(value, path, 0, players - 1)


def seat_or_none(value: Any, path: str, players: int) -> int | None:
    """Null (no seat) or a seat."""
    if value is not None and not is_seat(value, players):
        fail(path, f"null or a seat from 0 to {players - 1}", value)
    return value


def boolean(value: Any, path: str) -> bool:
    """True or false (not 0 or 1)."""
    if not isinstance(value, bool):
        fail(path, "true or false", value)
    return value


def choice(value: Any, path: str, index: Mapping[str, int]) -> int:
    """The number of the name ``value`` among ``index`` (name -> number)."""
    number = index.get(value) if isinstance(value, str) else None
    if number is None:
        fail(path, one_of(index), value)
    return number


def name(value: Any, path: str, allowed: Collection[str], none: bool = False) -> Any:
    """``value``, one of the names ``allowed`` (or null, when ``none``)."""
    if value is None and none:
        return None
    if not (isinstance(value, str) and value in allowed):
        fail(path, ("null or " if none else "") + one_of(allowed), value)
    return value


# ----- lists and objects ------------------------------------------------------------------------------
def a_list(value: Any, path: str, least: int = 0, most: int | None = None) -> list:
    """A list of ``least`` to ``most`` items (``most`` None: no bound)."""
    if not isinstance(value, list) or len(value) < least or (most is not None and len(value) > most):
        if most is None:
            size = f"at least {least} items" if least else "items"
        else:
            size = f"{least} items" if least == most else f"{least} to {most} items"
        fail(path, f"a list of {size}", value)
    return value


def per_seat(value: Any, path: str, players: int) -> list:
    """A list with one entry per seat."""
    if not isinstance(value, list) or len(value) != players:
        fail(path, f"a list with one entry per seat ({players})", value)
    return value


def integers(value: Any, path: str, lo: int, hi: int, size: int | None = None) -> list[int]:
    """A list (of exactly ``size`` items, when given) of integers from ``lo`` to ``hi``."""
    if not (isinstance(value, list) and (size is None or len(value) == size)
            and all(isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi for v in value)):
        count = "" if size is None else f"{size} "
        raise RecordError(f"{path} must list {count}integers from {lo} to {hi}; got {shown(value)}")
    return value


def rows(value: Any, path: str, players: int, least: int, most: int) -> list[list]:
    """One list per seat, each of ``least`` to ``most`` items."""
    if not (isinstance(value, list) and len(value) == players
            and all(isinstance(r, list) and least <= len(r) <= most for r in value)):
        size = f"{most}" if least == most else f"{least} to {most}"
        raise RecordError(f"{path} must hold {players} lists (one per seat) of {size} items; got {shown(value)}")
    return value


def booleans(value: Any, path: str, size: int | None = None) -> list[bool]:
    """A list (of exactly ``size`` items, when given) of true or false."""
    if not (isinstance(value, list) and (size is None or len(value) == size)
            and all(isinstance(v, bool) for v in value)):
        count = "" if size is None else f"{size} "
        raise RecordError(f"{path} must list {count}booleans; got {shown(value)}")
    return value


def distinct(values: list, path: str, what: str = "an item") -> list:
    """``values`` (hashable), unless one is listed twice."""
    if len(set(values)) != len(values):
        refuse(path, f"lists {what} twice")
    return values


def names(value: Any, path: str, allowed: Collection[str], least: int = 0, most: int | None = None,
          unique: bool = False) -> list[str]:
    """A list (of ``least`` to ``most`` items) of names among ``allowed``, each once when
    ``unique``."""
    out = [name(v, f"{path}[{k}]", allowed) for k, v in enumerate(a_list(value, path, least, most))]
    return distinct(out, path, "a name") if unique else out


def seats(value: Any, path: str, players: int, least: int = 0) -> list[int]:
    """A list of at least ``least`` distinct seats."""
    if not (are_seats(value, players) and len(value) >= least):
        fail(path, f"a list of distinct seats from 0 to {players - 1}"
             + (f", at least {least}" if least else ""), value)
    return value


def keyed(value: Any, path: str, keys: Mapping[str, Any] | AbstractSet[str], what: str | None = None) -> dict[str, Any]:
    """An object with exactly the keys ``keys`` (a set, or a mapping's keys); ``what`` says
    what it gives, for the message."""
    if not (isinstance(value, dict) and value.keys() == (keys.keys() if isinstance(keys, dict) else keys)):
        fail(path, what or "an object with the keys " + (", ".join(keys) or "(none)"), value)
    return value


def random_stream(value: Any, path: str = "rng") -> random.Random:
    """A random stream as :func:`~nemeton.engine.state.rng_to_json` wrote it."""
    from .state import rng_from_json  # (here: the state module imports the action codec, which imports this one)
    try:
        return rng_from_json(value)
    except RecordError as exc:
        raise RecordError(f"{path}: {exc}") from None



# ----- the entries of a saved event log -----------------------------------------------------------
EVENT_KEYS = ("fields", "kind", "round", "secret", "seat", "seen_by")
_EVENT_KEY_SET = frozenset(EVENT_KEYS)


def event_head(data: Any, path: str, players: int, kinds: Collection[str], rounds: tuple[int, int],
               kind_allowed: str) -> tuple[str, int | None, int, frozenset[int]]:
    """What every event of a saved log holds (:meth:`~nemeton.engine.log.Event.to_json`): an
    object with no other keys, a kind among ``kinds`` (``kind_allowed`` says which, for the
    message), its actor (null or a seat), its round (from ``rounds[0]`` to ``rounds[1]``) and the
    distinct seats that see its secret. Returns (kind, actor, round, seen_by); the game checks
    the kind's fields and secret fields."""
    # a saved log holds thousands of events: the usual case is tested at once, exact types only
    if type(data) is dict and _EVENT_KEY_SET.issuperset(data) and "fields" in data and "seat" in data:
        kind, actor, round_, seen_by = data.get("kind"), data["seat"], data.get("round"), data.get("seen_by")
        if (type(kind) is str and kind in kinds and (actor is None or type(actor) is int and 0 <= actor < players)
                and type(round_) is int and rounds[0] <= round_ <= rounds[1]
                and (not seen_by or are_seats(seen_by, players))):
            return kind, actor, round_, frozenset(seen_by) if seen_by else _NOBODY
    if not (isinstance(data, dict) and _EVENT_KEY_SET.issuperset(data)):
        fail(path, "an event, an object with the keys " + ", ".join(EVENT_KEYS), data)
    kind = field(data, "kind", path)
    if not (isinstance(kind, str) and kind in kinds):
        fail(f"{path}.kind", kind_allowed, kind)
    actor = seat_or_none(field(data, "seat", path), f"{path}.seat", players)
    round_ = integer(field(data, "round", path), f"{path}.round", *rounds)
    field(data, "fields", path)
    seen_by = seats(data.get("seen_by") or [], f"{path}.seen_by", players)
    return kind, actor, round_, frozenset(seen_by)


_NOBODY: frozenset[int] = frozenset()


__all__ = ["EVENT_KEYS", "a_list", "are_seats", "boolean", "booleans", "choice", "distinct", "event_head",
           "fail", "field", "integer", "integers", "is_int", "is_number", "is_seat", "join", "keyed", "name",
           "names", "one_of", "per_seat", "random_stream", "refuse", "rows", "seat", "seat_or_none", "seats",
           "shown"]
