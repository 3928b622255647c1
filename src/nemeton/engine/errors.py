"""Errors that speak to the person: each says what was wrong and what is allowed."""

import reprlib
from typing import Any

from .log import split_parts


class NemetonError(Exception):
    """Base class of every error Nemeton raises on purpose.

    A message names seats with :func:`nemeton.engine.log.seat_ref`; the error splits it at
    construction: ``str(exc)`` is the plain text (seats written "seat n", never a marker) and
    ``exc.parts`` the structured parts (strings and ``{"seat": n}``) a client renders with
    the players' names. ``msg``, where given, is the same as a message (an id and arguments,
    :mod:`nemeton.i18n`) that a client or the terminal renders in its reader's language; the
    text stays English. Errors pickle with all three (agents run in worker processes)."""

    def __init__(self, *args: object, msg: dict[str, Any] | None = None) -> None:
        if args and isinstance(args[0], str):
            plain, parts = split_parts(args[0], capital=False)
            args = (plain,) + args[1:]
        else:
            parts = [str(args[0])] if args else []
        super().__init__(*args)
        self.parts: list = parts
        self.msg = msg


class InvalidOptionsError(NemetonError, ValueError):
    """A game was asked for with an unknown option, a bad value or a bad player count."""


class IllegalActionError(NemetonError, ValueError):
    """An action that is not legal now. The state is left unchanged."""


class UnknownGameError(NemetonError, KeyError):
    """No registered game has that name."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


class RecordError(NemetonError, ValueError):
    """A game record or state JSON that cannot be read."""


class InputError(NemetonError, ValueError):
    """A file or value typed by a person is malformed (the message names the bad part)."""


class InvalidSeatError(NemetonError, ValueError):
    """A seat that is not an integer from 0 to players-1 (or None where the spectator is meant)."""


def snippet(value: object, limit: int = 60) -> str:
    """A short repr of untrusted input for an error message: bounded in length and depth, and
    safe for any value (a 5,000-digit integer or a list nested 10,000 deep included)."""
    try:
        text = _SHORT.repr(value)
    except Exception:  # an int too long to print, an odd object's repr
        text = (f"<an integer of {value.bit_length()} bits>" if isinstance(value, int)
                else f"<{type(value).__name__}>")
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _short_repr() -> "reprlib.Repr":
    short = reprlib.Repr()
    short.maxlevel, short.maxstring, short.maxother, short.maxlong = 3, 40, 40, 30
    short.maxlist = short.maxtuple = short.maxdict = short.maxset = 5
    return short


_SHORT = _short_repr()


def clip(text: str, limit: int = 80) -> str:
    """``text`` cut to ``limit`` characters (an exception's message quoted in another)."""
    return text if len(text) <= limit else text[:limit - 3] + "..."
