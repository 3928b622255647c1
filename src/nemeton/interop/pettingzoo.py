"""PettingZoo AEC environments for every Nemeton game.

``env("alarun", players=3, **options)`` (wrapped like PettingZoo's classic games: actions out
of range and calls out of order are caught) or ``raw_env(...)``. Agents are ``player_0`` ..
``player_{n-1}`` (seat ``i`` is ``player_i``); the agent to act is the engine's
``current_player`` (Alarún's simultaneous placement is played one seat at a time, lowest
seat first, and no seat sees another's placement before all have placed).

- Observations: ``{"observation": float32 tensor, "action_mask": int8 mask}``, the tensor
  built from the agent's view alone (``spec.encoding(options)``; slices in docs/rl.md), the
  mask over the game's fixed action space (``spec.action_space(options)``; an action is its
  index). ``env.unwrapped.view(agent)`` is the same observation as the view's dict;
  ``info_view=True`` also puts it in each agent's ``info["view"]``.
- Rewards: 0 until the end, then the engine's returns (1 shared among the winning teams;
  in team mode each member gets the team's share).
- An illegal action raises :class:`IllegalActionError` and changes nothing.
- ``max_steps`` truncates a game after that many decisions (the games use their bot
  defaults, which bound Alarún and Edora; Amarok's rules set no bound).
- ``render_mode="ansi"``: ``render()`` returns the spectator's text view (no hidden card);
  ``"human"`` prints it.
- ``engine``: ``"fast"`` steps the game's compiled kernel, ``"reference"`` the Python rules,
  ``"auto"`` (the default) the kernel when Numba is installed and it implements the options;
  the same games for the same seeds either way (``env.unwrapped.engine`` says which runs).
  With the kernel, ``env.unwrapped.state`` is a copy read back from it at each access
  (without history or event log), as are the views and the rendering made from it.

There is no parallel-API version: the games are turn-based (one seat decides at a time,
except Alarún's placement, where the seats decide without seeing each other, which the AEC
order already models), so a parallel step would only wrap the AEC one.
"""

from __future__ import annotations

import random
from operator import attrgetter
from typing import Any, Callable, Sequence

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from ..engine import TERMINAL, IllegalActionError, State, get_game
from ._fast import kernel_game

NOT_RESET = "the environment has no game yet: call reset() first"


def env(game: str, players: int | None = None, **kwargs: Any) -> AECEnv:
    """The wrapped environment (PettingZoo's order and bounds checks)."""
    e: AECEnv = raw_env(game, players, **kwargs)
    e = _AssertOutOfBounds(e)
    return _OrderEnforcing(e)


# The attributes every step reads on the wrappers (``last()``, ``agent_iter()``, the bounds
# check): PettingZoo's wrappers pass them down through ``__getattr__``, once per wrapper, which
# cost a tenth of a step; these properties read them from the raw environment in C
# (``attrgetter``). Before the first reset the raw environment has none of them, so the read
# fails over to the wrapper's ``__getattr__``, which raises PettingZoo's own error.
_HOT = ("agent_selection", "agents", "rewards", "terminations", "truncations", "infos", "_cumulative_rewards")


class _AssertOutOfBounds(wrappers.AssertOutOfBoundsWrapper):
    """PettingZoo's bounds check, reading the attributes of :data:`_HOT` directly, with the
    check of an integer (Python's or NumPy's) done here: ``Discrete.contains`` makes NumPy
    integer limits at every call, a sixteenth of a step (the same answer: an integer is in
    ``Discrete(n)`` exactly when ``0 <= action < n``); anything else is checked by the space
    itself, as PettingZoo does."""

    def __init__(self, env: AECEnv):
        super().__init__(env)
        self._raw = env.unwrapped

    def step(self, action: Any) -> None:
        raw = self._raw
        agent = raw.agent_selection
        if type(action) is int or isinstance(action, np.integer):
            assert 0 <= action < raw.action_count, "action is not in action space"
        else:
            assert (action is None and (raw.terminations[agent] or raw.truncations[agent])) or (
                self.action_space(agent).contains(action)), "action is not in action space"
        raw.step(action)


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's order checks, reading the attributes of :data:`_HOT` directly."""

    def __init__(self, env: AECEnv):
        super().__init__(env)
        self._raw = env.unwrapped

    def __str__(self) -> str:
        return str(self.env)  # as PettingZoo's own OrderEnforcingWrapper prints

    def observe(self, agent: str) -> Any:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self._raw.observe(agent)   # the bounds wrapper adds nothing to observe


