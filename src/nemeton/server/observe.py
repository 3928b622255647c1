"""Running the server as a service: health and readiness, Prometheus metrics, request ids and logs.

- :class:`Metrics`: the server's metrics in a registry of its own (one per app, so several
  apps in one process never clash), served at ``/metrics`` in Prometheus' text format.
- :class:`Observe`: ASGI middleware that gives every request a request id (a client's
  ``X-Request-ID`` if it is a short safe token, else a new one; returned in the answer),
  counts and times it by route *template* (``/api/rooms/{room}/view``: a room id is never a
  label value) and logs one line for it.
- The room hooks (:func:`room_created`, :func:`room_event`, :func:`applied`, ...): one-line
  calls from the parts of the rooms (:mod:`.seats`, :mod:`.turns`, :mod:`.ai_seats`, and
  :mod:`.rooms` for a failed poll), which log the rooms' events with the request id and count them.
- :func:`log_config`: the logging configuration for ``uvicorn.run`` (``text`` or ``json``,
  one object per line); every line goes through :class:`Scrub`, which redacts tokens in query
  strings whatever logger wrote it.

Nothing logged or exported holds a token, a token's hash, the creator's token or a seed:
the request line is logged by its route template (never its query), and the events name
rooms and seats by number. The operator's guide is docs/operations.md.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import re
import secrets
import time
from contextvars import ContextVar
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path
from collections.abc import Callable, Mapping
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.exposition import choose_encoder

REQUEST_ID: ContextVar[str | None] = ContextVar("nemeton_request_id", default=None)
_SAFE_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
PROBES = ("/health", "/ready", "/metrics")  # logged at DEBUG: probes come every few seconds

access_log = logging.getLogger("nemeton.server.access")
events_log = logging.getLogger("nemeton.server.events")

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
THINK_BUCKETS = (0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 20.0)


# ----- metrics ---------------------------------------------------------------------------
class Metrics:
    """Every metric of one server (one app), in its own registry."""

    def __init__(self, registry: CollectorRegistry | None = None):
        self.registry = r = registry or CollectorRegistry(auto_describe=True)
        self.requests = Counter("nemeton_requests", "HTTP requests answered, by method, route template and status",
                                ["method", "route", "status"], registry=r)
        self.latency = Histogram("nemeton_request_seconds", "Time to answer an HTTP request, by method and route "
                                 "template", ["method", "route"], buckets=LATENCY_BUCKETS, registry=r)
        self.actions = Counter("nemeton_actions", "Actions applied and committed (people's and agents'), by game",
                               ["game"], registry=r)
        self.sockets = Gauge("nemeton_websocket_connections", "WebSocket connections open now", registry=r)
        self.rooms = Gauge("nemeton_rooms_in_memory", "Rooms loaded in this process's memory", registry=r)
        self.think = Histogram("nemeton_agent_think_seconds", "Time an AI seat took to decide, on its worker "
                               "thread, by game", ["game"], buckets=THINK_BUCKETS, registry=r)
        self.retries = Counter("nemeton_db_retries", "Work done again because of the database: an agent's move "
                               "whose commit lost to another writer (asked again), a failed version poll",
                               ["what"], registry=r)
        self.stale = Counter("nemeton_stale_refusals", "Requests refused as stale (409): 'client_version', the "
                             "request named an old version; 'lost_race', another writer committed first",
                             ["reason"], registry=r)
        self.created = Counter("nemeton_rooms_created", "Rooms created (rematches included), by game",
                               ["game"], registry=r)
        self.finished = Counter("nemeton_games_finished", "Games played to their end, by game", ["game"],
                                registry=r)
        self.rooms.set_function(lambda: 0)

    def watch_rooms(self, rooms: Any) -> None:
        """Read the number of rooms in memory from ``rooms`` (a :class:`~.rooms.Rooms`) when scraped."""
        self.rooms.set_function(lambda: len(rooms.rooms))

    def exposition(self, accept: str | None = None) -> tuple[bytes, str]:
        """The metrics and their content type, as the scraper's ``Accept`` asks: Prometheus'
        text format 0.0.4 by default, OpenMetrics when asked for."""
        encoder, content_type = choose_encoder(accept or "")
        return encoder(self.registry), content_type


def _is_loopback(host: Any) -> bool:
    if not isinstance(host, str):
        return False
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def metrics_allowed(setting: bool | None, scope: Mapping[str, Any]) -> bool:
    """Whether ``/metrics`` answers this request: ``setting`` True or False as the operator
    chose; None (the default) only on a server listening on loopback, to a direct client (a
    request that came through a proxy, with ``X-Forwarded-For`` or ``Forwarded``, is refused:
    a proxy on the same machine would otherwise publish the metrics)."""
    if setting is not None:
        return setting
    server, client = scope.get("server") or (None,), scope.get("client") or (None,)
    if not (_is_loopback(server[0]) and _is_loopback(client[0])):
        return False
    return not any(name in (b"x-forwarded-for", b"forwarded") for name, _ in scope.get("headers") or ())


# ----- readiness -------------------------------------------------------------------------
@lru_cache(maxsize=1)
def migration_heads() -> frozenset[str]:
    """The head revisions of the migrations this server ships (read once)."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory
    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    return frozenset(ScriptDirectory.from_config(config).get_heads())


