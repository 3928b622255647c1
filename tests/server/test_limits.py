"""A client that floods gets 429s (HTTP) or error messages (WebSocket); others are unaffected."""

from __future__ import annotations

import json

from conftest import create, receive
from fastapi.testclient import TestClient

from nemeton.server.app import create_app
from nemeton.server.limits import Limiter


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_a_bucket_allows_a_burst_then_the_rate():
    clock = Clock()
    limiter = Limiter(rate=2, burst=3, clock=clock)
    assert [limiter.allow("a") for _ in range(4)] == [True, True, True, False]
    assert limiter.allow("b")  # another client has its own bucket
    clock.now = 0.5  # one token back
    assert [limiter.allow("a") for _ in range(2)] == [True, False]
    clock.now = 100
    assert sum(limiter.allow("a") for _ in range(10)) == 3  # never more than the burst


def test_a_flooding_client_is_answered_429_and_the_room_is_unchanged(db_url):
    with TestClient(create_app(db_url, rate_limit=(0.01, 4))) as client:
        room, tokens = create(client)
        codes = [client.get(f"/api/rooms/{room}/view").status_code for _ in range(4)]
        r = client.get(f"/api/rooms/{room}/view")
        assert client.get("/openapi.json").status_code == 200  # only the API counts
    assert codes == [200, 200, 200, 429]
    assert r.status_code == 429 and r.headers["retry-after"] == "1" and "too many" in r.json()["detail"]


def test_a_flooding_socket_gets_error_messages(db_url):
    with TestClient(create_app(db_url, rate_limit=(0.01, 4))) as client:
        room, tokens = create(client)  # 1 request
        with client.websocket_connect(f"/ws/rooms/{room}?token={tokens[0]}") as ws:  # 2
            assert receive(ws)["type"] == "state"
            for _ in range(3):
                ws.send_text(json.dumps({"type": "dance"}))
            answers = [receive(ws) for _ in range(3)]
    assert [a["status"] for a in answers] == [422, 422, 429]
    assert "too many" in answers[-1]["message"]
