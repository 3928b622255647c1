"""``nemeton tournament`` and ``nemeton report``: the arena on the command line.

Both play a tournament (:mod:`nemeton.arena.tournament`) with a progress bar, storing every
game in a directory so that an interrupted run resumes; ``report`` also sweeps rule
variants and writes a self-contained HTML report (:mod:`nemeton.arena.report`).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, List, Optional

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table as TextTable  # a table of text; `Table` is the table loop (nemeton.table)
from rich.text import Text

from ..arena.backends import BACKENDS, BackendError
from ..arena.schedule import LINEUPS
from ..arena.summary import Summary, summarise
from ..arena.tournament import TournamentConfig, run_tournament
from ..engine import GameSpec, NemetonError, get_game
from .agents import require_extra
from .common import (STANDARD_WORDS, complete_agents, complete_from, complete_game, console, err, fail,
                     parse_option_pairs, read_text_file, say, split_agent_specs)

GAME = typer.Argument(..., help="Game name (see `nemeton games`).", autocompletion=complete_game)


def _progress() -> Progress:
    return Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TimeRemainingColumn(), console=err, transient=True, disable=not err.is_terminal)


def _check_run(workers: Optional[int], backend: str, address: Optional[str], until: Optional[float]) -> None:
    if backend not in BACKENDS:
        fail(f"--backend must be one of {', '.join(BACKENDS)}; got {backend!r}")
    if address and backend != "ray":
        fail("--address joins a Ray cluster: give it with --backend ray")
    if workers is not None and workers < 1:
        fail(f"--workers must be at least 1; got {workers}")
    if until is not None and not 0 < until < 1:
        fail(f"--until-decided takes a share strictly between 0 and 1 (e.g. 0.65); got {until}")


def _interrupted(directory: Optional[Path]) -> None:
    where = f"; the finished games are in {directory}: run the same command again to resume" if directory else ""
    fail(f"interrupted{where}", code=130)


def tournament_command(
    game: str = GAME,
    players: int = typer.Option(..., "--players", "-p", help="Number of players."),
    agents: str = typer.Option(..., "--agents", "-a", autocompletion=complete_agents, help="The pool of competing agents, comma-separated "
                               "(agent specs as for simulate), e.g. ismcts:iterations=2000,heuristic,random."),
    games: int = typer.Option(100, "--games", "-n", min=1, help="How many games (at most, with --until-decided)."),
    seed: int = typer.Option(0, "--seed", "-s", help="Master seed: the same seed gives the same games."),
    workers: Optional[int] = typer.Option(None, "--workers", "-w", help="Processes (default: all cores); "
                                          "with --backend ray, tasks in flight (default: the cluster's CPUs)."),
    backend: str = typer.Option("local", "--backend", autocompletion=complete_from(*BACKENDS), help="local (processes on this machine) or ray."),
    address: Optional[str] = typer.Option(None, "--address", help="Ray: join this cluster (default: start a "
                                          "local Ray instance)."),
    option: List[str] = typer.Option([], "--option", "-o", help="Game option name=value (repeatable)."),
    deck: Optional[str] = typer.Option(None, "--deck", help="Deck file (Amarok; same as --option deck=FILE)."),
    board: Optional[str] = typer.Option(None, "--board", help="Board file (Edora; same as --option board=FILE)."),
    lineup: str = typer.Option("rotate", "--lineup", autocompletion=complete_from(*LINEUPS), help="rotate: agents rotated over the seats (teams); "
                               "focal: the first agent in one seat (team), the second everywhere else."),
    until_decided: Optional[float] = typer.Option(None, "--until-decided", help="Stop once the first agent's "
                                                  "share of the wins is decided above or below this line "
                                                  "(anytime-valid 95% confidence sequence)."),
    out: Optional[Path] = typer.Option(None, "--out", help="Store every game here (and resume from it)."),
    as_json: bool = typer.Option(False, "--json", help="Print the summary as one JSON object."),
) -> None:
    """Play a tournament between agents: duplicate deals with seats rotated, ratings, win
    shares, seat advantage; resumable from its --out directory."""
    _check_run(workers, backend, address, until_decided)
    require_extra("arena", "openskill")  # the ratings, computed after the last game
    config = _config(game, players, agents, seed, option, deck, board, lineup)
    try:
        with _progress() as bar:
            task = bar.add_task(f"{game} tournament", total=games)
            t = run_tournament(config, games, workers=workers, backend=backend, address=address, out=out,
                               until_decided=until_decided,
                               progress=lambda done, total: bar.update(task, completed=done, total=total))
    except KeyboardInterrupt:
        _interrupted(out)
    except (NemetonError, BackendError) as exc:
        fail(str(exc))
    summary = summarise(t)
    if as_json:
        print(json.dumps({**summary.to_json(), "played": t.played, "out": str(out) if out else None,
                          "backend": backend, "workers": workers or os.cpu_count()}))
        return
    show_summary(summary)
    stored = f"; games stored in {out}" if out else ""
    say(f"{t.played} games played in {t.seconds:.1f} s ({summary.games - t.played} resumed){stored}", "dim")


def _config(game: str, players: int, agents: str, seed: int, option: List[str], deck: Optional[str],
            board: Optional[str], lineup: str, extra: Optional[dict] = None) -> TournamentConfig:
    if lineup not in LINEUPS:
        fail(f"--lineup must be one of {', '.join(LINEUPS)}; got {lineup!r}")
    try:
        spec = get_game(game)
        opts = parse_option_pairs(spec, option, deck=deck, board=board)
        return TournamentConfig.build(game, players, split_agent_specs(agents), seed, {**opts, **(extra or {})},
                                      lineup)
    except NemetonError as exc:
        fail(str(exc))


def show_summary(s: Summary) -> None:
    table = TextTable(title=f"{s.title}: {s.games} games, {s.players} players, seed {s.seed}", title_justify="left",
                  highlight=False)
    for col in ("agent", "games", "share of wins [95% CI]", "fair", "mean score", "rating mu ± sigma"):
        table.add_column(col, justify="left" if col == "agent" else "right")
    for a in s.agent_rows:
        table.add_row(Text(a.agent), str(a.games), f"{a.share.mean:.1%} [{a.share.low:.1%}, {a.share.high:.1%}]",
                      f"{a.fair_share:.0%}", f"{a.mean_score:.2f}", f"{a.rating.mu:.1f} ± {a.rating.sigma:.1f}")
    console.print(table)
    seats = TextTable(title="seats", title_justify="left", highlight=False)
    for col in ("seat", "share of wins [95% CI]", "mean score"):
        seats.add_column(col, justify="right")
    for unit, share, scores in zip(s.units, s.seat_shares, s.unit_scores()):
        seats.add_row(", ".join(map(str, unit)), f"{share.mean:.1%} [{share.low:.1%}, {share.high:.1%}]",
                      f"{sum(scores) / max(len(scores), 1):.2f}")
    f = s.first_player
    seats.add_row("first player", f"{f.mean:.1%} [{f.low:.1%}, {f.high:.1%}]", "")
    console.print(seats)
    if s.seat_test:
        say(f"seat advantage: {s.seat_test.name}, p = {s.seat_test.p_value:.4f}")
    if s.first_player_test:
        say(f"first-player advantage: {s.first_player_test.name}, p = {s.first_player_test.p_value:.4f}")
    say(f"{sum(s.steps) / max(s.games, 1):.1f} actions and {sum(s.rounds) / max(s.games, 1):.2f} rounds per game")
    if s.decision:
        d = s.decision
        i = d.interval
        say(f"until decided against {d.line:.0%}: {d.verdict or 'undecided'} after {d.games} games, "
            f"{s.agents[0]} {i.mean:.1%} [{i.low:.1%}, {i.high:.1%}] (anytime-valid 95%)")


def _axes(spec: GameSpec, sweeps: List[str], fixed: List[str]):
    from ..arena.sweep import Axis
    data = {o.name for o in spec.describe_options() if o.data is not None}
    fixed_keys = {pair.partition("=")[0].strip() for pair in fixed}
    axes: list[Axis] = []
    for text in sweeps:
        key, sep, values = text.partition("=")
        key = key.strip()
        items = [v.strip() for v in values.split(",")]
        if not sep or not key or not values or any(not v for v in items):
            fail(f"--sweep expects name=value1,value2,...; got {text!r}")
        if key == "players":
            fail("sweep the number of players by separate runs; --sweep takes game options")
        if key in fixed_keys or key in (a.key for a in axes):
            fail(f"option {key!r} is given twice (in --option or --sweep)")
        parsed: list[str | None] | list[str]
        if key in data:
            parsed = [None if v.lower() in STANDARD_WORDS else read_text_file(v, f"--sweep {key}") for v in items]
        else:
            parsed = items
        axes.append(Axis(key, tuple(parsed), tuple(items)))
    return axes


def analyze_command(
    game: str = GAME,
    players: int = typer.Option(..., "--players", "-p", help="Number of players."),
    agents: str = typer.Option("heuristic", "--agents", "-a", autocompletion=complete_agents, help="The pool of agents, comma-separated."),
    games: int = typer.Option(100, "--games", "-n", min=1, help="Games per tournament (per variant)."),
    seed: int = typer.Option(0, "--seed", "-s", help="Master seed (the same deals in every variant)."),
    sweep: List[str] = typer.Option([], "--sweep", help="Rule variants name=v1,v2,... (repeatable: every "
                                    "combination); for a data option, files (or 'standard')."),
    workers: Optional[int] = typer.Option(None, "--workers", "-w", help="Processes (default: all cores)."),
    backend: str = typer.Option("local", "--backend", autocompletion=complete_from(*BACKENDS), help="local or ray."),
    address: Optional[str] = typer.Option(None, "--address", help="Ray cluster to join."),
    option: List[str] = typer.Option([], "--option", "-o", help="Game option name=value (repeatable)."),
    deck: Optional[str] = typer.Option(None, "--deck", help="Deck file (Amarok)."),
    board: Optional[str] = typer.Option(None, "--board", help="Board file (Edora)."),
    lineup: str = typer.Option("rotate", "--lineup", autocompletion=complete_from(*LINEUPS), help="rotate or focal (see `nemeton tournament`)."),
    records: Optional[Path] = typer.Option(None, "--records", help="Where the games are stored and resumed "
                                           "from (default: REPORT's name with -games)."),
    out: Path = typer.Option(..., "--out", help="The HTML report to write."),
    as_json: bool = typer.Option(False, "--json", help="Also print each variant's summary as JSON."),
) -> None:
    """Balance report: play (or resume) the tournament under each rule variant and write one
    self-contained HTML file with plots."""
    _check_run(workers, backend, address, None)
    require_extra("arena", "openskill", "matplotlib")  # ratings and plots, after the last game
    from ..arena.report import write_report
    from ..arena.summary import paired_differences
    from ..arena.sweep import run_sweep, variants
    try:
        spec = get_game(game)
    except NemetonError as exc:
        fail(str(exc))
    axes = _axes(spec, sweep, option)
    base = _config(game, players, agents, seed, option, deck, board, lineup)  # checks the base before the sweep
    records = records or out.with_name(out.stem + "-games")
    if out.suffix.lower() not in (".html", ".htm"):
        fail(f"--out names the HTML report (report.html); got {out}")
    try:
        with _progress() as bar:
            task = bar.add_task(f"{game}: {len(variants(axes))} variant(s)", total=games * len(variants(axes)))
            fixed = {k: v for k, v in base.options.items() if k != "players"}
            results = run_sweep(game, players, base.agents, seed, fixed, axes,
                                games, records, progress=lambda done, total: bar.update(task, completed=done),
                                lineup=lineup, workers=workers, backend=backend, address=address)
        write_report(str(out), results)
    except KeyboardInterrupt:
        _interrupted(records)
    except (NemetonError, BackendError) as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot write {out}: {exc.strerror or exc}")
    if as_json:
        rows: list[dict[str, Any]] = []
        for v in results:
            row = {"variant": v.label, **v.summary.to_json()}
            if v is not results[0]:
                row["differences"] = [d.to_json() for d in paired_differences(results[0].tournament, v.tournament)]
            rows.append(row)
        print(json.dumps({"report": str(out), "records": str(records), "variants": rows}))
        return
    for v in results:
        say(v.label, "bold")
        show_summary(v.summary)
    say(f"report written to {out} (games in {records})")

