"""Rate limiting: a token bucket per client address, for HTTP requests and WebSocket messages.

A client may send ``burst`` requests at once and ``rate`` per second on average; beyond that
it is answered 429 (over a WebSocket: an error message) until its bucket refills. Creating a
room costs far more than any other request (its options are parsed and checked, rules data
included), so ``POST /api/rooms`` also draws on a second, smaller bucket per client
(:data:`ROOM_RATE`). One server process counts on its own. The address is the connection's
peer; forwarded headers (``X-Forwarded-For``) are read only from the proxies the operator
names (``nemeton serve --forwarded-allow-ips``), never by default: a client cannot claim
another address to escape its bucket.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from typing import Any

MAX_CLIENTS = 10_000  # buckets kept before full ones are forgotten
ROOM_RATE = (2.0, 10.0)  # rooms created per second per client, and the burst


class Limiter:
    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic):
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.buckets: dict[str, tuple[float, float]] = {}  # client -> (tokens, when)

    def allow(self, client: str) -> bool:
        """Take one token from ``client``'s bucket; False when it is empty."""
        now = self.clock()
        tokens, then = self.buckets.get(client, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        if len(self.buckets) >= MAX_CLIENTS and client not in self.buckets:
            self._forget(now)
        if tokens < 1:
            self.buckets[client] = (tokens, now)
            return False
        self.buckets[client] = (tokens - 1, now)
        return True

    def _forget(self, now: float) -> None:
        """Drop the buckets that have refilled (their clients are back to a full burst)."""
        self.buckets = {c: (t, w) for c, (t, w) in self.buckets.items()
                        if t + (now - w) * self.rate < self.burst}


def client_of(scope: Mapping[str, Any]) -> str:
    client = scope.get("client")
    return client[0] if client else "unknown"


class RateLimit:
    """ASGI middleware: HTTP requests under ``/api`` and WebSocket connections count; room
    creations also count in ``rooms`` (default :data:`ROOM_RATE`; None: not separately)."""

    def __init__(self, app: Any, limiter: Limiter, rooms: Limiter | None | bool = True):
        self.app = app
        self.limiter = limiter
        self.rooms = Limiter(*ROOM_RATE, clock=limiter.clock) if rooms is True else (rooms or None)

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        counted = (scope["type"] == "http" and scope["path"].startswith("/api/")) or scope["type"] == "websocket"
        if counted and not self.limiter.allow(client_of(scope)):
            if scope["type"] == "websocket":  # accepted, then closed: the client sees why (4429)
                await _refuse_socket(receive, send)
                return
            return await _too_many(send, "too many requests; slow down and retry shortly")
        if (self.rooms is not None and scope["type"] == "http" and scope.get("method") == "POST"
                and scope["path"].rstrip("/") == "/api/rooms" and not self.rooms.allow(client_of(scope))):
            return await _too_many(send, f"too many rooms created; at most {self.rooms.rate:g} per second "
                                         f"(bursts of {self.rooms.burst:g}) per client: retry shortly")
        await self.app(scope, receive, send)


async def _too_many(send: Any, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send({"type": "http.response.start", "status": 429,
                "headers": [(b"content-type", b"application/json"), (b"retry-after", b"1"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


async def _refuse_socket(receive: Any, send: Any) -> None:
    """Complete the handshake, then close with 4429: refused at the handshake, a browser's
    client would only see a failed connection (and a 403), not that it went too fast."""
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.close", "code": 4429, "reason": "too many requests"})
