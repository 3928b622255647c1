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
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StrictBool

from ..i18n import msg
from .catalogue import game_catalogue
from .db import Store, open_engine
from .hints import DEFAULT_SECONDS, MAX_SECONDS, MIN_SECONDS
from .limits import Limiter, RateLimit, client_of
from .observe import Observe
from .rooms import MAX_NAME, Forbidden, NotFound, Rooms, ServerError, Subscriber

log = logging.getLogger("nemeton.server")

MAX_BODY_BYTES = 1_000_000  # a data option (a deck, a board) is at most 200,000 characters
MAX_MESSAGE_CHARS = 64_000  # one WebSocket message: an action
MAX_NAME_READ = 200  # characters of a name read from a request (then checked to MAX_NAME)


# ----- request bodies --------------------------------------------------------------------
class SeatIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["human", "ai", "open"] = Field(description="a person's seat (a token is returned), an AI "
                                                 "seat, or an open seat that anyone may take before the game starts")
    # a name is checked (trimmed, then at most MAX_NAME) by seats.check_name, whose refusal is
    # the same 422 on every endpoint; the schema only bounds what is read
    name: str | None = Field(None, min_length=1, max_length=MAX_NAME_READ,
                             description=f"a person's name: 1 to {MAX_NAME} characters once trimmed")
    agent: str | None = Field(None, min_length=1, max_length=200,
                              description="an AI seat's agent spec, e.g. 'heuristic' or 'ismcts:seconds=1'")


class RoomIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(min_length=1, max_length=64, description="a game's name, e.g. 'alarun'")
    options: dict[str, Any] = Field(default_factory=dict, max_length=32,
                                    description="the game's options; players defaults to the number of seats")
    seats: list[SeatIn] = Field(min_length=1, max_length=16)
    undo: bool = Field(False, description="allow take-backs (POST /api/rooms/{room}/undo)")
    listed: bool = Field(True, description="shown in the lobby's list; false: reachable only by its links")
    hints: StrictBool | None = Field(None, description="whether people may ask the search for hints (POST "
                                     "/api/rooms/{room}/hint); default: on when at most one seat is a person's")
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


class HintIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str = Field(min_length=1, max_length=200, description="the seat's token")
    seconds: float = Field(DEFAULT_SECONDS, ge=MIN_SECONDS, le=MAX_SECONDS,
                           description="how long the search thinks (converted to iterations on this machine)")


class HintMoveOut(BaseModel):
    action: dict[str, Any] = Field(description="one of the seat's legal actions, as legal_actions lists it")
    text: str = Field(description="the action in words")
    win: float = Field(description="the search's estimate of the seat's share of a win after it (0 to 1)")
    visits: int


class HintOut(BaseModel):
    seat: int
    version: int = Field(description="the room's version the hint was worked out on (a later one: it is old)")
    seconds: float
    hints: list[HintMoveOut] = Field(description="the search's preferred moves, most visited first (up to 3)")


class SeatToken(BaseModel):
    seat: int
    token: str


class JoinIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=MAX_NAME_READ,
                      description=f"the name the other players see: 1 to {MAX_NAME} characters once trimmed")


class Joined(BaseModel):
    room: str
    seat: int
    token: str = Field(description="the seat's secret token: keep it, it is shown once")
    version: int
    started: bool = Field(description="whether this was the last open seat (the game has started)")


class LeaveIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str = Field(min_length=1, max_length=200)


class TakeBackInfo(BaseModel):
    allowed: bool
    reason: str | None = Field(None, description="why not, when not allowed")
    parts: list[Any] = Field(default_factory=list, description="the reason as text and {\"seat\": n} parts")


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
    name_msg: dict[str, Any] | None = Field(
        None, description="when the server made the name up (an AI seat's tree, an open seat, 'Player 2'): "
                          "the name as a message ({id, args}) a client shows in its reader's language")
    kind: Literal["human", "ai"]
    agent: str | None = Field(None, description="an AI seat's agent spec")
    stand_in: str | None = Field(None, description="the agent playing this person's seat for now")
    connected: bool = Field(description="an AI seat, or a person with a client connected")
    open: bool = Field(False, description="a person's seat nobody has taken yet (anyone may, before the game starts)")


