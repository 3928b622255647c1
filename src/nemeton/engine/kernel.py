"""The compiled core's protocol: a game's batched kernel (``games/<g>/kernel.py``).

A kernel is a second implementation of a game's rules, written for speed with Numba: the
state of B games lives in NumPy arrays (one array per field, a leading batch axis) and
compiled functions deal, list legal actions, apply actions, score and encode all B games at
once. The Python rules stay the reference, the gate for secrets and what the server plays;
a kernel must agree with them exactly, which ``tests/kernel/`` proves differentially (same
seed, same deal; after every step the same legal mask, returns and state; the same
observation as the reference encoder for every seat).

Everything here is the part every game shares:

- :class:`Kernel`, the API each game's kernel class implements (action ids are the ids of
  ``spec.action_space(options)``; seats act in the order a table of agents asks them, the
  lowest acting seat first);
- :class:`KernelUnsupported`, the refusal of an option a kernel does not implement (it names
  the option: never silently different);
- :func:`compile_notice`, which tells a person the first use is compiling (and then how long
  it took) instead of hanging silently; compiled code is cached on disk by Numba (``cache=True``), and
  ``NUMBA_DISABLE_JIT=1`` runs the same code as plain Python for debugging.

The random streams the rules draw from are CPython's Mersenne Twister, mirrored in
:mod:`nemeton.engine.mt`, so a kernel deals what the reference deals for a seed and a random
agent inside it chooses what ``RandomAgent`` chooses for its seed.

NumPy and Numba are the ``fast`` extra (``pip install 'nemeton[fast]'``); the engine imports
this module only when a kernel is asked for (``GameSpec.kernel``).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from abc import ABC, abstractmethod
from typing import Any, Callable, Mapping, NamedTuple, Sequence

import numpy as np

from .errors import NemetonError
from .options import GameOptions
from .state import State

RANDOM, HEURISTIC = 0, 1  # playout policies inside a kernel
# A seat played from outside the kernel (a learner, a person, a search's tree): a playout
# stops a slot, before acting, when that seat is to act there.
EXTERNAL = -1
POLICIES = {"random": RANDOM, "heuristic": HEURISTIC}
NO_STOP = -1  # stop_round value of a slot a playout does not cut off by round


class KernelUnsupported(NemetonError):
    """A game option (or value) the compiled kernel does not implement."""


def jit_disabled() -> bool:
    return os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0")


_warmed: set[str] = set()


def compile_notice(name: str, warm: Callable[[], Any], stream: Any = None, after: float = 2.0) -> float:
    """Run ``warm`` (a call of every compiled function on a tiny batch) once per process.
    The first use compiles (tens of seconds), later ones load Numba's on-disk cache in about
    a second; when ``warm`` is still running after ``after`` seconds, say on ``stream``
    (stderr) that the kernel is compiling, then how long it took. Returns the seconds."""
    if name in _warmed:
        return 0.0
    out = sys.stderr if stream is None else stream
    started = time.perf_counter()
    said = threading.Event()

    def say() -> None:
        said.set()
        print(f"Compiling the {name} kernel (first use only: it is cached on disk for later runs)...",
              file=out, flush=True)

    timer = threading.Timer(after, say)
    timer.daemon = True
    if not jit_disabled():
        timer.start()
    try:
        warm()
    finally:
        timer.cancel()
    seconds = time.perf_counter() - started
    _warmed.add(name)
    if said.is_set():
        print(f"The {name} kernel is compiled ({seconds:.1f} s).", file=out, flush=True)
    return seconds


class Outcome(NamedTuple):
    """(B, players) arrays: scores (float64), winners (bool), returns (float64)."""

    scores: np.ndarray
    winners: np.ndarray
    returns: np.ndarray


class Kernel(ABC):
    """B games of one game, with fixed options, in NumPy arrays (see the module docstring).

    Subclasses set :attr:`game`, :attr:`players`, :attr:`num_actions` and
    :attr:`observation_size` in ``__init__``, refuse unsupported options there with
    :class:`KernelUnsupported`, and implement the methods below. Per-slot arrays are public
    attributes so that search and learning (issue 27) can call the compiled functions on
    them directly without copying states through Python per step."""

    game: str
    options: GameOptions
    batch: int
    players: int
    num_actions: int
    observation_size: int

    # -- setting up games ----------------------------------------------------------------
    @abstractmethod
    def deal(self, seeds: Sequence[int] | np.ndarray, slots: Sequence[int] | np.ndarray | None = None) -> None:
        """Deal a new game in each of ``slots`` (default all) from its seed: the game
        ``spec.new_state(options, seed)`` deals."""

    @abstractmethod
    def load(self, slot: int, state: State) -> None:
        """Copy a reference state (same options) into ``slot``, its random stream included."""

    @abstractmethod
    def read(self, slot: int) -> State:
        """The reference state equal to ``slot`` (it continues exactly as the slot would).
        Its event log is not rebuilt: the kernel keeps no events."""

    # -- playing ---------------------------------------------------------------------------
    @abstractmethod
    def current_player(self) -> np.ndarray:
        """(B,) int: each slot's lowest acting seat, ``TERMINAL`` (-1) once it has ended."""

    @abstractmethod
    def legal_mask(self, out: np.ndarray | None = None) -> np.ndarray:
        """(B, num_actions) bool: the legal actions of each slot's current player."""

    @abstractmethod
    def legal_ids(self, slot: int) -> np.ndarray:
        """The ids of ``slot``'s legal actions in the order the reference lists them
        (``state.legal_actions(seat)``), which is what a random agent chooses among."""

    @abstractmethod
    def step(self, actions: np.ndarray) -> None:
        """Apply ``actions[i]`` (an action id, legal for slot i's current player) in every
        slot that has not ended; ended slots ignore theirs (pass -1)."""

    @abstractmethod
    def terminal(self) -> np.ndarray:
        """(B,) bool."""

    @abstractmethod
    def outcome(self) -> "Outcome":
        """Every slot's scores, winners and returns at once (one compiled pass)."""

    def returns(self) -> np.ndarray:
        """(B, players) float64: ``state.returns()`` of each ended slot (0 for the others)."""
        return self.outcome().returns

    def scores(self) -> np.ndarray:
        """(B, players) float64: ``state.scores()``."""
        return self.outcome().scores

    def winners(self) -> np.ndarray:
        """(B, players) bool: ``state.winners()`` of each ended slot."""
        return self.outcome().winners

    @abstractmethod
    def observe(self, seats: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """(B, observation_size) float32: slot i's observation for seat ``seats[i]``, equal
        to the reference encoder's ``encode(state.view(seat))``."""

    def playout(self, policies: np.ndarray, streams: np.ndarray, max_steps: int = -1,
                stop_round: np.ndarray | None = None) -> np.ndarray:
        """Play every slot on with a policy per seat, seat ``s`` of slot ``i`` drawing from
        ``streams[i, s]`` (an ``mt`` stream). ``policies`` is (players,) (the same in every
        slot) or (B, players), each :data:`RANDOM` (as ``RandomAgent`` chooses:
        ``legal[randbelow(len(legal))]`` over the reference's order), :data:`HEURISTIC` (the
        game heuristic's ``choose``) or :data:`EXTERNAL`. A slot stops, before acting, at the
        first of: its end; ``max_steps`` actions (-1: no limit); a seat whose policy is
        :data:`EXTERNAL` to act; with ``stop_round`` ((B,) int64), its reference
        ``state.round`` reaching ``stop_round[i]`` (:data:`NO_STOP`: never), the cut-off
        of a search's playouts. Returns (B, 2) int64: steps taken and decisions with more than
        one legal action."""
        policies = np.asarray(policies, dtype=np.int64)
        if policies.ndim == 1:
            policies = np.ascontiguousarray(np.broadcast_to(policies, (self.batch, policies.shape[0])))
        if policies.shape != (self.batch, self.players):
            raise ValueError(f"playout: policies of shape {policies.shape}, not ({self.players},) or "
                             f"({self.batch}, {self.players})")
        if stop_round is None:
            stop_round = np.full(self.batch, NO_STOP, dtype=np.int64)
        else:
            stop_round = np.asarray(stop_round, dtype=np.int64)
        counts = np.zeros((self.batch, 2), dtype=np.int64)
        self._playout(policies, streams, int(max_steps), stop_round, counts)
        return counts

    @abstractmethod
    def _playout(self, policies: np.ndarray, streams: np.ndarray, max_steps: int, stop_round: np.ndarray,
                 counts: np.ndarray) -> None:
        """:meth:`playout` with its arguments checked: ``policies`` (B, players) int64,
        ``stop_round`` (B,) int64; writes ``counts`` (B, 2)."""

    def evaluate(self, kind: str = "heuristic", out: np.ndarray | None = None) -> np.ndarray:
        """(B, players) float64: each slot's estimated share of the win for every seat, as the
        reference computes it for the state (``state.returns()`` once a slot has ended):
        ``kind="heuristic"``, the game heuristic's ``evaluate(state)``; ``"fitted"``, the
        fitted evaluation (:func:`nemeton.agents.fitted.fitted_evaluation`). Equal to the
        reference within 1e-9. :class:`KernelUnsupported` for a kind the game lacks."""
        if out is None:
            out = np.zeros((self.batch, self.players), dtype=np.float64)
        self._evaluate(kind, out)
        return out

    def _evaluate(self, kind: str, out: np.ndarray) -> None:
        raise KernelUnsupported(f"the compiled {self.game} kernel has no {kind!r} evaluation")

    def heuristic_actions(self, streams: np.ndarray | None = None) -> np.ndarray:
        """(B,) the game heuristic's choice (an action id) for each slot's seat to act, -1 for
        an ended slot; a heuristic that breaks ties at random draws from ``streams[i, seat]``
        (as in :meth:`playout`). :class:`KernelUnsupported` where the kernel has none."""
        raise KernelUnsupported(f"the compiled {self.game} kernel has no heuristic choice apart from its playouts")


def kernel_policies(agent_specs: Sequence[str]) -> list[int]:
    """The kernel playout policy of each seat's agent spec; a clear error for an agent the
    kernel cannot run (parameters included: the kernel's agents take none)."""
    out = []
    for s in agent_specs:
        if s not in POLICIES:
            raise KernelUnsupported(f"the compiled kernel plays the agents {', '.join(POLICIES)}; "
                                    f"{s!r} needs --engine reference")
        out.append(POLICIES[s])
    return out


def check_options(game: str, options: Mapping[str, Any], supported: Mapping[str, Callable[[Any], bool]]) -> None:
    """Refuse an option whose value the kernel does not implement. ``options`` are the
    options that differ from their defaults; ``supported`` maps an option's name to a test of
    its value (an option missing from it is refused whatever its value)."""
    for name, value in options.items():
        test = supported.get(name)
        if test is None or not test(value):
            raise KernelUnsupported(f"the compiled {game} kernel does not implement the option "
                                    f"{name}={value!r}; use --engine reference")


_SERVES: dict[tuple[str, str], str | None] = {}  # (game, options' JSON) -> why not, or None


def kernel_refusal(spec: Any, options: Mapping[str, Any] | None = None) -> str | None:
    """Why the game's compiled kernel cannot play a game with ``options`` (their JSON form,
    e.g. a view's; None: the defaults) in this process, or None when it can: the game has no
    kernel, Numba (the ``fast`` extra) is missing, or the kernel does not implement an option
    (Edora's refuses another ``board``). Known once per process per game and options."""
    import json
    if spec.kernel is None:
        return f"{spec.name!r} has no compiled kernel"
    try:
        import numba  # noqa: F401
    except ImportError:
        return "the compiled kernels need the fast extra (pip install 'nemeton[fast]')"
    key = (spec.name, json.dumps(dict(options or {}), sort_keys=True, default=str))
    if key not in _SERVES:
        try:
            spec.kernel()(spec.options(**dict(options or {})), 1)
            _SERVES[key] = None
        except KernelUnsupported as exc:
            _SERVES[key] = str(exc)
    return _SERVES[key]
