"""The same storage, races and play against a real PostgreSQL server, started on a Unix socket
in a temporary directory for this session (skipped, saying why, where PostgreSQL or the
psycopg driver is not installed)."""

from __future__ import annotations

import threading
import time

import pytest
from conftest import Mirror, check_migrated_0008, create, stored_before_0008, view
from fastapi.testclient import TestClient

from nemeton.server.app import create_app
from nemeton.server.db import SeatRow, StaleVersion, Store, open_engine

pytest.importorskip("psycopg", reason="PostgreSQL tests need the psycopg driver: pip install 'psycopg[binary]'")


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


def test_a_room_stored_before_migration_0008_keeps_its_seats_actions_and_who_acts_on_postgresql(postgres):
    url = postgres()
    check_migrated_0008(url, stored_before_0008(url))


def test_processes_starting_together_migrate_one_at_a_time_on_postgresql(postgres):
    url = postgres()
    engines, errors = [], []

    def start():
        try:
            engines.append(open_engine(url))
        except Exception as exc:  # noqa: BLE001 - the test reports any failure
            errors.append(exc)

    threads = [threading.Thread(target=start) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and len(engines) == 3
    Store(engines[0]).create_room("r", "amarok", 1, {"players": 2}, 1, [SeatRow(0, "ai", None, "random", None),
                                                                       SeatRow(1, "ai", None, "random", None)])
    assert Store(engines[2]).versions(["r", "missing"]) == {"r": 0}


def test_a_committed_change_is_announced_to_listeners_on_postgresql(postgres):
    store = Store(open_engine(postgres()))
    store.create_room("r", "amarok", 1, {"players": 2}, 1, [SeatRow(0, "ai", None, "random", None),
                                                           SeatRow(1, "ai", None, "random", None)])
    heard, stop = [], threading.Event()

    def on_change(room, version):
        heard.append((room, version))
        if version == 2:
            stop.set()

    listener = threading.Thread(target=store.listen, args=(on_change, stop))
    listener.start()
    try:
        deadline = time.monotonic() + 10
        while ("", 0) not in heard:  # listening
            assert time.monotonic() < deadline, "the listener did not connect"
            time.sleep(0.05)
        store.append_actions("r", 0, 0, [(0, {"type": "pass"})], False)
        with pytest.raises(StaleVersion):  # a refused change is not announced
            store.append_actions("r", 0, 0, [(0, {"type": "pass"})], False)
        store.set_stand_in("r", 1, 0, "random")
        listener.join(timeout=10)
    finally:
        stop.set()
    assert heard == [("", 0), ("r", 1), ("r", 2)]


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
            if any(s["terminal"] for s in snaps.values()):
                break
            for seat, snap in snaps.items():
                if snap["legal_actions"]:
                    r = client.post(f"/api/rooms/{room}/actions",
                                    json={"token": tokens[seat], "action": snap["legal_actions"][-1]})
                    if r.status_code == 200:
                        mirror.check(r.json(), seat)
        assert client.get(f"/api/rooms/{room}/record").status_code == 200
