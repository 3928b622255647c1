"""nemeton tournament and nemeton report on the command line."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from nemeton.cli import app

runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, list(args))


def test_tournament_json_summary_and_its_stored_games(tmp_path):
    out = tmp_path / "t"
    result = invoke("tournament", "amarok", "--players", "4", "--agents", "heuristic,random", "--games", "6",
                    "--seed", "3", "--option", "teams=true", "--workers", "1", "--out", str(out), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 6 and data["played"] == 6 and data["agents"] == ["heuristic", "random"]
    assert {"share", "fair_share", "rating", "mean_score"} <= set(data["agent_results"][0])
    assert data["seat_test"]["p_value"] >= 0 and data["first_player"]["test"] is not None
    assert len(list((out / "games").glob("*.json"))) == 6
    again = invoke("tournament", "amarok", "--players", "4", "--agents", "heuristic,random", "--games", "6",
                   "--seed", "3", "--option", "teams=true", "--workers", "1", "--out", str(out), "--json")
    assert json.loads(again.stdout)["played"] == 0
    assert json.loads(again.stdout)["agent_results"] == data["agent_results"]


def test_tournament_until_decided_prints_the_verdict():
    result = invoke("tournament", "amarok", "--players", "3", "--agents", "heuristic,random", "--lineup", "focal",
                    "--games", "90", "--until-decided", "0.3333", "--workers", "1")
    assert result.exit_code == 0, result.output
    assert "until decided against 33%: above after" in result.stdout


def test_bad_tournament_input_exits_2_with_a_message_and_plays_nothing(tmp_path):
    cases = [
        (["--agents", "heuristic,nonsense"], "unknown agent 'nonsense'"),
        (["--agents", "heuristic", "--backend", "spark"], "--backend must be one of local, ray"),
        (["--agents", "heuristic", "--address", "1.2.3.4:6379"], "--address joins a Ray cluster"),
        (["--agents", "heuristic", "--until-decided", "1.5"], "strictly between 0 and 1"),
        (["--agents", "heuristic,random,random", "--lineup", "focal"], "exactly two agents"),
        (["--agents", "heuristic", "--option", "teams=maybe"], "teams"),
        (["--agents", "heuristic", "--workers", "0"], "--workers must be at least 1"),
        (["--agents", "heuristic", "--backend", "ray", "--address", "127.0.0.1:1"], "cannot reach the Ray cluster"),
        (["--agents", "heuristic", "--backend", "ray", "--address", "nowhere"], "--address takes host:port"),
    ]
    for extra, message in cases:
        result = invoke("tournament", "amarok", "--players", "4", "--games", "2", "--out", str(tmp_path / "x"), *extra)
        assert result.exit_code == 2, (extra, result.output)
        assert message in result.output, (extra, result.output)
    assert not (tmp_path / "x").exists()


def test_analyze_sweeps_a_rule_and_writes_the_report(tmp_path):
    report = tmp_path / "balance.html"
    result = invoke("report", "alarun", "--players", "2", "--agents", "heuristic,random", "--games", "4",
                    "--sweep", "action_cap=30,2", "--workers", "1", "--out", str(report), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [v["variant"] for v in data["variants"]] == ["action_cap=30", "action_cap=2"]
    assert "differences" in data["variants"][1] and "differences" not in data["variants"][0]
    assert report.stat().st_size > 10_000
    assert sorted(p.name for p in (tmp_path / "balance-games").iterdir()) == ["0-action_cap=30", "1-action_cap=2"]


def test_analyze_refuses_a_bad_sweep_before_playing(tmp_path):
    report = tmp_path / "r.html"
    for sweep, message in [("action_cap", "--sweep expects name=value1,value2"),
                           ("action_cap=30,many", "action_cap"),
                           ("players=2,3", "separate runs")]:
        result = invoke("report", "alarun", "--players", "2", "--games", "2", "--sweep", sweep, "--out", str(report))
        assert result.exit_code == 2 and message in result.output, (sweep, result.output)
    assert not report.exists() and not (tmp_path / "r-games").exists()
