"""AI seats alone (nemeton.server.ai_seats): which agents a client may name (the operator's,
within the think-time and search budgets), stand-ins put on a person's seat and taken off,
and the task that moves a room's agents, without the app (tests/server/rooms_alone.py)."""

from __future__ import annotations

import asyncio

import pytest
from rooms_alone import counted, rooms_on, two_people

from nemeton.engine import get_game
from nemeton.server.agents import MAX_THINK_SECONDS, AgentPolicy
from nemeton.server.ai_seats import check_agent, stand_in_info, timeout_agent
from nemeton.server.db import StaleVersion
from nemeton.server.errors import BadRequest, NotFound


def test_an_agent_over_the_budget_is_refused_and_nothing_is_stored(db_url):
    greedy = f"ismcts:seconds={MAX_THINK_SECONDS * 6:g}"

    async def run():
        async with rooms_on(db_url) as rooms:  # a server that accepts any spec within the budget
            with pytest.raises(BadRequest, match=f"at most {MAX_THINK_SECONDS:g} seconds per decision"):
                await rooms.create("alarun", {}, [{"kind": "human"}, {"kind": "ai", "agent": greedy}])
            assert rooms.store.list_rooms(10) == []
            room_id, _, creator = await two_people(rooms)
            before = rooms.store.load_room(room_id)
            with pytest.raises(BadRequest, match="seconds per decision"):
                await rooms.ai.hand_seat(room_id, creator, 1, greedy)
            after = rooms.store.load_room(room_id)
            assert after.version == before.version and after.seats[1].stand_in is None
            room = await rooms.get(room_id)
            assert room.table.seats[1] is None and stand_in_info(room.seats[1]) is None
    asyncio.run(run())


def test_a_server_with_named_agents_only_refuses_a_spec(db_url):
    async def run():
        async with rooms_on(db_url, AgentPolicy({"quick": "random"})):
            spec = get_game("alarun")
            check_agent("quick", spec, 1)
            with pytest.raises(BadRequest, match="unknown agent 'heuristic'; this server offers: quick"):
                check_agent("heuristic", spec, 1)
    asyncio.run(run())


def test_a_stand_in_put_by_a_timeout_steps_back_when_its_person_returns_and_the_creators_stays(db_url):
    async def run():
        async with rooms_on(db_url) as rooms:
            room_id, tokens, creator = await two_people(rooms)
            room = await rooms.get(room_id)
            agent = timeout_agent(room.spec)
            async with room.lock:
                await rooms.ai.stand_in(room, 1, agent, auto=True)
            assert stand_in_info(room.seats[1]) == {"agent": agent, "until_return": True}
            assert room.table.seats[1] is not None and rooms.store.load_room(room_id).seats[1].stand_in == agent
            back = await rooms.ai.come_back(room_id, tokens[1])
            assert back["stand_in"] is None and room.table.seats[1] is None
            assert rooms.store.load_room(room_id).seats[1].stand_in is None
            await rooms.ai.hand_seat(room_id, creator, 1, "random")
            async with room.lock:
                assert not await rooms.ai.reclaim(room, 1)  # the creator's stand-in stays
            assert room.seats[1].stand_in == "random" and room.table.seats[1] is not None
    asyncio.run(run())


async def played_to_the_end(rooms):
    """A room of two random agents, once its task has played it to the end."""
    made = await rooms.create("alarun", {}, [{"kind": "ai", "agent": "random"}, {"kind": "ai", "agent": "random"}])
    room = await rooms.get(made["room"])
    for _ in range(1500):  # the room's task moves its agents one decision at a time
        if room.terminal:
            break
        await asyncio.sleep(0.02)
    await room.driver
    return room


def test_the_agents_of_a_room_play_it_to_the_end_storing_every_move(db_url):
    async def run():
        async with rooms_on(db_url) as rooms:
            room = await played_to_the_end(rooms)
            row = rooms.store.load_room(room.id)
            assert room.terminal and row.status == "finished" and row.version == room.version
            assert [(s, a) for s, a in row.actions] == [(s, a.to_json()) for s, a in room.table.state.history]
            assert counted(rooms, "nemeton_games_finished_total", game="alarun") == 1  # once, at the last move
            assert counted(rooms, "nemeton_actions_total", game="alarun") == len(row.actions)
            assert counted(rooms, "nemeton_db_retries_total", what="agent_move") == 0
    asyncio.run(run())


def test_an_agents_move_that_loses_its_commit_is_counted_as_a_retry_and_asked_again(db_url):
    async def run():
        async with rooms_on(db_url) as rooms:
            real, lost = rooms.store.append_actions, []

            def append_actions(room_id, version, *rest):
                if not lost:  # the first commit finds another writer first (nothing written)
                    lost.append(version)
                    raise StaleVersion(f"room {room_id} is no longer at version {version}")
                return real(room_id, version, *rest)
            rooms.store.append_actions = append_actions
            room = await played_to_the_end(rooms)
            row = rooms.store.load_room(room.id)
            assert lost and room.terminal and row.status == "finished"
            assert [(s, a) for s, a in row.actions] == [(s, a.to_json()) for s, a in room.table.state.history]
            assert counted(rooms, "nemeton_db_retries_total", what="agent_move") == 1
            # docs/operations.md: an agent's lost commit counts as a stale refusal too
            assert counted(rooms, "nemeton_stale_refusals_total", reason="lost_race") == 1
            assert counted(rooms, "nemeton_games_finished_total", game="alarun") == 1
            assert counted(rooms, "nemeton_actions_total", game="alarun") == len(row.actions)
    asyncio.run(run())


def test_a_finished_room_purged_while_in_memory_is_not_found(db_url):
    from datetime import datetime, timedelta, timezone

    async def run():
        async with rooms_on(db_url) as rooms:
            room = await played_to_the_end(rooms)
            assert (await rooms.seats.info(room.id))["moves"] == len(room.table.state.history)
            assert rooms.store.purge(datetime.now(timezone.utc) + timedelta(days=1), dry_run=False) == [room.id]
            assert rooms.rooms[room.id] is room  # still in this process's memory
            with pytest.raises(NotFound, match="no room"):  # the database no longer has it: 404, not a crash
                await rooms.seats.info(room.id)
    asyncio.run(run())
