"""``nemeton bot URL --agent SPEC``: play one seat of a room on a Nemeton server over the network."""

from __future__ import annotations

import json
from typing import Optional

import typer

from ..engine import NemetonError
from .common import complete_agents, err, fail, say


def bot_command(
    url: str = typer.Argument(..., help="The seat's invite link as the room's page shows it, "
                                        "http://HOST/rooms/ROOM?token=TOKEN (or without the token, with --token)."),
    agent: str = typer.Option(..., "--agent", "-a", autocompletion=complete_agents,
                              help="The agent spec that plays the seat, "
                                                         "e.g. heuristic or ismcts:seconds=1."),
    token: Optional[str] = typer.Option(None, "--token", help="The seat's token, if the link has none."),
    seed: Optional[int] = typer.Option(None, "--seed", "-s", help="Seed of the agent's random stream "
                                                                  "(default: a fresh one)."),
    reconnect_for: float = typer.Option(120.0, "--reconnect-for", min=0, metavar="SECONDS",
                                        help="Give up after this long without a connection."),
    as_json: bool = typer.Option(False, "--json", help="Print the outcome as one JSON object."),
) -> None:
    """Play a seat of a room through the server's WebSocket until the game ends, reconnecting
    after a dropped connection (docs/server.md, "Bots over the network")."""
    try:
        from ..server.client import NetworkBot, parse_invite
        import websockets  # noqa: F401 (the server extra's client library)
    except ModuleNotFoundError as exc:
        fail(f"the bot needs the 'server' extra ({exc.name} is missing): pip install 'nemeton[server]'")
    try:
        bot = NetworkBot(parse_invite(url, token), agent, seed=seed, reconnect_for=reconnect_for,
                         say=lambda line: say(line, "dim", to=err))
        outcome = bot.run()
    except NemetonError as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        fail("stopped; the seat waits for its player (run the bot again to go on)", code=130)
    if as_json:
        print(json.dumps(outcome.__dict__))
        return
    say(f"game over in room {outcome.room}: seat {outcome.seat} made {outcome.decisions} moves "
        f"({outcome.moves} in all); scores {outcome.scores}")
