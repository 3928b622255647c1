"""The defects an independent audit of the server found, each with the test that shows it fixed.

Agents by name only (the operator's), binary WebSocket frames, clients that send but never
read, lone surrogates echoed in answers, a lobby that blocked the event loop, a percent-encoded
``token`` in access logs, the contract's statuses (413, 422, 4429), forwarded headers trusted
from loopback, and room creation cheaper for a client than for the server."""

from __future__ import annotations

import asyncio
import http.client
import json
import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from conftest import create, receive, start_uvicorn, view, wait_for
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from test_helpers import call, free_port, served

from nemeton.engine import get_game
from nemeton.server.agents import AgentConfigError, AgentPolicy
from nemeton.server.app import create_app, serve_socket
from nemeton.server.db import SeatRow
from nemeton.server.rooms import QUEUE_SIZE, BadRequest, Subscriber, hash_token


def seats(*agents):
    return [{"kind": "human", "name": "Ann"}] + [{"kind": "ai", "agent": a} for a in agents]


# ----- 1. agents by name ---------------------------------------------------------------------
def test_a_default_server_offers_named_agents_and_refuses_raw_specs(db_url):
    with TestClient(create_app(db_url, rate_limit=None)) as client:
        offered = client.get("/api/games").json()[0]["agents"]
        assert [(a["name"], a["spec"]) for a in offered] == [
            ("random", "random"), ("heuristic", "heuristic"), ("search-1s", "search-1s"), ("search-3s", "search-3s")]
        r = client.post("/api/rooms", json={"game": "alarun", "seats": seats("ismcts:iterations=200:workers=2")})
        assert r.status_code == 400
        assert "unknown agent" in r.json()["detail"] and "random, heuristic, search-1s, search-3s" in r.json()["detail"]
        r = client.post("/api/rooms", json={"game": "alarun", "seats": seats("search-1s")})
        assert r.status_code == 201, r.text
        room, creator = r.json()["room"], r.json()["creator"]
        assert client.get(f"/api/rooms/{room}").json()["seats"][1]["agent"] == "search-1s"
        # the creator hands a seat over by name too
        r = client.post(f"/api/rooms/{room}/seats/0", json={"token": creator, "agent": "ismcts:seconds=1"})
        assert r.status_code == 400 and "search-1s" in r.json()["detail"]


def test_an_operators_names_are_what_clients_choose_and_stored_raw_specs_still_play(db_url):
    policy = AgentPolicy({"quick": "ismcts:iterations=30", "random": "random"})
    with TestClient(create_app(db_url, rate_limit=None, agents=policy)) as client:
        assert [a["spec"] for a in client.get("/api/games").json()[0]["agents"]] == ["quick", "random"]
        assert client.post("/api/rooms", json={"game": "alarun", "seats": seats("heuristic")}).status_code == 400
        r = client.post("/api/rooms", json={"game": "amarok", "seats": seats("quick", "random")})
        assert r.status_code == 201, r.text
        room, token, creator = r.json()["room"], r.json()["seats"][0]["token"], r.json()["creator"]
        r = client.post(f"/api/rooms/{room}/seats/0", json={"token": creator, "agent": "quick"})
        assert r.status_code == 200 and r.json()["stand_in"] == "quick"
        assert wait_for(client, room, token, lambda s: s["terminal"], timeout=60)["terminal"]  # "quick" played
        # a room stored with a raw spec (before names) replays and its agent plays
        store = client.app.state.rooms.store
        store.create_room("old", "amarok", get_game("amarok").rules_version, {"players": 3}, 7,
                          [SeatRow(0, "human", "Ann", None, hash_token("tok")),
                           SeatRow(1, "ai", None, "ismcts:iterations=20", None), SeatRow(2, "ai", None, "random", None)])
    with TestClient(create_app(db_url, rate_limit=None, agents=policy)) as client:
        snap = view(client, "old", "tok")
        client.post("/api/rooms/old/actions", json={"token": "tok", "action": snap["legal_actions"][0]})
        assert wait_for(client, "old", "tok", lambda s: s["moves"] >= 3 or s["terminal"])


