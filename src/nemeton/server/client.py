"""A bot over the network: one agent playing one seat of a room on a Nemeton server.

``nemeton bot URL --agent SPEC`` (:mod:`nemeton.cli.bot`) runs :class:`NetworkBot`: it joins
the room's WebSocket with the seat's token (from the invite link the page shows,
``http://HOST/rooms/ROOM?token=TOKEN``), and plays until the game ends, acting only when the
server lists legal actions for its seat, from the view the server sends (the agent never sees
anything else: the server builds that view with ``state.view(seat)``). A dropped connection
is retried with a bounded backoff; the server sends the current state on every connection, so
nothing is lost. The protocol it speaks is the one any client speaks (docs/server.md,
"Bots over the network"); this module is one example of it, with the Python agents.

Nothing here knows a game: views and actions are the engine's JSON forms.
"""

from __future__ import annotations

import json
import random
import secrets
import time
from dataclasses import dataclass
from typing import Any, Callable
from urllib.parse import parse_qs, urlsplit, urlunsplit

from ..agents.base import Agent, make_agent, parse_agent_spec
from ..engine import NemetonError, get_game
from ..table import is_one_of

BACKOFF_FIRST_S = 0.25   # the first wait before reconnecting; doubled at each failed attempt
BACKOFF_MOST_S = 8.0     # ... up to this
RECONNECT_FOR_S = 120.0  # give up after this long without a connection


class BotError(NemetonError):
    """The bot cannot go on: a bad link or token, a closed room, a refusal it cannot mend."""


@dataclass(frozen=True)
class Invite:
    """Where a seat is played: the room's WebSocket address (``ws://`` or ``wss://``, with
    any path prefix the server is mounted under), the room and the seat's token."""

    socket_base: str
    room: str
    token: str

    @property
    def socket_url(self) -> str:
        return f"{self.socket_base}/ws/rooms/{self.room}?token={self.token}"

    def shown(self) -> str:
        """The address without the token (for messages and logs: the token is a secret)."""
        return f"{self.socket_base}/ws/rooms/{self.room}"


def parse_invite(url: str, token: str | None = None) -> Invite:
    """The seat an invite link names (``http(s)://HOST[/PREFIX]/rooms/ROOM?token=T``; a
    ``ws(s)://.../ws/rooms/ROOM`` address works too). ``token`` given: it is the seat's token
    (the link may then omit it)."""
    parts = urlsplit(url.strip())
    schemes = {"http": "ws", "https": "wss", "ws": "ws", "wss": "wss"}
    if parts.scheme not in schemes or not parts.netloc:
        raise BotError(f"not an invite link: {url!r} (expected http://HOST/rooms/ROOM?token=TOKEN)")
    segments = [s for s in parts.path.split("/") if s]
    if "rooms" not in segments or segments.index("rooms") + 1 >= len(segments):
        raise BotError(f"the link names no room: {parts.path!r} (expected .../rooms/ROOM)")
    at = len(segments) - 1 - segments[::-1].index("rooms")
    if at + 1 >= len(segments):
        raise BotError(f"the link names no room: {parts.path!r} (expected .../rooms/ROOM)")
    room = segments[at + 1]
    prefix = segments[:at]
    if prefix[-1:] == ["ws"]:
        prefix = prefix[:-1]
    found = parse_qs(parts.query).get("token", [None])[0]
    token = token or found
    if not token:
        raise BotError("the link has no seat token: give the seat's invite link (…?token=…) or --token")
    base = urlunsplit((schemes[parts.scheme], parts.netloc, "/".join([""] + prefix), "", ""))
    return Invite(base.rstrip("/"), room, token)


@dataclass
class Outcome:
    """How the game ended for the bot's seat."""

    room: str
    seat: int
    game: str
    moves: int          # actions in the game, every seat's
    decisions: int      # this bot's actions acknowledged by the server
    scores: list[Any]
    reconnections: int


