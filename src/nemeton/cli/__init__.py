"""The ``nemeton`` command line: list games, simulate, play in the terminal, score Alarún.

Every command speaks through the engine protocol and the agent specs; nothing here knows a
game's rules (game-specific commands such as ``nemeton alarun score`` live in their own
module beside this one).
"""

from __future__ import annotations

import contextlib
import json
import random
import sys
from typing import Any, List, Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from ..agents.base import AgentSpecError, make_agent, parse_agent_spec
from ..arena.match import simulate as run_simulation
from ..engine import NemetonError, get_game, list_games

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Nemeton: play and study Alarún, Amarok and The Druids of Edora.")
console = Console()
err = Console(stderr=True)


def _fail(message: str, code: int = 2) -> None:
    err.print(f"[bold red]error:[/] {message}", highlight=False)
    raise typer.Exit(code)


def split_agent_specs(text: str) -> list[str]:
    """``"ismcts:seconds=1,heuristic"`` -> specs; an empty entry is an error."""
    specs = [a.strip() for a in text.split(",")]
    if any(not a for a in specs):
        _fail(f"--agents {text!r} has an empty entry; give specs separated by single commas, "
              "e.g. ismcts:seconds=1,heuristic")
    return specs


def check_agent_specs(specs: List[str], spec: Any) -> None:
    """Build each agent once so that every bad name, parameter or value fails before play."""
    for text in specs:
        if text != "human":
            make_agent(text, spec, 0, 0)


