"""Gymnasium single-agent environments: one seat of a Nemeton game against built-in agents.

Importing this module registers ``nemeton/Alarun-v0``, ``nemeton/Amarok-v0`` and
``nemeton/Edora-v0``::

    import gymnasium, nemeton.interop.gymnasium
    env = gymnasium.make("nemeton/Alarun-v0", players=2, opponents="heuristic")
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(int(info["action_mask"].argmax()))

- ``opponents``: one agent spec for every other seat (``"random"``, ``"heuristic"``,
  ``"ismcts:iterations=200"``), or a list with one spec per other seat, in seat order.
- ``seat``: the learner's seat (default 0), or ``"random"`` for a new seat every game.
- Observation: the learner's float32 tensor, built from its view alone
  (``spec.encoding(options)``, slices in docs/rl.md); ``info["action_mask"]`` (int8) and the
  method ``action_masks()`` (bool, as sb3-contrib's MaskablePPO reads it) give the legal
  actions; ``info["view"]`` is the view itself with ``info_view=True``.
- Reward: 0 until the end, then the learner's return (1 shared among the winning teams).
  The opponents act between the learner's decisions, each from its own view, in the order of
  PettingZoo's AEC environment: the lowest acting seat first, so in a phase where several
  seats decide at once (Alarún's placement, Edora's arranged herbs) the learner decides before
  the opponents of higher seats, as it would among them at a table of agents.
- An action outside the mask ends the episode with reward ``illegal_reward`` (default -1)
  and ``info["illegal_action"] = True``, leaving the game as it was (as PettingZoo's classic
  games do; Gymnasium's checker steps with unmasked random actions), or with
  ``illegal_action="raise"`` raises :class:`IllegalActionError` and changes nothing.
  ``max_steps`` truncates after that many decisions of the learner.
- ``render_mode="ansi"``: ``render()`` returns the learner's text view; ``"human"`` prints it.
- ``engine``: ``"fast"`` steps the game's compiled kernel, the opponents playing inside it
  (``"random"`` and ``"heuristic"`` only); ``"reference"`` the Python rules with any agent;
  ``"auto"`` (the default) the kernel when Numba is installed and it implements the options
  and the opponents, else the rules. The same games for the same seeds either way
  (``env.unwrapped.engine`` says which runs); with the kernel, ``env.unwrapped.state`` is a
  copy read back from it at each access (without history or event log).
"""

from __future__ import annotations

import random
from typing import Any, Sequence

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.error import ResetNeeded

from ..agents import make_agent
from ..engine import TERMINAL, IllegalActionError, State, get_game
from ..engine.encoding import ObservationMemo
from ..table import Table
from ._fast import check_engine, kernel_game

NO_EPISODE = "no episode is under way (none started, or it ended on an illegal action): call reset()"
OVER = "the episode is over (or not started): call reset()"
IDS = {"alarun": "nemeton/Alarun-v0", "amarok": "nemeton/Amarok-v0", "edora": "nemeton/Edora-v0"}


