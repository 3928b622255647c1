"""Actions: small immutable values with a readable string and a stable JSON form.

A game declares each kind of action as a frozen, slotted dataclass deriving from
:class:`Action`, with fields annotated ``str``, ``int``, ``bool``, ``X | None`` or tuples of
those. ``to_json`` is ``{"type": <kind>, **fields}``; an :class:`ActionCodec` built from
the game's action classes reads it back. Games intern their actions (build each value
once, reuse it), so legal-action lists allocate nothing on the hot path.

Decoding is strict, because action JSON comes from records and clients that may be
malformed or hostile: every field is checked against its annotation (text of bounded length,
integers that are not booleans and lie within :data:`MAX_FIELD_INT`, lists of the right
element type for tuples, ``null`` only where the annotation allows ``None``; no floats, no
nested junk) before the game's ``intern`` looks the action up among its own actions. The
engine keeps no table of decoded actions, and a game's ``intern`` must not grow one either:
it returns the canonical instance or raises :class:`RecordError`.

Some games' actions depend on their options (Edora's board names its sanctuaries, Amarok's
deck its cards). ``from_json(data, options)`` hands the game's validated options to an
``intern`` that takes a second argument, ``intern(action, options)``, which then looks the
action up among the actions of those options; without options it gets None and checks only
what holds for every option value. An ``intern`` of one argument (a game whose actions are the
same whatever the options) is called with the action alone.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import types
import typing
from typing import Any, Callable, ClassVar, Iterable, Literal, get_args, get_origin

from . import checks
from .errors import NemetonError, RecordError, clip, snippet

# Bounds on a decoded field: no game names anything longer, counts anything larger or lists
# more items (a card id, a sanctuary name, a seat, a slot).
MAX_FIELD_CHARS = 100
MAX_FIELD_INT = 2**31 - 1
MAX_FIELD_ITEMS = 64


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value


class Action:
    """Base of every game's action classes (frozen slotted dataclasses)."""

    __slots__ = ()
    kind: ClassVar[str] = "action"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.kind}
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            out[f.name] = _jsonable(getattr(self, f.name))
        return out

    def __str__(self) -> str:
        fields = ", ".join(f"{f.name}={getattr(self, f.name)}" for f in dataclasses.fields(self))  # type: ignore[arg-type]
        return f"{self.kind}({fields})"


# ----- field readers: one per annotation, built once per action class ----------------------
class _Rejected(Exception):
    """A field value that does not fit its annotation (turned into a RecordError)."""


Reader = Callable[[Any], Any]


def _read_str(value: Any) -> str:
    if isinstance(value, str) and len(value) <= MAX_FIELD_CHARS:
        return value
    raise _Rejected


