"""The HTTP contract: every endpoint, and every refusal leaving the room unchanged."""

from __future__ import annotations

import hashlib
import json
import random
from datetime import datetime, timedelta, timezone

import pytest
from conftest import Mirror, create, store_of, view, wait_for
from fastapi.testclient import TestClient

from nemeton.server.app import create_app


def unchanged(client, room):
    """What must not move when a request is refused: the stored row and every view."""
    row = store_of(client).load_room(room)
    return row.version, row.actions, view(client, room)


def first_action(client, room, tokens, seat=0):
    snap = view(client, room, tokens[seat])
    return snap["legal_actions"][0], snap["version"]


# ----- creating rooms ----------------------------------------------------------------------
def test_creating_a_room_returns_a_token_per_person_and_stores_only_its_hash(client):
    room, tokens = create(client, "alarun", ("human", "random", "human"), players=3)
    assert sorted(tokens) == [0, 2]
    row = store_of(client).load_room(room)
    assert [s.kind for s in row.seats] == ["human", "ai", "human"]
    assert [s.token_hash for s in row.seats] == [hashlib.sha256(tokens[0].encode()).hexdigest(), None,
                                                 hashlib.sha256(tokens[2].encode()).hexdigest()]
    assert row.version == 0 and row.status == "playing"
    assert len(tokens[0]) >= 32 and tokens[0] != tokens[2]


def test_players_default_to_the_number_of_seats(client):
    room, _ = create(client, "alarun", ("human", "human", "human"))
    assert view(client, room)["view"]["players"] == 3


@pytest.mark.parametrize("body, status, words", [
    ({"game": "chess", "seats": [{"kind": "human"}]}, 400, "unknown game"),
    ({"game": "alarun", "options": {"players": 9}, "seats": [{"kind": "human"}] * 9}, 400, "players"),
    ({"game": "alarun", "options": {"action_cap": "lots"}, "seats": [{"kind": "human"}] * 2}, 400, "action_cap"),
    ({"game": "alarun", "options": {"colour": 1}, "seats": [{"kind": "human"}] * 2}, 400, "colour"),
    ({"game": "alarun", "options": {"players": 3}, "seats": [{"kind": "human"}] * 2}, 400, "3 seats"),
    ({"game": "alarun", "seats": [{"kind": "human"}, {"kind": "ai", "agent": "genius"}]}, 400, "unknown agent"),
    ({"game": "alarun", "seats": [{"kind": "human"}, {"kind": "ai", "agent": "ismcts:depth=3"}]}, 400, "depth"),
    ({"game": "alarun", "seats": [{"kind": "human"}, {"kind": "ai"}]}, 400, "agent spec"),
    ({"game": "alarun", "seats": [{"kind": "human", "agent": "random"}] * 2}, 400, "takes no agent"),
    ({"game": "alarun", "seats": [{"kind": "robot"}, {"kind": "human"}]}, 422, "kind"),
    ({"game": "alarun", "seats": [{"kind": "human", "token": "mine"}] * 2}, 422, "token"),
    ({"game": "alarun", "seats": []}, 422, "seats"),
    ({"seats": [{"kind": "human"}] * 2}, 422, "game"),
])
def test_a_bad_room_is_refused_with_a_message_and_nothing_is_stored(client, body, status, words):
    r = client.post("/api/rooms", json=body)
    assert r.status_code == status
    assert words in r.json()["detail"]
    assert store_of(client).room_ids() == []


