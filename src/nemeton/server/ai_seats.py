"""AI seats: the agents that play a room's seats, and the stand-ins that play a person's.

An AI seat names one of the agents the server's operator offers (:mod:`.agents`: names, think
time and search budgets checked by :func:`check_agent`); a person's seat may be played for a
while by a stand-in, put there by the room's creator (:meth:`AiSeats.hand_seat`) or by a turn
timeout (:meth:`AiSeats.watch`: the game's heuristic, until the person returns). Each room's
agents are moved by one task (:meth:`AiSeats.kick`): each decision is computed on a worker
thread of this part's pool, without the room's lock, then committed like a person's move
(:meth:`~nemeton.server.turns.Turns.commit`) and pushed. Search helper processes end with
their game and with the server (:func:`~nemeton.server.agents.close_agents`).

:class:`AiSeats` is one part of :class:`~nemeton.server.rooms.Rooms` (``rooms.ai``).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from ..i18n import msg
from ..agents.base import make_agent
from ..engine import GameSpec, NemetonError
from ..engine.log import seat_ref
from . import observe
from .agents import AgentPolicy, active, close_agents, install
from .db import SeatRow, StaleVersion
from .errors import BadRequest, Conflict, Forbidden, marked

if TYPE_CHECKING:
    from .rooms import Room, Rooms

log = logging.getLogger("nemeton.server")


def check_agent(agent: str, spec: GameSpec, seat: int, options: Any = None) -> None:
    """A client's agent for a seat: one the server's operator offers, by name (the policy of
    nemeton.server.agents, think time and search budget included), that can play this game
    with these options (a learned policy plays the options it was trained for)."""
    try:
        active().check(agent, spec, seat, options)
    except NemetonError as exc:
        raise BadRequest(f"{seat_ref(seat)}: {marked(exc)}") from None


def timeout_agent(spec: GameSpec) -> str:
    """The agent that plays a seat whose time ran out: the game's heuristic, else random."""
    try:
        make_agent("heuristic", spec, 0, 0)
        return "heuristic"
    except NemetonError:
        return "random"


def agent_for(spec: GameSpec, seat: SeatRow) -> Any | None:
    """The agent playing ``seat`` (an AI seat's, or one standing in for its person), or None
    when its person plays it. Agents draw their seeds from ``secrets``."""
    name = seat.agent if seat.kind == "ai" else seat.stand_in
    return None if name is None else make_agent(name, spec, seat.seat, secrets.randbits(64))


def stand_in_info(seat: SeatRow | None) -> dict[str, Any] | None:
    """The agent playing this person's seat for now, if any (``until_return``: put there by a
    turn timeout, it steps back as soon as the person returns)."""
    if seat is None or seat.kind != "human" or seat.stand_in is None:
        return None
    return {"agent": seat.stand_in, "until_return": seat.stand_in_auto}


