"""Running the server as a service: /health, /ready, /metrics, request ids and logs, and that
no token, token hash, creator token or seed ever reaches a log line (docs/operations.md)."""

from __future__ import annotations

import http.client
import io
import json
import logging
import random
import re
import threading
import time

import pytest
from conftest import ANY_AGENT, TestClient, create, receive, start_uvicorn, store_of, view, wait_for
from sqlalchemy import create_engine

from nemeton.server.app import create_app
from nemeton.server.observe import log_config, metrics_allowed
from nemeton.server.rooms import hash_token
from test_helpers import free_port, served


def scrape(client, **headers) -> str:
    r = client.get("/metrics", headers=headers)
    assert r.status_code == 200, r.text
    return r.text


def sample(text: str, name: str, **labels) -> float:
    """The value of one sample of a Prometheus text exposition (0 when absent)."""
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        match = re.fullmatch(r"([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)", line)
        if not match or match.group(1) != name:
            continue
        found = dict(re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"', match.group(2) or ""))
        if all(found.get(k) == str(v) for k, v in labels.items()):
            return float(match.group(3))
    return 0.0


@pytest.fixture
def metered(db_url):
    with TestClient(create_app(db_url, rate_limit=None, agents=ANY_AGENT, metrics=True)) as c:
        yield c


# ----- /health and /ready ----------------------------------------------------------------
def test_health_and_ready_answer_small_json(client):
    r = client.get("/health")
    assert (r.status_code, r.json()) == (200, {"status": "ok"})
    r = client.get("/ready")
    assert (r.status_code, r.json()) == (200, {"status": "ready", "database": "ok", "migrations": "head"})


def test_ready_is_503_when_the_database_is_gone(client, tmp_path):
    store = store_of(client)
    real = store.engine
    store.engine = create_engine(f"sqlite:///{tmp_path / 'no' / 'such' / 'dir' / 'x.db'}")
    try:
        r = client.get("/ready")
    finally:
        store.engine.dispose()
        store.engine = real
    assert r.status_code == 503
    assert r.json() == {"status": "not ready", "database": "unreachable (OperationalError)", "migrations": "unknown"}
    assert str(tmp_path) not in r.text  # no path, URL or driver message
    assert client.get("/health").json() == {"status": "ok"}  # alive all the same
    assert client.get("/ready").status_code == 200


def test_ready_is_503_when_the_migrations_are_behind_head(client):
    from alembic import command

    from nemeton.server.observe import migration_heads
    from alembic.config import Config
    from pathlib import Path
    import nemeton.server.db as db
    config = Config()
    config.set_main_option("script_location", str(Path(db.__file__).parent / "migrations"))
    engine = store_of(client).engine
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "-1")
    r = client.get("/ready")
    assert r.status_code == 503, r.text
    body = r.json()
    assert body["status"] == "not ready" and body["database"] == "ok"
    head, = migration_heads()
    assert body["migrations"].startswith("behind: at ") and body["migrations"].endswith(f"head is {head}")
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
    assert client.get("/ready").status_code == 200


def test_probes_are_not_rate_limited(db_url):
    with TestClient(create_app(db_url, rate_limit=(1.0, 2.0), metrics=True)) as c:
        answers = [c.get("/api/games").status_code for _ in range(5)]
        assert 429 in answers
        assert {c.get(path).status_code for path in ("/health", "/ready", "/metrics") for _ in range(20)} == {200}
        text = scrape(c)  # a request refused before routing is counted under its route's template
        assert sample(text, "nemeton_requests_total", method="GET", route="/api/games", status="429") >= 1


