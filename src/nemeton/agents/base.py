"""The agent protocol.

An agent is bound to a game and a seat, owns a seeded random stream, and on each decision
receives only its seat's view (the JSON-ready dict of ``state.view(seat)``) and the legal
actions; an agent that reads the event log says so (``needs_log``) and is shown its seat's
new log entries before each decision (``observe``). It never receives the state. Agents are
named by spec strings usable everywhere: ``random``, ``heuristic``,
``ismcts:iterations=2000``, ``ismcts:seconds=1.0:c=0.7``. A spec may also name Python code, an
:class:`Agent` subclass: ``mybots:Greedy`` (a module importable from the working directory or
``PYTHONPATH``) or ``path/to/bots.py:Greedy``, followed by ``:key=value`` parameters typed by
the class's ``params``; and packages register agents by name under the entry-point group
``nemeton.agents`` (docs/agents.md). Built-in names come first.

Per-game knowledge lives in the game's :class:`~nemeton.engine.heuristic.GameHeuristic`
(``games/<g>/heuristic.py``, named by its ``GameSpec``): a rule-of-thumb policy on views, the
same policy on (determinized) states for fast rollouts, and a state evaluation for cut-off
rollouts.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import random
import sys
from abc import ABC, abstractmethod
from importlib.metadata import entry_points
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
    if (name in _agent_classes() or name in registered_agents()) and agent_spec.strip() != name:
        raise AgentSpecError(f"{name!r} is an agent's own name; name {agent_spec!r} otherwise")
    parse_agent_spec(agent_spec)  # a valid agent spec, or AgentSpecError
    _NAMED[name] = agent_spec.strip()


ENTRY_POINT_GROUP = "nemeton.agents"


def registered_agents() -> dict[str, Any]:
    """The entry points of the group ``nemeton.agents`` by name (not loaded), built-in names
    left out: a package cannot replace ``random``, ``heuristic`` or ``ismcts``."""
    builtins = _agent_classes()
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name not in builtins}


def load_registered(name: str, entry_point: Any) -> type[Agent]:
    """The class an entry point names, checked to be an agent."""
    try:
        loaded = entry_point.load()
    except Exception as exc:  # a broken plugin says so and names itself, whatever it raised
        raise AgentSpecError(f"agent {name!r} (entry point {entry_point.value}) cannot be loaded: "
                             f"{type(exc).__name__}: {exc}") from None
    return _checked_agent_class(loaded, f"agent {name!r} (entry point {entry_point.value})")


def is_code_spec(agent_spec: str) -> bool:
    """Whether ``agent_spec`` names Python code (``module:Class``, ``file.py:Class``) rather
    than a built-in, a registered or a named agent: code runs in this process, so a server
    never takes such a spec from a client."""
    agent_spec = _NAMED.get(agent_spec.strip(), agent_spec).strip()
    name, _, rest = agent_spec.partition(":")
    if name in _agent_classes() or name in registered_agents():
        return False
    return bool(rest) and "=" not in rest.split(":")[0]


# module:Class and file.py:Class already looked up in this process (a file is loaded once)
_CODE: dict[str, type[Agent]] = {}


def _checked_agent_class(obj: Any, what: str) -> type[Agent]:
    if not (isinstance(obj, type) and issubclass(obj, Agent)):
        raise AgentSpecError(f"{what} is not an agent: it must be a subclass of nemeton.agents.Agent "
                             "(see docs/agents.md)")
    if getattr(obj, "__abstractmethods__", None):
        raise AgentSpecError(f"{what} is not an agent yet: it does not define "
                             f"{', '.join(sorted(obj.__abstractmethods__))}")
    return obj


def _load_module_file(path: str) -> Any:
    """The module in the Python file ``path`` (relative to the working directory), loaded once
    under a name of its own (so that worker processes and pickling find its classes)."""
    full = os.path.abspath(path)
    if not os.path.isfile(full):
        raise AgentSpecError(f"no agent file {path!r} (looked for {full})")
    stem = "".join(c if c.isalnum() else "_" for c in os.path.splitext(os.path.basename(full))[0])
    module_name = f"nemeton_user_agents.{stem}_{hashlib.sha256(full.encode()).hexdigest()[:10]}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    sys.modules.setdefault("nemeton_user_agents", type(sys)("nemeton_user_agents"))
    spec = importlib.util.spec_from_file_location(module_name, full)
    if spec is None or spec.loader is None:
        raise AgentSpecError(f"agent file {path!r} is not a Python module (name it .py)")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[module_name]
        raise AgentSpecError(f"agent file {path!r} fails to load: {type(exc).__name__}: {exc}") from None
    return module


def _import_module(name: str) -> Any:
    """The module ``name``, looked up from the working directory first, then ``PYTHONPATH``."""
    cwd = os.getcwd()
    if cwd not in sys.path and "" not in sys.path:
        sys.path.insert(0, cwd)
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and (name == exc.name or name.startswith(exc.name + ".")):
            raise AgentSpecError(f"no agent module {name!r}: neither in the working directory ({cwd}) nor on "
                                 "PYTHONPATH; give module:Class or path/to/file.py:Class") from None
        raise AgentSpecError(f"agent module {name!r} fails to load: {exc}") from None
    except Exception as exc:
        raise AgentSpecError(f"agent module {name!r} fails to load: {type(exc).__name__}: {exc}") from None


def load_code_agent(where: str, class_name: str) -> type[Agent]:
    """The :class:`Agent` subclass ``class_name`` of the module ``where`` (a dotted module
    name, or a path to a ``.py`` file)."""
    key = f"{where}:{class_name}"
    if key in _CODE:
        return _CODE[key]
    is_file = where.endswith(".py") or "/" in where or os.sep in where
    module = _load_module_file(where) if is_file else _import_module(where)
    obj = getattr(module, class_name, None)
    if obj is None:
        raise AgentSpecError(f"{where!r} has no class {class_name!r}")
    _CODE[key] = _checked_agent_class(obj, f"{key}")
    return _CODE[key]


def _agent_class(name: str, parts: list[str]) -> tuple[str, type[Agent], list[str]]:
    """(label, class, parameter parts) of a spec split at ``:``: a built-in, a registered
    agent, or ``module:Class`` / ``file.py:Class``."""
    classes = _agent_classes()
    if name in classes:
        return name, classes[name], parts
    registered = registered_agents()
    if name in registered:
        return name, load_registered(name, registered[name]), parts
    if parts and "=" not in parts[0]:
        return f"{name}:{parts[0]}", load_code_agent(name, parts[0]), parts[1:]
    available = ", ".join([*classes, *registered])
    raise AgentSpecError(f"unknown agent {name!r}; available agents: {available} "
                         "(or your own: module:Class or path/to/file.py:Class)")


def parse_agent_spec(agent_spec: str) -> tuple[type[Agent], dict[str, Any]]:
    """``"ismcts:iterations=2000:c=0.7"`` -> (class, {"iterations": 2000, "c": 0.7}); a name
    given to :func:`name_agent` is read as the agent spec it stands for; ``mybots:Greedy:depth=2``
    imports ``mybots`` and takes its ``Greedy`` (parameters typed by ``Greedy.params``)."""
    agent_spec = _NAMED.get(agent_spec.strip(), agent_spec)
    name, *parts = agent_spec.strip().split(":")
    name, cls, parts = _agent_class(name, parts)
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
