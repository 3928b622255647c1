"""``nemeton agents``: the agents a spec can name here, built-in and registered by packages
(the entry-point group ``nemeton.agents``), with their parameters; and the check, before any
game is played, that an optional extra a command needs is installed."""

from __future__ import annotations

import importlib.util
import json
from typing import Any

import typer
from rich.table import Table as TextTable
from rich.text import Text

from ..agents.base import Agent, _agent_classes, load_registered, registered_agents
from ..engine import NemetonError
from .common import console, fail, say


def require_extra(extra: str, *modules: str) -> None:
    """Exit with the install command unless every module of the extra ``extra`` is installed (a
    command checks this before it plays a game, not after)."""
    for module in modules:
        if importlib.util.find_spec(module) is None:
            fail(f"this command needs the {extra} extra ({module} is not installed): "
                 f"pip install 'nemeton[{extra}]'")


def _row(name: str, cls: type[Agent], origin: str) -> dict[str, Any]:
    # the docstring's first paragraph, reStructuredText's ``code`` marks dropped
    first = (cls.__doc__ or "").strip().split("\n\n")[0]
    return {"name": name, "origin": origin, "parameters": sorted(cls.params),
            "help": " ".join(first.replace("``", "").split())}


def agents_command(as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table.")) -> None:
    """List the agents: built-in ones and those packages register (entry points
    `nemeton.agents`), with their parameters. Your own code: module:Class or file.py:Class
    (see docs/agents.md)."""
    rows = [_row(name, cls, "built-in") for name, cls in _agent_classes().items()]
    broken: list[str] = []
    for name, entry_point in sorted(registered_agents().items()):
        try:
            rows.append(_row(name, load_registered(name, entry_point), entry_point.value))
        except NemetonError as exc:
            broken.append(str(exc))
    if as_json:
        print(json.dumps({"agents": rows, "broken": broken}, indent=2))
        return
    table = TextTable(title="agents (spec: name:key=value:...)", title_justify="left", highlight=False)
    for col in ("agent", "from", "parameters", "what it does"):
        table.add_column(col)
    for r in rows:
        table.add_row(Text(r["name"]), Text(r["origin"]), Text(", ".join(r["parameters"]) or "none"), Text(r["help"]))
    console.print(table)
    say("your own agent: module:Class or path/to/file.py:Class, e.g. -a mybots:Greedy,heuristic "
        "(docs/agents.md)", "dim")
    for message in broken:
        say(f"not loaded: {message}", "red")
