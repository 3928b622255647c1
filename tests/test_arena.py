"""Match statistics and seat-rotated pairings."""

from __future__ import annotations

import pytest

import toygame
from nemeton.arena.pairing import head_to_head
from nemeton.arena.stats import mean_interval, wilson


def test_wilson_interval_matches_the_textbook_value():
    est = wilson(80, 100)
    assert est.mean == 0.8
    assert est.low == pytest.approx(0.7112, abs=1e-4) and est.high == pytest.approx(0.8666, abs=1e-4)
    assert wilson(0, 0).n == 0


def test_mean_interval_is_centred_and_shrinks_with_more_games():
    small = mean_interval([1, 0] * 10)
    large = mean_interval([1, 0] * 1000)
    assert small.mean == large.mean == 0.5
    assert (small.high - small.low) > (large.high - large.low) > 0


@pytest.fixture()
def kuhn():
    toygame.install()
    yield
    toygame.uninstall()


def test_head_to_head_rotates_seats_and_is_reproducible(kuhn):
    a = head_to_head("kuhn", 2, "random", "random", 20, seed=4)
    b = head_to_head("kuhn", 2, "random", "random", 20, seed=4)
    assert a.focal_seats == [0, 1] * 10
    assert a.returns == b.returns


def test_ismcts_beats_random_at_kuhn_poker(kuhn):
    res = head_to_head("kuhn", 2, "ismcts:iterations=100", "random", 60, seed=1)
    assert res.share.mean > 0.55


def test_in_team_games_the_focal_agent_plays_every_seat_of_its_team(monkeypatch):
    from nemeton.arena import pairing
    seen = []
    real = pairing.play_job

    def spy(job):
        seen.append(list(job.specs))
        return real(job)

    monkeypatch.setattr(pairing, "play_job", spy)
    res = pairing.head_to_head("amarok", 4, "heuristic", "random", 4, seed=1, options={"teams": True})
    assert seen[0] == ["heuristic", "random", "heuristic", "random"]
    assert seen[1] == ["random", "heuristic", "random", "heuristic"]
    assert res.fair_share == 0.5


def test_share_interval_stays_inside_zero_one_at_the_extremes():
    from nemeton.arena.stats import share_interval
    perfect = share_interval([1.0] * 200)
    assert perfect.mean == 1.0 and perfect.high == 1.0 and 0.98 < perfect.low < 1.0
    split = share_interval([0.5] * 10)
    assert split.low < 0.5 < split.high


def test_a_pairing_played_in_pieces_equals_one_run(kuhn):
    whole = head_to_head("kuhn", 2, "random", "random", 12, seed=9)
    stored = []
    first = head_to_head("kuhn", 2, "random", "random", 12, seed=9, skip=range(5, 12), on_game=stored.append)
    rest = head_to_head("kuhn", 2, "random", "random", 12, seed=9, skip=range(5), on_game=stored.append)
    assert len(first.games) == 5 and len(rest.games) == 7
    assert sorted(stored, key=lambda g: g.index) == whole.games
    assert [g.index for g in whole.games] == list(range(12))


def test_pairing_games_record_margin_and_focal_thinking_time(kuhn):
    res = head_to_head("kuhn", 2, "ismcts:iterations=20", "random", 6, seed=2)
    for g in res.games:
        assert g.focal_return in (0.0, 1.0)
        assert (g.margin > 0) == (g.focal_return == 1.0)
        assert g.focal_decisions >= 1 and g.focal_seconds > 0
    assert res.to_json()["focal_seconds_per_decision"] > 0


def test_head_to_head_rejects_a_bad_spec_before_playing(kuhn):
    from nemeton.agents.base import AgentSpecError
    with pytest.raises(AgentSpecError):
        head_to_head("kuhn", 2, "ismcts:iteratons=5", "random", 4)
