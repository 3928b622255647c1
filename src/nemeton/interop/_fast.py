"""One game on one slot of its compiled kernel, for the single environments (PettingZoo's
AEC and Gymnasium's).

Both environments take ``engine=``: ``"fast"`` steps the game's kernel
(:mod:`nemeton.engine.kernel`, a batch of one game), ``"reference"`` the Python rules, and
``"auto"`` (the default) the kernel when Numba imports and the kernel implements the options
(and, in Gymnasium, the opponents), else the rules. Both engines give the same games for the
same seeds: the kernel deals what ``spec.new_state(options, seed)`` deals, its observation is
the reference encoder's, its mask the reference's legal actions and its random and heuristic
players choose what ``RandomAgent`` and ``HeuristicAgent`` choose from the same seeds
(``tests/rl/test_fast_envs.py`` compares whole trajectories).

The kernel keeps the game in arrays; a reference :class:`~nemeton.engine.State` is read back
from it only where one is asked for (``env.state``, views, rendering): a copy, costly (tens of
microseconds) but rare, without the game's history or event log.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from ..engine import GameOptions, GameSpec, State

ENGINES = ("auto", "fast", "reference")


def check_engine(engine: Any) -> str:
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(map(repr, ENGINES))}; got {engine!r}")
    return engine


def kernel_game(spec: GameSpec, options: GameOptions, engine: str,
                opponents: Sequence[str] | None = None) -> "KernelGame | None":
    """The kernel slot ``engine`` asks for, or None for the reference rules. ``opponents``:
    the agent specs the kernel must play (Gymnasium's); an engine the kernel cannot serve is
    a clear error under ``"fast"`` and the reference under ``"auto"``."""
    if check_engine(engine) == "reference":
        return None
    try:
        import numba  # noqa: F401
    except ImportError:
        if engine == "fast":
            raise ImportError("engine='fast' needs Numba: pip install 'nemeton[fast]'") from None
        return None
    from ..engine.kernel import KernelUnsupported
    try:
        return KernelGame(spec, options, opponents)
    except KernelUnsupported as exc:
        if engine == "fast":
            raise KernelUnsupported(f"{exc} (engine='fast'; engine='reference' or 'auto' plays it)") from None
        return None


class KernelGame:
    """A game in slot 0 of ``spec``'s kernel (B = 1), with the arrays every step uses made
    once. ``opponents``: one agent spec per seat the kernel plays inside :meth:`play_on`
    (None for the seats played from outside), or None when no seat is played inside."""

    def __init__(self, spec: GameSpec, options: GameOptions, opponents: Sequence[str] | None = None):
        from ..engine import mt
        from ..engine.kernel import NO_STOP, KernelUnsupported, kernel_policies
        if spec.kernel is None:
            raise KernelUnsupported(f"{spec.name} has no compiled kernel")
        if opponents is not None:
            kernel_policies(opponents)  # refuses an agent the kernel cannot play, before compiling
        self.kernel = kernel = spec.kernel()(options, 1)
        self.players = n = options.players
        self.num_actions = kernel.num_actions
        self.observation_size = kernel.observation_size
        self._action = np.zeros(1, dtype=np.int64)
        self._seats = [np.array([s], dtype=np.int64) for s in range(n)]
        # the kernel's per-seat random streams (``mt``) and playout arguments, made once
        self.streams = np.zeros((1, n, mt.STREAM_WORDS), dtype=np.uint32)
        self.policies = np.zeros((1, n), dtype=np.int64)
        self._stop_round = np.full(1, NO_STOP, dtype=np.int64)
        self._counts = np.zeros((1, 2), dtype=np.int64)

    def deal(self, seed: int) -> None:
        """The game ``spec.new_state(options, seed)`` deals."""
        self.kernel.deal([seed])

    def current_player(self) -> int:
        """The seat to act (the lowest acting seat), TERMINAL (-1) once the game is over."""
        return int(self.kernel.current_player()[0])

    def observe(self, seat: int) -> np.ndarray:
        """A new float32 array: ``encode(view(seat))``."""
        out = np.empty((1, self.observation_size), dtype=np.float32)
        self.kernel.observe(self._seats[seat], out)
        return out[0]

    def mask(self) -> np.ndarray:
        """A new bool array: the legal actions of the seat to act (none once over)."""
        out = np.empty((1, self.num_actions), dtype=np.bool_)
        self.kernel.legal_mask(out)
        return out[0]

    def step(self, action: int) -> None:
        """Apply ``action`` (an id legal for the seat to act: checked by the caller)."""
        self._action[0] = action
        self.kernel.step(self._action)

    def returns(self) -> list[float]:
        return [float(x) for x in self.kernel.outcome().returns[0]]

    def read(self) -> State:
        """The reference state equal to the slot (a copy; no history or event log)."""
        return self.kernel.read(0)

    def seat_players(self, external: int, opponents: Sequence[str], seeds: Sequence[int]) -> None:
        """Seat ``external`` is played from outside; every other seat, in seat order, by the
        agent ``opponents[k]`` drawing from a stream seeded with ``seeds[k]`` (as
        ``make_agent(spec, seat, seed)`` seeds its ``random.Random``)."""
        from ..engine import mt
        from ..engine.kernel import EXTERNAL, kernel_policies
        policies = iter(kernel_policies(opponents))
        agent_seeds = iter(seeds)
        for s in range(self.players):
            if s == external:
                self.policies[0, s] = EXTERNAL
            else:
                self.policies[0, s] = next(policies)
                mt.seed(self.streams[0, s], next(agent_seeds))

    def play_on(self) -> None:
        """The seats of :meth:`seat_players` play until the external seat is to act or the
        game is over. (The protocol's ``_playout``, with the arrays checked and made once:
        ``playout`` would check and make them at every step.)"""
        self.kernel._playout(self.policies, self.streams, -1, self._stop_round, self._counts)
