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
"""

from __future__ import annotations

import multiprocessing
import random
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


def _die_with_parent() -> None:
    """A helper ends when the deciding process ends, even when that one is killed without
    shutting its pool down (Linux; elsewhere the pool's own shutdown is relied on)."""
    try:
        import ctypes
        import signal
        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _context():
    # fork starts a helper in milliseconds and shares the already imported game modules (and
    # any game registered at run time); elsewhere the platform's default (spawn) is used
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else None)


class HelperPool:
    """``helpers`` processes searching for one agent; closed by :meth:`close` or at garbage
    collection of the owner."""

    def __init__(self, owner: object, helpers: int):
        self.helpers = helpers
        self._pool = ProcessPoolExecutor(max_workers=helpers, mp_context=_context(), initializer=_die_with_parent)
        self._finalizer = weakref.finalize(owner, self._pool.shutdown, wait=False, cancel_futures=True)

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
