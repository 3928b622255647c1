"""Turns alone (nemeton.server.turns): a person's action checked against the room's version,
applied, stored before it is answered; a refusal changes nothing, in memory or in the
database. Rooms without the app (tests/server/rooms_alone.py); two of them on one file are
two server processes."""

from __future__ import annotations

import asyncio

import pytest
from rooms_alone import counted, rooms_on, two_people

from nemeton.server.errors import Conflict
from nemeton.server.live import Subscriber
from nemeton.server.turns import take_back_refusal


async def first_move(rooms, room_id, tokens):
    """The room, a seat to act, its token and a legal action of it (as JSON)."""
    room = await rooms.get(room_id)
    seat = room.table.state.acting()[0]
    return room, seat, tokens[seat], room.snapshot(seat)["legal_actions"][0]


def stored(rooms, room_id):
    row = rooms.store.load_room(room_id)
    return row.version, list(row.actions)


def test_a_stale_version_is_refused_and_nothing_changes(db_url):
    async def run():
        async with rooms_on(db_url) as rooms:
            room_id, tokens, _ = await two_people(rooms)
            room, seat, token, action = await first_move(rooms, room_id, tokens)
            watcher = Subscriber(None)
            room.subscribers.add(watcher)
            before = stored(rooms, room_id), room.version, list(room.table.state.history)
            with pytest.raises(Conflict) as refused:
                await rooms.turns.act(room_id, token, action, version=room.version + 1)
            assert f"stale version {room.version + 1}" in str(refused.value)
            assert counted(rooms, "nemeton_stale_refusals_total", reason="client_version") == 1
            assert counted(rooms, "nemeton_stale_refusals_total", reason="lost_race") == 0
            assert (stored(rooms, room_id), room.version, list(room.table.state.history)) == before
            assert watcher.queue.empty()  # nothing happened: nothing pushed
            answer = await rooms.turns.act(room_id, token, action, version=room.version)  # the current one
            assert answer["version"] == room.version == stored(rooms, room_id)[0] > before[1]
            assert stored(rooms, room_id)[1] == [(seat, action)] and watcher.queue.qsize() == 1
    asyncio.run(run())


def test_a_move_another_process_stored_first_is_refused_and_the_room_catches_up(db_url):
    async def run():
        async with rooms_on(db_url) as one, rooms_on(db_url) as other:
            room_id, tokens, _ = await two_people(one)
            mine, _, token, action = await first_move(one, room_id, tokens)
            theirs = await other.get(room_id)
            await one.turns.act(room_id, token, action)
            version, actions = stored(one, room_id)
            with pytest.raises(Conflict, match="the room changed meanwhile"):  # not heard of: its commit loses
                await other.turns.act(room_id, token, action)
            assert stored(one, room_id) == (version, actions) and len(actions) == 1
            assert theirs.version == version and theirs.table.state.history == mine.table.state.history
            assert counted(other, "nemeton_stale_refusals_total", reason="lost_race") == 1
            assert counted(one, "nemeton_stale_refusals_total", reason="lost_race") == 0
            assert counted(other, "nemeton_stale_refusals_total", reason="client_version") == 0
            assert counted(one, "nemeton_actions_total", game="alarun") == 1
            assert counted(other, "nemeton_actions_total", game="alarun") == 0  # nothing it stored
    asyncio.run(run())


def test_a_take_back_in_a_room_without_them_is_refused_and_changes_nothing(db_url):
    async def run():
        async with rooms_on(db_url) as rooms:
            room_id, tokens, _ = await two_people(rooms)
            room, seat, token, action = await first_move(rooms, room_id, tokens)
            await rooms.turns.act(room_id, token, action)
            assert "without take-backs" in take_back_refusal(room, seat)
            before = stored(rooms, room_id)
            with pytest.raises(Conflict, match="without take-backs"):
                await rooms.turns.take_back(room_id, token)
            assert stored(rooms, room_id) == before
    asyncio.run(run())