# ----- /metrics --------------------------------------------------------------------------
def test_metrics_count_requests_by_route_template_actions_agents_and_rooms(metered):
    room, tokens = create(metered, seats=("human", "random"))
    for _ in range(3):
        view(metered, room, tokens[0])
    snap = wait_for(metered, room, tokens[0], lambda s: 0 in s["acting"] and s["legal_actions"])
    r = metered.post(f"/api/rooms/{room}/actions", json={"token": tokens[0], "action": snap["legal_actions"][0],
                                                         "version": snap["version"]})
    assert r.status_code == 200, r.text
    r = metered.post(f"/api/rooms/{room}/actions", json={"token": tokens[0], "action": snap["legal_actions"][0],
                                                         "version": snap["version"]})
    assert r.status_code == 409 and "stale version" in r.json()["detail"]
    metered.get("/api/rooms/nosuchroom/view")
    wait_for(metered, room, tokens[0], lambda s: s["terminal"] or 0 in s["acting"])
    text = scrape(metered)
    assert room not in text and tokens[0] not in text  # a room id is never a label value
    assert sample(text, "nemeton_requests_total", method="GET", route="/api/rooms/{room}/view", status="200") >= 4
    assert sample(text, "nemeton_requests_total", method="GET", route="/api/rooms/{room}/view", status="404") == 1
    assert sample(text, "nemeton_requests_total", method="POST", route="/api/rooms", status="201") == 1
    assert sample(text, "nemeton_request_seconds_count", method="POST", route="/api/rooms/{room}/actions") == 2
    assert sample(text, "nemeton_request_seconds_bucket", method="POST", route="/api/rooms/{room}/actions",
                  le="+Inf") == 2
    assert sample(text, "nemeton_actions_total", game="alarun") >= 2  # the person's and the agent's
    assert sample(text, "nemeton_agent_think_seconds_count", game="alarun") >= 1
    assert sample(text, "nemeton_stale_refusals_total", reason="client_version") == 1
    assert sample(text, "nemeton_rooms_created_total", game="alarun") == 1
    assert sample(text, "nemeton_rooms_in_memory") == 1
    assert sample(text, "nemeton_websocket_connections") == 0


def test_a_game_played_to_its_end_is_counted_once_in_the_exposition(metered):
    room, _ = create(metered, seats=("random", "random"))
    deadline = time.monotonic() + 30
    while not (snap := view(metered, room))["terminal"]:  # the spectator watches the agents play
        assert time.monotonic() < deadline, "the agents did not finish the game"
        time.sleep(0.01)
    moves = len(store_of(metered).load_room(room).actions)
    text = scrape(metered)
    assert sample(text, "nemeton_games_finished_total", game="alarun") == 1
    assert sample(text, "nemeton_actions_total", game="alarun") == moves > 0
    assert sample(text, "nemeton_db_retries_total", what="agent_move") == 0  # one process: no race lost
    assert snap["terminal"]


def test_unmatched_paths_share_one_label(metered):
    for path in ("/nope", "/nope/again", "/api/rooms/x/y/z"):
        assert metered.get(path).status_code == 404
    text = scrape(metered)
    assert "nope" not in text
    assert sample(text, "nemeton_requests_total", method="GET", route="unmatched", status="404") == 3


def test_websocket_connections_are_a_gauge(metered):
    room, tokens = create(metered)
    with metered.websocket_connect(f"/ws/rooms/{room}?token={tokens[0]}") as ws:
        receive(ws)
        with metered.websocket_connect(f"/ws/rooms/{room}") as watcher:
            receive(watcher)
            assert sample(scrape(metered), "nemeton_websocket_connections") == 2
        deadline = time.monotonic() + 5
        while sample(scrape(metered), "nemeton_websocket_connections") != 1:
            assert time.monotonic() < deadline
            time.sleep(0.01)
    deadline = time.monotonic() + 5
    while sample(scrape(metered), "nemeton_websocket_connections") != 0:
        assert time.monotonic() < deadline
        time.sleep(0.01)


def test_two_apps_in_one_process_count_apart(tmp_path):
    with TestClient(create_app(f"sqlite:///{tmp_path / 'a.db'}", rate_limit=None, metrics=True)) as a, \
         TestClient(create_app(f"sqlite:///{tmp_path / 'b.db'}", rate_limit=None, metrics=True)) as b:
        create(a)
        create(a)
        create(b)
        assert sample(scrape(a), "nemeton_rooms_created_total", game="alarun") == 2
        assert sample(scrape(b), "nemeton_rooms_created_total", game="alarun") == 1


