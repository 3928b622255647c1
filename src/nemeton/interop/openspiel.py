"""OpenSpiel Python games for every Nemeton game.

Importing this module registers ``nemeton_alarun``, ``nemeton_amarok`` and ``nemeton_edora``
with ``pyspiel.register_game``, so OpenSpiel's own algorithms run on them::

    import pyspiel, nemeton.interop.openspiel
    game = pyspiel.load_game("nemeton_amarok", {"players": 4, "teams": True})

- Parameters: ``players`` and every option of the game (with the games' bot defaults:
  Alarún's ``action_cap`` 30, Edora's ``safety_valve`` on). OpenSpiel parameters cannot be
  None: a data option (Amarok's ``deck``, Edora's ``board``) is ``""`` for the standard one
  and Alarún's ``action_cap`` is ``0`` for no cap.
- Imperfect information, sequential, *explicit stochastic* chance: a game's whole chance is
  its seed, as a Nemeton record's is (record = seed + actions). A new initial state is a
  chance node; four chance nodes of 256 equally likely outcomes each draw one byte of a
  32-bit seed, and the fourth deals the game from it. Everything random later in the game
  (shuffles, dice) follows from that seed, hidden from every seat until it shows. Alarún's
  simultaneous placement is played one seat at a time (lowest seat first); no seat sees
  another's placement before all have placed.
- Actions are the ids of the game's action space (``spec.action_space(options)``); an id
  that is not legal now raises :class:`IllegalActionError` and changes nothing.
- The observation is the player's current view: the string is the view as JSON, the tensor
  the encoding of docs/rl.md. The information state is perfect recall: the string is
  everything the seat has seen so far, its own event log (each entry as that seat received
  it, without the sentence) followed by its current view. No information-state *tensor* is
  claimed (a fixed-size tensor cannot hold a history of any length).
- ``resample_from_infostate(player, sampler)`` is the game's determinizer (its fast
  sampler): a full state consistent with the player's view, hidden cards re-dealt. The
  sample keeps the player's history, so its information-state string for that player is the
  original's; another seat's history in a sample is the public log and what it sees after.
- ``state.serialize()`` / ``game.deserialize_state(text)`` write and read a dealt state as
  its seed and action ids (a state still dealing: the seed bytes drawn; a sample: its full
  state); games and states pickle, and OpenSpiel's own ``serialize_game_and_state`` /
  ``deserialize_game_and_state`` round-trip them (``random_sim_test(..., serialize=True)``
  passes). A serialised state is a *full* state, hidden cards included (the seed tells the
  deal), like OpenSpiel's own: for the algorithm's own use, never to show a player.
- :func:`make_bot` makes OpenSpiel's bots that run on these games (the Python ISMCTS, MCTS
  on determinized samples) and refuses, with the reason, those that cannot (OpenSpiel's C++
  ISMCTS and MCTS bots, which crash on a Python game or search the hidden cards; CFR and
  other full-tree solvers, whose tree has 2^32 deals at its root).
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
from ..engine.errors import IllegalActionError, InputError

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
    return params


def _options(spec, params: dict[str, Any]):
    raw = dict(params)
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

    __slots__ = ("state", "views", "samplers", "seen")

    def __init__(self, state: State):
        self.state = state
        self.views: dict[int | None, dict] = {}
        self.samplers: dict[int, Any] = {}
        # per seat: its log entries as JSON text, grown as the game goes (entries never change)
        self.seen: dict[int, list[str]] = {}

    def __deepcopy__(self, memo) -> "_Box":
        box = _Box(self.state.clone())
        box.seen = {p: list(entries) for p, entries in self.seen.items()}
        return box

    def __reduce__(self):
        # OpenSpiel's own serialisation pickles a Python state's attributes: the state and
        # the seats' entries, not the caches (a sampler is a closure)
        return (_restore_box, (self.state, self.seen))

    def entries(self, player: int) -> list[str]:
        """The player's log entries so far, as JSON (its own version of each event, no sentence)."""
        seen = self.seen.setdefault(player, [])
        events = self.state.events or []
        for i in range(len(seen), len(events)):
            seen.append(json.dumps(events[i].entry(i, player), separators=(",", ":"), sort_keys=True))
        return seen

    def view(self, player: int | None) -> dict:
        v = self.views.get(player)
        if v is None:
            v = self.views[player] = self.state.view(player)
        return v


def _restore_box(state: State, seen: dict[int, list[str]]) -> _Box:
    box = _Box(state)
    box.seen = seen
    return box


#: The chance nodes that draw a game's seed, one byte each (big-endian): 2^32 deals.
SEED_BYTES = 4


