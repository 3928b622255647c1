"""The agents a server offers: named and bounded by its operator, the only ones clients get.

A client never sends an agent spec: it names one of the agents the operator configured
(``nemeton serve --agent NAME=SPEC``; by default ``random``, ``heuristic``, ``search-1s`` and
``search-3s``), in a room's AI seats and when the creator hands a seat to an agent. The room
stores the name; the name stands for its spec in this process (:func:`~nemeton.agents.base.name_agent`),
so a stored room's agents are rebuilt from it. A room stored with a raw spec (before names, or
by a server configured with ``any_spec``) still replays and its agents still play.

An operator's specs are bounded when the server starts: at most :data:`MAX_THINK_SECONDS`
seconds or :data:`MAX_ITERATIONS` iterations per decision, and ``workers`` at most the
machine's cores. A process that serves searches with helpers started by ``spawn``
(:mod:`nemeton.agents.parallel`): they inherit none of the server's sockets, and they end
with their game, at shutdown, and with the server however it ends.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from ..agents import parallel
from ..agents.base import AgentSpecError, is_code_spec, make_agent, name_agent, parse_agent_spec
from ..engine import GameSpec, NemetonError
from ..i18n import msg

MAX_THINK_SECONDS = 10.0
MAX_ITERATIONS = 20_000
MAX_WORKERS = max(1, os.cpu_count() or 1)
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")


class AgentConfigError(ValueError):
    """An operator's agent configuration that the server will not start with."""


@dataclass(frozen=True)
class OfferedAgent:
    name: str
    spec: str
    label: str
    help: str
    # The label and help as messages a client shows in its reader's language (None: the
    # English label and help only, as an operator wrote them).
    label_msg: dict[str, Any] | None = field(default=None, compare=False)
    help_msg: dict[str, Any] | None = field(default=None, compare=False)

    def entry(self) -> dict[str, Any]:
        """For ``/api/games``: ``spec`` holds the name (what a client sends as a seat's agent);
        ``label_msg``/``help_msg`` when the label and help are messages."""
        out: dict[str, Any] = {"name": self.name, "spec": self.name, "label": self.label,
                               "help": self.help}
        if self.label_msg is not None:
            out["label_msg"] = self.label_msg
        if self.help_msg is not None:
            out["help_msg"] = self.help_msg
        return out


def _default(name: str, spec: str, label: str, help: str) -> OfferedAgent:
    """One of the agents offered by default: label and help as the messages nemeton.agent.<key>
    and nemeton.agent.<key>.help (key: the name with '_' for '-'; the English here is theirs)."""
    key = name.replace("-", "_")
    return OfferedAgent(name, spec, label, help, msg(f"nemeton.agent.{key}"), msg(f"nemeton.agent.{key}.help"))


DEFAULT_AGENTS = (
    _default("random", "random", "Random", "plays any legal move"),
    _default("heuristic", "heuristic", "Heuristic", "plays by rules of thumb, at once"),
    _default("search-1s", "ismcts:seconds=1", "Search (1 s)", "information-set MCTS, about a second a move"),
    _default("search-3s", "ismcts:seconds=3", "Search (3 s)", "information-set MCTS, about three seconds a move"),
)


def budget_refusal(spec: str) -> str | None:
    """Why ``spec`` asks for more than a server gives one decision, or None."""
    _cls, params = parse_agent_spec(spec)
    if params.get("seconds", 0) > MAX_THINK_SECONDS:
        return f"an agent may think at most {MAX_THINK_SECONDS:g} seconds per decision here"
    if params.get("iterations", 0) > MAX_ITERATIONS:
        return f"an agent may search at most {MAX_ITERATIONS:,} iterations per decision here"
    if params.get("workers", 1) > MAX_WORKERS:
        return f"an agent may search with at most {MAX_WORKERS} workers here (this machine's cores)"
    return None


def parse_agent_option(text: str) -> tuple[str, str]:
    """``--agent NAME=SPEC`` -> (NAME, SPEC); a bare known agent (``random``) names itself."""
    name, sep, spec = text.partition("=")
    name, spec = name.strip(), spec.strip()
    if not sep:
        name = spec = text.strip()
    if not name or not spec:
        raise AgentConfigError(f"--agent {text!r}: write NAME=SPEC, e.g. strong=ismcts:seconds=2")
    return name, spec


