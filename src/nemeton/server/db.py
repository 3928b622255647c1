"""Durable storage of rooms: SQLAlchemy 2 Core tables, migrated by Alembic at start.

A room is a game record split into rows: the ``rooms`` row (game, options, seed, version,
status), one ``seats`` row per seat (a person's name and token hash, or an agent spec) and one
``actions`` row per applied action, in order; a finished game's analysis, once worked out, is
one ``analyses`` row, and while it is worked out one ``analysis_jobs`` row (its progress, the
process running it and that process's heartbeat). The room's ``version`` counts its changes (an
action, a seat handed over) and never goes back; every change is one transaction that first
moves the version on with ``UPDATE rooms SET version = version + 1 WHERE id = ? AND version = ?``: a writer that
validated an action against another version updates no row and gets :class:`StaleVersion`,
so two writers can never both apply an action for the same turn.

Several server processes may share one database: on PostgreSQL every committed change is
announced with ``NOTIFY`` (:meth:`Store.listen`); elsewhere processes poll the versions
(:meth:`Store.versions`).

The default database is an SQLite file (WAL mode, synchronous=FULL: a commit is on disk
before it returns) in the data directory (:func:`data_dir`: ``$NEMETON_DATA``, else
platformdirs' user data directory); any SQLAlchemy URL may be given instead.

A room ended before its game did (by the operator, or after days untouched) is "closed": no
change of it is ever stored again (:class:`RoomClosed`).
"""

from __future__ import annotations

import json
import logging
import threading
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterable

from sqlalchemy import (JSON, Boolean, Column, DateTime, Float, ForeignKey, Integer, MetaData, String, Table, Text,
                        create_engine, delete, event, insert, select, text, update)
from sqlalchemy.engine import Engine

from .paths import DB_FILE, LEGACY_DATA_DIR, data_dir, default_db_path  # noqa: F401 (part of this module's API)

log = logging.getLogger("nemeton.server")

metadata = MetaData()