def readiness(engine: Any) -> tuple[bool, dict[str, str]]:
    """Whether the database answers and its migrations are at head, and what is wrong if not.
    The answer names no URL, host or error text (only the error's kind)."""
    from alembic.runtime.migration import MigrationContext
    try:
        with engine.connect() as connection:
            current = frozenset(MigrationContext.configure(connection).get_current_heads())
    except Exception as exc:
        return False, {"status": "not ready", "database": f"unreachable ({type(exc).__name__})",
                       "migrations": "unknown"}
    heads = migration_heads()
    if current == heads:
        return True, {"status": "ready", "database": "ok", "migrations": "head"}
    if not current:
        state = f"none applied; head is {', '.join(sorted(heads))}"
    elif current - _known_revisions():
        state = f"ahead of this server: at {', '.join(sorted(current))}, head is {', '.join(sorted(heads))}"
    else:
        state = f"behind: at {', '.join(sorted(current))}, head is {', '.join(sorted(heads))}"
    return False, {"status": "not ready", "database": "ok", "migrations": state}


@lru_cache(maxsize=1)
def _known_revisions() -> frozenset[str]:
    from alembic.config import Config
    from alembic.script import ScriptDirectory
    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    return frozenset(s.revision for s in ScriptDirectory.from_config(config).walk_revisions())


# ----- the request middleware ------------------------------------------------------------
def request_id_of(scope: dict) -> str:
    """The client's ``X-Request-ID`` if it is a short safe token (1 to 64 of ``A-Za-z0-9._-``),
    else a new one."""
    for name, value in scope.get("headers") or ():
        if name == b"x-request-id":
            try:
                text = value.decode("ascii")
            except UnicodeDecodeError:
                break
            if _SAFE_ID.fullmatch(text):
                return text
            break
    return secrets.token_hex(8)


def route_of(scope: dict, routes: list) -> str:
    """The template of the route that served (or would serve) this request, never its path:
    ``/api/rooms/{room}/view``, ``/static`` for a file, ``unmatched`` for no route."""
    route = scope.get("route")
    if route is None:  # refused before routing (429, 413): match it here
        from starlette.routing import Match
        for candidate in routes:
            try:
                match, _child = candidate.matches(dict(scope))
            except Exception:
                continue
            if match is not Match.NONE:
                route = candidate
                break
    path = getattr(route, "path", None)
    return path if isinstance(path, str) and path else "unmatched"


