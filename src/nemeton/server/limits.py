"""Rate limiting: a token bucket per client address, for HTTP requests and WebSocket messages.

A client may send ``burst`` requests at once and ``rate`` per second on average; beyond that
it is answered 429 (over a WebSocket: an error message) until its bucket refills. One server
process counts on its own; behind a proxy, run uvicorn with the proxy's forwarded headers so
that the address is the client's, not the proxy's.
"""

from __future__ import annotations

import json
import time
from typing import Any, Callable

MAX_CLIENTS = 10_000  # buckets kept before full ones are forgotten


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


def client_of(scope: dict) -> str:
    client = scope.get("client")
    return client[0] if client else "unknown"


class RateLimit:
    """ASGI middleware: HTTP requests under ``/api`` and WebSocket connections count."""

    def __init__(self, app: Any, limiter: Limiter):
        self.app = app
        self.limiter = limiter

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        counted = (scope["type"] == "http" and scope["path"].startswith("/api/")) or scope["type"] == "websocket"
        if counted and not self.limiter.allow(client_of(scope)):
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 4429, "reason": "too many requests"})
                return
            body = json.dumps({"detail": "too many requests; slow down and retry shortly"}).encode()
            await send({"type": "http.response.start", "status": 429,
                        "headers": [(b"content-type", b"application/json"), (b"retry-after", b"1"),
                                    (b"content-length", str(len(body)).encode())]})
            await send({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive, send)