for _name in _HOT:
    setattr(_AssertOutOfBounds, _name, property(attrgetter("_raw." + _name)))
    setattr(_OrderEnforcing, _name, property(attrgetter("_raw." + _name)))
del _name


class raw_env(AECEnv):
    """One Nemeton game as a PettingZoo AEC environment (see the module docstring)."""

    metadata = {"render_modes": ["ansi", "human"], "name": "nemeton_v0", "is_parallelizable": False}

    def __init__(self, game: str, players: int | None = None, render_mode: str | None = None,
                 max_steps: int | None = None, info_view: bool = False, engine: str = "auto", **options: Any):
        super().__init__()
        spec = get_game(game)
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode must be None, 'ansi' or 'human'; got {render_mode!r}")
        if max_steps is not None and (isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1):
            raise ValueError(f"max_steps must be a positive integer or None; got {max_steps!r}")
        self.spec_ = spec
        self.game_options = spec.options(players, **{**spec.bot_defaults, **options})
        self.encoding = spec.encoding(self.game_options)
        self.metadata = {**self.metadata, "name": f"nemeton_{spec.name}_v0"}
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.info_view = info_view
        n = self.game_options.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        size, count = self.encoding.observation_size, len(self.encoding.actions)
        low, high = self.encoding.layout.bounds()
        obs_space = spaces.Dict({
            "observation": spaces.Box(low=low, high=high, shape=(size,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(count,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(count) for a in self.possible_agents}
        self.action_count = count
        self._rng = random.Random()
        self._actions = self.encoding.actions
        self._memos = [self.encoding.new_memo() for _ in range(n)]
        # the engine: a kernel slot (engine "fast", or "auto" where the kernel serves), else None
        self._fast = kernel_game(spec, self.game_options, engine)
        self.engine = "reference" if self._fast is None else "fast"
        self._state: State | None = None  # the reference engine's game, from the first reset() on
        self._dealt = False  # the fast engine's slot holds a game (from the first reset() on)
        self._mask: np.ndarray | None = None  # fast: the mask of the seat to act, made once per step
        self._to_act = TERMINAL  # fast: the seat to act

    @property
    def state(self) -> State | None:
        """The game (None before the first reset). With the fast engine, a reference state
        read back from the kernel at each access: a copy, without history or event log."""
        if self._fast is None:
            return self._state
        return self._fast.read() if self._dealt else None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ----- the game -------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game. ``seed`` seeds the stream the games' seeds are drawn from (the same
        seed gives the same games); without it the stream goes on."""
        if seed is not None:
            self._rng = random.Random(seed)
        game_seed = self._rng.getrandbits(63)
        fast = self._fast
        if fast is None:
            state = self._state = self.spec_.new_state(self.game_options, game_seed)
            state.record_events(False)
            seat = state.current_player
        else:
            fast.deal(game_seed)
            self._dealt = True
            self._mask = None
            seat = self._to_act = fast.current_player()
        self.steps = 0
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._legal: list[int] | None = None  # the ids legal for the seat to act
        self.agent_selection = self.possible_agents[seat]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if self._fast is not None:
            return self._observe_fast(agent)
        state = self._state
        if state is None:
            raise RuntimeError(NOT_RESET)
        seat = self._seat[agent]
        if self.info_view and agent in self.infos:
            self.infos[agent]["view"] = state.view(seat)
        mask = np.zeros(len(self._actions), dtype=np.int8)
        ids = self._legal_ids(state, seat)
        mask[np.fromiter(ids, np.intp, len(ids))] = 1
        # the shared view: the encoder reads again only the parts that changed since this
        # seat's last observation (its memo); the tensor is the same as from view(seat)
        observation = self.encoding.encode(state.shared_view(seat), memo=self._memos[seat])
        return {"observation": observation, "action_mask": mask}

    def _observe_fast(self, agent: str) -> dict[str, np.ndarray]:
        fast = self._fast
        assert fast is not None
        if not self._dealt:
            raise RuntimeError(NOT_RESET)
        seat = self._seat[agent]
        if self.info_view and agent in self.infos:
            self.infos[agent]["view"] = fast.read().view(seat)
        if seat == self._to_act:
            mask = self._fast_mask().astype(np.int8)   # a copy: the caller may keep or change it
        else:  # a seat that is not acting (or a finished game) has no legal action
            mask = np.zeros(self.action_count, dtype=np.int8)
        return {"observation": fast.observe(seat), "action_mask": mask}

    def _fast_mask(self) -> np.ndarray:
        """The mask of the seat to act, made once per step (the observation and the legality
        check share it)."""
        mask = self._mask
        if mask is None:
            assert self._fast is not None
            mask = self._mask = self._fast.mask()
        return mask

    def view(self, agent: str) -> dict[str, Any]:
        """The agent's view (the dict form of its observation)."""
        state = self.state
        if state is None:
            raise RuntimeError(NOT_RESET)
        return state.view(self._seat[agent])

    def _legal_ids(self, state: State, seat: int) -> list[int]:
        """The ids of ``seat``'s legal actions if it is the seat to act (else none), computed
        once per step (``state`` is the environment's)."""
        if seat != state.current_player:
            return []
        if self._legal is None:
            self._legal = self._actions.ids(state.legal_actions(seat))
        return self._legal

    def step(self, action: Any) -> None:
        if self._fast is not None:
            return self._step_fast(action)
        state = self._state
        if state is None:
            raise RuntimeError(NOT_RESET)
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat[agent]
        chosen = self._actions.action(action)  # checks the id (an integer in range)
        if int(action) not in self._legal_ids(state, seat):
            raise IllegalActionError(f"{chosen} (id {int(action)}) is not legal for {agent} now")
        state.apply_unchecked(chosen, seat)
        self._legal = None
        self._settle(agent, state.current_player, state.returns)

    def _settle(self, agent: str, to_act: int, returns: Callable[[], Sequence[float]]) -> None:
        """The rewards, ends and next agent after ``agent``'s action; ``to_act``: the seat to
        act now (TERMINAL once the game is over), ``returns``: the game's returns."""
        self.steps += 1
        self._cumulative_rewards[agent] = 0.0
        rewards = self.rewards
        if to_act == TERMINAL:
            final = returns()
            for a in self.agents:
                rewards[a] = final[self._seat[a]]
                self.terminations[a] = True
        elif self.max_steps is not None and self.steps >= self.max_steps:
            for a in self.agents:
                rewards[a] = 0.0
                self.truncations[a] = True
        else:
            for a in rewards:
                rewards[a] = 0.0
            self.agent_selection = self.possible_agents[to_act]
        self._accumulate_rewards()

    def _step_fast(self, action: Any) -> None:
        fast = self._fast
        assert fast is not None
        if not self._dealt:
            raise RuntimeError(NOT_RESET)
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        chosen = self._actions.action(action)  # checks the id (an integer in range)
        if not self._fast_mask()[action]:
            raise IllegalActionError(f"{chosen} (id {int(action)}) is not legal for {agent} now")
        fast.step(action)
        self._mask = None
        self._to_act = fast.current_player()
        self._settle(agent, self._to_act, fast.returns)

    def render(self) -> str | None:
        """The spectator's text view: returned with ``render_mode="ansi"``, printed with "human"."""
        if self.render_mode is None:
            return None
        state = self.state
        if state is None:
            raise RuntimeError(NOT_RESET)
        text = self.spec_.render(state.view(None))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
