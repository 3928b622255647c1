"""The agent protocol.

An agent is bound to a game and a seat, owns a seeded random stream, and on each decision
receives only its seat's view (the JSON-ready dict of ``state.view(seat)``) and the legal
actions; an agent that reads the event log says so (``needs_log``) and is shown its seat's
new log entries before each decision (``observe``). It never receives the state. Agents are
named by spec strings usable everywhere: ``random``, ``heuristic``,
``ismcts:iterations=2000``, ``ismcts:seconds=1.0:c=0.7``.

Per-game knowledge lives in the game's :class:`~nemeton.engine.heuristic.GameHeuristic`
(``games/<g>/heuristic.py``, named by its ``GameSpec``): a rule-of-thumb policy on views, the
same policy on (determinized) states for fast rollouts, and a state evaluation for cut-off
rollouts.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any, Callable, Mapping, Sequence

from ..engine import Action, GameSpec, NemetonError, get_game
from ..engine.heuristic import GameHeuristic


class AgentSpecError(NemetonError, ValueError):
    """An unknown agent or parameter in an agent spec."""


class Agent(ABC):
    """Decides for one seat from that seat's view only."""

    name = "agent"
    needs_view = True  # False: the agent ignores the view, which is then not built
    needs_log = False  # True: observe() receives the seat's log entries before each decision
    params: Mapping[str, Callable[[str], Any]] = {}

    def __init__(self, game: GameSpec, seat: int, rng: random.Random, **params: Any):
        self.game = game
        self.seat = seat
        self.rng = rng

    @abstractmethod
    def act(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        """Choose one of ``legal`` knowing only ``view``."""

    def observe(self, entries: Sequence[Mapping[str, Any]]) -> None:
        """Called before each decision of an agent with ``needs_log``: its seat's log entries
        (``state.log(seat, since=...)``) since its last decision, its own last action
        included (all entries so far before its first decision). Default: ignore them."""

    def __str__(self) -> str:
        return self.name

    def settings(self) -> dict[str, Any]:
        """Every parameter this agent plays with, defaults resolved (for result records:
        two runs with equal settings played the same agent)."""
        return {}

    def settings_for(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """:meth:`settings` as they will be in a game with ``options`` (the options' JSON
        form), where an agent refines its defaults per options."""
        return self.settings()


def get_heuristic(game: str) -> GameHeuristic:
    """The heuristic that the game named ``game`` declares in its ``GameSpec``."""
    try:
        spec = get_game(game)
    except NemetonError:
        raise AgentSpecError(f"no heuristic is written for {game!r} yet") from None
    if spec.heuristic is None:
        raise AgentSpecError(f"no heuristic is written for {game!r} yet")
    return spec.heuristic()


class RandomAgent(Agent):
    """Uniformly random among the legal actions."""

    name = "random"
    needs_view = False

    def act(self, view, legal):
        return self.rng.choice(legal)


class HeuristicAgent(Agent):
    """The game's rule-of-thumb player (its ``heuristic.py``)."""

    name = "heuristic"

    def __init__(self, game, seat, rng, **params):
        super().__init__(game, seat, rng)
        self.heuristic = get_heuristic(game.name)

    def act(self, view, legal):
        return self.heuristic.choose_from_view(view, legal, self.rng)


def _agent_classes() -> dict[str, type[Agent]]:
    classes: dict[str, type[Agent]] = {"random": RandomAgent, "heuristic": HeuristicAgent}
    try:
        from .ismcts import ISMCTSAgent
        classes["ismcts"] = ISMCTSAgent
    except ModuleNotFoundError as exc:
        if exc.name != "nemeton.agents.ismcts":
            raise
    try:
        from .policy import PolicyAgent  # a learned network (needs NumPy: the rl extra)
        classes["policy"] = PolicyAgent
    except ModuleNotFoundError as exc:
        if exc.name not in ("nemeton.agents.policy", "numpy"):
            raise
    return classes


# Names that stand for specs in this process (a game server's operator names the agents it
# offers: ``search-1s`` for ``ismcts:seconds=1``); see :func:`name_agent`.
_NAMED: dict[str, str] = {}


def name_agent(name: str, agent_spec: str) -> None:
    """From now on ``name`` stands for ``agent_spec`` wherever this process reads an agent spec
    (a stored room's seat holds the name). A name is never an agent spec itself: no ``:``,
    and an agent's own name (``random``) may only stand for that agent."""
    if not name or ":" in name or "=" in name:
        raise AgentSpecError(f"an agent's name has no ':' or '=': {name!r}")
    if name in _agent_classes() and agent_spec.strip() != name:
        raise AgentSpecError(f"{name!r} is an agent's own name; name {agent_spec!r} otherwise")
    parse_agent_spec(agent_spec)  # a valid agent spec, or AgentSpecError
    _NAMED[name] = agent_spec.strip()


def parse_agent_spec(agent_spec: str) -> tuple[type[Agent], dict[str, Any]]:
    """``"ismcts:iterations=2000:c=0.7"`` -> (class, {"iterations": 2000, "c": 0.7}); a name
    given to :func:`name_agent` is read as the agent spec it stands for."""
    classes = _agent_classes()
    agent_spec = _NAMED.get(agent_spec.strip(), agent_spec)
    name, *parts = agent_spec.strip().split(":")
    cls = classes.get(name)
    if cls is None:
        raise AgentSpecError(f"unknown agent {name!r}; available agents: {', '.join(classes)}")
    params: dict[str, Any] = {}
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep or key not in cls.params:
            allowed = ", ".join(cls.params) or "none"
            what = f"no parameter {key!r}" if sep else f"a parameter without a value: {part!r} (write name=value)"
            raise AgentSpecError(f"agent {name!r} has {what}; its parameters: {allowed}")
        try:
            params[key] = cls.params[key](value)
        except AgentSpecError:  # a parameter that explains itself (policy: a file that cannot be used)
            raise
        except ValueError:
            expected = getattr(cls.params[key], "__name__", "a value")
            raise AgentSpecError(f"agent {name!r}: bad value for {key}: {value!r} (expected {expected})") from None
    return cls, params


def make_agent(agent_spec: str, game: GameSpec, seat: int, seed: int) -> Agent:
    """The agent ``agent_spec`` names, for ``seat`` of ``game`` (its GameSpec), with its own
    random stream seeded by ``seed``."""
    cls, params = parse_agent_spec(agent_spec)
    return cls(game, seat, random.Random(seed), **params)