class RoomView(BaseModel):
    view: dict[str, Any]
    acting: list[int] = Field(description="the seats that may act now")
    legal_actions: list[dict[str, Any]]
    log: list[dict[str, Any]]
    terminal: bool = Field(description="whether the game has ended")
    version: int = Field(description="one more at every change of the room; send it with an action")
    moves: int = Field(description="the number of actions applied so far")
    stand_in: StandIn | None = Field(None, description="the agent playing this person's seat for now")
    seats: list[SeatInfo] = Field(default_factory=list, description="who sits where (public)")
    undo: bool = Field(False, description="whether take-backs are allowed in this room")
    take_back: TakeBackInfo | None = Field(None, description="whether this seat may take back its last move now")
    waiting: bool = Field(False, description="the game waits for people to take its open seats")
    open_seats: list[int] = Field(default_factory=list, description="the seats anyone may take now")
    listed: bool = Field(True, description="whether the room is shown in the lobby's list")
    rematch: str | None = Field(None, description="the room of this game's rematch, once the creator asked for one")
    hints: bool = Field(False, description="whether this room's people may ask for hints")


# ----- the application -------------------------------------------------------------------
def create_app(db_url: str | None = None, agent_threads: int = 4,
               rate_limit: tuple[float, float] | None = (50.0, 200.0), agents: Any = None,
               metrics: bool | None = None, expire_after: float | None = None) -> FastAPI:
    """The server on the database at ``db_url`` (default: the SQLite file in the data
    directory), migrated and with its unfinished rooms reloaded at start. ``rate_limit`` is
    (requests per second, burst) per client address, None for no limit. ``agents``: the
    agents clients may name (name -> spec, or an :class:`~nemeton.server.agents.AgentPolicy`;
    default: random, heuristic, search-1s, search-3s). ``metrics``: whether ``GET /metrics``
    answers (True, False; None: only on loopback, to a direct client); docs/operations.md.
    ``expire_after``: days an unfinished room may stay untouched before it is closed (None or
    0, the default here: for ever; ``nemeton serve`` passes its ``--expire-after``, default
    14 days; docs/server.md, "Expiry and loading")."""

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        for name in ("uvicorn.access", "uvicorn.error"):  # requests, and WebSocket connections
            redact_tokens(logging.getLogger(name))
        engine = await asyncio.to_thread(open_engine, db_url)
        app.state.rooms = Rooms(Store(engine), agent_threads, agents=agents, expire_after=expire_after)
        app.state.rooms.metrics = app.state.metrics  # the rooms' hooks count in this app's registry
        app.state.metrics.watch_rooms(app.state.rooms)
        await app.state.rooms.start()
        try:
            yield
        finally:
            await app.state.rooms.close()
            engine.dispose()

    app = FastAPI(title="Nemeton game server", version="1", lifespan=lifespan, openapi_url=OPENAPI_URL,
                  docs_url=None, redoc_url=None,  # served by _docs from the package's files, not a CDN
                  default_response_class=SafeJSONResponse,  # every answer's text made safe to encode
                  description="Rooms of seats (people with secret tokens, or AI agents) playing "
                              "Nemeton's games. See docs/server.md.")
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)
    app.state.limiter = Limiter(*rate_limit) if rate_limit else None
    if app.state.limiter is not None:
        app.add_middleware(RateLimit, limiter=app.state.limiter)
    _errors(app)
    _routes(app)
    _docs(app)
    _pages(app)
    _operations(app, metrics)
    app.add_middleware(Observe, metrics=app.state.metrics, routes=app.router.routes)  # outermost
    return app


def _rooms(request: Request | WebSocket) -> Rooms:
    return request.app.state.rooms


def safe_text(text: str) -> str:
    """``text`` with every lone UTF-16 surrogate (``"\\ud800"`` in a client's JSON) replaced
    by U+FFFD, so that it can be sent as UTF-8 (a pair becomes its character)."""
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def json_text(content: Any) -> str:
    """JSON as the server sends it: UTF-8-safe whatever text a client made it echo."""
    text = json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = safe_text(text)
    return text


