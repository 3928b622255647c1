"""``nemeton analyse RECORD``: the teacher's analysis of a finished game (docs/teacher.md).

Every decision is judged from what its seat could see at that moment (:mod:`nemeton.teacher`),
with a progress bar on standard error; the result is cached in the user's cache directory,
keyed by the record, the budget and the seed. ``nemeton analyze`` (US spelling) is a hidden
alias; given a game's name, as the balance report took, it says the report is now
``nemeton report``.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, Optional

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table as TextTable
from rich.text import Text

from ..engine import GameRecord, NemetonError, get_game, list_games
from ..i18n import format_number, format_percent
from .common import choose_language, console, err, fail, lang_option, language, read_text_file, say, tr

MOST_COSTLY = 10  # costly moves listed in the table


def load_record(path: str) -> GameRecord:
    """The game record in the file at ``path`` (``GameRecord``'s JSON, or a stored tournament
    game holding one under ``record``); anything else exits 2 with one line saying why."""
    text = read_text_file(path, "the game record")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        data = None
    if isinstance(data, dict) and "format" not in data and isinstance(data.get("record"), dict):
        text = json.dumps(data["record"])  # a tournament's stored game (nemeton tournament --out)
    try:
        return GameRecord.loads(text)
    except NemetonError as exc:
        fail(f"{path} is not a game record Nemeton can replay: {exc}")


def cache_path(record: GameRecord, iterations: int, seed: int) -> Path:
    """Where the analysis of ``record`` at this budget is cached (platformdirs' user cache
    directory): the key hashes the record's canonical text, the budget, the seed, the
    analysis format and this Nemeton's version."""
    import platformdirs

    from .. import __version__
    from ..teacher.analysis import FORMAT
    from ..teacher.hints import fast_engine
    engine = "fast" if fast_engine(get_game(record.game), dict(record.options)) else "reference"
    key = hashlib.sha256("\n".join([record.dumps(), str(iterations), str(seed), engine, FORMAT,
                                    __version__]).encode()).hexdigest()
    return Path(platformdirs.user_cache_dir("nemeton", appauthor=False)) / "analysis" / f"{key[:40]}.json"


def read_cache(path: Path) -> Any:
    from ..teacher.analysis import Analysis
    try:
        return Analysis.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, RecursionError):
        return None  # none yet, or a damaged file: analysed again


def write_cache(path: Path, data: dict[str, Any]) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.part")
        partial.write_text(json.dumps(data), encoding="utf-8")
        partial.replace(path)
    except OSError:
        pass  # a cache that cannot be written only costs the next run its time


def analyse_command(
    record: str = typer.Argument(..., metavar="RECORD", help="A game record file (JSON, as GameRecord writes it, "
                                 "e.g. `nemeton admin export`), or - for standard input."),
    iterations: Optional[int] = typer.Option(None, "--iterations", "-i", min=1, max=1_000_000,
                                             help="Search iterations per decision (default: the teacher's budget, "
                                                  "docs/teacher.md)."),
    seed: int = typer.Option(0, "--seed", "-s", help="Seed of the searches: the same seed gives the same analysis."),
    workers: int = typer.Option(1, "--workers", "-w", min=1, max=64,
                                help="Processes sharing the decisions (the same result with any number)."),
    as_json: bool = typer.Option(False, "--json", help="Print the analysis as one JSON object (alone on stdout)."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Also write the JSON analysis to this file."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Analyse again even if a cached result exists."),
    lang: Optional[str] = lang_option(),
) -> None:
    """Judge every decision of a finished game from what its seat could see: each seat's win
    chance before and after its move, the costly moves, each seat's accuracy."""
    choose_language(lang)
    from ..teacher.analysis import DEFAULT_ITERATIONS, analyse_record
    game = load_record(record)
    budget = DEFAULT_ITERATIONS if iterations is None else iterations
    where = cache_path(game, budget, seed)
    analysis = None if no_cache else read_cache(where)
    if analysis is None:
        try:
            with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                          TimeRemainingColumn(), console=err, transient=True, disable=not err.is_terminal) as bar:
                task = bar.add_task(tr("nemeton.cli.analysis.analysing", game=get_game(game.game).title), total=len(game.actions))
                analysis = analyse_record(game, iterations=budget, seed=seed, workers=workers,
                                          progress=lambda done, total: bar.update(task, completed=done))
        except KeyboardInterrupt:
            fail("interrupted", code=130)
        except (NemetonError, ValueError) as exc:
            fail(f"{record} cannot be analysed: {exc}")
        write_cache(where, analysis.to_json())
    data = analysis.to_json()
    if out is not None:
        try:
            out.write_text(json.dumps(data, indent=1), encoding="utf-8")
        except OSError as exc:
            fail(f"cannot write {out}: {exc.strerror or exc}")
    if as_json:
        print(json.dumps(data))
        return
    show_analysis(data)
    if out is not None:
        say(tr("nemeton.cli.analysis.written", path=str(out)), "dim")


