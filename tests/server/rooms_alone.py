"""The server's rooms without the app: a :class:`~nemeton.server.rooms.Rooms` on a SQLite file,
for the tests of its parts (no HTTP, no WebSocket, no lifespan; the periodic tasks are not
started)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from nemeton.server.agents import AgentPolicy
from nemeton.server.db import Store, open_engine
from nemeton.server.observe import Metrics
from nemeton.server.rooms import Rooms


@contextlib.asynccontextmanager
async def rooms_on(db_url: str, agents: AgentPolicy | None = None) -> AsyncIterator[Rooms]:
    """A server process's rooms on ``db_url`` (two of them on one file: two processes)."""
    engine = open_engine(db_url)
    rooms = Rooms(Store(engine), agent_threads=1, agents=agents or AgentPolicy(any_spec=True))
    rooms.metrics = Metrics()  # each its own registry: what one process counted (counted())
    try:
        yield rooms
    finally:
        await rooms.close()
        engine.dispose()


def counted(rooms: Rooms, name: str, **labels: str) -> float:
    """The value of one of ``rooms``' metrics (``nemeton_stale_refusals_total``, ...; 0 if never counted)."""
    assert rooms.metrics is not None
    return rooms.metrics.registry.get_sample_value(name, labels) or 0.0


async def two_people(rooms: Rooms, game: str = "alarun", second: dict | None = None, **extra) -> tuple[str, dict, str]:
    """A room of two people's seats (``second``: seat 1 another kind); returns (room, {seat: token}, creator)."""
    made = await rooms.create(game, {}, [{"kind": "human", "name": "Ann"}, second or {"kind": "human", "name": "Bob"}],
                              **extra)
    return made["room"], {s["seat"]: s["token"] for s in made["seats"]}, made["creator"]
