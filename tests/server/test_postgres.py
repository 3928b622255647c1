"""The same storage, races and play against a real PostgreSQL server, started on a Unix socket
in a temporary directory for this session (skipped, saying why, where PostgreSQL or the
psycopg driver is not installed)."""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

import pytest
from conftest import Mirror, create, view
from fastapi.testclient import TestClient

from nemeton.server.app import create_app
from nemeton.server.db import SeatRow, StaleVersion, Store, open_engine

psycopg = pytest.importorskip("psycopg", reason="PostgreSQL tests need the psycopg driver: pip install 'psycopg[binary]'")


def _binary(name):
    found = shutil.which(name) or next(iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)), None)
    if found is None:
        pytest.skip(f"PostgreSQL is not installed here ({name} not found; Debian: apt-get install postgresql)")
    return found


@pytest.fixture(scope="module")
def postgres():
    """A PostgreSQL server for this module; yields a function that makes a fresh database URL."""
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
        with psycopg.connect(host=str(base), user="nemeton", dbname="postgres", autocommit=True) as c:
            c.execute(f"CREATE DATABASE {name}")
        return f"postgresql+psycopg://nemeton@/{name}?host={base}"

    yield database
    run(pg_ctl, "-D", str(data), "-m", "fast", "stop")


def test_the_schema_is_migrated_and_rooms_round_trip_on_postgresql(postgres):
    store = Store(open_engine(postgres()))
    store.create_room("r", "alarun", 1, {"players": 2}, 2**64 - 1,
                      [SeatRow(0, "human", "A", None, "ab" * 32), SeatRow(1, "ai", None, "random", None)])
    assert store.append_actions("r", 0, 0, [(0, {"type": "pass"})], False) == 1
    with pytest.raises(StaleVersion):
        store.append_actions("r", 0, 1, [(1, {"type": "pass"})], False)
    row = store.load_room("r")
    assert (row.seed, row.version, row.actions, row.seats[0].token_hash) == (2**64 - 1, 1, [(0, {"type": "pass"})], "ab" * 32)
    assert store.take_back("r", 1, 0) == 2 and store.load_room("r").actions == []


def test_writers_racing_on_one_version_never_both_commit_on_postgresql(postgres):
    store = Store(open_engine(postgres()))
    store.create_room("r", "alarun", 1, {"players": 2}, 1, [SeatRow(0, "human", "A", None, None),
                                                             SeatRow(1, "human", "B", None, None)])
    for version in range(10):
        barrier, outcomes = threading.Barrier(4), []

        def write(name):
            barrier.wait()
            try:
                store.append_actions("r", version, version, [(0, {"type": name})], False)
                outcomes.append(name)
            except StaleVersion:
                outcomes.append("stale")

        threads = [threading.Thread(target=write, args=(n,)) for n in "abcd"]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(outcomes) == 4 and outcomes.count("stale") == 3  # exactly one writer won
    assert store.load_room("r").version == 10 and len(store.load_room("r").actions) == 10


def test_a_game_is_played_and_continued_after_a_restart_on_postgresql(postgres):
    url = postgres()
    with TestClient(create_app(url, rate_limit=None)) as client:
        room, tokens = create(client, "amarok", ("human", "heuristic", "human"), players=3)
        first = view(client, room)
    with TestClient(create_app(url, rate_limit=None)) as client:
        mirror = Mirror(client, room)
        assert view(client, room)["moves"] >= first["moves"]
        for _ in range(2000):
            snaps = {s: view(client, room, t) for s, t in tokens.items()}
            if any(s["finished"] for s in snaps.values()):
                break
            for seat, snap in snaps.items():
                if snap["legal_actions"]:
                    r = client.post(f"/api/rooms/{room}/actions",
                                    json={"token": tokens[seat], "action": snap["legal_actions"][-1]})
                    if r.status_code == 200:
                        mirror.check(r.json(), seat)
        assert client.get(f"/api/rooms/{room}/record").status_code == 200