class AgentPolicy:
    """The agents one server offers (``agents``: name -> spec, or :class:`OfferedAgent`\\ s;
    default :data:`DEFAULT_AGENTS`). With ``any_spec`` (tests, trusted setups) any valid spec
    within the budget is also accepted, as its own name."""

    def __init__(self, agents: Mapping[str, str] | Iterable[OfferedAgent] | None = None, any_spec: bool = False):
        if agents is None:
            offered = list(DEFAULT_AGENTS)
        elif isinstance(agents, Mapping):
            defaults = {a.name: a for a in DEFAULT_AGENTS}
            offered = [defaults[name] if name in defaults and defaults[name].spec == spec
                       else OfferedAgent(name, spec, name, f"{spec} (configured by this server)",
                                         help_msg=msg("nemeton.agent.configured.help", spec=spec))
                       for name, spec in agents.items()]
        else:
            offered = list(agents)
        if not offered:
            raise AgentConfigError("a server offers at least one agent (--agent NAME=SPEC)")
        for a in offered:
            if not _NAME.fullmatch(a.name):
                raise AgentConfigError(f"agent name {a.name!r}: 1 to 40 letters, digits, '-', '_' or '.'")
            try:
                refusal = budget_refusal(a.spec)
                name_agent(a.name, a.spec)
            except NemetonError as exc:
                raise AgentConfigError(f"agent {a.name}={a.spec}: {exc}") from None
            if refusal is not None:
                raise AgentConfigError(f"agent {a.name}={a.spec}: {refusal}")
        self.offered = tuple(offered)
        self.names = {a.name: a for a in offered}
        self.any_spec = any_spec

    @classmethod
    def of(cls, agents: "AgentPolicy | Mapping[str, str] | Iterable[OfferedAgent] | None") -> "AgentPolicy":
        return agents if isinstance(agents, AgentPolicy) else cls(agents)

    def entries(self) -> list[dict[str, Any]]:
        return [a.entry() for a in self.offered]

    def entries_for(self, game: GameSpec) -> list[dict[str, Any]]:
        """The offered agents that can play ``game`` (a learned policy plays only the game it
        was trained for), worked out once per game."""
        cache: dict[str, list[dict[str, Any]]] = self.__dict__.setdefault("_entries_for", {})
        if game.name not in cache:
            playable = []
            for a in self.offered:
                try:
                    make_agent(a.spec, game, 0, 0)
                except NemetonError:
                    continue
                playable.append(a.entry())
            cache[game.name] = playable
        return cache[game.name]

    def check(self, agent: str, game: GameSpec, seat: int, options: Any = None) -> None:
        """A client's choice of agent for a seat: one of the names offered (or, with
        ``any_spec``, a spec within the budget) that can play ``game`` (with ``options``, a
        GameOptions, when given: its ``settings_for`` refuses options it cannot play, as a
        learned policy does those it was not trained for); AgentSpecError says why not."""
        if agent not in self.names:
            if not self.any_spec:
                raise AgentSpecError(f"unknown agent {agent[:60]!r}; this server offers: "
                                     f"{', '.join(self.names)}")
            if is_code_spec(agent):  # code runs in the server's process: only its operator names it
                raise AgentSpecError(f"a client cannot name Python code as an agent ({agent[:60]!r}); "
                                     f"this server offers: {', '.join(self.names)}")
            refusal = budget_refusal(agent)
            if refusal is not None:
                raise AgentSpecError(refusal)
        made = make_agent(agent, game, seat, 0)
        if options is not None:
            made.settings_for(options.to_json())


_active = AgentPolicy()


def install(policy: AgentPolicy) -> AgentPolicy:
    """Make ``policy`` the one this process's server checks requests against; from now on
    search helpers start by ``spawn`` (nothing of the server is copied into them)."""
    global _active
    for a in policy.offered:
        name_agent(a.name, a.spec)
    _active = policy
    parallel.set_start_method("spawn")
    return policy


def active() -> AgentPolicy:
    return _active


def close_agents(agents: Iterable[Any]) -> None:
    """Stop the helper processes of these agents (a game ended, a server stops)."""
    for agent in agents:
        close = getattr(agent, "close", None)
        if close is not None:
            try:
                close()
            except Exception:  # closing must not stop a server
                pass
