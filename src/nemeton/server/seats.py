"""Rooms and seats: creating rooms, seat tokens, open seats taken and left, names and the lobby.

A room is created with its seats: a person's seat gets a secret token (returned once, stored
hashed), an AI seat one of the agents the operator offers (:mod:`.ai_seats`), an open seat
nothing until somebody takes it with a name (:meth:`Seats.join`); the game waits until every
seat is taken. Two people asking for one seat: the database's conditional update decides
(:meth:`~nemeton.server.db.Store.claim_seat`), across server processes too. The lobby and a
room's public description are read from the database, with nothing hidden in them.

:class:`Seats` is one part of :class:`~nemeton.server.rooms.Rooms` (``rooms.seats``): it loads
rooms through it and, after a change, lets the AI seats part (``rooms.ai``) set timers and move.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from ..i18n import msg, seat as seat_arg
from ..engine import NemetonError, get_game
from ..engine.log import seat_ref
from . import observe
from .ai_seats import check_agent
from .db import RoomRow, SeatRow, SeatTaken, StaleVersion, is_open
from .errors import BadRequest, Conflict, Forbidden

if TYPE_CHECKING:
    from .rooms import Room, Rooms

MAX_NAME = 24  # characters in a person's name: the longest keeps every game's table intact

# The names of AI seats given none: names, not numbers (a seat's number reads like the engine's index).
BOT_NAMES = ("Alder", "Birch", "Cedar", "Hazel", "Rowan", "Willow", "Yew", "Holly", "Ash", "Elm", "Oak", "Pine",
             "Beech", "Larch", "Maple", "Aspen")


def seat_name(seat: SeatRow) -> str:
    """The name a seat is shown by: its person's, an AI seat's own or a tree's, "Open seat"."""
    if seat.name:
        return seat.name
    if seat.kind == "ai":
        return f"{BOT_NAMES[seat.seat % len(BOT_NAMES)]} (AI)"
    return "Open seat" if seat.token_hash is None else default_player_name(seat.seat)


def seat_name_msg(seat: SeatRow) -> dict[str, Any] | None:
    """The name :func:`seat_name` gives as a message a client shows in its reader's language,
    when the server made that name up: an AI seat's tree (``nemeton.seat_name.ai``, the tree's
    name an argument), an open seat (``nemeton.seat_name.open``), a person's seat created
    without a name (``nemeton.seat_name.player``: "Player 2" as stored). None for a name
    somebody gave (it is shown as written)."""
    if seat.name:
        if seat.kind == "human" and seat.name == default_player_name(seat.seat):
            return msg("nemeton.seat_name.player", n=seat.seat + 1)
        return None
    if seat.kind == "ai":
        return msg("nemeton.seat_name.ai", name=BOT_NAMES[seat.seat % len(BOT_NAMES)])
    if seat.token_hash is None:
        return msg("nemeton.seat_name.open")
    return msg("nemeton.seat_name.player", n=seat.seat + 1)


def default_player_name(seat: int) -> str:
    """A person's seat created without a name is stored with this one ("Player 2")."""
    return f"Player {seat + 1}"


def seat_names(seat: SeatRow) -> dict[str, Any]:
    """A seat's ``name`` (English, for bots and older clients) and, when the server made the
    name up, its ``name_msg`` (:func:`seat_name_msg`)."""
    out: dict[str, Any] = {"name": seat_name(seat)}
    message = seat_name_msg(seat)
    if message is not None:
        out["name_msg"] = message
    return out


class BadName(BadRequest):
    """A name the server will not show: 422, as any other invalid field of a request, on every
    endpoint that takes one (creating a room, taking an open seat)."""
    status = 422


