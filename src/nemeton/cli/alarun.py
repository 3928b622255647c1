"""``nemeton alarun ...``: Alarún tools for people playing the physical game.

``nemeton alarun score FILE [--json]`` scores a finished magic square typed in as JSON (see
:mod:`nemeton.games.alarun.companion`). Parsing and scoring live in the game package; this
module only reads the file and prints.
"""

from __future__ import annotations

import json

import typer
from rich.console import Console
from rich.table import Table

from ..engine import InputError
from ..games.alarun.cards import COLOURS, short_name
from ..games.alarun.companion import parse_square_text
from .common import fail, read_text_file

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Alarún tools: score a finished magic square of the physical game.")


@app.callback()
def _alarun() -> None:
    """Alarún tools: score a finished magic square of the physical game."""


def _fail(message: str) -> None:
    fail(message)  # printed literally: brackets in a file name or a message stay as typed


@app.command("score")
def score_command(
    file: str = typer.Argument(..., help='JSON file ("-" = standard input): {"square": [[5 cells] x 5 rows], '
                                         '"secret_colour": "red", "druid": "dragon_eggs:blue" (optional)}. '
                                         'A cell is "<ingredient>:<colour>", "druid" or "centum_auri".'),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of a table."),
) -> None:
    """Score a finished 5x5 square: rows, columns, Centum auri, colour bonus, total."""
    text = read_text_file(file, "alarun score")
    try:
        square = parse_square_text(text)
    except InputError as exc:
        _fail(f"{file}: {exc}")
    result = square.score()
    if as_json:
        print(json.dumps({**result.to_json(), "secret_colour": COLOURS[square.secret_colour]}))
        return
    cells = list(square.grid)
    table = Table(title="Alarún: your magic square", title_justify="left")
    table.add_column("")
    for c in range(5):
        table.add_column(f"col {c + 1}", justify="center")
    table.add_column("row points", justify="right", style="bold")
    for r in range(5):
        table.add_row(f"row {r + 1}", *[short_name(x) for x in cells[r * 5:r * 5 + 5]], str(result.rows[r]))
    table.add_row("column points", *[f"[bold]{p}[/]" for p in result.columns], "")
    console = Console()
    console.print(table)
    chosen = "chosen for you" if square.druid is None else "as you set it"
    console.print(f"druid counts as: {result.to_json()['druid']} ({chosen})", highlight=False)
    console.print(f"potions: rows {sum(result.rows)} + columns {sum(result.columns)} = {result.potions}",
                  highlight=False)
    console.print(f"centum auri: {result.centum_auri}", highlight=False)
    console.print(f"colour bonus ({COLOURS[square.secret_colour]}): {result.colour_bonus}", highlight=False)
    console.print(f"[bold]total: {result.total}[/]", highlight=False)
