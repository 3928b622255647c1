"""The ``nemeton`` command line: list games, simulate, play in the terminal, score Alarún.

Every command speaks through the engine protocol and the agent specs; nothing here knows a
game's rules (game-specific commands such as ``nemeton alarun score`` live in their own
module beside this one).
"""

from __future__ import annotations

import json
from typing import Any, List, Optional

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table as TextTable  # a table of text; `Table` is the table loop (nemeton.table)
from rich.text import Text

from ..agents.base import is_code_spec, make_agent
from ..arena.match import ENGINES, simulate as run_simulation
from ..engine import NemetonError, get_game, list_games
from ..engine.options import OptionInfo
from .rules import rules_command
from .common import (complete_agents, complete_from, complete_game, console, err, fail, parse_option_pairs, say,
                     set_language, show, shown_option, split_agent_specs)
from .analyse import analyse_command, analyze_alias
from .arena import analyze_command, tournament_command
from .agents import agents_command
from .play import play_command
from .serve import serve_command
from .bot import bot_command
from .export import export_command
from .admin import app as admin_app

app = typer.Typer(add_completion=True, no_args_is_help=True,
                  help="Nemeton: play and study Alarún, Amarok and The Druids of Edora.")


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import version
        print(f"nemeton {version('nemeton')}")
        raise typer.Exit()


@app.callback()
def _root(_version_: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                         help="Print the version and exit."),
          lang: Optional[str] = typer.Option(None, "--lang", autocompletion=complete_from("en", "it", "es"),
                                             help="The language the games speak: en, it or es (default: "
                                                  "the environment's, LANG; else English).")) -> None:
    """Nemeton: play and study Alarún, Amarok and The Druids of Edora."""
    set_language(lang)


app.command("agents")(agents_command)
app.command("play")(play_command)
app.command("rules")(rules_command)
app.command("serve")(serve_command)
app.command("bot")(bot_command)
app.command("export")(export_command)
app.command("tournament")(tournament_command)
app.command("report")(analyze_command)  # the balance report (called `analyze` before the teacher's analysis)
app.command("analyse")(analyse_command)
app.command("analyze", hidden=True,
            context_settings={"allow_extra_args": True, "ignore_unknown_options": True})(analyze_alias)
app.add_typer(admin_app, name="admin")


def check_agent_specs(agent_specs: List[str], spec: Any) -> None:
    """Build each agent once so that every bad name, parameter or value fails before play."""
    for text in agent_specs:
        if text != "human":
            make_agent(text, spec, 0, 0)