def test_a_body_that_is_not_json_is_refused(client):
    r = client.post("/api/rooms", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 422 and "malformed" in r.json()["detail"]


def test_an_oversized_body_is_refused_before_it_is_read(client):
    r = client.post("/api/rooms", content=b"x" * 1_000_001, headers={"content-type": "application/json"})
    assert r.status_code == 413 and "too large" in r.json()["detail"]


# ----- views ---------------------------------------------------------------------------------
def test_a_seat_sees_its_view_legal_actions_and_log(client):
    room, tokens = create(client, "alarun", ("human", "human"))
    mirror = Mirror(client, room)
    for seat in (0, 1):
        snap = view(client, room, tokens[seat])
        state = mirror.check(snap, seat)
        assert snap["view"]["seat"] == seat and snap["version"] == 0
        assert snap["legal_actions"] == [a.to_json() for a in state.legal_actions(seat)]
    assert view(client, room, tokens[0])["legal_actions"] and not view(client, room, tokens[1])["legal_actions"]


def test_without_a_token_one_watches_as_the_spectator(client):
    room, _ = create(client, "alarun", ("human", "human"))
    snap = view(client, room)
    Mirror(client, room).check(snap, None)
    assert snap["view"]["seat"] is None and snap["legal_actions"] == []


def test_since_returns_only_the_newer_log_entries(client):
    room, tokens = create(client, "alarun", ("human", "human"))
    whole = view(client, room, tokens[0])["log"]
    assert len(whole) > 2
    assert view(client, room, tokens[0], since=2)["log"] == whole[2:]
    assert view(client, room, tokens[0], since=10**9)["log"] == []


def test_an_unknown_token_or_room_is_refused(client):
    room, _ = create(client, "alarun", ("human", "human"))
    r = client.get(f"/api/rooms/{room}/view", params={"token": "guess"})
    assert r.status_code == 403 and r.json()["detail"] == "unknown token for this room"
    r = client.get("/api/rooms/nope/view")
    assert r.status_code == 404 and "no room" in r.json()["detail"]


# ----- actions -------------------------------------------------------------------------------
def test_an_action_is_applied_stored_and_answered_with_the_new_view(client):
    room, tokens = create(client, "alarun", ("human", "human"))
    action, version = first_action(client, room, tokens)
    r = client.post(f"/api/rooms/{room}/actions", json={"token": tokens[0], "action": action, "version": version})
    assert r.status_code == 200, r.text
    snap = r.json()
    assert snap["version"] == 1
    assert store_of(client).load_room(room).actions == [(0, action)]
    Mirror(client, room).check(snap, 0)
    assert snap["log"][-1]["seat"] == 0


def refusals(client, room, tokens):
    """(request, status, words) for each way an action can be refused in a fresh room."""
    action, version = first_action(client, room, tokens)
    other = view(client, room, tokens[1])
    assert other["legal_actions"] == []
    url = f"/api/rooms/{room}/actions"
    return [
        (("post", url, {"content": b"{oops", "headers": {"content-type": "application/json"}}), 422, "malformed"),
        (("post", url, {"json": {"token": tokens[0]}}), 422, "action"),
        (("post", url, {"json": {"token": tokens[0], "action": action, "extra": 1}}), 422, "extra"),
        (("post", url, {"json": {"token": tokens[0], "action": [1, 2]}}), 422, "action"),
        (("post", "/api/rooms/nope/actions", {"json": {"token": tokens[0], "action": action}}), 404, "no room"),
        (("post", url, {"json": {"token": "forged", "action": action}}), 403, "unknown token"),
        (("post", url, {"json": {"token": tokens[1], "action": action}}), 409, "not your turn"),
        (("post", url, {"json": {"token": tokens[0], "action": {"type": "fly"}}}), 400, "illegal action"),
        (("post", url, {"json": {"token": tokens[0], "action": {"type": action["type"]}}}), 400, "illegal action"),
        (("post", url, {"json": {"token": tokens[0], "action": action, "version": version + 1}}), 409, "stale version"),
        (("post", url, {"json": {"token": tokens[0], "action": action, "version": -1}}), 422, "version"),
    ]


def test_every_refused_action_says_why_and_leaves_the_room_unchanged(client):
    room, tokens = create(client, "alarun", ("human", "human"))
    for (method, url, kwargs), status, words in refusals(client, room, tokens):
        before = unchanged(client, room)
        r = client.request(method.upper(), url, **kwargs)
        assert r.status_code == status, (url, kwargs, r.text)
        assert words in r.json()["detail"], r.json()
        assert "Traceback" not in r.text
        assert unchanged(client, room) == before


def test_an_action_with_an_old_version_is_refused_after_the_room_moved_on(client):
    room, tokens = create(client, "alarun", ("human", "human"))
    action, version = first_action(client, room, tokens)
    assert client.post(f"/api/rooms/{room}/actions",
                       json={"token": tokens[0], "action": action, "version": version}).status_code == 200
    snap = view(client, room, tokens[0])
    mover = 0 if snap["legal_actions"] else 1
    again = view(client, room, tokens[mover])["legal_actions"][0]
    before = unchanged(client, room)
    r = client.post(f"/api/rooms/{room}/actions", json={"token": tokens[mover], "action": again, "version": version})
    assert r.status_code == 409 and "stale version 0" in r.json()["detail"]
    assert unchanged(client, room) == before


def play_out(client, room, tokens):
    """Play every person's seat with random legal actions until the game ends."""
    rng = random.Random(1)
    while True:
        snaps = {seat: view(client, room, token, since=10**9) for seat, token in tokens.items()}
        if any(s["terminal"] for s in snaps.values()):
            return
        for seat, snap in snaps.items():
            if snap["legal_actions"]:
                client.post(f"/api/rooms/{room}/actions",
                            json={"token": tokens[seat], "action": rng.choice(snap["legal_actions"])})


def test_acting_after_the_end_is_refused_and_the_record_is_served_only_then(client):
    room, tokens = create(client, "alarun", ("human", "human"))
    r = client.get(f"/api/rooms/{room}/record")
    assert r.status_code == 403 and "once the game has ended" in r.json()["detail"]
    action, _ = first_action(client, room, tokens)
    play_out(client, room, tokens)
    before = unchanged(client, room)
    r = client.post(f"/api/rooms/{room}/actions", json={"token": tokens[0], "action": action})
    assert r.status_code == 409 and "game is over" in r.json()["detail"]
    assert unchanged(client, room) == before
    record = client.get(f"/api/rooms/{room}/record").json()
    row = store_of(client).load_room(room)
    assert record["seed"] == row.seed and record["game"] == "alarun"
    assert [(a["seat"], a["action"]) for a in record["actions"]] == row.actions
    assert client.get("/api/rooms/nope/record").status_code == 404


def test_the_lobby_lists_rooms_with_their_seats_and_nothing_hidden(client):
    room, tokens = create(client, "amarok", ("human", "heuristic", "human"), players=3)
    wait_for(client, room, tokens[0], lambda s: s["acting"] != [1])
    rooms = client.get("/api/rooms").json()
    assert [r["room"] for r in rooms] == [room]
    entry = rooms[0]
    assert (entry["game"], entry["players"], entry["status"], entry["open_seats"]) == ("amarok", 3, "playing", [])
    assert [s["connected"] for s in entry["seats"]] == [False, False, False]  # nobody's page is open
    assert [s["kind"] for s in entry["seats"]] == ["human", "ai", "human"]
    # when it was made, with its zone (UTC), for a client to say it in its reader's language
    made = datetime.fromisoformat(entry["created_at"])
    assert made.utcoffset() == timedelta(0)
    assert abs((datetime.now(timezone.utc) - made).total_seconds()) < 120
    text = json.dumps(rooms)
    row = store_of(client).load_room(room)
    for secret in [str(row.seed), *tokens.values(), *(s.token_hash for s in row.seats if s.token_hash)]:
        assert secret not in text


def test_an_unexpected_error_is_a_bare_500_logged_on_the_server(db_url, caplog):
    app = create_app(db_url)
    with TestClient(app, raise_server_exceptions=False) as client:
        room, tokens = create(client)

        async def broken(*args, **kwargs):
            raise RuntimeError("secret internals /etc/passwd")
        app.state.rooms.view = broken
        r = client.get(f"/api/rooms/{room}/view", params={"token": tokens[0]})
    assert r.status_code == 500
    assert r.json() == {"detail": "internal server error"}
    assert "secret internals" in caplog.text


def test_the_openapi_schema_documents_every_route(client):
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/rooms", "/api/rooms/{room}/view", "/api/rooms/{room}/actions", "/api/rooms/{room}/record",
            "/api/rooms/{room}/undo", "/api/rooms/{room}/return", "/api/rooms/{room}/seats/{seat}"} <= set(paths)


