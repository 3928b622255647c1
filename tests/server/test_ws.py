"""The WebSocket: the current state on connect, every change pushed to each seat as that seat
sees it (spectators: the public part), actions accepted, refusals answered, reconnects."""

from __future__ import annotations

import json
import random

import pytest
from conftest import Mirror, create, view, receive
from starlette.websockets import WebSocketDisconnect


def receive_state(ws):
    message = receive(ws)
    assert message["type"] == "state", message
    return message


def test_on_connect_a_seat_gets_its_current_state_and_full_log(client):
    room, tokens = create(client, "alarun", ("human", "human"))
    mirror = Mirror(client, room)
    with client.websocket_connect(f"/ws/rooms/{room}?token={tokens[1]}") as ws:
        first = receive_state(ws)
    assert first["seat"] == 1
    mirror.check(first, 1)
    assert first["log"] and first["legal_actions"] == []


def test_a_change_is_pushed_to_each_seat_and_the_spectator_as_each_may_see_it(client):
    room, tokens = create(client, "alarun", ("human", "human"))
    mirror = Mirror(client, room)
    with client.websocket_connect(f"/ws/rooms/{room}?token={tokens[0]}") as ws0, \
            client.websocket_connect(f"/ws/rooms/{room}?token={tokens[1]}") as ws1, \
            client.websocket_connect(f"/ws/rooms/{room}") as spectator:
        starts = [receive_state(ws) for ws in (ws0, ws1, spectator)]
        lengths = [len(s["log"]) for s in starts]
        action = starts[0]["legal_actions"][0]
        assert client.post(f"/api/rooms/{room}/actions", json={"token": tokens[0], "action": action}).status_code == 200
        for ws, seat, length in ((ws0, 0, lengths[0]), (ws1, 1, lengths[1]), (spectator, None, lengths[2])):
            pushed = receive_state(ws)
            assert pushed["version"] == 1
            mirror.check(pushed, seat, since=length)  # only the new entries, as this viewer sees them
            assert pushed["log"] and pushed["log"][0]["i"] == length


def test_actions_sent_over_the_socket_are_applied_and_pushed(client):
    room, tokens = create(client, "alarun", ("human", "human"))
    mirror = Mirror(client, room)
    with client.websocket_connect(f"/ws/rooms/{room}?token={tokens[0]}") as ws:
        first = receive_state(ws)
        ws.send_text(json.dumps({"type": "action", "action": first["legal_actions"][0], "version": 0}))
        pushed = receive_state(ws)
        assert receive(ws) == {"type": "ok", "version": 1}
    mirror.check(pushed, 0, since=len(first["log"]))
    assert view(client, room)["version"] == 1


@pytest.mark.parametrize("message, status, words", [
    ("{bad json", 422, "not JSON"),
    (json.dumps({"type": "dance"}), 422, "expected"),
    (json.dumps({"type": "action", "action": {"type": "fly"}}), 400, "illegal action"),
    (json.dumps({"type": "action", "action": {"type": "swap"}, "version": 5}), 409, "stale version"),
    ("x" * 70_000, 413, "at most"),
])
def test_a_refused_message_is_answered_with_its_reason_and_changes_nothing(client, message, status, words):
    room, tokens = create(client, "alarun", ("human", "human"))
    with client.websocket_connect(f"/ws/rooms/{room}?token={tokens[0]}") as ws:
        receive_state(ws)
        ws.send_text(message)
        answer = receive(ws)
    assert answer["type"] == "error" and answer["status"] == status and words in answer["message"]
    assert view(client, room)["version"] == 0


def test_another_seats_turn_and_a_spectators_action_are_refused(client):
    room, tokens = create(client, "alarun", ("human", "human"))
    action = view(client, room, tokens[0])["legal_actions"][0]
    message = json.dumps({"type": "action", "action": action})
    with client.websocket_connect(f"/ws/rooms/{room}?token={tokens[1]}") as ws:
        receive_state(ws)
        ws.send_text(message)
        answer = receive(ws)
    assert answer["status"] == 409 and "not your turn" in answer["message"]
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        receive_state(ws)
        ws.send_text(message)
        answer = receive(ws)
    assert answer["status"] == 403 and "spectator" in answer["message"]
    assert view(client, room)["version"] == 0


@pytest.mark.parametrize("path, status", [("/ws/rooms/nope", 404), ("/ws/rooms/{room}?token=forged", 403)])
def test_an_unknown_room_or_token_is_told_and_closed(client, path, status):
    room, _ = create(client, "alarun", ("human", "human"))
    with client.websocket_connect(path.format(room=room)) as ws:
        answer = receive(ws)
        assert answer["type"] == "error" and answer["status"] == status
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(ws)
    assert closed.value.code == 4000 + status


def test_a_client_that_reconnects_gets_the_current_state(client):
    room, tokens = create(client, "alarun", ("human", "human"))
    with client.websocket_connect(f"/ws/rooms/{room}?token={tokens[0]}") as ws:
        first = receive_state(ws)
        ws.send_text(json.dumps({"type": "action", "action": first["legal_actions"][0]}))
        receive_state(ws)
    with client.websocket_connect(f"/ws/rooms/{room}?token={tokens[0]}") as ws:
        again = receive_state(ws)
    assert again["version"] == 1
    Mirror(client, room).check(again, 0)


def test_agents_moves_are_pushed_one_by_one_until_the_game_ends(client):
    room, tokens = create(client, "amarok", ("human", "random", "heuristic"), players=3)
    mirror = Mirror(client, room)
    rng = random.Random(3)
    with client.websocket_connect(f"/ws/rooms/{room}?token={tokens[0]}") as ws:
        state = receive_state(ws)
        since = len(state["log"])
        versions = [state["version"]]
        while not state["terminal"]:
            if state["legal_actions"]:
                ws.send_text(json.dumps({"type": "action", "action": rng.choice(state["legal_actions"]),
                                         "version": state["version"]}))
            message = receive(ws)
            if message["type"] == "error":  # another seat acted first (simultaneous decisions)
                assert message["status"] == 409 and "stale version" in message["message"], message
                continue
            if message["type"] != "state":
                assert message["type"] == "ok", message
                continue
            mirror.check(message, 0, since)
            since += len(message["log"])
            versions.append(message["version"])
            state = message
    assert versions == sorted(versions) and len(set(versions)) == len(versions)
    assert state["view"]["terminal"]


def test_the_lobby_shows_who_is_connected_and_a_seat_given_to_somebody_is_never_open(client):
    room, tokens = create(client, "alarun", ("human", "human"))
    with client.websocket_connect(f"/ws/rooms/{room}?token={tokens[1]}") as ws:
        receive_state(ws)
        entry = client.get("/api/rooms").json()[0]
        assert entry["open_seats"] == [] and [s["connected"] for s in entry["seats"]] == [False, True]
    entry = client.get("/api/rooms").json()[0]
    assert entry["open_seats"] == [] and [s["connected"] for s in entry["seats"]] == [False, False]


def test_a_client_that_does_not_keep_up_is_sent_the_whole_state_again(client):
    from nemeton.server.rooms import QUEUE_SIZE, Subscriber
    room, tokens = create(client, "alarun", ("human", "human"))
    live = client.app.state.rooms.rooms[room]
    slow = Subscriber(0)
    live.subscribers.add(slow)
    for _ in range(QUEUE_SIZE + 1):
        live.publish()
    assert slow.queue.qsize() == 1
    message = slow.queue.get_nowait()
    assert message["resync"] and message["log"] == view(client, room, tokens[0])["log"]
