"""``nemeton <game> score FILE [--json]``: a game's scoring companion for people playing the
physical game (the game's ``GameSpec.companion``: Alarún scores a finished magic square).
Reading and scoring live in the game's folder; this module only reads the file and prints."""

from __future__ import annotations

import json

import typer
from rich.console import Console
from rich.table import Table as TextTable  # a table of text; `Table` is the table loop (nemeton.table)
from rich.text import Text

from ..engine import GameSpec, InputError
from ..engine.companion import ScoreSheet
from .common import choose_language, fail, lang_option, language, read_text_file


def companion_app(spec: GameSpec) -> typer.Typer:
    """The game's sub-command group, with its ``score`` command (for a game with a companion)."""
    if spec.companion is None:
        raise ValueError(f"{spec.name} has no scoring companion")
    companion = spec.companion()
    app = typer.Typer(add_completion=False, no_args_is_help=True,
                      help=f"{spec.title} tools: {companion.summary[0].lower()}{companion.summary[1:]}")

    @app.callback()
    def _group() -> None:
        pass

    @app.command("score", help=companion.summary)
    def score_command(
        file: str = typer.Argument(..., help=companion.input_help),
        as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of a table."),
        lang: str | None = lang_option(),
    ) -> None:
        choose_language(lang)
        text = read_text_file(file, f"{spec.name} score")
        try:
            sheet = companion.score(text, lang=language())
        except InputError as exc:
            fail(f"{file}: {exc}")  # printed literally: brackets in a file name or a message stay as typed
        if as_json:
            print(json.dumps(dict(sheet.data)))
            return
        print_sheet(sheet)

    return app


def print_sheet(sheet: ScoreSheet) -> None:
    """The table (its last row and last column, the totals, in bold), then the lines."""
    table = TextTable(title=sheet.title, title_justify="left")
    last = len(sheet.columns) - 1
    for i, name in enumerate(sheet.columns):
        table.add_column(name, justify="left" if i == 0 else "right" if i == last else "center",
                         style="bold" if i == last else None)
    for r, row in enumerate(sheet.rows):
        table.add_row(*[Text(cell, style="bold" if r == len(sheet.rows) - 1 and i else "") for i, cell in enumerate(row)])
    console = Console()
    console.print(table)
    for line in sheet.lines:
        console.print(Text(line))
    console.print(Text(sheet.total, style="bold"))
