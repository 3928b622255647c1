"""Rooms: a game record played through the table loop, its seats and who watches it.

A :class:`Room` holds the live :class:`~nemeton.table.Table` rebuilt from its stored record;
:class:`Rooms` creates, loads and plays them. Every change follows one path, under the
room's lock: check the request against the table (who may act, which actions are legal), apply
it, commit it to the database with the optimistic version check, and only then answer and
push the seats' new views to the subscribers. If the commit fails the room is rebuilt from
the database, so memory never runs ahead of what is stored.

Agents' seats are moved by a task per room: each move is computed on a worker thread (the
event loop keeps serving), committed, and pushed like a person's.

Nothing here knows a game: everything goes through the engine protocol and agent specs.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import secrets
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta, timezone
from dataclasses import dataclass, field
from typing import Any

from ..agents.base import make_agent
from ..engine import GameRecord, GameSpec, NemetonError, get_game
from ..engine.log import seat_ref, split_parts
from ..table import Table
from .db import RoomClosed, RoomRow, SeatRow, SeatTaken, StaleVersion, Store, closed_message, is_open
from . import observe
from .takeback import what_it_revealed

log = logging.getLogger("nemeton.server")

SYNC_INTERVAL = 1.0  # seconds between version checks where the database cannot announce changes
QUEUE_SIZE = 256  # messages waiting for one WebSocket client before it is resynchronised
MAX_FINISHED_ROOMS = 200  # finished rooms kept in memory (others are reloaded when asked for)
MAX_NAME = 24  # characters in a person's name: the longest keeps every game's table intact
EXPIRE_AFTER_DAYS = 14.0  # an unfinished room untouched this long is closed (nemeton serve --expire-after)
EXPIRY_INTERVAL = 3600.0  # seconds between two looks for expired rooms


# The names of AI seats given none: names, not numbers (a seat's number reads like the engine's index).
BOT_NAMES = ("Alder", "Birch", "Cedar", "Hazel", "Rowan", "Willow", "Yew", "Holly", "Ash", "Elm", "Oak", "Pine",
             "Beech", "Larch", "Maple", "Aspen")


def seat_name(seat: SeatRow) -> str:
    """The name a seat is shown by: its person's, an AI seat's own or a tree's, "Open seat"."""
    if seat.name:
        return seat.name
    if seat.kind == "ai":
        return f"{BOT_NAMES[seat.seat % len(BOT_NAMES)]} (AI)"
    return "Open seat" if seat.token_hash is None else f"Player {seat.seat + 1}"


def check_name(name: Any, what: str = "a name") -> str:
    """A person's name as typed: trimmed, 1 to MAX_NAME characters, no control characters."""
    if not isinstance(name, str):
        raise BadRequest(f"{what} must be text")
    name = " ".join(name.split())
    if not name:
        raise BadRequest(f"{what} may not be empty")
    if len(name) > MAX_NAME:
        raise BadRequest(f"{what} is at most {MAX_NAME} characters; got {len(name)}")
    if any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 or 0xD800 <= ord(c) < 0xE000 or 0xE000 <= ord(c) < 0xF900
           for c in name):
        raise BadRequest(f"{what} may not hold control or private-use characters")
    return name


class ServerError(Exception):
    """A request the server refuses: ``status`` is the HTTP status, the message says why."""

    status = 400

    def __init__(self, message: str, status: int | None = None):
        plain, parts = split_parts(message)  # seats named with seat_ref: parts a client renders by name
        super().__init__(plain)
        self.parts: list = parts
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


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(eq=False)  # compared and hashed by identity: kept in a set
class Subscriber:
    """One WebSocket client of a room: its seat (None = spectator), where its log stands,
    and the queue of messages waiting to be sent."""

    seat: int | None
    since: int = 0
    queue: "Outbox" = field(default_factory=lambda: Outbox(QUEUE_SIZE))


class Outbox(asyncio.Queue):
    """A client's messages waiting to be sent, at most ``maxsize``. A client that lags does
    not get a backlog of states: once the queue is full, every state and seats notice waiting
    gives way to one state (a resync, built by :meth:`Room.publish`) in the first one's place,
    so a state still comes before the answers that follow it. Answers (``ok``, ``error``) are
    never dropped: a client whose queue is full of them reads nothing and is closed
    (:func:`~nemeton.server.app.serve_socket`: code 4429)."""

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


