"""The agent benchmark's resumable strength runs and its table (run as the script is run)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "agents.py"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, check=True)


def test_strength_runs_resume_from_the_results_file_and_add_up_to_one_table(tmp_path):
    out = tmp_path / "strength.jsonl"
    common = ["strength", "--game", "amarok", "--players", "4", "--option", "teams=true", "--out", str(out)]
    run(*common, "--games", "3")
    assert len(out.read_text().splitlines()) == 3
    again = run(*common, "--games", "3")
    assert "0 games to play" in again.stderr and len(out.read_text().splitlines()) == 3
    run(*common, "--games", "5")
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["index"] for r in rows) == [0, 1, 2, 3, 4]
    assert {json.dumps(r["pairing"], sort_keys=True) for r in rows} == {json.dumps(
        {"game": "amarok", "players": 4, "options": {"teams": True}, "focal": "heuristic",
         "others": "random", "seed": 0, "settings": [{}, {}]}, sort_keys=True)}
    assert all(r["teams"] == 2 for r in rows)
    # the same games as one uninterrupted run
    whole = tmp_path / "whole.jsonl"
    run("strength", "--game", "amarok", "--players", "4", "--option", "teams=true", "--out", str(whole), "--games", "5")
    key = lambda r: r["index"]  # noqa: E731
    strip = lambda r: {k: v for k, v in r.items() if k != "focal_seconds"}  # noqa: E731
    assert [strip(r) for r in sorted(rows, key=key)] == [
        strip(json.loads(line)) for line in sorted(whole.read_text().splitlines(), key=lambda s: json.loads(s)["index"])]
    table = run("table", str(out)).stdout
    assert "| Amarok | 4 | teams=True | `heuristic` | `random` | 5 |" in table


def test_a_cut_short_last_line_is_ignored(tmp_path):
    out = tmp_path / "strength.jsonl"
    run("strength", "--game", "amarok", "--players", "3", "--games", "2", "--out", str(out))
    with out.open("a") as fh:
        fh.write('{"pairing": {"game": "amar')
    run("strength", "--game", "amarok", "--players", "3", "--games", "3", "--out", str(out))
    assert "| Amarok | 3 | — | `heuristic` | `random` | 3 |" in run("table", str(out)).stdout


def test_preset_passes_add_games_up_to_the_target_without_replaying(tmp_path):
    out = tmp_path / "strength.jsonl"
    res = run("strength", "--preset", "issue", "--pairing", "heuristic/random", "--game", "amarok",
              "--players", "3", "--games", "4", "--step", "2", "--out", str(out))
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["index"] for r in rows) == [0, 1, 2, 3]  # two passes, no game played twice
    summaries = [json.loads(line) for line in res.stdout.splitlines()]
    assert [s["games"] for s in summaries] == [2, 4]  # each summary covers the pairing so far


def test_resolved_agent_settings_are_part_of_the_pairing(tmp_path):
    out = tmp_path / "strength.jsonl"
    run("strength", "--game", "amarok", "--players", "3", "--games", "1", "--out", str(out),
        "--pairing", "ismcts:iterations=5/random")
    (row,) = [json.loads(line) for line in out.read_text().splitlines()]
    focal, others = row["pairing"]["settings"]
    assert focal["iterations"] == 5 and focal["cutoff"] == "round" and focal["rollout"] == "random"
    assert others == {}


@pytest.mark.parametrize("args,message", [
    (["strength", "--preset", "issue"], "--preset needs --out"),
    (["table", "x", "--preset", "issue"], "--preset goes with strength"),
    (["strength", "--pairing", "heuristic", "--out", "x"], "FOCAL/OTHERS"),
    (["strength", "--games", "0"], "at least 1"),
    (["table", "/no/such/file.jsonl"], "no such results file"),
])
def test_bad_arguments_are_refused_with_a_message(args, message):
    res = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True)
    assert res.returncode == 2 and message in res.stderr


def test_playouts_compares_simulate_with_the_raw_loop_in_one_run(capsys):
    script = SCRIPT.parent / "playouts.py"
    res = subprocess.run([sys.executable, str(script), "--simulate", "--seconds", "0.05", "--game", "amarok",
                          "--json"], capture_output=True, text=True, check=True)
    rows = [json.loads(line) for line in res.stdout.splitlines()]
    assert [r["config"] for r in rows][:4] == ["players=3", "players=4", "players=5", "players=6"]
    for r in rows:
        raw, sim = r["steps_per_second"], r["simulate"]["steps_per_second"]
        assert raw > 0 and sim > 0 and r["ratio"] == round(sim / raw, 3)
        full = r["with_outcome"]["steps_per_second"]
        assert full > 0 and r["ratio_with_outcome"] == round(sim / full, 3)
    loaded = importlib.util.spec_from_file_location("playouts", script)
    playouts = importlib.util.module_from_spec(loaded)
    loaded.loader.exec_module(playouts)
    playouts.print_side_by_side(rows[:1])
    header, columns, line = capsys.readouterr().out.splitlines()
    assert "cores" in header and "raw steps/s" in columns and "simulate steps/s" in columns
    assert line.split()[-3] == f"{rows[0]['ratio']:.0%}" and line.split()[-1] == f"{rows[0]['ratio_with_outcome']:.0%}"
    assert "raw+outcome" in columns