class NemetonState(pyspiel.State):
    """An OpenSpiel state wrapping one Nemeton game (see the module docstring)."""

    def __init__(self, game: "NemetonGame", inner=None, recall: tuple[tuple[str, ...], ...] = ()):
        super().__init__(game)
        self._box: _Box | None = None if inner is None else _Box(inner)
        # the seed bytes drawn so far (a new initial state is a chance node); a state made
        # from an engine state (a sample) has none
        self._seed_bytes: tuple[int, ...] = ()
        self._seed: int | None = None
        # A sample's history before its own log (per seat; empty for a dealt game): immutable,
        # so OpenSpiel's deep copy shares it.
        self._recall = recall

    def _dealt(self) -> _Box:
        box = self._box
        if box is None:
            raise pyspiel.SpielError(f"the game is not dealt yet: this state is a chance node drawing its seed "
                                     f"({len(self._seed_bytes)} of {SEED_BYTES} bytes drawn)")
        return box

    @property
    def inner(self) -> State:
        """The engine state (a chance node drawing the seed has none yet: SpielError)."""
        return self._dealt().state

    def current_player(self) -> int:
        if self._box is None:
            return pyspiel.PlayerId.CHANCE
        p = self._box.state.current_player
        return pyspiel.PlayerId.TERMINAL if p == TERMINAL else p

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a seed chance node, the next byte of the seed: 256 equally likely outcomes."""
        if self._box is not None:
            raise pyspiel.SpielError("not a chance node: the game is dealt")
        return [(b, 1 / 256) for b in range(256)]

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self.get_game().actions.ids(self.inner.legal_actions(player)))

    def _apply_action(self, action: int) -> None:
        game = self.get_game()
        if self._box is None:
            if type(action) is not int or not 0 <= action < 256:
                raise IllegalActionError(f"a seed chance outcome is a byte, 0 to 255; got {action!r}")
            self._seed_bytes = (*self._seed_bytes, action)
            if len(self._seed_bytes) == SEED_BYTES:
                self._seed = int.from_bytes(bytes(self._seed_bytes), "big")
                self._box = _Box(game.deal(self._seed))
            return
        box = self._box
        state = box.state
        seat = state.current_player
        legal = self._legal_actions(seat) if seat != TERMINAL else []
        if action not in legal:
            raise IllegalActionError(_illegal(game, seat, action, legal))
        state.apply_unchecked(game.actions.actions[action], seat)
        box.views.clear()
        box.samplers.clear()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed byte {action}"
        return str(self.get_game().actions.actions[action])

    def is_terminal(self) -> bool:
        return self._box is not None and self._box.state.is_terminal()

    def returns(self) -> list[float]:
        if self._box is None:
            return [0.0] * self.get_game().num_players()
        return [float(x) for x in self._box.state.returns()]

    def rewards(self) -> list[float]:
        return self.returns()

    def view(self, player: int | None) -> dict | None:
        """The player's view (what its observation and information state are made of; None:
        the spectator's); None while the seed is drawn (nothing is dealt yet)."""
        return None if self._box is None else self._box.view(player)

    def resample_from_infostate(self, player_id: int, probability_sampler) -> "NemetonState":
        """A state consistent with ``player_id``'s view: the game's determinizer, seeded
        from ``probability_sampler`` (OpenSpiel's uniform sampler)."""
        box = self._dealt()
        sample = box.samplers.get(player_id)
        if sample is None:
            sample = box.samplers[player_id] = self.get_game().spec.sampler(box.view(player_id))
        seed = int(probability_sampler() * 2**52) ^ (int(probability_sampler() * 2**52) << 52)
        inner = sample(random.Random(seed)).record_events(True)
        players = self.get_game().num_players()
        # the player keeps its history; the others are known to have seen the public log (the
        # last entry: the spectator's)
        public = tuple(self.seen(None))
        recall = tuple(tuple(self.seen(p)) if p == player_id else public for p in range(players)) + (public,)
        return NemetonState(self.get_game(), inner, recall)

    def seen(self, player: int | None) -> list[str]:
        """The log entries ``player`` (None: the spectator) has received so far, as JSON."""
        box = self._box
        if box is None:
            return []
        if player is None:
            events = box.state.events or []
            entries = [json.dumps(e.entry(i, None), separators=(",", ":"), sort_keys=True)
                       for i, e in enumerate(events)]
            return [*(self._recall[-1] if self._recall else ()), *entries]
        return [*(self._recall[player] if self._recall else ()), *box.entries(player)]

    def information_state(self, player: int) -> str:
        """The seat's perfect-recall information state: its log so far and its current view."""
        return ('{"seen":[' + ",".join(self.seen(player)) + '],"view":'
                + json.dumps(self.view(player), separators=(",", ":")) + "}")

    # ----- serialisation: a dealt game is its seed and actions, a sample its full state ----
    def serialize(self) -> str:
        """The state as JSON text: ``{"seed", "actions"}`` for a dealt game (its player
        actions), ``{"seed_bytes"}`` while the seed is drawn, the full state (and the history
        each seat keeps) for a sample. Hidden cards included: see the module docstring."""
        if self._box is None:
            return json.dumps({"seed_bytes": list(self._seed_bytes)})
        if self._seed is None:
            return json.dumps({"state": self.inner.to_json(), "recall": [list(r) for r in self._recall]})
        return json.dumps({"seed": self._seed, "actions": self.history()[SEED_BYTES:]})

    def __reduce__(self):
        return (_restore_state, (self.get_game(), self.serialize()))

    def __str__(self) -> str:
        """The spectator's view (public information) as JSON, and the decisions so far."""
        if self._box is None:
            return f"dealing: {len(self._seed_bytes)} of {SEED_BYTES} seed bytes drawn"
        return f"{len(self.inner.history)} decisions; " + json.dumps(self.view(None), separators=(",", ":"))


