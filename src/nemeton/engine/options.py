"""Typed, validated game options.

Every game declares its options as a frozen dataclass deriving from :class:`GameOptions`.
Allowed values come from the field's type (``bool``, ``int``, ``str``, ``Literal[...]``)
and optional metadata (``choices``, ``min``, ``max``, ``help``). :func:`build_options`
turns raw keyword arguments (or CLI strings such as ``"true"``) into a validated instance,
raising :class:`InvalidOptionsError` that names the allowed values.

Rules that are data (Amarok's deck, Edora's board) are *data options*: the value is the
file's text itself (``None`` = the standard one shipped with the game), never a path, so a
record or an option set can cross a network and replay anywhere without opening a file.
Only the command line reads a file, at its edge. :func:`content_hash` gives the short hash
shown wherever such an option is displayed.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import math
import typing
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar, get_args, get_origin

from ..i18n import msg
from .errors import InvalidOptionsError, NemetonError, clip, snippet


@dataclass(frozen=True)
class GameOptions:
    """Base of every game's options. ``players`` is always present."""

    players: int = 2

    def validate(self) -> None:
        """Cross-field checks; games override and raise InvalidOptionsError."""

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def replace(self, **changes: Any) -> "GameOptions":
        return build_options(type(self), {**self.to_json(), **changes}, player_counts=None)


# The longest text a data option may hold (a deck or a board file is a few kilobytes).
MAX_DATA_CHARS = 200_000


def content_hash(text: str | None) -> str:
    """A short, stable hash of a data option's text: ``sha256:1a2b3c4d5e6f``."""
    digest = hashlib.sha256((text or "").encode("utf-8")).hexdigest()
    return f"sha256:{digest[:12]}"


def option(default: Any, help: str, *, choices: tuple | None = None,
           min: int | None = None, max: int | None = None,
           data: str | None = None, standard: typing.Callable[[], str] | None = None) -> Any:
    """A documented option field. ``data`` marks a data option and names its format (e.g.
    ``"TOML or JSON deck"``); its value is that text, and ``standard()`` returns the text of
    the standard one (what ``None`` means)."""
    meta: dict[str, Any] = {"help": help}
    if data is not None:
        meta["data"] = data
        if standard is not None:
            meta["standard"] = standard
    if choices is not None:
        meta["choices"] = tuple(choices)
    if min is not None:
        meta["min"] = min
    if max is not None:
        meta["max"] = max
    return field(default=default, metadata=meta)


@dataclass(frozen=True)
class OptionInfo:
    name: str
    kind: str
    default: Any
    allowed: str
    help: str
    data: str | None = None  # a data option's format (its value is a file's text), else None
    standard_hash: str | None = None  # content hash of the standard data (what None means)


