"""OpenSpiel Python games for every Nemeton game.

Importing this module registers ``nemeton_alarun``, ``nemeton_amarok`` and ``nemeton_edora``
with ``pyspiel.register_game``, so OpenSpiel's own algorithms run on them::

    import pyspiel, nemeton.interop.openspiel
    game = pyspiel.load_game("nemeton_amarok", {"players": 4, "teams": True})

- Parameters: ``players``, every option of the game (with the games' bot defaults: Alarún's
  ``action_cap`` 30, Edora's ``safety_valve`` on), and ``rng_seed`` (the stream the games'
  seeds are drawn from; -1 = a random one). OpenSpiel parameters cannot be None: a data
  option (Amarok's ``deck``, Edora's ``board``) is ``""`` for the standard one and Alarún's
  ``action_cap`` is ``0`` for no cap.
- Imperfect information, sequential, *sampled stochastic* chance: a state owns its random
  stream (the engine's), so there are no chance nodes; a new initial state is a new deal.
  Alarún's simultaneous placement is played one seat at a time (lowest seat first); no seat
  sees another's placement before all have placed.
- Actions are the ids of the game's action space (``spec.action_space(options)``).
- Observation and information-state strings and tensors are made from the player's view
  alone: the string is the view as JSON, the tensor the encoding of docs/rl.md. The
  information state is the view too, which is *not* perfect recall (a view shows the table
  as it is, not everything the seat saw before); algorithms that need perfect recall (CFR)
  are not meant for these games.
- ``resample_from_infostate(player, sampler)`` is the game's determinizer (its fast
  sampler): a full state consistent with the player's view, hidden cards re-dealt.
- Returns are the engine's: 1 shared among the winning teams (a team's members each get its
  share), so ``utility_sum`` is players / teams; ``max_game_length`` is the bound where the
  rules set one (Alarún with a cap), else the scale of ``GameFacts.typical_game_length``.
"""

from __future__ import annotations

import json
import random
from typing import Any, ClassVar

import numpy as np
import pyspiel

from ..engine import TERMINAL, GameSpec, State, get_game, list_games

_NAME = "nemeton_{}"


def _parameters(spec) -> dict[str, Any]:
    """OpenSpiel's parameter specification: every option with its (bot) default."""
    params: dict[str, Any] = {"players": spec.options().players}
    defaults = spec.options(**spec.bot_defaults).to_json()
    for info in spec.describe_options():
        if info.name == "players":
            continue
        value = defaults[info.name]
        if value is None:
            value = "" if info.kind == "data" else 0
        params[info.name] = value
    params["rng_seed"] = -1
    return params


def _options(spec, params: dict[str, Any]):
    raw = dict(params)
    raw.pop("rng_seed", None)
    kinds = {info.name: info for info in spec.describe_options()}
    for name, value in list(raw.items()):
        info = kinds.get(name)
        if info is not None and info.default is None and name not in ("players",):
            if (info.kind == "data" and value == "") or (info.kind == "int" and value == 0):
                raw[name] = None
    return spec.options(**raw)


class _Box:
    """The engine state inside an OpenSpiel state, with the views asked of it. OpenSpiel
    clones a Python state by deep-copying its attributes: this one copies by ``clone()``
    (sharing the immutable tables) and drops the cached views."""

    __slots__ = ("state", "views", "samplers")

    def __init__(self, state: State):
        self.state = state
        self.views: dict[int | None, dict] = {}
        self.samplers: dict[int, Any] = {}

    def __deepcopy__(self, memo) -> "_Box":
        return _Box(self.state.clone())

    def view(self, player: int | None) -> dict:
        v = self.views.get(player)
        if v is None:
            v = self.views[player] = self.state.view(player)
        return v


