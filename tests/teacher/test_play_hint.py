"""`hint` (or `?`) at `nemeton play`'s prompt: three preferred actions with the numbers typed
at that prompt, searched from the person's view; `--hint-seconds 0` turns hints off."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from nemeton.cli import app
from nemeton.engine import list_games

runner = CliRunner()
HINT_LINE = re.compile(r"^\s+(\d+)  (.+)  \((\d+)% win chance, ([\d,]+) iterations\)$")


@pytest.mark.parametrize("name", [s.name for s in list_games()])
def test_hint_at_the_prompt_lists_three_numbered_legal_actions_and_the_prompt_returns(name):
    result = runner.invoke(app, ["play", name, "--players", "2" if name != "amarok" else "3", "--seed", "7",
                                 "--hint-seconds", "0.05"], input="hint\n?\nq\n")
    assert result.exit_code == 0, result.output[-2000:]
    listed = dict(re.findall(r"^\s+(\d+)  (.+)$", result.output.split("Your choice")[0], re.M))
    hints = [HINT_LINE.match(line) for line in result.output.splitlines() if HINT_LINE.match(line)]
    assert len(hints) == 2 * min(3, len(listed))
    for m in hints:
        assert listed[m.group(1)] == m.group(2)  # the number the person would type for it
        assert 0 <= int(m.group(3)) <= 100
    assert "? = hint" in result.output and result.output.count("Your choice") == 3


def test_hints_can_be_turned_off():
    result = runner.invoke(app, ["play", "alarun", "--players", "2", "--seed", "7", "--hint-seconds", "0"],
                           input="hint\nq\n")
    assert result.exit_code == 0
    assert "? = hint" not in result.output and "Hint" not in result.output
    assert "'hint' is not one of the" in result.output