@app.command("games")
def games_command(as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table.")) -> None:
    """List the games with their player counts and options (data options by content hash)."""
    known = list_games()
    if as_json:
        print(json.dumps([{
            "name": s.name, "title": s.title, "players": list(s.player_counts), "summary": s.summary,
            "options": [option_json(o, s.bot_defaults.get(o.name, o.default))
                        for o in s.describe_options() if o.name != "players"],
        } for s in known], indent=2))
        return
    for s in known:
        table = TextTable(title=f"{s.title} ({s.name}): {', '.join(map(str, s.player_counts))} players",
                      title_justify="left", show_lines=True, highlight=False)
        table.add_column("option", no_wrap=True)
        table.add_column("default", no_wrap=True)
        table.add_column("meaning")
        for o in s.describe_options():
            if o.name == "players":
                continue
            default = shown_option(o, o.default).replace(" (sha256:", "\n(sha256:")
            bots = s.bot_defaults.get(o.name, o.default)
            if bots != o.default:
                default += f"\nbots: {shown_option(o, bots)}"
            table.add_row(Text(o.name), Text(default), Text(f"{o.help.rstrip('.')}. Allowed: {o.allowed}."))
        console.print(table)
        say(f"  {s.summary}")
        say("  ('bots:' = the value simulations and AI games use unless you give --option)\n", "dim")


def option_json(o: OptionInfo, bot_default: Any) -> dict[str, Any]:
    """One option for ``games --json``; a data option's values are shown by content hash and
    ``data`` names its format (null for other options)."""
    if o.data is None:
        return {"name": o.name, "default": o.default, "allowed": o.allowed, "help": o.help, "data": None,
                "bot_default": bot_default}
    return {"name": o.name, "default": shown_option(o, o.default), "allowed": o.allowed, "help": o.help,
            "data": o.data, "bot_default": shown_option(o, bot_default)}


@app.command("simulate")
def simulate_command(
    game: str = typer.Argument(..., help="Game name (see `nemeton games`).", autocompletion=complete_game),
    players: int = typer.Option(..., "--players", "-p", help="Number of players."),
    games: int = typer.Option(100, "--games", "-n", min=1, help="How many games to play."),
    seed: int = typer.Option(0, "--seed", "-s", help="Master seed: the same seed gives the same results."),
    agents: str = typer.Option("random", "--agents", "-a", autocompletion=complete_agents,
                               help="Agent specs per seat, comma-separated (one spec = all seats), "
                                    "e.g. ismcts:iterations=500,heuristic,random."),
    option: List[str] = typer.Option([], "--option", "-o",
                                     help="Game option name=value (repeatable); for a data option, name=FILE."),
    deck: Optional[str] = typer.Option(None, "--deck", help="Deck file (same as --option deck=FILE; Amarok)."),
    board: Optional[str] = typer.Option(None, "--board", help="Board file (same as --option board=FILE; Edora)."),
    engine: str = typer.Option("reference", "--engine", "-e", autocompletion=complete_from(*ENGINES),
                               help="reference (the Python rules, any agent) or fast (the compiled kernel: "
                                    "random and heuristic agents; needs the fast extra)."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of tables."),
) -> None:
    """Play many games between agents and report wins, scores and speed."""
    if engine not in ENGINES:
        fail(f"--engine must be one of {', '.join(ENGINES)}; got {engine!r}")
    agent_specs = split_agent_specs(agents)
    try:
        spec = get_game(game)
        check_agent_specs(agent_specs, spec)
        code = [a for a in agent_specs if is_code_spec(a)]
        if engine == "fast" and code:
            fail(f"--engine fast plays only the compiled kernel's own agents (random, heuristic); Python "
                 f"code such as {code[0]!r} cannot run inside the kernel: use --engine reference")
        if "human" in agent_specs:
            fail("'human' is for `nemeton play`; simulations need an agent in every seat")
        opts = parse_option_pairs(spec, option, deck=deck, board=board)
        spec.options(**{**spec.bot_defaults, **opts, "players": players})
    except NemetonError as exc:
        fail(str(exc))
    if len(agent_specs) not in (1, players):
        fail(f"--agents needs one spec for all seats or exactly {players} specs; got {len(agent_specs)}")
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=err, transient=True, disable=not err.is_terminal) as bar:
        task = bar.add_task(f"{game} x{games}", total=games)
        try:
            summary = run_simulation(game, players, games, seed, agent_specs, opts,
                                     progress=lambda done: bar.update(task, completed=done), engine=engine)
        except NemetonError as exc:
            fail(str(exc))
    if as_json:
        print(json.dumps(summary.to_json()))
        return
    table = TextTable(title=f"{spec.title}: {games} games, {players} players, seed {seed}", title_justify="left",
                  highlight=False)
    for col in ("seat", "agent", "wins", "win rate", "mean score"):
        table.add_column(col, justify="right" if col != "agent" else "left")
    for s in range(players):
        table.add_row(str(s), Text(summary.agents[s]), str(summary.wins[s]),
                      f"{summary.wins[s] / games:.1%}", f"{summary.mean_scores[s]:.2f}")
    console.print(table)
    if summary.options:
        say("options: " + ", ".join(f"{k}: {show(v)}" for k, v in summary.options.items()))
    say(f"{summary.games_per_second:.1f} games/s, {summary.steps_per_second:,.0f} steps/s, "
        f"{summary.mean_steps:.1f} steps/game")


def _mount_game_commands() -> None:
    """A game with a scoring companion (its ``GameSpec.companion``) gets ``nemeton <game> score``."""
    from .companion import companion_app
    for spec in list_games():
        if spec.companion is not None:
            sub = companion_app(spec)
            app.add_typer(sub, name=spec.name, help=sub.info.help)


_mount_game_commands()


def _short_helps() -> None:
    """Each command's line in ``nemeton --help``: the first paragraph of its help as one line
    (Rich would otherwise keep the docstring's line breaks and draw a ragged list)."""
    import inspect
    for info in app.registered_commands:
        if info.short_help is None and info.callback is not None:
            doc = info.help or inspect.getdoc(info.callback) or ""
            first = doc.split("\n\n")[0]
            info.short_help = " ".join(first.split()) or None


_short_helps()


def main() -> None:
    app()


if __name__ == "__main__":
    main()
