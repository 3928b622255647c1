"""Command-line conventions (issue 29): ``python -m nemeton``, ``--version``, shell completion,
fixed choices refused with the list shown, and a missing extra reported before any game."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.metadata import version

import pytest
from typer.testing import CliRunner

from nemeton.cli import app

runner = CliRunner()


def _python(*code_or_args, cwd=None):
    return subprocess.run([sys.executable, *code_or_args], capture_output=True, text=True, timeout=300, cwd=cwd,
                          env={**os.environ, "COLUMNS": "200"})


def test_python_dash_m_nemeton_runs_the_command_line_and_prints_the_version():
    r = _python("-m", "nemeton", "--version")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == f"nemeton {version('nemeton')}"


def test_shell_completion_is_offered():
    result = runner.invoke(app, ["--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "--install-completion" in result.output and "--show-completion" in result.output


def _completions(words: str) -> list[str]:
    """What the shell offers after ``words`` (Typer's zsh completion protocol, run as the
    installed command)."""
    command = os.path.join(os.path.dirname(sys.executable), "nemeton")
    r = subprocess.run([command], capture_output=True, text=True, timeout=120,
                       env={**os.environ, "_NEMETON_COMPLETE": "complete_zsh", "_TYPER_COMPLETE_ARGS": words})
    assert r.returncode == 0, r.stderr
    return [line.strip().strip('"').removeprefix("_arguments '*: :((").strip('"')
            for line in r.stdout.replace("))'", "").splitlines() if line.strip()]


@pytest.mark.parametrize("words, offered", [
    ("nemeton simulate a", ["alarun", "amarok"]),
    ("nemeton play e", ["edora"]),
    ("nemeton tournament alarun -p 2 --backend ", ["local", "ray"]),
    ("nemeton tournament alarun --lineup f", ["focal"]),
    ("nemeton simulate alarun --engine ", ["reference", "fast"]),
    ("nemeton simulate alarun -a heuristic,is", ["heuristic,ismcts"]),
    ("nemeton bot http://x/ --agent h", ["heuristic"]),
    ("nemeton play alarun -p 2 -a h", ["heuristic", "human"]),
])
def test_the_shell_completes_the_fixed_choices(words, offered):
    assert _completions(words) == offered


@pytest.mark.parametrize("args, shown", [
    (["tournament", "alarun", "-p", "2", "-a", "heuristic", "--backend", "spark"],
     "--backend must be one of local, ray; got 'spark'"),
    (["tournament", "alarun", "-p", "2", "-a", "heuristic", "--lineup", "ladder"],
     "--lineup must be one of rotate, focal; got 'ladder'"),
    (["simulate", "alarun", "-p", "2", "--engine", "turbo"], "--engine must be one of reference, fast; got 'turbo'"),
    (["simulate", "chess", "-p", "2"], "unknown game 'chess'; known games: alarun, amarok, edora"),
    (["simulate", "alarun", "-p", "2", "-a", "genius"], "unknown agent 'genius'; available agents: random, heuristic"),
])
def test_a_fixed_choice_outside_its_list_is_refused_with_the_list(args, shown):
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert shown in " ".join(result.output.split())


MISSING_OPENSKILL = """
import sys
sys.modules["openskill"] = None  # the arena extra not installed
from nemeton.cli import app
app(sys.argv[1:])
"""


def test_a_tournament_without_the_arena_extra_stops_before_any_game(tmp_path):
    out = tmp_path / "games"
    r = _python("-c", MISSING_OPENSKILL, "tournament", "alarun", "-p", "2", "-a", "heuristic,random",
                "-n", "4", "-w", "1", "--out", str(out))
    assert r.returncode == 2
    assert "needs the arena extra" in r.stderr and "pip install 'nemeton[arena]'" in r.stderr
    assert not out.exists() or not any(out.rglob("*.json"))  # no game was played


def test_a_report_without_matplotlib_stops_before_any_game(tmp_path):
    code = MISSING_OPENSKILL.replace('"openskill"', '"matplotlib"')
    r = _python("-c", code, "report", "alarun", "-p", "2", "-n", "2", "-w", "1", "--out", str(tmp_path / "r.html"))
    assert r.returncode == 2
    assert "pip install 'nemeton[arena]'" in r.stderr
    assert not (tmp_path / "r-games").exists() or not any((tmp_path / "r-games").rglob("*.json"))