def check_name(name: Any, what: str = "a name") -> str:
    """A person's name as typed: trimmed, 1 to MAX_NAME characters, no control characters."""
    if not isinstance(name, str):
        raise BadName(f"{what} must be text")
    name = " ".join(name.split())
    if not name:
        raise BadName(f"{what} may not be empty", msg=msg("nemeton.error.name_empty"))
    if len(name) > MAX_NAME:
        raise BadName(f"{what} is at most {MAX_NAME} characters; got {len(name)}",
                      msg=msg("nemeton.error.name_long", count=MAX_NAME))
    if any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 or 0xD800 <= ord(c) < 0xE000 or 0xE000 <= ord(c) < 0xF900
           for c in name):
        raise BadName(f"{what} may not hold control or private-use characters", msg=msg("nemeton.error.name_chars"))
    return name


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def seat_of(seats: list[SeatRow], token: str | None) -> int | None:
    """The seat whose token this is; None (the spectator) without a token; an unknown token
    is refused (every seat is compared, in constant time)."""
    if token is None:
        return None
    digest = hash_token(token)
    found = None
    for s in seats:
        if s.token_hash is not None and hmac.compare_digest(digest, s.token_hash):
            found = s.seat
    if found is None:
        raise Forbidden("unknown token for this room", msg=msg("nemeton.error.unknown_token"))
    return found


def is_creator(creator_hash: str | None, token: str) -> bool:
    """Whether ``token`` is the room's creator token (compared in constant time)."""
    return creator_hash is not None and hmac.compare_digest(hash_token(token), creator_hash)


def seat_info(seats: list[SeatRow], connected: set[int | None]) -> list[dict[str, Any]]:
    """Who sits where, for everyone: names, people or agents, stand-ins, who is connected."""
    return [{"seat": s.seat, **seat_names(s), "kind": s.kind, "agent": s.agent,
             "stand_in": s.stand_in, "connected": s.kind == "ai" or s.seat in connected, "open": is_open(s)}
            for s in seats]


def taken_msg(room: Room, seat_: int) -> dict[str, Any]:
    """:func:`taken_message` as a message."""
    others = [seat_arg(s) for s in room.open_seats()]
    name = room.seats[seat_].name or msg("nemeton.error.somebody")
    if others:
        return msg("nemeton.error.seat_taken", name=name, seats=others)
    return msg("nemeton.error.seat_taken_none_open", name=name)


def taken_message(room: Room, seat: int) -> str:
    """Why an open seat cannot be taken: who took it, and which seats are still open."""
    row = room.seats[seat]
    others = room.open_seats()
    rest = f"; open seats: {', '.join(seat_ref(s) for s in others)}" if others else "; no seat is open now"
    return f"{row.name or 'somebody'} has taken this seat{rest}"


def seat_rows(spec: Any, seats: list[dict[str, Any]], options: Any = None) -> tuple[list[SeatRow], list[dict[str, Any]]]:
    """A new room's seats as stored, and the tokens of its people's seats (checked: an AI
    seat names an offered agent, a person's seat none, an open seat no name)."""
    rows, tokens = [], []
    for i, seat in enumerate(seats):
        if seat["kind"] == "ai":
            if not seat.get("agent"):
                raise BadRequest(f"{seat_ref(i)} is an AI seat and needs an agent spec (e.g. 'heuristic')")
            check_agent(seat["agent"], spec, i, options)
            rows.append(SeatRow(i, "ai", seat.get("name"), seat["agent"], None))
            continue
        if seat.get("agent"):
            raise BadRequest(f"{seat_ref(i)} is a person's seat and takes no agent; "
                             "an AI seat is {\"kind\": \"ai\", \"agent\": ...}")
        if seat["kind"] == "open":
            if seat.get("name"):
                raise BadRequest(f"{seat_ref(i)} is open: whoever takes it gives their name")
            rows.append(SeatRow(i, "human", None, None, None))
            continue
        name = check_name(seat["name"], f"{seat_ref(i)}'s name") if seat.get("name") else default_player_name(i)
        token = secrets.token_urlsafe(24)
        rows.append(SeatRow(i, "human", name, None, hash_token(token)))
        tokens.append({"seat": i, "token": token})
    return rows, tokens


def default_hints(rows: list[SeatRow]) -> bool:
    """Whether a room allows hints when its creator does not say: when at most one seat is a
    person's (everyone else is an AI). Two people may share one device (hotseat) or play from
    their own links (online): the server cannot tell, so hints are then off unless the creator
    turns them on (the lobby does for a hotseat room)."""
    return sum(1 for r in rows if r.kind == "human") <= 1


