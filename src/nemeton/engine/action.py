"""Actions: small immutable values with a readable string and a stable JSON form.

A game declares each kind of action as a frozen, slotted dataclass deriving from
:class:`Action`, with fields that are ``str``, ``int``, ``bool``, ``None`` or tuples of
those. ``to_json`` is ``{"type": <kind>, **fields}``; an :class:`ActionCodec` built from
the game's action classes reads it back. Games intern their actions (build each value
once, reuse it), so legal-action lists allocate nothing on the hot path.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar, Iterable

from .errors import RecordError


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value


def _from_jsonable(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_from_jsonable(v) for v in value)
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


class ActionCodec:
    """Reads actions back from their JSON form, for one game's action classes."""

    def __init__(self, classes: Iterable[type[Action]], intern: Any = None):
        self._classes = {cls.kind: cls for cls in classes}
        self._intern = intern  # optional callable(action) -> canonical instance

    def from_json(self, data: Any) -> Action:
        if not isinstance(data, dict) or "type" not in data:
            raise RecordError(f"an action must be a JSON object with a 'type'; got {data!r}")
        kind = data["type"]
        cls = self._classes.get(kind)
        if cls is None:
            raise RecordError(f"unknown action type {kind!r}; known: {', '.join(sorted(self._classes))}")
        names = [f.name for f in dataclasses.fields(cls)]
        missing = [n for n in names if n not in data]
        extra = sorted(set(data) - set(names) - {"type"})
        if missing or extra:
            raise RecordError(f"action {kind!r} needs fields {names}; missing {missing}, unexpected {extra}")
        try:
            action = cls(**{n: _from_jsonable(data[n]) for n in names})
        except (TypeError, ValueError) as exc:
            raise RecordError(f"bad action {data!r}: {exc}") from None
        return self._intern(action) if self._intern else action
