"""Migrating down keeps what the older schema can hold: a downgrade drops columns in place
(SQLite's ALTER TABLE ... DROP COLUMN), never by copying the table, which with the server's
foreign keys on would cascade and delete every seat and action."""

from __future__ import annotations

import json
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, event, func, select, text

from conftest import check_migrated_0008, stored_before_0008

import nemeton.server.db as db


def config_for(connection) -> Config:
    config = Config()
    config.set_main_option("script_location", str(Path(db.__file__).parent / "migrations"))
    config.attributes["connection"] = connection
    return config


def counts(connection) -> tuple[int, int, int]:
    return tuple(connection.execute(select(func.count()).select_from(text(name))).scalar_one()
                 for name in ("rooms", "seats", "actions"))


def test_downgrading_to_the_first_schema_and_back_keeps_every_room_seat_and_action(db_url):
    moves = stored_before_0008(db_url)
    engine = create_engine(db_url)
    event.listen(engine, "connect", lambda conn, _: conn.execute("PRAGMA foreign_keys=ON"))  # as the server runs
    with engine.begin() as c:
        command.upgrade(config_for(c), "head")
        before = counts(c)
    assert before == (1, 2, len(moves))
    with engine.begin() as c:
        command.downgrade(config_for(c), "0001")
        assert counts(c) == before
        columns = [row[1] for row in c.execute(text("PRAGMA table_info(rooms)"))]
        assert "acting" not in columns and "listed" not in columns and "creator_hash" not in columns
    with engine.begin() as c:
        command.upgrade(config_for(c), "head")
        c.execute(text("UPDATE rooms SET acting = :a, listed = 1"), {"a": json.dumps([1])})
    engine.dispose()
    check_migrated_0008(db_url, moves)