class AiSeats:
    """The agents of every room: the policy they are checked against, the threads they think
    on, the task that moves each room's agents, turn timers and stand-ins."""

    def __init__(self, server: Rooms, agent_threads: int = 4, agents: Any = None):
        self.server = server
        self.policy = install(AgentPolicy.of(agents))  # the agents clients may name
        self.threads = ThreadPoolExecutor(max_workers=agent_threads, thread_name_prefix="nemeton-agent")

    # ----- moving the agents ------------------------------------------------------------
    def kick(self, room: Room) -> None:
        """Make sure the room's agents move if one of them is to act."""
        if room.terminal:
            self.server.forget_finished()
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
        server = self.server
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
                action = await loop.run_in_executor(self.threads, observe.timed(server, room, turn.decide))
                async with room.lock:
                    if room.table is not table or not table.play_agent(turn, action):
                        continue
                    try:
                        await server.turns.commit(room, [(turn.seat, action)])
                    except Conflict:  # another process moved the room on: it is rebuilt, ask again
                        observe.retry(server, "agent_move")
                        continue
                    room.publish()
                    self.watch(room)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the agents of room %s stopped", room.id)

    # ----- turn timeouts and returning people -------------------------------------------
    def watch(self, room: Room) -> None:
        """After a change (under the lock): note since when each person's seat has been
        waited for, and set the room's timer for the first one whose time runs out."""
        timeout = room.turn_timeout
        if timeout is None:
            return
        loop = asyncio.get_running_loop()
        now = loop.time()
        waiting = [] if room.terminal or room.waiting else room.table.pending()
        room.pending_since = {s: room.pending_since.get(s, now) for s in waiting}
        if room.timer is not None and room.timer is not asyncio.current_task():
            room.timer.cancel()
        room.timer = None
        if room.pending_since:
            due = min(room.pending_since.values()) + timeout - now
            room.timer = loop.create_task(self._time_out(room, room.version, due, timeout))

    async def _time_out(self, room: Room, version: int, delay: float, timeout: float) -> None:
        """Hand the seats whose time (``timeout`` seconds) ran out to the heuristic, until
        their people return."""
        await asyncio.sleep(max(0.0, delay))
        try:
            async with room.lock:
                if room.version != version or room.terminal:
                    return  # the room changed: a newer timer is set
                now = asyncio.get_running_loop().time()
                for seat, since in sorted(room.pending_since.items()):
                    row = room.seats[seat]
                    if now - since >= timeout and row.stand_in is None:
                        await self.stand_in(room, seat, timeout_agent(room.spec), auto=True)
                room.publish()
                self.watch(room)
            self.kick(room)
        except Exception:
            log.exception("the turn timer of room %s failed", room.id)

    async def stand_in(self, room: Room, seat: int, agent: str | None, auto: bool) -> None:
        """Under the lock: ``agent`` plays ``seat`` from now (None: its person), stored first."""
        server = self.server
        try:
            room.version = await asyncio.to_thread(server.store.set_stand_in, room.id, room.version, seat, agent, auto)
        except StaleVersion:  # another process changed the room: catch up, and refuse
            observe.stale(server, "lost_race")
            await asyncio.to_thread(room.rebuild, await server.stored(room.id))
            raise Conflict("stale version: the room changed meanwhile; fetch the view again",
                           msg=msg("nemeton.error.stale")) from None
        row = room.seats[seat]
        row.stand_in, row.stand_in_auto = agent, auto and agent is not None
        observe.room_event(server, "stand-in", room, seat=seat, agent=agent, auto=auto)
        room.table.replace_seat(seat, agent_for(room.spec, row))

    async def reclaim(self, room: Room, seat: int) -> bool:
        """Under the lock: a person is back; the stand-in a timeout put on their seat steps
        back (one the creator put there stays). True if something changed."""
        if not room.seats[seat].stand_in_auto:
            return False
        await self.stand_in(room, seat, None, auto=False)
        room.pending_since.pop(seat, None)
        room.publish()
        self.watch(room)
        return True

    async def come_back(self, room_id: str, token: str, since: int = 0) -> dict[str, Any]:
        """A person says they are back (their seat was played after a turn timeout)."""
        room = await self.server.get(room_id)
        async with room.lock:
            seat = room.person_of(token, "a token is needed to come back to a seat")
            await self.reclaim(room, seat)
            answer = room.snapshot(seat, since)
        self.kick(room)
        return answer

    async def hand_seat(self, room_id: str, token: str, seat: int, agent: str | None) -> dict[str, Any]:
        """The creator hands a person's seat to ``agent`` (None: back to the person)."""
        room = await self.server.get(room_id)
        async with room.lock:
            if not room.is_creator(token):
                raise Forbidden("only the room's creator (with the creator token) may hand seats over",
                                msg=msg("nemeton.error.creator_only"))
            if not (0 <= seat < len(room.seats)) or room.seats[seat].kind != "human":
                people = [s.seat for s in room.seats if s.kind == "human"]
                raise BadRequest(f"{seat_ref(seat)} is not a person's seat; people's seats: {', '.join(map(seat_ref, people))}")
            if room.terminal:
                raise Conflict("the game is over", msg=msg("nemeton.error.game_over"))
            if agent is not None:
                check_agent(agent, room.spec, seat, room.spec.options(**room.options))
            row = room.seats[seat]
            if (row.stand_in, row.stand_in_auto) != (agent, False):
                await self.stand_in(room, seat, agent, auto=False)
                room.publish()
                self.watch(room)
            answer = {"seat": seat, "stand_in": agent, "version": room.version}
        self.kick(room)
        return answer

    # ----- stopping ---------------------------------------------------------------------
    def stop(self, room: Room) -> None:
        """A room leaves memory (closed): its agents' task and turn timer stop, and their helpers."""
        for task in (room.driver, room.timer):
            if task is not None and not task.done() and task is not asyncio.current_task():
                task.cancel()
        close_agents(room.table.seats)

    def close(self, rooms: Iterable[Room]) -> None:
        """The server stops (its rooms' tasks already ended): the worker threads end, and no
        search helper outlives the server."""
        from ..agents import parallel
        self.threads.shutdown(wait=True, cancel_futures=True)
        for room in rooms:
            close_agents(room.table.seats)
        parallel.close_all()
        parallel.set_start_method(None)  # this process serves no more
