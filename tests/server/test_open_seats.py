"""Online play for newcomers, at the API: open seats taken with a name and left before the
game starts, unlisted rooms, one winner when two people take one seat at once, names within a
limit, the take-back offered only when it would be granted, replays of a game still on, and
refusals that name seats as structured parts."""

from __future__ import annotations

import asyncio
import json
import random

from conftest import store_of, view, wait_for


def make(client, seats, game="alarun", listed=True, undo=False, **options):
    r = client.post("/api/rooms", json={"game": game, "options": options, "listed": listed, "undo": undo,
                                        "seats": seats})
    assert r.status_code == 201, r.text
    return r.json()


def join(client, room, seat, name):
    return client.post(f"/api/rooms/{room}/seats/{seat}/join", json={"name": name})


def lobby(client):
    r = client.get("/api/rooms")
    assert r.status_code == 200
    return {r["room"]: r for r in r.json()}


def test_an_open_seat_is_listed_taken_with_a_name_and_the_game_starts_when_every_seat_is_taken(client):
    made = make(client, [{"kind": "human", "name": "Ann"}, {"kind": "open"}, {"kind": "ai", "agent": "random"}],
                game="amarok")
    room = made["room"]
    assert [s["seat"] for s in made["seats"]] == [0]  # no token for the open seat
    listed = lobby(client)[room]
    assert listed["status"] == "waiting" and listed["open_seats"] == [1]
    ann = made["seats"][0]["token"]
    snap = view(client, room, ann)
    assert snap["waiting"] and snap["open_seats"] == [1] and snap["seats"][1]["open"]
    # nothing is played while a seat is open: the AI does not move, a person's action is refused
    moves = snap["moves"]
    if 0 in snap["acting"] and snap["legal_actions"]:
        r = client.post(f"/api/rooms/{room}/actions", json={"token": ann, "action": snap["legal_actions"][0]})
        assert r.status_code == 409 and "every seat is taken" in r.json()["detail"]
        assert r.json()["parts"][-1] == {"seat": 1}  # the open seat, as a structured reference
    assert view(client, room)["moves"] == moves
    r = join(client, room, 1, "  Bob  ")
    assert r.status_code == 200, r.text
    bob = r.json()
    assert bob["seat"] == 1 and bob["started"] and len(bob["token"]) >= 24
    snap = view(client, room, bob["token"])
    assert snap["view"]["seat"] == 1 and not snap["waiting"] and snap["seats"][1]["name"] == "Bob"
    assert lobby(client)[room]["status"] == "playing" and lobby(client)[room]["open_seats"] == []
    assert join(client, room, 1, "Cleo").status_code == 409  # the game has started
    wait_for(client, room, ann, lambda s: s["moves"] > 0 or s["legal_actions"])


def test_a_seat_taken_can_be_left_before_the_game_starts_and_its_token_then_works_no_more(client):
    made = make(client, [{"kind": "open"}, {"kind": "open"}])
    room = made["room"]
    first = join(client, room, 0, "Ann").json()
    assert not first["started"]
    r = client.post(f"/api/rooms/{room}/leave", json={"token": first["token"]})
    assert r.status_code == 200, r.text
    assert lobby(client)[room]["open_seats"] == [0, 1]
    assert client.get(f"/api/rooms/{room}/view", params={"token": first["token"]}).status_code == 403
    again = join(client, room, 0, "Dan").json()
    join(client, room, 1, "Eve")
    r = client.post(f"/api/rooms/{room}/leave", json={"token": again["token"]})
    assert r.status_code == 409 and "started" in r.json()["detail"]
    assert view(client, room)["seats"][0]["name"] == "Dan"


