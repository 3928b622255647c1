"""Training data from game records: one row per decision, from the acting seat's side only.

A record (options + seed + actions) is replayed; before each action the acting seat's row is
made from what that seat could know then, and nothing else: its view (``state.view(seat)``)
or the game's RL observation of that view (the vector the Gymnasium and PettingZoo
environments give), its legal actions as ids of the game's action space (the ids the
environments use), the id of the action it chose, and, once the game is over, that seat's
final return (``state.returns()``). Nothing is read from the state but through the seat's
view and legal actions: :func:`decision_row` is the one place a row is made.

Rows (``nemeton export``, docs/rl.md "Exporting training data")::

    {"game": "games/000003.json", "name": "amarok", "players": 3, "step": 17, "seat": 2,
     "observation": [0.0, 1.0, ...] | "view": {...}, "legal": [4, 17, 90], "num_actions": 189,
     "action": 17, "return": 1.0}

``legal`` lists the ids where the legal mask is 1 (``mask = zeros(num_actions)``,
``mask[legal] = 1``): a dense mask of Alarún's 6,453 actions in every row would make the
file a hundred times larger for nothing.

Records come from ``simulate``/``tournament --out`` directories (each game file holds its
record under ``"record"``), from record files, or from a game server's database (its
finished rooms).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator

from ..engine import GameRecord, NemetonError, RecordError, State, get_game

ROW_KEYS = ("game", "name", "players", "step", "seat", "legal", "num_actions", "action", "return")


class ExportError(NemetonError, ValueError):
    """Records that cannot be exported (a missing file, a game file stored without its record)."""


@dataclass
class Source:
    """One game to export: a name for its rows and its record."""

    game: str
    record: GameRecord


def decision_row(state: State, seat: int, encoding: Any, view_json: bool = False) -> dict[str, Any]:
    """What ``seat`` knows as it decides in ``state``: its observation (the game's RL
    encoding ``encoding`` of its view) or, with ``view_json``, the view itself, and its legal
    action ids. Built from ``state.view(seat)`` and ``state.legal_actions(seat)`` only."""
    view = state.view(seat)
    row: dict[str, Any] = ({"view": json.loads(json.dumps(view))} if view_json
                           else {"observation": [float(x) for x in encoding.encode(view)]})
    row["legal"] = sorted(encoding.actions.ids(state.legal_actions(seat)))
    return row


def record_rows(source: Source, view_json: bool = False) -> Iterator[dict[str, Any]]:
    """One row per decision of ``source``'s record, in the record's order (a finished game:
    every row carries the acting seat's final return)."""
    record = source.record
    spec = get_game(record.game)
    options = spec.options(**record.options)
    encoding = spec.encoding(options)
    if record.rules_version != spec.rules_version:
        raise ExportError(f"{source.game}: made for {spec.name} rules version {record.rules_version}; "
                          f"this Nemeton replays version {spec.rules_version} only")
    if record.seed is None:
        raise ExportError(f"{source.game}: the record has no seed and cannot be replayed")
    state = spec.new_state(options, record.seed)
    rows: list[dict[str, Any]] = []
    for step, (seat, action) in enumerate(record.actions):
        row: dict[str, Any] = {"game": source.game, "name": spec.name, "players": options.players, "step": step, "seat": seat}
        row.update(decision_row(state, seat, encoding, view_json))
        row["num_actions"] = len(encoding.actions)
        row["action"] = encoding.actions.id(action)
        try:
            state.apply(action, seat)
        except NemetonError as exc:
            raise ExportError(f"{source.game}: action {step} cannot be replayed: {exc}") from None
        rows.append(row)
    if not state.is_terminal():
        raise ExportError(f"{source.game}: the game has not ended ({len(record.actions)} actions): "
                          f"a decision's return is not known yet")
    returns = state.returns()
    for row in rows:
        row["return"] = float(returns[row["seat"]])
        yield row


# ----- where records come from -----------------------------------------------------------------
def sources_from_paths(paths: Iterable[str | Path]) -> tuple[list[Source], list[str]]:
    """The records in files and directories (every ``*.json`` under a directory): a game
    file of ``simulate``/``tournament --out`` (its ``"record"``) or a record file. Returns
    (sources, skipped), ``skipped`` naming the game files stored without a record."""
    sources: list[Source] = []
    skipped: list[str] = []
    for given in paths:
        path = Path(given)
        if path.is_dir():
            files = sorted(p for p in path.rglob("*.json") if p.is_file())
            base = path
        elif path.is_file():
            files, base = [path], path.parent
        else:
            raise ExportError(f"no such file or directory: {path}")
        for file in files:
            name = file.relative_to(base).as_posix() if path.is_dir() else file.name
            record = _read_record(file, name)
            if record is _NO_RECORD:
                skipped.append(name)
            elif record is not None:
                sources.append(Source(name if path.is_file() else f"{path.name}/{name}", record))
    return sources, skipped


_NO_RECORD: Any = object()  # a game file stored without its record


def _read_record(file: Path, name: str) -> GameRecord | None:
    """The record in ``file``; :data:`_NO_RECORD` for a game file stored without one; None
    for another JSON file (a tournament's configuration or summary)."""
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ExportError(f"{file}: not a JSON file: {exc}") from None
    if isinstance(data, dict) and "record" in data and "format" not in data:  # a game file
        data = data["record"]
        if data is None:
            return _NO_RECORD  # stored without its record (the fast engine keeps none)
    elif not (isinstance(data, dict) and "actions" in data):
        return None
    try:
        return GameRecord.from_json(data)
    except RecordError as exc:
        raise ExportError(f"{name}: {exc}") from None


def sources_from_database(url: str) -> list[Source]:
    """The finished rooms of a game server's database, oldest first (named ``room:ID``)."""
    from ..server.db import Store, open_engine
    store = Store(open_engine(url))
    sources = []
    for room_id in store.room_ids(status="finished"):
        row = store.load_room(room_id)
        if row is None:
            continue
        spec = get_game(row.game)
        options = spec.options(**row.options)
        actions = [(seat, spec.action_from_json(a, options)) for seat, a in row.actions]
        sources.append(Source(f"room:{room_id}", GameRecord(row.game, row.options, row.seed, actions,
                                                            row.rules_version)))
    return sources


# ----- writing -------------------------------------------------------------------------------
def write_jsonl(rows: Iterable[dict[str, Any]], out: Path) -> int:
    """Write ``rows`` as JSON Lines; the number written."""
    count = 0
    with out.open("w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, separators=(",", ":")) + "\n")
            count += 1
    return count


def write_parquet(rows: Iterable[dict[str, Any]], out: Path) -> int:
    """Write ``rows`` as Parquet (pyarrow, the ``parquet`` extra); a view is stored as its
    JSON text. The number written."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    table_rows = [{**row, "view": json.dumps(row["view"])} if "view" in row else row for row in rows]
    pq.write_table(pa.Table.from_pylist(table_rows), str(out))
    return len(table_rows)