@pytest.mark.parametrize("spec, words", [("ismcts:iterations=20001", "20,000 iterations"),
                                         ("ismcts:seconds=10.5", "10 seconds"),
                                         ("ismcts:iterations=100:workers=999", "workers"),
                                         ("ismcts:depth=2", "depth")])
def test_an_operators_agents_are_bounded_when_the_server_starts(spec, words, tmp_path):
    with pytest.raises(AgentConfigError, match=words):
        AgentPolicy({"strong": spec})
    from test_helpers import NEMETON
    import subprocess
    done = subprocess.run([NEMETON, "serve", "--agent", f"strong={spec}"], capture_output=True, text=True, timeout=60,
                          env={"NEMETON_DATA": str(tmp_path), "PATH": ""})
    assert done.returncode != 0 and words in done.stdout + done.stderr


# ----- 2. binary frames ----------------------------------------------------------------------
def test_a_binary_frame_is_answered_with_an_error_and_the_socket_stays(client):
    room, tokens = create(client)
    with client.websocket_connect(f"/ws/rooms/{room}?token={tokens[0]}") as ws:
        assert receive(ws)["type"] == "state"
        ws.send_bytes(b'{"type": "return"}')
        error = receive(ws)
        assert error["type"] == "error" and error["status"] == 422 and "JSON text" in error["message"]
        ws.send_text(json.dumps({"type": "return"}))
        assert receive(ws)["type"] == "ok"


