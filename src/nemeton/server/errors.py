"""The server's refusals: a request it will not carry out, with the HTTP status and a message
that says what was wrong. Every part of the server (:mod:`.seats`, :mod:`.turns`,
:mod:`.ai_seats`, :mod:`.rooms`) raises these; the routes answer them as ``{"detail": ...}``
and a WebSocket as ``{"type": "error", ...}``."""

from __future__ import annotations

from typing import Any

from ..engine.log import seat_ref, split_parts


class ServerError(Exception):
    """A request the server refuses: ``status`` is the HTTP status, the message says why.
    ``msg``, where given, is the refusal as a message (id and arguments, :mod:`nemeton.i18n`)
    that a client renders in its reader's language; the text stays the English detail."""

    status = 400

    def __init__(self, message: str, status: int | None = None, msg: dict[str, Any] | None = None):
        plain, parts = split_parts(message)  # seats named with seat_ref: parts a client renders by name
        super().__init__(plain)
        self.parts: list = parts
        self.msg = msg
        if status is not None:
            self.status = status


def marked(exc: Exception) -> str:
    """An error's message with its seats as markers again (to quote it in a refusal of ours)."""
    parts = getattr(exc, "parts", None)
    if not parts:
        return str(exc)
    return "".join(p if isinstance(p, str) else seat_ref(p["seat"]) for p in parts)


class BadRequest(ServerError):
    status = 400


class Forbidden(ServerError):
    status = 403


class NotFound(ServerError):
    status = 404


class Conflict(ServerError):
    status = 409


class Gone(ServerError):
    """The room was closed (by the operator, or expired): nothing can be played in it."""
    status = 410
