"""Root-parallel ISMCTS: one decision searched by several processes at once.

Each helper process keeps its own copy of the search agent (built once per agent settings,
reused across decisions) and searches the same view with its own random stream, drawn per
decision from the deciding agent's stream (so ``iterations=N`` decisions stay reproducible
for a fixed seed). The deciding process searches too; the root children's visits and rewards
are summed and the most visited merged action is played (Chaslot, Winands & van den Herik,
"Parallel Monte-Carlo Tree Search", 2008: root parallelisation, the simplest scheme and, in
their measurements, the strongest of the simple ones).

The helpers live in a process pool owned by the agent: started at its first parallel
decision, kept alive across decisions (a decision costs one pickled view out and one list of
root statistics back, not a process start) and shut down by the agent's ``close()`` or when
the agent is garbage collected.

How helpers start (:func:`set_start_method`): by default ``fork`` where the platform has it
(milliseconds, and the already imported game modules, and any game registered at run time,
are shared). A process that must not be copied into its helpers, a game server holding
listening and client sockets and running threads, sets ``spawn``: a helper is then a fresh
interpreter that inherits no file descriptor but its own pipes. Either way a helper watches
the process that started it and exits as soon as that process is gone, even when it was
killed without shutting its pools down (Linux: a pidfd of the parent, else its parent's id
checked every half second). :func:`close_all` stops every pool of this process.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import select
import threading
import weakref
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, Mapping

from ..engine import get_game

# Root statistics of one helper's search: (iterations, settled, [(action, visits, reward), ...]).
RootStats = tuple[int, bool, list[tuple[Any, int, float]]]

_HELPER_AGENTS: dict[tuple, Any] = {}  # in a helper process: one search agent per (game, seat, settings)


def _helper_search(game: str, seat: int, settings: tuple, seed: int, view: Mapping[str, Any],
                   iterations: int | None, deadline: float | None) -> RootStats:
    """Runs in a helper process: one search of ``view`` with the random stream ``seed``."""
    from .ismcts import ISMCTSAgent
    key = (game, seat, settings)
    agent = _HELPER_AGENTS.get(key)
    if agent is None:
        agent = _HELPER_AGENTS[key] = ISMCTSAgent(get_game(game), seat, random.Random(0), **dict(settings))
    agent.rng = random.Random(seed)
    root = agent.search_alone(view, iterations, deadline)
    return agent.last_iterations, agent.last_settled, [(a, n.visits, n.reward) for a, n in root.children.items()]


def _watch_parent(parent: int) -> None:
    """A helper's initializer: exit as soon as ``parent`` (the process that started the pool)
    is gone, however it ended. The parent is watched as a process, by a pidfd where Linux
    has them (woken at once), else by polling the parent's id; PR_SET_PDEATHSIG is not used:
    it fires when the *thread* that started the helper ends (a pool started from a worker
    thread would lose its helpers with that thread), not when the process does."""
    if os.getppid() != parent:  # already gone while this one started
        os._exit(0)

    def watch() -> None:
        try:
            fd = os.pidfd_open(parent)
        except (AttributeError, OSError):
            fd = None
        if fd is not None:
            poller = select.poll()
            poller.register(fd, select.POLLIN)
            while not poller.poll():
                pass
            os._exit(0)
        while os.getppid() == parent:
            threading.Event().wait(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="nemeton-watch-parent", daemon=True).start()


_START_METHOD: str | None = None  # None: fork where available, else the platform's default
_POOLS: "weakref.WeakSet[HelperPool]" = weakref.WeakSet()


def set_start_method(method: str | None) -> None:
    """How this process starts the helpers of pools created from now on: ``"spawn"``,
    ``"forkserver"``, ``"fork"``, or None for the default (fork where available)."""
    global _START_METHOD
    if method is not None and method not in multiprocessing.get_all_start_methods():
        raise ValueError(f"no start method {method!r} here: {', '.join(multiprocessing.get_all_start_methods())}")
    _START_METHOD = method


def start_method() -> str:
    return _context().get_start_method()


def _context():
    if _START_METHOD is not None:
        return multiprocessing.get_context(_START_METHOD)
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else None)


def close_all() -> None:
    """Stop the helpers of every pool of this process (a server shutting down)."""
    for pool in list(_POOLS):
        pool.close()


class HelperPool:
    """``helpers`` processes searching for one agent; closed by :meth:`close` or at garbage
    collection of the owner."""

    def __init__(self, owner: object, helpers: int):
        self.helpers = helpers
        self._pool = ProcessPoolExecutor(max_workers=helpers, mp_context=_context(), initializer=_watch_parent,
                                         initargs=(os.getpid(),))
        self._finalizer = weakref.finalize(owner, self._pool.shutdown, wait=False, cancel_futures=True)
        _POOLS.add(self)

    def submit(self, game: str, seat: int, settings: Mapping[str, Any], seeds: list[int],
               view: Mapping[str, Any], iterations: list[int | None], deadline: float | None) -> list[Future]:
        frozen = tuple(sorted(settings.items()))
        return [self._pool.submit(_helper_search, game, seat, frozen, seed, view, n, deadline)
                for seed, n in zip(seeds, iterations)]

    def close(self) -> None:
        self._finalizer()

    @property
    def closed(self) -> bool:
        return not self._finalizer.alive
