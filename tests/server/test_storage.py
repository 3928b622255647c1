"""Storage: the migrated schema, rooms as rows, and the optimistic version check."""

from __future__ import annotations

import sqlite3

import pytest
from sqlalchemy import inspect

from nemeton.server.db import SeatRow, StaleVersion, Store, default_url, open_engine


@pytest.fixture
def store(tmp_path):
    return Store(open_engine(f"sqlite:///{tmp_path / 'data' / 'n.db'}"))


def add_room(store, room_id="r1"):
    store.create_room(room_id, "alarun", 1, {"players": 2}, 2**64 - 1,
                      [SeatRow(0, "human", "Ann", None, "ab" * 32), SeatRow(1, "ai", None, "random", None)])


def test_first_run_creates_the_directory_the_file_and_the_migrated_schema(tmp_path):
    engine = open_engine(f"sqlite:///{tmp_path / 'new' / 'dir' / 'n.db'}")
    assert (tmp_path / "new" / "dir" / "n.db").exists()
    tables = set(inspect(engine).get_table_names())
    assert {"rooms", "seats", "actions", "alembic_version"} <= tables
    open_engine(f"sqlite:///{tmp_path / 'new' / 'dir' / 'n.db'}")  # migrating again changes nothing


def test_sqlite_file_is_in_wal_mode(tmp_path):
    open_engine(f"sqlite:///{tmp_path / 'n.db'}")
    assert sqlite3.connect(tmp_path / "n.db").execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_default_database_lives_in_the_data_directory(monkeypatch, tmp_path):
    monkeypatch.setenv("NEMETON_DATA", str(tmp_path / "d"))
    assert default_url() == f"sqlite:///{tmp_path / 'd' / 'nemeton.db'}"


def test_room_round_trips_with_a_64_bit_seed_its_seats_and_actions(store):
    add_room(store)
    assert store.append_actions("r1", 0, 0, [(0, {"type": "pass"}), (1, {"type": "take", "n": 2})], False) == 1
    room = store.load_room("r1")
    assert (room.game, room.options, room.seed, room.version, room.status) == (
        "alarun", {"players": 2}, 2**64 - 1, 1, "playing")
    assert [(s.seat, s.kind, s.name, s.agent) for s in room.seats] == [(0, "human", "Ann", None), (1, "ai", None, "random")]
    assert room.actions == [(0, {"type": "pass"}), (1, {"type": "take", "n": 2})]
    assert store.load_room("nope") is None


def test_an_action_validated_on_an_old_version_is_refused_and_writes_nothing(store):
    add_room(store)
    store.append_actions("r1", 0, 0, [(0, {"type": "a"})], False)
    with pytest.raises(StaleVersion):
        store.append_actions("r1", 0, 1, [(0, {"type": "b"})], False)
    room = store.load_room("r1")
    assert room.version == 1 and room.actions == [(0, {"type": "a"})]


def test_finished_rooms_are_not_listed_as_playing(store):
    add_room(store, "r1")
    add_room(store, "r2")
    store.append_actions("r2", 0, 0, [(0, {"type": "a"})], True)
    assert store.room_ids("playing") == ["r1"]
    assert store.room_ids() == ["r1", "r2"]
