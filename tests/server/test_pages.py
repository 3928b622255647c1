"""What the web client stands on: its pages (with their security headers), the catalogue of
games, a room's public description, replays of finished games and rematches."""

from __future__ import annotations

import pytest
from conftest import create, store_of, view, wait_for


def finish(client, game="amarok", seats=("human", "random", "random"), **options):
    """A room played to the end by random moves for its people; returns (room, tokens, creator)."""
    body = {"game": game, "options": options,
            "seats": [{"kind": "human", "name": f"P{i}"} if s == "human" else {"kind": "ai", "agent": s}
                      for i, s in enumerate(seats)]}
    made = client.post("/api/rooms", json=body).json()
    room, tokens = made["room"], {s["seat"]: s["token"] for s in made["seats"]}
    import random
    rng = random.Random(4)
    while not view(client, room)["terminal"]:
        for token in tokens.values():
            snap = view(client, room, token, since=10**9)
            if snap["legal_actions"]:
                client.post(f"/api/rooms/{room}/actions", json={"token": token, "action": rng.choice(snap["legal_actions"])})
    return room, tokens, made["creator"]


@pytest.mark.parametrize("path", ["/", "/rooms/abc", "/rooms/abc/replay"])
def test_pages_are_html_that_loads_only_our_own_files_and_sends_no_referrer(client, path):
    r = client.get(path)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    csp = r.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert r.headers["referrer-policy"] == "no-referrer" and r.headers["x-content-type-options"] == "nosniff"
    assert "http://" not in r.text and "https://" not in r.text  # no outside file


def test_static_files_are_served_and_nothing_outside_the_web_folder(client):
    assert client.get("/static/js/room.js").headers["content-type"].split(";")[0] in ("text/javascript", "application/javascript")
    assert client.get("/static/css/base.css").status_code == 200
    for path in ("/static/../server/db.py", "/static/%2e%2e/server/db.py", "/static/js/missing.js"):
        assert client.get(path).status_code == 404


def test_the_icon_is_served_and_a_missing_one_is_404_not_500(db_url, tmp_path, monkeypatch, caplog):
    from fastapi.testclient import TestClient

    import nemeton.server.app as app_module
    from nemeton.server.app import create_app
    with TestClient(create_app(db_url, rate_limit=None)) as c:
        r = c.get("/favicon.ico")
        assert r.status_code == 200 and r.headers["content-type"] == "image/svg+xml" and b"<svg" in r.content
    web = tmp_path / "web"  # an installation that lost its icon (as a wheel without web/*.svg did)
    web.mkdir()
    (web / "index.html").write_text((app_module.WEB / "index.html").read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(app_module, "WEB", web)
    with TestClient(create_app(db_url, rate_limit=None), raise_server_exceptions=False) as c:
        r = c.get("/favicon.ico")
        assert r.status_code == 404 and r.json()["detail"] == "no icon here"
        assert c.get("/static/favicon.svg").status_code == 404
        assert c.get("/").status_code == 200
        docs = c.get("/docs")
        assert docs.status_code == 200 and 'href="/favicon.ico"' in docs.text  # the page names it; it is 404
    assert "unexpected error" not in caplog.text


def test_the_catalogue_lists_every_game_with_its_options_help_and_agents(client):
    games = {g["name"]: g for g in client.get("/api/games").json()}
    assert set(games) == {"alarun", "amarok", "edora"}
    assert games["amarok"]["players"] == [3, 4, 5, 6]
    options = {o["name"]: o for o in games["edora"]["options"]}
    assert options["fire_pit_scoring"]["choices"] == ["rulebook", "summary"]
    assert options["board"]["kind"] == "data" and options["board"]["standard"].startswith("sha256:")
    assert all(o["help"] for g in games.values() for o in g["options"])
    assert "heuristic" in [a["spec"] for a in games["alarun"]["agents"]]


def test_a_rooms_description_is_public_and_an_unknown_room_is_404(client):
    room, tokens = create(client, "amarok", ("human", "random", "human"))
    info = client.get(f"/api/rooms/{room}").json()
    assert info["game"] == "amarok" and [s["kind"] for s in info["seats"]] == ["human", "ai", "human"]
    assert info["rematch"] is None and info["undo"] is False and info["status"] == "playing"
    assert not any(t in str(info) for t in tokens.values()) and str(store_of(client).load_room(room).seed) not in str(info)
    assert client.get("/api/rooms/nope").status_code == 404


def test_a_replay_shows_any_seats_view_at_any_step_once_the_game_has_ended(client):
    room, tokens, _ = finish(client)
    record = client.get(f"/api/rooms/{room}/record").json()
    steps = len(record["actions"])
    start = client.get(f"/api/rooms/{room}/replay", params={"step": 0, "seat": 1}).json()
    assert start["steps"] == steps and start["step"] == 0 and start["view"]["seat"] == 1 and start["last"] is None
    end = client.get(f"/api/rooms/{room}/replay").json()
    assert end["terminal"] and end["view"]["seat"] is None and end["step"] == steps
    assert end["view"] == view(client, room)["view"]
    middle = client.get(f"/api/rooms/{room}/replay", params={"step": 3, "seat": 0}).json()
    assert middle["last"] == record["actions"][2]["seat"] and len(middle["log"]) < len(end["log"])
    for params in ({"step": steps + 1}, {"seat": 3}):
        r = client.get(f"/api/rooms/{room}/replay", params=params)
        assert r.status_code == 400, r.text
    assert client.get(f"/api/rooms/{room}/replay", params={"step": -1}).status_code == 422


def test_a_rematch_is_the_creators_once_the_game_has_ended_with_the_same_seats_and_tokens(client):
    made = client.post("/api/rooms", json={"game": "amarok", "seats": [
        {"kind": "human", "name": "Ann"}, {"kind": "ai", "agent": "random"}, {"kind": "ai", "agent": "random"}]}).json()
    assert client.post(f"/api/rooms/{made['room']}/rematch", json={"token": made["creator"]}).status_code == 409
    room, tokens, creator = finish(client)
    assert client.post(f"/api/rooms/{room}/rematch", json={"token": tokens[0]}).status_code == 403
    new = client.post(f"/api/rooms/{room}/rematch", json={"token": creator}).json()["room"]
    assert client.post(f"/api/rooms/{room}/rematch", json={"token": creator}).json()["room"] == new  # once
    assert client.get(f"/api/rooms/{room}").json()["rematch"] == new
    assert view(client, room, tokens[0])["rematch"] == new
    old_row, new_row = store_of(client).load_room(room), store_of(client).load_room(new)
    assert [(s.kind, s.name, s.agent, s.token_hash) for s in new_row.seats] == [
        (s.kind, s.name, s.agent, s.token_hash) for s in old_row.seats]
    assert new_row.seed != old_row.seed and new_row.actions == [] or len(new_row.actions) < 5
    snap = wait_for(client, new, tokens[0], lambda s: s["legal_actions"] or s["terminal"])
    assert snap["view"]["seat"] == 0  # the same token plays the same seat
