"""`nemeton admin`: list, close, export and purge rooms, back the database up and restore it
(SQLite always; PostgreSQL where its binaries are installed), each through the CLI."""

from __future__ import annotations

import json
import os
import time
from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import update
from typer.testing import CliRunner

from nemeton.cli import admin, app as cli
from nemeton.server.db import Store, open_engine, rooms as rooms_table

from conftest import ANY_AGENT, TestClient, create, view, wait_for
from nemeton.server.app import create_app


def run(db, *args, env=None):
    clean = {k: None for k in os.environ if k.startswith("NEMETON_")}
    return CliRunner().invoke(cli, ["admin", *args], env={**clean, "NEMETON_DATABASE_URL": db, **(env or {})})


def server(db):
    return TestClient(create_app(db, rate_limit=None, agents=ANY_AGENT))


def make_rooms(client):
    """A finished game (two agents), a game being played (a move made) and a waiting room."""
    done, _ = create(client, seats=("random", "random"))
    wait_for(client, done, None, lambda s: s["terminal"])
    playing, tokens = create(client)
    seat = view(client, playing)["acting"][0]
    action = view(client, playing, tokens[seat])["legal_actions"][0]
    assert client.post(f"/api/rooms/{playing}/actions", json={"token": tokens[seat], "action": action}).status_code == 200
    body = {"game": "alarun", "seats": [{"kind": "human", "name": "Ann"}, {"kind": "open"}]}
    waiting = client.post("/api/rooms", json=body).json()["room"]
    return done, playing, tokens, waiting


def test_rooms_lists_every_room_with_its_status(db_url):
    with server(db_url) as client:
        done, playing, _, waiting = make_rooms(client)
    result = run(db_url, "rooms", "--json")
    assert result.exit_code == 0, result.output
    listed = {r["room"]: r for r in json.loads(result.output)}
    assert {r: listed[r]["status"] for r in (done, playing, waiting)} == {
        done: "finished", playing: "playing", waiting: "waiting"}
    assert listed[playing]["moves"] == 1 and listed[playing]["players"] == 2 and listed[playing]["game"] == "alarun"
    assert listed[done]["moves"] > 10
    for r in listed.values():
        assert set(r) >= {"room", "game", "players", "status", "moves", "created", "updated", "listed"}
    only = json.loads(run(db_url, "rooms", "--status", "waiting", "--json").output)
    assert [r["room"] for r in only] == [waiting]
    table = run(db_url, "rooms")
    assert table.exit_code == 0 and playing in table.output and "finished" in table.output
    bad = run(db_url, "rooms", "--status", "lost")
    assert bad.exit_code == 2 and "--status must be one of" in bad.output


def test_export_gives_the_record_of_a_finished_room_and_refuses_a_game_on(db_url, tmp_path):
    with server(db_url) as client:
        done, playing, _, _ = make_rooms(client)
        record = client.get(f"/api/rooms/{done}/record").json()
    result = run(db_url, "export", done)
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == record
    out = tmp_path / "r.json"
    assert run(db_url, "export", done, "--out", str(out)).exit_code == 0
    assert json.loads(out.read_text()) == record
    refused = run(db_url, "export", playing)
    assert refused.exit_code == 2 and "reveals every hidden card" in " ".join(refused.output.split())
    forced = run(db_url, "export", playing, "--force")
    assert forced.exit_code == 0 and len(json.loads(forced.output)["actions"]) == 1
    assert run(db_url, "export", "nosuchroom").exit_code == 2


def test_close_ends_a_room_a_running_server_plays(db_url):
    with server(db_url) as client:
        done, playing, tokens, waiting = make_rooms(client)
        result = run(db_url, "close", playing, "--reason", "closed for the test")
        assert result.exit_code == 0, result.output
        seat = view(client, playing)["acting"][0]
        r = client.post(f"/api/rooms/{playing}/actions", json={"token": tokens[seat], "action": {"type": "pass"}})
        assert r.status_code == 410 and "closed for the test" in r.json()["detail"], r.text
        r = client.get(f"/api/rooms/{playing}/view", params={"token": tokens[0]})
        assert r.status_code == 410
        assert run(db_url, "close", waiting).exit_code == 0
        deadline = time.monotonic() + 10  # a read sees another process's change at the next version check (1 s)
        while client.get(f"/api/rooms/{waiting}").status_code != 410:
            assert time.monotonic() < deadline, "the server never saw the room closed"
            time.sleep(0.05)
    again = run(db_url, "close", playing)
    assert again.exit_code == 2 and "closed already" in again.output
    assert run(db_url, "close", done).exit_code == 2
    assert json.loads(run(db_url, "export", playing).output)["actions"]  # a closed room's record is the operator's
    statuses = {r["room"]: r["status"] for r in json.loads(run(db_url, "rooms", "--json").output)}
    assert statuses[playing] == statuses[waiting] == "closed"
    with server(db_url) as client:  # after a restart too
        assert client.get(f"/api/rooms/{playing}/view").status_code == 410


