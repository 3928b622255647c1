"""``nemeton serve``: the game server (FastAPI on uvicorn), from the ``server`` extra."""

from __future__ import annotations

from typing import List, Optional

import typer

from .common import fail, say


def _default_db() -> str:
    """The default database as ``--help`` shows it (no server dependency imported for it)."""
    try:
        from ..server.paths import default_db_path
        return str(default_db_path())
    except Exception:  # platformdirs missing: the help still reads
        return "nemeton.db in the data directory"


def _agent_list(values: Optional[List[str]]) -> List[str]:
    """``--agent`` values, each of which may hold several NAME=SPEC separated by commas (and,
    from NEMETON_AGENT, by newlines or spaces, which the command line splits off already)."""
    return [part.strip() for value in values or [] for part in value.split(",") if part.strip()]


def serve_command(
    host: str = typer.Option("127.0.0.1", "--host", envvar="NEMETON_HOST",
                             help="Address to listen on (0.0.0.0: every interface)."),
    port: int = typer.Option(8000, "--port", min=1, max=65535, envvar="NEMETON_PORT", help="TCP port."),
    db: Optional[str] = typer.Option(None, "--db", envvar="NEMETON_DATABASE_URL", metavar="URL",
                                     help="SQLAlchemy database URL. Default: the SQLite file "
                                          f"{_default_db()} ($NEMETON_DATA overrides its directory)."),
    agent_threads: int = typer.Option(4, "--agent-threads", min=1, max=64, envvar="NEMETON_AGENT_THREADS",
                                      help="Worker threads that compute the AI seats' moves."),
    rate: float = typer.Option(50.0, "--rate-limit", min=0, envvar="NEMETON_RATE_LIMIT",
                               help="Requests per second per client address (bursts of 4x); 0: no limit."),
    agents: Optional[List[str]] = typer.Option(
        None, "--agent", metavar="NAME=SPEC", envvar="NEMETON_AGENT",
        help="An AI opponent clients may choose, by NAME (repeatable, or several separated by commas; "
             "in NEMETON_AGENT by commas or newlines; e.g. strong=ismcts:seconds=2). "
             "Default: random, heuristic, search-1s (ismcts:seconds=1), search-3s (ismcts:seconds=3). "
             "At most 10 s or 20,000 iterations a decision, workers at most the cores."),
    forwarded_allow_ips: Optional[str] = typer.Option(
        None, "--forwarded-allow-ips", metavar="IPS", envvar="NEMETON_FORWARDED_ALLOW_IPS",
        help="Proxies (comma-separated addresses or networks, '*' for any) whose X-Forwarded-For "
             "and X-Forwarded-Proto are trusted; default: none (the peer's address is the client's)."),
    expire_after: float = typer.Option(
        14.0, "--expire-after", min=0, metavar="DAYS", envvar="NEMETON_EXPIRE_AFTER",
        help="Close an unfinished room nobody has played in for this many days (checked hourly); 0: never."),
    metrics: Optional[bool] = typer.Option(
        None, "--metrics/--no-metrics", envvar="NEMETON_METRICS",
        help="Serve Prometheus metrics at /metrics (docs/operations.md); default: only when listening on "
             "loopback, to direct clients (not through a proxy)."),
    log_format: str = typer.Option("text", "--log-format", envvar="NEMETON_LOG_FORMAT", metavar="text|json",
                                   help="Log lines as text, or as one JSON object per line (for log collectors)."),
) -> None:
    """Run the game server: rooms, seats and live play over HTTP and WebSockets (docs/server.md)."""
    try:
        import uvicorn

        from ..server.app import create_app
    except ModuleNotFoundError as exc:
        fail(f"the server needs the 'server' extra ({exc.name} is missing): pip install -e '.[server]'")
    from ..server.agents import AgentConfigError, AgentPolicy, parse_agent_option
    from ..server.db import data_dir, default_url
    from ..server.observe import LOG_FORMATS, log_config
    if log_format not in LOG_FORMATS:
        fail(f"--log-format must be one of {', '.join(LOG_FORMATS)}; got {log_format!r}")
    limit = (rate, 4 * rate) if rate > 0 else None
    try:
        agents = _agent_list(agents)
        policy = AgentPolicy(dict(parse_agent_option(a) for a in agents) if agents else None)
    except AgentConfigError as exc:
        fail(str(exc))
    trusted = (forwarded_allow_ips or "").strip()
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else (f"[{host}]" if ":" in host else host)
    where = db or default_url()
    if db is None:
        note = data_dir()[1]
        if note:
            say(f"Note: {note}", "yellow")
    if "@" in where:  # never print a database password
        where = where.split("://", 1)[0] + "://…@" + where.rsplit("@", 1)[1]
    say(f"Nemeton is starting: open http://{shown}:{port} in a browser (Ctrl+C stops it).", "bold")
    say(f"Games are stored in {where}; API documentation at http://{shown}:{port}/docs", "dim")
    say(f"AI opponents offered: {', '.join(a.name for a in policy.offered)}", "dim")
    say(f"Unfinished rooms untouched for {expire_after:g} days are closed" if expire_after
        else "Unfinished rooms never expire", "dim")
    uvicorn.run(create_app(db, agent_threads, limit, agents=policy, metrics=metrics,
                           expire_after=expire_after or None), host=host, port=port,
                log_level="info", log_config=log_config(log_format), access_log=False,  # our request log
                proxy_headers=bool(trusted), forwarded_allow_ips=trusted or None)
