"""Hints in a room (issue 28): the creator's setting, and POST /api/rooms/{room}/hint, which
asks the search for a seat's three preferred moves from that seat's view only."""

from __future__ import annotations

import pytest
from conftest import create, store_of, view


def make(client, seats, **body):
    """A room of ``seats`` ('human', 'open' or an agent spec) with ``body``'s settings; the answer."""
    people = [{"kind": "human", "name": f"P{i}"} if s == "human" else {"kind": "open"} if s == "open"
              else {"kind": "ai", "agent": s} for i, s in enumerate(seats)]
    return client.post("/api/rooms", json={"game": "alarun", "seats": people, **body})


@pytest.mark.parametrize("seats, on", [
    (("human", "random"), True),          # against the AI: on
    (("random", "random"), True),         # nobody to hint: on, harmlessly
    (("human", "human"), False),          # two people: the server cannot tell hotseat from online
    (("human", "open"), False),           # a person and whoever takes the open seat: online
])
def test_hints_default_to_on_against_the_ai_and_off_between_people(client, seats, on):
    made = make(client, seats)
    assert made.status_code == 201, made.text
    room = made.json()["room"]
    assert client.get(f"/api/rooms/{room}").json()["hints"] is on
    assert store_of(client).load_room(room).hints is on


def test_the_creator_decides_hints_and_the_room_says_so_everywhere(client):
    off = make(client, ("human", "random"), hints=False).json()
    on = make(client, ("human", "human"), hints=True).json()  # a hotseat room: the lobby turns them on
    assert client.get(f"/api/rooms/{off['room']}").json()["hints"] is False
    assert view(client, off["room"], off["seats"][0]["token"])["hints"] is False
    assert client.get(f"/api/rooms/{on['room']}").json()["hints"] is True
    assert view(client, on["room"], on["seats"][1]["token"])["hints"] is True
    listed = {r["room"]: r["hints"] for r in client.get("/api/rooms").json()}
    assert listed == {off["room"]: False, on["room"]: True}


@pytest.mark.parametrize("value", ["yes", "true", 1, 0, [], {"on": True}])
def test_a_hints_setting_that_is_not_true_or_false_is_refused_and_nothing_is_made(client, value):
    answer = make(client, ("human", "random"), hints=value)
    assert answer.status_code == 422
    assert "hints" in answer.json()["detail"] and "boolean" in answer.json()["detail"]
    assert store_of(client).list_rooms(10) == []


def test_a_rematch_keeps_the_hints_setting(client):
    made = make(client, ("random", "random"), hints=False).json()
    room = made["room"]
    from conftest import wait_for
    wait_for(client, room, None, lambda s: s["terminal"], timeout=60)
    again = client.post(f"/api/rooms/{room}/rematch", json={"token": made["creator"]}).json()["room"]
    assert client.get(f"/api/rooms/{again}").json()["hints"] is False
