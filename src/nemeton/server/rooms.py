"""Rooms: a game record played through the table loop, its seats and who watches it.

A :class:`Room` holds the live :class:`~nemeton.table.Table` rebuilt from its stored record.
:class:`Rooms` holds the rooms of one server in memory (loading them when asked for, keeping
them in step with other server processes on the same database, closing the expired ones) and
hands every request to the part that owns it:

- :mod:`.seats` (``rooms.seats``): creating rooms, seat tokens, open seats taken and left,
  names, the lobby;
- :mod:`.turns` (``rooms.turns``): people's actions and take-backs through the table loop,
  version checks, the commit every move goes through, replays and records;
- :mod:`.ai_seats` (``rooms.ai``): agents and stand-ins, their think threads and budgets,
  turn timers, the task that moves each room's agents;
- :mod:`.hints` (``rooms.hints``): hints asked for by people, searched from their seat's view;
- :mod:`.analyses` (``rooms.analyses``): finished games analysed in the background, stored;
- :mod:`.live` (``room.watchers``): each room's WebSocket clients, their queues and pushes.

Every change follows one path, under the room's lock: check the request against the table,
apply it, commit it to the database with the optimistic version check, and only then answer
and push the seats' new views. If the commit fails the room is rebuilt from the database, so
memory never runs ahead of what is stored.

Nothing here knows a game: everything goes through the engine protocol and agent specs.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from datetime import datetime, timedelta, timezone
from typing import Any

from ..i18n import msg
from ..engine import GameRecord, GameSpec, get_game
from ..table import Table
from . import observe
from .ai_seats import AiSeats, agent_for, check_agent, stand_in_info, timeout_agent
from .analyses import Analyses
from .db import RoomRow, Store, closed_message, is_open
from .errors import BadRequest, Conflict, Forbidden, Gone, NotFound, ServerError, marked
from .hints import Hints
from .live import QUEUE_SIZE, Outbox, Subscriber, Watchers
from .observe import Metrics
from .seats import BOT_NAMES, MAX_NAME, Seats, check_name, hash_token, is_creator, seat_info, seat_name, seat_of
from .turns import Turns, take_back_info

__all__ = [  # what the rest of the server (and its tests) import from here
    "BOT_NAMES", "MAX_NAME", "QUEUE_SIZE", "BadRequest", "Conflict", "Forbidden", "Gone", "NotFound", "Outbox",
    "Room", "Rooms", "ServerError", "Subscriber", "check_agent", "check_name", "hash_token", "marked", "seat_name",
    "timeout_agent",
]

log = logging.getLogger("nemeton.server")

SYNC_INTERVAL = 1.0  # seconds between version checks where the database cannot announce changes
MAX_FINISHED_ROOMS = 200  # finished rooms kept in memory (others are reloaded when asked for)
EXPIRE_AFTER_DAYS = 14.0  # an unfinished room untouched this long is closed (nemeton serve --expire-after)
EXPIRY_INTERVAL = 3600.0  # seconds between two looks for expired rooms


class Room:
    """One game in memory, rebuilt from its stored record: what every part of the server reads
    and changes under its ``lock``."""

    def __init__(self, row: RoomRow):
        self.id = row.id
        self.spec: GameSpec = get_game(row.game)
        self.options = row.options
        self.seed = row.seed
        self.undo = row.undo
        self.created_at = row.created_at
        self.seats = row.seats
        self.creator_hash = row.creator_hash
        self.turn_timeout = row.turn_timeout_s
        self.rematch = row.rematch
        self.listed = row.listed
        self.hints = row.hints  # whether its people may ask the search for hints (rooms.hints)
        # whether a take-back is granted, kept per version: (version, seat, refusal) (turns.take_back_refusal)
        self.take_back_kept: tuple[int, int, str | None] | None = None
        # what every seat knows of the game's components under its options (Edora: the board)
        self.components = self.spec.public_data(self.spec.options(**self.options))
        self.pending_since: dict[int, float] = {}  # people's seats waited for, since when (ai_seats.watch)
        self.timer: asyncio.Task | None = None  # the turn timer
        self.driver: asyncio.Task | None = None  # the task moving the agents
        self.lock = asyncio.Lock()
        self.watchers = Watchers()
        self.last_used = 0.0
        self.rebuild(row)

    def rebuild(self, row: RoomRow) -> None:
        """Replay the stored record (every action checked) and seat fresh agents."""
        actions = [(seat, self.spec.action_from_json(action, self.spec.options(**self.options))) for seat, action in row.actions]
        record = GameRecord(self.spec.name, dict(self.options), self.seed, actions, row.rules_version)
        state = record.replay()
        self.seats = row.seats
        self.rematch = row.rematch
        self.closed = row.closed_reason or "by the server operator" if row.status == "closed" else None
        self.table = Table(state, [None if self.closed else agent_for(self.spec, s) for s in self.seats], keep_log=True)
        self.version = row.version

    @property
    def subscribers(self) -> set[Subscriber]:
        return self.watchers.subscribers

    def seat_of(self, token: str | None) -> int | None:
        """The seat whose token this is (:func:`.seats.seat_of`): None for the spectator."""
        return seat_of(self.seats, token)

    def person_of(self, token: str | None, refusal: str) -> int:
        """The seat of a person's token; without a token, Forbidden with ``refusal``."""
        seat = self.seat_of(token)
        if seat is None:
            raise Forbidden(refusal)
        return seat

    def is_creator(self, token: str) -> bool:
        return is_creator(self.creator_hash, token)

    @property
    def terminal(self) -> bool:
        """Whether the game has ended."""
        return self.table.over

    @property
    def waiting(self) -> bool:
        """Whether the game waits for people to take its open seats (nothing is played until then)."""
        return any(is_open(s) for s in self.seats)

    def open_seats(self) -> list[int]:
        return [s.seat for s in self.seats if is_open(s)]

    def snapshot(self, seat: int | None, since: int = 0) -> dict[str, Any]:
        """What ``seat`` (None = spectator) may know now: its view, who acts, its legal
        actions, its log entries from ``since``, whether the game is over, the room's version
        (one more at every change) and the number of moves applied."""
        state = self.table.state
        legal = [] if seat is None or self.table.seats[seat] is not None else self.table.legal_actions(seat)
        return {
            "view": state.view(seat),
            "acting": list(state.acting()),
            "legal_actions": [a.to_json() for a in legal],
            "log": state.log(seat, since=min(since, state.log_length())),
            "terminal": state.is_terminal(),
            "version": self.version,
            "moves": len(state.history),
            "stand_in": stand_in_info(None if seat is None else self.seats[seat]),
            "seats": self.seat_info(),
            "undo": self.undo,
            "take_back": take_back_info(self, seat),
            "waiting": self.waiting,
            "open_seats": self.open_seats(),
            "listed": self.listed,
            "rematch": self.rematch,
            "hints": self.hints,
        }

    def seat_info(self) -> list[dict[str, Any]]:
        """Who sits where, for everyone: names, people or agents, stand-ins, who is connected."""
        return seat_info(self.seats, self.watchers.connected())

    def record(self, moves: int) -> GameRecord:
        """The room's record up to its first ``moves`` actions."""
        return GameRecord(self.spec.name, dict(self.options), self.seed, list(self.table.state.history[:moves]))

    def publish(self, resync: bool = False) -> None:
        """Push every watcher its news (under the lock, right after a change is committed):
        its new view and the log entries it has not seen, or everything again with ``resync``."""
        self.watchers.push_states(self.snapshot, self.table.state.log_length(), resync)
        if self.table.over:  # the game is over: its agents' helper processes stop now
            from .agents import close_agents
            close_agents(self.table.seats)

    def publish_seats(self) -> None:
        """Tell every watcher who sits where now (a client connected or left)."""
        self.watchers.push_notice({"type": "seats", "seats": self.seat_info()})