class NemetonEnv(gymnasium.Env):
    """One seat of a Nemeton game against built-in agents (see the module docstring)."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}
    action_space: spaces.Discrete  # an action is its id in the game's action space

    def __init__(self, game: str, players: int | None = None, opponents: str | Sequence[str] = "random",
                 seat: int | str = 0, render_mode: str | None = None, max_steps: int | None = None,
                 info_view: bool = False, illegal_action: str = "end", illegal_reward: float = -1.0,
                 engine: str = "auto", **options: Any):
        spec = get_game(game)
        self.spec_ = spec
        self.game_options = spec.options(players, **{**spec.bot_defaults, **options})
        n = self.game_options.players
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode must be None, 'ansi' or 'human'; got {render_mode!r}")
        if seat != "random" and not (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < n):
            raise ValueError(f"seat must be a seat from 0 to {n - 1} or 'random'; got {seat!r}")
        if max_steps is not None and (isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1):
            raise ValueError(f"max_steps must be a positive integer or None; got {max_steps!r}")
        if illegal_action not in ("end", "raise"):
            raise ValueError(f"illegal_action must be 'end' or 'raise'; got {illegal_action!r}")
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        specs = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != n - 1:
            raise ValueError(f"opponents must be one agent spec or a list of {n - 1} (one per other seat); "
                             f"got {len(specs)}")
        for s in specs:  # a bad spec is refused here, not at the first reset
            make_agent(s, spec, 0, 0)
        self.opponent_specs = specs
        self.seat_choice = seat
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.info_view = info_view
        self.encoding = spec.encoding(self.game_options)
        self._memo: ObservationMemo | None = None  # the learner's observation memo (made at the first observation)
        low, high = self.encoding.layout.bounds()
        self.observation_space = spaces.Box(low=low, high=high, shape=(self.encoding.observation_size,),
                                            dtype=np.float32)
        self.action_space = spaces.Discrete(len(self.encoding.actions))
        self._games = random.Random()
        self._fast = kernel_game(spec, self.game_options, check_engine(engine), specs)
        self.engine = "reference" if self._fast is None else "fast"
        self._state: State | None = None  # the reference engine's game, from reset() until the episode ends
        # on an illegal action; the fast engine's game is in its kernel while _live
        self._live = False
        self._mask = np.zeros(self.action_space.n, dtype=np.bool_)  # fast: the learner's mask now

    @property
    def state(self) -> State | None:
        """The game, from reset() until the episode ends on an illegal action. With the fast
        engine, a reference state read back from the kernel at each access: a copy, without
        history or event log."""
        if self._fast is None:
            return self._state
        return self._fast.read() if self._live else None

    # ----- gymnasium ------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if seed is not None:
            self._games = random.Random(seed)
        rng = self._games
        n = self.game_options.players
        choice = self.seat_choice  # a seat, or "random" (checked in __init__)
        self.seat = rng.randrange(n) if isinstance(choice, str) else choice
        self.steps = 0
        fast = self._fast
        if fast is not None:
            # the opponents' streams seeded as make_agent seeds their random.Random: seat order
            fast.seat_players(self.seat, self.opponent_specs, [rng.getrandbits(63) for _ in range(n - 1)])
            fast.deal(rng.getrandbits(63))
            self._live = True
            return self._play_on_fast()[0], self._info_fast()
        others = iter(self.opponent_specs)
        seats = [None if s == self.seat else make_agent(next(others), self.spec_, s, rng.getrandbits(63))
                 for s in range(n)]
        state = self._state = self.spec_.new_state(self.game_options, rng.getrandbits(63))
        self.table = Table(state, seats, clock=None)
        if not any(getattr(a, "needs_log", False) for a in seats if a is not None):
            state.record_events(False)  # nobody reads the log
        self._play_on(state)
        return self._observe(state), self._info(state)

    def step(self, action: Any):
        if self._fast is not None:
            return self._step_fast(action)
        state = self._state
        if state is None or state.is_terminal():
            raise IllegalActionError(OVER)
        chosen = self.encoding.actions.action(action)
        if self.illegal_action == "end" and chosen not in state.legal_actions(self.seat):
            self._state = None  # the episode is over; the game is left as it was
            return self._illegal_end()
        self.table.submit(self.seat, chosen)
        self.steps += 1
        self._play_on(state)
        terminated = state.is_terminal()
        reward = float(state.returns()[self.seat]) if terminated else 0.0
        truncated = not terminated and self.max_steps is not None and self.steps >= self.max_steps
        return self._observe(state), reward, terminated, truncated, self._info(state)

    def _step_fast(self, action: Any):
        fast = self._fast
        assert fast is not None
        if not self._live or self._over:
            raise IllegalActionError(OVER)
        chosen = self.encoding.actions.action(action)  # checks the id (an integer in range)
        if not self._mask[action]:
            if self.illegal_action == "end":
                self._live = False  # the episode is over; the game is left as it was
                return self._illegal_end()
            raise IllegalActionError(f"{chosen} (id {int(action)}) is not legal for seat {self.seat} now")
        fast.step(action)
        self.steps += 1
        obs, terminated = self._play_on_fast()
        reward = fast.returns()[self.seat] if terminated else 0.0
        truncated = not terminated and self.max_steps is not None and self.steps >= self.max_steps
        return obs, reward, terminated, truncated, self._info_fast()

    def _illegal_end(self):
        info = {"action_mask": np.zeros(self.action_space.n, dtype=np.int8), "seat": self.seat,
                "illegal_action": True}
        return self._last_obs.copy(), self.illegal_reward, True, False, info

    def action_masks(self) -> np.ndarray:
        """The legal actions of the learner now, as a bool array (sb3-contrib's convention)."""
        if self._fast is not None:
            if not self._live:
                raise ResetNeeded(NO_EPISODE)
            return self._mask.copy()
        if self._state is None:
            raise ResetNeeded(NO_EPISODE)
        return self.encoding.actions.mask(self._state.legal_actions(self.seat))

    def render(self) -> str | None:
        """The learner's text view: returned with ``render_mode="ansi"``, printed with "human"."""
        if self.render_mode is None:
            return None
        state = self.state
        if state is None:
            raise ResetNeeded(NO_EPISODE)
        text = self.spec_.render(state.view(self.seat))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # ----- helpers --------------------------------------------------------------------------
    def _play_on(self, state: State) -> None:
        """The opponents act until the learner is the seat to act (the lowest acting seat) or
        the game is over (see the module docstring: the AEC order, which the kernel plays)."""
        step = self.table.step
        learner = self.seat
        while True:
            seat = state.current_player
            if seat == learner or seat == TERMINAL:
                return
            step()  # the lowest acting agent: the seat to act

    def _play_on_fast(self) -> tuple[np.ndarray, bool]:
        """The opponents play in the kernel until the learner is to act or the game is over;
        the learner's observation and whether the game is over."""
        fast = self._fast
        assert fast is not None
        fast.play_on()
        self._over = fast.current_player() == TERMINAL
        self._mask = np.zeros(self.action_space.n, dtype=np.bool_) if self._over else fast.mask()
        self._last_obs = fast.observe(self.seat)
        return self._last_obs, self._over

    def _info_fast(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self._mask.astype(np.int8), "seat": self.seat}
        if self.info_view:
            assert self._fast is not None
            info["view"] = self._fast.read().view(self.seat)
        return info

    def _observe(self, state: State) -> np.ndarray:
        # the shared view and the learner's memo: only the parts of the table that changed
        # since its last observation are read again (the tensor is the one view() gives)
        memo = self._memo
        if memo is None:
            memo = self._memo = self.encoding.new_memo()
        self._last_obs = self.encoding.encode(state.shared_view(self.seat), memo=memo)
        return self._last_obs

    def _info(self, state: State) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.action_masks().astype(np.int8), "seat": self.seat}
        if self.info_view:
            info["view"] = state.view(self.seat)
        return info


def _register() -> None:
    for game, env_id in IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="nemeton.interop.gymnasium:NemetonEnv",
                               vector_entry_point="nemeton.interop.vector:NemetonVectorEnv",
                               kwargs={"game": game}, disable_env_checker=False)


_register()