class Room:
    """One game in memory, rebuilt from its stored record."""

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
        self._take_back: tuple[int, int, str | None] | None = None  # (version, seat, refusal): kept per version
        # what every seat knows of the game's components under its options (Edora: the board)
        self.components = self.spec.public_data(self.spec.options(**self.options))
        self.pending_since: dict[int, float] = {}  # people's seats waited for, since when
        self.timer: asyncio.Task | None = None
        self.lock = asyncio.Lock()
        self.subscribers: set[Subscriber] = set()
        self.driver: asyncio.Task | None = None
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
        self.table = Table(state, [None if self.closed else self.agent_for(s) for s in self.seats], keep_log=True)
        self.version = row.version

    def agent_for(self, seat: SeatRow) -> Any | None:
        """The agent playing ``seat`` (an AI seat's, or one standing in for its person), or
        None when its person plays it. Agents draw their seeds from ``secrets``."""
        spec = seat.agent if seat.kind == "ai" else seat.stand_in
        return None if spec is None else make_agent(spec, self.spec, seat.seat, secrets.randbits(64))

    # ----- who is asking ----------------------------------------------------------------
    def seat_of(self, token: str | None) -> int | None:
        """The seat whose token this is; None (the spectator) without a token; an unknown
        token is refused (every seat is compared, in constant time)."""
        if token is None:
            return None
        digest = hash_token(token)
        found = None
        for s in self.seats:
            if s.token_hash is not None and hmac.compare_digest(digest, s.token_hash):
                found = s.seat
        if found is None:
            raise Forbidden("unknown token for this room")
        return found

    # ----- what a seat sees ---------------------------------------------------------------
    @property
    def finished(self) -> bool:
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
            "to_move": list(state.acting()),
            "legal_actions": [a.to_json() for a in legal],
            "log": state.log(seat, since=min(since, state.log_length())),
            "finished": state.is_terminal(),
            "version": self.version,
            "moves": len(state.history),
            "stand_in": self.stand_in(seat),
            "seats": self.seat_info(),
            "undo": self.undo,
            "take_back": self.take_back_info(seat),
            "waiting": self.waiting,
            "open_seats": self.open_seats(),
            "listed": self.listed,
            "rematch": self.rematch,
        }

    def take_back_info(self, seat: int | None) -> dict[str, Any] | None:
        """Whether ``seat`` may take back its last action now and, if not, why (None for the
        spectator): the page offers the take-back only when the server would grant it."""
        if seat is None:
            return None
        reason = self.take_back_refusal(seat)
        if reason is None:
            return {"allowed": True, "reason": None, "parts": []}
        plain, parts = split_parts(reason, len(self.seats))
        return {"allowed": False, "reason": plain, "parts": parts}

    def seat_info(self) -> list[dict[str, Any]]:
        """Who sits where, for everyone: names, people or agents, stand-ins, who is connected."""
        connected = {sub.seat for sub in self.subscribers}
        return [{"seat": s.seat, "name": seat_name(s), "kind": s.kind, "agent": s.agent,
                 "stand_in": s.stand_in, "connected": s.kind == "ai" or s.seat in connected, "open": is_open(s)}
                for s in self.seats]

    def publish_seats(self) -> None:
        """Tell every watcher who sits where now (a client connected or left)."""
        message = {"type": "seats", "seats": self.seat_info()}
        for sub in list(self.subscribers):
            if not sub.queue.full():
                sub.queue.put_nowait(message)

    def stand_in(self, seat: int | None) -> dict[str, Any] | None:
        """The agent playing this person's seat for now, if any (``until_return``: put there
        by a turn timeout, it steps back as soon as the person returns)."""
        row = None if seat is None else self.seats[seat]
        if row is None or row.kind != "human" or row.stand_in is None:
            return None
        return {"agent": row.stand_in, "until_return": row.stand_in_auto}

    def take_back_refusal(self, seat: int) -> str | None:
        """Why ``seat`` may not take back its last action now, or None if it may (the replay
        it may need is done once per version of the room)."""
        state = self.table.state
        if not self.undo:
            return "this room was created without take-backs (\"undo\": true)"
        if state.is_terminal():
            return "the game is over"
        if not any(s == seat for s, _ in state.history):
            return "you have no action to take back"
        last, action = state.history[-1]
        if last != seat:
            return "another seat has acted since your last action"
        kept = self._take_back
        if kept is not None and kept[:2] == (self.version, seat):
            return kept[2]
        before = self.record(len(state.history) - 1).replay()
        reason = what_it_revealed(self.spec, before, state, seat, action)
        refusal = None if reason is None else f"your last action cannot be taken back: {reason}"
        self._take_back = (self.version, seat, refusal)
        return refusal

    def record(self, moves: int) -> GameRecord:
        """The room's record up to its first ``moves`` actions."""
        return GameRecord(self.spec.name, dict(self.options), self.seed, list(self.table.state.history[:moves]))

    def publish(self, resync: bool = False) -> None:
        """Queue every subscriber's news: its new view and the log entries it has not seen
        (called under the lock, right after a change is committed)."""
        length = self.table.state.log_length()
        for sub in list(self.subscribers):
            # resync: actions were taken back, or a client does not keep up (its waiting
            # states give way to this one, with the whole log: Outbox.put_state)
            if resync or sub.queue.full():
                message = {"type": "state", "resync": True, **self.snapshot(sub.seat)}
            else:
                message = {"type": "state", **self.snapshot(sub.seat, sub.since)}
            sub.since = length
            sub.queue.put_state(message)
        if self.table.over:  # the game is over: its agents' helper processes stop now
            from .agents import close_agents
            close_agents(self.table.seats)


