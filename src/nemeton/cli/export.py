"""``nemeton export RECORDS... --out FILE``: game records as training data, one row per decision."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import List, Optional

import typer

from ..engine import NemetonError
from .common import fail, say

FORMATS = ("jsonl", "parquet")


def export_command(
    records: Optional[List[Path]] = typer.Argument(None, help="Record files, or directories of game files "
                                                               "(simulate/tournament --out)."),
    out: Path = typer.Option(..., "--out", "-o", help="The file to write."),
    fmt: Optional[str] = typer.Option(None, "--format", "-f",
                                      help="jsonl or parquet (default: from --out's suffix, else jsonl); "
                                           "parquet needs the parquet extra."),
    database: Optional[str] = typer.Option(None, "--database", metavar="URL",
                                           help="Also export the finished rooms of a game server's database "
                                                "(SQLAlchemy URL, e.g. sqlite:///nemeton.db)."),
    view_json: bool = typer.Option(False, "--view-json",
                                   help="Each row holds the acting seat's view (JSON) instead of its RL observation."),
) -> None:
    """One row per decision: the game, the acting seat, what it could see (its RL observation,
    or its view with --view-json), its legal action ids, the id it chose and its final return.
    Never anything the seat could not see (docs/rl.md, "Exporting training data")."""
    fmt = fmt or ("parquet" if out.suffix.lower() == ".parquet" else "jsonl")
    if fmt not in FORMATS:
        fail(f"--format must be one of {', '.join(FORMATS)}; got {fmt!r}")
    if not records and not database:
        fail("name record files or directories, or --database URL")
    try:
        from ..interop import export
    except ModuleNotFoundError as exc:
        fail(f"export needs the 'rl' extra ({exc.name} is missing): pip install 'nemeton[rl]'")
    if fmt == "parquet":
        try:
            import pyarrow  # noqa: F401
        except ModuleNotFoundError:
            fail("Parquet needs the 'parquet' extra (pyarrow is missing): pip install 'nemeton[parquet]'")
    try:
        sources, skipped = export.sources_from_paths(records or [])
        if database:
            try:
                sources += export.sources_from_database(database)
            except ModuleNotFoundError as exc:
                fail(f"--database needs the 'server' extra ({exc.name} is missing): pip install 'nemeton[server]'")
        if not sources:
            fail("no game records found" + (f" ({len(skipped)} game files were stored without their record)"
                                             if skipped else ""))
        rows = itertools.chain.from_iterable(export.record_rows(s, view_json) for s in sources)
        write = export.write_parquet if fmt == "parquet" else export.write_jsonl
        count = write(rows, out)
    except NemetonError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot write {out}: {exc.strerror or exc}")
    say(f"{count} decisions of {len(sources)} games written to {out}")
    if skipped:
        say(f"{len(skipped)} game files had no record and were skipped (e.g. {skipped[0]})", "yellow")
