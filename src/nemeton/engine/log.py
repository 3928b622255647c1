"""The event log: everything that happens in a game, told to each viewer as far as it may know.

Rules record events as they happen (``State._event``): the action a seat chose *and* every
automatic effect it caused (a competition won, a card revealed, a round's result). An event
has public fields, which every viewer receives, and may have secret fields with the set of
seats that may see them; everyone else receives the event without them. Nothing is ever
dropped from a viewer's log, so every viewer's entry ``i`` is the same event, only more or
less complete.

``State.log(viewer, since)`` turns events into JSON-ready entries::

    {"i": 12, "round": 3, "seat": 1, "kind": "take_tablet", "text": "Seat 1 takes tablet T4.",
     "parts": [{"seat": 1}, " takes tablet T4."], "tablet": "T4"}

The ``text`` is written by the game's ``event_text(entry, viewer)`` from the viewer's entry
alone, so a sentence can never say more than the fields the viewer received.

Seats in sentences are structured: a game's sentence names another seat with
:func:`seat_ref` (``who`` does it), a marker of private-use characters around the seat's
number. :func:`split_parts` turns such a sentence into ``(plain, parts)``: ``plain`` is the
English text with each marker written "seat n" (0-based, "Seat n" starting a sentence) and
``parts`` the same sentence as strings and ``{"seat": n}`` dicts, which a client joins with
the players' names (:func:`render_parts` in a terminal). Entries carry both (``text`` and
``parts``); errors (``NemetonError``) split their message the same way.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Mapping, Sequence, Union

# Keys every entry has; a game's own fields never use them.
ENTRY_KEYS = ("i", "round", "seat", "kind", "text", "parts", "msg")

#: The characters around a seat's number in a sentence (Unicode private use: never typed).
SEAT_OPEN, SEAT_CLOSE = "\ue000", "\ue001"
# A seat marker as seat_ref writes it (a number without leading zeros, at most 6 digits);
# any other use of the two characters is stray and removed.
_MARKER = re.compile("\ue000(0|[1-9][0-9]{0,5})\ue001")
_STRAY = re.compile("[\ue000\ue001]")
# Where a sentence starts: the text's start, or after ". ", "! ", "? " (or a new line).
_SENTENCE_END = re.compile(r"(^|[.!?]\s|\n)\s*$")


def seat_ref(seat: int) -> str:
    """How a sentence names ``seat`` so that a client can show the player's name: a marker
    (``"\\ue000" + str(seat) + "\\ue001"``) that :func:`split_parts` turns into ``{"seat": seat}``
    and "seat 2" in the plain text."""
    return f"{SEAT_OPEN}{int(seat)}{SEAT_CLOSE}"


def split_parts(text: str, players: int | None = None, *, capital: bool = True,
                words: tuple[str, str] = ("Seat {n}", "seat {n}")) -> tuple[str, list]:
    """``(plain, parts)`` of a sentence that may hold seat markers (:func:`seat_ref`).

    ``parts`` is a list of strings and ``{"seat": n}`` dicts (adjacent strings merged, no
    empty string); ``plain`` is the text with each marker written "seat n" ("Seat n" where a
    sentence starts). A marker whose number is not a seat (``0 <= n < players`` when
    ``players`` is given) is kept as plain text without its marker characters, and stray
    marker characters are removed, so text echoing hostile input never makes a seat up.
    ``capital=False`` writes "seat n" everywhere (errors: their messages start in lower case).
    ``words`` are the plain text's seat at a sentence's start and elsewhere (another
    language's: :func:`nemeton.i18n.render_parts`)."""
    if not isinstance(text, str):
        text = str(text)
    if SEAT_OPEN not in text and SEAT_CLOSE not in text:
        return text, ([text] if text else [])
    parts: list = []
    plain: list[str] = []

    def add(piece: str) -> None:
        if piece:
            plain.append(piece)
            if parts and isinstance(parts[-1], str):
                parts[-1] += piece
            else:
                parts.append(piece)

    pos = 0
    for m in _MARKER.finditer(text):
        add(_STRAY.sub("", text[pos:m.start()]))
        pos = m.end()
        n = int(m.group(1))
        if players is not None and not (0 <= n < players):
            add(m.group(1))
            continue
        parts.append({"seat": n})
        start = capital and _SENTENCE_END.search("".join(plain)) is not None
        plain.append((words[0] if start else words[1]).replace("{n}", str(n)))
    add(_STRAY.sub("", text[pos:]))
    return "".join(plain), parts


Names = Union[Sequence[str], Callable[[int], str], Mapping[int, str]]


def render_parts(parts: Sequence[Any], names: Names) -> str:
    """The sentence ``parts`` joined for a terminal, each ``{"seat": n}`` written as
    ``names[n]`` (``names`` a sequence, a mapping or a callable seat -> name); a seat without
    a name is written "seat n"."""
    out = []
    for part in parts:
        if isinstance(part, dict):
            seat: Any = part.get("seat")  # an int in a well-formed part; anything else is "seat ..."
            try:
                name = names(seat) if callable(names) else names[seat]
            except (IndexError, KeyError, TypeError):
                name = f"seat {seat}"
            out.append(str(name))
        else:
            out.append(str(part))
    return "".join(out)


def action_marked(action: Any) -> str:
    """An action's text with its seats as markers: ``action.marked()`` where the action has
    one (actions that name a seat), else ``str(action)`` (which stays plain for Python users)."""
    marked = getattr(action, "marked", None)
    return marked() if callable(marked) else str(action)


def render_text(text: str, names: Names | None, players: int | None = None, lang: str = "en") -> str:
    """Text with seat markers (a sentence, a whole screen) rendered for a terminal: each
    seat by its name (``render_parts``), or with ``names=None`` as "seat n" (the plain text,
    in lower case: for callers that have no names), in ``lang``'s word ("giocatore n")."""
    if names is not None:
        return render_parts(split_parts(text, players, capital=False)[1], names)
    word = "seat {n}"
    if lang != "en":
        from ..i18n import seat_word
        word = seat_word(lang)
    return split_parts(text, players, capital=False, words=(word, word))[0]


def _fresh(value: Any) -> Any:
    """A copy of a JSON-ready value sharing no list or dict with the original."""
    if isinstance(value, list):
        return [_fresh(v) for v in value]
    if isinstance(value, dict):
        return {k: _fresh(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_fresh(v) for v in value]
    return value


class Event:
    """One thing that happened. ``seen_by`` (seats) receive ``secret`` as well as ``fields``."""

    __slots__ = ("kind", "seat", "round", "fields", "secret", "seen_by", "action")

    def __init__(self, kind: str, seat: int | None, round: int, fields: dict[str, Any],
                 secret: dict[str, Any] | None = None, seen_by: frozenset[int] | tuple[int, ...] = ()):
        self.kind = kind
        self.seat = seat
        self.round = round
        self.fields = fields
        self.secret = secret
        self.seen_by = seen_by
        self.action: int | None = None  # the index in the history of the action that recorded it

    def entry(self, i: int, viewer: int | None) -> dict[str, Any]:
        """The JSON-ready entry for ``viewer`` (without its text)."""
        out: dict[str, Any] = {"i": i, "round": self.round, "seat": self.seat, "kind": self.kind}
        for key, value in self.fields.items():
            out[key] = _fresh(value) if isinstance(value, (list, dict, tuple)) else value
        if self.secret and viewer is not None and viewer in self.seen_by:
            for key, value in self.secret.items():
                out[key] = _fresh(value) if isinstance(value, (list, dict, tuple)) else value
        return out

    def to_json(self) -> dict[str, Any]:
        """The full event (secret fields included), for saving a whole state."""
        return {"kind": self.kind, "seat": self.seat, "round": self.round, "fields": _fresh(self.fields),
                "secret": _fresh(self.secret) if self.secret else None, "seen_by": sorted(self.seen_by)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], players: int | None = None) -> "Event":
        """An event as ``to_json`` wrote it; a malformed one raises RecordError (games check
        their kinds' own fields on top of this)."""
        from .errors import RecordError
        ok = (isinstance(data, Mapping) and set(data) <= {"kind", "seat", "round", "fields", "secret", "seen_by"}
              and isinstance(data.get("kind"), str) and data["kind"].isidentifier()
              and (data.get("seat") is None or _seat_ok(data.get("seat"), players))
              and type(data.get("round")) is int and data["round"] >= 0
              and isinstance(data.get("fields"), dict)
              and (data.get("secret") is None or isinstance(data["secret"], dict))
              and isinstance(data.get("seen_by", []), list)
              and all(_seat_ok(s, players) for s in data.get("seen_by", [])))
        if not ok:
            raise RecordError("an event must be {kind, seat (a seat or null), round, fields, secret, seen_by (seats)}")
        fields = set(data["fields"]) | set(data.get("secret") or {})
        if fields & set(ENTRY_KEYS):
            raise RecordError(f"an event's fields may not be named {sorted(fields & set(ENTRY_KEYS))}")
        return cls(data["kind"], data["seat"], data["round"], _fresh(data["fields"]),
                   _fresh(data["secret"]) if data.get("secret") else None, frozenset(data.get("seen_by", ())))

    def __repr__(self) -> str:
        return f"Event({self.kind!r}, seat={self.seat}, round={self.round}, {self.fields}, secret={self.secret}, seen_by={set(self.seen_by)})"


def _seat_ok(seat: Any, players: int | None) -> bool:
    return type(seat) is int and seat >= 0 and (players is None or seat < players)


def who(seat: int | None, viewer: int | None, *, capital: bool = False) -> str:
    """How a sentence names ``seat`` for ``viewer``: "you" for the viewer's own seat, "the
    game" for None, else the seat's marker (:func:`seat_ref`; a name is never capitalised,
    and the plain text capitalises "Seat n" where a sentence starts)."""
    if seat is None:
        text = "the game"
    elif seat == viewer:
        text = "you"
    else:
        return seat_ref(seat)
    return text[:1].upper() + text[1:] if capital else text


def verb(seat: int | None, viewer: int | None, singular: str, plural: str) -> str:
    """``verb(s, v, "takes", "take")``: the form that agrees with :func:`who`."""
    return plural if seat is not None and seat == viewer else singular


def sentence(text: str) -> str:
    """Capitalise the first letter and end with a full stop."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def number(value: Any) -> str:
    """A score as people write it: ``12`` rather than ``12.0``."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def default_event_text(entry: Mapping[str, Any], viewer: int | None) -> str:
    """A plain sentence for games that write none: "Seat 1: kind (field=value, ...)"."""
    extra = ", ".join(f"{k}={v}" for k, v in entry.items() if k not in ENTRY_KEYS)
    kind = entry["kind"].replace("_", " ")
    head = who(entry["seat"], viewer, capital=True) + ": " if entry["seat"] is not None else ""
    return sentence(f"{head}{kind}" + (f" ({extra})" if extra else ""))
