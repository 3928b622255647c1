"""Live updates: a room's WebSocket clients and what is pushed to them.

Each client is a :class:`Subscriber`: its seat (None: the spectator), where its log stands and
its :class:`Outbox`, the bounded queue of messages waiting to be sent. A room's
:class:`Watchers` push every committed change to all of them: each its own view and the log
entries it has not seen yet. A client that does not keep up is never sent a backlog: its
waiting states give way to one resync state (the whole log again). Answers to a client's own
messages are never dropped; a client whose queue is full of them reads nothing and is closed
with 4429 (:func:`~nemeton.server.app.serve_socket`).

Nothing here knows a game, a database or an HTTP route: a room hands :meth:`Watchers.push_states`
the function that builds a seat's snapshot.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

QUEUE_SIZE = 256  # messages waiting for one WebSocket client before it is resynchronised


@dataclass(eq=False)  # compared and hashed by identity: kept in a set
class Subscriber:
    """One WebSocket client of a room: its seat (None = spectator), where its log stands,
    and the queue of messages waiting to be sent."""

    seat: int | None
    since: int = 0
    queue: Outbox = field(default_factory=lambda: Outbox(QUEUE_SIZE))


class Outbox(asyncio.Queue[dict[str, Any]]):
    """A client's messages waiting to be sent, at most ``maxsize``. A client that lags does
    not get a backlog of states: once the queue is full, every state and seats notice waiting
    gives way to one state (a resync, built by :meth:`Watchers.push_states`) in the first
    one's place, so a state still comes before the answers that follow it. Answers (``ok``,
    ``error``) are never dropped: a client whose queue is full of them reads nothing and is
    closed (:func:`~nemeton.server.app.serve_socket`: code 4429)."""

    _queue: deque[dict[str, Any]]  # asyncio.Queue's own store (made by its _init), rearranged when full

    def put_state(self, message: dict[str, Any]) -> bool:
        """Queue a state, coalescing when full; False if the queue holds answers only."""
        if not self.full():
            self.put_nowait(message)
            return True
        kept: list[dict[str, Any]] = []
        at = None
        for waiting in self._queue:
            if waiting.get("type") in ("state", "seats"):
                at = len(kept) if at is None else at
            else:
                kept.append(waiting)
        if at is None:
            return False
        kept.insert(at, message)
        self._queue.clear()
        self._queue.extend(kept)
        return True


Snapshot = Callable[[int | None, int], dict[str, Any]]  # (seat, since) -> what that seat may know now


class Watchers:
    """The WebSocket clients of one room, and the pushes they are sent."""

    def __init__(self) -> None:
        self.subscribers: set[Subscriber] = set()

    def connected(self) -> set[int | None]:
        """The seats with a client connected now (None: a spectator)."""
        return {sub.seat for sub in self.subscribers}

    def push_states(self, snapshot: Snapshot, log_length: int, resync: bool = False) -> None:
        """Queue every subscriber's news: its new view and the log entries it has not seen,
        up to ``log_length`` (called under the room's lock, right after a change is committed)."""
        for sub in list(self.subscribers):
            # resync: actions were taken back, or a client does not keep up (its waiting
            # states give way to this one, with the whole log: Outbox.put_state)
            if resync or sub.queue.full():
                message = {"type": "state", "resync": True, **snapshot(sub.seat, 0)}
            else:
                message = {"type": "state", **snapshot(sub.seat, sub.since)}
            sub.since = log_length
            sub.queue.put_state(message)

    def push_notice(self, message: dict[str, Any]) -> None:
        """Queue a notice (who sits where, the room closed) for every subscriber whose queue
        has room; one that lags gets the room's news with its next state."""
        for sub in list(self.subscribers):
            if not sub.queue.full():
                sub.queue.put_nowait(message)