def check_agent(agent: str, spec: GameSpec, seat: int) -> None:
    """A client's agent for a seat: one the server's operator offers, by name (the policy of
    nemeton.server.agents), that can play this game."""
    from .agents import active
    try:
        active().check(agent, spec, seat)
    except NemetonError as exc:
        raise BadRequest(f"{seat_ref(seat)}: {marked(exc)}") from None


def timeout_agent(spec: GameSpec) -> str:
    """The agent that plays a seat whose time ran out: the game's heuristic, else random."""
    try:
        make_agent("heuristic", spec, 0, 0)
        return "heuristic"
    except NemetonError:
        return "random"


class Rooms:
    """Every room of one server, backed by one :class:`Store`."""

    def __init__(self, store: Store, agent_threads: int = 4, sync_interval: float = SYNC_INTERVAL,
                 agents: Any = None, expire_after: float | None = None,
                 expiry_interval: float = EXPIRY_INTERVAL):
        from .agents import AgentPolicy, install
        self.agent_policy = install(AgentPolicy.of(agents))  # the agents clients may name
        self._shown_options: dict[str, dict[str, Any] | None] = {}  # room id -> options as the lobby shows them
        self.store = store
        self.rooms: dict[str, Room] = {}
        self.agents = ThreadPoolExecutor(max_workers=agent_threads, thread_name_prefix="nemeton-agent")
        self._loading: dict[str, asyncio.Lock] = {}
        self.sync_interval = sync_interval
        self._follower: asyncio.Task | None = None
        self._catching_up: set[asyncio.Task] = set()
        self._stop_listening = threading.Event()
        self.expire_after = expire_after  # days an unfinished room may stay untouched (None or 0: for ever)
        self.expiry_interval = expiry_interval
        self._expiry: asyncio.Task | None = None

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
                self.watch(room)
            self.kick(room)
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
        self.agents.shutdown(wait=True, cancel_futures=True)
        from ..agents import parallel
        from .agents import close_agents
        for room in self.rooms.values():  # no search helper outlives the server
            close_agents(room.table.seats)
        parallel.close_all()
        parallel.set_start_method(None)  # this process serves no more

    # ----- rooms ------------------------------------------------------------------------
    async def create(self, game: str, options: dict[str, Any], seats: list[dict[str, Any]],
                     undo: bool = False, turn_timeout_s: float | None = None,
                     listed: bool = True) -> dict[str, Any]:
        """A new room: options checked by the game, agent specs by ``make_agent``, a secret
        seed; returns its id, one token per person's seat and the creator's token (who may
        hand an absent person's seat to an agent and back), all stored hashed. An open seat
        (``{"kind": "open"}``) gets no token: anyone may take it (:meth:`join`), and the game
        waits until every seat is taken. An unlisted room (``listed=False``) is never shown
        in the lobby: only its links lead to it."""
        try:
            spec = get_game(game)
            raw = dict(options)
            raw.setdefault("players", len(seats))
            checked = await asyncio.to_thread(spec.options, **raw)  # rules data (a board) parsed off the loop
        except NemetonError as exc:
            raise BadRequest(str(exc)) from None
        if len(seats) != checked.players:
            raise BadRequest(f"a game of {checked.players} players needs {checked.players} seats; got {len(seats)}")
        rows, tokens = [], []
        for i, seat in enumerate(seats):
            if seat["kind"] == "ai":
                if not seat.get("agent"):
                    raise BadRequest(f"{seat_ref(i)} is an AI seat and needs an agent spec (e.g. 'heuristic')")
                check_agent(seat["agent"], spec, i)
                rows.append(SeatRow(i, "ai", seat.get("name"), seat["agent"], None))
            else:
                if seat.get("agent"):
                    raise BadRequest(f"{seat_ref(i)} is a person's seat and takes no agent; "
                                     "an AI seat is {\"kind\": \"ai\", \"agent\": ...}")
                if seat["kind"] == "open":
                    if seat.get("name"):
                        raise BadRequest(f"{seat_ref(i)} is open: whoever takes it gives their name")
                    rows.append(SeatRow(i, "human", None, None, None))
                    continue
                name = check_name(seat["name"], f"{seat_ref(i)}'s name") if seat.get("name") else f"Player {i + 1}"
                token = secrets.token_urlsafe(24)
                rows.append(SeatRow(i, "human", name, None, hash_token(token)))
                tokens.append({"seat": i, "token": token})
        room_id = secrets.token_urlsafe(9)
        seed = secrets.randbits(64)
        creator = secrets.token_urlsafe(24)
        await asyncio.to_thread(self.store.create_room, room_id, spec.name, spec.rules_version,
                                checked.to_json(), seed, rows, undo, hash_token(creator), turn_timeout_s, listed)
        room = await self.get(room_id)
        observe.room_created(self, room_id, spec.name, started=not room.waiting, seats=len(rows), listed=listed)
        async with room.lock:
            self.watch(room)
        self.kick(room)
        return {"room": room_id, "seats": tokens, "creator": creator}

    async def get(self, room_id: str) -> Room:
        room = self.rooms.get(room_id)
        if room is not None:
            if room.closed is not None:  # closed meanwhile (another process's change, read back)
                self._evict(room)
                raise Gone(closed_message(room.closed))
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
                    raise Gone(closed_message(row.closed_reason))
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
                if r.finished and not r.subscribers and not r.lock.locked()
                and all(task is None or task.done() for task in (r.driver, r.timer))]
        for room in sorted(idle, key=lambda r: r.last_used)[:max(0, len(idle) - MAX_FINISHED_ROOMS)]:
            del self.rooms[room.id]

    async def lobby(self, limit: int = 100) -> list[dict[str, Any]]:
        """The newest rooms, read from the database (no game is replayed for it)."""
        return [self.summary(row) for row in await asyncio.to_thread(self.store.list_rooms, limit)]

    def summary(self, row: RoomRow) -> dict[str, Any]:
        """A room for a lobby: nothing hidden (data options shown by content hash). An open
        seat is a person's seat nobody has taken yet (anyone may, while the room waits)."""
        room = self.rooms.get(row.id)
        connected = {sub.seat for sub in room.subscribers} if room is not None else set()
        options = self._shown_options.get(row.id, False)
        if options is False:  # a room's options never change: shown from the stored JSON, once
            from .catalogue import display_stored_options
            try:
                options = display_stored_options(row.game, row.options)
            except NemetonError:
                options = None
            if len(self._shown_options) >= 10_000:
                self._shown_options.clear()
            self._shown_options[row.id] = options
        return {
            "room": row.id, "game": row.game, "options": options, "players": len(row.seats),
            "seats": [{"seat": s.seat, "kind": s.kind, "name": seat_name(s), "agent": s.agent, "stand_in": s.stand_in,
                       "connected": s.seat in connected, "open": is_open(s)} for s in row.seats],
            "open_seats": [s.seat for s in row.seats if is_open(s)],
            "status": row.status, "version": row.version, "listed": row.listed,
            "created_at": row.created_at.isoformat() if row.created_at else None,
        }

    # ----- playing ----------------------------------------------------------------------
    async def view(self, room_id: str, token: str | None, since: int = 0) -> dict[str, Any]:
        room = await self.get(room_id)
        async with room.lock:
            return room.snapshot(room.seat_of(token), since)

    async def act(self, room_id: str, token: str, action_json: Any, version: int | None = None,
                  since: int = 0, snapshot: bool = True) -> dict[str, Any]:
        """A person's action: checked, applied, committed, then answered and pushed. The answer
        is the seat's new snapshot, or only ``{"version": V}`` without ``snapshot`` (for a
        WebSocket client, which is pushed the snapshot anyway)."""
        room = await self.get(room_id)
        async with room.lock:
            try:
                answer = await self._act(room, token, action_json, version, since, snapshot)
            except (Conflict, BadRequest):
                # Another server process sharing the database may have moved this room on: a
                # refusal re-reads it, so this process does not go on serving an old state.
                await self._resync(room)
                raise
        self.kick(room)
        return answer

    async def _resync(self, room: Room) -> None:
        """Under the lock: catch up with what another process stored, and tell the watchers
        (the whole log again if actions were taken back there)."""
        row = await asyncio.to_thread(self.store.load_room, room.id)
        if row is not None and row.version != room.version:
            await self._rebuild(room, row)

    async def _rebuild(self, room: Room, row: RoomRow, shown: int | None = None) -> None:
        """Under the lock: the room as stored in ``row``, its watchers told (the whole log
        again if the database holds fewer actions than the ``shown`` ones they know of)."""
        shown = len(room.table.state.history) if shown is None else shown
        await asyncio.to_thread(room.rebuild, row)
        room.publish(resync=len(row.actions) < shown)

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
        if room_id and (room is None or room.version >= version):
            return  # not loaded here, or this process's own change
        task = asyncio.get_running_loop().create_task(self._poll() if not room_id else self._catch_up(room))
        self._catching_up.add(task)
        task.add_done_callback(self._catching_up.discard)

    async def _poll(self) -> None:
        loaded = [room_id for room_id, room in self.rooms.items() if not room.finished]
        if not loaded:
            return
        for room_id, version in (await asyncio.to_thread(self.store.versions, loaded)).items():
            room = self.rooms.get(room_id)
            if room is not None and version > room.version:
                await self._catch_up(room)

    async def _catch_up(self, room: Room) -> None:
        try:
            async with room.lock:
                await self._resync(room)
                self.watch(room)
            self.kick(room)
        except Exception:
            log.exception("room %s could not catch up with the database", room.id)

    async def _act(self, room: Room, token: str, action_json: Any, version: int | None,
                   since: int, snapshot: bool = True) -> dict[str, Any]:
        """The body of :meth:`act`, under the room's lock."""
        seat = room.seat_of(token)
        if seat is None:
            raise Forbidden("a token is needed to act")
        if version is not None and version != room.version:
            observe.stale(self, "client_version")
            raise Conflict(f"stale version {version}: the room is at version {room.version}; "
                           "fetch the view again")
        state = room.table.state
        if state.is_terminal():
            raise Conflict("the game is over; no action is legal")
        if room.waiting:
            raise Conflict(f"the game starts when every seat is taken; open: "
                           f"{', '.join(seat_ref(s) for s in room.open_seats())}")
        await self.returns(room, seat)
        if room.table.seats[seat] is not None:
            raise Conflict(f"your seat is played by {room.seats[seat].stand_in} for now; "
                           "the room's creator can hand it back to you")
        if seat not in state.acting():
            raise Conflict(f"not your turn: waiting for {', '.join(seat_ref(s) for s in state.acting()) or 'nobody'}")
        try:
            action = room.spec.action_from_json(action_json, room.table.state.options)
            room.table.submit(seat, action)
        except NemetonError as exc:
            raise BadRequest(f"illegal action: {marked(exc)}") from None
        await self._commit(room, [(seat, action)])
        if room.undo:  # whether it can be taken back (a replay) is found on a thread, then kept
            await asyncio.to_thread(room.take_back_refusal, seat)
        room.publish()
        self.watch(room)
        return room.snapshot(seat, since) if snapshot else {"version": room.version}

    async def take_back(self, room_id: str, token: str, version: int | None = None,
                        since: int = 0) -> dict[str, Any]:
        """A person takes back their last action (in a room made with ``undo``), if no other
        seat has acted since and it revealed nothing to anyone; the room is rebuilt from its
        record without it."""
        room = await self.get(room_id)
        async with room.lock:
            seat = room.seat_of(token)
            if seat is None:
                raise Forbidden("a token is needed to take back an action")
            if version is not None and version != room.version:
                observe.stale(self, "client_version")
                raise Conflict(f"stale version {version}: the room is at version {room.version}; "
                               "fetch the view again")
            refusal = await asyncio.to_thread(room.take_back_refusal, seat)
            if refusal is not None:
                raise Conflict(refusal)
            moves = len(room.table.state.history) - 1
            try:
                await asyncio.to_thread(self.store.take_back, room.id, room.version, moves)
            except StaleVersion:
                observe.stale(self, "lost_race")
                raise Conflict("stale version: the room changed meanwhile; fetch the view again") from None
            finally:  # rebuilt from what the database holds, whatever happened
                row = await asyncio.to_thread(self.store.load_room, room.id)
                await asyncio.to_thread(room.rebuild, row)
            observe.room_event(self, "take-back", room, seat=seat, moves=len(room.table.state.history))
            room.publish(resync=True)
            self.watch(room)
            answer = room.snapshot(seat, since)
        self.kick(room)
        return answer

    async def hand_seat(self, room_id: str, token: str, seat: int, agent: str | None) -> dict[str, Any]:
        """The creator hands a person's seat to ``agent`` (None: back to the person)."""
        room = await self.get(room_id)
        async with room.lock:
            if room.creator_hash is None or not hmac.compare_digest(hash_token(token), room.creator_hash):
                raise Forbidden("only the room's creator (with the creator token) may hand seats over")
            if not (0 <= seat < len(room.seats)) or room.seats[seat].kind != "human":
                people = [s.seat for s in room.seats if s.kind == "human"]
                raise BadRequest(f"{seat_ref(seat)} is not a person's seat; people's seats: {', '.join(map(seat_ref, people))}")
            if room.finished:
                raise Conflict("the game is over")
            if agent is not None:
                check_agent(agent, room.spec, seat)
            row = room.seats[seat]
            if (row.stand_in, row.stand_in_auto) != (agent, False):
                await self._stand_in(room, seat, agent, auto=False)
                room.publish()
                self.watch(room)
            answer = {"seat": seat, "stand_in": agent, "version": room.version}
        self.kick(room)
        return answer

    async def join(self, room_id: str, seat: int, name: str) -> dict[str, Any]:
        """Anyone takes an open seat of a waiting room with their name; returns the seat's
        secret token. Two people asking for one seat at once: the first gets it, the other a
        409 that says who took it. The game starts when the last open seat is taken."""
        name = check_name(name, "your name")
        room = await self.get(room_id)
        async with room.lock:
            if not 0 <= seat < len(room.seats):
                raise BadRequest(f"no seat {seat}: this game has seats 0 to {len(room.seats) - 1}")
            row = room.seats[seat]
            if row.kind != "human":
                raise Conflict("this seat is the AI's")
            if not is_open(row):
                raise Conflict(self._taken(room, seat))
            token = secrets.token_urlsafe(24)
            try:
                room.version, status = await asyncio.to_thread(
                    self.store.claim_seat, room.id, room.version, seat, name, hash_token(token))
            except (SeatTaken, StaleVersion):  # another process took it (or changed the room) first
                observe.stale(self, "lost_race")
                await self._resync(room)
                raise Conflict(self._taken(room, seat) if not is_open(room.seats[seat])
                               else "the room changed meanwhile; try again") from None
            row.name, row.token_hash = name, hash_token(token)
            observe.joined(self, room, seat, started=status == "playing")
            room.publish()
            self.watch(room)
            answer = {"room": room.id, "seat": seat, "token": token, "version": room.version,
                      "started": status == "playing"}
        self.kick(room)
        return answer

    @staticmethod
    def _taken(room: Room, seat: int) -> str:
        row = room.seats[seat]
        others = room.open_seats()
        rest = f"; open seats: {', '.join(seat_ref(s) for s in others)}" if others else "; no seat is open now"
        return f"{row.name or 'somebody'} has taken this seat{rest}"

    async def leave(self, room_id: str, token: str) -> dict[str, Any]:
        """A person leaves the seat they took, before the game starts: it is open again and
        their token no longer works."""
        room = await self.get(room_id)
        async with room.lock:
            seat = room.seat_of(token)
            if seat is None:
                raise Forbidden("a seat's token is needed to leave it")
            if room.finished or not room.waiting:
                raise Conflict("the game has started: a seat can no longer be left (the room's creator "
                               "can hand it to the AI)")
            try:
                room.version = await asyncio.to_thread(self.store.release_seat, room.id, room.version, seat)
            except StaleVersion:
                observe.stale(self, "lost_race")
                await self._resync(room)
                raise Conflict("the room changed meanwhile; try again") from None
            row = room.seats[seat]
            row.name, row.token_hash = None, None
            observe.room_event(self, "seat left", room, seat=seat)
            room.publish()
            return {"room": room.id, "seat": seat, "version": room.version}

    async def info(self, room_id: str) -> dict[str, Any]:
        """A room's public description (as in the lobby), with its take-back and timeout settings."""
        room = await self.get(room_id)
        row = await asyncio.to_thread(self.store.load_room, room_id)
        return {**self.summary(row), "undo": room.undo, "turn_timeout_s": room.turn_timeout, "rematch": room.rematch,
                "moves": len(row.actions), "components": room.components}

    async def replay(self, room_id: str, seat: int | None, step: int | None,
                     token: str | None = None) -> dict[str, Any]:
        """The game as ``seat`` (None: the spectator) saw it after ``step`` actions (None: the
        latest): its view, log and who was to act. A finished game's replay is open to all,
        as any seat; while the game is on, the spectator's replay of the moves so far is open
        to all and a seat's needs that seat's token."""
        room = await self.get(room_id)
        async with room.lock:
            finished = room.finished
            history = list(room.table.state.history)
            holder = room.seat_of(token) if token is not None else None
        if seat is not None and not 0 <= seat < len(room.seats):
            raise BadRequest(f"no seat {seat}: seats are 0 to {len(room.seats) - 1}, or none for the spectator")
        if not finished and seat is not None and holder != seat:
            raise Forbidden("while the game is on, a seat's replay is shown only to that seat (with its token); "
                            "the spectator's replay of the moves so far is open to all")
        step = len(history) if step is None else step
        if not 0 <= step <= len(history):
            raise BadRequest(f"no step {step}: this game has steps 0 to {len(history)}")

        def rebuild() -> dict[str, Any]:
            state = GameRecord(room.spec.name, dict(room.options), room.seed, history[:step]).replay()
            return {"steps": len(history), "step": step, "seat": seat, "view": state.view(seat), "over": finished,
                    "to_move": list(state.acting()), "log": state.log(seat), "finished": state.is_terminal(),
                    "seats": room.seat_info(), "last": None if step == 0 else history[step - 1][0]}
        return await asyncio.to_thread(rebuild)

    async def rematch_room(self, room_id: str, token: str) -> dict[str, Any]:
        """The creator asks for a rematch of a finished game: a new room with the same game,
        options and seats, where every person keeps their token. Asked twice, the same room."""
        room = await self.get(room_id)
        async with room.lock:
            if room.creator_hash is None or not hmac.compare_digest(hash_token(token), room.creator_hash):
                raise Forbidden("only the room's creator (with the creator token) may ask for a rematch")
            if not room.finished:
                raise Conflict("a rematch can be asked for once the game has ended")
            if room.rematch is None:
                new_id = secrets.token_urlsafe(9)
                rows = [SeatRow(s.seat, s.kind, s.name, s.agent, s.token_hash) for s in room.seats]
                await asyncio.to_thread(self.store.create_room, new_id, room.spec.name, room.spec.rules_version,
                                        dict(room.options), secrets.randbits(64), rows, room.undo,
                                        room.creator_hash, room.turn_timeout, room.listed)
                room.rematch = await asyncio.to_thread(self.store.set_rematch, room.id, new_id)
                observe.room_created(self, new_id, room.spec.name, started=True, seats=len(rows), rematch_of=room.id)
                room.publish()
            rematch = room.rematch
        new_room = await self.get(rematch)
        async with new_room.lock:
            self.watch(new_room)
        self.kick(new_room)
        return {"room": rematch}

    async def record(self, room_id: str) -> dict[str, Any]:
        room = await self.get(room_id)
        async with room.lock:
            if not room.finished:
                raise Forbidden("the record (with its seed) is available once the game has ended")
            return room.table.state.record().to_json()

    async def _commit(self, room: Room, new: list[tuple[int, Any]]) -> None:
        """Store actions already applied to the room's table; if that fails, rebuild the room
        from the database (memory never runs ahead of it) and refuse."""
        base = room.version
        first = len(room.table.state.history) - len(new)
        try:
            room.version = await asyncio.to_thread(
                self.store.append_actions, room.id, base, first, [(s, a.to_json()) for s, a in new], room.finished,
                [] if room.finished else list(room.table.state.acting()))
        except BaseException as exc:
            row = await asyncio.to_thread(self.store.load_room, room.id)
            await self._rebuild(room, row, shown=first)  # the table ran ahead of the database
            if isinstance(exc, RoomClosed):
                raise Gone(str(exc)) from None
            if isinstance(exc, StaleVersion):
                observe.stale(self, "lost_race")
                raise Conflict("stale version: the room changed meanwhile; fetch the view again") from None
            raise
        observe.applied(self, room, len(new))

    # ----- turn timeouts and returning people -------------------------------------------
    def watch(self, room: Room) -> None:
        """After a change (under the lock): note since when each person's seat has been
        waited for, and set the room's timer for the first one whose time runs out."""
        if room.turn_timeout is None:
            return
        loop = asyncio.get_running_loop()
        now = loop.time()
        waiting = [] if room.finished or room.waiting else room.table.pending()
        room.pending_since = {s: room.pending_since.get(s, now) for s in waiting}
        if room.timer is not None and room.timer is not asyncio.current_task():
            room.timer.cancel()
        room.timer = None
        if room.pending_since:
            due = min(room.pending_since.values()) + room.turn_timeout - now
            room.timer = loop.create_task(self._time_out(room, room.version, due))

    async def _time_out(self, room: Room, version: int, delay: float) -> None:
        """Hand the seats whose time ran out to the heuristic, until their people return."""
        await asyncio.sleep(max(0.0, delay))
        try:
            async with room.lock:
                if room.version != version or room.finished:
                    return  # the room changed: a newer timer is set
                now = asyncio.get_running_loop().time()
                for seat, since in sorted(room.pending_since.items()):
                    row = room.seats[seat]
                    if now - since >= room.turn_timeout and row.stand_in is None:
                        await self._stand_in(room, seat, timeout_agent(room.spec), auto=True)
                room.publish()
                self.watch(room)
            self.kick(room)
        except Exception:
            log.exception("the turn timer of room %s failed", room.id)

    async def _stand_in(self, room: Room, seat: int, agent: str | None, auto: bool) -> None:
        """Under the lock: ``agent`` plays ``seat`` from now (None: its person), stored first."""
        try:
            room.version = await asyncio.to_thread(self.store.set_stand_in, room.id, room.version, seat, agent, auto)
        except StaleVersion:  # another process changed the room: catch up, and refuse
            observe.stale(self, "lost_race")
            await asyncio.to_thread(room.rebuild, await asyncio.to_thread(self.store.load_room, room.id))
            raise Conflict("stale version: the room changed meanwhile; fetch the view again") from None
        row = room.seats[seat]
        row.stand_in, row.stand_in_auto = agent, auto and agent is not None
        observe.room_event(self, "stand-in", room, seat=seat, agent=agent, auto=auto)
        room.table.replace_seat(seat, room.agent_for(row))

    async def returns(self, room: Room, seat: int) -> bool:
        """Under the lock: a person is back; the stand-in a timeout put on their seat steps
        back (one the creator put there stays). True if something changed."""
        if not room.seats[seat].stand_in_auto:
            return False
        await self._stand_in(room, seat, None, auto=False)
        room.pending_since.pop(seat, None)
        room.publish()
        self.watch(room)
        return True

    async def come_back(self, room_id: str, token: str, since: int = 0) -> dict[str, Any]:
        """A person says they are back (their seat was played after a turn timeout)."""
        room = await self.get(room_id)
        async with room.lock:
            seat = room.seat_of(token)
            if seat is None:
                raise Forbidden("a token is needed to come back to a seat")
            await self.returns(room, seat)
            answer = room.snapshot(seat, since)
        self.kick(room)
        return answer

    # ----- agents -----------------------------------------------------------------------
    def kick(self, room: Room) -> None:
        """Make sure the room's agents move if one of them is to act."""
        if room.finished:
            self.forget_finished()
            return
        if room.waiting or room.closed:  # nothing is played until every seat is taken, nor once closed
            return
        if room.driver is None or room.driver.done():
            room.driver = asyncio.get_running_loop().create_task(self._drive(room))

    async def _drive(self, room: Room) -> None:
        """Move the room's agents one decision at a time: the decision is prepared under the
        lock, computed on a worker thread without it (people keep reading and, where several
        seats act at once, acting), then applied and committed under the lock, unless the
        game moved on meanwhile (then the agent is asked again)."""
        loop = asyncio.get_running_loop()
        try:
            while True:
                async with room.lock:
                    table = room.table
                    if table.over:
                        return
                    turn = table.ask_agent()
                    if turn is None:
                        return
                action = await loop.run_in_executor(self.agents, observe.timed(self, room, turn.decide))
                async with room.lock:
                    if room.table is not table or not table.play_agent(turn, action):
                        continue
                    try:
                        await self._commit(room, [(turn.seat, action)])
                    except Conflict:  # another process moved the room on: it is rebuilt, ask again
                        observe.retry(self, "agent_move")
                        continue
                    room.publish()
                    self.watch(room)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the agents of room %s stopped", room.id)

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

    def _evict(self, room: Room) -> None:
        """A closed room leaves memory: its agents and turn timer stop, its watchers are told."""
        if self.rooms.get(room.id) is room:
            del self.rooms[room.id]
        for task in (room.driver, room.timer):
            if task is not None and not task.done() and task is not asyncio.current_task():
                task.cancel()
        from .agents import close_agents
        close_agents(room.table.seats)
        note = {"type": "error", "status": 410, "message": closed_message(room.closed), "parts": []}
        for sub in list(room.subscribers):
            if not sub.queue.full():
                sub.queue.put_nowait(note)