rooms = Table(
    "rooms", metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("rules_version", Integer, nullable=False),
    Column("options", JSON, nullable=False),
    Column("seed", String(24), nullable=False),  # up to 2**64-1: wider than a signed BIGINT
    Column("status", String(16), nullable=False, index=True),  # "waiting" (open seats), "playing", "finished", "closed"
    Column("version", Integer, nullable=False),  # one more at every change: never goes back
    Column("undo", Boolean, nullable=False, default=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Column("creator_hash", String(64), nullable=True),  # sha256 hex of the creator's token
    Column("turn_timeout_s", Float, nullable=True),  # a person's time per decision, None: no limit
    Column("rematch", String(32), nullable=True),  # the room of this game's rematch, once asked for
    Column("listed", Boolean, nullable=False, default=True),  # False: reachable only by its links
    Column("closed_reason", String(200), nullable=True),  # why a "closed" room was ended before its game
    Column("acting", Text, nullable=True),  # JSON list: the seats to act after the last stored action (migration 0008)
    Column("hints", Boolean, nullable=False, default=False),  # people may ask the search for hints (migration 0009)
)

seats = Table(
    "seats", metadata,
    Column("room_id", String(32), ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # "human" or "ai"
    Column("name", String(64), nullable=True),
    Column("agent", String(200), nullable=True),
    Column("token_hash", String(64), nullable=True),  # sha256 hex of a person's token
    Column("stand_in", String(200), nullable=True),  # an agent playing an absent person's seat
    Column("stand_in_auto", Boolean, nullable=True),  # True: put there by a timeout, until the person returns
)

actions = Table(
    "actions", metadata,
    Column("room_id", String(32), ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", Text, nullable=False),  # the action's JSON text
)


analyses = Table(
    "analyses", metadata,
    Column("room_id", String(32), ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("analysis", Text, nullable=False),  # the JSON text of nemeton.teacher's Analysis (migration 0010)
)

analysis_jobs = Table(  # migration 0011
    "analysis_jobs", metadata,
    Column("room_id", String(32), ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    Column("state", String(16), nullable=False),  # "running" or "failed"
    Column("done", Integer, nullable=False),  # decisions judged so far, of total
    Column("total", Integer, nullable=False),
    Column("owner", String(80), nullable=False),  # the server process running it (Analyses.owner)
    Column("heartbeat", DateTime(timezone=True), nullable=True),  # its last sign of life; None: given up
    Column("message", String(200), nullable=True),  # why a "failed" one failed (never the error's text)
    Column("started_at", DateTime(timezone=True), nullable=False),
)


class StaleVersion(Exception):
    """The room moved on since the action was validated (another request or process won)."""


class RoomClosed(StaleVersion):
    """The room was closed (by the operator or by expiry): nothing of it changes any more."""


class SeatTaken(Exception):
    """The seat asked for is no longer open (somebody else took it first)."""


@dataclass
class SeatRow:
    seat: int
    kind: str
    name: str | None
    agent: str | None
    token_hash: str | None
    stand_in: str | None = None
    stand_in_auto: bool = False


@dataclass
class AnalysisJob:
    """A finished game's analysis being worked out (or failed), as every process reads it."""
    state: str  # "running" or "failed"
    done: int
    total: int
    owner: str
    heartbeat: datetime | None
    message: str | None

    def alive(self, stale_before: datetime) -> bool:
        """Whether its process still runs it: a "running" job heard of since ``stale_before``."""
        return self.state == "running" and self.heartbeat is not None and _utc(self.heartbeat) >= stale_before


@dataclass
class RoomRow:
    id: str
    game: str
    rules_version: int
    options: dict[str, Any]
    seed: int
    status: str
    version: int
    undo: bool
    created_at: datetime
    seats: list[SeatRow]
    actions: list[tuple[int, Any]]  # (seat, action JSON)
    creator_hash: str | None = None
    turn_timeout_s: float | None = None
    rematch: str | None = None
    listed: bool = True
    closed_reason: str | None = None
    updated_at: datetime | None = None
    hints: bool = False


def _seat_row(r: Any) -> SeatRow:
    return SeatRow(r.seat, r.kind, r.name, r.agent, r.token_hash, r.stand_in, bool(r.stand_in_auto))


def is_open(seat: SeatRow) -> bool:
    """A person's seat nobody has taken yet (no token): anyone may take it while the room waits."""
    return seat.kind == "human" and seat.token_hash is None


def default_url() -> str:
    """The SQLite file ``nemeton.db`` in the data directory (:func:`~nemeton.server.paths.data_dir`:
    ``$NEMETON_DATA``, else platformdirs' user data directory, else a database left in the old
    ``~/.local/share/nemeton``)."""
    return f"sqlite:///{default_db_path()}"


def open_engine(url: str | None = None) -> Engine:
    """An engine for ``url`` (default: :func:`default_url`), the SQLite file's directory
    created on first use, and the schema migrated to the newest version."""
    url = url or default_url()
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
        database = engine.url.database
        if database and database != ":memory:":
            Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        event.listen(engine, "connect", _sqlite_pragmas)
    else:
        engine = create_engine(url, pool_pre_ping=True)
    migrate(engine)
    return engine


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


def migrate(engine: Engine) -> None:
    """Apply the Alembic migrations shipped in ``nemeton/server/migrations`` up to head."""
    from alembic import command
    from alembic.config import Config
    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":  # processes starting together migrate one at a time
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


# The PostgreSQL channel on which every committed change of a room is announced (by the
# trigger of migration 0005).
CHANNEL = "nemeton_rooms"
MIGRATION_LOCK = 0x6E656D65746F6E  # the advisory lock held while migrating ("nemeton")


def _now() -> datetime:
    return datetime.now(timezone.utc)


class Store:
    """The rooms in one database; every method is one transaction."""

    def __init__(self, engine: Engine):
        self.engine = engine

    def create_room(self, room_id: str, game: str, rules_version: int, options: dict[str, Any], seed: int,
                    seat_rows: Iterable[SeatRow], undo: bool = False, creator_hash: str | None = None,
                    turn_timeout_s: float | None = None, listed: bool = True, hints: bool = False) -> None:
        """A new room: "waiting" while a person's seat has no token yet (an open seat), else "playing".
        ``hints``: whether its people may ask the search for hints."""
        now = _now()
        seat_rows = list(seat_rows)
        status = "waiting" if any(is_open(s) for s in seat_rows) else "playing"
        with self.engine.begin() as c:
            c.execute(insert(rooms).values(
                id=room_id, game=game, rules_version=rules_version, options=options, seed=str(seed),
                status=status, version=0, undo=undo, created_at=now, updated_at=now,
                creator_hash=creator_hash, turn_timeout_s=turn_timeout_s, listed=listed, hints=hints))
            c.execute(insert(seats), [
                {"room_id": room_id, "seat": s.seat, "kind": s.kind, "name": s.name, "agent": s.agent,
                 "token_hash": s.token_hash, "stand_in": s.stand_in, "stand_in_auto": s.stand_in_auto}
                for s in seat_rows])

    def claim_seat(self, room_id: str, version: int, seat: int, name: str, token_hash: str) -> tuple[int, str]:
        """A person takes an open seat (one at a time: the seat must still have no token);
        returns the room's new version and status ("playing" once no seat is open). Raises
        :class:`SeatTaken` if the seat was taken meanwhile, :class:`StaleVersion` if the room moved on."""
        with self.engine.begin() as c:
            taken = c.execute(update(seats).where(seats.c.room_id == room_id, seats.c.seat == seat,
                                                  seats.c.kind == "human", seats.c.token_hash.is_(None))
                              .values(name=name, token_hash=token_hash))
            if taken.rowcount != 1:
                raise SeatTaken(f"seat {seat} of room {room_id} is not open")
            still_open = c.execute(select(seats.c.seat).where(seats.c.room_id == room_id, seats.c.kind == "human",
                                                              seats.c.token_hash.is_(None))).first()
            status = "waiting" if still_open is not None else "playing"
            self._move_on(c, room_id, version, status=status)
        return version + 1, status

    def release_seat(self, room_id: str, version: int, seat: int) -> int:
        """A person leaves their seat before the game starts: it is open again (its token no
        longer works) and the room waits; returns the new version."""
        with self.engine.begin() as c:
            self._move_on(c, room_id, version, status="waiting")
            c.execute(update(seats).where(seats.c.room_id == room_id, seats.c.seat == seat)
                      .values(name=None, token_hash=None))
        return version + 1

    def take_back(self, room_id: str, version: int, moves: int) -> int:
        """Drop the room's actions from index ``moves`` on (a take-back); returns the new version."""
        with self.engine.begin() as c:
            self._move_on(c, room_id, version, acting=None)  # who acts now: unknown until replayed
            c.execute(delete(actions).where(actions.c.room_id == room_id, actions.c.idx >= moves))
        return version + 1

    def set_stand_in(self, room_id: str, version: int, seat: int, agent: str | None, auto: bool = False) -> int:
        """Let ``agent`` play a person's seat (None: the person again; ``auto``: until the
        person returns); returns the new version."""
        with self.engine.begin() as c:
            self._move_on(c, room_id, version)
            c.execute(update(seats).where(seats.c.room_id == room_id, seats.c.seat == seat)
                      .values(stand_in=agent, stand_in_auto=auto and agent is not None))
        return version + 1

    def append_actions(self, room_id: str, version: int, first: int, new: list[tuple[int, Any]],
                       terminal: bool, acting: list[int] | None = None) -> int:
        """Store ``new`` (seat, action JSON) pairs as the room's actions ``first``, ``first + 1``,
        ...; returns the room's new version, or raises :class:`StaleVersion` (nothing
        written) when the room is no longer at ``version``. ``terminal``: whether the game has
        ended with them (the room's status becomes "finished"); ``acting``: the seats to act
        after them (what :meth:`rooms_to_load` reads at start; None: unknown)."""
        with self.engine.begin() as c:
            self._move_on(c, room_id, version, status="finished" if terminal else "playing",
                          acting=None if acting is None else json.dumps(list(acting)))
            if new:
                c.execute(insert(actions), [
                    {"room_id": room_id, "idx": first + i, "seat": seat,
                     "action": json.dumps(action, separators=(",", ":"))}
                    for i, (seat, action) in enumerate(new)])
        return version + 1

    @staticmethod
    def _move_on(c: Any, room_id: str, version: int, **values: Any) -> None:
        """The optimistic check: one change moves the room from ``version`` to the next. On
        PostgreSQL a trigger (migration 0005) announces it to every server process sharing the
        database (``NOTIFY``, delivered when the transaction commits, never before). A closed
        room never moves on (:class:`RoomClosed`)."""
        moved = c.execute(update(rooms).where(rooms.c.id == room_id, rooms.c.version == version,
                                              rooms.c.status != "closed")
                          .values(version=rooms.c.version + 1, updated_at=_now(), **values))
        if moved.rowcount != 1:
            reason = c.execute(select(rooms.c.closed_reason).where(rooms.c.id == room_id,
                                                                   rooms.c.status == "closed")).first()
            if reason is not None:
                raise RoomClosed(closed_message(reason.closed_reason))
            raise StaleVersion(f"room {room_id} is no longer at version {version}")

    def versions(self, room_ids: Iterable[str]) -> dict[str, int]:
        """The stored version of each of these rooms (how other processes' changes are seen
        where the database cannot announce them)."""
        ids = list(room_ids)
        found: dict[str, int] = {}
        with self.engine.connect() as c:
            for i in range(0, len(ids), 500):
                query = select(rooms.c.id, rooms.c.version).where(rooms.c.id.in_(ids[i:i + 500]))
                found.update({r.id: r.version for r in c.execute(query)})
        return found

    @property
    def announces(self) -> bool:
        """Whether changes are announced (PostgreSQL's LISTEN/NOTIFY) rather than polled."""
        return self.engine.dialect.name == "postgresql"

    def listen(self, on_change: Callable[[str, int], None], stop: threading.Event) -> None:
        """Until ``stop`` is set, call ``on_change(room_id, version)`` for every change any
        process commits (PostgreSQL only; blocks, so run it on a thread). A dropped connection
        is opened again; ``on_change("", 0)`` then says that announcements may have been missed."""
        import psycopg
        url = self.engine.url.set(drivername="postgresql")
        conninfo = url.render_as_string(hide_password=False)
        while not stop.is_set():
            try:
                with psycopg.connect(conninfo, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    on_change("", 0)  # (re)connected: whatever was missed meanwhile is re-read
                    while not stop.is_set():
                        for note in conn.notifies(timeout=0.5):
                            room_id, _, version = note.payload.partition(" ")
                            if version.isdigit():
                                on_change(room_id, int(version))
            except psycopg.Error as exc:
                log.warning("listening for other processes' changes failed (%s); retrying", exc)
                stop.wait(1.0)

    def set_rematch(self, room_id: str, rematch: str) -> str:
        """Point a room to its rematch unless it already has one; returns the one it has."""
        with self.engine.begin() as c:
            c.execute(update(rooms).where(rooms.c.id == room_id, rooms.c.rematch.is_(None)).values(rematch=rematch))
            return c.execute(select(rooms.c.rematch).where(rooms.c.id == room_id)).scalar_one()

    # ----- analyses: one job row while worked out, one analyses row once done -------------
    def save_analysis(self, room_id: str, analysis: dict[str, Any]) -> None:
        """Store a finished game's analysis (once: one already stored, by another process,
        stays) and end its job."""
        from sqlalchemy.exc import IntegrityError
        try:
            with self.engine.begin() as c:
                c.execute(delete(analysis_jobs).where(analysis_jobs.c.room_id == room_id))
                c.execute(insert(analyses).values(room_id=room_id, created_at=_now(),
                                                  analysis=json.dumps(analysis, separators=(",", ":"))))
        except IntegrityError:  # stored meanwhile by another process: its job ends all the same
            with self.engine.begin() as c:
                c.execute(delete(analysis_jobs).where(analysis_jobs.c.room_id == room_id))

    def load_analysis(self, room_id: str) -> dict[str, Any] | None:
        """A finished game's stored analysis, or None."""
        with self.engine.connect() as c:
            text_ = c.execute(select(analyses.c.analysis).where(analyses.c.room_id == room_id)).scalar_one_or_none()
        return None if text_ is None else json.loads(text_)

    def analysis_job(self, room_id: str) -> AnalysisJob | None:
        """The job of a game's analysis being worked out (or failed), or None."""
        with self.engine.connect() as c:
            r = c.execute(select(analysis_jobs).where(analysis_jobs.c.room_id == room_id)).first()
        return None if r is None else AnalysisJob(r.state, r.done, r.total, r.owner, r.heartbeat, r.message)

    def claim_analysis(self, room_id: str, owner: str, total: int, stale_before: datetime) -> bool:
        """Make ``owner`` the one process that analyses this game, if nobody does: no analysis
        stored, and no job, or a failed one, or one not heard of since ``stale_before`` (its
        process died or stopped). One transaction decides, so of processes claiming together
        exactly one gets it. Returns whether ``owner`` got it."""
        from sqlalchemy.exc import IntegrityError
        now = _now()
        fresh = {"state": "running", "done": 0, "total": total, "owner": owner, "heartbeat": now,
                 "message": None, "started_at": now}
        try:
            with self.engine.begin() as c:
                if c.execute(select(analyses.c.room_id).where(analyses.c.room_id == room_id)).first() is not None:
                    return False
                c.execute(insert(analysis_jobs).values(room_id=room_id, **fresh))
                return True
        except IntegrityError:  # a job exists: taken over only if it failed or its process is gone
            pass
        with self.engine.begin() as c:
            taken = c.execute(update(analysis_jobs).where(
                analysis_jobs.c.room_id == room_id,
                (analysis_jobs.c.state == "failed") | analysis_jobs.c.heartbeat.is_(None)
                | (analysis_jobs.c.heartbeat < stale_before)).values(**fresh))
            return taken.rowcount == 1

    def beat_analysis(self, room_id: str, owner: str, done: int, total: int) -> bool:
        """The owner's progress and sign of life; False if the job is no longer its own
        (taken over, or stored and ended by another process)."""
        with self.engine.begin() as c:
            moved = c.execute(update(analysis_jobs).where(
                analysis_jobs.c.room_id == room_id, analysis_jobs.c.owner == owner,
                analysis_jobs.c.state == "running").values(done=done, total=total, heartbeat=_now()))
            return moved.rowcount == 1

    def fail_analysis(self, room_id: str, owner: str, message: str) -> None:
        """The owner's job failed: every process answers ``message`` until it is asked again."""
        with self.engine.begin() as c:
            c.execute(update(analysis_jobs).where(analysis_jobs.c.room_id == room_id, analysis_jobs.c.owner == owner)
                      .values(state="failed", message=message[:200]))

    def release_analyses(self, owner: str) -> None:
        """The owner stops: its running jobs are given up (no heartbeat), so that the next
        process asked takes them over at once instead of after the lease."""
        with self.engine.begin() as c:
            c.execute(update(analysis_jobs).where(analysis_jobs.c.owner == owner, analysis_jobs.c.state == "running")
                      .values(heartbeat=None))

    def load_room(self, room_id: str) -> RoomRow | None:
        with self.engine.connect() as c:
            row = c.execute(select(rooms).where(rooms.c.id == room_id)).mappings().first()
            if row is None:
                return None
            seat_rows = [_seat_row(r) for r in c.execute(
                select(seats).where(seats.c.room_id == room_id).order_by(seats.c.seat))]
            action_rows = [(r.seat, json.loads(r.action)) for r in c.execute(
                select(actions.c.seat, actions.c.action).where(actions.c.room_id == room_id)
                .order_by(actions.c.idx))]
        return RoomRow(row["id"], row["game"], row["rules_version"], dict(row["options"]), int(row["seed"]),
                       row["status"], row["version"], bool(row["undo"]), row["created_at"], seat_rows,
                       action_rows, row["creator_hash"], row["turn_timeout_s"], row["rematch"], bool(row["listed"]),
                       row["closed_reason"], row["updated_at"], bool(row["hints"]))

    def list_rooms(self, limit: int = 100) -> list[RoomRow]:
        """The newest listed rooms with their seats, without their actions (for a lobby);
        unlisted rooms are never among them."""
        with self.engine.connect() as c:
            newest = (select(rooms).where(rooms.c.listed.is_(True))
                      .order_by(rooms.c.created_at.desc(), rooms.c.id).limit(limit))
            rows = c.execute(newest).mappings().all()
            ids = [r["id"] for r in rows]
            by_room: dict[str, list[SeatRow]] = {i: [] for i in ids}
            if ids:
                their_seats = select(seats).where(seats.c.room_id.in_(ids)).order_by(seats.c.room_id, seats.c.seat)
                for r in c.execute(their_seats):
                    by_room[r.room_id].append(_seat_row(r))
        return [RoomRow(r["id"], r["game"], r["rules_version"], dict(r["options"]), int(r["seed"]), r["status"],
                        r["version"], bool(r["undo"]), r["created_at"], by_room[r["id"]], [], r["creator_hash"],
                        r["turn_timeout_s"], r["rematch"], bool(r["listed"]), r["closed_reason"], r["updated_at"],
                        bool(r["hints"]))
                for r in rows]

    def room_ids(self, status: str | None = None) -> list[str]:
        query = select(rooms.c.id).order_by(rooms.c.created_at, rooms.c.id)
        if status is not None:
            query = query.where(rooms.c.status == status)
        with self.engine.connect() as c:
            return [r.id for r in c.execute(query)]

    # ----- loading, expiry and administration ---------------------------------------------
    def rooms_to_load(self) -> list[str]:
        """The rooms being played that must move without anyone asking, loaded at start: an
        agent is to act (an AI seat, or a stand-in, among the seats to move after the last
        stored action), a turn timer runs (a person to move in a room with a turn timeout),
        or who is to act is not stored (no action yet, a take-back, a room stored before
        migration 0007). Every other room is loaded when a request asks for it."""
        with self.engine.connect() as c:
            playing = c.execute(select(rooms.c.id, rooms.c.acting, rooms.c.turn_timeout_s)
                                .where(rooms.c.status == "playing").order_by(rooms.c.created_at, rooms.c.id)).all()
            agents: dict[str, set[int]] = {}
            for s in c.execute(select(seats.c.room_id, seats.c.seat).join(rooms, rooms.c.id == seats.c.room_id)
                               .where(rooms.c.status == "playing",
                                      (seats.c.kind == "ai") | seats.c.stand_in.is_not(None))):
                agents.setdefault(s.room_id, set()).add(s.seat)
        chosen = []
        for r in playing:
            acting = None
            if r.acting is not None:
                try:
                    acting = set(json.loads(r.acting))
                except ValueError:
                    pass
            if acting is None or (acting and r.turn_timeout_s is not None) or acting & agents.get(r.id, set()):
                chosen.append(r.id)
        return chosen

    def close_room(self, room_id: str, reason: str, untouched_since: datetime | None = None) -> int | None:
        """End an unfinished room ("waiting" or "playing") before its game ends: its status
        becomes "closed" (nothing of it is stored again, no server loads it) and its version
        moves on (other processes hear of it). With ``untouched_since``: only if it has not
        changed since then (expiry). Returns the new version, or None if nothing was closed."""
        with self.engine.begin() as c:
            where = [rooms.c.id == room_id, rooms.c.status.in_(("waiting", "playing"))]
            if untouched_since is not None:
                where.append(rooms.c.updated_at < untouched_since)
            moved = c.execute(update(rooms).where(*where).values(
                status="closed", closed_reason=reason[:200], version=rooms.c.version + 1, updated_at=_now()))
            if moved.rowcount != 1:
                return None
            return c.execute(select(rooms.c.version).where(rooms.c.id == room_id)).scalar_one()

    def untouched_rooms(self, before: datetime) -> list[str]:
        """The unfinished rooms ("waiting" or "playing") that have not changed since ``before``."""
        with self.engine.connect() as c:
            return [r.id for r in c.execute(select(rooms.c.id).where(
                rooms.c.status.in_(("waiting", "playing")), rooms.c.updated_at < before)
                .order_by(rooms.c.updated_at, rooms.c.id))]

    def room_table(self, status: str | None = None) -> list[dict[str, Any]]:
        """Every room (newest first), for the operator: id, game, players, status, moves,
        created, updated, listed, and why a closed room was closed."""
        from sqlalchemy import func
        players = select(func.count()).where(seats.c.room_id == rooms.c.id).scalar_subquery()
        moves = select(func.count()).where(actions.c.room_id == rooms.c.id).scalar_subquery()
        query = (select(rooms.c.id, rooms.c.game, players.label("players"), rooms.c.status, moves.label("moves"),
                        rooms.c.created_at, rooms.c.updated_at, rooms.c.listed, rooms.c.closed_reason)
                 .order_by(rooms.c.created_at.desc(), rooms.c.id))
        if status is not None:
            query = query.where(rooms.c.status == status)
        with self.engine.connect() as c:
            return [{"room": r.id, "game": r.game, "players": r.players, "status": r.status, "moves": r.moves,
                     "created": _iso(r.created_at), "updated": _iso(r.updated_at), "listed": bool(r.listed),
                     "closed_reason": r.closed_reason} for r in c.execute(query)]

    def purge(self, before: datetime, dry_run: bool = True) -> list[str]:
        """The rooms whose game ended ("finished" or "closed") and that have not changed since
        ``before``; deleted with their seats and actions unless ``dry_run``."""
        with self.engine.begin() as c:
            ids = [r.id for r in c.execute(select(rooms.c.id).where(
                rooms.c.status.in_(("finished", "closed")), rooms.c.updated_at < before))]
            if not dry_run:
                for i in range(0, len(ids), 500):
                    chunk = ids[i:i + 500]
                    c.execute(delete(analyses).where(analyses.c.room_id.in_(chunk)))
                    c.execute(delete(analysis_jobs).where(analysis_jobs.c.room_id.in_(chunk)))
                    c.execute(delete(actions).where(actions.c.room_id.in_(chunk)))
                    c.execute(delete(seats).where(seats.c.room_id.in_(chunk)))
                    c.execute(delete(rooms).where(rooms.c.id.in_(chunk)))
        return ids


def closed_message(reason: str | None) -> str:
    """What a request to a closed room is answered (410)."""
    return f"this room was closed: {reason or 'by the server operator'}; nothing can be played in it any more"


def _utc(when: datetime) -> datetime:
    """``when`` as an aware UTC datetime (SQLite gives back naive datetimes: they were stored in UTC)."""
    return when.replace(tzinfo=timezone.utc) if when.tzinfo is None else when


def _iso(when: datetime | None) -> str | None:
    if when is None:
        return None
    if when.tzinfo is None:  # SQLite gives back naive datetimes: they were stored in UTC
        when = when.replace(tzinfo=timezone.utc)
    return when.isoformat(timespec="seconds")
