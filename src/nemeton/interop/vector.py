"""Vector environments: B games of one Nemeton game stepping together in its compiled kernel.

Two layers over a game's kernel (``games/<g>/kernel.py``, the ``fast`` extra: NumPy and Numba),
in the manner of EnvPool and pgx: every call steps all B games in one compiled pass and writes
the observations and masks into arrays made once.

- :func:`make` (``VectorGames``): **self-play**. Every slot is one game; the caller chooses
  the action of whichever seat is to act in each slot, and gets back that seat's observation,
  the legal mask, every seat's reward when a game ends, the ends and the seats to act::

      from nemeton.interop.vector import make, sample_legal
      games = make("amarok", num_envs=1024, players=4, seed=0)
      batch = games.reset()
      batch = games.step(sample_legal(batch.action_mask, rng))

- :class:`NemetonVectorEnv`: a ``gymnasium.vector.VectorEnv`` for **one seat against built-in
  opponents** (``"random"`` or ``"heuristic"``, the agents the kernel plays), registered as the
  ``vector_entry_point`` of ``nemeton/Alarun-v0``, ``nemeton/Amarok-v0`` and
  ``nemeton/Edora-v0``: ``gymnasium.make_vec("nemeton/Alarun-v0", num_envs=64,
  vectorization_mode="vector_entry_point", players=2)``. After each of the learner's steps the
  opponents move inside the kernel (one ``playout`` call, the learner's seat ``EXTERNAL``).

Autoreset. Both follow Gymnasium's modes (``gymnasium.vector.AutoresetMode``, or its value):
``"NextStep"`` (the default, Gymnasium's and EnvPool's) returns a game's last step with
``terminated`` True, the ended game's observation and an all-False mask; the next call ignores
that slot's action (pass anything, -1 included) and deals it a new game. ``"SameStep"`` (pgx's
``auto_reset``) deals the new game at once: the step that ends a game returns its reward and
``terminated`` True beside the new game's first observation and mask, so every mask returned
has a legal action (the ``NemetonVectorEnv`` puts the ended game's observation in
``infos["final_obs"]``).

Seeds. Game ``k`` of slot ``i`` (counting from 0 since the last seeded reset) is game
``k * num_envs + i`` of ``nemeton simulate --seed S`` (:func:`nemeton.arena.match.game_seeds`):
its deal is ``spec.new_state(options, game_seed)`` and each opponent seat draws from the agent
seed ``simulate`` gives that seat; a random learner seat is drawn from one more word of the same
hash. The same seed plays the same games, and a slot's games do not depend on the other slots.

Validation. Every action of a slot that plays is checked against its mask (vectorized): an id
out of range or illegal raises :class:`ValueError` naming the slots, and changes nothing.

Options go through ``spec.options(players, **{**spec.bot_defaults, **options})`` as in the
single environments (the bot defaults bound Alarún's and Edora's length); an option the kernel
does not implement raises :class:`~nemeton.engine.kernel.KernelUnsupported` naming it.
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple, Sequence

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from ..arena.match import game_seeds
from ..engine import get_game
from ..engine.kernel import EXTERNAL, POLICIES, KernelUnsupported

NEXT_STEP, SAME_STEP = AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP
SKIP_LIMIT = 1000  # new games in a row that end before the learner's first decision


class VectorStep(NamedTuple):
    """What :meth:`VectorGames.reset` and :meth:`VectorGames.step` return, one row per slot.

    ``observation`` (B, obs) float32: the view of ``seat`` encoded (of the seat that made the
    last move where a game has just ended, in the NextStep mode); ``action_mask`` (B, actions)
    bool; ``reward`` (B, players) float32: every seat's return in the step its game ended, else
    0; ``terminated`` (B,) bool; ``seat`` (B,) int64: the seat to act, -1 where a game has just
    ended (NextStep mode)."""

    observation: np.ndarray
    action_mask: np.ndarray
    reward: np.ndarray
    terminated: np.ndarray
    seat: np.ndarray


def autoreset_mode(mode: Any) -> AutoresetMode:
    """``AutoresetMode.NEXT_STEP`` or ``SAME_STEP``, given as the enum or its value."""
    for known in (NEXT_STEP, SAME_STEP):
        if mode is known or mode == known.value:
            return known
    raise ValueError(f"autoreset_mode must be {NEXT_STEP.value!r} or {SAME_STEP.value!r} "
                     f"(gymnasium.vector.AutoresetMode); got {mode!r}")


def sample_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """(B,) int64: a uniformly random legal action id in each row of ``mask`` (-1 in a row
    with none), drawn for all rows at once."""
    B, A = mask.shape
    flat = np.flatnonzero(mask)  # ids of the legal actions, row by row (1-D: much faster than np.nonzero)
    counts = np.bincount(flat // A, minlength=B)
    starts = np.cumsum(counts) - counts
    chosen = np.full(B, -1, dtype=np.int64)
    some = counts > 0
    picks = starts[some] + (rng.random(int(some.sum())) * counts[some]).astype(np.int64)
    chosen[some] = flat[picks] - np.flatnonzero(some) * A
    return chosen


class _Slots:
    """The kernel of B games and what both environments share: options, seeds, buffers,
    action checks."""

    def __init__(self, game: str, num_envs: int, players: int | None, seed: int | None,
                 mode: Any, options: dict[str, Any]):
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer; got {num_envs!r}")
        spec = get_game(game)
        self.spec = spec
        self.options = spec.options(players, **{**spec.bot_defaults, **options})
        if spec.kernel is None:
            raise KernelUnsupported(f"{spec.name} has no compiled kernel, which the vector environments need")
        try:
            kernel_cls = spec.kernel()
        except ImportError as exc:
            raise ImportError(f"the vector environments need NumPy and Numba: pip install 'nemeton[fast]' ({exc})") from None
        self.mode = autoreset_mode(mode)
        self.batch = B = int(num_envs)
        self.kernel = kernel_cls(self.options, B)
        self.players = n = self.options.players
        self.num_actions = A = self.kernel.num_actions
        self.encoding = spec.encoding(self.options)
        self.observation = np.zeros((B, self.kernel.observation_size), dtype=np.float32)
        self.mask = np.zeros((B, A), dtype=np.bool_)
        self.returns = np.zeros((B, n), dtype=np.float32)
        self.terminated = np.zeros(B, dtype=np.bool_)
        self.games = np.zeros(B, dtype=np.int64)  # games dealt per slot since the last seeded reset
        self.game_seeds = np.zeros(B, dtype=np.int64)  # the seed of each slot's game (spec.new_state)
        self.master = seed
        self._rows = np.arange(B)

    def reseed(self, seed: int | None) -> None:
        """A seed restarts the numbering of the games; None goes on from the last one (or
        from fresh entropy before any)."""
        if seed is not None:
            self.master = int(seed)
            self.games[:] = 0
        elif self.master is None:
            self.master = random.SystemRandom().getrandbits(63)

    def deal(self, slots: np.ndarray) -> list[list[int]]:
        """A new game in each of ``slots``; per slot, the words of its hash after the game seed
        (the agent seed of each seat, then one more)."""
        seeds, words = [], []
        if self.master is None:
            self.reseed(None)
        master = self.master
        assert master is not None  # set by reseed
        for i in slots:
            index = int(self.games[i]) * self.batch + int(i)
            self.games[i] += 1
            game_seed, rest = game_seeds(master, index, self.players + 1)
            seeds.append(game_seed)
            words.append(rest)
        self.kernel.deal(seeds, slots)
        self.game_seeds[slots] = seeds
        return words

    def check(self, actions: Any, playing: np.ndarray | None, seats: np.ndarray) -> np.ndarray:
        """``actions`` as (B,) int64, every slot that plays (``playing``; None: all) holding a
        legal id of its mask; else ValueError, and nothing has changed."""
        given = np.asarray(actions)
        B, A = self.batch, self.num_actions
        if given.shape != (B,):
            raise ValueError(f"step needs one action per slot, an array of shape ({B},); got shape {given.shape}")
        if given.dtype.kind not in "iu":
            raise ValueError(f"actions must be integer action ids; got an array of {given.dtype}")
        ids = given.astype(np.int64)
        inside = (ids >= 0) & (ids < A)
        legal = inside & self.mask[self._rows, np.where(inside, ids, 0)]
        wrong = ~legal if playing is None else playing & ~legal
        if wrong.any():
            slots = np.flatnonzero(wrong)
            parts = []
            for i in slots[:3]:
                a = int(ids[i])
                if not inside[i]:
                    parts.append(f"slot {i}: {a} is not an action id (0 to {A - 1})")
                else:
                    legal_ids = np.flatnonzero(self.mask[i])
                    shown = ", ".join(str(x) for x in legal_ids[:5]) + (", ..." if len(legal_ids) > 5 else "")
                    parts.append(f"slot {i}: {a} ({self.encoding.actions.action(a)}) is not legal for seat "
                                 f"{int(seats[i])}; legal: {shown}")
            more = f" (and {len(slots) - 3} more slots)" if len(slots) > 3 else ""
            raise ValueError("illegal actions, nothing was played: " + "; ".join(parts) + more)
        return ids

    def ended_returns(self, ended: np.ndarray) -> None:
        """``returns`` = each seat's return in the slots that have just ended, 0 elsewhere."""
        self.returns[:] = 0.0
        if ended.any():
            self.returns[ended] = self.kernel.returns()[ended]


