"""Absent players: the room's creator hands a person's seat to an agent and back; the
schema migrates from its first version."""

from __future__ import annotations

from conftest import Mirror, create, store_of, view, wait_for
from fastapi.testclient import TestClient
from sqlalchemy import create_engine

from nemeton.server.app import create_app
from nemeton.server.db import open_engine


def create_with_creator(client, game="alarun", seats=("human", "human"), **options):
    body = {"game": game, "options": options, "seats": [{"kind": "human", "name": f"P{i}"} if s == "human"
                                                        else {"kind": "ai", "agent": s} for i, s in enumerate(seats)]}
    data = client.post("/api/rooms", json=body).json()
    return data["room"], {s["seat"]: s["token"] for s in data["seats"]}, data["creator"]


def hand(client, room, seat, token, agent):
    return client.post(f"/api/rooms/{room}/seats/{seat}", json={"token": token, "agent": agent})


def move(client, room, token):
    snap = view(client, room, token)
    r = client.post(f"/api/rooms/{room}/actions", json={"token": token, "action": snap["legal_actions"][0]})
    assert r.status_code == 200, r.text
    return r.json()


def test_a_seat_handed_to_an_agent_is_played_by_it_until_handed_back(client):
    room, tokens, creator = create_with_creator(client)
    r = hand(client, room, 1, creator, "random")
    assert r.status_code == 200 and r.json() == {"seat": 1, "stand_in": "random", "version": 1}
    assert client.get("/api/rooms").json()[0]["seats"][1]["stand_in"] == "random"
    move(client, room, tokens[0])  # then the agent plays seat 1 at once
    wait_for(client, room, tokens[0], lambda s: s["legal_actions"] or s["terminal"])
    row = store_of(client).load_room(room)
    assert [seat for seat, _ in row.actions[:2]] == [0, 1]
    blocked = view(client, room, tokens[1])
    assert blocked["legal_actions"] == []  # the person watches their seat being played
    Mirror(client, room).check(blocked, 1)
    assert hand(client, room, 1, creator, None).json()["stand_in"] is None
    move(client, room, tokens[0])
    snap = wait_for(client, room, tokens[1], lambda s: s["legal_actions"] or s["terminal"])
    assert snap["legal_actions"]  # the person plays again
    assert len(store_of(client).load_room(room).actions) == 3


def test_a_person_whose_seat_an_agent_plays_cannot_act(client):
    room, tokens, creator = create_with_creator(client)
    hand(client, room, 0, creator, "ismcts:iterations=5")
    # seat 0 acts first: its stand-in moves; try to act as the person meanwhile
    r = client.post(f"/api/rooms/{room}/actions", json={"token": tokens[0], "action": {"type": "pass"}})
    assert r.status_code == 409 and "played by ismcts:iterations=5" in r.json()["detail"]


def test_only_the_creator_hands_people_seats_to_valid_agents_and_refusals_change_nothing(client):
    room, tokens, creator = create_with_creator(client, seats=("human", "random"))
    cases = [
        (hand(client, room, 0, tokens[0], "random"), 403, "creator"),
        (hand(client, room, 0, "forged", "random"), 403, "creator"),
        (hand(client, room, 1, creator, "random"), 400, "not a person's seat"),
        (hand(client, room, 5, creator, "random"), 400, "not a person's seat"),
        (hand(client, room, 0, creator, "genius"), 400, "unknown agent"),
        (hand(client, room, 0, creator, "ismcts:seconds=99"), 400, "at most"),
        (client.post(f"/api/rooms/{room}/seats/0", json={"token": creator}), 422, "agent"),
        (hand(client, "nope", 0, creator, "random"), 404, "no room"),
    ]
    for r, status, words in cases:
        assert r.status_code == status and words in r.json()["detail"], r.text
    row = store_of(client).load_room(room)
    assert row.version == 0 and row.seats[0].stand_in is None


def test_a_stand_in_survives_a_restart(db_url):
    with TestClient(create_app(db_url, rate_limit=None)) as client:
        room, tokens, creator = create_with_creator(client, game="amarok", seats=("human", "human", "human"))
        hand(client, room, 1, creator, "heuristic")
        hand(client, room, 2, creator, "random")
    with TestClient(create_app(db_url, rate_limit=None)) as client:
        rng_moves = 0
        while not view(client, room)["terminal"]:
            snap = wait_for(client, room, tokens[0], lambda s: s["legal_actions"] or s["terminal"])
            if snap["terminal"]:
                break
            move(client, room, tokens[0])
            rng_moves += 1
        row = store_of(client).load_room(room)
    assert {seat for seat, _ in row.actions} == {0, 1, 2} and rng_moves > 0


def test_a_database_of_the_first_schema_is_migrated_and_its_rooms_still_play(tmp_path):
    from alembic import command
    from alembic.config import Config

    from nemeton.server import db
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = create_engine(url)
    config = Config()
    config.set_main_option("script_location", str(db.Path(db.__file__).parent / "migrations"))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
        connection.exec_driver_sql(
            "INSERT INTO rooms (id, game, rules_version, options, seed, status, version, undo, created_at, "
            "updated_at) VALUES ('old', 'alarun', 1, '{\"players\": 2}', '5', 'playing', 0, 0, "
            "'2026-01-01 00:00:00', '2026-01-01 00:00:00')")
        connection.exec_driver_sql(
            "INSERT INTO seats (room_id, seat, kind, name, agent, token_hash) VALUES "
            "('old', 0, 'human', 'A', NULL, NULL), ('old', 1, 'ai', NULL, 'random', NULL)")
    open_engine(url)
    with TestClient(create_app(url, rate_limit=None)) as client:
        snap = view(client, "old")
        assert snap["view"]["players"] == 2 and snap["moves"] == 0
        assert client.get("/api/rooms").json()[0]["seats"][1]["stand_in"] is None


def test_handing_a_seat_over_in_a_room_another_process_changed_is_refused_as_stale(client):
    room, tokens, creator = create_with_creator(client)
    move(client, room, tokens[0])
    store = store_of(client)
    row = store.load_room(room)
    store.set_stand_in(room, row.version, 1, "random")  # as another server process would
    r = hand(client, room, 1, creator, "heuristic")
    assert r.status_code == 409 and "stale version" in r.json()["detail"]
    assert client.get("/api/rooms").json()[0]["seats"][1]["stand_in"] == "random"
    assert view(client, room, tokens[1])["stand_in"] == {"agent": "random", "until_return": False}
