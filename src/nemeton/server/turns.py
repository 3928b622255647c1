"""Turns and take-backs: a person's action applied through the table loop, stored, then pushed.

Every change follows one path, under the room's lock: check the request against the table
(the token's seat, the client's version, whose turn, the action's legality), apply it, commit
it to the database with the optimistic version check (:meth:`Turns.commit`), and only then
answer and push the seats' new views. If the commit fails the room is rebuilt from the
database, so memory never runs ahead of what is stored; a refusal re-reads the room, in case
another server process moved it on (:meth:`Turns.resync`).

A take-back is granted while the action revealed nothing to anyone and no other seat has acted
since (:func:`take_back_refusal`, decided once per version of the room by
:func:`~nemeton.server.takeback.what_it_revealed`); the room is then rebuilt from its record
without it. Replays and the finished game's record are read here too.

:class:`Turns` is one part of :class:`~nemeton.server.rooms.Rooms` (``rooms.turns``); the AI
seats part (``rooms.ai``) commits its agents' moves through :meth:`Turns.commit`.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from ..i18n import msg, seat as seat_arg
from ..engine import GameRecord, NemetonError
from ..engine.log import seat_ref, split_parts
from . import observe
from .db import RoomClosed, RoomRow, StaleVersion
from .errors import BadRequest, Conflict, Forbidden, Gone, marked
from .takeback import what_it_revealed

if TYPE_CHECKING:
    from .rooms import Room, Rooms


def take_back_refusal(room: Room, seat: int) -> str | None:
    """Why ``seat`` may not take back its last action now, or None if it may (the replay it
    may need is done once per version of the room, and kept on the room)."""
    state = room.table.state
    if not room.undo:
        return "this room was created without take-backs (\"undo\": true)"
    if state.is_terminal():
        return "the game is over"
    if not any(s == seat for s, _ in state.history):
        return "you have no action to take back"
    last, action = state.history[-1]
    if last != seat:
        return "another seat has acted since your last action"
    kept = room.take_back_kept
    if kept is not None and kept[:2] == (room.version, seat):
        return kept[2]
    before = room.record(len(state.history) - 1).replay()
    reason = what_it_revealed(room.spec, before, state, seat, action)
    refusal = None if reason is None else f"your last action cannot be taken back: {reason}"
    room.take_back_kept = (room.version, seat, refusal)
    return refusal


def take_back_info(room: Room, seat: int | None) -> dict[str, Any] | None:
    """Whether ``seat`` may take back its last action now and, if not, why (None for the
    spectator): the page offers the take-back only when the server would grant it."""
    if seat is None:
        return None
    reason = take_back_refusal(room, seat)
    if reason is None:
        return {"allowed": True, "reason": None, "parts": []}
    plain, parts = split_parts(reason, len(room.seats))
    return {"allowed": False, "reason": plain, "parts": parts}


class Turns:
    """People's actions and take-backs, the commit every move goes through, and catching up
    with the database."""

    def __init__(self, server: Rooms):
        self.server = server

    def check_version(self, room: Room, version: int | None) -> None:
        """Refuse a request made against another version of the room than the current one."""
        if version is not None and version != room.version:
            observe.stale(self.server, "client_version")
            raise Conflict(f"stale version {version}: the room is at version {room.version}; "
                           "fetch the view again", msg=msg("nemeton.error.stale"))

    async def view(self, room_id: str, token: str | None, since: int = 0) -> dict[str, Any]:
        room = await self.server.get(room_id)
        async with room.lock:
            return room.snapshot(room.seat_of(token), since)

    async def act(self, room_id: str, token: str, action_json: Any, version: int | None = None,
                  since: int = 0, snapshot: bool = True) -> dict[str, Any]:
        """A person's action: checked, applied, committed, then answered and pushed. The answer
        is the seat's new snapshot, or only ``{"version": V}`` without ``snapshot`` (for a
        WebSocket client, which is pushed the snapshot anyway)."""
        room = await self.server.get(room_id)
        async with room.lock:
            try:
                answer = await self._act(room, token, action_json, version, since, snapshot)
            except (Conflict, BadRequest):
                # Another server process sharing the database may have moved this room on: a
                # refusal re-reads it, so this process does not go on serving an old state.
                await self.resync(room)
                raise
        self.server.ai.kick(room)
        return answer

    async def _act(self, room: Room, token: str, action_json: Any, version: int | None,
                   since: int, snapshot: bool = True) -> dict[str, Any]:
        """The body of :meth:`act`, under the room's lock."""
        seat = room.person_of(token, "a token is needed to act")
        self.check_version(room, version)
        state = room.table.state
        if state.is_terminal():
            raise Conflict("the game is over; no action is legal", msg=msg("nemeton.error.game_over"))
        if room.waiting:
            raise Conflict(f"the game starts when every seat is taken; open: "
                           f"{', '.join(seat_ref(s) for s in room.open_seats())}",
                           msg=msg("nemeton.error.waiting", seats=[seat_arg(s) for s in room.open_seats()]))
        await self.server.ai.reclaim(room, seat)
        if room.table.seats[seat] is not None:
            raise Conflict(f"your seat is played by {room.seats[seat].stand_in} for now; "
                           "the room's creator can hand it back to you", msg=msg("nemeton.error.stand_in"))
        if seat not in state.acting():
            raise Conflict(f"not your turn: waiting for {', '.join(seat_ref(s) for s in state.acting()) or 'nobody'}",
                           msg=msg("nemeton.error.not_your_turn", seats=[seat_arg(s) for s in state.acting()]))
        try:
            action = room.spec.action_from_json(action_json, room.table.state.options)
            room.table.submit(seat, action)
        except NemetonError as exc:
            raise BadRequest(f"illegal action: {marked(exc)}", msg=msg("nemeton.error.illegal_action")) from None
        await self.commit(room, [(seat, action)])
        if room.undo:  # whether it can be taken back (a replay) is found on a thread, then kept
            await asyncio.to_thread(take_back_refusal, room, seat)
        room.publish()
        self.server.ai.watch(room)
        return room.snapshot(seat, since) if snapshot else {"version": room.version}

    async def take_back(self, room_id: str, token: str, version: int | None = None,
                        since: int = 0) -> dict[str, Any]:
        """A person takes back their last action (in a room made with ``undo``), if no other
        seat has acted since and it revealed nothing to anyone; the room is rebuilt from its
        record without it."""
        server = self.server
        room = await server.get(room_id)
        async with room.lock:
            seat = room.person_of(token, "a token is needed to take back an action")
            self.check_version(room, version)
            refusal = await asyncio.to_thread(take_back_refusal, room, seat)
            if refusal is not None:
                raise Conflict(refusal)
            moves = len(room.table.state.history) - 1
            try:
                await asyncio.to_thread(server.store.take_back, room.id, room.version, moves)
            except StaleVersion:
                observe.stale(server, "lost_race")
                raise Conflict("stale version: the room changed meanwhile; fetch the view again",
                               msg=msg("nemeton.error.stale")) from None
            finally:  # rebuilt from what the database holds, whatever happened
                await asyncio.to_thread(room.rebuild, await server.stored(room.id))
            observe.room_event(server, "take-back", room, seat=seat, moves=len(room.table.state.history))
            room.publish(resync=True)
            server.ai.watch(room)
            answer = room.snapshot(seat, since)
        server.ai.kick(room)
        return answer

    async def commit(self, room: Room, new: list[tuple[int, Any]]) -> None:
        """Store actions already applied to the room's table; if that fails, rebuild the room
        from the database (memory never runs ahead of it) and refuse."""
        server = self.server
        base = room.version
        first = len(room.table.state.history) - len(new)
        try:
            room.version = await asyncio.to_thread(
                server.store.append_actions, room.id, base, first, [(s, a.to_json()) for s, a in new], room.terminal,
                [] if room.terminal else list(room.table.state.acting()))
        except BaseException as exc:
            await self.rebuild(room, await server.stored(room.id), shown=first)  # the table ran ahead of the database
            if isinstance(exc, RoomClosed):
                raise Gone(str(exc)) from None
            if isinstance(exc, StaleVersion):
                observe.stale(server, "lost_race")
                raise Conflict("stale version: the room changed meanwhile; fetch the view again",
                               msg=msg("nemeton.error.stale")) from None
            raise
        observe.applied(server, room, len(new))

    async def resync(self, room: Room) -> None:
        """Under the lock: catch up with what another process stored, and tell the watchers
        (the whole log again if actions were taken back there)."""
        row = await asyncio.to_thread(self.server.store.load_room, room.id)
        if row is not None and row.version != room.version:
            await self.rebuild(room, row)

    async def rebuild(self, room: Room, row: RoomRow, shown: int | None = None) -> None:
        """Under the lock: the room as stored in ``row``, its watchers told (the whole log
        again if the database holds fewer actions than the ``shown`` ones they know of)."""
        shown = len(room.table.state.history) if shown is None else shown
        await asyncio.to_thread(room.rebuild, row)
        room.publish(resync=len(row.actions) < shown)

    async def replay(self, room_id: str, seat: int | None, step: int | None,
                     token: str | None = None) -> dict[str, Any]:
        """The game as ``seat`` (None: the spectator) saw it after ``step`` actions (None: the
        latest): its view, log and who was to act. A finished game's replay is open to all,
        as any seat; while the game is on, the spectator's replay of the moves so far is open
        to all and a seat's needs that seat's token."""
        room = await self.server.get(room_id)
        async with room.lock:
            over = room.terminal
            history = list(room.table.state.history)
            holder = room.seat_of(token) if token is not None else None
        if seat is not None and not 0 <= seat < len(room.seats):
            raise BadRequest(f"no seat {seat}: seats are 0 to {len(room.seats) - 1}, or none for the spectator")
        if not over and seat is not None and holder != seat:
            raise Forbidden("while the game is on, a seat's replay is shown only to that seat (with its token); "
                            "the spectator's replay of the moves so far is open to all")
        step = len(history) if step is None else step
        if not 0 <= step <= len(history):
            raise BadRequest(f"no step {step}: this game has steps 0 to {len(history)}")

        def rebuild() -> dict[str, Any]:
            state = GameRecord(room.spec.name, dict(room.options), room.seed, history[:step]).replay()
            return {"steps": len(history), "step": step, "seat": seat, "view": state.view(seat), "over": over,
                    "acting": list(state.acting()), "log": state.log(seat), "terminal": state.is_terminal(),
                    "seats": room.seat_info(), "last": None if step == 0 else history[step - 1][0]}
        return await asyncio.to_thread(rebuild)

    async def record(self, room_id: str) -> dict[str, Any]:
        room = await self.server.get(room_id)
        async with room.lock:
            if not room.terminal:
                raise Forbidden("the record (with its seed) is available once the game has ended",
                                msg=msg("nemeton.error.record_after_end"))
            return room.table.state.record().to_json()