# ----- 3. a client that sends but never reads ------------------------------------------------
class StuckSocket:
    """A WebSocket whose client reads nothing: sending blocks for ever."""

    def __init__(self, messages, query):
        self.incoming = list(messages)
        self.closed = None
        self.scope = {"client": ("127.0.0.1", 1), "query_string": query.encode()}

    async def accept(self):
        pass

    async def send_json(self, message):
        await asyncio.Event().wait()

    send_text = send_json

    async def receive(self):
        if self.incoming:
            return {"type": "websocket.receive", "text": self.incoming.pop(0)}
        await asyncio.sleep(0.01)
        return {"type": "websocket.disconnect", "code": 1000}

    async def receive_text(self):
        message = await self.receive()
        if message["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(1000)
        return message["text"]

    async def close(self, code=1000, reason=None):
        self.closed = code


def test_a_client_that_reads_nothing_is_closed_once_with_4429(client, caplog):
    room, tokens = create(client)
    socket_ = StuckSocket([json.dumps({"type": "return"})] * (QUEUE_SIZE + 200), "")
    rooms = client.app.state.rooms
    with caplog.at_level(logging.WARNING, logger="nemeton.server"):
        client.portal.call(serve_socket, socket_, rooms, room, tokens[0], None)
    assert socket_.closed == 4429
    lines = [r for r in caplog.records if "reads none" in r.getMessage()]
    assert len(lines) == 1
    assert not any(r.levelno >= logging.ERROR for r in caplog.records)


def test_a_lagging_client_gets_one_resync_state_not_a_backlog(client):
    room_id, tokens = create(client, "amarok", ("human", "human", "human"), players=3)

    async def lag():
        room = await client.app.state.rooms.get(room_id)
        sub = Subscriber(0)
        room.subscribers.add(sub)
        try:
            sub.queue.put_nowait({"type": "ok", "version": 0})
            for _ in range(QUEUE_SIZE + 50):  # the room changes; the client reads nothing
                room.publish()
            return list(sub.queue._queue)
        finally:
            room.subscribers.discard(sub)

    waiting = client.portal.call(lag)
    assert len(waiting) <= QUEUE_SIZE
    assert waiting[0] == {"type": "ok", "version": 0}  # answers are never dropped
    states = [m for m in waiting if m["type"] == "state"]
    assert sum(bool(m.get("resync")) for m in states) == 1
    log = []  # what the client rebuilds when it reads at last: the whole log, nothing twice
    for m in states:
        log = list(m["log"]) if m.get("resync") else log + m["log"]
    assert log == view(client, room_id, tokens[0])["log"]


# ----- 4. lone surrogates --------------------------------------------------------------------
def test_a_lone_surrogate_in_a_request_is_refused_not_a_500(client, monkeypatch):
    body = b'{"game": "alarun", "options": {"\\ud800": 1}, "seats": [{"kind": "human"}, {"kind": "human"}]}'
    r = client.post("/api/rooms", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 400, r.text
    # Whatever text a refusal echoes (the engine escapes what it quotes; other messages may
    # not), the server's answers are valid UTF-8: a lone surrogate becomes U+FFFD.
    room, tokens = create(client)
    rooms = client.app.state.rooms

    async def refuse(*args, **kwargs):
        raise BadRequest("illegal action: no field '\ud800' here")
    monkeypatch.setattr(rooms, "act", refuse)
    r = client.post(f"/api/rooms/{room}/actions", json={"token": tokens[0], "action": {"type": "pass"}})
    assert r.status_code == 400 and r.json()["detail"] == "illegal action: no field '\ufffd' here"
    with client.websocket_connect(f"/ws/rooms/{room}?token={tokens[0]}") as ws:
        assert receive(ws)["type"] == "state"
        ws.send_text(json.dumps({"type": "action", "action": {"type": "pass"}}))
        error = receive(ws)
        assert error["type"] == "error" and error["status"] == 400 and "\ufffd" in error["message"]
        ws.send_text(json.dumps({"type": "return"}))
        assert receive(ws)["type"] == "ok"  # the socket stays


# ----- 5. the lobby does not block the event loop --------------------------------------------
def edora_board(i: int) -> str:
    import dataclasses
    spec = get_game("edora")
    standard = next(f for f in dataclasses.fields(spec.options_cls) if f.name == "board").metadata["standard"]()
    notes = ", ".join(f'"{i:02} {n:04} ' + "y" * 50 + '"' for n in range(3000))
    return standard.replace("board:", f"notes: [{notes}]\nboard:", 1)


def test_the_lobby_of_big_boards_does_not_hold_up_other_requests(client):
    boards = [edora_board(i) for i in range(12)]
    assert all(190_000 < len(b) <= 200_000 for b in boards)
    for board in boards:
        r = client.post("/api/rooms", json={"game": "edora", "options": {"board": board}, "seats": seats("random")})
        assert r.status_code == 201, r.text
    listing = client.get("/api/rooms").json()
    assert all(r["options"]["board"].startswith("sha256:") for r in listing)
    stop = threading.Event()

    def lobby():
        while not stop.is_set():
            assert client.get("/api/rooms").status_code == 200

    with ThreadPoolExecutor(2) as pool:
        listers = [pool.submit(lobby) for _ in range(2)]
        time.sleep(0.2)
        waits = []
        for _ in range(10):
            t0 = time.perf_counter()
            assert client.get("/api/games").status_code == 200
            waits.append(time.perf_counter() - t0)
        stop.set()
        for f in listers:
            f.result()
    print(f"\n/api/games waits while the lobby lists: max {max(waits) * 1000:.0f} ms")
    assert max(waits) < 0.3, f"/api/games waited {max(waits):.2f} s while the lobby listed"


# ----- 6. tokens in access logs --------------------------------------------------------------
@pytest.fixture
def live(db_url):
    """The app on a real uvicorn in a thread (access log through the logging module)."""
    import uvicorn
    port = free_port()
    server, thread = start_uvicorn(uvicorn.Config(create_app(db_url, rate_limit=None), host="127.0.0.1", port=port,
                                                  log_config=None, access_log=True, lifespan="on"))
    yield port
    server.should_exit = True
    thread.join(20)


def test_a_percent_encoded_token_parameter_is_redacted_in_the_access_log(live, caplog):
    conn = http.client.HTTPConnection("127.0.0.1", live, timeout=10)
    status, made = call(conn, "POST", "/api/rooms", {"game": "alarun", "seats": [{"kind": "human"}] * 2})
    token = made["seats"][0]["token"]
    with caplog.at_level(logging.INFO, logger="uvicorn.access"):
        for name in ("tok%65n", "%74oken", "token"):
            status, snap = call(conn, "GET", f"/api/rooms/{made['room']}/view?since=0&{name}={token}")
            assert status == 200 and snap["legal_actions"]  # it authenticates as the seat
        time.sleep(0.2)
    logged = [r.getMessage() for r in caplog.records if r.name == "uvicorn.access"]
    assert len([line for line in logged if "/view" in line]) == 3
    assert not [line for line in logged if token in line]
    assert all("=***" in line for line in logged if "/view" in line)


# ----- 7. the contract's statuses ------------------------------------------------------------
def test_a_chunked_body_over_the_limit_is_413(client):
    def chunks():
        for _ in range(20):
            yield b" " * 100_000
    r = client.post("/api/rooms", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413 and "too large" in r.json()["detail"]


@pytest.mark.parametrize("body", [b"[" * 100_000, b'{"game": "\xff\xfe"}', b"\xff" * 10])
def test_a_body_that_is_not_json_is_422(client, body):
    r = client.post("/api/rooms", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 422 and "malformed" in r.json()["detail"]


def test_a_socket_over_the_limit_is_closed_with_4429(db_url):
    with TestClient(create_app(db_url, rate_limit=(0.01, 2))) as client:
        room, tokens = create(client)  # 1 request, 1 room
        with client.websocket_connect(f"/ws/rooms/{room}") as ws:  # 2
            assert receive(ws)["type"] == "state"
        with client.websocket_connect(f"/ws/rooms/{room}") as ws:  # 3: over, yet accepted
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
        assert closed.value.code == 4429


# ----- 8. forwarded headers ------------------------------------------------------------------
def burst(port, n, forwarded):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    codes = []
    for i in range(n):
        conn.request("GET", "/api/rooms", headers={"X-Forwarded-For": f"203.0.113.{i % 250 + 1}"} if forwarded else {})
        r = conn.getresponse()
        r.read()
        codes.append(r.status)
    conn.close()
    return codes


def test_a_loopback_client_claiming_other_addresses_is_still_rate_limited(tmp_path):
    with served(tmp_path, "--rate-limit", "1") as (_proc, port, _log):
        codes = burst(port, 12, forwarded=True)
    assert codes[:4] == [200] * 4 and codes.count(429) >= 6, codes
    with served(tmp_path, "--rate-limit", "1", "--forwarded-allow-ips", "127.0.0.1") as (_proc, port, _log):
        assert burst(port, 12, forwarded=True) == [200] * 12  # a trusted proxy's clients have their own buckets
        assert burst(port, 12, forwarded=False).count(429) >= 6


# ----- 9. room creation ----------------------------------------------------------------------
def test_room_creation_is_limited_per_client_below_the_request_rate(db_url):
    with TestClient(create_app(db_url, rate_limit=(50.0, 200.0))) as client:
        t0 = time.monotonic()
        codes = []
        while len(codes) < 40 and 429 not in codes:
            r = client.post("/api/rooms", json={"game": "alarun", "seats": [{"kind": "human"}] * 2})
            codes.append(r.status_code)
        elapsed = time.monotonic() - t0
        assert codes[-1] == 429 and "too many rooms" in r.json()["detail"] and r.headers["retry-after"] == "1"
        assert 10 <= codes.count(201) <= 10 + 2 * elapsed + 1
        assert client.get("/api/rooms").status_code == 200  # other requests still pass
