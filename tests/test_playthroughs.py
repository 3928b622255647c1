"""The golden playthroughs (tests/playthroughs/) are the contract between the engine and its
clients: a fresh run must reproduce every line. After a deliberate change, regenerate with
``.venv/bin/python scripts/playthroughs.py`` and review the diff."""

from __future__ import annotations

from pathlib import Path

import pytest

from nemeton.engine.playthrough import golden, playthrough_lines

GOLDEN = golden()

HERE = Path(__file__).resolve().parent / "playthroughs"


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_playthrough_matches_the_checked_in_contract(name):
    path = HERE / f"{name}.txt"
    assert path.exists(), f"missing {path}; run scripts/playthroughs.py"
    expected = path.read_text("utf-8").splitlines()
    for k, line in enumerate(playthrough_lines(*GOLDEN[name])):
        assert k < len(expected), f"{name}: the game goes on past the recorded end (line {k + 1}: {line[:200]})"
        if line != expected[k]:
            raise AssertionError(f"{name}: line {k + 1} differs\n  recorded: {expected[k][:400]}\n"
                                 f"  now:      {line[:400]}")
    assert k + 1 == len(expected), f"{name}: the recorded playthrough is longer than a fresh run"


def test_playthroughs_cover_every_game():
    from nemeton import list_games
    assert {g for g, *_ in GOLDEN.values()} == {s.name for s in list_games()}