def test_metrics_are_off_unless_enabled_or_on_loopback(db_url, client):
    with TestClient(create_app(db_url, rate_limit=None, metrics=False)) as off:
        r = off.get("/metrics")
        assert r.status_code == 404 and r.json() == {"detail": "Not Found"}
    # the default (None): the test client is not on loopback
    assert client.get("/metrics").status_code == 404
    loopback = {"server": ("127.0.0.1", 8000), "client": ("127.0.0.1", 5555), "headers": []}
    assert metrics_allowed(None, loopback)
    assert metrics_allowed(None, {**loopback, "server": ("::1", 8000), "client": ("::1", 1)})
    assert not metrics_allowed(None, {**loopback, "headers": [(b"x-forwarded-for", b"203.0.113.9")]})
    assert not metrics_allowed(None, {**loopback, "headers": [(b"forwarded", b"for=203.0.113.9")]})
    assert not metrics_allowed(None, {**loopback, "server": ("203.0.113.1", 8000)})
    assert not metrics_allowed(None, {**loopback, "client": ("203.0.113.9", 1)})
    assert not metrics_allowed(False, loopback) and metrics_allowed(True, {**loopback, "server": ("10.0.0.1", 1)})


def test_openmetrics_is_served_when_asked_for(metered):
    r = metered.get("/metrics", headers={"Accept": "application/openmetrics-text; version=1.0.0"})
    assert r.headers["content-type"].startswith("application/openmetrics-text")
    assert r.text.rstrip().endswith("# EOF")
    assert metered.get("/metrics").headers["content-type"].startswith("text/plain; version=0.0.4")


def test_serve_flags_turn_metrics_on_and_log_json(tmp_path):
    with served(tmp_path, "--host", "127.0.0.1", "--log-format", "json", "--no-metrics") as (_proc, port, log_path):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", "/metrics")
        assert conn.getresponse().status == 404
    with served(tmp_path, "--log-format", "json", env={"NEMETON_METRICS": "1"}) as (_proc, port, log_path):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", "/metrics", headers={"X-Forwarded-For": "203.0.113.9"})  # enabled: served anyway
        r = conn.getresponse()
        assert r.status == 200 and b"nemeton_requests_total" in r.read()
        conn.request("GET", "/ready", headers={"X-Request-ID": "probe-1"})
        r = conn.getresponse()
        assert r.status == 200 and r.getheader("X-Request-ID") == "probe-1"
        r.read()
        conn.request("GET", "/api/games", headers={"X-Request-ID": "lobby-7"})
        conn.getresponse().read()
        deadline = time.monotonic() + 10
        while "lobby-7" not in log_path.read_text():
            assert time.monotonic() < deadline, log_path.read_text()
            time.sleep(0.05)
    lines = [line for line in log_path.read_text().splitlines() if line.startswith("{")]
    records = [json.loads(line) for line in lines]
    assert records and all({"time", "level", "logger", "message", "request_id"} <= r.keys() for r in records)
    lobby = [r for r in records if r.get("request_id") == "lobby-7"]
    assert lobby == [{**lobby[0], "logger": "nemeton.server.access", "message": lobby[0]["message"],
                      "method": "GET", "route": "/api/games", "status": 200}]
    assert lobby[0]["message"].startswith("GET /api/games 200 ")
    assert not [r for r in records if r["logger"] == "uvicorn.access"]  # ours replaces uvicorn's


def test_a_bad_log_format_is_refused(tmp_path):
    import subprocess
    from test_helpers import NEMETON
    done = subprocess.run([NEMETON, "serve", "--log-format", "xml"], capture_output=True, text=True, timeout=60,
                          env={"NEMETON_DATA": str(tmp_path)})
    assert done.returncode != 0 and "--log-format must be one of text, json" in done.stdout + done.stderr


# ----- request ids and log lines ---------------------------------------------------------
def test_a_safe_request_id_is_kept_and_another_is_replaced(client):
    assert client.get("/health", headers={"X-Request-ID": "abc.DEF_12-3"}).headers["x-request-id"] == "abc.DEF_12-3"
    for bad in ("has space", "x" * 65, "semi;colon", "é"):
        given = client.get("/health", headers={"X-Request-ID": bad.encode("utf-8")}).headers["x-request-id"]
        assert re.fullmatch(r"[0-9a-f]{16}", given), given
    a, b = (client.get("/health").headers["x-request-id"] for _ in range(2))
    assert a != b


