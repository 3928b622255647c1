"""Hints: a person asks the search for its three preferred moves, from their seat's view only.

A room allows hints or not (its creator's choice, :func:`~nemeton.server.seats.default_hints`).
A hint is :func:`nemeton.teacher.hint` on the seat's view, the view taken under the room's
lock and searched without it on a worker thread of the AI seats' pool (the threads agents think
on, :mod:`.ai_seats`; in this process, no helper process that could outlive the server). It
reads nothing but the view, so it can tell nothing the seat could not see; it changes nothing
in the room and draws nothing from the room's secret seed: the search's seed is made from the
room's id, its version and the seat, so asking again in the same position gives the same
answer. At most :attr:`Hints.capacity` hints think at once on a server, one per seat.

:class:`Hints` is one part of :class:`~nemeton.server.rooms.Rooms` (``rooms.hints``).
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
from typing import TYPE_CHECKING, Any

from ..i18n import msg
from .errors import Conflict, Forbidden, ServerError

if TYPE_CHECKING:
    from .rooms import Room, Rooms

log = logging.getLogger("nemeton.server")

MIN_SECONDS = 0.5
MAX_SECONDS = 10.0
DEFAULT_SECONDS = 2.0


class Busy(ServerError):
    """Too many requests of this kind now: try again once the running ones end."""
    status = 429


def hint_seed(room_id: str, version: int, seat: int) -> int:
    """The search's seed for a hint: the same position of the same room gives the same hint;
    nothing of the room's own seed is in it."""
    digest = hashlib.sha256(f"hint:{room_id}:{version}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def decision_refusal(room: Room, seat: int) -> str | None:
    """Why ``seat`` has no decision to be hinted now, or None (under the room's lock)."""
    if room.terminal:
        return "the game is over"
    if room.waiting:
        return "the game starts when every seat is taken"
    if room.table.seats[seat] is not None:
        return f"your seat is played by {room.seats[seat].stand_in} for now"
    if not room.table.legal_actions(seat):
        return "you have no decision to make now: a hint is for your own turn"
    return None


class Hints:
    """The hints being thought about on this server: at most ``capacity`` at once, one per seat."""

    def __init__(self, server: Rooms, capacity: int = 2):
        self.server = server
        self.capacity = capacity
        self.running: set[tuple[str, int]] = set()  # (room, seat)

    async def hint(self, room_id: str, token: str, seconds: float = DEFAULT_SECONDS) -> dict[str, Any]:
        """The search's three preferred moves for the token's seat, from its view, after
        ``seconds`` of search (converted to iterations on this machine)."""
        room = await self.server.get(room_id)
        async with room.lock:
            seat = room.person_of(token, "a seat's token is needed to ask for a hint")
            if not room.hints:
                raise Forbidden("hints are off in this room (its creator decides when making it)",
                                msg=msg("nemeton.error.hints_off"))
            refusal = decision_refusal(room, seat)
            if refusal is not None:
                raise Conflict(refusal)
            key = (room.id, seat)
            if key in self.running:
                raise Busy("a hint for your seat is already being worked out: wait for it",
                           msg=msg("nemeton.error.hint_pending"))
            if len(self.running) >= self.capacity:
                raise Busy(f"the server is working out {len(self.running)} hints already; try again in a few seconds",
                           msg=msg("nemeton.error.busy"))
            version = room.version
            view = room.table.state.view(seat)  # the seat's view: all the search ever reads
            self.running.add(key)
        try:
            from .. import teacher
            think = functools.partial(teacher.hint, room.spec, view, seat, seconds=seconds,
                                      seed=hint_seed(room.id, version, seat))
            loop = asyncio.get_running_loop()
            moves = await loop.run_in_executor(self.server.ai.threads, think)
        except ValueError as exc:  # the teacher refuses a view without a decision
            raise Conflict(str(exc)) from None
        except Exception as exc:
            # only the error's kind is logged: its message could quote the view
            log.error("a hint for room %s failed (%s)", room.id, type(exc).__name__)
            raise ServerError("the hint could not be worked out (the server's log says why)", 500) from None
        finally:
            self.running.discard(key)
        return {"seat": seat, "version": version, "seconds": seconds, "hints": [m.to_json() for m in moves]}