class NemetonState(pyspiel.State):
    """An OpenSpiel state wrapping one Nemeton game (see the module docstring)."""

    def __init__(self, game: "NemetonGame", inner=None):
        super().__init__(game)
        # A new initial state draws its seed now and deals when first used: OpenSpiel's clone
        # makes a fresh initial state and then overwrites its attributes, so dealing here
        # would be wasted (and a clone of a state not dealt yet deals the same game).
        self._box: _Box | None = None if inner is None else _Box(inner)
        self._seed = game.next_seed() if inner is None else None

    def _deal(self) -> _Box:
        """Deal the game of a new initial state (at its first use: ``self._box or self._deal()``)."""
        box = self._box = _Box(self.get_game().deal(self._seed))
        return box

    @property
    def inner(self) -> State:
        """The engine state (dealt on first use for a new initial state)."""
        return (self._box or self._deal()).state

    def current_player(self) -> int:
        p = self.inner.current_player
        return pyspiel.PlayerId.TERMINAL if p == TERMINAL else p

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self.get_game().actions.ids(self.inner.legal_actions(player)))

    def _apply_action(self, action: int) -> None:
        box = self._box or self._deal()
        state = box.state
        state.apply_unchecked(self.get_game().actions.actions[action], state.current_player)
        box.views.clear()
        box.samplers.clear()

    def _action_to_string(self, player: int, action: int) -> str:
        return str(self.get_game().actions.actions[action])

    def is_terminal(self) -> bool:
        return self.inner.is_terminal()

    def returns(self) -> list[float]:
        return [float(x) for x in self.inner.returns()]

    def rewards(self) -> list[float]:
        return self.returns()

    def view(self, player: int | None) -> dict:
        """The player's view (what its observation and information state are made of; None:
        the spectator's)."""
        return (self._box or self._deal()).view(player)

    def resample_from_infostate(self, player_id: int, probability_sampler) -> "NemetonState":
        """A state consistent with ``player_id``'s view: the game's determinizer, seeded
        from ``probability_sampler`` (OpenSpiel's uniform sampler)."""
        box = self._box or self._deal()
        sample = box.samplers.get(player_id)
        if sample is None:
            sample = box.samplers[player_id] = self.get_game().spec.sampler(box.view(player_id))
        seed = int(probability_sampler() * 2**52) ^ (int(probability_sampler() * 2**52) << 52)
        return NemetonState(self.get_game(), sample(random.Random(seed)))

    def __str__(self) -> str:
        """The spectator's view (public information) as JSON, and the decisions so far."""
        return f"{len(self.inner.history)} decisions; " + json.dumps(self.view(None), separators=(",", ":"))


class NemetonObserver:
    """Observation and information state of one player: its view as JSON (string) and its
    encoding (tensor, with ``dict`` naming each slice as in docs/rl.md)."""

    def __init__(self, encoding):
        self.encoding = encoding
        self.tensor = np.zeros(encoding.observation_size, dtype=np.float32)
        self.dict = encoding.layout.split(self.tensor)

    def set_from(self, state: NemetonState, player: int) -> None:
        self.encoding.encode(state.view(player), self.tensor)

    def string_from(self, state: NemetonState, player: int) -> str:
        return json.dumps(state.view(player), separators=(",", ":"))


class NemetonGame(pyspiel.Game):
    """One Nemeton game for OpenSpiel, for one set of parameters."""

    # set per game by _register, on the class it registers (this base is never loaded itself)
    spec: ClassVar[GameSpec]
    game_type: ClassVar[pyspiel.GameType]

    def __init__(self, params: dict[str, Any] | None = None):
        spec = self.spec
        merged = {**_parameters(spec), **(params or {})}
        self.options = _options(spec, merged)
        encoding = spec.encoding(self.options)
        self.encoding = encoding
        self.actions = encoding.actions
        facts = encoding.facts
        info = pyspiel.GameInfo(
            num_distinct_actions=len(encoding.actions), max_chance_outcomes=0, num_players=facts.players,
            min_utility=facts.min_utility, max_utility=facts.max_utility, utility_sum=facts.utility_sum,
            max_game_length=facts.max_game_length or facts.typical_game_length)
        super().__init__(self.game_type, info, merged)
        seed = merged["rng_seed"]
        self._seeds = random.Random(None if seed < 0 else seed)

    def next_seed(self) -> int:
        """The seed of the next new game, drawn from the game's stream (``rng_seed``)."""
        return self._seeds.getrandbits(63)

    def deal(self, seed: int):
        """A new engine game (its event log off: no one reads it here)."""
        state = self.spec.new_state(self.options, seed)
        state.record_events(False)
        return state

    def new_initial_state(self) -> NemetonState:
        return NemetonState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> NemetonObserver:
        return NemetonObserver(self.encoding)


def _game_type(spec) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=_NAME.format(spec.name), long_name=f"Nemeton {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(spec.player_counts), min_num_players=min(spec.player_counts),
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=_parameters(spec))


def _register() -> None:
    registered = set(pyspiel.registered_names())
    for spec in list_games():
        if spec.encoding_module is None or _NAME.format(spec.name) in registered:
            continue
        game_type = _game_type(spec)
        cls = type(f"Nemeton{spec.name.title()}Game", (NemetonGame,), {"spec": spec, "game_type": game_type})
        pyspiel.register_game(game_type, cls)


def load(game: str, **params: Any) -> pyspiel.Game:
    """``pyspiel.load_game("nemeton_<game>", params)`` after registering the games."""
    get_game(game)
    return pyspiel.load_game(_NAME.format(game), params)


_register()