def test_purge_deletes_old_finished_rooms_after_a_dry_run(db_url):
    with server(db_url) as client:
        done, playing, _, _ = make_rooms(client)
        recent, _ = create(client, seats=("random", "random"))
        wait_for(client, recent, None, lambda s: s["terminal"])
    engine = open_engine(db_url)
    with engine.begin() as c:
        c.execute(update(rooms_table).where(rooms_table.c.id.in_([done, playing]))
                  .values(updated_at=datetime.now(timezone.utc) - timedelta(days=40)))
    dry = run(db_url, "purge", "--finished-older-than", "30")
    assert dry.exit_code == 0 and "Would delete 1 room " in dry.output
    assert Store(engine).load_room(done) is not None
    gone = run(db_url, "purge", "--finished-older-than", "30", "--yes")
    assert gone.exit_code == 0 and "Deleted 1 room " in gone.output
    store = Store(engine)
    assert store.load_room(done) is None
    assert store.load_room(playing) is not None and store.load_room(recent) is not None  # not finished; too recent
    engine.dispose()
    assert run(db_url, "purge").exit_code == 2  # --finished-older-than is needed


def same_rooms(source, target, rooms):
    """Every room replays the same from both databases (the same record, the same views), and
    the restored copy plays on."""
    with server(source) as a, server(target) as b:
        for room in rooms:
            ra, rb = Store(a.app.state.rooms.store.engine).load_room(room), b.app.state.rooms.store.load_room(room)
            assert rb is not None, room
            assert (ra.seed, ra.actions, ra.status, ra.version, ra.seats) == (rb.seed, rb.actions, rb.status,
                                                                             rb.version, rb.seats)
            va, vb = view(a, room), view(b, room)
            assert va == vb
            if va["terminal"]:
                assert a.get(f"/api/rooms/{room}/record").json() == b.get(f"/api/rooms/{room}/record").json()


def back_up_and_restore(source, target, tmp_path):
    with server(source) as client:
        done, playing, tokens, waiting = make_rooms(client)
    backup = tmp_path / "backup.bin"
    result = run(source, "backup", str(backup))
    assert result.exit_code == 0, result.output
    assert "Backed up 3 rooms" in result.output and backup.stat().st_size > 0
    assert run(source, "backup", str(backup)).exit_code == 2  # it exists: --force replaces it
    result = run(target, "restore", str(backup))
    assert result.exit_code == 0, result.output
    assert "Restored 3 rooms" in result.output
    same_rooms(source, target, [done, playing, waiting])
    with server(target) as client:  # the restored game plays on
        seat = view(client, playing)["acting"][0]
        action = view(client, playing, tokens[seat])["legal_actions"][0]
        r = client.post(f"/api/rooms/{playing}/actions", json={"token": tokens[seat], "action": action})
        assert r.status_code == 200, r.text
    refused = run(target, "restore", str(backup))  # it holds rooms now
    assert refused.exit_code == 2 and "--yes" in refused.output
    assert run(target, "restore", str(backup), "--yes").exit_code == 0
    with server(target) as client:
        assert view(client, playing)["moves"] == 1  # the backup's state again
    return backup


def test_a_sqlite_backup_restores_into_a_fresh_database(tmp_path):
    source, target = f"sqlite:///{tmp_path / 'a.db'}", f"sqlite:///{tmp_path / 'fresh' / 'b.db'}"
    backup = back_up_and_restore(source, target, tmp_path)
    assert backup.read_bytes()[:16] == b"SQLite format 3\x00"
    not_ours = tmp_path / "other.txt"
    not_ours.write_text("hello")
    bad = run(f"sqlite:///{tmp_path / 'c.db'}", "restore", str(not_ours))
    assert bad.exit_code == 2 and "not an SQLite backup" in bad.output


def test_a_postgresql_backup_restores_into_a_fresh_database(postgres, tmp_path, monkeypatch):
    if admin.pg_binary("pg_dump") is None or admin.pg_binary("pg_restore") is None:
        pytest.skip("pg_dump and pg_restore are not installed (Debian: apt-get install postgresql-client)")
    source, target = postgres(), postgres()
    back_up_and_restore(source, target, tmp_path)
    monkeypatch.setattr(admin, "pg_binary", lambda name: None)
    missing = run(source, "backup", str(tmp_path / "again.bin"))
    assert missing.exit_code == 2 and "pg_dump is not installed" in missing.output
