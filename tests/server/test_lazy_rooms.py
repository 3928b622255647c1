"""Rooms load lazily and abandoned rooms expire: a restart replays only the rooms an agent or
a turn timer must move; every other room is loaded when a request or a WebSocket asks for it;
a room untouched for ``expire_after`` days is closed and refuses everything with 410."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import update

from nemeton.engine import GameRecord
from nemeton.server import rooms as rooms_module
from nemeton.server.app import create_app
from nemeton.server.db import SeatRow, Store, open_engine, rooms as rooms_table

from conftest import (ANY_AGENT, TestClient, check_migrated_0008, create, receive, stored_before_0008, view,
                      wait_for)


@pytest.fixture
def built(monkeypatch):
    """Counts the rooms replayed into memory (``Room`` constructions)."""
    made: list[str] = []

    class Counted(rooms_module.Room):
        def __init__(self, row):
            made.append(row.id)
            super().__init__(row)

    monkeypatch.setattr(rooms_module, "Room", Counted)
    return made


def server(db_url, **kw):
    return TestClient(create_app(db_url, rate_limit=None, agents=ANY_AGENT, **kw))


def play_first_move(client, room, tokens):
    snap = view(client, room, tokens[0])
    seat = snap["acting"][0]
    token = tokens[seat]
    action = view(client, room, token)["legal_actions"][0]
    r = client.post(f"/api/rooms/{room}/actions", json={"token": token, "action": action})
    assert r.status_code == 200, r.text


def ai_acting_room(store: Store) -> str:
    """A room stored (as a server would have stored it) at a point where its AI seat is to act:
    a server that stopped while its agent was thinking."""
    room_id, seed = secrets.token_urlsafe(9), secrets.randbits(64)
    store.create_room(room_id, "alarun", 1, {"players": 2}, seed,
                      [SeatRow(0, "human", "Ann", None, "0" * 64), SeatRow(1, "ai", None, "random", None)])
    state = GameRecord("alarun", {"players": 2}, seed, []).replay()
    version, moves = 0, 0
    while 1 not in state.acting():
        seat = state.acting()[0]
        action = state.legal_actions(seat)[0]
        state.apply(action, seat)
        version = store.append_actions(room_id, version, moves, [(seat, action.to_json())], False,
                                       list(state.acting()))
        moves += 1
    return room_id


def test_a_restart_replays_only_the_rooms_that_must_move(db_url, built):
    with server(db_url) as client:
        people = []
        for _ in range(12):  # people's rooms, a move made in each: nobody needs the server until asked
            room, tokens = create(client)
            play_first_move(client, room, tokens)
            people.append((room, tokens))
        timed, timed_tokens = create(client)  # given a turn timer below: loaded at start
        play_first_move(client, timed, timed_tokens)
        store = client.app.state.rooms.store
    engine = open_engine(db_url)
    with engine.begin() as c:
        c.execute(update(rooms_table).where(rooms_table.c.id == timed).values(turn_timeout_s=3600.0))
    ai_room = ai_acting_room(Store(engine))
    engine.dispose()
    del store

    built.clear()
    with server(db_url) as client:
        assert sorted(built) == sorted([timed, ai_room]), "only the AI-to-move and timer rooms are replayed at start"
        rooms = client.app.state.rooms
        assert people[0][0] not in rooms.rooms
        # the AI-to-move room progresses without anyone asking
        snap = wait_for(client, ai_room, None, lambda s: 1 not in s["acting"] or s["terminal"])
        assert snap["moves"] >= 1
        # a people's room is loaded when asked for, and plays on
        room, tokens = people[3]
        before = len(built)
        snap = view(client, room, tokens[0])
        assert len(built) == before + 1 and room in rooms.rooms
        assert snap["moves"] == 1
        play_first_move(client, room, tokens)
        assert view(client, room)["moves"] == 2
        # a WebSocket loads its room too
        room, tokens = people[5]
        with client.websocket_connect(f"/ws/rooms/{room}?token={tokens[0]}") as ws:
            message = receive(ws)
            assert message["type"] == "state" and message["moves"] == 1
        assert room in rooms.rooms
        assert len(built) == before + 2


def test_a_room_stored_before_migration_0008_keeps_who_acts_loads_at_start_and_plays_on(db_url, built):
    moves = stored_before_0008(db_url)
    check_migrated_0008(db_url, moves)
    built.clear()
    with server(db_url) as client:
        assert built == ["old"]  # its AI is to act: loaded at start, as the renamed column says
        snap = wait_for(client, "old", "tok", lambda s: s["moves"] > len(moves))
        assert snap["version"] > len(moves)


def backdate(db_url, room, days):
    engine = open_engine(db_url)
    with engine.begin() as c:
        c.execute(update(rooms_table).where(rooms_table.c.id == room)
                  .values(updated_at=datetime.now(timezone.utc) - timedelta(days=days)))
    engine.dispose()


def test_an_expired_room_is_closed_at_start_and_refuses_everything_with_410(db_url, built, caplog):
    with server(db_url) as client:
        old, old_tokens = create(client)
        fresh, fresh_tokens = create(client)
    backdate(db_url, old, 15)
    backdate(db_url, fresh, 13)
    built.clear()
    with server(db_url, expire_after=14) as client:
        assert old not in built
        r = client.get(f"/api/rooms/{old}/view", params={"token": old_tokens[0]})
        assert r.status_code == 410, r.text
        assert "closed" in r.json()["detail"] and "14 days" in r.json()["detail"]
        action = {"type": "anything"}
        r = client.post(f"/api/rooms/{old}/actions", json={"token": old_tokens[0], "action": action})
        assert r.status_code == 410 and "nothing can be played" in r.json()["detail"]
        with client.websocket_connect(f"/ws/rooms/{old}") as ws:
            message = ws.receive_json()
            assert message["type"] == "error" and message["status"] == 410
        assert view(client, fresh, fresh_tokens[0])["moves"] == 0  # 13 days: still open
        assert old not in built
        listed = {r["room"]: r["status"] for r in client.get("/api/rooms").json()}
        assert listed[old] == "closed" and listed[fresh] == "playing"
    assert any("closed 1 room untouched for 14 days" in r.getMessage() for r in caplog.records)


def test_a_room_in_memory_expires_and_its_watchers_are_told(db_url):
    with server(db_url, expire_after=14) as client:
        room, tokens = create(client)
        with client.websocket_connect(f"/ws/rooms/{room}?token={tokens[0]}") as ws:
            assert receive(ws)["type"] == "state"
            backdate(db_url, room, 30)
            closed = client.portal.call(client.app.state.rooms.expire)
            assert closed == [room]
            message = receive(ws)
            assert message["type"] == "error" and message["status"] == 410
            ws.send_json({"type": "action", "action": {"type": "x"}})
            answer = receive(ws)
            assert answer["type"] == "error" and answer["status"] == 410, answer
        assert room not in client.app.state.rooms.rooms
        r = client.post(f"/api/rooms/{room}/actions", json={"token": tokens[0], "action": {"type": "x"}})
        assert r.status_code == 410


def test_expiry_can_be_turned_off(db_url):
    with server(db_url) as client:
        room, tokens = create(client)
    backdate(db_url, room, 400)
    with server(db_url, expire_after=None) as client:
        assert view(client, room, tokens[0])["moves"] == 0