def show(value: Any) -> str:
    """An option value as a person types it."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def parse_option_pairs(pairs: List[str], **files: Optional[str]) -> dict[str, Any]:
    """``key=value`` strings (and the --deck/--board shortcuts) as raw game options."""
    out: dict[str, Any] = {name: path for name, path in files.items() if path is not None}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            _fail(f"--option expects key=value, got {pair!r}")
        if key.strip() == "players":
            _fail("give the number of players with --players, not --option players=...")
        out[key.strip()] = value.strip()
    return out


@app.command("games")
def games_command(as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table.")) -> None:
    """List the games with their player counts and options."""
    specs = list_games()
    if as_json:
        print(json.dumps([{
            "name": s.name, "title": s.title, "players": list(s.player_counts), "summary": s.summary,
            "options": [{"name": o.name, "default": o.default, "allowed": o.allowed, "help": o.help,
                         "bot_default": s.bot_defaults.get(o.name, o.default)}
                        for o in s.describe_options() if o.name != "players"],
        } for s in specs], indent=2))
        return
    for s in specs:
        table = Table(title=f"{s.title} ({s.name}): {', '.join(map(str, s.player_counts))} players",
                      title_justify="left", show_lines=False)
        table.add_column("option")
        table.add_column("default")
        table.add_column("bots")
        table.add_column("allowed")
        table.add_column("meaning")
        for o in s.describe_options():
            if o.name != "players":
                table.add_row(o.name, show(o.default), show(s.bot_defaults.get(o.name, o.default)),
                              o.allowed, o.help)
        console.print(table)
        console.print(f"  {s.summary}", highlight=False)
        console.print("  ('bots' = the value simulations and AI games use unless you give --option)\n",
                      style="dim", highlight=False)


@app.command("simulate")
def simulate_command(
    game: str = typer.Argument(..., help="Game name (see `nemeton games`)."),
    players: int = typer.Option(..., "--players", "-p", help="Number of players."),
    games: int = typer.Option(100, "--games", "-n", min=1, help="How many games to play."),
    seed: int = typer.Option(0, "--seed", "-s", help="Master seed: the same seed gives the same results."),
    agents: str = typer.Option("random", "--agents", "-a",
                               help="Agent specs per seat, comma-separated (one spec = all seats), "
                                    "e.g. ismcts:iterations=500,heuristic,random."),
    option: List[str] = typer.Option([], "--option", "-o", help="Game option key=value (repeatable)."),
    deck: Optional[str] = typer.Option(None, "--deck", help="Deck file (same as --option deck=FILE; Amarok)."),
    board: Optional[str] = typer.Option(None, "--board", help="Board file (same as --option board=FILE; Edora)."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of tables."),
) -> None:
    """Play many games between agents and report wins, scores and speed."""
    specs = split_agent_specs(agents)
    try:
        spec = get_game(game)
        check_agent_specs(specs, spec)
        if "human" in specs:
            _fail("'human' is for `nemeton play`; simulations need an agent in every seat")
        opts = parse_option_pairs(option, deck=deck, board=board)
        spec.options(**{**spec.bot_defaults, **opts, "players": players})
    except NemetonError as exc:
        _fail(str(exc))
    if len(specs) not in (1, players):
        _fail(f"--agents needs one spec for all seats or exactly {players} specs; got {len(specs)}")
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=err, transient=True, disable=not err.is_terminal) as bar:
        task = bar.add_task(f"{game} x{games}", total=games)
        summary = run_simulation(game, players, games, seed, specs, opts,
                                 progress=lambda done: bar.update(task, completed=done))
    if as_json:
        print(json.dumps(summary.to_json()))
        return
    table = Table(title=f"{spec.title}: {games} games, {players} players, seed {seed}", title_justify="left")
    for col in ("seat", "agent", "wins", "win rate", "mean score"):
        table.add_column(col, justify="right" if col != "agent" else "left")
    for s in range(players):
        table.add_row(str(s), summary.agents[s], str(summary.wins[s]),
                      f"{summary.wins[s] / games:.1%}", f"{summary.mean_scores[s]:.2f}")
    console.print(table)
    console.print(f"{summary.games_per_second:.1f} games/s, {summary.steps_per_second:,.0f} steps/s, "
                  f"{summary.mean_steps:.1f} steps/game", highlight=False)


def _prompt_action(view: dict, legal: list, seat: int) -> Any:
    """Ask the person for one of ``legal`` by number or by its text; re-ask on bad input."""
    while True:
        console.print(f"\n[bold]Seat {seat}, your move.[/] Legal actions:")
        for i, action in enumerate(legal, 1):
            console.print(f"  [cyan]{i:>3}[/]  {action}", highlight=False)
        try:
            answer = input("Choose a number (or type the action, 'q' to quit): ").strip()
        except EOFError:
            console.print("\nInput closed: game abandoned.")
            raise typer.Exit(1)
        if answer.lower() in ("q", "quit", "exit"):
            console.print("Game abandoned.")
            raise typer.Exit(0)
        if answer.isdigit() and 1 <= int(answer) <= len(legal):
            return legal[int(answer) - 1]
        matches = [a for a in legal if str(a) == answer]
        if matches:
            return matches[0]
        console.print(f"[red]'{answer}' is not one of the {len(legal)} legal actions; "
                      f"type a number from 1 to {len(legal)}.[/]", highlight=False)


@app.command("play")
def play_command(
    game: str = typer.Argument(..., help="Game name (see `nemeton games`)."),
    players: int = typer.Option(..., "--players", "-p", help="Number of players."),
    seat: Optional[int] = typer.Option(None, "--seat", help="Your seat (default 0 = the first player)."),
    agents: str = typer.Option("random", "--agents", "-a",
                               help="Agent spec for the other seats (one for all), or one spec per seat "
                                    "with 'human' at yours, e.g. human,heuristic,ismcts:seconds=1."),
    seed: Optional[int] = typer.Option(None, "--seed", "-s", help="Seed (random if omitted)."),
    option: List[str] = typer.Option([], "--option", "-o", help="Game option key=value (repeatable)."),
    deck: Optional[str] = typer.Option(None, "--deck", help="Deck file (same as --option deck=FILE; Amarok)."),
    board: Optional[str] = typer.Option(None, "--board", help="Board file (same as --option board=FILE; Edora)."),
) -> None:
    """Play a game in the terminal against AI seats, seeing only your own view."""
    try:
        spec = get_game(game)
        opts = parse_option_pairs(option, deck=deck, board=board)
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        state = spec.make(players=players, seed=seed, **opts)
    except NemetonError as exc:
        _fail(str(exc))
    specs = split_agent_specs(agents)
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        _fail(f"--agents needs one spec for all other seats or exactly {players} specs; got {len(specs)}")
    humans = [s for s in range(players) if specs[s] == "human"]
    if len(humans) > 1:
        _fail("only one seat can be 'human' in terminal play (hotseat for several people comes with the web app)")
    if len(humans) == 1:
        if seat is not None and seat != humans[0]:
            _fail(f"--seat {seat} disagrees with 'human' at seat {humans[0]} in --agents")
        seat = humans[0]
    seat = 0 if seat is None else seat
    if not 0 <= seat < players:
        _fail(f"--seat must be between 0 and {players - 1}")
    if len(set(specs)) > 1 and specs[seat] != "human":
        _fail(f"seat {seat} is yours: put 'human' there in --agents (got {specs[seat]!r})")
    bots = {}
    master = random.Random(seed)
    try:
        for s in range(players):
            if s != seat:
                if specs[s] == "human":
                    _fail("give an agent for every other seat (only one person plays in the terminal)")
                bots[s] = make_agent(specs[s], spec, s, master.randrange(2**31))
    except NemetonError as exc:
        _fail(str(exc))
    console.print(f"[bold]{spec.title}[/], {players} players, seed {seed}. You are seat {seat}.")
    while not state.is_terminal():
        current = state.current_player
        if seat in state.acting():
            current = seat
        if current == seat:
            view = state.view(seat)
            console.rule()
            console.print(spec.render(view), highlight=False, markup=False)
            legal = state.legal_actions(seat)
            action = _prompt_action(view, legal, seat)
            state.apply(action, seat)
            console.print(f"[dim]you: {action}[/]", highlight=False)
        else:
            bot = bots[current]
            legal = state.legal_actions(current)
            # a search takes a while: say so on a terminal (a no-op when output is piped)
            thinking = (console.status(f"seat {current} ({bot}) is thinking…") if bot.name == "ismcts" and len(legal) > 1
                        else contextlib.nullcontext())
            with thinking:
                action = bot.act(state.view(current) if bot.needs_view else None, legal)
            told = state.describe_action(current, action, seat)  # before applying: what seat may learn
            state.apply(action, current)
            console.print(f"[dim]seat {current} ({bot}): {told}[/]", highlight=False)
    console.rule("Game over")
    console.print(spec.render(state.view(seat)), highlight=False, markup=False)
    ranks = state.ranking()
    for s in range(players):
        who = "you" if s == seat else str(bots[s])
        console.print(f"seat {s} ({who}): score {state.scores()[s]}, rank {ranks[s]}", highlight=False)
    console.print("[bold green]You win![/]" if seat in state.winners() else "[bold]You did not win.[/]")


def _mount_game_commands() -> None:
    try:
        from .alarun import app as alarun_app
    except ModuleNotFoundError as exc:
        if exc.name != "nemeton.cli.alarun":
            raise
        return
    app.add_typer(alarun_app, name="alarun", help="Alarún tools: score a finished square.")


_mount_game_commands()


def main() -> None:
    app()


if __name__ == "__main__":
    main()
