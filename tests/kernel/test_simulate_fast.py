"""`nemeton simulate --engine fast`, run as a person runs it: the same results as the reference
engine for random agents, every game, and clear refusals."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numba")

NEMETON = str(Path(sys.executable).with_name("nemeton"))
CASES = [("alarun", 2), ("alarun", 4), ("amarok", 4), ("amarok", 6), ("edora", 2), ("edora", 4)]


def simulate(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([NEMETON, "simulate", *args], capture_output=True, text=True, timeout=900)


@pytest.mark.parametrize("game,players", CASES, ids=[f"{g}-{p}p" for g, p in CASES])
def test_the_fast_engine_gives_the_reference_results_for_random_agents(game, players):
    common = [game, "--players", str(players), "--games", "60", "--seed", "11", "--json"]
    fast, reference = simulate(*common, "--engine", "fast"), simulate(*common)
    assert fast.returncode == 0, fast.stderr
    assert reference.returncode == 0, reference.stderr
    fast_json, reference_json = json.loads(fast.stdout), json.loads(reference.stdout)
    for key in ("wins", "mean_scores", "mean_returns", "mean_steps", "options", "agents"):
        assert fast_json[key] == reference_json[key], key


def test_the_fast_engine_refuses_an_agent_it_cannot_run_before_playing():
    result = simulate("alarun", "--players", "2", "--games", "5", "--engine", "fast", "--agents", "ismcts")
    assert result.returncode != 0
    assert "'ismcts' needs --engine reference" in result.stderr


def test_an_unknown_engine_is_refused_with_the_choices():
    result = simulate("alarun", "--players", "2", "--engine", "quick")
    assert result.returncode != 0
    assert "--engine must be one of reference, fast" in result.stderr


HEURISTIC_CASES = [("alarun", 3, "heuristic"), ("amarok", 5, "heuristic,random,heuristic,random,random"),
                   ("edora", 2, "heuristic,random")]


@pytest.mark.parametrize("game,players,agents", HEURISTIC_CASES, ids=[c[0] for c in HEURISTIC_CASES])
def test_the_fast_engine_plays_the_heuristic_as_the_reference_does(game, players, agents):
    common = [game, "--players", str(players), "--games", "6", "--seed", "5", "--agents", agents, "--json"]
    fast, reference = simulate(*common, "--engine", "fast"), simulate(*common)
    assert fast.returncode == 0, fast.stderr
    assert reference.returncode == 0, reference.stderr
    fast_json, reference_json = json.loads(fast.stdout), json.loads(reference.stdout)
    for key in ("wins", "mean_scores", "mean_returns", "mean_steps"):
        assert fast_json[key] == reference_json[key], key
