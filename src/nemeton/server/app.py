"""The FastAPI application: routes that only parse, authorise and hand over to :mod:`.rooms`.

HTTP under ``/api`` and one WebSocket per client under ``/ws``; the contract is in
``docs/server.md`` and in the OpenAPI schema served at ``/docs`` and ``/openapi.json``.
Refusals are 4xx answers ``{"detail": "<what was wrong>"}`` that change nothing; anything
unexpected is logged here and answered with a bare 500, never with a stack trace.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field

from .catalogue import game_catalogue
from .db import Store, open_engine
from .limits import Limiter, RateLimit, client_of
from .rooms import Forbidden, Rooms, ServerError, Subscriber

log = logging.getLogger("nemeton.server")

MAX_BODY_BYTES = 1_000_000  # a data option (a deck, a board) is at most 200,000 characters
MAX_MESSAGE_CHARS = 64_000  # one WebSocket message: an action


# ----- request bodies --------------------------------------------------------------------
class SeatIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["human", "ai"]
    name: str | None = Field(None, min_length=1, max_length=64, description="a person's name")
    agent: str | None = Field(None, min_length=1, max_length=200,
                              description="an AI seat's agent spec, e.g. 'heuristic' or 'ismcts:seconds=1'")


class RoomIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(min_length=1, max_length=64, description="a game's name, e.g. 'alarun'")
    options: dict[str, Any] = Field(default_factory=dict, max_length=32,
                                    description="the game's options; players defaults to the number of seats")
    seats: list[SeatIn] = Field(min_length=1, max_length=16)
    undo: bool = Field(False, description="allow take-backs (POST /api/rooms/{room}/undo)")
    turn_timeout_s: float | None = Field(None, ge=0.1, le=7 * 86400,
                                         description="a person who does not act within this many seconds "
                                                     "has their seat played by the heuristic until they return")


class ActionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str = Field(min_length=1, max_length=200)
    action: dict[str, Any] = Field(description="the action's JSON, as listed in legal_actions")
    version: int | None = Field(None, ge=0, description="the version the action was chosen on (refused if stale)")
    since: int = Field(0, ge=0, description="return log entries from this index on")


class TakeBackIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str = Field(min_length=1, max_length=200)
    version: int | None = Field(None, ge=0, description="the version the take-back was asked on (refused if stale)")
    since: int = Field(0, ge=0, description="return log entries from this index on")


class SeatToken(BaseModel):
    seat: int
    token: str


class RoomCreated(BaseModel):
    room: str
    seats: list[SeatToken]
    creator: str = Field(description="the creator's token: hands an absent person's seat to an agent and back")


class HandSeatIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str = Field(min_length=1, max_length=200, description="the creator's token")
    agent: str | None = Field(..., min_length=1, max_length=200,
                              description="the agent spec to play this person's seat; null: back to the person")


class SeatHanded(BaseModel):
    seat: int
    stand_in: str | None
    version: int


class CreatorIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str = Field(min_length=1, max_length=200, description="the creator's token")


class StandIn(BaseModel):
    agent: str
    until_return: bool = Field(description="put there by a turn timeout: steps back when the person returns")


class ComeBackIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str = Field(min_length=1, max_length=200)
    since: int = Field(0, ge=0, description="return log entries from this index on")


class SeatInfo(BaseModel):
    seat: int
    name: str
    kind: Literal["human", "ai"]
    agent: str | None = Field(None, description="an AI seat's agent spec")
    stand_in: str | None = Field(None, description="the agent playing this person's seat for now")
    connected: bool = Field(description="an AI seat, or a person with a client connected")


class RoomView(BaseModel):
    view: dict[str, Any]
    to_move: list[int]
    legal_actions: list[dict[str, Any]]
    log: list[dict[str, Any]]
    finished: bool
    version: int = Field(description="one more at every change of the room; send it with an action")
    moves: int = Field(description="the number of actions applied so far")
    stand_in: StandIn | None = Field(None, description="the agent playing this person's seat for now")
    seats: list[SeatInfo] = Field(default_factory=list, description="who sits where (public)")
    undo: bool = Field(False, description="whether take-backs are allowed in this room")
    rematch: str | None = Field(None, description="the room of this game's rematch, once the creator asked for one")


# ----- the application -------------------------------------------------------------------
def create_app(db_url: str | None = None, agent_threads: int = 4,
               rate_limit: tuple[float, float] | None = (50.0, 200.0)) -> FastAPI:
    """The server on the database at ``db_url`` (default: the SQLite file in the data
    directory), migrated and with its unfinished rooms reloaded at start. ``rate_limit`` is
    (requests per second, burst) per client address, None for no limit."""

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        for name in ("uvicorn.access", "uvicorn.error"):  # requests, and WebSocket connections
            redact_tokens(logging.getLogger(name))
        engine = await asyncio.to_thread(open_engine, db_url)
        app.state.rooms = Rooms(Store(engine), agent_threads)
        await app.state.rooms.start()
        try:
            yield
        finally:
            await app.state.rooms.close()
            engine.dispose()

    app = FastAPI(title="Nemeton game server", version="1", lifespan=lifespan,
                  description="Rooms of seats (people with secret tokens, or AI agents) playing "
                              "Nemeton's games. See docs/server.md.")
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)
    app.state.limiter = Limiter(*rate_limit) if rate_limit else None
    if app.state.limiter is not None:
        app.add_middleware(RateLimit, limiter=app.state.limiter)
    _errors(app)
    _routes(app)
    _pages(app)
    return app


def _rooms(request: Request | WebSocket) -> Rooms:
    return request.app.state.rooms


def _errors(app: FastAPI) -> None:
    @app.exception_handler(ServerError)
    async def refused(_request: Request, exc: ServerError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def malformed(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": f"malformed request: {_explain(exc.errors())}"}, status_code=422)

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.error("unexpected error on %s %s", request.method, request.url.path, exc_info=exc)
        return JSONResponse({"detail": "internal server error"}, status_code=500)


def _explain(errors: Any) -> str:
    """Pydantic's errors without the input they quote (it may hold a token)."""
    parts = []
    for e in list(errors)[:5]:
        where = ".".join(str(p) for p in e.get("loc", ()) if p != "body")
        parts.append(f"{where}: {e.get('msg', 'invalid')}" if where else str(e.get("msg", "invalid")))
    return "; ".join(parts)


