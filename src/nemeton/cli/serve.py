"""``nemeton serve``: the game server (FastAPI on uvicorn), from the ``server`` extra."""

from __future__ import annotations

from typing import List, Optional

import typer

from .common import fail, say


def serve_command(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (0.0.0.0: every interface)."),
    port: int = typer.Option(8000, "--port", min=1, max=65535, help="TCP port."),
    db: Optional[str] = typer.Option(None, "--db", help="SQLAlchemy database URL (default: the SQLite file "
                                     "nemeton.db in $NEMETON_DATA, else ~/.local/share/nemeton)."),
    agent_threads: int = typer.Option(4, "--agent-threads", min=1, max=64,
                                      help="Worker threads that compute the AI seats' moves."),
    rate: float = typer.Option(50.0, "--rate-limit", min=0,
                               help="Requests per second per client address (bursts of 4x); 0: no limit."),
    agents: Optional[List[str]] = typer.Option(
        None, "--agent", metavar="NAME=SPEC",
        help="An AI opponent clients may choose, by NAME (repeatable; e.g. strong=ismcts:seconds=2). "
             "Default: random, heuristic, search-1s (ismcts:seconds=1), search-3s (ismcts:seconds=3). "
             "At most 10 s or 20,000 iterations a decision, workers at most the cores."),
    forwarded_allow_ips: Optional[str] = typer.Option(
        None, "--forwarded-allow-ips", metavar="IPS",
        help="Proxies (comma-separated addresses or networks, '*' for any) whose X-Forwarded-For "
             "and X-Forwarded-Proto are trusted; default: none (the peer's address is the client's)."),
) -> None:
    """Run the game server: rooms, seats and live play over HTTP and WebSockets (docs/server.md)."""
    try:
        import uvicorn

        from ..server.app import create_app
    except ModuleNotFoundError as exc:
        fail(f"the server needs the 'server' extra ({exc.name} is missing): pip install -e '.[server]'")
    from ..server.agents import AgentConfigError, AgentPolicy, parse_agent_option
    from ..server.db import default_url
    limit = (rate, 4 * rate) if rate > 0 else None
    try:
        policy = AgentPolicy(dict(parse_agent_option(a) for a in agents) if agents else None)
    except AgentConfigError as exc:
        fail(str(exc))
    trusted = (forwarded_allow_ips or "").strip()
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else (f"[{host}]" if ":" in host else host)
    where = db or default_url()
    if "@" in where:  # never print a database password
        where = where.split("://", 1)[0] + "://…@" + where.rsplit("@", 1)[1]
    say(f"Nemeton is starting: open http://{shown}:{port} in a browser (Ctrl+C stops it).", "bold")
    say(f"Games are stored in {where}; API documentation at http://{shown}:{port}/docs", "dim")
    say(f"AI opponents offered: {', '.join(a.name for a in policy.offered)}", "dim")
    uvicorn.run(create_app(db, agent_threads, limit, agents=policy), host=host, port=port, log_level="info",
                proxy_headers=bool(trusted), forwarded_allow_ips=trusted or None)