def test_one_line_per_request_and_per_room_event_with_the_request_id(client, caplog):
    with caplog.at_level(logging.DEBUG, logger="nemeton.server"):
        r = client.post("/api/rooms", json={"game": "alarun", "seats": [{"kind": "human"}, {"kind": "open"}]},
                        headers={"X-Request-ID": "make-1"})
        room = r.json()["room"]
        client.post(f"/api/rooms/{room}/seats/1/join", json={"name": "Bob"}, headers={"X-Request-ID": "join-1"})
        client.get("/health", headers={"X-Request-ID": "probe-1"})
    by_id = {}
    for record in caplog.records:
        by_id.setdefault(getattr(record, "request_id", None), []).append(record)
    made = by_id["make-1"]
    assert [(r.name, r.getMessage()) for r in made] == [("nemeton.server.events", "room created"),
                                                       ("nemeton.server.access", made[1].getMessage())]
    assert made[0].fields == {"event": "room_created", "room": room, "game": "alarun", "seats": 2, "listed": True}
    assert made[1].fields["route"] == "/api/rooms" and made[1].fields["status"] == 201
    assert made[1].levelno == logging.INFO
    joined = [(r.getMessage(), r.fields.get("room"), r.fields.get("seat")) for r in by_id["join-1"]]
    assert joined[:2] == [("seat joined", room, 1), ("game started", room, None)]
    assert joined[2][0].startswith("POST /api/rooms/{room}/seats/{seat}/join 200 ") and len(joined) == 3
    assert [r.levelno for r in by_id["probe-1"]] == [logging.DEBUG]  # probes are logged at DEBUG


def test_the_request_log_shows_only_harmless_query_values(client, caplog):
    from nemeton.server.observe import shown_query
    assert shown_query(b"since=3&token=abc&tok%65n=abc&limit=10") == "since=3&token=***&tok%65n=***&limit=10"
    assert shown_query(b"watch&secret=x&since=" + b"9" * 30) == "watch&secret=***&since=***"
    room, tokens = create(client)
    with caplog.at_level(logging.INFO, logger="nemeton.server.access"):
        view(client, room, tokens[0], since=2)
    line, = [r.getMessage() for r in caplog.records if r.name == "nemeton.server.access"]
    assert line.startswith("GET /api/rooms/{room}/view?since=2&token=*** 200 ") and tokens[0] not in line


# ----- no secret in any log line ---------------------------------------------------------
LOGGERS = ("", "nemeton", "uvicorn", "uvicorn.error", "uvicorn.access")


@pytest.fixture
def logging_restored():
    """uvicorn applies the log config to the whole process: put the loggers back afterwards."""
    saved = {name: (logging.getLogger(name), list(logging.getLogger(name).handlers), logging.getLogger(name).level,
                    logging.getLogger(name).propagate, list(logging.getLogger(name).filters)) for name in LOGGERS}
    yield
    for logger, handlers, level, propagate, filters in saved.values():
        logger.handlers[:] = handlers
        logger.setLevel(level)
        logger.propagate = propagate
        logger.filters[:] = filters


class Lines(io.StringIO):
    def __init__(self):
        super().__init__()
        self.lock = threading.Lock()

    def write(self, text):
        with self.lock:
            return super().write(text)


def live_server(app, stream, fmt):
    import uvicorn
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="debug", access_log=False,
                            log_config=log_config(fmt, "DEBUG", stream=stream), lifespan="on")
    server, thread = start_uvicorn(config)
    return server, thread, port