def _illegal(game: "NemetonGame", seat: int, action: int, legal: list[int]) -> str:
    if seat == TERMINAL:
        return f"the game is over; no action is legal (got action id {action})"
    name = game.actions.actions[action] if 0 <= action < len(game.actions) else "not an action id"
    shown = ", ".join(f"{a} ({game.actions.actions[a]})" for a in legal[:12]) + (" ..." if len(legal) > 12 else "")
    return f"action id {action} ({name}) is not legal for seat {seat} now; legal: {shown}"


def _restore_state(game: "NemetonGame", text: str) -> "NemetonState":
    return game.deserialize_state(text)


class NemetonObserver:
    """Observation of one player: its view as JSON (string) and its encoding (tensor, with
    ``dict`` naming each slice as in docs/rl.md)."""

    def __init__(self, encoding):
        self.encoding = encoding
        self.tensor = np.zeros(encoding.observation_size, dtype=np.float32)
        self.dict = encoding.layout.split(self.tensor)

    def set_from(self, state: NemetonState, player: int) -> None:
        view = state.view(player)
        if view is None:  # the seed is being drawn: nothing to see yet
            self.tensor.fill(0.0)
        else:
            self.encoding.encode(view, self.tensor)

    def string_from(self, state: NemetonState, player: int) -> str:
        return json.dumps(state.view(player), separators=(",", ":"))


class NemetonRecallObserver:
    """Perfect-recall information state of one player: a string only (no tensor claimed)."""

    def __init__(self):
        self.tensor = np.zeros(0, dtype=np.float32)
        self.dict: dict[str, Any] = {}

    def set_from(self, state: NemetonState, player: int) -> None:
        raise pyspiel.SpielError("the Nemeton games provide no information-state tensor (a history "
                                 "has no fixed size); use information_state_string or observation_tensor")

    def string_from(self, state: NemetonState, player: int) -> str:
        return state.information_state(player)


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
            num_distinct_actions=len(encoding.actions), max_chance_outcomes=256, num_players=facts.players,
            min_utility=facts.min_utility, max_utility=facts.max_utility, utility_sum=facts.utility_sum,
            max_game_length=facts.max_game_length or facts.typical_game_length)
        super().__init__(self.game_type, info, merged)
        self._params = merged

    def deal(self, seed: int):
        """A new engine game, its event log on (the players' information states)."""
        return self.spec.new_state(self.options, seed)

    def new_initial_state(self) -> NemetonState:
        return NemetonState(self)

    def deserialize_state(self, text: str) -> NemetonState:
        """The state ``NemetonState.serialize`` wrote (seed and action ids, the seed bytes
        drawn, or a sample's full state); anything else raises InputError."""
        try:
            data = json.loads(text)
        except (TypeError, ValueError) as exc:
            raise InputError(f"a serialised Nemeton state is JSON text: {exc}") from None
        if isinstance(data, dict) and "state" in data:
            recall = tuple(tuple(r) for r in data.get("recall", []))
            return NemetonState(self, self.spec.state_from_json(data["state"]).record_events(True), recall)
        state = NemetonState(self)
        if isinstance(data, dict) and isinstance(data.get("seed_bytes"), list) and len(data) == 1:
            drawn = data["seed_bytes"]
            if len(drawn) >= SEED_BYTES or any(type(b) is not int or not 0 <= b < 256 for b in drawn):
                raise InputError(f"seed_bytes: fewer than {SEED_BYTES} bytes, each 0 to 255")
            for b in drawn:
                state.apply_action(b)
            return state
        if not (isinstance(data, dict) and type(data.get("seed")) is int and isinstance(data.get("actions"), list)):
            raise InputError('a serialised Nemeton state is {"seed": int, "actions": [ids]}, '
                             '{"seed_bytes": [bytes]} or {"state": ...}')
        seed = data["seed"]
        if not 0 <= seed < 256 ** SEED_BYTES:
            raise InputError(f"the seed of an OpenSpiel Nemeton game is 0 to 2^{8 * SEED_BYTES} - 1; got {seed}")
        for b in seed.to_bytes(SEED_BYTES, "big"):
            state.apply_action(b)
        for action in data["actions"]:
            if type(action) is not int:
                raise InputError(f"an action id must be an integer; got {action!r}")
            state.apply_action(action)
        return state

    def __reduce__(self):
        return (pyspiel.load_game, (self.game_type.short_name, dict(self._params)))

    def make_py_observer(self, iig_obs_type=None, params=None):
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            return NemetonRecallObserver()
        return NemetonObserver(self.encoding)


