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
  The opponents act between the learner's decisions, each from its own view.
- An action outside the mask ends the episode with reward ``illegal_reward`` (default -1)
  and ``info["illegal_action"] = True``, leaving the game as it was (as PettingZoo's classic
  games do; Gymnasium's checker steps with unmasked random actions), or with
  ``illegal_action="raise"`` raises :class:`IllegalActionError` and changes nothing.
  ``max_steps`` truncates after that many decisions of the learner.
- ``render_mode="ansi"``: ``render()`` returns the learner's text view; ``"human"`` prints it.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.error import ResetNeeded

from ..agents import make_agent
from ..engine import IllegalActionError, State, get_game
from ..engine.encoding import ObservationMemo
from ..table import Table

NO_EPISODE = "no episode is under way (none started, or it ended on an illegal action): call reset()"
IDS = {"alarun": "nemeton/Alarun-v0", "amarok": "nemeton/Amarok-v0", "edora": "nemeton/Edora-v0"}


class NemetonEnv(gymnasium.Env):
    """One seat of a Nemeton game against built-in agents (see the module docstring)."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}
    action_space: spaces.Discrete  # an action is its id in the game's action space

    def __init__(self, game: str, players: int | None = None, opponents: str | Sequence[str] = "random",
                 seat: int | str = 0, render_mode: str | None = None, max_steps: int | None = None,
                 info_view: bool = False, illegal_action: str = "end", illegal_reward: float = -1.0,
                 **options: Any):
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
        self.state: State | None = None  # the game, from reset() until the episode ends on an illegal action

    # ----- gymnasium ------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if seed is not None:
            self._games = random.Random(seed)
        rng = self._games
        n = self.game_options.players
        choice = self.seat_choice  # a seat, or "random" (checked in __init__)
        self.seat = rng.randrange(n) if isinstance(choice, str) else choice
        others = iter(self.opponent_specs)
        seats = [None if s == self.seat else make_agent(next(others), self.spec_, s, rng.getrandbits(63))
                 for s in range(n)]
        state = self.state = self.spec_.new_state(self.game_options, rng.getrandbits(63))
        self.table = Table(state, seats, clock=None)
        if not any(getattr(a, "needs_log", False) for a in seats if a is not None):
            state.record_events(False)  # nobody reads the log
        self.steps = 0
        self.table.advance()
        return self._observe(state), self._info(state)

    def step(self, action: Any):
        state = self.state
        if state is None or state.is_terminal():
            raise IllegalActionError("the episode is over (or not started): call reset()")
        chosen = self.encoding.actions.action(action)
        if self.illegal_action == "end" and chosen not in state.legal_actions(self.seat):
            self.state = None  # the episode is over; the game is left as it was
            info = {"action_mask": np.zeros(self.action_space.n, dtype=np.int8), "seat": self.seat,
                    "illegal_action": True}
            return self._last_obs.copy(), self.illegal_reward, True, False, info
        self.table.submit(self.seat, chosen)
        self.steps += 1
        self.table.advance()  # the table plays on this same state
        terminated = state.is_terminal()
        reward = float(state.returns()[self.seat]) if terminated else 0.0
        truncated = not terminated and self.max_steps is not None and self.steps >= self.max_steps
        return self._observe(state), reward, terminated, truncated, self._info(state)

    def action_masks(self) -> np.ndarray:
        """The legal actions of the learner now, as a bool array (sb3-contrib's convention)."""
        if self.state is None:
            raise ResetNeeded(NO_EPISODE)
        return self.encoding.actions.mask(self.state.legal_actions(self.seat))

    def render(self) -> str | None:
        """The learner's text view: returned with ``render_mode="ansi"``, printed with "human"."""
        if self.render_mode is None:
            return None
        if self.state is None:
            raise ResetNeeded(NO_EPISODE)
        text = self.spec_.render(self.state.view(self.seat))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # ----- helpers --------------------------------------------------------------------------
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