def _routes(app: FastAPI) -> None:
    @app.post("/api/rooms", response_model=RoomCreated, status_code=201,
              summary="Create a room; returns one secret token per person's seat")
    async def create_room(body: RoomIn, request: Request) -> dict[str, Any]:
        return await _rooms(request).create(body.game, body.options, [s.model_dump() for s in body.seats],
                                            body.undo, body.turn_timeout_s)

    @app.get("/api/rooms", summary="The rooms, newest first, for a lobby (nothing hidden)")
    async def list_rooms(request: Request, limit: int = Query(100, ge=1, le=500)) -> list[dict[str, Any]]:
        return await _rooms(request).lobby(limit)

    @app.get("/api/rooms/{room}/view", response_model=RoomView,
             summary="A seat's view (the spectator's without a token)")
    async def view(room: str, request: Request, token: str | None = Query(None, max_length=200),
                   since: int = Query(0, ge=0),
                   authorization: str | None = Header(None, max_length=220,
                                                      description="Bearer <token>: the token kept out of URLs")
                   ) -> dict[str, Any]:
        if token is None and authorization is not None:
            scheme, _, value = authorization.partition(" ")
            if scheme.lower() != "bearer" or not value.strip():
                raise ServerError("the Authorization header must be 'Bearer <token>'", 401)
            token = value.strip()
        return await _rooms(request).view(room, token, since)

    @app.post("/api/rooms/{room}/actions", response_model=RoomView,
              summary="A person's action; answers with the seat's new view")
    async def act(room: str, body: ActionIn, request: Request) -> dict[str, Any]:
        return await _rooms(request).act(room, body.token, body.action, body.version, body.since)

    @app.post("/api/rooms/{room}/undo", response_model=RoomView,
              summary="Take back one's last action (rooms made with undo: true), while it revealed "
                      "nothing and no other seat has acted since")
    async def take_back(room: str, body: TakeBackIn, request: Request) -> dict[str, Any]:
        return await _rooms(request).take_back(room, body.token, body.version, body.since)

    @app.post("/api/rooms/{room}/return", response_model=RoomView,
              summary="A person is back: the heuristic a turn timeout put on their seat steps back")
    async def come_back(room: str, body: ComeBackIn, request: Request) -> dict[str, Any]:
        return await _rooms(request).come_back(room, body.token, body.since)

    @app.post("/api/rooms/{room}/seats/{seat}", response_model=SeatHanded,
              summary="The creator hands a person's seat to an AI agent, or back (agent: null)")
    async def hand_seat(room: str, seat: int, body: HandSeatIn, request: Request) -> dict[str, Any]:
        return await _rooms(request).hand_seat(room, body.token, seat, body.agent)

    @app.get("/api/games", summary="The games: player counts, options with their help text, agents")
    async def games() -> list[dict[str, Any]]:
        return game_catalogue()

    @app.get("/api/rooms/{room}", summary="A room's public description: game, options, seats, status")
    async def room_info(room: str, request: Request) -> dict[str, Any]:
        return await _rooms(request).info(room)

    @app.get("/api/rooms/{room}/replay",
             summary="A finished game as one seat (or the spectator, without seat) saw it after a step")
    async def replay(room: str, request: Request, seat: int | None = Query(None, ge=0, le=63),
                     step: int | None = Query(None, ge=0, le=1_000_000)) -> dict[str, Any]:
        return await _rooms(request).replay(room, seat, step)

    @app.post("/api/rooms/{room}/rematch", summary="The creator asks for a rematch: same game, options and "
                                                   "seats, every person keeping their token")
    async def rematch(room: str, body: CreatorIn, request: Request) -> dict[str, Any]:
        return await _rooms(request).rematch_room(room, body.token)

    @app.get("/api/rooms/{room}/record", summary="The full record (seed included), once the game has ended")
    async def record(room: str, request: Request) -> dict[str, Any]:
        return await _rooms(request).record(room)

    @app.websocket("/ws/rooms/{room}")
    async def room_socket(websocket: WebSocket, room: str, token: str | None = None) -> None:
        await serve_socket(websocket, _rooms(websocket), room, token, websocket.app.state.limiter)


