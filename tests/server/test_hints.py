"""Hints in a room (issue 28): the creator's setting, and POST /api/rooms/{room}/hint, which
asks the search for a seat's three preferred moves from that seat's view only."""

from __future__ import annotations

import pytest
from conftest import store_of, view, wait_for


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
    wait_for(client, room, None, lambda s: s["terminal"], timeout=60)
    again = client.post(f"/api/rooms/{room}/rematch", json={"token": made["creator"]}).json()["room"]
    assert client.get(f"/api/rooms/{again}").json()["hints"] is False


# ----- POST /api/rooms/{room}/hint ----------------------------------------------------------------
def hotseat(client, hints=True, game="alarun", players=2):
    """People on one device (hints on by default): (room, {seat: token})."""
    made = client.post("/api/rooms", json={"game": game, "hints": hints, "seats": [
        {"kind": "human", "name": f"P{i}"} for i in range(players)]}).json()
    return made["room"], {s["seat"]: s["token"] for s in made["seats"]}


def ask(client, room, token, **body):
    return client.post(f"/api/rooms/{room}/hint", json={"token": token, **body})


def test_a_hint_lists_three_of_the_seats_legal_moves_with_win_chances_and_changes_nothing(client):
    room, tokens = hotseat(client)
    before = view(client, room, tokens[0])
    stored = store_of(client).load_room(room)
    answer = ask(client, room, tokens[0], seconds=0.5)
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["seat"] == 0 and data["version"] == before["version"] and data["seconds"] == 0.5
    assert len(data["hints"]) == 3
    for move in data["hints"]:
        assert move["action"] in before["legal_actions"]
        assert 0.0 <= move["win"] <= 1.0 and move["visits"] > 0 and move["text"]
    visits = [m["visits"] for m in data["hints"]]
    assert visits == sorted(visits, reverse=True)
    after = store_of(client).load_room(room)
    assert (after.version, after.actions, after.seed) == (stored.version, stored.actions, stored.seed)
    assert view(client, room, tokens[0]) == before


def test_the_same_position_gives_the_same_hint(client):
    room, tokens = hotseat(client)
    first = ask(client, room, tokens[0], seconds=0.5).json()
    again = ask(client, room, tokens[0], seconds=0.5).json()
    assert first["hints"] == again["hints"]


def test_a_hint_is_refused_when_the_room_has_hints_off_403(client):
    room, tokens = hotseat(client, hints=False)
    answer = ask(client, room, tokens[0])
    assert answer.status_code == 403 and "hints are off" in answer.json()["detail"]


@pytest.mark.parametrize("token", ["not-a-token", "x" * 200])
def test_a_hint_for_an_unknown_token_is_refused_403(client, token):
    room, _tokens = hotseat(client)
    answer = ask(client, room, token)
    assert answer.status_code == 403 and "unknown token" in answer.json()["detail"]


def test_a_hint_without_a_token_is_malformed_422(client):
    room, _tokens = hotseat(client)
    answer = client.post(f"/api/rooms/{room}/hint", json={"seconds": 2})
    assert answer.status_code == 422 and "token" in answer.json()["detail"]


@pytest.mark.parametrize("seconds", [0.4, 0, -1, 10.5, 1e9, "two"])
def test_a_hint_time_outside_half_a_second_to_ten_is_refused_422(client, seconds):
    room, tokens = hotseat(client)
    answer = ask(client, room, tokens[0], seconds=seconds)
    assert answer.status_code == 422 and "seconds" in answer.json()["detail"]


def test_a_hint_when_the_seat_has_no_decision_is_refused_409(client):
    # Amarok: one seat acts at a time, so the other has no decision
    room, tokens = hotseat(client, game="amarok", players=3)
    snap = view(client, room, tokens[0])
    idle = next(s for s in tokens if s not in snap["acting"])
    answer = ask(client, room, tokens[idle])
    assert answer.status_code == 409 and "no decision" in answer.json()["detail"]


def test_a_hint_in_a_finished_game_is_refused_409(client):
    made = client.post("/api/rooms", json={"game": "alarun", "hints": True, "seats": [
        {"kind": "human", "name": "Ann"}, {"kind": "ai", "agent": "random"}]}).json()
    room, token = made["room"], made["seats"][0]["token"]
    while True:
        snap = wait_for(client, room, token, lambda s: s["terminal"] or s["legal_actions"])
        if snap["terminal"]:
            break
        client.post(f"/api/rooms/{room}/actions", json={"token": token, "action": snap["legal_actions"][0]})
    answer = ask(client, room, token)
    assert answer.status_code == 409 and "over" in answer.json()["detail"]


def test_a_second_hint_of_the_same_seat_or_past_the_servers_capacity_is_refused_429(client, monkeypatch):
    import threading

    import nemeton.teacher as teacher
    started, release = threading.Event(), threading.Event()

    def slow_hint(*args, **kwargs):
        started.set()
        release.wait(10)
        return []
    monkeypatch.setattr(teacher, "hint", slow_hint)
    hints = client.app.state.rooms.hints
    hints.capacity = 1
    room, tokens = hotseat(client)
    other, other_tokens = hotseat(client)
    first = threading.Thread(target=ask, args=(client, room, tokens[0]))
    first.start()
    try:
        assert started.wait(10)
        same = ask(client, room, tokens[0])
        assert same.status_code == 429 and "already" in same.json()["detail"]
        full = ask(client, other, other_tokens[0])
        assert full.status_code == 429 and "try again" in full.json()["detail"]
    finally:
        release.set()
        first.join(10)
    assert hints.running == set()
    assert ask(client, other, other_tokens[0]).status_code == 200  # free again


def test_a_failed_hint_answers_500_without_quoting_anything(client, monkeypatch, caplog):
    import nemeton.teacher as teacher

    def broken(spec, view, seat, **kwargs):
        raise RuntimeError(f"boom {view}")
    monkeypatch.setattr(teacher, "hint", broken)
    room, tokens = hotseat(client)
    answer = ask(client, room, tokens[0])
    assert answer.status_code == 500 and "boom" not in answer.text
    assert "boom" not in caplog.text and "RuntimeError" in caplog.text
    assert client.app.state.rooms.hints.running == set()


def test_the_search_is_given_the_seats_own_view_and_nothing_else(client, monkeypatch):
    import nemeton.teacher as teacher
    given = []

    def recording(spec, view_, seat, **kwargs):
        given.append((spec.name, view_, seat, sorted(kwargs)))
        return []
    monkeypatch.setattr(teacher, "hint", recording)
    room, tokens = hotseat(client, players=3)
    seat = view(client, room, tokens[0])["acting"][-1]
    assert ask(client, room, tokens[seat], seconds=1).status_code == 200
    assert given == [("alarun", view(client, room, tokens[seat])["view"], seat, ["seconds", "seed"])]
