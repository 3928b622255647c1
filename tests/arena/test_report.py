"""Balance reports: one self-contained HTML file whose plots exist and are real images, with
each game's own signals; and the signals read from the public log."""

from __future__ import annotations

import base64
import re

import pytest

from nemeton.arena.report import Variant, game_signals, write_report
from nemeton.arena.report import signals_for
from nemeton.arena.tournament import TournamentConfig, run_tournament

PNG = b"\x89PNG\r\n\x1a\n"


def images(path) -> dict[str, bytes]:
    text = path.read_text(encoding="utf-8")
    return {alt: base64.b64decode(data) for alt, data in
            re.findall(r'<img alt="([^"]*)" src="data:image/png;base64,([^"]+)"', text)}


@pytest.fixture(scope="module")
def sweep():
    base = TournamentConfig.build("amarok", 4, ["heuristic", "random"], seed=2)
    variant = TournamentConfig.build("amarok", 4, ["heuristic", "random"], seed=2, options={"rounds_to_win": 2})
    return [Variant("rounds_to_win=3", run_tournament(base, 8, workers=1, until_decided=0.5)),
            Variant("rounds_to_win=2", run_tournament(variant, 8, workers=1))]


def test_the_report_is_one_html_file_with_every_plot_embedded_as_a_png(sweep, tmp_path):
    path = tmp_path / "report.html"
    write_report(str(path), sweep)
    pictures = images(path)
    for alt in ("agent ratings", "win shares per agent", "seat advantage", "scores per seat", "scores per agent",
                "game length", "differences", "confidence sequence", "how rounds end (share of rounds)"):
        assert alt in pictures, alt
    assert all(data.startswith(PNG) and len(data) > 2000 for data in pictures.values())
    text = path.read_text(encoding="utf-8")
    assert "<script" not in text and "http" not in text.split("<body>")[1]  # nothing fetched from elsewhere
    assert "rounds_to_win=2" in text and "difference [95% CI]" in text


@pytest.mark.parametrize("game,players,group", [
    ("alarun", 2, "potion lines per game (all seats)"),
    ("amarok", 3, "how rounds end (share of rounds)"),
    ("edora", 2, "points per seat by scoring step"),
])
def test_each_games_signals_are_read_from_the_public_log(game, players, group):
    t = run_tournament(TournamentConfig.build(game, players, ["random"], seed=1), 2, workers=1)
    signals = game_signals(t)
    assert group in signals
    assert set(signals) <= set(signals_for(game).groups)


def test_alarun_signals_add_up_to_the_final_scores():
    t = run_tournament(TournamentConfig.build("alarun", 3, ["heuristic"], seed=4), 1, workers=1)
    o = t.outcomes[0]
    measured = signals_for("alarun").extract(o.replay().log(None), ["heuristic"] * 3)
    per_seat = sum(measured["points per seat by source"].values())
    assert per_seat == pytest.approx(sum(o.scores) / 3)
    assert sum(measured["potion lines per game (all seats)"].values()) == 10 * 3  # ten lines per square


def test_amarok_round_endings_are_shares_of_the_rounds():
    t = run_tournament(TournamentConfig.build("amarok", 4, ["random"], seed=3), 3, workers=1)
    for o in t.outcomes:
        m = signals_for("amarok").extract(o.replay().log(None), ["random"] * 4)
        assert sum(m["how rounds end (share of rounds)"].values()) == pytest.approx(1.0)
        assert m["game length"]["rounds"] == o.rounds


def test_edora_scoring_steps_add_up_to_the_final_scores():
    t = run_tournament(TournamentConfig.build("edora", 2, ["heuristic"], seed=2), 1, workers=1)
    o = t.outcomes[0]
    m = signals_for("edora").extract(o.replay().log(None), ["heuristic"] * 2)
    assert sum(m["points per seat by scoring step"].values()) == pytest.approx(sum(o.scores) / 2)