def _game_type(spec) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=_NAME.format(spec.name), long_name=f"Nemeton {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(spec.player_counts), min_num_players=min(spec.player_counts),
        provides_information_state_string=True, provides_information_state_tensor=False,
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


class DeterminizedBot(pyspiel.Bot):
    """A perfect-information OpenSpiel bot (MCTS) playing each decision on one determinized
    sample of the state (``resample_from_infostate``): it never sees the hidden cards."""

    def __init__(self, bot: pyspiel.Bot, player: int, seed: int = 0):
        super().__init__()
        self.bot, self.player = bot, player
        self._sampler = random.Random(seed).random

    def step(self, state: pyspiel.State) -> int:
        return self.bot.step(state.resample_from_infostate(state.current_player(), self._sampler))

    def restart_at(self, state: pyspiel.State) -> None:
        pass


#: OpenSpiel algorithms that cannot run on these games, and why (make_bot refuses them).
REFUSED = {
    "cpp_ismcts": "OpenSpiel's C++ ISMCTSBot (pyspiel.ISMCTSBot) crashes the process on a Python game "
                  "(it cannot resample a Python state): use make_bot('ismcts', ...), the Python ISMCTS",
    "cpp_mcts": "OpenSpiel's C++ MCTSBot (pyspiel.MCTSBot) searches the true state, hidden cards included: "
                "use make_bot('mcts', ...), MCTS on determinized samples",
    "cfr": "CFR (and CFR+, best response, exploitability) walks the whole game tree, and these games' trees "
           "have 2^32 deals at the root and far too many decisions under each: it would never finish "
           "a first iteration; outcome-sampling MCCFR (open_spiel.python.algorithms.outcome_sampling_mccfr) "
           "samples a deal and a line of play each iteration",
}
REFUSED["cfr_plus"] = REFUSED["cfr"]


def make_bot(name: str, game: pyspiel.Game, player: int, *, simulations: int = 100, uct_c: float = 2.0,
             seed: int = 0) -> pyspiel.Bot:
    """An OpenSpiel bot that runs on a Nemeton game: ``"ismcts"`` (OpenSpiel's Python ISMCTS)
    or ``"mcts"`` (OpenSpiel's Python MCTS on a determinized sample at each decision), both
    with random rollouts. The names in :data:`REFUSED` raise InputError saying why they cannot
    run here (instead of crashing the process)."""
    from open_spiel.python.algorithms import ismcts, mcts
    if name in REFUSED:
        raise InputError(f"{name} cannot run on the Nemeton games: {REFUSED[name]}")
    rs = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(1, rs)
    if name == "ismcts":
        return ismcts.ISMCTSBot(game, evaluator, uct_c, max_simulations=simulations, random_state=rs)
    if name == "mcts":
        return DeterminizedBot(mcts.MCTSBot(game, uct_c, simulations, evaluator, random_state=rs), player, seed)
    raise InputError(f"unknown bot {name!r}: 'ismcts' or 'mcts' (refused, with the reason: "
                     f"{', '.join(sorted(REFUSED))})")


def load(game: str, **params: Any) -> pyspiel.Game:
    """``pyspiel.load_game("nemeton_<game>", params)`` after registering the games."""
    get_game(game)
    return pyspiel.load_game(_NAME.format(game), params)


_register()
