"""Durability and races: a new server on the same database continues every game with the same
tokens; two submissions for one turn never both apply."""

from __future__ import annotations

import random
import threading

from conftest import Mirror, create, store_of, view, wait_for
from fastapi.testclient import TestClient

from nemeton.server.app import create_app
from nemeton.server.rooms import hash_token
from nemeton.engine import GameRecord
from nemeton.server.db import SeatRow, StaleVersion, Store, open_engine


def test_a_new_server_on_the_same_file_continues_the_game_with_the_same_tokens(db_url):
    rng = random.Random(5)
    with TestClient(create_app(db_url, rate_limit=None)) as client:
        room, tokens = create(client, "alarun", ("human", "human"), action_cap=30)
        for _ in range(4):
            for seat, token in tokens.items():
                snap = view(client, room, token)
                if snap["legal_actions"]:
                    r = client.post(f"/api/rooms/{room}/actions",
                                    json={"token": token, "action": rng.choice(snap["legal_actions"])})
                    assert r.status_code == 200
        before = {seat: view(client, room, token) for seat, token in tokens.items()}
    assert before[0]["version"] >= 4
    with TestClient(create_app(db_url, rate_limit=None)) as client:
        after = {seat: view(client, room, token) for seat, token in tokens.items()}
        assert after == before
        mirror = Mirror(client, room)
        while not view(client, room)["terminal"]:
            for seat, token in tokens.items():
                snap = view(client, room, token)
                if snap["legal_actions"]:
                    r = client.post(f"/api/rooms/{room}/actions",
                                    json={"token": token, "action": rng.choice(snap["legal_actions"])})
                    assert r.status_code == 200, r.text
                    mirror.check(r.json(), seat)
        assert client.get(f"/api/rooms/{room}/record").status_code == 200


def test_agents_to_act_in_a_stored_room_move_when_the_server_starts(db_url):
    store = Store(open_engine(db_url))
    state = GameRecord("amarok", {"players": 3}, 11, []).replay()
    person = next(s for s in range(3) if s not in state.acting())  # an agent acts first
    store.create_room("r", "amarok", 1, {"players": 3}, 11, [
        SeatRow(s, "human", "P", None, hash_token("tok")) if s == person else SeatRow(s, "ai", None, "random", None)
        for s in range(3)])
    with TestClient(create_app(db_url, rate_limit=None)) as client:
        snap = wait_for(client, "r", "tok", lambda s: s["legal_actions"] or s["terminal"])
    assert snap["version"] >= 1 and store.load_room("r").version == snap["version"]


def test_two_submissions_racing_for_one_turn_apply_exactly_once(client):
    room, tokens = create(client, "alarun", ("human", "human"))
    snap = view(client, room, tokens[0])
    choices = snap["legal_actions"][:2]
    assert len(choices) == 2
    barrier = threading.Barrier(2)
    answers = [None, None]

    def submit(i):
        barrier.wait()
        answers[i] = client.post(f"/api/rooms/{room}/actions", json={
            "token": tokens[0], "action": choices[i], "version": snap["version"]})

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    codes = sorted(a.status_code for a in answers)
    assert codes == [200, 409], [a.text for a in answers]
    loser = next(a for a in answers if a.status_code == 409)
    assert "stale version" in loser.json()["detail"] or "not your turn" in loser.json()["detail"]
    row = store_of(client).load_room(room)
    winner = choices[[a.status_code for a in answers].index(200)]
    assert row.version == 1 and row.actions == [(0, winner)]


def test_two_writers_validated_on_one_version_never_both_commit(db_url):
    """The database's own check, below the room's lock (as two server processes would race)."""
    store = Store(open_engine(db_url))
    store.create_room("r", "alarun", 1, {"players": 2}, 1, [SeatRow(0, "human", "A", None, None),
                                                             SeatRow(1, "human", "B", None, None)])
    for version in range(10):
        barrier = threading.Barrier(2)
        outcomes = []

        def write(name):
            barrier.wait()
            try:
                store.append_actions("r", version, version, [(0, {"type": name})], False)
                outcomes.append(name)
            except StaleVersion:
                outcomes.append("stale")

        threads = [threading.Thread(target=write, args=(n,)) for n in ("a", "b")]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(outcomes)[1] == "stale" and sorted(outcomes)[0] in "ab"
    row = store.load_room("r")
    assert row.version == 10 and [i for i, _ in enumerate(row.actions)] == list(range(10))


def test_people_are_served_while_an_agent_thinks(client):
    room, tokens = create(client, "alarun", ("human", "random"))
    live = client.app.state.rooms.rooms[room]
    act, reads = live.table._plan[1]
    thinking, answer = threading.Event(), threading.Event()

    def slow_act(view, legal):
        thinking.set()
        assert answer.wait(10)
        return act(view, legal)

    live.table._plan[1] = (slow_act, reads)
    snap = view(client, room, tokens[0])
    client.post(f"/api/rooms/{room}/actions", json={"token": tokens[0], "action": snap["legal_actions"][0]})
    assert thinking.wait(5)
    during = view(client, room, tokens[0])  # answered while the agent is still deciding
    assert during["acting"] == [1] and during["version"] == 1
    answer.set()
    after = wait_for(client, room, tokens[0], lambda s: s["version"] >= 2)
    assert store_of(client).load_room(room).version >= 2 and after["version"] >= 2


def test_finished_rooms_beyond_the_limit_leave_memory_and_are_reloaded_when_asked_for(client, monkeypatch):
    import nemeton.server.rooms as rooms_module
    monkeypatch.setattr(rooms_module, "MAX_FINISHED_ROOMS", 1)
    live = client.app.state.rooms
    finished = []
    for _ in range(3):  # rooms of agents only, watched by nobody
        room, _ = create(client, "amarok", ("random", "random", "random"), players=3)
        wait_for(client, room, None, lambda s: s["terminal"])
        finished.append(room)
    room, _ = create(client, "amarok", ("human", "human", "human"))  # a load: the limit applies
    assert room in live.rooms and sum(r in live.rooms for r in finished) <= 1
    oldest = finished[0]
    assert oldest not in live.rooms
    assert view(client, oldest)["terminal"]  # reloaded from the database
    assert client.get(f"/api/rooms/{oldest}/record").status_code == 200