class Seats:
    """Creating rooms (and rematches), taking and leaving open seats, the lobby."""

    def __init__(self, server: Rooms):
        self.server = server
        self._shown_options: dict[str, dict[str, Any] | None] = {}  # room id -> options as the lobby shows them

    async def create(self, game: str, options: dict[str, Any], seats: list[dict[str, Any]],
                     undo: bool = False, turn_timeout_s: float | None = None,
                     listed: bool = True, hints: bool | None = None) -> dict[str, Any]:
        """A new room: options checked by the game, agent specs by ``make_agent``, a secret
        seed; returns its id, one token per person's seat and the creator's token (who may
        hand an absent person's seat to an agent and back), all stored hashed. An open seat
        (``{"kind": "open"}``) gets no token: anyone may take it (:meth:`join`), and the game
        waits until every seat is taken. An unlisted room (``listed=False``) is never shown
        in the lobby: only its links lead to it. ``hints``: whether its people may ask the
        search for hints (None: :func:`default_hints`)."""
        server = self.server
        try:
            spec = get_game(game)
            raw = dict(options)
            raw.setdefault("players", len(seats))
            checked = await asyncio.to_thread(spec.options, **raw)  # rules data (a board) parsed off the loop
        except NemetonError as exc:
            raise BadRequest(str(exc), msg=exc.msg) from None
        if len(seats) != checked.players:
            raise BadRequest(f"a game of {checked.players} players needs {checked.players} seats; got {len(seats)}",
                             msg=msg("nemeton.error.seat_count", players=checked.players, seats=len(seats)))
        rows, tokens = seat_rows(spec, seats, checked)
        if hints is None:
            hints = default_hints(rows)
        room_id = secrets.token_urlsafe(9)
        seed = secrets.randbits(64)
        creator = secrets.token_urlsafe(24)
        await asyncio.to_thread(server.store.create_room, room_id, spec.name, spec.rules_version,
                                checked.to_json(), seed, rows, undo, hash_token(creator), turn_timeout_s, listed,
                                hints)
        room = await server.get(room_id)
        observe.room_created(server, room_id, spec.name, started=not room.waiting, seats=len(rows), listed=listed)
        async with room.lock:
            server.ai.watch(room)
        server.ai.kick(room)
        return {"room": room_id, "seats": tokens, "creator": creator}

    async def join(self, room_id: str, seat: int, name: str) -> dict[str, Any]:
        """Anyone takes an open seat of a waiting room with their name; returns the seat's
        secret token. Two people asking for one seat at once: the first gets it, the other a
        409 that says who took it. The game starts when the last open seat is taken."""
        server = self.server
        name = check_name(name, "your name")
        room = await server.get(room_id)
        async with room.lock:
            if not 0 <= seat < len(room.seats):
                raise BadRequest(f"no seat {seat}: this game has seats 0 to {len(room.seats) - 1}")
            row = room.seats[seat]
            if row.kind != "human":
                raise Conflict("this seat is the AI's", msg=msg("nemeton.error.seat_ai"))
            if not is_open(row):
                raise Conflict(taken_message(room, seat), msg=taken_msg(room, seat))
            token = secrets.token_urlsafe(24)
            try:
                room.version, status = await asyncio.to_thread(
                    server.store.claim_seat, room.id, room.version, seat, name, hash_token(token))
            except (SeatTaken, StaleVersion):  # another process took it (or changed the room) first
                observe.stale(server, "lost_race")
                await server.turns.resync(room)
                raise Conflict(taken_message(room, seat) if not is_open(room.seats[seat])
                               else "the room changed meanwhile; try again") from None
            row.name, row.token_hash = name, hash_token(token)
            observe.joined(server, room, seat, started=status == "playing")
            room.publish()
            server.ai.watch(room)
            answer = {"room": room.id, "seat": seat, "token": token, "version": room.version,
                      "started": status == "playing"}
        server.ai.kick(room)
        return answer

    async def leave(self, room_id: str, token: str) -> dict[str, Any]:
        """A person leaves the seat they took, before the game starts: it is open again and
        their token no longer works."""
        server = self.server
        room = await server.get(room_id)
        async with room.lock:
            seat = room.person_of(token, "a seat's token is needed to leave it")
            if room.terminal or not room.waiting:
                raise Conflict("the game has started: a seat can no longer be left (the room's creator "
                               "can hand it to the AI)")
            try:
                room.version = await asyncio.to_thread(server.store.release_seat, room.id, room.version, seat)
            except StaleVersion:
                observe.stale(server, "lost_race")
                await server.turns.resync(room)
                raise Conflict("the room changed meanwhile; try again", msg=msg("nemeton.error.stale")) from None
            row = room.seats[seat]
            row.name, row.token_hash = None, None
            observe.room_event(server, "seat left", room, seat=seat)
            room.publish()
            return {"room": room.id, "seat": seat, "version": room.version}

    async def rematch(self, room_id: str, token: str) -> dict[str, Any]:
        """The creator asks for a rematch of a finished game: a new room with the same game,
        options and seats, where every person keeps their token. Asked twice, the same room."""
        server = self.server
        room = await server.get(room_id)
        async with room.lock:
            if not is_creator(room.creator_hash, token):
                raise Forbidden("only the room's creator (with the creator token) may ask for a rematch",
                                msg=msg("nemeton.error.creator_only"))
            if not room.terminal:
                raise Conflict("a rematch can be asked for once the game has ended",
                               msg=msg("nemeton.error.rematch_after_end"))
            if room.rematch is None:
                new_id = secrets.token_urlsafe(9)
                rows = [SeatRow(s.seat, s.kind, s.name, s.agent, s.token_hash) for s in room.seats]
                await asyncio.to_thread(server.store.create_room, new_id, room.spec.name, room.spec.rules_version,
                                        dict(room.options), secrets.randbits(64), rows, room.undo,
                                        room.creator_hash, room.turn_timeout, room.listed, room.hints)
                room.rematch = await asyncio.to_thread(server.store.set_rematch, room.id, new_id)
                observe.room_created(server, new_id, room.spec.name, started=True, seats=len(rows),
                                     rematch_of=room.id)
                room.publish()
            rematch = room.rematch
        new_room = await server.get(rematch)
        async with new_room.lock:
            server.ai.watch(new_room)
        server.ai.kick(new_room)
        return {"room": rematch}

    async def lobby(self, limit: int = 100) -> list[dict[str, Any]]:
        """The newest rooms, read from the database (no game is replayed for it)."""
        return [self.summary(row) for row in await asyncio.to_thread(self.server.store.list_rooms, limit)]

    async def info(self, room_id: str) -> dict[str, Any]:
        """A room's public description (as in the lobby), with its take-back and timeout settings."""
        room = await self.server.get(room_id)
        row = await self.server.stored(room_id)
        return {**self.summary(row), "undo": room.undo, "turn_timeout_s": room.turn_timeout, "rematch": room.rematch,
                "moves": len(row.actions), "components": room.components}

    def summary(self, row: RoomRow) -> dict[str, Any]:
        """A room for a lobby: nothing hidden (data options shown by content hash). An open
        seat is a person's seat nobody has taken yet (anyone may, while the room waits)."""
        room = self.server.rooms.get(row.id)
        connected = room.watchers.connected() if room is not None else set()
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
            "seats": [{"seat": s.seat, "kind": s.kind, **seat_names(s), "agent": s.agent, "stand_in": s.stand_in,
                       "connected": s.seat in connected, "open": is_open(s)} for s in row.seats],
            "open_seats": [s.seat for s in row.seats if is_open(s)],
            "status": row.status, "version": row.version, "listed": row.listed, "hints": row.hints,
            "created_at": utc_iso(row.created_at),
        }


def utc_iso(when: datetime | None) -> str | None:
    """A stored time in ISO 8601 with its zone (UTC): SQLite gives times back without one."""
    if when is None:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return when.astimezone(timezone.utc).isoformat()
