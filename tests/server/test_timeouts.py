"""Turn timeouts: a person who does not act in time has their seat played by the heuristic
until they return (an action, a WebSocket connection, or POST .../return)."""

from __future__ import annotations

import time

from conftest import store_of, view, wait_for, receive


def create_room(client, seats=("human", "human"), game="alarun", timeout=None):
    body = {"game": game, "turn_timeout_s": timeout,
            "seats": [{"kind": "human"} if s == "human" else {"kind": "ai", "agent": s} for s in seats]}
    r = client.post("/api/rooms", json=body)
    assert r.status_code == 201, r.text
    data = r.json()
    return data["room"], {s["seat"]: s["token"] for s in data["seats"]}, data["creator"]


def come_back(client, room, token):
    r = client.post(f"/api/rooms/{room}/return", json={"token": token})
    assert r.status_code == 200, r.text
    return r.json()


def test_a_room_whose_people_never_move_is_played_to_the_end_by_the_heuristic(client):
    room, tokens, _ = create_room(client, timeout=0.2)
    started = time.monotonic()
    snap = wait_for(client, room, tokens[0], lambda s: s["terminal"])
    assert time.monotonic() - started >= 0.2
    assert snap["stand_in"] == {"agent": "heuristic", "until_return": True}
    assert [s["stand_in"] for s in client.get("/api/rooms").json()[0]["seats"]] == ["heuristic", "heuristic"]
    assert {seat for seat, _ in store_of(client).load_room(room).actions} == {0, 1}


def test_without_a_timeout_a_person_is_waited_for(client):
    room, tokens, _ = create_room(client)
    time.sleep(0.3)
    snap = view(client, room, tokens[0])
    assert snap["moves"] == 0 and snap["stand_in"] is None and snap["legal_actions"]


def test_a_person_who_returns_plays_their_seat_again(client):
    room, tokens, _ = create_room(client, seats=("human", "random", "random"), game="amarok", timeout=1.0)
    taken = wait_for(client, room, tokens[0], lambda s: s["stand_in"] is not None or s["terminal"])
    assert taken["stand_in"] == {"agent": "heuristic", "until_return": True}
    back = come_back(client, room, tokens[0])
    assert back["stand_in"] is None and back["version"] > taken["version"]
    assert store_of(client).load_room(room).seats[0].stand_in is None
    snap = wait_for(client, room, tokens[0], lambda s: s["legal_actions"] or s["terminal"])
    if not snap["terminal"]:
        r = client.post(f"/api/rooms/{room}/actions", json={"token": tokens[0], "action": snap["legal_actions"][0]})
        assert r.status_code == 200 and r.json()["stand_in"] is None


def test_connecting_a_websocket_is_returning(client):
    room, tokens, _ = create_room(client, seats=("human", "human", "human"), game="amarok", timeout=1.0)
    mover = view(client, room)["acting"][0]
    wait_for(client, room, tokens[mover], lambda s: s["stand_in"] is not None)
    with client.websocket_connect(f"/ws/rooms/{room}?token={tokens[mover]}") as ws:
        first = receive(ws)
    assert first["stand_in"] is None
    assert store_of(client).load_room(room).seats[mover].stand_in is None


def test_a_stand_in_the_creator_chose_stays_when_the_person_returns(client):
    room, tokens, creator = create_room(client, timeout=30)
    client.post(f"/api/rooms/{room}/seats/1", json={"token": creator, "agent": "random"})
    back = come_back(client, room, tokens[1])
    assert back["stand_in"] == {"agent": "random", "until_return": False}


def test_a_turn_timeout_must_be_a_positive_number_of_seconds(client):
    for bad in (0, -1, "soon", 10**9):
        r = client.post("/api/rooms", json={"game": "alarun", "turn_timeout_s": bad, "seats": [{"kind": "human"}] * 2})
        assert r.status_code == 422 and "turn_timeout_s" in r.json()["detail"]