def show_analysis(data: dict[str, Any]) -> None:
    """Each seat's accuracy and counts, then the costly moves with their comments, in the
    terminal's language: the web analysis page's words, the players as "Player 1" (in seat
    order, as the screen counts them), the moves in the game's words."""
    lang = language()
    spec = get_game(data["game"])
    budget = data["budget"]
    teams = data["teams"]

    def player(seat: int) -> str:
        if not teams:
            return tr("nemeton.cli.analysis.player", n=str(seat + 1))
        team = next(k for k, t in enumerate(teams) if seat in t) + 1
        return tr("nemeton.cli.analysis.player_team", n=str(seat + 1), team=str(team))

    table = TextTable(title=tr("nemeton.cli.analysis.title", game=spec.title, players=str(data["players"]),
                               decisions=format_number(len(data["decisions"]), lang),
                               iterations=format_number(budget["iterations"], lang), seed=str(budget["seed"])),
                      title_justify="left", highlight=False)
    table.add_column(tr("nemeton.web.analysis.player"), justify="left")
    for col in ("decisions", "accuracy", "inaccuracies", "mistakes", "blunders"):
        table.add_column(tr(f"nemeton.web.analysis.{col}"), justify="right")
    for s in data["seats"]:
        accuracy = "-" if s["accuracy"] is None else format_number(s["accuracy"], lang, decimals=1)
        table.add_row(player(s["seat"]), str(s["decisions"]), accuracy, str(s["inaccuracies"]),
                      str(s["mistakes"]), str(s["blunders"]))
    console.print(table)
    costly = sorted((d for d in data["decisions"] if d["class"]), key=lambda d: (-d["loss"], d["index"]))
    if not costly:
        say(tr("nemeton.web.analysis.none_costly", percent=format_percent(data["thresholds"]["inaccuracy"], lang)))
    else:
        moves = TextTable(title=tr("nemeton.web.analysis.costly_title"), title_justify="left", highlight=False,
                          show_lines=False)
        moves.add_column(tr("nemeton.cli.analysis.move"), justify="right")
        for col in ("nemeton.web.analysis.player", "nemeton.cli.analysis.class", "nemeton.cli.analysis.comment"):
            moves.add_column(tr(col), justify="left")
        words = move_words(spec, data["options"], player, lang)
        for d in costly[:MOST_COSTLY]:
            said = tr("nemeton.web.analysis.comment_best", move=words(d["action"], d["text"]),
                      best=words(d["best"]["action"], d["best"]["text"]), loss=format_percent(d["loss"], lang),
                      before=format_percent(d["before"], lang), after=format_percent(d["after"], lang))
            moves.add_row(str(d["index"] + 1), player(d["seat"]), tr(f"nemeton.web.analysis.class.{d['class']}"),
                          Text(said[:1].upper() + said[1:]))
        console.print(moves)
        if len(costly) > MOST_COSTLY:
            say(tr("nemeton.cli.analysis.more", count=len(costly) - MOST_COSTLY), "dim")
    thresholds = {k: format_percent(v, lang) for k, v in data["thresholds"].items()}
    say(tr("nemeton.web.analysis.budget", iterations=format_number(budget["iterations"], lang), seed=str(budget["seed"]),
           engine=budget.get("engine", "reference"), **thresholds), "dim")
    say(tr("nemeton.web.analysis.promise"), "dim")


def move_words(spec: Any, options: Any, player: Any, lang: str) -> Any:
    """A move's words in ``lang`` from its JSON (the game's message, seats named by
    ``player``); the analysis's English words where the game has no message. The analysis
    came from a replayed record, so its options and actions are the game's own."""
    from ..i18n import render
    opts = spec.options(**options)

    def words(action: Any, english: str) -> str:
        message = spec.action_message(spec.action_from_json(action, opts)) if spec.action_message else None
        return english if message is None else render(message, lang, seat=player)
    return words


def analyze_alias(
    ctx: typer.Context,
    record: str = typer.Argument(..., metavar="RECORD"),
    iterations: Optional[int] = typer.Option(None, "--iterations", "-i", min=1, max=1_000_000),
    seed: int = typer.Option(0, "--seed", "-s"),
    workers: int = typer.Option(1, "--workers", "-w", min=1, max=64),
    as_json: bool = typer.Option(False, "--json"),
    out: Optional[Path] = typer.Option(None, "--out", "-o"),
    no_cache: bool = typer.Option(False, "--no-cache"),
) -> None:
    """``nemeton analyse`` in US spelling; a game's name (the balance report's first
    argument before it was renamed) points to ``nemeton report``."""
    if record in {s.name for s in list_games()} and not Path(record).exists():
        fail("the balance report is now `nemeton report` (same options); "
             "`nemeton analyse RECORD` analyses a finished game")
    if ctx.args:
        fail(f"unexpected arguments: {' '.join(ctx.args)} (see `nemeton analyse --help`)")
    analyse_command(record, iterations, seed, workers, as_json, out, no_cache, None)