class VectorGames:
    """B self-play games of one game (see the module docstring); made by :func:`make`.

    The arrays returned are the environment's own, overwritten by the next call (read-only
    views unless ``copy=True``): copy what you keep. Attributes: ``num_envs``, ``players``,
    ``num_actions``, ``observation_size``, ``options``, ``encoding`` (action ids and
    observation layout), ``kernel``, ``game_seeds`` (each slot's current deal:
    ``spec.new_state(options, game_seeds[i])``)."""

    def __init__(self, game: str, num_envs: int, players: int | None = None, seed: int | None = None,
                 autoreset_mode: Any = NEXT_STEP, copy: bool = False, **options: Any):
        self._slots = s = _Slots(game, num_envs, players, seed, autoreset_mode, options)
        self.num_envs, self.players, self.num_actions = s.batch, s.players, s.num_actions
        self.observation_size = s.kernel.observation_size
        self.options, self.encoding, self.kernel, self.autoreset_mode = s.options, s.encoding, s.kernel, s.mode
        self.game_seeds = s.game_seeds
        self.copy = copy
        self.seat = np.full(s.batch, -1, dtype=np.int64)
        self._ended = np.zeros(s.batch, dtype=np.bool_)  # NextStep: slots whose game ended in the last step
        self._arrays = (s.observation, s.mask, s.returns, s.terminated, self.seat)
        self._views = VectorStep(*(_read_only(a) for a in self._arrays))  # what every call returns
        self._started = False

    def reset(self, seed: int | None = None) -> VectorStep:
        """A new game in every slot (``seed``: see the module docstring)."""
        s = self._slots
        s.reseed(seed)
        s.deal(s._rows)
        s.terminated[:] = False
        s.returns[:] = 0.0
        self._ended[:] = False
        self._started = True
        return self._observe(None)

    def step(self, actions: Any) -> VectorStep:
        """Play ``actions[i]`` (an action id of the seat to act) in every slot; see the module
        docstring for what a slot whose game has ended does."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        s = self._slots
        waiting = self._ended  # NextStep: these slots take no action and start a new game
        playing = ~waiting if waiting.any() else None
        ids = s.check(actions, playing, self.seat)
        movers = self.seat.copy()
        if playing is not None:
            ids[waiting] = -1
        s.kernel.step(ids)
        ended = s.kernel.terminal()
        if playing is not None:
            s.deal(np.flatnonzero(waiting))
            ended &= playing
        s.ended_returns(ended)
        s.terminated[:] = ended
        if s.mode is SAME_STEP:
            if ended.any():
                s.deal(np.flatnonzero(ended))
            return self._observe(None)
        self._ended = ended
        return self._observe(movers if ended.any() else None)

    def _observe(self, movers: np.ndarray | None) -> VectorStep:
        s = self._slots
        self.seat[:] = s.kernel.current_player()
        seats = self.seat if movers is None else np.where(s.terminated, movers, self.seat)
        s.kernel.observe(seats, out=s.observation)
        s.kernel.legal_mask(out=s.mask)
        if self.copy:
            return VectorStep(*(a.copy() for a in self._arrays))
        return self._views


def _read_only(a: np.ndarray) -> np.ndarray:
    view = a.view()
    view.flags.writeable = False
    return view


def make(game: str, num_envs: int, players: int | None = None, seed: int | None = None,
         **options: Any) -> VectorGames:
    """``num_envs`` self-play games of ``game`` in one kernel (see the module docstring).
    Keywords besides the game's options: ``autoreset_mode`` ("NextStep" or "SameStep") and
    ``copy`` (return copies instead of read-only views of the environment's arrays)."""
    return VectorGames(game, num_envs, players, seed, **options)


class NemetonVectorEnv(gymnasium.vector.VectorEnv):
    """One seat of B games against the kernel's built-in agents, as a Gymnasium vector
    environment (see the module docstring).

    - ``opponents``: ``"random"`` or ``"heuristic"`` for every other seat, or a list with one
      of them per other seat, in seat order (other agents need the Python engine:
      ``gymnasium.make_vec(..., vectorization_mode="sync")``).
    - ``seat``: the learner's seat (default 0), or ``"random"`` for a new seat every game.
    - Observation: the learner's tensor, (B, obs) float32; ``infos["action_mask"]`` (int8, as
      the single environment gives it) and :meth:`action_masks` (bool) its legal actions;
      ``infos["seat"]`` the learner's seat in each slot.
    - Reward: 0 until a game ends, then the learner's return. Never truncated.
    - An illegal action (any slot) raises :class:`ValueError` and changes nothing.
    - A game that ends before the learner's first decision is skipped (dealt again).
    - ``copy`` (default True, as ``SyncVectorEnv``): return copies of the arrays, or else the
      environment's own, overwritten by the next call.
    """

    metadata = {"render_modes": [], "autoreset_mode": NEXT_STEP}

    def __init__(self, game: str, num_envs: int, players: int | None = None,
                 opponents: str | Sequence[str] = "random", seat: int | str = 0, seed: int | None = None,
                 autoreset_mode: Any = NEXT_STEP, copy: bool = True, **options: Any):
        self._slots = s = _Slots(game, num_envs, players, seed, autoreset_mode, options)
        n, B = s.players, s.batch
        if seat != "random" and not (isinstance(seat, (int, np.integer)) and not isinstance(seat, bool) and 0 <= seat < n):
            raise ValueError(f"seat must be a seat from 0 to {n - 1} or 'random'; got {seat!r}")
        specs = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != n - 1:
            raise ValueError(f"opponents must be one agent spec or a list of {n - 1} (one per other seat); "
                             f"got {len(specs)}")
        for spec in specs:
            if spec not in POLICIES:
                raise KernelUnsupported(f"the vector environment's opponents play inside the compiled kernel: "
                                        f"{' or '.join(map(repr, POLICIES))}; for {spec!r} use "
                                        f"gymnasium.make_vec(..., vectorization_mode='sync')")
        self._opponents = np.array([POLICIES[p] for p in specs], dtype=np.int64)
        self.seat_choice = seat
        self.metadata = {**self.metadata, "autoreset_mode": s.mode}
        self.num_envs = B
        self.options, self.encoding, self.kernel = s.options, s.encoding, s.kernel
        self.copy = copy
        low, high = s.encoding.layout.bounds()
        self.single_observation_space = spaces.Box(low=low, high=high, shape=(s.kernel.observation_size,),
                                                   dtype=np.float32)
        self.single_action_space = spaces.Discrete(s.num_actions)
        self.observation_space = batch_space(self.single_observation_space, B)
        self.action_space = batch_space(self.single_action_space, B)
        self.seats = np.zeros(B, dtype=np.int64)  # the learner's seat in each slot
        self.policies = np.zeros((B, n), dtype=np.int64)
        from ..engine import mt
        self._mt = mt
        self.streams = np.zeros((B, n, mt.STREAM_WORDS), dtype=np.uint32)
        self._ended = np.zeros(B, dtype=np.bool_)
        self._final = np.zeros_like(s.observation) if s.mode is SAME_STEP else None
        self._everywhere = np.ones(B, dtype=np.bool_)
        self._started = False

    # ----- gymnasium ------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        s = self._slots
        s.reseed(seed)
        self._new_games(s._rows)
        s.returns[:] = 0.0
        s.terminated[:] = False
        self._ended[:] = False
        self._started = True
        self._observe()
        return self._out(s.observation), self._infos(None)

    def step(self, actions: Any):
        if not self._started:
            raise gymnasium.error.ResetNeeded("call reset() before step()")
        s, k = self._slots, self._slots.kernel
        waiting = self._ended
        playing = ~waiting if waiting.any() else None
        ids = s.check(actions, playing, self.seats)
        if playing is not None:
            ids[waiting] = -1
        k.step(ids)
        if playing is not None:
            self._deal(np.flatnonzero(waiting))  # NextStep: the slots that ended last step
        k.playout(self.policies, self.streams)
        if playing is not None:
            self._skip_early_ends(np.flatnonzero(waiting))
        ended = k.terminal()
        if playing is not None:
            ended &= playing
        s.terminated[:] = ended
        rewards = np.zeros(s.batch, dtype=np.float64)
        if ended.any():
            rewards[ended] = k.returns()[ended, self.seats[ended]]
        final = None
        if s.mode is SAME_STEP:
            if ended.any():
                k.observe(self.seats, out=self._final)
                final = ended.copy()
                self._new_games(np.flatnonzero(ended))
        else:
            self._ended = ended
        self._observe()
        return (self._out(s.observation), rewards, s.terminated.copy(), np.zeros(s.batch, dtype=np.bool_),
                self._infos(final))

    def action_masks(self) -> np.ndarray:
        """(B, actions) bool: the learner's legal actions in each slot (sb3-contrib's convention)."""
        return self._slots.mask.copy()

    # ----- helpers --------------------------------------------------------------------------
    def _deal(self, slots: np.ndarray) -> None:
        """New games in ``slots``: the deal, the learner's seat, the opponents' streams."""
        if len(slots) == 0:
            return
        words = self._slots.deal(slots)
        n = self._slots.players
        for i, rest in zip(slots, words):
            seat = rest[n] % n if self.seat_choice == "random" else int(self.seat_choice)
            self.seats[i] = seat
            self.policies[i, :seat] = self._opponents[:seat]
            self.policies[i, seat] = EXTERNAL
            self.policies[i, seat + 1:] = self._opponents[seat:]
            for p in range(n):
                if p != seat:
                    self._mt.seed(self.streams[i, p], rest[p])

    def _new_games(self, slots: np.ndarray) -> None:
        """New games in ``slots``, played on by the opponents up to the learner's decision."""
        self._deal(slots)
        self._slots.kernel.playout(self.policies, self.streams)
        self._skip_early_ends(slots)

    def _skip_early_ends(self, slots: np.ndarray) -> None:
        """Deal again the new games in ``slots`` that ended before the learner could act."""
        k = self._slots.kernel
        for _ in range(SKIP_LIMIT):
            early = slots[k.terminal()[slots]]
            if len(early) == 0:
                return
            self._deal(early)
            k.playout(self.policies, self.streams)
        raise RuntimeError(f"{SKIP_LIMIT} games in a row ended before the learner's first decision")

    def _observe(self) -> None:
        s = self._slots
        s.kernel.observe(self.seats, out=s.observation)
        s.kernel.legal_mask(out=s.mask)

    def _out(self, a: np.ndarray) -> np.ndarray:
        return a.copy() if self.copy else a

    def _infos(self, final: np.ndarray | None) -> dict[str, Any]:
        s = self._slots
        infos: dict[str, Any] = {"action_mask": self._out(s.mask.view(np.int8)), "_action_mask": self._everywhere,
                                 "seat": self._out(self.seats), "_seat": self._everywhere}
        if final is not None and self._final is not None:  # SameStep mode
            infos["final_obs"], infos["_final_obs"] = self._final.copy(), final
        return infos