def test_two_people_taking_one_seat_at_once_one_gets_it_and_the_other_a_clear_message(db_url):
    import httpx

    from nemeton.server.app import create_app

    async def race():
        app = create_app(db_url, rate_limit=None)
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
                made = (await c.post("/api/rooms", json={"game": "alarun", "seats": [
                    {"kind": "human", "name": "Ann"}, {"kind": "open"}]})).json()
                room = made["room"]
                answers = await asyncio.gather(*[c.post(f"/api/rooms/{room}/seats/1/join", json={"name": n})
                                                  for n in ("Bob", "Cleo", "Dan", "Eve")])
                final = (await c.get(f"/api/rooms/{room}")).json()
                return answers, final
    answers, final = asyncio.run(race())
    codes = sorted(a.status_code for a in answers)
    assert codes == [200, 409, 409, 409], [a.text for a in answers]
    winner = next(a.json() for a in answers if a.status_code == 200)
    name = final["seats"][1]["name"]
    for a in answers:
        if a.status_code == 409:
            assert a.json()["detail"].startswith(f"{name} has taken this seat")
    assert winner["seat"] == 1 and name in ("Bob", "Cleo", "Dan", "Eve")


def test_an_unlisted_room_is_in_no_listing_and_no_answer_shows_its_tokens(client):
    made = make(client, [{"kind": "human", "name": "Ann"}, {"kind": "open"}], listed=False)
    room = made["room"]
    shown = make(client, [{"kind": "human", "name": "Zed"}, {"kind": "ai", "agent": "random"}])
    rooms = lobby(client)
    assert room not in rooms and shown["room"] in rooms
    for limit in (1, 100, 500):
        assert room not in json.dumps(client.get("/api/rooms", params={"limit": limit}).json())
    # reachable by its link: its description and the spectator's view, without any token
    info = client.get(f"/api/rooms/{room}").json()
    assert info["listed"] is False and info["status"] == "waiting"
    spectator = view(client, room)
    secrets = [made["creator"], made["seats"][0]["token"]]
    for answer in (info, spectator, client.get(f"/api/rooms/{room}/replay").json()):
        assert not any(t in json.dumps(answer) for t in secrets)
    # a stranger with the link may take its open seat
    assert join(client, room, 1, "Bob").status_code == 200


def test_names_are_bounded_and_checked_with_a_clear_message_that_changes_nothing(client):
    before = len(lobby(client))
    room = make(client, [{"kind": "open"}, {"kind": "open"}])["room"]
    # one answer on both endpoints: 422 with the same words (a name is trimmed before it is measured)
    for name, words in (("x" * 25, "is at most 24 characters; got 25"), ("a\u0007b", "control"), ("   ", "empty"),
                        ("y" * 300, "at most")):
        r = client.post("/api/rooms", json={"game": "alarun", "seats": [{"kind": "human", "name": name},
                                                                        {"kind": "ai", "agent": "random"}]})
        assert r.status_code == 422 and words in r.json()["detail"], r.text
        r = join(client, room, 0, name)
        assert r.status_code == 422 and words in r.json()["detail"], r.text
    assert len(lobby(client)) == before + 1
    assert join(client, room, 0, "W" * 24 + " " * 10).status_code == 200
    assert join(client, room, 5, "Ann").status_code == 400
    assert join(client, room, 0, "Ann").status_code == 409
    assert client.post("/api/rooms", json={"game": "alarun", "seats": [
        {"kind": "open", "name": "Ann"}, {"kind": "open"}]}).status_code == 400