class NetworkBot:
    """Plays the seat of ``invite`` with the agent ``agent_spec`` until the game ends.

    ``say`` receives one line per event worth telling (connected, reconnecting, the end).
    ``seed`` seeds the agent's random stream (a fresh one by default)."""

    def __init__(self, invite: Invite, agent_spec: str, seed: int | None = None,
                 reconnect_for: float = RECONNECT_FOR_S, say: Callable[[str], None] = lambda _line: None):
        parse_agent_spec(agent_spec)  # a bad spec fails before any connection
        self.invite = invite
        self.agent_spec = agent_spec
        self.seed = secrets.randbits(63) if seed is None else seed
        self.reconnect_for = reconnect_for
        self.say = say
        self.agent: Agent | None = None
        self.seat: int | None = None
        self.entries: dict[int, dict[str, Any]] = {}  # the seat's log, by index
        self.observed = 0       # log entries the agent has been shown
        self.acted_on = -1      # the version of the last state the bot acted on
        self.pending = False    # an action sent, its answer not yet received
        self.decisions = 0
        self.reconnections = 0

    # ----- the connection -------------------------------------------------------------------
    def run(self) -> Outcome:
        """Connect, play, reconnect after a drop (with backoff, for at most ``reconnect_for``
        seconds without a connection); the outcome once the game has ended."""
        from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
        lost_at: float | None = None
        wait = BACKOFF_FIRST_S
        while True:
            try:
                outcome = self._session(on_connect=lambda: self._connected(lost_at is not None))
                if outcome is not None:
                    return outcome
                raise ConnectionError("the server closed the connection before the game ended")
            except InvalidURI as exc:
                raise BotError(f"not a WebSocket address: {exc}") from None
            except ConnectionClosed as exc:
                if exc.rcvd is not None and exc.rcvd.code >= 4000:  # the server refused this client
                    raise BotError(f"the server refused the seat ({exc.rcvd.code}): {exc.rcvd.reason}") from None
                problem: Exception = exc
            except (InvalidHandshake, OSError, TimeoutError, ConnectionError) as exc:
                problem = exc
            now = time.monotonic()
            if lost_at is None or self._was_connected:
                lost_at, wait = now, BACKOFF_FIRST_S
                self.say(f"connection lost ({type(problem).__name__}); reconnecting")
            self._was_connected = False
            if now - lost_at > self.reconnect_for:
                raise BotError(f"no connection to {self.invite.shown()} for {self.reconnect_for:.0f} s: "
                               f"{type(problem).__name__}: {problem}") from None
            time.sleep(wait * (0.5 + random.random() / 2))  # jittered: many bots do not come back at once
            wait = min(2 * wait, BACKOFF_MOST_S)

    _was_connected = False

    def _connected(self, again: bool) -> None:
        self._was_connected = True
        if again:
            self.reconnections += 1
        self.say(("reconnected to " if again else "connected to ") + self.invite.shown())

    def _session(self, on_connect: Callable[[], None]) -> Outcome | None:
        """One connection: play on it until the game ends (the outcome) or it closes (None)."""
        from websockets.sync.client import connect
        with connect(self.invite.socket_url, open_timeout=10, max_size=None) as ws:
            on_connect()
            # an action sent on a lost connection: the state sent on connecting says what came of it
            # (applied: the version has moved on; lost: the bot acts again on that version)
            self.pending, self.acted_on = False, -1
            state: dict[str, Any] | None = None
            for text in ws:
                message = json.loads(text)
                kind = message.get("type")
                if kind == "state":
                    state = self._take_state(message)
                elif kind in ("ok", "error"):
                    self._take_answer(message)
                if state is not None and state["terminal"] and not self.pending:
                    return self._outcome(state)  # its last action's answer read (the state comes first)
                if state is not None and self._should_act(state):
                    ws.send(json.dumps({"type": "action", "action": self._decide(state),
                                        "version": state["version"]}))
                    self.pending = True
                    self.acted_on = state["version"]
        return None

    # ----- the messages ---------------------------------------------------------------------
    def _take_state(self, message: dict[str, Any]) -> dict[str, Any]:
        seat = message["view"].get("seat")  # pushed states carry the view's seat (the first one says it too)
        if seat is None:
            raise BotError("this token names no seat (the server sent the spectator's view)")
        if self.agent is None:
            self.seat = seat
            game = get_game(message["view"]["game"])
            self.agent = make_agent(self.agent_spec, game, seat, self.seed)
            self.say(f"playing seat {seat} of {game.title} as {self.agent}")
        if message.get("resync"):  # a take-back or a lag: the log is sent whole again
            self.entries.clear()
            self.observed = 0
        for entry in message.get("log", []):
            self.entries[entry["i"]] = entry
        return message

    def _take_answer(self, message: dict[str, Any]) -> None:
        self.pending = False
        if message["type"] == "ok":
            self.decisions += 1
        elif message.get("status") != 409:  # 409: the room moved on (stale, not our turn): the next state says
            raise BotError(f"the server refused the bot's message ({message.get('status')}): {message.get('message')}")

    def _should_act(self, state: dict[str, Any]) -> bool:
        return (not self.pending and not state["terminal"] and bool(state["legal_actions"])
                and state["version"] != self.acted_on)

    def _decide(self, state: dict[str, Any]) -> dict[str, Any]:
        """The agent's choice among the listed legal actions, from the seat's view only."""
        assert self.agent is not None
        spec = self.agent.game
        legal = [spec.action_from_json(a) for a in state["legal_actions"]]
        if self.agent.needs_log:
            news = [self.entries[i] for i in sorted(self.entries) if i >= self.observed]
            self.observed = max(self.entries, default=-1) + 1
            self.agent.observe(news)
        action = self.agent.act(state["view"], legal)
        if not is_one_of(action, legal):
            raise BotError(f"the agent {self.agent} chose {action}, which is not one of the legal actions")
        return action.to_json()

    def _outcome(self, state: dict[str, Any]) -> Outcome:
        view = state["view"]
        return Outcome(self.invite.room, view["seat"], view["game"], state["moves"], self.decisions,
                       list(view.get("scores", [])), self.reconnections)
