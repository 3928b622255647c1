"""benchmarks/strength.py: the goal line of each pairing and the table it prints from stored games."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "strength.py"


@pytest.fixture(scope="module")
def strength():
    spec = importlib.util.spec_from_file_location("strength_script", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_two_sided_pairings_aim_at_65_percent_and_the_others_at_the_fair_share(strength, tmp_path):
    budgets = tmp_path / "budgets.json"
    budgets.write_text(json.dumps({"configs": [{"game": g, "players": p, "options": o, "budget": 100}
                                               for g, p, o in strength.CONFIGS]}))
    lines = {(p["game"], p["players"], json.dumps(p["options"]), p["others"]): p["line"]
             for p in strength.pairings(strength.budgets(str(budgets)), None)}
    assert len(lines) == 24
    assert lines[("alarun", 2, "{}", "heuristic")] == lines[("edora", 2, "{}", "random")] == 0.65
    assert lines[("amarok", 4, '{"teams": true}', "heuristic")] == 0.65
    assert lines[("amarok", 6, '{"teams": true}', "random")] == pytest.approx(1 / 3)
    assert lines[("amarok", 5, "{}", "heuristic")] == pytest.approx(1 / 5)


def test_a_played_pass_is_summarised_with_its_verdict(strength, tmp_path):
    pairing = {"name": "amarok-3p", "game": "amarok", "players": 3, "options": {}, "focal": "heuristic",
               "others": "random", "line": 1 / 3, "units": 3}
    row = strength.play_pass(pairing, 60, str(tmp_path))
    assert row["decision"]["verdict"] == "above" and row["games"] < 60
    summary = strength.summarise(tmp_path / "amarok-3p", 1 / 3)
    assert summary["verdict"] == "above" and summary["games"] == row["games"]
    assert summary["share"].mean > 1 / 3 and summary["fair"] == pytest.approx(1 / 3)
