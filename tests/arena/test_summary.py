"""Ratings (OpenSkill), win shares and seat figures of a tournament."""

from __future__ import annotations

import pytest

from nemeton.arena.summary import paired_differences, quantiles, rate, summarise
from nemeton.arena.tournament import GameOutcome, Tournament, TournamentConfig, run_tournament


def outcome(index, seats, units, ranking, returns):
    n = len(seats)
    return GameOutcome(index, index, seats, units, 0, [0.0] * n, ranking, [s for s in range(n) if ranking[s] == 1],
                       returns, 1, 1, [0] * n, [0.0] * n)


def test_the_agent_that_always_wins_is_rated_above_the_one_that_always_loses():
    games = [outcome(i, [i % 2, 1 - i % 2], [[0], [1]], [1, 2] if i % 2 == 0 else [2, 1],
                     [1.0, 0.0] if i % 2 == 0 else [0.0, 1.0]) for i in range(20)]
    winner, loser = rate(games, 2)
    assert winner.mu > 25 > loser.mu
    assert winner.sigma < 25 / 3 and loser.sigma < 25 / 3


def test_team_games_are_rated_per_team_so_partners_of_one_agent_count_once():
    # agent 0 holds both seats of the winning team in every game
    teams = [outcome(i, [0, 1, 0, 1], [[0, 2], [1, 3]], [1, 2, 1, 2], [1.0, 0.0, 1.0, 0.0]) for i in range(5)]
    solo = [outcome(i, [0, 1], [[0], [1]], [1, 2], [1.0, 0.0]) for i in range(5)]
    assert [r.mu for r in rate(teams, 2)] == pytest.approx([r.mu for r in rate(solo, 2)])
    assert teams[0].share(0) == 1.0  # the team's win counted once, not once per partner


def test_an_agent_in_several_seats_of_a_free_for_all_is_rated_once_from_all_its_seats():
    # agent 0 takes two of three seats and finishes first and second; agent 1 is always last
    games = [outcome(i, [0, 0, 1], [[0], [1], [2]], [1, 2, 3], [1.0, 0.0, 0.0]) for i in range(10)]
    a, b = rate(games, 2)
    assert a.mu > 25 > b.mu
    # its own seats' comparison cancels out: one seat above the other changes nothing by itself
    mirror = [outcome(i, [0, 0], [[0], [1]], [1, 2], [1.0, 0.0]) for i in range(10)]
    alone, _ = rate(mirror, 2)
    assert alone.mu == pytest.approx(25.0)


def test_summary_of_a_rotated_tournament_has_fair_shares_and_balanced_seats():
    config = TournamentConfig.build("amarok", 4, ["heuristic", "random"], seed=8, options={"teams": True})
    s = summarise(run_tournament(config, 20, workers=1))
    heuristic, random_ = s.agent_rows
    assert heuristic.fair_share == random_.fair_share == 0.5
    assert heuristic.share.mean + random_.share.mean == pytest.approx(1.0)
    assert heuristic.share.low > 0.5 and heuristic.rating.mu > random_.rating.mu
    assert s.units == [[0, 2], [1, 3]] and len(s.seat_shares) == 2
    assert s.seat_test is not None and 0 <= s.seat_test.p_value <= 1
    data = s.to_json()
    assert data["agent_results"][0]["agent"] == "heuristic"
    q = data["agent_results"][0]["scores"]
    assert q["min"] <= q["q25"] <= q["median"] <= q["q75"] <= q["max"] == max(heuristic.scores)
    assert data["seats"][0]["scores"]["max"] == max(s.seat_scores[0])


def test_a_variant_played_against_itself_differs_by_exactly_zero():
    config = TournamentConfig.build("amarok", 3, ["heuristic", "random"], seed=3)
    a = run_tournament(config, 6, workers=1)
    b = run_tournament(config, 6, workers=1)
    for d in paired_differences(a, b):
        assert d.difference.mean == 0 and d.difference.low == d.difference.high == 0, d.what


def test_score_quantiles_interpolate_between_the_sorted_scores():
    assert quantiles([4, 1, 3, 2]) == {"min": 1, "q25": 1.75, "median": 2.5, "q75": 3.25, "max": 4}
    assert quantiles([7, 1, 4]) == {"min": 1, "q25": 2.5, "median": 4, "q75": 5.5, "max": 7}
    assert quantiles([5]) == {"min": 5, "q25": 5, "median": 5, "q75": 5, "max": 5}
    assert quantiles([]) is None


def test_the_paired_difference_of_game_length_is_a_t_interval_over_the_games():
    """Three games one, three and five steps longer than the baseline's: the difference is
    3 ± t(0.975, 2) · 2 / √3 (t = 4.303, not the normal 1.96)."""
    config = TournamentConfig.build("alarun", 2, ["random", "random"], seed=1)

    def tournament(steps):
        games = [outcome(i, [0, 1], [[0], [1]], [1, 2], [1.0, 0.0]) for i in range(3)]
        for game, n in zip(games, steps):
            game.steps = n
        return Tournament(config, games)

    by_what = {d.what: d for d in paired_differences(tournament([10, 20, 30]), tournament([11, 23, 35]))}
    steps = by_what["steps per game"]
    assert steps.baseline == 20 and steps.variant == 23
    half = 4.302652729749464 * 2 / 3 ** 0.5
    assert steps.difference.mean == 3
    assert steps.difference.low == pytest.approx(3 - half) and steps.difference.high == pytest.approx(3 + half)
    assert steps.difference.low < 0 < steps.difference.high  # a normal interval (3 ± 2.26) would exclude 0
