"""A scoring companion: score a finished game of the physical edition, typed in by a person
(``nemeton <game> score FILE``). The game reads the text and returns a :class:`ScoreSheet`
(a table, a few lines and the JSON form); the command line only prints it. Every mistake in
the text is an :class:`~nemeton.engine.errors.InputError` naming the part that is wrong."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping


@dataclass(frozen=True)
class ScoreSheet:
    title: str
    columns: tuple[str, ...]           # the table's header; the first column labels the rows
    rows: tuple[tuple[str, ...], ...]  # the last column and the last row are totals
    lines: tuple[str, ...]             # what follows the table, one line each
    total: str                         # the last line, the result
    data: Mapping[str, Any]            # the whole breakdown as one JSON object (``--json``)


@dataclass(frozen=True)
class Companion:
    summary: str                       # what the command does, one line
    input_help: str                    # the file's format, for the command's help
    score: Callable[..., ScoreSheet]   # (the file's text, lang="en") -> the sheet, or InputError
