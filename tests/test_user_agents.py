"""Your own agent everywhere (issue 29): agent specs that name Python code (``module:Class``,
``file.py:Class``) or a registered entry point, in every place a spec is read, with clear
errors before any game starts; a server never takes code from a client."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest
from typer.testing import CliRunner

from nemeton.agents import base
from nemeton.agents.base import AgentSpecError, is_code_spec, make_agent, parse_agent_spec
from nemeton.cli import app
from nemeton.engine import get_game

ROOT = Path(__file__).resolve().parents[1]
BOTS = '''
from nemeton.agents import Agent


class First(Agent):
    """Always the first legal action."""
    name = "first"

    def act(self, view, legal):
        return legal[0]


class Tuned(Agent):
    name = "tuned"
    params = {"explore": float, "depth": int}

    def __init__(self, game, seat, rng, explore=0.0, depth=1):
        super().__init__(game, seat, rng)
        self.explore, self.depth = explore, depth

    def act(self, view, legal):
        return self.rng.choice(legal) if self.rng.random() < self.explore else legal[-1]


class NotAnAgent:
    pass
'''


@pytest.fixture
def bots(tmp_path, monkeypatch, request):
    """A module of agents in the working directory, under a name of this test's own."""
    module = "bots_" + re.sub(r"\W", "_", request.node.name)
    (tmp_path / f"{module}.py").write_text(BOTS)
    monkeypatch.chdir(tmp_path)
    yield module
    sys.modules.pop(module, None)


def test_a_module_in_the_working_directory_names_an_agent_with_typed_parameters(bots):
    cls, params = parse_agent_spec(f"{bots}:Tuned:explore=0.5:depth=3")
    assert cls.__name__ == "Tuned" and params == {"explore": 0.5, "depth": 3}
    agent = make_agent(f"{bots}:Tuned:depth=2", get_game("alarun"), 1, 7)
    assert (agent.seat, agent.depth, agent.explore) == (1, 2, 0.0)


def test_a_file_path_names_an_agent(bots):
    cls, params = parse_agent_spec(f"./{bots}.py:First")
    assert cls.__name__ == "First" and params == {}
    assert parse_agent_spec(f"./{bots}.py:First")[0] is cls  # the file is loaded once


def test_built_in_specs_parse_as_before():
    cls, params = parse_agent_spec("ismcts:iterations=5")
    assert cls.name == "ismcts" and params == {"iterations": 5}
    assert not is_code_spec("ismcts:iterations=5") and not is_code_spec("random")


@pytest.mark.parametrize("spec, message", [
    ("no_such_module_29:First", "no agent module 'no_such_module_29'"),
    ("missing/dir/bots.py:First", "no agent file 'missing/dir/bots.py'"),
    ("{m}:Nope", "has no class 'Nope'"),
    ("{m}:NotAnAgent", "is not an agent: it must be a subclass of nemeton.agents.Agent"),
    ("{m}:Agent", "is not an agent yet: it does not define act"),
    ("{m}:Tuned:depth=deep", "bad value for depth: 'deep' (expected int)"),
    ("{m}:Tuned:width=2", "has no parameter 'width'; its parameters: explore, depth"),
    ("{m}:First:depth=2", "has no parameter 'depth'; its parameters: none"),
    ("nobody", "unknown agent 'nobody'"),
])
def test_a_bad_code_spec_is_refused_with_what_was_wrong(bots, spec, message):
    with pytest.raises(AgentSpecError) as caught:
        parse_agent_spec(spec.format(m=bots))
    assert message in str(caught.value)


def test_a_registered_entry_point_names_an_agent_but_never_replaces_a_built_in(bots, monkeypatch, tmp_path):
    monkeypatch.syspath_prepend(str(tmp_path))  # as an installed package is
    points = [EntryPoint("firsty", f"{bots}:First", base.ENTRY_POINT_GROUP),
              EntryPoint("random", f"{bots}:First", base.ENTRY_POINT_GROUP),
              EntryPoint("broken", f"{bots}:NotAnAgent", base.ENTRY_POINT_GROUP)]
    monkeypatch.setattr(base, "entry_points", lambda group: [p for p in points if p.group == group])
    assert parse_agent_spec("firsty")[0].__name__ == "First"
    assert parse_agent_spec("random")[0] is base.RandomAgent
    with pytest.raises(AgentSpecError, match="is not an agent"):
        parse_agent_spec("broken")
    listed = CliRunner().invoke(app, ["agents", "--json"])
    assert listed.exit_code == 0, listed.output
    out = json.loads(listed.output)
    assert {"name": "firsty", "origin": f"{bots}:First", "parameters": [],
            "help": "Always the first legal action."} in out["agents"]
    assert [a["name"] for a in out["agents"]].count("random") == 1
    assert any("broken" in b for b in out["broken"])