@functools.lru_cache(maxsize=None)
def _field_types(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _describe(tp: Any, meta: typing.Mapping[str, Any]) -> tuple[str, str]:
    """(kind, allowed-values text) for a field type."""
    if "data" in meta:
        return "data", (f"the text of a {meta['data']} file (on the command line: "
                        f"the file's path); none = the standard one")
    if "choices" in meta:
        return "choice", ", ".join(map(str, meta["choices"]))
    origin = get_origin(tp)
    if origin is Literal:
        return "choice", ", ".join(map(str, get_args(tp)))
    args = [a for a in get_args(tp) if a is not type(None)]
    optional = type(None) in get_args(tp)
    base = args[0] if args and origin is not Literal else tp
    if base is bool:
        return "bool", "true, false"
    if base is int:
        lo, hi = meta.get("min"), meta.get("max")
        if lo is not None and hi is not None:
            rng = f"integer {lo}..{hi}"
        else:
            rng = f"integer{'' if lo is None else f' >= {lo}'}{'' if hi is None else f' <= {hi}'}"
        return "int", rng + (" or none" if optional else "")
    if base is str:
        return "str", "text" + (" or none" if optional else "")
    return "value", str(tp)


def describe_options(cls: type[GameOptions]) -> list[OptionInfo]:
    hints = _field_types(cls)  # type: ignore[arg-type]  # a class is hashable: python/mypy#20409
    out = []
    for f in dataclasses.fields(cls):
        kind, allowed = _describe(hints[f.name], f.metadata)
        standard = f.metadata.get("standard")
        out.append(OptionInfo(f.name, kind, f.default, allowed, f.metadata.get("help", ""),
                              f.metadata.get("data"), content_hash(standard()) if standard else None))
    return out


def is_data_option(cls: type[GameOptions], name: str) -> bool:
    return any(f.name == name and "data" in f.metadata for f in dataclasses.fields(cls))


def display_options(options: GameOptions) -> dict[str, Any]:
    """The options as shown to people and in summaries: a data option's text is replaced by
    its content hash (``"standard (sha256:...)"`` for the standard one)."""
    out = options.to_json()
    for f in dataclasses.fields(options):
        if "data" in f.metadata:
            value = out[f.name]
            if value is None:
                standard = f.metadata.get("standard")
                out[f.name] = "standard" + (f" ({content_hash(standard())})" if standard else "")
            else:
                out[f.name] = content_hash(value)
    return out


# Integers an option may hold when its field sets no bound (larger values are always typos or
# attacks: a cap of a million actions is already "no cap"), and the longest plain text option.
MAX_OPTION_INT = 1_000_000
MAX_TEXT_CHARS = 1_000
_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


def _as_int(value: Any) -> int | None:
    """``value`` as an integer if it is one (an int that is not a bool, an integral finite
    float, or a string of at most 18 digits with an optional sign), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return int(value) if math.isfinite(value) and value.is_integer() else None
    if isinstance(value, str):
        text = value.strip()
        digits = text[1:] if text[:1] in "+-" else text
        if 0 < len(digits) <= 18 and digits.isascii() and digits.isdigit():
            return int(text)
    return None


def _range_msg(meta: typing.Mapping[str, Any]) -> dict[str, Any]:
    """An integer option's range as a message ("from 1 to 9", "1 or more", "any integer")."""
    lo, hi = meta.get("min"), meta.get("max")
    if lo is not None and hi is not None:
        return msg("nemeton.option.range.between", low=lo, high=hi)
    if lo is not None:
        return msg("nemeton.option.range.at_least", low=lo)
    if hi is not None:
        return msg("nemeton.option.range.at_most", high=hi)
    return msg("nemeton.option.range.any")


def _counts_msg(counts: tuple[int, ...]) -> Any:
    """Player counts as a range message where they run without a gap ("from 2 to 4"), else
    the numbers joined by commas."""
    if counts and list(counts) == list(range(min(counts), max(counts) + 1)):
        return _range_msg({"min": min(counts), "max": max(counts)})
    return ", ".join(map(str, counts))


def _coerce(name: str, value: Any, tp: Any, meta: typing.Mapping[str, Any]) -> Any:
    kind, allowed = _describe(tp, meta)
    optional = type(None) in get_args(tp)
    shown = snippet(value)
    if optional and (value is None or (isinstance(value, str) and value.lower() in ("none", "null", ""))):
        return None
    if kind == "data":
        if not isinstance(value, str):
            raise InvalidOptionsError(f"option {name} must be the text of a {meta['data']} file "
                                      f"(or none for the standard one); got {type(value).__name__}")
        if len(value) > MAX_DATA_CHARS:
            raise InvalidOptionsError(f"option {name} is {len(value)} characters long; "
                                      f"at most {MAX_DATA_CHARS} are allowed")
        return value
    if "choices" in meta or get_origin(tp) is Literal:
        choices = meta.get("choices") or get_args(tp)
        for c in choices:
            if (type(value) is type(c) and value == c) or (isinstance(value, str) and str(c) == value):
                return c
        raise InvalidOptionsError(f"option {name}={shown} is not allowed; choose one of: {allowed}",
                                  msg=msg("nemeton.error.option.choose", name=name, value=shown,
                                          allowed=", ".join(str(c) for c in choices)))
    if kind == "bool":
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in _TRUE:
            return True
        if isinstance(value, str) and value.strip().lower() in _FALSE:
            return False
        raise InvalidOptionsError(f"option {name}={shown} is not allowed; choose one of: true, false "
                                  f"(or yes/no, on/off, 1/0 as text)",
                                  msg=msg("nemeton.error.option.bool", name=name, value=shown))
    if kind == "int":
        ivalue = _as_int(value)
        if ivalue is None:
            raise InvalidOptionsError(f"option {name}={shown} is not an integer; allowed: {allowed}",
                                      msg=msg("nemeton.error.option.integer", name=name, value=shown,
                                              allowed=_range_msg(meta)))
        lo, hi = meta.get("min"), meta.get("max")
        if (lo is not None and ivalue < lo) or (hi is not None and ivalue > hi):
            raise InvalidOptionsError(f"option {name}={shown} is out of range; allowed: {allowed}",
                                      msg=msg("nemeton.error.option.range", name=name, value=shown,
                                              allowed=_range_msg(meta)))
        if (hi is None and ivalue > MAX_OPTION_INT) or (lo is None and ivalue < -MAX_OPTION_INT):
            raise InvalidOptionsError(f"option {name}={shown} is out of range; allowed: {allowed} "
                                      f"(and at most {MAX_OPTION_INT:,} in size)",
                                      msg=msg("nemeton.error.option.range", name=name, value=shown,
                                              allowed=_range_msg(meta)))
        return ivalue
    if kind == "str":
        if not isinstance(value, str):
            raise InvalidOptionsError(f"option {name}={shown} must be text",
                                      msg=msg("nemeton.error.option.text", name=name, value=shown))
        if len(value) > MAX_TEXT_CHARS:
            raise InvalidOptionsError(f"option {name} is {len(value)} characters long; "
                                      f"at most {MAX_TEXT_CHARS} are allowed",
                                      msg=msg("nemeton.error.option.long", name=name, count=MAX_TEXT_CHARS))
        return value
    if value is not None and not isinstance(value, (str, int, float)):
        raise InvalidOptionsError(f"option {name}={shown} is not allowed; allowed: {allowed}")
    return value


O = TypeVar("O", bound=GameOptions)  # a game's options class


def build_options(cls: type[O], raw: typing.Mapping[str, Any],
                  player_counts: tuple[int, ...] | None) -> O:
    """Validated options from raw values; unknown names and bad values raise InvalidOptionsError."""
    hints = _field_types(cls)  # type: ignore[arg-type]  # a class is hashable: python/mypy#20409
    fields = {f.name: f for f in dataclasses.fields(cls)}
    if not isinstance(raw, typing.Mapping):
        raise InvalidOptionsError(f"options must be a mapping of option names to values; got {snippet(raw)}")
    unknown = [name for name in raw if name not in fields]
    if unknown:
        # a name that is not plain printable text (a seat marker, a lone surrogate) is quoted escaped
        shown = ", ".join(name if isinstance(name, str) and len(name) <= 40 and name.isprintable() else snippet(name, 40)
                          for name in unknown[:5]) + (", ..." if len(unknown) > 5 else "")
        raise InvalidOptionsError(
            f"unknown option{'s' if len(unknown) > 1 else ''} {shown}; "
            f"allowed options: {', '.join(fields)}",
            msg=msg("nemeton.error.option.unknown", count=len(unknown), names=shown, allowed=list(fields)))
    values = {name: _coerce(name, val, hints[name], fields[name].metadata) for name, val in raw.items()}
    opts = cls(**values)
    if player_counts is not None and opts.players not in player_counts:
        raise InvalidOptionsError(
            f"players={opts.players} is not allowed; this game is for "
            f"{', '.join(map(str, player_counts))} players",
            msg=msg("nemeton.error.option.players", count=opts.players, allowed=_counts_msg(player_counts)))
    try:
        opts.validate()
    except (NemetonError, MemoryError):
        raise
    except Exception as exc:  # a game's cross-field check (e.g. parsing a data option) failed
        raise InvalidOptionsError(f"invalid {cls.__name__}: {type(exc).__name__}: {clip(str(exc), 100)}") from exc
    return opts