class Observe:
    """ASGI middleware (outermost): request id, metrics by route template, one log line per
    request (``nemeton.server.access``) and per WebSocket connection when it ends."""

    def __init__(self, app: Any, metrics: Metrics, routes: list):
        self.app = app
        self.metrics = metrics
        self.routes = routes

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        rid = request_id_of(scope)
        header = (b"x-request-id", rid.encode("ascii"))
        REQUEST_ID.set(rid)
        start = time.perf_counter()
        seen: dict[str, Any] = {"status": None, "accepted": False, "close": None}

        async def sending(message: dict) -> None:
            what = message["type"]
            if what == "http.response.start" or what == "websocket.http.response.start":
                seen["status"] = message["status"]
                message = {**message, "headers": [*message.get("headers", ()), header]}
            elif what == "websocket.accept":
                seen["accepted"] = True
                self.metrics.sockets.inc()
                message = {**message, "headers": [*message.get("headers", ()), header]}
            elif what == "websocket.close":
                seen["close"] = message.get("code", 1000)
            await send(message)

        # The request id is not reset at the end: each request runs in a task (a context) of
        # its own, and the 500 handler, which runs outside this middleware, logs with it.
        try:
            await self.app(scope, receive, sending)
        except BaseException:
            if seen["status"] is None:
                seen["status"] = 500
            raise
        finally:
            self._done(scope, kind, seen, time.perf_counter() - start)

    def _done(self, scope: dict, kind: str, seen: dict, elapsed: float) -> None:
        route = route_of(scope, self.routes)
        if kind == "http":
            method, status = scope.get("method", "?"), seen["status"] or 500
            self.metrics.requests.labels(method, route, str(status)).inc()
            self.metrics.latency.labels(method, route).observe(elapsed)
            level = logging.DEBUG if route in PROBES and status < 500 else logging.INFO
        else:
            if seen["accepted"]:
                self.metrics.sockets.dec()
            method, level = "WS", logging.INFO
            status = seen["close"] if seen["close"] is not None else (101 if seen["accepted"] else seen["status"] or 403)
        fields = {"method": method, "route": route, "status": status, "duration_ms": round(elapsed * 1000, 1)}
        query = shown_query(scope.get("query_string") or b"")
        if query:
            fields["query"] = query
        access_log.log(level, "%s %s%s %s %.1f ms", method, route, f"?{query}" if query else "", status,
                       elapsed * 1000, extra={"request_id": REQUEST_ID.get(), "fields": fields, "inline": True})


SHOWN_PARAMETERS = frozenset({"since", "limit", "seat", "step", "watch"})  # values that are never secret


def shown_query(raw: bytes) -> str:
    """A query string as the request log shows it: the values of the parameters known to be
    harmless kept, every other one (``token`` first of all) as ``***``."""
    from urllib.parse import unquote_plus
    if not raw:
        return ""
    parts = []
    for part in raw.decode("latin-1").split("&")[:20]:
        name, sep, value = part.partition("=")
        plain = unquote_plus(name).strip().lower()
        shown = value if plain in SHOWN_PARAMETERS and len(value) <= 20 else "***"
        parts.append(f"{name[:40]}={shown}" if sep else name[:40])
    return "&".join(parts)


# ----- room events (called from seats.py, turns.py, ai_seats.py and rooms.py) ------------
def _metrics(rooms: Any) -> Metrics | None:
    return getattr(rooms, "metrics", None)


def _event(event: str, room_id: str, **fields: Any) -> None:
    name = event.replace(" ", "_").replace("-", "_")
    events_log.info(event, extra={"request_id": REQUEST_ID.get(), "fields": {"event": name, "room": room_id, **fields}})


def room_created(rooms: Any, room_id: str, game: str, started: bool, **fields: Any) -> None:
    """A room was created (``rematch_of``: a rematch); its game starts now unless it waits for open seats."""
    m = _metrics(rooms)
    if m is not None:
        m.created.labels(game).inc()
    _event("room created", room_id, game=game, **fields)
    if started:
        _event("game started", room_id, game=game)


def room_event(rooms: Any, event: str, room: Any, **fields: Any) -> None:
    """Something happened in ``room`` (seat joined, seat left, take-back, stand-in)."""
    _event(event, room.id, game=room.spec.name, version=room.version, **fields)


def joined(rooms: Any, room: Any, seat: int, started: bool) -> None:
    """A person took an open seat; the game starts if it was the last one."""
    room_event(rooms, "seat joined", room, seat=seat)
    if started:
        _event("game started", room.id, game=room.spec.name)