def test_the_snapshot_says_whether_the_last_move_can_be_taken_back_and_why_not(client):
    made = make(client, [{"kind": "human", "name": n} for n in ("Ann", "Bob", "Cleo")], game="amarok", undo=True)
    room, tokens = made["room"], {s["seat"]: s["token"] for s in made["seats"]}
    rng = random.Random(2)
    checked = {"allowed": 0, "refused": 0}
    for _ in range(60):
        snap = view(client, room)
        if snap["terminal"]:
            break
        seat = snap["acting"][0]
        mine = view(client, room, tokens[seat])
        client.post(f"/api/rooms/{room}/actions", json={"token": tokens[seat], "action": rng.choice(mine["legal_actions"])})
        after = view(client, room, tokens[seat])
        info = after["take_back"]
        r = client.post(f"/api/rooms/{room}/undo", json={"token": tokens[seat], "version": after["version"]})
        if info["allowed"]:
            assert r.status_code == 200, r.text  # offered: granted
            checked["allowed"] += 1
            client.post(f"/api/rooms/{room}/actions", json={"token": tokens[seat], "action": rng.choice(mine["legal_actions"])})
        else:
            assert r.status_code == 409 and r.json()["detail"] == info["reason"]  # refused with the same reason
            assert r.json()["parts"] == info["parts"] and "\ue000" not in info["reason"]
            checked["refused"] += 1
        other = view(client, room, tokens[(seat + 1) % 3])["take_back"]
        assert other["allowed"] is False and other["reason"]
    assert checked["allowed"] > 0 and checked["refused"] > 0, checked
    assert view(client, room)["take_back"] is None  # the spectator takes nothing back


def test_a_replay_of_a_game_still_on_shows_the_moves_so_far_to_the_spectator_and_a_seat_only_to_itself(client):
    made = make(client, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}], game="alarun")
    room, tokens = made["room"], {s["seat"]: s["token"] for s in made["seats"]}
    rng = random.Random(5)
    for _ in range(6):
        for seat, token in tokens.items():
            snap = view(client, room, token)
            if snap["legal_actions"]:
                client.post(f"/api/rooms/{room}/actions", json={"token": token, "action": rng.choice(snap["legal_actions"])})
    live = view(client, room)
    latest = client.get(f"/api/rooms/{room}/replay").json()
    assert latest["over"] is False and latest["steps"] == live["moves"] and latest["view"] == live["view"]
    assert client.get(f"/api/rooms/{room}/replay", params={"step": 2}).json()["step"] == 2
    r = client.get(f"/api/rooms/{room}/replay", params={"seat": 0})
    assert r.status_code == 403 and "token" in r.json()["detail"]
    other = client.get(f"/api/rooms/{room}/replay", params={"seat": 0},
                       headers={"Authorization": f"Bearer {tokens[1]}"})
    assert other.status_code == 403
    own = client.get(f"/api/rooms/{room}/replay", params={"seat": 0, "step": latest["steps"]},
                     headers={"Authorization": f"Bearer {tokens[0]}"})
    assert own.status_code == 200 and own.json()["view"] == view(client, room, tokens[0])["view"]


def test_a_refusal_names_seats_as_structured_parts(client):
    made = make(client, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"},
                         {"kind": "human", "name": "Cleo"}], game="amarok")
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    room = made["room"]
    snap = view(client, room)
    waiting = next(s for s in tokens if s not in snap["acting"])
    legal = view(client, room, tokens[snap["acting"][0]])["legal_actions"]
    r = client.post(f"/api/rooms/{room}/actions", json={"token": tokens[waiting], "action": legal[0]})
    assert r.status_code == 409
    body = r.json()
    assert {"seat": snap["acting"][0]} in body["parts"]
    text = "".join(p if isinstance(p, str) else "NAME" for p in body["parts"])
    assert "NAME" in text and not any(ch.isdigit() for ch in text), text
    assert "\ue000" not in body["detail"]


def test_a_rematch_of_an_unlisted_room_is_unlisted_too(client):
    made = make(client, [{"kind": "human", "name": "Ann"}, {"kind": "ai", "agent": "random"},
                         {"kind": "ai", "agent": "random"}], game="amarok", listed=False)
    room, token = made["room"], made["seats"][0]["token"]
    rng = random.Random(1)
    while True:
        snap = view(client, room, token, since=10**9)
        if snap["terminal"]:
            break
        if snap["legal_actions"]:
            client.post(f"/api/rooms/{room}/actions", json={"token": token, "action": rng.choice(snap["legal_actions"])})
    new = client.post(f"/api/rooms/{room}/rematch", json={"token": made["creator"]}).json()["room"]
    assert store_of(client).load_room(new).listed is False and new not in lobby(client)
