"""Take-backs: a person takes back their last action while it revealed nothing to anyone and
no other seat has acted since; the room is rebuilt from its record without it."""

from __future__ import annotations

import json
import random

import pytest
from conftest import Mirror, store_of, view, receive

from nemeton import get_game
from nemeton.engine import GameRecord
from nemeton.server.takeback import what_it_revealed


def create_room(client, game="edora", seats=("human", "human"), undo=True, **options):
    body = {"game": game, "options": options, "undo": undo,
            "seats": [{"kind": "human"} if s == "human" else {"kind": "ai", "agent": s} for s in seats]}
    data = client.post("/api/rooms", json=body).json()
    return data["room"], {s["seat"]: s["token"] for s in data["seats"]}


def quiet_move(client, room, tokens):
    """(seat, action JSON) of a legal move that reveals nothing (checked on the true state)."""
    mirror = Mirror(client, room)
    state = mirror.at(view(client, room)["moves"])
    seat = state.acting()[0]
    spec = get_game(state.game_name)
    for action in state.legal_actions(seat):
        after = state.clone()
        after.apply(action, seat)
        if what_it_revealed(spec, state, after, seat, action) is None:
            return seat, action.to_json()
    pytest.skip("no quiet move here")


def act(client, room, token, action):
    r = client.post(f"/api/rooms/{room}/actions", json={"token": token, "action": action})
    assert r.status_code == 200, r.text
    return r.json()


def undo(client, room, token, **extra):
    return client.post(f"/api/rooms/{room}/undo", json={"token": token, **extra})


def test_a_quiet_last_action_is_taken_back_and_the_seat_chooses_again(client):
    room, tokens = create_room(client)
    seat, action = quiet_move(client, room, tokens)
    before = view(client, room, tokens[seat])
    act(client, room, tokens[seat], action)
    r = undo(client, room, tokens[seat])
    assert r.status_code == 200, r.text
    snap = r.json()
    assert snap["moves"] == 0 and snap["version"] == 2  # the version never goes back
    assert store_of(client).load_room(room).actions == []
    assert {k: snap[k] for k in ("view", "legal_actions", "log")} == {
        k: view(client, room, tokens[seat])[k] for k in ("view", "legal_actions", "log")}
    assert (snap["view"], snap["legal_actions"], snap["log"]) == (before["view"], before["legal_actions"], before["log"])
    Mirror(client, room).check(snap, seat)


def refusal(client, room, token, **extra):
    row = store_of(client).load_room(room)
    r = undo(client, room, token, **extra)
    after = store_of(client).load_room(room)
    assert (after.version, after.actions) == (row.version, row.actions)
    return r.status_code, r.json()["detail"]


def test_take_backs_are_refused_with_the_reason_and_change_nothing(client):
    room, tokens = create_room(client, undo=False)
    seat, action = quiet_move(client, room, tokens)
    act(client, room, tokens[seat], action)
    assert refusal(client, room, tokens[seat]) == (409, 'this room was created without take-backs ("undo": true)')

    room, tokens = create_room(client)
    first = view(client, room)["acting"][0]
    assert refusal(client, room, tokens[first])[1] == "you have no action to take back"
    seat, action = quiet_move(client, room, tokens)
    act(client, room, tokens[seat], action)
    assert refusal(client, room, "forged") == (403, "unknown token for this room")
    assert refusal(client, room, tokens[seat], version=0)[0] == 409
    r = client.post(f"/api/rooms/{room}/undo", json={"token": tokens[seat], "extra": 1})
    assert r.status_code == 422
    previous = seat
    while True:  # play on until another seat acts after this one
        mover = view(client, room)["acting"][0]
        act(client, room, tokens[mover], view(client, room, tokens[mover])["legal_actions"][0])
        if mover != previous:
            break
    assert refusal(client, room, tokens[previous]) == (409, "another seat has acted since your last action")


def test_an_action_that_showed_a_hidden_card_cannot_be_taken_back(client):
    room, tokens = create_room(client, "amarok", ("human", "human", "human"))
    mirror = Mirror(client, room)
    spec = get_game("amarok")
    rng = random.Random(2)
    for _ in range(200):
        state = mirror.at(view(client, room)["moves"])
        seat = state.acting()[0]
        action = rng.choice(state.legal_actions(seat))
        after = state.clone()
        after.apply(action, seat)
        reason = what_it_revealed(spec, state, after, seat, action)
        act(client, room, tokens[seat], action.to_json())
        if reason is not None:
            status, detail = refusal(client, room, tokens[seat])
            assert status == 409 and detail == f"your last action cannot be taken back: {reason}"
            return
    pytest.fail("no revealing action in 200 moves")


def test_drawing_on_chance_or_seeing_a_card_reveals_something_and_public_moves_do_not():
    spec = get_game("amarok")
    state = spec.make(3, seed=5)
    rng = random.Random(4)
    verdicts = {}
    for _ in range(80):
        if state.is_terminal():
            break
        seat = state.acting()[0]
        action = rng.choice(state.legal_actions(seat))
        before = state.clone()
        state.apply(action, seat)
        reason = what_it_revealed(spec, before, state, seat, action)
        if before.rng.getstate() != state.rng.getstate():
            assert reason == "it drew on chance"
        if reason is None:  # nothing new for anyone: every seat's view follows from its old one
            for viewer in range(3):
                sample = spec.determinize(before.view(viewer), random.Random(99))
                sample.apply(action, seat)
                assert json.dumps(sample.view(viewer), sort_keys=True) == json.dumps(state.view(viewer), sort_keys=True)
        verdicts.setdefault(reason is None, action.kind)
    assert set(verdicts) == {True, False}  # both kinds happen in a game


def test_a_take_back_over_the_socket_resynchronises_every_client(client):
    room, tokens = create_room(client)
    seat, action = quiet_move(client, room, tokens)
    other = 1 - seat
    with client.websocket_connect(f"/ws/rooms/{room}?token={tokens[seat]}") as mine, \
            client.websocket_connect(f"/ws/rooms/{room}?token={tokens[other]}") as theirs:
        receive(mine)
        receive(theirs)
        mine.send_text(json.dumps({"type": "action", "action": action}))
        assert receive(mine)["moves"] == 1 and receive(mine)["type"] == "ok"
        assert receive(theirs)["moves"] == 1
        mine.send_text(json.dumps({"type": "undo"}))
        pushed = [receive(mine), receive(theirs)]
        assert receive(mine) == {"type": "ok", "version": 2}
    mirror = Mirror(client, room)
    for message, viewer in zip(pushed, (seat, other)):
        assert message["resync"] and message["moves"] == 0
        mirror.check(message, viewer)  # the whole log again, as it stands without the action