def applied(rooms: Any, room: Any, count: int) -> None:
    """``count`` actions were committed to ``room``; the game may have ended with them."""
    m = _metrics(rooms)
    if m is not None:
        m.actions.labels(room.spec.name).inc(count)
    if room.terminal:
        if m is not None:
            m.finished.labels(room.spec.name).inc()
        _event("game finished", room.id, game=room.spec.name, moves=len(room.table.state.history),
               version=room.version)


def stale(rooms: Any, reason: str) -> None:
    """A request refused as stale: ``client_version`` (it named an old version) or
    ``lost_race`` (the database's conditional update found another writer first)."""
    m = _metrics(rooms)
    if m is not None:
        m.stale.labels(reason).inc()


def retry(rooms: Any, what: str) -> None:
    """Work done again because of the database (``agent_move``, ``poll``)."""
    m = _metrics(rooms)
    if m is not None:
        m.retries.labels(what).inc()


def timed(rooms: Any, room: Any, decide: Callable[[], Any]) -> Callable[[], Any]:
    """``decide`` (an agent's decision, run on a worker thread), its time observed by game."""
    m = _metrics(rooms)
    if m is None:
        return decide
    histogram = m.think.labels(room.spec.name)

    def run() -> Any:
        start = time.perf_counter()
        try:
            return decide()
        finally:
            histogram.observe(time.perf_counter() - start)
    return run


# ----- logging configuration -------------------------------------------------------------
class Scrub(logging.Filter):
    """On every handler: the message formatted once and its tokens redacted (``token=***`` in
    query strings, whatever logger wrote it and whatever type its arguments are), and the
    request id of the context attached."""

    def filter(self, record: logging.LogRecord) -> bool:
        from .app import redact
        try:
            message = record.getMessage()
        except Exception:
            message = str(record.msg)
        record.msg, record.args = redact(message), None
        if getattr(record, "request_id", None) is None:
            record.request_id = REQUEST_ID.get()
        return True


def _time(record: logging.LogRecord) -> str:
    return datetime.fromtimestamp(record.created, timezone.utc).isoformat(timespec="milliseconds")


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, request_id and the event's fields."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {"time": _time(record), "level": record.levelname, "logger": record.name,
                               "message": record.getMessage(),
                               "request_id": getattr(record, "request_id", None) or REQUEST_ID.get()}
        for key, value in (getattr(record, "fields", None) or {}).items():
            out.setdefault(key, value)
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False, default=str)


class TextFormatter(logging.Formatter):
    """``time LEVEL logger [request id] message key=value ...``."""

    def format(self, record: logging.LogRecord) -> str:
        rid = getattr(record, "request_id", None) or REQUEST_ID.get() or "-"
        line = f"{_time(record)} {record.levelname} {record.name} [{rid}] {record.getMessage()}"
        for key, value in ({} if getattr(record, "inline", False) else getattr(record, "fields", None) or {}).items():
            text = str(value)
            line += f" {key}={json.dumps(text) if (not text or any(c.isspace() for c in text)) else text}"
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


LOG_FORMATS = ("text", "json")


def log_config(fmt: str = "text", level: str = "INFO", stream: Any = None) -> dict[str, Any]:
    """The ``logging.config.dictConfig`` for ``uvicorn.run(log_config=...)``: every logger
    (ours, uvicorn's, the root) writes through one handler on stderr (or ``stream``) in
    ``fmt``, scrubbed; uvicorn's access log is replaced by ours (``nemeton.server.access``)."""
    if fmt not in LOG_FORMATS:
        raise ValueError(f"log format must be one of {', '.join(LOG_FORMATS)}; got {fmt!r}")
    handler: dict[str, Any] = {"class": "logging.StreamHandler", "formatter": fmt, "filters": ["scrub"],
                               "stream": stream if stream is not None else "ext://sys.stderr"}
    level = level.upper()
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"scrub": {"()": Scrub}},
        "formatters": {"text": {"()": TextFormatter}, "json": {"()": JsonFormatter}},
        "handlers": {"default": handler},
        "loggers": {
            "uvicorn": {"handlers": ["default"], "level": level, "propagate": False},
            "uvicorn.error": {"level": level},
            "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": False},  # ours replaces it
            "nemeton": {"handlers": ["default"], "level": level, "propagate": False},
        },
        "root": {"handlers": ["default"], "level": level},
    }
