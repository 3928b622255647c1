"""``nemeton admin``: the game server's rooms for its operator (docs/server.md, "Administration").

List the rooms, close an abandoned one, export a room's full record, purge old finished
rooms, back the database up and restore it (SQLite through sqlite3's online backup API,
PostgreSQL through pg_dump and pg_restore). Every command works on the database directly
(``--db URL`` or ``NEMETON_DATABASE_URL``, default the server's SQLite file), while a server
runs or not: a change (a room closed) is seen by running servers as any other process's.
Needs the ``server`` extra.
"""

from __future__ import annotations

import glob
import json
import os
import re
import shutil
import subprocess
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Optional

import typer

from .common import fail, say

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Administer the game server's database: list, close, export, purge rooms; back up "
                       "and restore (docs/server.md).")

STATUSES = ("waiting", "playing", "finished", "closed")


def _db_option() -> Any:
    return typer.Option(None, "--db", envvar="NEMETON_DATABASE_URL", metavar="URL",
                        help="SQLAlchemy database URL, as for `nemeton serve` (default: the SQLite file "
                             "nemeton.db in the data directory).")


def _store(db: Optional[str]) -> Any:
    """The :class:`~nemeton.server.db.Store` on ``db`` (migrated to the newest schema)."""
    try:
        from ..server.db import Store, open_engine
    except ModuleNotFoundError as exc:
        fail(f"`nemeton admin` needs the 'server' extra ({exc.name} is missing): pip install -e '.[server]'")
    try:
        return Store(open_engine(db))
    except Exception as exc:  # a bad URL, a missing driver, a database that does not answer
        fail(f"cannot open the database {_shown(db)}: {exc.__class__.__name__}: {str(exc).splitlines()[0][:300]}")


def _url(db: Optional[str]) -> str:
    from ..server.db import default_url
    return db or default_url()


def _shown(db: Optional[str]) -> str:
    """A database URL without its password."""
    try:
        where = _url(db)
    except Exception:
        where = db or "(default)"
    if "@" in where:
        where = where.split("://", 1)[0] + "://…@" + where.rsplit("@", 1)[1]
    return where


# ----- rooms -----------------------------------------------------------------------------
@app.command("rooms")
def rooms_command(
    status: Optional[str] = typer.Option(None, "--status", metavar="|".join(STATUSES),
                                         help="Only the rooms with this status."),
    as_json: bool = typer.Option(False, "--json", help="Print a JSON list instead of a table."),
    db: Optional[str] = _db_option(),
) -> None:
    """List the rooms, newest first: id, game, players, status, moves, created, updated, listed."""
    if status is not None and status not in STATUSES:
        fail(f"--status must be one of {', '.join(STATUSES)}; got {status!r}")
    found = _store(db).room_table(status)
    if as_json:
        print(json.dumps(found, indent=2))
        return
    if not found:
        say(f"No {status + ' ' if status else ''}rooms in {_shown(db)}.")
        return
    say(f"{len(found)} room{'s' if len(found) != 1 else ''} in {_shown(db)}:")
    columns = ("room", "game", "players", "status", "moves", "created", "updated", "listed")
    lines = [columns] + [(r["room"], r["game"], str(r["players"]), r["status"], str(r["moves"]),
                          (r["created"] or "")[:16].replace("T", " "), (r["updated"] or "")[:16].replace("T", " "),
                          "yes" if r["listed"] else "no") for r in found]
    widths = [max(len(line[i]) for line in lines) for i in range(len(columns))]
    for line in lines:  # plain columns: never cut short, easy to read in a script
        print("  ".join(cell.rjust(w) if i in (2, 4) else cell.ljust(w)
                        for i, (cell, w) in enumerate(zip(line, widths))).rstrip())


@app.command("close")
def close_command(
    room: str = typer.Argument(..., help="The room's id."),
    reason: str = typer.Option("closed by the server's operator", "--reason",
                               help="What the room's page and every refusal will say."),
    db: Optional[str] = _db_option(),
) -> None:
    """End an unfinished room (mark it closed).

    No server loads or plays it any more, and every request to it is answered 410 with the
    reason (its page says it was closed)."""
    store = _store(db)
    row = store.load_room(room)
    if row is None:
        fail(f"no room {room!r} in {_shown(db)}")
    if row.status in ("finished", "closed"):
        fail(f"room {room} is {row.status} already; only a waiting or playing room can be closed")
    version = store.close_room(room, reason)
    if version is None:  # it ended meanwhile
        fail(f"room {room} ended meanwhile: it is {store.load_room(room).status}")
    say(f"Room {room} is closed ({len(row.actions)} moves); a running server stops playing it at once.")