def _nemeton(cwd, *args, env=None):
    return subprocess.run([sys.executable, "-m", "nemeton", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300, env={**os.environ, **(env or {})})


def test_simulate_and_a_two_worker_tournament_play_and_name_a_code_agent(bots, tmp_path):
    sim = _nemeton(tmp_path, "simulate", "alarun", "-p", "2", "-n", "4", "-a", f"{bots}:First,heuristic", "--json")
    assert sim.returncode == 0, sim.stderr
    summary = json.loads(sim.stdout)
    assert summary["agents"] == [f"{bots}:First", "heuristic"] and sum(summary["wins"]) >= 4
    tour = _nemeton(tmp_path, "tournament", "alarun", "-p", "2", "-n", "4", "-w", "2", "--json",
                    "-a", f"{bots}:First,./{bots}.py:Tuned:explore=0.5")
    assert tour.returncode == 0, tour.stderr
    rows = json.loads(tour.stdout)
    assert rows["played"] == 4 and rows["workers"] == 2
    assert f"{bots}:First" in tour.stdout and f"./{bots}.py:Tuned:explore=0.5" in tour.stdout


def test_the_fast_engine_refuses_a_code_agent_before_playing(bots, tmp_path):
    r = _nemeton(tmp_path, "simulate", "alarun", "-p", "2", "-n", "2", "-e", "fast", "-a", f"{bots}:First,random")
    assert r.returncode == 2
    assert "cannot run inside the kernel: use --engine reference" in r.stderr


def test_a_bad_code_spec_stops_simulate_before_any_game(tmp_path):
    r = _nemeton(tmp_path, "simulate", "alarun", "-p", "2", "-a", "nowhere_29:Bot,heuristic")
    assert r.returncode == 2 and "no agent module 'nowhere_29'" in r.stderr


def test_play_takes_a_code_agent_as_the_terminal_opponent(bots):
    options = [f"--option={k}={v}" for k, v in get_game("alarun").bot_defaults.items()]  # a capped game
    result = CliRunner().invoke(app, ["play", "alarun", "-p", "2", "--seed", "3", *options,
                                      "-a", f"human,{bots}:Tuned:explore=1"], input="1\n" * 3000)
    assert result.exit_code == 0, result.output[-2000:]
    assert "Game over" in result.output and f"{bots}:Tuned" in result.output


def test_a_gymnasium_opponent_can_be_a_code_agent(bots):
    pytest.importorskip("gymnasium")
    from nemeton.interop.gymnasium import NemetonEnv
    env = NemetonEnv("alarun", players=2, opponents=f"{bots}:Tuned:depth=2")
    obs, info = env.reset(seed=1)
    assert env.opponent_specs == [f"{bots}:Tuned:depth=2"]
    with pytest.raises(AgentSpecError, match="has no class"):
        NemetonEnv("alarun", players=2, opponents=f"{bots}:Missing")


def test_a_server_refuses_a_code_spec_from_a_client_and_never_imports_it(tmp_path, monkeypatch):
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient
    from nemeton.server.agents import AgentPolicy
    from nemeton.server.app import create_app
    marker = tmp_path / "imported"
    (tmp_path / "evil_29.py").write_text(f"open({str(marker)!r}, 'w').close()\n" + BOTS)
    monkeypatch.chdir(tmp_path)
    seats = lambda agent: [{"kind": "human", "name": "Ann"}, {"kind": "ai", "agent": agent}]  # noqa: E731
    # even a test server that takes any built-in spec as its own name (any_spec) refuses code
    with TestClient(create_app(f"sqlite:///{tmp_path / 'n.db'}", rate_limit=None,
                               agents=AgentPolicy(any_spec=True))) as client:
        for spec in ("evil_29:First", f"{tmp_path / 'evil_29.py'}:First"):
            r = client.post("/api/rooms", json={"game": "alarun", "seats": seats(spec)})
            assert r.status_code in (400, 422), r.text
            assert "cannot name Python code" in r.json()["detail"]
        assert client.post("/api/rooms", json={"game": "alarun", "seats": seats("random")}).status_code == 201
    assert not marker.exists()
    sys.modules.pop("evil_29", None)


def test_the_operator_may_offer_a_code_agent_by_name(bots, tmp_path):
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient
    from nemeton.server.agents import AgentPolicy
    from nemeton.server.app import create_app
    policy = AgentPolicy({"firsty": f"{bots}:First"})
    with TestClient(create_app(f"sqlite:///{tmp_path / 'n.db'}", rate_limit=None, agents=policy)) as client:
        offered = [a["name"] for a in client.get("/api/games").json()[0]["agents"]]
        assert offered == ["firsty"]
        r = client.post("/api/rooms", json={"game": "alarun", "seats": [{"kind": "human", "name": "Ann"},
                                                                         {"kind": "ai", "agent": "firsty"}]})
        assert r.status_code == 201, r.text


def _docs_blocks(language):
    text = (ROOT / "docs" / "agents.md").read_text()
    return re.findall(rf"```{language}\n(.*?)```", text, re.S)


def test_the_docs_example_agent_runs_as_the_docs_say(tmp_path, monkeypatch):
    agent_code, test_code = _docs_blocks("python")
    (tmp_path / "mybots.py").write_text(agent_code)
    monkeypatch.chdir(tmp_path)
    try:
        exec(compile(test_code, "docs/agents.md", "exec"), {})
        cls, params = parse_agent_spec("mybots:Greedy:explore=0.2")
        assert cls.__name__ == "Greedy" and params == {"explore": 0.2}
    finally:
        sys.modules.pop("mybots", None)
        base._CODE.pop("mybots:Greedy", None)
    sim = _nemeton(tmp_path, "simulate", "alarun", "-p", "2", "-n", "3", "-a", "mybots:Greedy,heuristic", "--json")
    assert sim.returncode == 0, sim.stderr
    assert json.loads(sim.stdout)["agents"] == ["mybots:Greedy", "heuristic"]
