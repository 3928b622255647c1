"""Analyses: a finished game's decisions judged by the search, worked out in the background.

``POST /api/rooms/{room}/analysis`` starts :func:`nemeton.teacher.analyse_record` on the
finished game's record (anyone may: a finished game's replay is open to all); ``GET`` the same
address says how far it is, then gives the analysis. The analysis judges every decision from
its seat's view at that moment (the teacher's promise: never the hidden cards as they were).

Several server processes may share one database, so an analysis being worked out is a row of
the database (``analysis_jobs``), not a thing of one process: its state, its decisions done of
total (written by the process running it every :attr:`Analyses.beat` seconds, with the time:
its heartbeat) and that process (:attr:`Analyses.owner`). Every process answers from that row,
so they all tell the same progress; a process starts an analysis only by claiming the row in
one transaction (:meth:`~nemeton.server.db.Store.claim_analysis`), so only one runs it. A job
whose process has not been heard of for :attr:`Analyses.lease` seconds (it died) is taken over
by the next process asked about it; a process that stops gives its jobs up at once. Once
worked out, the analysis is stored with the game (the ``analyses`` table) and its job ends, so
it is served from there afterwards, by any process and after a restart.

At most :attr:`Analyses.capacity` analyses run at once in a process (each on a thread of this
part's own pool, so that they never hold up the agents' moves), one per room. A stopping
server stops them at their next decision (their progress callback raises).

:class:`Analyses` is one part of :class:`~nemeton.server.rooms.Rooms` (``rooms.analyses``).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import secrets
import socket
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any

from ..i18n import msg
from .errors import Conflict
from .hints import Busy

if TYPE_CHECKING:
    from ..engine import GameRecord
    from .db import AnalysisJob
    from .rooms import Room, Rooms

log = logging.getLogger("nemeton.server")

FAILED = "the analysis failed (the server's log says why); ask again to retry"


class Stopped(Exception):
    """The server is stopping, or the job is no longer this process's: the analysis ends at
    its next decision."""


@dataclass
class Job:
    """An analysis running in this process: decisions done of total (what the heartbeat writes)."""
    done: int
    total: int
    task: asyncio.Task | None = None
    lost: bool = False  # the job was taken over (or ended) by another process meanwhile


def job_state(job: AnalysisJob) -> dict[str, Any]:
    if job.state == "failed":
        return {"state": "failed", "message": job.message or FAILED}
    return {"state": "running", "done": job.done, "total": job.total}


class Analyses:
    """The analyses of this server's finished games: started, followed, stored."""

    lease = 20.0  # seconds without a heartbeat after which another process takes a job over
    beat = 1.0  # seconds between the heartbeats (with the progress) of a job running here

    def __init__(self, server: Rooms, capacity: int = 1):
        self.server = server
        self.capacity = capacity
        # this process, as the jobs' rows name it (two apps of one process are two owners)
        self.owner = f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(4)}"
        self.jobs: dict[str, Job] = {}  # room -> its analysis running in this process
        self.threads = ThreadPoolExecutor(max_workers=capacity, thread_name_prefix="nemeton-analysis")
        self.stopping = False
        self.iterations: int | None = None  # the search's budget per decision (None: the teacher's default)

    def running(self) -> int:
        return len(self.jobs)

    def _stale_before(self) -> datetime:
        return datetime.now(timezone.utc) - timedelta(seconds=self.lease)

    async def state(self, room_id: str) -> dict[str, Any]:
        """``{"state": "done", "analysis": {...}}``, ``{"state": "running", "done": d, "total":
        t}``, ``{"state": "failed", "message": ...}`` or, never asked for, ``{"state": "none"}``;
        the same in every process. A job whose process is gone is taken over here if this
        process has room for it."""
        room = await self.server.get(room_id)
        store = self.server.store
        stored = await asyncio.to_thread(store.load_analysis, room.id)
        if stored is not None:
            return {"state": "done", "analysis": stored}
        if not room.terminal:
            raise Conflict("a game is analysed once it has ended", msg=msg("nemeton.error.analysis_after_end"))
        job = await asyncio.to_thread(store.analysis_job, room.id)
        if job is None:
            return {"state": "none"}
        if job.state == "running" and not job.alive(self._stale_before()) and self.running() < self.capacity:
            return await self._claim(room)
        return job_state(job)

    async def start(self, room_id: str) -> dict[str, Any]:
        """Start analysing a finished game (if it is neither analysed nor being analysed by any
        process); its state as :meth:`state` says it."""
        room = await self.server.get(room_id)
        if not room.terminal:
            raise Conflict("a game is analysed once it has ended", msg=msg("nemeton.error.analysis_after_end"))
        store = self.server.store
        stored = await asyncio.to_thread(store.load_analysis, room.id)
        if stored is not None:
            return {"state": "done", "analysis": stored}
        job = await asyncio.to_thread(store.analysis_job, room.id)
        if job is not None and job.alive(self._stale_before()):
            return job_state(job)
        if self.running() >= self.capacity:
            raise Busy(msg=msg("nemeton.error.busy"), message=f"the server is analysing {self.running()} game{'s' if self.running() != 1 else ''} "
                       "already; try again in a minute")
        return await self._claim(room)

    async def _claim(self, room: Room) -> dict[str, Any]:
        """Run the room's analysis here if no other process does (claimed in the database);
        answers its state, whoever runs it."""
        async with room.lock:
            record = room.table.state.record()
        total = sum(1 for _ in record.actions)
        store = self.server.store
        if room.id in self.jobs or not await asyncio.to_thread(
                store.claim_analysis, room.id, self.owner, total, self._stale_before()):
            stored = await asyncio.to_thread(store.load_analysis, room.id)
            if stored is not None:
                return {"state": "done", "analysis": stored}
            row = await asyncio.to_thread(store.analysis_job, room.id)
            return {"state": "none"} if row is None else job_state(row)
        job = self.jobs[room.id] = Job(0, total)
        job.task = asyncio.get_running_loop().create_task(self._run(room.id, record, job))
        return {"state": "running", "done": 0, "total": total}

    async def _run(self, room_id: str, record: GameRecord, job: Job) -> None:
        def progress(done: int, total: int) -> None:  # on the analysis' thread
            if self.stopping or job.lost:
                raise Stopped
            job.done, job.total = done, total

        beating = asyncio.get_running_loop().create_task(self._beat(room_id, job))
        try:
            from .. import teacher
            budget = {} if self.iterations is None else {"iterations": self.iterations}
            analyse = functools.partial(teacher.analyse_record, record, progress=progress, **budget)
            analysis = await asyncio.get_running_loop().run_in_executor(self.threads, analyse)
            await asyncio.to_thread(self.server.store.save_analysis, room_id, analysis.to_json())
        except (Stopped, asyncio.CancelledError):
            pass  # stopping (close() gives the job up) or no longer ours
        except Exception as exc:
            # only the error's kind: its message could quote a seat's hidden cards
            log.error("the analysis of room %s failed (%s)", room_id, type(exc).__name__)
            await asyncio.to_thread(self.server.store.fail_analysis, room_id, self.owner, FAILED)
        finally:
            beating.cancel()
            self.jobs.pop(room_id, None)

    async def _beat(self, room_id: str, job: Job) -> None:
        """Every :attr:`beat` seconds: the job's progress and this process's sign of life in
        its row; a job that is no longer this process's stops at its next decision."""
        while not job.lost:
            await asyncio.sleep(self.beat)
            try:
                mine = await asyncio.to_thread(self.server.store.beat_analysis, room_id, self.owner,
                                               job.done, job.total)
            except Exception as exc:  # the lease gives it a few more tries
                log.warning("the heartbeat of room %s's analysis failed (%s)", room_id, type(exc).__name__)
                continue
            if not mine:
                job.lost = True

    async def close(self) -> None:
        """The server stops: running analyses end at their next decision, their threads with
        them, and their jobs are given up for another process (or this one restarted) to take over."""
        self.stopping = True
        tasks = [j.task for j in self.jobs.values() if j.task is not None and not j.task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.to_thread(self.threads.shutdown, wait=True, cancel_futures=True)
        try:
            await asyncio.to_thread(self.server.store.release_analyses, self.owner)
        except Exception as exc:  # their lease runs out instead
            log.warning("giving up this process's analyses failed (%s)", type(exc).__name__)