class SafeJSONResponse(JSONResponse):
    """A JSON answer that can always be encoded (lone surrogates replaced)."""

    def render(self, content: Any) -> bytes:
        return json_text(content).encode("utf-8")


def _errors(app: FastAPI) -> None:
    from starlette.exceptions import HTTPException as StarletteHTTPException

    @app.exception_handler(ServerError)
    async def refused(_request: Request, exc: ServerError) -> JSONResponse:
        body: dict[str, Any] = {"detail": str(exc), "parts": exc.parts}
        if exc.msg is not None:
            body["msg"] = exc.msg
        return SafeJSONResponse(body, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def malformed(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return SafeJSONResponse({"detail": f"malformed request: {_explain(exc.errors())}"}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: Any) -> Any:
        # FastAPI answers 400 for a body it could not decode (invalid UTF-8, JSON nested too
        # deep): a malformed body is 422 here, like any other
        if exc.status_code == 400 and isinstance(exc.__cause__, (ValueError, RecursionError)):
            return SafeJSONResponse({"detail": "malformed request: the body is not JSON "
                                               "(invalid UTF-8, or nested too deep)"}, status_code=422)
        from fastapi.exception_handlers import http_exception_handler
        return await http_exception_handler(request, exc)

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.error("unexpected error on %s %s", request.method, request.url.path, exc_info=exc)
        return SafeJSONResponse({"detail": "internal server error"}, status_code=500)


def _explain(errors: Any) -> str:
    """Pydantic's errors without the input they quote (it may hold a token)."""
    parts = []
    for e in list(errors)[:5]:
        where = ".".join(str(p) for p in e.get("loc", ()) if p != "body")
        parts.append(f"{where}: {e.get('msg', 'invalid')}" if where else str(e.get("msg", "invalid")))
    return "; ".join(parts)


def _bearer(token: str | None, authorization: str | None) -> str | None:
    """The token of a query, else of an ``Authorization: Bearer <token>`` header."""
    if token is None and authorization is not None:
        scheme, _, value = authorization.partition(" ")
        if scheme.lower() != "bearer" or not value.strip():
            raise ServerError("the Authorization header must be 'Bearer <token>'", 401)
        token = value.strip()
    return token


def _routes(app: FastAPI) -> None:
    @app.get("/api/games/{game}/rules", summary="A game's rules summary as safe HTML: {game, lang, html}, in "
                                               "?lang= (en, it, es), else the Accept-Language header's language")
    async def game_rules(game: str, lang: str | None = Query(None, max_length=64),
                         accept_language: str | None = Header(None)) -> dict[str, Any]:
        from ..engine import NemetonError
        from ..i18n import negotiate
        from ..rules_help import rules_html, rules_language
        chosen = negotiate(lang, default=negotiate(accept_language))
        try:
            return {"game": game, "lang": rules_language(game, chosen), "html": rules_html(game, chosen)}
        except NemetonError as exc:
            raise NotFound(str(exc)) from None

    @app.post("/api/rooms", response_model=RoomCreated, status_code=201,
              summary="Create a room; returns one secret token per person's seat")
    async def create_room(body: RoomIn, request: Request) -> dict[str, Any]:
        return await _rooms(request).create(body.game, body.options, [s.model_dump() for s in body.seats],
                                            body.undo, body.turn_timeout_s, body.listed, body.hints)

    @app.post("/api/rooms/{room}/seats/{seat}/join", response_model=Joined,
              summary="Take an open seat with a name (before the game starts); returns its secret token")
    async def join(room: str, seat: int, body: JoinIn, request: Request) -> dict[str, Any]:
        return await _rooms(request).join(room, seat, body.name)

    @app.post("/api/rooms/{room}/leave", summary="Leave the seat one took, before the game starts (it is open again)")
    async def leave(room: str, body: LeaveIn, request: Request) -> dict[str, Any]:
        return await _rooms(request).leave(room, body.token)

    @app.get("/api/rooms", summary="The listed rooms, newest first, for a lobby (nothing hidden; unlisted "
                                   "rooms never appear)")
    async def list_rooms(request: Request, limit: int = Query(100, ge=1, le=500)) -> list[dict[str, Any]]:
        return await _rooms(request).lobby(limit)

    @app.get("/api/rooms/{room}/view", response_model=RoomView,
             summary="A seat's view (the spectator's without a token)")
    async def view(room: str, request: Request, token: str | None = Query(None, max_length=200),
                   since: int = Query(0, ge=0),
                   authorization: str | None = Header(None, max_length=220,
                                                      description="Bearer <token>: the token kept out of URLs")
                   ) -> dict[str, Any]:
        return await _rooms(request).view(room, _bearer(token, authorization), since)

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

    @app.post("/api/rooms/{room}/hint", response_model=HintOut,
              summary="A seat's hint: the search's three preferred moves from its view, with their win chances "
                      "(rooms with hints on; 403 off, 409 no decision now, 429 busy)",
              responses={403: {"description": "hints are off in this room, or the token is unknown"},
                         409: {"description": "the seat has no decision now"},
                         429: {"description": "a hint of this seat is running, or the server's hints are all busy"}})
    async def hint(room: str, body: HintIn, request: Request) -> dict[str, Any]:
        return await _rooms(request).hint(room, body.token, body.seconds)

    @app.post("/api/rooms/{room}/analysis",
              summary="Start analysing a finished game (anyone may); answers its state as GET does "
                      "(409 while the game is on, 429 when the server analyses as many games as it may)")
    async def analyse(room: str, request: Request, response: Response) -> dict[str, Any]:
        state = await _rooms(request).analyse(room)
        if state["state"] == "running":
            response.status_code = 202
        return state

    @app.get("/api/rooms/{room}/analysis",
             summary="A finished game's analysis: {state: done, analysis}, {state: running, done, total}, "
                     "{state: failed, message} or {state: none} (not asked for yet)")
    async def analysis(room: str, request: Request) -> dict[str, Any]:
        return await _rooms(request).analysis(room)

    @app.get("/api/games", summary="The games: player counts, options with their help text, agents")
    async def games() -> list[dict[str, Any]]:
        return game_catalogue()

    @app.get("/api/rooms/{room}", summary="A room's public description: game, options, seats, status")
    async def room_info(room: str, request: Request) -> dict[str, Any]:
        return await _rooms(request).info(room)

    @app.get("/api/rooms/{room}/replay",
             summary="A finished game as one seat (or the spectator, without seat) saw it after a step")
    async def replay(room: str, request: Request, seat: int | None = Query(None, ge=0, le=63),
                     step: int | None = Query(None, ge=0, le=1_000_000),
                     authorization: str | None = Header(None, max_length=220,
                                                        description="Bearer <token>: a seat's replay of a game "
                                                                    "still being played")) -> dict[str, Any]:
        return await _rooms(request).replay(room, seat, step, _bearer(None, authorization))

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


OPENAPI_URL = "/openapi.json"  # the schema, read by both documentation pages


def _docs(app: FastAPI) -> None:
    """The interactive API documentation, served whole by this server (it works offline and
    loads nothing from elsewhere): Swagger UI at ``/docs`` and ReDoc at ``/redoc``, their
    scripts and styles from the ``fastapi-offline`` package under ``/docs-assets``. Swagger
    UI starts from an inline script: its page's policy allows that one script by its hash,
    and the other pages keep ``script-src 'self'``."""
    import base64
    import hashlib

    from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
    from fastapi.responses import HTMLResponse
    try:
        import fastapi_offline
    except ModuleNotFoundError:  # the server extra installs it; without it there are no docs pages
        log.warning("the API documentation pages are off: the fastapi-offline package is missing")
        return
    assets = Path(fastapi_offline.__file__).resolve().parent / "static"
    app.mount("/docs-assets", StaticFiles(directory=assets), name="docs-assets")
    policy = ("default-src 'self'; script-src 'self'{scripts}; style-src 'self' 'unsafe-inline'; "
              "img-src 'self' data:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; "
              "frame-ancestors 'none'; base-uri 'none'; form-action 'self'")

    def docs_page(page: HTMLResponse) -> HTMLResponse:
        inline = re.findall(r"<script>(.*?)</script>", bytes(page.body).decode("utf-8"), re.DOTALL)
        hashes = "".join(f" 'sha256-{base64.b64encode(hashlib.sha256(s.encode()).digest()).decode()}'"
                         for s in inline)
        page.headers.update({**PAGE_HEADERS, "Content-Security-Policy": policy.format(scripts=hashes)})
        return page

    @app.get("/docs", include_in_schema=False)
    async def swagger_ui() -> HTMLResponse:
        return docs_page(get_swagger_ui_html(
            openapi_url=OPENAPI_URL, title=f"{app.title}: API", swagger_js_url="/docs-assets/swagger-ui-bundle.js",
            swagger_css_url="/docs-assets/swagger-ui.css", swagger_favicon_url="/favicon.ico",
            swagger_ui_parameters={"validatorUrl": None}))  # no badge fetched from the validator's site

    @app.get("/redoc", include_in_schema=False)
    async def redoc() -> HTMLResponse:
        return docs_page(get_redoc_html(openapi_url=OPENAPI_URL, title=f"{app.title}: API",
                                        redoc_js_url="/docs-assets/redoc.standalone.js",
                                        redoc_favicon_url="/favicon.ico", with_google_fonts=False))


def _pages(app: FastAPI) -> None:
    """The lobby, a room's page (a seat's with ?token=, the spectator's with ?watch) and a
    finished game's replay: static files that draw what the API sends (docs/web.md)."""
    app.mount("/static", StaticFiles(directory=WEB), name="static")
    from ..engine import list_games
    for spec in list_games():  # each game's renderer and stylesheet, from its own folder
        if spec.web_dir is not None and Path(spec.web_dir).is_dir():
            app.mount(f"/games/{spec.name}", StaticFiles(directory=spec.web_dir), name=f"game-{spec.name}")

    def page(name: str) -> FileResponse:
        return FileResponse(WEB / name, media_type="text/html", headers=PAGE_HEADERS)

    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return page("index.html")

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:  # browsers ask for it whatever the page says
        icon = WEB / "favicon.svg"
        if not icon.is_file():  # an installation without the icon has none: 404, never a 500
            raise NotFound("no icon here")
        return FileResponse(icon, media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"})

    @app.get("/rooms/{room}", include_in_schema=False)
    async def room_page(room: str) -> FileResponse:
        return page("room.html")

    @app.get("/rooms/{room}/replay", include_in_schema=False)
    async def replay_page(room: str) -> FileResponse:
        return page("replay.html")

    @app.get("/rooms/{room}/analysis", include_in_schema=False)
    async def analysis_page(room: str) -> FileResponse:
        return page("analysis.html")


# ----- operations ------------------------------------------------------------------------
def _operations(app: FastAPI, metrics: bool | None) -> None:
    """``/health`` (the process answers), ``/ready`` (the database answers, its migrations at
    head) and ``/metrics`` (Prometheus' text format; 404 where disabled): docs/operations.md."""
    from .observe import Metrics, metrics_allowed, readiness
    app.state.metrics = Metrics()
    app.state.metrics_enabled = metrics

    @app.get("/health", summary="The process is alive", tags=["operations"])
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/ready", summary="The database answers and its migrations are at head (503 otherwise, with "
                               "what is wrong)", tags=["operations"])
    async def ready(request: Request) -> JSONResponse:
        rooms = getattr(request.app.state, "rooms", None)
        if rooms is None:
            return SafeJSONResponse({"status": "not ready", "database": "not opened yet", "migrations": "unknown"},
                                    status_code=503)
        try:
            ok, answer = await asyncio.wait_for(asyncio.to_thread(readiness, rooms.store.engine), 5.0)
        except asyncio.TimeoutError:
            ok, answer = False, {"status": "not ready", "database": "timed out (5 s)", "migrations": "unknown"}
        return SafeJSONResponse(answer, status_code=200 if ok else 503)

    @app.get("/metrics", include_in_schema=False)
    async def metrics_text(request: Request) -> Response:
        if not metrics_allowed(request.app.state.metrics_enabled, request.scope):
            return SafeJSONResponse({"detail": "Not Found"}, status_code=404)
        body, content_type = request.app.state.metrics.exposition(request.headers.get("accept"))
        return Response(body, headers={"content-type": content_type})


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
            await rooms.reclaim(room, seat)
        room.subscribers.add(sub)
        sub.queue.put_nowait({"type": "state", "seat": seat, **room.snapshot(seat)})  # always first
        sub.since = room.table.state.log_length()
        room.publish_seats()
    sender = asyncio.create_task(_send(websocket, sub))
    try:
        while True:
            received = await websocket.receive()
            if received["type"] == "websocket.disconnect":
                break
            text = received.get("text")
            if limiter is not None and not limiter.allow(client_of(websocket.scope)):
                answer = {"type": "error", "status": 429, "message": "too many messages; slow down"}
            elif text is None:  # a binary frame
                answer = {"type": "error", "status": 422, "message": "malformed message: messages are JSON text"}
            else:
                answer = await _handle(rooms, room_id, token, text)
            try:
                sub.queue.put_nowait(answer)
            except asyncio.QueueFull:  # the client sends but reads nothing: its answers fill the queue
                log.warning("a WebSocket client of room %s reads none of its %d waiting messages: closed (4429)",
                            room_id, sub.queue.qsize())
                sender.cancel()
                await asyncio.gather(sender, return_exceptions=True)
                try:
                    await websocket.close(code=4429, reason="too many messages waiting: read them")
                except Exception:  # the connection is gone already
                    pass
                break
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
        await websocket.send_text(json_text(message))


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
            raise Forbidden("a spectator cannot act; connect with a seat's token", msg=msg("nemeton.error.spectator"))
        if kind == "undo":
            snapshot = await rooms.take_back(room_id, token, version)
        elif kind == "return":
            snapshot = await rooms.come_back(room_id, token)
        else:
            snapshot = await rooms.act(room_id, token, message["action"], version, snapshot=False)
        return {"type": "ok", "version": snapshot["version"]}
    except ServerError as exc:
        error = {"type": "error", "status": exc.status, "message": str(exc), "parts": exc.parts}
        if exc.msg is not None:
            error["msg"] = exc.msg
        return error
    except Exception:
        log.exception("unexpected error on a message to room %s", room_id)
        return {"type": "error", "status": 500, "message": "internal server error"}


# ----- logs ------------------------------------------------------------------------------
_TOKEN = re.compile(r"(token=)[^&\s\"]*", re.IGNORECASE)
_QUERY = re.compile(r"\?([^\s\"#]*)")


def _redact_query(match: re.Match) -> str:
    """A query string with the value of every parameter whose name, percent-decoded as the
    server reads it (``tok%65n``), is ``token`` shown as ``***``."""
    from urllib.parse import unquote_plus
    parts = []
    for part in match.group(1).split("&"):
        name, _sep, _value = part.partition("=")
        if unquote_plus(name).strip().lower() == "token":
            part = f"{name}=***"
        parts.append(part)
    return "?" + "&".join(parts)


def redact(text: str) -> str:
    return _TOKEN.sub(r"\1***", _QUERY.sub(_redact_query, text))


class RedactTokens(logging.Filter):
    """Seat tokens travel in query strings (``?token=``): access logs show them as ``***``,
    however the parameter's name is percent-encoded."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        return True


def redact_tokens(logger: logging.Logger) -> None:
    if not any(isinstance(f, RedactTokens) for f in logger.filters):
        logger.addFilter(RedactTokens())


# ----- request size ----------------------------------------------------------------------
class BodyLimit:
    """Refuse (413) a request body larger than ``limit`` bytes, declared or streamed
    (chunked): the body is read here, at most ``limit`` bytes of it, before the application
    sees the request (which would answer a body cut short 400)."""

    def __init__(self, app: Any, limit: int):
        self.app = app
        self.limit = limit

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            return await _too_large(send, self.limit)
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client left before its body ended: nobody to answer
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > self.limit:
                return await _too_large(send, self.limit)
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        pending = [{"type": "http.request", "body": b"".join(chunks), "more_body": False}]

        async def replay() -> dict:
            return pending.pop() if pending else await receive()

        await self.app(scope, replay, send)


async def _too_large(send: Any, limit: int) -> None:
    body = json.dumps({"detail": f"request body too large (at most {limit:,} bytes)"}).encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