# ----- the web client --------------------------------------------------------------------
WEB = Path(__file__).resolve().parent.parent / "web"
# The pages load only our own files; a token in a page's address never leaves in a Referer.
PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                               "img-src 'self' data:; connect-src 'self' ws: wss:; frame-ancestors 'none'; "
                               "base-uri 'none'; form-action 'self'",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-cache",
}


def _pages(app: FastAPI) -> None:
    """The lobby, a room's page (a seat's with ?token=, the spectator's with ?watch) and a
    finished game's replay: static files that draw what the API sends (docs/web.md)."""
    app.mount("/static", StaticFiles(directory=WEB), name="static")

    def page(name: str) -> FileResponse:
        return FileResponse(WEB / name, media_type="text/html", headers=PAGE_HEADERS)

    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return page("index.html")

    @app.get("/rooms/{room}", include_in_schema=False)
    async def room_page(room: str) -> FileResponse:
        return page("room.html")

    @app.get("/rooms/{room}/replay", include_in_schema=False)
    async def replay_page(room: str) -> FileResponse:
        return page("replay.html")


# ----- WebSocket -------------------------------------------------------------------------
async def serve_socket(websocket: WebSocket, rooms: Rooms, room_id: str, token: str | None,
                       limiter: Limiter | None = None) -> None:
    """Send the current state, then every change as it is committed; accept actions
    ``{"type": "action", "action": {...}, "version": V}`` and take-backs ``{"type": "undo"}``;
    refusals come back as
    ``{"type": "error", "status": 4xx, "message": ...}``."""
    await websocket.accept()
    try:
        room = await rooms.get(room_id)
        seat = room.seat_of(token)
    except ServerError as exc:
        await websocket.send_json({"type": "error", "status": exc.status, "message": str(exc)})
        await websocket.close(code=4000 + exc.status, reason=str(exc)[:120])
        return
    sub = Subscriber(seat)
    async with room.lock:
        if seat is not None:  # connecting is coming back
            await rooms.returns(room, seat)
        room.subscribers.add(sub)
        sub.queue.put_nowait({"type": "state", "seat": seat, **room.snapshot(seat)})  # always first
        sub.since = room.table.state.log_length()
        room.publish_seats()
    sender = asyncio.create_task(_send(websocket, sub))
    try:
        while True:
            text = await websocket.receive_text()
            if limiter is not None and not limiter.allow(client_of(websocket.scope)):
                answer = {"type": "error", "status": 429, "message": "too many messages; slow down"}
            else:
                answer = await _handle(rooms, room_id, token, text)
            sub.queue.put_nowait(answer)
    except WebSocketDisconnect:
        pass
    finally:
        room.subscribers.discard(sub)
        room.publish_seats()
        sender.cancel()
        await asyncio.gather(sender, return_exceptions=True)