def _read_int(value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and -MAX_FIELD_INT <= value <= MAX_FIELD_INT:
        return int(value)
    raise _Rejected


def _read_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    raise _Rejected


def _read_none(value: Any) -> None:
    if value is None:
        return None
    raise _Rejected


def _reader(tp: Any) -> tuple[Reader, str]:
    """(reader, what it accepts in words) for a field annotation."""
    simple = {str: (_read_str, f"text of at most {MAX_FIELD_CHARS} characters"),
              int: (_read_int, f"an integer from {-MAX_FIELD_INT} to {MAX_FIELD_INT}"),
              bool: (_read_bool, "true or false"), type(None): (_read_none, "null")}
    if tp in simple:
        return simple[tp]
    origin, args = get_origin(tp), get_args(tp)
    if origin is Literal:
        allowed = frozenset((type(a), a) for a in args)

        def read_literal(value: Any) -> Any:
            if isinstance(value, (str, int)) and (type(value), value) in allowed:
                return value
            raise _Rejected
        return read_literal, "one of " + ", ".join(map(repr, args))
    if origin in (typing.Union, types.UnionType):
        parts = [_reader(a) for a in args]

        def read_union(value: Any) -> Any:
            for read, _ in parts:
                try:
                    return read(value)
                except _Rejected:
                    pass
            raise _Rejected
        return read_union, " or ".join(what for _, what in parts)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        read_item, item = _reader(args[0])

        def read_items(value: Any) -> tuple:
            if not isinstance(value, (list, tuple)) or len(value) > MAX_FIELD_ITEMS:
                raise _Rejected
            return tuple(read_item(v) for v in value)
        return read_items, f"a list of at most {MAX_FIELD_ITEMS} items, each {item}"
    if origin is tuple and args:
        parts = [_reader(a) for a in args]

        def read_fixed(value: Any) -> tuple:
            if not isinstance(value, (list, tuple)) or len(value) != len(parts):
                raise _Rejected
            return tuple(read(v) for (read, _), v in zip(parts, value))
        return read_fixed, f"a list of {len(parts)} items: " + ", ".join(what for _, what in parts)
    raise TypeError(f"action fields may be str, int, bool, None, Literal or tuples of those; not {tp!r}")


@functools.cache
def _class_fields(cls: type[Action]) -> list[tuple[str, Reader, str]]:
    """(name, reader, what it accepts in words) for each field of an action class."""
    hints = typing.get_type_hints(cls)
    return [(f.name, *_reader(hints[f.name])) for f in dataclasses.fields(cls)]  # type: ignore[arg-type]


def field_misfit(action: Action) -> str | None:
    """What is wrong with the fields of a hand-built action, in words: the first field whose
    value is not what its annotation allows (``"x must be an integer from ...; got nan"``), or
    None when every field fits (or the action's class declares no readable fields). Safe for
    any value (it formats with :func:`~nemeton.engine.errors.snippet`)."""
    try:
        fields = _class_fields(type(action))  # type: ignore[arg-type]  # a class is hashable: python/mypy#20409
    except Exception:  # not a dataclass, or an annotation the codec does not read
        return None
    for name, read, what in fields:
        value = getattr(action, name, None)
        try:
            read(value)
        except Exception:  # _Rejected, or a value whose hash or comparison fails
            return f"{name} must be {what}; got {snippet(value, 40)}"
    return None


class ActionCodec:
    """Reads actions back from their JSON form, for one game's action classes.

    ``intern(action)`` or ``intern(action, options)`` (the game's) returns the canonical
    instance of a decoded action, or raises :class:`RecordError` when the game has no such
    action (for those options, when they are given); it must never add the decoded value to a
    table (that would let junk input grow memory without bound)."""

    def __init__(self, classes: Iterable[type[Action]], intern: Callable[..., Action] | None = None):
        self._classes: dict[str, tuple[type[Action], list[tuple[str, Reader, str]]]] = {}
        for cls in classes:
            self._classes[cls.kind] = (cls, _class_fields(cls))  # type: ignore[arg-type]  # python/mypy#20409
        self._intern = intern
        self._intern_takes_options = intern is not None and _takes_two_arguments(intern)

    def kinds(self) -> list[str]:
        return sorted(self._classes)

    def classes(self) -> list[type[Action]]:
        """The action classes this codec reads, by kind."""
        return [self._classes[kind][0] for kind in self.kinds()]

    def from_json(self, data: Any, options: Any = None) -> Action:
        """The action ``data`` (its JSON form) names: every field checked against its
        annotation, then looked up by the game's ``intern`` (among the actions of ``options``,
        the game's validated options, when they are given and the game's actions depend on
        them). Anything else raises :class:`RecordError` naming the field."""
        if not isinstance(data, dict):
            checks.fail("an action", "a JSON object with a 'type'", data)
        kind = data.get("type")
        entry = self._classes.get(kind) if isinstance(kind, str) else None
        if entry is None:
            raise RecordError(f"unknown action type {snippet(kind)}; known: {', '.join(self.kinds())}")
        cls, fields = entry
        if len(data) != len(fields) + 1 or any(name not in data for name, _, _ in fields):
            names = [name for name, _, _ in fields]
            missing = [n for n in names if n not in data]
            extra = [snippet(k, 30) for k in data if k != "type" and k not in names][:5]
            raise RecordError(f"action {kind!r} has the fields {names}; missing {missing}, "
                              f"unexpected {', '.join(extra) or 'none'}")
        values = {}
        for name, read, what in fields:
            try:
                values[name] = read(data[name])
            except _Rejected:
                raise RecordError(f"action {kind!r}: {name} must be {what}; got {checks.shown(data[name])}") from None
        try:
            action = cls(**values)
            if self._intern is None:
                return action
            return self._intern(action, options) if self._intern_takes_options else self._intern(action)
        except (NemetonError, MemoryError):
            raise
        except Exception as exc:  # the game's constructor or lookup failed on odd input
            raise RecordError(f"action {kind!r} cannot be read: {type(exc).__name__}: "
                              f"{clip(str(exc), 80)}") from exc


def _takes_two_arguments(function: Callable[..., Any]) -> bool:
    """True when ``function`` can be called with two positional arguments (action, options)."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):  # a builtin without a signature: called with the action only
        return False
    try:
        signature.bind(None, None)
    except TypeError:
        return False
    return True