class Rooms:
    """Every room of one server, backed by one :class:`Store`: the rooms in memory, and the
    parts that serve requests on them (``seats``, ``turns``, ``ai``)."""

    def __init__(self, store: Store, agent_threads: int = 4, sync_interval: float = SYNC_INTERVAL,
                 agents: Any = None, expire_after: float | None = None,
                 expiry_interval: float = EXPIRY_INTERVAL):
        self.store = store
        self.ai = AiSeats(self, agent_threads, agents)
        self.hints = Hints(self, capacity=max(1, agent_threads // 2))
        self.analyses = Analyses(self)
        self.seats = Seats(self)
        self.turns = Turns(self)
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self.sync_interval = sync_interval
        self._follower: asyncio.Task | None = None
        self._catching_up: set[asyncio.Task] = set()
        self._stop_listening = threading.Event()
        self.expire_after = expire_after  # days an unfinished room may stay untouched (None or 0: for ever)
        self.expiry_interval = expiry_interval
        self._expiry: asyncio.Task | None = None
        self.metrics: Metrics | None = None  # where the parts' hooks count (the app's registry; None: nowhere)

    # ----- what the routes call: each part's own --------------------------------------------
    async def create(self, game: str, options: dict[str, Any], seats: list[dict[str, Any]], undo: bool = False,
                     turn_timeout_s: float | None = None, listed: bool = True,
                     hints: bool | None = None) -> dict[str, Any]:
        return await self.seats.create(game, options, seats, undo, turn_timeout_s, listed, hints)

    async def join(self, room_id: str, seat: int, name: str) -> dict[str, Any]:
        return await self.seats.join(room_id, seat, name)

    async def leave(self, room_id: str, token: str) -> dict[str, Any]:
        return await self.seats.leave(room_id, token)

    async def lobby(self, limit: int = 100) -> list[dict[str, Any]]:
        return await self.seats.lobby(limit)

    def summary(self, row: RoomRow) -> dict[str, Any]:
        return self.seats.summary(row)

    async def info(self, room_id: str) -> dict[str, Any]:
        return await self.seats.info(room_id)

    async def rematch_room(self, room_id: str, token: str) -> dict[str, Any]:
        return await self.seats.rematch(room_id, token)

    async def view(self, room_id: str, token: str | None, since: int = 0) -> dict[str, Any]:
        return await self.turns.view(room_id, token, since)

    async def act(self, room_id: str, token: str, action_json: Any, version: int | None = None,
                  since: int = 0, snapshot: bool = True) -> dict[str, Any]:
        return await self.turns.act(room_id, token, action_json, version, since, snapshot)

    async def take_back(self, room_id: str, token: str, version: int | None = None,
                        since: int = 0) -> dict[str, Any]:
        return await self.turns.take_back(room_id, token, version, since)

    async def replay(self, room_id: str, seat: int | None, step: int | None,
                     token: str | None = None) -> dict[str, Any]:
        return await self.turns.replay(room_id, seat, step, token)

    async def record(self, room_id: str) -> dict[str, Any]:
        return await self.turns.record(room_id)

    async def hand_seat(self, room_id: str, token: str, seat: int, agent: str | None) -> dict[str, Any]:
        return await self.ai.hand_seat(room_id, token, seat, agent)

    async def hint(self, room_id: str, token: str, seconds: float) -> dict[str, Any]:
        return await self.hints.hint(room_id, token, seconds)

    async def analyse(self, room_id: str) -> dict[str, Any]:
        return await self.analyses.start(room_id)

    async def analysis(self, room_id: str) -> dict[str, Any]:
        return await self.analyses.state(room_id)

    async def come_back(self, room_id: str, token: str, since: int = 0) -> dict[str, Any]:
        return await self.ai.come_back(room_id, token, since)

    async def reclaim(self, room: Room, seat: int) -> bool:
        return await self.ai.reclaim(room, seat)

    def watch(self, room: Room) -> None:
        self.ai.watch(room)

    def kick(self, room: Room) -> None:
        self.ai.kick(room)

    # ----- start and stop ---------------------------------------------------------------
    async def start(self) -> None:
        """Close the rooms untouched for too long, then load the rooms that must move without
        anyone asking (an agent or a turn timer to act: :meth:`Store.rooms_to_load`), replaying
        their records, and let their agents move. Every other room is loaded when a request or
        a WebSocket asks for it (:meth:`get`)."""
        try:
            await self.expire()
        except Exception:  # the periodic task tries again
            log.exception("closing the expired rooms failed")
        for room_id in await asyncio.to_thread(self.store.rooms_to_load):
            try:
                room = await self.get(room_id)
            except Exception:  # one broken room must not stop the server
                log.exception("room %s could not be reloaded", room_id)
                continue
            async with room.lock:
                self.ai.watch(room)
            self.ai.kick(room)
        self._follower = asyncio.get_running_loop().create_task(self._follow())
        if self.expire_after:
            self._expiry = asyncio.get_running_loop().create_task(self._expire_periodically())

    async def close(self) -> None:
        self._stop_listening.set()
        tasks = [task for room in self.rooms.values() for task in (room.driver, room.timer)
                 if task is not None and not task.done()]
        tasks += [task for task in (self._follower, self._expiry, *self._catching_up) if task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.analyses.close()
        self.ai.close(self.rooms.values())

    # ----- the rooms in memory ------------------------------------------------------------
    async def stored(self, room_id: str) -> RoomRow:
        """The room as the database holds it now (read on a thread), to rebuild a room in
        memory from; NotFound if it is no longer there (deleted meanwhile: ``nemeton admin purge``)."""
        row = await asyncio.to_thread(self.store.load_room, room_id)
        if row is None:
            raise NotFound(f"no room {room_id[:40]!r}")
        return row

    async def get(self, room_id: str) -> Room:
        room = self.rooms.get(room_id)
        if room is not None:
            if room.closed is not None:  # closed meanwhile (another process's change, read back)
                self._evict(room)
                raise Gone(closed_message(room.closed), msg=msg("nemeton.error.closed"))
            room.last_used = time.monotonic()
            return room
        lock = self._loading.setdefault(room_id, asyncio.Lock())
        async with lock:
            room = self.rooms.get(room_id)
            if room is None:
                row = await asyncio.to_thread(self.store.load_room, room_id)
                if row is None:
                    self._loading.pop(room_id, None)
                    raise NotFound(f"no room {room_id[:40]!r}")
                if row.status == "closed":  # never replayed: a closed room is not played
                    self._loading.pop(room_id, None)
                    raise Gone(closed_message(row.closed_reason), msg=msg("nemeton.error.closed"))
                room = await asyncio.to_thread(Room, row)
                room.last_used = time.monotonic()
                self.rooms[room_id] = room
                self.forget_finished()
        self._loading.pop(room_id, None)
        return room

    def forget_finished(self) -> None:
        """Keep at most MAX_FINISHED_ROOMS finished rooms in memory: the least recently used
        of those nobody is watching or using go (the database still holds them)."""
        idle = [r for r in self.rooms.values()
                if r.terminal and not r.subscribers and not r.lock.locked()
                and all(task is None or task.done() for task in (r.driver, r.timer))]
        for room in sorted(idle, key=lambda r: r.last_used)[:max(0, len(idle) - MAX_FINISHED_ROOMS)]:
            del self.rooms[room.id]

    def _evict(self, room: Room) -> None:
        """A closed room leaves memory: its agents and turn timer stop, its watchers are told."""
        if self.rooms.get(room.id) is room:
            del self.rooms[room.id]
        self.ai.stop(room)
        room.watchers.push_notice({"type": "error", "status": 410, "message": closed_message(room.closed),
                                   "parts": []})

    # ----- other server processes on the same database ------------------------------------
    async def _follow(self) -> None:
        """Keep the rooms in memory up to date with the changes other server processes commit:
        announced by PostgreSQL (LISTEN/NOTIFY) or, elsewhere, polled every ``sync_interval``."""
        loop = asyncio.get_running_loop()
        if self.store.announces:
            def on_change(room_id: str, version: int) -> None:
                loop.call_soon_threadsafe(self._changed, room_id, version)
            await asyncio.to_thread(self.store.listen, on_change, self._stop_listening)
            return
        while True:
            await asyncio.sleep(self.sync_interval)
            try:
                await self._poll()
            except Exception:  # a failed poll is retried at the next tick
                observe.retry(self, "poll")
                log.exception("checking the rooms' versions failed")

    def _changed(self, room_id: str, version: int) -> None:
        """A change was announced (``""``: announcements may have been missed)."""
        room = self.rooms.get(room_id)
        if not room_id:
            work = self._poll()
        elif room is None or room.version >= version:
            return  # not loaded here, or this process's own change
        else:
            work = self._catch_up(room)
        task = asyncio.get_running_loop().create_task(work)
        self._catching_up.add(task)
        task.add_done_callback(self._catching_up.discard)

    async def _poll(self) -> None:
        loaded = [room_id for room_id, room in self.rooms.items() if not room.terminal]
        if not loaded:
            return
        for room_id, version in (await asyncio.to_thread(self.store.versions, loaded)).items():
            room = self.rooms.get(room_id)
            if room is not None and version > room.version:
                await self._catch_up(room)

    async def _catch_up(self, room: Room) -> None:
        try:
            async with room.lock:
                await self.turns.resync(room)
                self.ai.watch(room)
            self.ai.kick(room)
        except Exception:
            log.exception("room %s could not catch up with the database", room.id)

    # ----- expiry -----------------------------------------------------------------------
    async def _expire_periodically(self) -> None:
        """Every ``expiry_interval`` seconds, close the rooms untouched for ``expire_after`` days."""
        while True:
            await asyncio.sleep(self.expiry_interval)
            try:
                await self.expire()
            except Exception:  # tried again at the next tick
                log.exception("closing the expired rooms failed")

    async def expire(self) -> list[str]:
        """Close every unfinished room that nobody has changed for ``expire_after`` days (it
        is then no longer loaded or played; a request to it is answered 410); returns their ids."""
        if not self.expire_after:
            return []
        cutoff = datetime.now(timezone.utc) - timedelta(days=self.expire_after)
        days = f"{self.expire_after:g} day{'s' if self.expire_after != 1 else ''}"
        closed = []
        for room_id in await asyncio.to_thread(self.store.untouched_rooms, cutoff):
            reason = f"nobody had played in it for {days} (expired {datetime.now(timezone.utc):%Y-%m-%d})"
            room = self.rooms.get(room_id)
            if room is None:
                version = await asyncio.to_thread(self.store.close_room, room_id, reason, cutoff)
            else:
                async with room.lock:
                    version = await asyncio.to_thread(self.store.close_room, room_id, reason, cutoff)
                    if version is not None:
                        room.closed, room.version = reason, version
                        self._evict(room)
            if version is not None:
                closed.append(room_id)
        if closed:
            log.warning("closed %d room%s untouched for %s: %s", len(closed), "s" if len(closed) != 1 else "",
                        days, ", ".join(closed[:20]) + (", ..." if len(closed) > 20 else ""))
        return closed