async def _send(websocket: WebSocket, sub: Subscriber) -> None:
    while True:
        message = await sub.queue.get()
        await websocket.send_json(message)


async def _handle(rooms: Rooms, room_id: str, token: str | None, text: str) -> dict[str, Any]:
    """One client message; the answer to queue (the new state itself is pushed by the room)."""
    try:
        if len(text) > MAX_MESSAGE_CHARS:
            raise ServerError(f"a message is at most {MAX_MESSAGE_CHARS} characters", 413)
        try:
            message = json.loads(text)
        except (ValueError, RecursionError):
            raise ServerError("malformed message: not JSON", 422) from None
        kind = message.get("type") if isinstance(message, dict) else None
        version = message.get("version") if isinstance(message, dict) else None
        if not ((kind == "action" and isinstance(message.get("action"), dict) or kind in ("undo", "return"))
                and (version is None or (type(version) is int and version >= 0))):
            raise ServerError('malformed message: expected {"type": "action", "action": {...}, "version": V '
                              '(optional)}, {"type": "undo", "version": V (optional)} or {"type": "return"}', 422)
        if token is None:
            raise Forbidden("a spectator cannot act; connect with a seat's token")
        if kind == "undo":
            snapshot = await rooms.take_back(room_id, token, version)
        elif kind == "return":
            snapshot = await rooms.come_back(room_id, token)
        else:
            snapshot = await rooms.act(room_id, token, message["action"], version, snapshot=False)
        return {"type": "ok", "version": snapshot["version"]}
    except ServerError as exc:
        return {"type": "error", "status": exc.status, "message": str(exc)}
    except Exception:
        log.exception("unexpected error on a message to room %s", room_id)
        return {"type": "error", "status": 500, "message": "internal server error"}


# ----- logs ------------------------------------------------------------------------------
_TOKEN = re.compile(r"(token=)[^&\s\"]*")


class RedactTokens(logging.Filter):
    """Seat tokens travel in query strings (``?token=``): access logs show them as ``***``."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(_TOKEN.sub(r"\1***", a) if isinstance(a, str) else a for a in record.args)
        if isinstance(record.msg, str):
            record.msg = _TOKEN.sub(r"\1***", record.msg)
        return True


def redact_tokens(logger: logging.Logger) -> None:
    if not any(isinstance(f, RedactTokens) for f in logger.filters):
        logger.addFilter(RedactTokens())


# ----- request size ----------------------------------------------------------------------
class BodyLimit:
    """Refuse (413) a request body larger than ``limit`` bytes, declared or streamed."""

    def __init__(self, app: Any, limit: int):
        self.app = app
        self.limit = limit

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            return await _too_large(send, self.limit)
        seen = 0

        async def limited_receive() -> dict:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise _BodyTooLarge
            return message

        try:
            await self.app(scope, limited_receive, send)
        except _BodyTooLarge:
            await _too_large(send, self.limit)


class _BodyTooLarge(Exception):
    pass


async def _too_large(send: Any, limit: int) -> None:
    body = json.dumps({"detail": f"request body too large (at most {limit:,} bytes)"}).encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