@pytest.mark.parametrize("agent, words", [("ismcts:seconds=60", "at most 10 seconds"),
                                          ("ismcts:iterations=10000000", "iterations")])
def test_an_agent_asking_for_more_think_time_than_the_server_allows_is_refused(client, agent, words):
    r = client.post("/api/rooms", json={"game": "alarun", "seats": [{"kind": "human"}, {"kind": "ai", "agent": agent}]})
    assert r.status_code == 400 and words in r.json()["detail"]


def test_tokens_in_query_strings_never_reach_the_access_log():
    import logging

    from nemeton.server.app import RedactTokens
    record = logging.LogRecord("uvicorn.access", logging.INFO, "", 0, '%s - "%s %s HTTP/%s" %d', (
        "127.0.0.1:5", "GET", "/api/rooms/r/view?token=s3cr3t&since=2", "1.1", 200), None)
    RedactTokens().filter(record)
    assert "s3cr3t" not in record.getMessage() and "token=***&since=2" in record.getMessage()


def test_a_seat_may_send_its_token_in_an_authorization_header_instead_of_the_url(client):
    room, tokens = create(client, "alarun", ("human", "human"))
    by_header = client.get(f"/api/rooms/{room}/view", headers={"Authorization": f"Bearer {tokens[1]}"})
    assert by_header.json() == view(client, room, tokens[1])
    assert by_header.json()["view"]["seat"] == 1
    r = client.get(f"/api/rooms/{room}/view", headers={"Authorization": "Basic abc"})
    assert r.status_code == 401 and "Bearer" in r.json()["detail"]
    r = client.get(f"/api/rooms/{room}/view", headers={"Authorization": "Bearer forged"})
    assert r.status_code == 403