def http_call(conn, method, path, body=None, headers=None):
    conn.request(method, path, body=None if body is None else json.dumps(body),
                 headers={"Content-Type": "application/json", **(headers or {})})
    r = conn.getresponse()
    return r.status, json.loads(r.read() or b"null")


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_whole_game_logs_no_token_hash_or_seed(db_url, fmt, logging_restored):
    from websockets.sync.client import connect
    quiet = logging.getLogger("test.client")  # the test's own client logs nothing of its own
    quiet.propagate = False
    stream = Lines()
    server, thread, port = live_server(create_app(db_url, rate_limit=None, metrics=True), stream, fmt)
    rng = random.Random(7)
    secrets_seen: list[str] = []
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        status, made = http_call(conn, "POST", "/api/rooms", {
            "game": "alarun", "undo": True,
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "open"}]})
        assert status == 201, made
        room, creator = made["room"], made["creator"]
        ann = made["seats"][0]["token"]
        status, joined = http_call(conn, "POST", f"/api/rooms/{room}/seats/1/join", {"name": "Bob"})
        assert status == 200 and joined["started"], joined
        bob = joined["token"]
        secrets_seen += [ann, bob, creator]
        # the creator hands Bob's seat to the AI and back (stand-ins); a wrong token is refused
        assert http_call(conn, "POST", f"/api/rooms/{room}/seats/1", {"token": creator, "agent": "heuristic"})[0] == 200
        assert http_call(conn, "POST", f"/api/rooms/{room}/seats/1", {"token": creator, "agent": None})[0] == 200
        assert http_call(conn, "POST", f"/api/rooms/{room}/seats/1", {"token": ann, "agent": None})[0] == 403
        ws = connect(f"ws://127.0.0.1:{port}/ws/rooms/{room}?token={ann}", logger=quiet).__enter__()
        took_back = False
        moves = 0
        while True:
            status, snap = http_call(conn, "GET", f"/api/rooms/{room}/view?since=100000", headers={})
            assert status == 200
            if snap["terminal"]:
                break
            seat = snap["acting"][0]
            if seat == 0:  # Ann plays over the WebSocket
                status, mine = http_call(conn, "GET", f"/api/rooms/{room}/view?since=100000&token={ann}")
                ws.send(json.dumps({"type": "action", "action": rng.choice(mine["legal_actions"]),
                                    "version": mine["version"]}))
                while (message := json.loads(ws.recv(timeout=30)))["type"] not in ("ok", "error"):
                    pass
                assert message["type"] == "ok", message
            else:  # Bob over HTTP, his token in a header and in bodies
                status, mine = http_call(conn, "GET", f"/api/rooms/{room}/view?since=100000",
                                         headers={"Authorization": f"Bearer {bob}"})
                status, after = http_call(conn, "POST", f"/api/rooms/{room}/actions", {
                    "token": bob, "action": rng.choice(mine["legal_actions"]), "version": mine["version"]})
                assert status == 200, after
                if not took_back and after["take_back"]["allowed"]:
                    status, back = http_call(conn, "POST", f"/api/rooms/{room}/undo", {"token": bob})
                    assert status == 200, back
                    took_back = True
            moves += 1
            assert moves < 2000
        ws.close()
        assert took_back, "no action of this game could be taken back"
        status, record = http_call(conn, "GET", f"/api/rooms/{room}/record")
        assert status == 200
        secrets_seen.append(str(record["seed"]))
        status, rematch = http_call(conn, "POST", f"/api/rooms/{room}/rematch", {"token": creator})
        assert status == 200
        new_room = rematch["room"]
        secrets_seen.append(str(store_seed(server, new_room)))
        # a bad token in a query, under every spelling of the parameter's name
        for name in ("token", "tok%65n"):
            assert http_call(conn, "GET", f"/api/rooms/{room}/view?{name}={bob}")[0] == 200
        # a token-shaped value where a token is malformed; an unknown room with a token
        assert http_call(conn, "POST", f"/api/rooms/{room}/actions", {"token": ann, "action": "x"})[0] == 422
        assert http_call(conn, "GET", f"/api/rooms/nosuch/view?token={ann}")[0] == 404
        conn.request("GET", "/metrics")
        conn.getresponse().read()
    finally:
        server.should_exit = True
        thread.join(20)
    secrets_seen += [hash_token(t) for t in (ann, bob, creator)]
    text = stream.getvalue()
    lines = text.splitlines()
    print(f"\n{len(lines)} log lines ({fmt}) checked for {len(secrets_seen)} secrets")
    assert len(lines) > 50
    leaks = [(secret, line) for line in lines for secret in secrets_seen if secret in line]
    assert not leaks, leaks[:3]
    if fmt == "json":
        records = [json.loads(line) for line in lines]  # every line is one JSON object
        events = [r for r in records if r["logger"] == "nemeton.server.events"]
        messages = {r["message"] for r in events}
        assert all(r["room"] in (room, new_room) and r["request_id"] for r in events)
    else:
        messages = {m for m in ("room created", "seat joined", "game started", "game finished", "take-back",
                                "stand-in") if any(f"] {m} " in line for line in lines)}
    assert {"room created", "seat joined", "game started", "game finished", "take-back", "stand-in"} <= messages
    assert any("token=***" in line for line in lines)  # the WebSocket's URL was logged, redacted
    assert any("/api/rooms/{room}/actions" in line for line in lines)


def store_seed(server, room_id):
    return server.config.app.state.rooms.store.load_room(room_id).seed