def record_of(row: Any) -> dict[str, Any]:
    """A stored room's full record (seed included), as ``GET /api/rooms/{room}/record`` answers:
    its actions replayed and checked."""
    from ..engine import GameRecord, get_game
    spec = get_game(row.game)
    options = spec.options(**row.options)
    actions = [(seat, spec.action_from_json(action, options)) for seat, action in row.actions]
    return GameRecord(spec.name, dict(row.options), row.seed, actions, row.rules_version).replay().record().to_json()


@app.command("export")
def export_command(
    room: str = typer.Argument(..., help="The room's id."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Write the record to this file (default: print it)."),
    force: bool = typer.Option(False, "--force", help="Export a room still being played (its seed reveals every "
                                                       "hidden card: keep it from the players)."),
    db: Optional[str] = _db_option(),
) -> None:
    """Print a room's full record as JSON, as GET /api/rooms/ROOM/record does.

    Format, game, options, seed and actions, for a finished or closed room; a room still being
    played only with --force, since the seed reveals every hidden card."""
    row = _store(db).load_room(room)
    if row is None:
        fail(f"no room {room!r} in {_shown(db)}")
    if row.status not in ("finished", "closed") and not force:
        fail(f"room {room} is {row.status}: its record holds the seed, which reveals every hidden card; "
             "close it first, wait for its end, or give --force")
    text = json.dumps(record_of(row), indent=2)
    if out is None:
        print(text)
    else:
        out.write_text(text + "\n", encoding="utf-8")
        say(f"Room {room}'s record ({len(row.actions)} moves, {row.status}) written to {out}")


@app.command("purge")
def purge_command(
    days: float = typer.Option(..., "--finished-older-than", min=0, metavar="DAYS",
                               help="Delete the rooms whose game ended (finished or closed) at least this many "
                                    "days ago."),
    yes: bool = typer.Option(False, "--yes", help="Delete them (without it: only say how many would go)."),
    db: Optional[str] = _db_option(),
) -> None:
    """Delete the finished and closed rooms untouched for DAYS days.

    Their seats and actions go with them; without --yes a dry run that says how many."""
    store = _store(db)
    cutoff = datetime.now(timezone.utc) - timedelta(days=days)
    ids = store.purge(cutoff, dry_run=not yes)
    rooms = f"{len(ids)} room{'s' if len(ids) != 1 else ''}"
    if yes:
        say(f"Deleted {rooms} finished or closed more than {days:g} days ago.")
    else:
        say(f"Would delete {rooms} finished or closed more than {days:g} days ago (a dry run: nothing deleted; "
            "give --yes to delete them).")


# ----- backup and restore ------------------------------------------------------------------
@app.command("backup")
def backup_command(
    file: Path = typer.Argument(..., help="The backup file to write (SQLite: a database file; PostgreSQL: "
                                          "pg_dump's custom format)."),
    force: bool = typer.Option(False, "--force", help="Replace FILE if it exists."),
    db: Optional[str] = _db_option(),
) -> None:
    """Back the database up to FILE, while servers run.

    SQLite through sqlite3's online backup API (a consistent copy, in one file), PostgreSQL
    through pg_dump (found on PATH or in /usr/lib/postgresql/*/bin)."""
    url = _url(db)
    if file.exists() and not force:
        fail(f"{file} exists; give --force to replace it")
    store = _store(db)  # the schema migrated: a backup is always of the newest schema
    rooms = len(store.room_ids())
    if store.engine.dialect.name == "sqlite":
        _sqlite_copy(_sqlite_path(store), file, wal=False)
    elif store.engine.dialect.name == "postgresql":
        file.unlink(missing_ok=True)
        _pg_run("pg_dump", ["--format=custom", "--no-owner", "--no-privileges", f"--file={file}"], store)
    else:
        fail(f"backups are for SQLite and PostgreSQL; {store.engine.dialect.name} is neither: use its own tools")
    store.engine.dispose()
    say(f"Backed up {rooms} room{'s' if rooms != 1 else ''} from {_shown(url)} to {file}")


@app.command("restore")
def restore_command(
    file: Path = typer.Argument(..., exists=True, dir_okay=False, help="A backup written by `nemeton admin backup`."),
    yes: bool = typer.Option(False, "--yes", help="Replace the database's rooms if it holds any."),
    db: Optional[str] = _db_option(),
) -> None:
    """Restore a backup into the database (stop its servers first).

    The database's content is replaced by the backup's (SQLite: the online backup API;
    PostgreSQL: pg_restore), then migrated to this version's schema."""
    try:
        from sqlalchemy import create_engine, inspect
        from sqlalchemy.engine import make_url

        from ..server.db import migrate, open_engine
    except ModuleNotFoundError as exc:
        fail(f"`nemeton admin` needs the 'server' extra ({exc.name} is missing): pip install -e '.[server]'")
    url = _url(db)
    kind = make_url(url).get_backend_name()
    if kind not in ("sqlite", "postgresql"):
        fail(f"restores are for SQLite and PostgreSQL; {kind} is neither: use its own tools")
    engine = open_engine(url) if kind == "sqlite" else create_engine(url)
    try:
        if "rooms" in inspect(engine).get_table_names():
            with engine.connect() as c:
                held = c.exec_driver_sql("SELECT count(*) FROM rooms").scalar_one()
            if held and not yes:
                fail(f"{_shown(url)} holds {held} room{'s' if held != 1 else ''}: give --yes to replace them "
                     "with the backup's")
        from ..server.db import Store
        if kind == "sqlite":
            _check_sqlite_backup(file)
            engine.dispose()
            _sqlite_copy(file, _sqlite_path(Store(engine)), wal=True)
        else:
            _pg_run("pg_restore", ["--clean", "--if-exists", "--no-owner", "--no-privileges", "--exit-on-error",
                                   "--single-transaction", str(file)], Store(engine))
        engine.dispose()
        engine = open_engine(url) if kind == "sqlite" else create_engine(url)
        migrate(engine)  # a backup of an older version is brought up to this one's schema
        rooms = len(Store(engine).room_ids())
    finally:
        engine.dispose()
    say(f"Restored {rooms} room{'s' if rooms != 1 else ''} from {file} into {_shown(url)}")


def _sqlite_path(store: Any) -> Path:
    database = store.engine.url.database
    if not database or database == ":memory:":
        fail("an in-memory SQLite database has nothing to back up or restore")
    return Path(database).expanduser()


def _check_sqlite_backup(file: Path) -> None:
    import sqlite3
    try:
        with sqlite3.connect(f"file:{file}?mode=ro", uri=True) as c:
            tables = {r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError as exc:
        fail(f"{file} is not an SQLite backup ({exc})")
    if "rooms" not in tables:
        fail(f"{file} is an SQLite database without Nemeton's rooms: not a backup of a game server")


def _sqlite_copy(source: Path, target: Path, wal: bool) -> None:
    """Copy one SQLite database onto another with sqlite3's online backup API (consistent
    while a server writes; the target is replaced page by page). ``wal``: the target is a
    server's database (WAL mode); else a backup, one self-contained file."""
    import sqlite3
    target.parent.mkdir(parents=True, exist_ok=True)
    src = sqlite3.connect(str(source), timeout=30)
    dst = sqlite3.connect(str(target), timeout=30)
    try:
        src.backup(dst)
        dst.execute("PRAGMA journal_mode=WAL" if wal else "PRAGMA journal_mode=DELETE")
    except sqlite3.DatabaseError as exc:
        fail(f"copying {source} to {target} failed: {exc}")
    finally:
        dst.close()
        src.close()


def pg_binary(name: str) -> str | None:
    """``pg_dump`` or ``pg_restore``: on PATH, else the newest of Debian's /usr/lib/postgresql/*/bin."""
    found = shutil.which(name)
    if found:
        return found

    def version(path: str) -> tuple[int, ...]:
        return tuple(int(n) for n in re.findall(r"\d+", path.split("/postgresql/")[1].split("/")[0]))
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=version, reverse=True)
    return candidates[0] if candidates else None


def _pg_run(name: str, args: list[str], store: Any) -> None:
    binary = pg_binary(name)
    if binary is None:
        fail(f"{name} is not installed (PostgreSQL's client tools: on Debian, apt-get install postgresql-client); "
             "it was looked for on PATH and in /usr/lib/postgresql/*/bin")
    url = store.engine.url.set(drivername="postgresql")
    env = dict(os.environ)
    if url.password is not None:  # kept out of the command line (ps shows it)
        env["PGPASSWORD"] = str(url.password)
        url = url.set(password=None)
    store.engine.dispose()
    done = subprocess.run([binary, *args, f"--dbname={url.render_as_string(hide_password=False)}"],
                          capture_output=True, text=True, env=env)
    if done.returncode != 0:
        fail(f"{name} failed (exit {done.returncode}): {done.stderr.strip()[-600:]}")
