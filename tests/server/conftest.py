"""Fixtures for the server tests: an app on a fresh SQLite file, and a mirror of a room's
true state rebuilt independently from what the database holds."""

from __future__ import annotations

import glob
import itertools
import json
import os
import shutil
import subprocess
import tempfile
import time
import warnings
from pathlib import Path

import pytest

warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient` is deprecated")
from fastapi.testclient import TestClient  # noqa: E402

from nemeton.engine import GameRecord, get_game  # noqa: E402
from nemeton.server.agents import AgentPolicy  # noqa: E402
from nemeton.server.app import create_app  # noqa: E402
from leakcheck import hidden_from, keys, leaves  # noqa: E402, F401 (tests import them from here)


@pytest.fixture
def db_url(tmp_path):
    return f"sqlite:///{tmp_path / 'nemeton.db'}"


# The test servers accept any agent spec within the budget (as its own name), besides the
# default names: tests seat agents such as "ismcts:iterations=50". A real server offers only
# its operator's names (tests/server/test_audit.py checks that).
ANY_AGENT = AgentPolicy(any_spec=True)


@pytest.fixture
def client(db_url):
    with TestClient(create_app(db_url, rate_limit=None, agents=ANY_AGENT)) as c:
        yield c


def store_of(client):
    return client.app.state.rooms.store


def create(client, game="alarun", seats=("human", "human"), **options):
    """A room whose seats are 'human' or an agent spec; returns (room, {seat: token})."""
    body = {"game": game, "options": options,
            "seats": [{"kind": "human", "name": f"P{i}"} if s == "human" else {"kind": "ai", "agent": s}
                      for i, s in enumerate(seats)]}
    r = client.post("/api/rooms", json=body)
    assert r.status_code == 201, r.text
    data = r.json()
    return data["room"], {s["seat"]: s["token"] for s in data["seats"]}


def view(client, room, token=None, since=0):
    params = {"since": since} | ({"token": token} if token is not None else {})
    r = client.get(f"/api/rooms/{room}/view", params=params)
    assert r.status_code == 200, r.text
    return r.json()


def wait_for(client, room, token, predicate, timeout=20.0):
    """Poll a seat's view until ``predicate(snapshot)`` (agents move in the background)."""
    deadline = time.monotonic() + timeout
    while True:
        snap = view(client, room, token, since=10**9)
        if predicate(snap):
            return snap
        assert time.monotonic() < deadline, f"timed out waiting on room {room}: {snap['acting']}"
        time.sleep(0.002)


def stored_before_0008(url):
    """A database at migration 0007 holding one room as a server of then stored it (Alarún,
    Ann at seat 0 with the token "tok", a random AI at seat 1), played until the AI is to act,
    the column ``to_move`` saying so; returns its actions [(seat, action JSON)]."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import MetaData, Table, create_engine, insert

    from nemeton.server import db
    from nemeton.server.rooms import hash_token
    state = GameRecord("alarun", {"players": 2}, 5, []).replay()
    moves = []
    while 1 not in state.acting():
        seat = state.acting()[0]
        action = state.legal_actions(seat)[0]
        state.apply(action, seat)
        moves.append((seat, action.to_json()))
    engine = create_engine(url)
    config = Config()
    config.set_main_option("script_location", str(Path(db.__file__).parent / "migrations"))
    with engine.begin() as c:
        config.attributes["connection"] = c
        command.upgrade(config, "0007")
        old = MetaData()
        rooms, seats, actions = (Table(name, old, autoload_with=c) for name in ("rooms", "seats", "actions"))
        now = db._now()
        c.execute(insert(rooms).values(
            id="old", game="alarun", rules_version=1, options={"players": 2}, seed="5", status="playing",
            version=len(moves), undo=False, created_at=now, updated_at=now, listed=True, to_move=json.dumps([1])))
        c.execute(insert(seats), [
            {"room_id": "old", "seat": 0, "kind": "human", "name": "Ann", "agent": None, "token_hash": hash_token("tok")},
            {"room_id": "old", "seat": 1, "kind": "ai", "name": None, "agent": "random", "token_hash": None}])
        c.execute(insert(actions), [{"room_id": "old", "idx": i, "seat": seat, "action": json.dumps(action)}
                                    for i, (seat, action) in enumerate(moves)])
    engine.dispose()
    return moves


def check_migrated_0008(url, moves):
    """The database of :func:`stored_before_0008` migrated to head (0008 renames ``to_move``
    to ``acting``): the room keeps its seats, actions and who acts, and must load at start."""
    from sqlalchemy import select

    from nemeton.server.db import Store, open_engine, rooms
    engine = open_engine(url)
    with engine.connect() as c:
        assert json.loads(c.execute(select(rooms.c.acting).where(rooms.c.id == "old")).scalar_one()) == [1]
    store = Store(engine)
    row = store.load_room("old")
    assert row.actions == moves and [s.kind for s in row.seats] == ["human", "ai"]
    assert store.rooms_to_load() == ["old"]
    engine.dispose()


class Mirror:
    """The room's true state, replayed by the test from the database's rows (seed included)."""

    def __init__(self, client, room):
        self.store = store_of(client)
        self.room = room
        row = self.store.load_room(room)
        self.seed = row.seed
        self.spec = get_game(row.game)
        self.state = GameRecord(row.game, row.options, row.seed, []).replay()

    def at(self, moves):
        """The true state after the first ``moves`` actions (answers never go back)."""
        have = len(self.state.history)
        assert moves >= have, "responses went back in time"
        if moves > have:
            row = self.store.load_room(self.room)
            for seat, action in row.actions[have:moves]:
                self.state.apply(self.spec.action_from_json(action), seat)
        return self.state

    def check(self, snapshot, seat, since=0):
        """``snapshot`` (an HTTP answer or a pushed message for ``seat``) holds exactly what
        the engine lets ``seat`` know at its version, and never the seed before the end."""
        state = self.at(snapshot["moves"])
        assert snapshot["view"] == json.loads(json.dumps(state.view(seat)))
        assert snapshot["log"] == json.loads(json.dumps(state.log(seat, since=min(since, state.log_length()))))
        assert snapshot["acting"] == list(state.acting())
        assert snapshot["terminal"] == state.is_terminal()
        if not state.is_terminal():
            assert str(self.seed) not in json.dumps(snapshot)
        return state


# ----- PostgreSQL ------------------------------------------------------------------------
def _binary(name):
    found = shutil.which(name) or next(iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)), None)
    if found is None:
        pytest.skip(f"PostgreSQL is not installed here ({name} not found; Debian: apt-get install postgresql)")
    return found


@pytest.fixture(scope="session")
def postgres():
    """A PostgreSQL server for this session (started on first use); yields a function that
    makes a fresh database URL. Skipped, saying why, without psycopg or PostgreSQL."""
    pytest.importorskip("psycopg", reason="PostgreSQL tests need the psycopg driver: pip install 'psycopg[binary]'")
    initdb, pg_ctl = _binary("initdb"), _binary("pg_ctl")
    base = Path(tempfile.mkdtemp(prefix="nemeton-pg-"))  # not under pytest's root-only directory
    try:
        yield from _serve(initdb, pg_ctl, base)
    finally:
        shutil.rmtree(base, ignore_errors=True)


def _serve(initdb, pg_ctl, base):
    as_user = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        as_user = ["runuser", "-u", "postgres", "--"]
        shutil.chown(base, "postgres")
    data = base / "data"
    run = lambda *cmd: subprocess.run([*as_user, *cmd], capture_output=True, text=True, timeout=60)  # noqa: E731
    made = run(initdb, "-D", str(data), "-A", "trust", "-U", "nemeton")
    if made.returncode != 0:
        pytest.skip(f"initdb failed: {made.stderr[-300:]}")
    started = run(pg_ctl, "-D", str(data), "-o", f"-k {base} -c listen_addresses='' -c fsync=on",
                  "-l", str(base / "log"), "-w", "start")
    if started.returncode != 0:
        pytest.skip(f"PostgreSQL did not start: {started.stderr[-300:]}")
    names = itertools.count()

    def database():
        name = f"nemeton{next(names)}"
        import psycopg
        with psycopg.connect(host=str(base), user="nemeton", dbname="postgres", autocommit=True) as c:
            c.execute(f"CREATE DATABASE {name}")
        return f"postgresql+psycopg://nemeton@/{name}?host={base}"

    yield database
    run(pg_ctl, "-D", str(data), "-m", "fast", "stop")


def receive(ws):
    """The next message of a test client's WebSocket other than a "seats" notice (who is
    connected: pushed whenever a client comes or goes)."""
    while True:
        message = ws.receive_json()
        if message.get("type") != "seats":
            return message


def start_uvicorn(config):
    """A uvicorn server for ``config`` running in a thread of this process, once it has
    started: returns (server, thread); stop with ``server.should_exit = True`` and a join."""
    import threading

    import uvicorn
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the test server did not start"
        time.sleep(0.05)
    return server, thread
