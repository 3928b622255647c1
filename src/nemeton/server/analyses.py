"""Analyses: a finished game's decisions judged by the search, worked out in the background.

``POST /api/rooms/{room}/analysis`` starts :func:`nemeton.teacher.analyse_record` on the
finished game's record (anyone may: a finished game's replay is open to all); ``GET`` the same
address says how far it is, then gives the analysis. The analysis judges every decision from
its seat's view at that moment (the teacher's promise: never the hidden cards as they were).
Once worked out it is stored with the game (the ``analyses`` table), so it is served from
there afterwards, by any process and after a restart.

At most :attr:`Analyses.capacity` analyses run at once on a server (each on a thread of this
part's own pool, so that they never hold up the agents' moves), one per room. A stopping
server stops them at their next decision (their progress callback raises): nothing outlives it.

:class:`Analyses` is one part of :class:`~nemeton.server.rooms.Rooms` (``rooms.analyses``).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .errors import Conflict
from .hints import Busy

if TYPE_CHECKING:
    from ..engine import GameRecord
    from .rooms import Rooms

log = logging.getLogger("nemeton.server")


class Stopped(Exception):
    """The server is stopping: the analysis ends at its next decision."""


@dataclass
class Job:
    """An analysis being worked out: decisions done of total, or why it failed."""
    done: int
    total: int
    task: asyncio.Task | None = None
    failed: str | None = None

    def state(self) -> dict[str, Any]:
        if self.failed is not None:
            return {"state": "failed", "message": self.failed}
        return {"state": "running", "done": self.done, "total": self.total}


class Analyses:
    """The analyses of this server's finished games: started, followed, stored."""

    def __init__(self, server: Rooms, capacity: int = 1):
        self.server = server
        self.capacity = capacity
        self.jobs: dict[str, Job] = {}  # room -> its analysis running here (or failed, until asked again)
        self.threads = ThreadPoolExecutor(max_workers=capacity, thread_name_prefix="nemeton-analysis")
        self.stopping = False
        self.iterations: int | None = None  # the search's budget per decision (None: the teacher's default)

    def running(self) -> int:
        return sum(1 for j in self.jobs.values() if j.failed is None)

    async def state(self, room_id: str) -> dict[str, Any]:
        """``{"state": "done", "analysis": {...}}``, ``{"state": "running", "done": d, "total":
        t}``, ``{"state": "failed", "message": ...}`` or, never asked for, ``{"state": "none"}``."""
        room = await self.server.get(room_id)
        job = self.jobs.get(room.id)
        if job is not None and job.failed is None:
            return job.state()
        stored = await asyncio.to_thread(self.server.store.load_analysis, room.id)
        if stored is not None:
            return {"state": "done", "analysis": stored}
        if not room.terminal:
            raise Conflict("a game is analysed once it has ended")
        return job.state() if job is not None else {"state": "none"}

    async def start(self, room_id: str) -> dict[str, Any]:
        """Start analysing a finished game (if it is neither analysed nor being analysed);
        its state as :meth:`state` says it."""
        room = await self.server.get(room_id)
        async with room.lock:
            if not room.terminal:
                raise Conflict("a game is analysed once it has ended")
            record = room.table.state.record()
        job = self.jobs.get(room.id)
        if job is not None and job.failed is None:
            return job.state()
        stored = await asyncio.to_thread(self.server.store.load_analysis, room.id)
        if stored is not None:
            return {"state": "done", "analysis": stored}
        if self.running() >= self.capacity:
            raise Busy(f"the server is analysing {self.running()} game{'s' if self.running() != 1 else ''} "
                       "already; try again in a minute")
        job = self.jobs[room.id] = Job(0, sum(1 for _ in record.actions))
        job.task = asyncio.get_running_loop().create_task(self._run(room.id, record, job))
        return job.state()

    async def _run(self, room_id: str, record: GameRecord, job: Job) -> None:
        def progress(done: int, total: int) -> None:  # on the analysis' thread
            if self.stopping:
                raise Stopped
            job.done, job.total = done, total

        try:
            from .. import teacher
            budget = {} if self.iterations is None else {"iterations": self.iterations}
            analyse = functools.partial(teacher.analyse_record, record, progress=progress, **budget)
            analysis = await asyncio.get_running_loop().run_in_executor(self.threads, analyse)
            await asyncio.to_thread(self.server.store.save_analysis, room_id, analysis.to_json())
            del self.jobs[room_id]  # from now on served from the database
        except (Stopped, asyncio.CancelledError):
            self.jobs.pop(room_id, None)
        except Exception as exc:
            # only the error's kind: its message could quote a seat's hidden cards
            log.error("the analysis of room %s failed (%s)", room_id, type(exc).__name__)
            job.failed = "the analysis failed (the server's log says why); ask again to retry"

    async def close(self) -> None:
        """The server stops: running analyses end at their next decision, their threads with them."""
        self.stopping = True
        tasks = [j.task for j in self.jobs.values() if j.task is not None and not j.task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.to_thread(self.threads.shutdown, wait=True, cancel_futures=True)
