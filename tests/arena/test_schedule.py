"""Line-ups and duplicate deals: who sits where in each game, and with which cards."""

from __future__ import annotations

from collections import Counter

import pytest

from nemeton.arena.schedule import Schedule, ScheduleError, rotations, units_of
from nemeton.engine import get_game


def schedule(game: str, players: int, pool: int, lineup: str = "rotate", **options) -> Schedule:
    return Schedule.for_game(get_game(game), {**options, "players": players}, 7, pool, lineup)


def test_units_are_teams_in_order_of_their_first_seat():
    assert units_of([0, 1, 0, 1]) == [[0, 2], [1, 3]]
    assert units_of([0, 1, 2]) == [[0], [1], [2]]
    assert schedule("amarok", 6, 2, teams=True).units == ((0, 3), (1, 4), (2, 5))


def test_rotations_are_distinct_and_start_with_the_base():
    assert rotations([0, 1, 0, 1]) == [(0, 1, 0, 1), (1, 0, 1, 0)]
    assert rotations([0, 1, 2]) == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]


def test_a_block_replays_one_deal_with_every_agent_in_every_seat():
    s = schedule("alarun", 3, 3)
    block = [s.game(i) for i in range(3)]
    assert len({g.game_seed for g in block}) == 1 and {g.deal for g in block} == {0}
    for seat in range(3):
        assert sorted(g.seats[seat] for g in block) == [0, 1, 2]
    assert s.game(3).deal == 1 and s.game(3).game_seed != block[0].game_seed
    assert len({g.agent_seeds for g in block}) == 3  # the agents' streams differ from game to game


def test_focal_line_up_puts_the_first_agent_in_each_team_once_per_block():
    s = schedule("amarok", 6, 2, "focal", teams=True)
    block = [s.game(i).seats for i in range(3)]
    assert block == [(0, 1, 1, 0, 1, 1), (1, 1, 0, 1, 1, 0), (1, 0, 1, 1, 0, 1)]
    assert s.blocks_upto(10) == [range(0, 3), range(3, 6), range(6, 9)]


def test_two_agents_at_four_seats_alternate_the_majority_from_block_to_block():
    s = schedule("edora", 4, 2)
    seats = Counter(a for i in range(8) for a in s.game(i).seats)
    assert seats == Counter({0: 16, 1: 16})


def test_more_agents_than_seats_meet_in_every_group():
    s = schedule("alarun", 2, 4)
    pairs = {frozenset(s.game(i).seats) for i in range(12)}
    assert len(pairs) == 6


def test_game_i_is_the_same_however_it_is_reached():
    s = schedule("amarok", 4, 3)
    later = s.game(57)
    fresh = schedule("amarok", 4, 3)
    assert fresh.game(57) == later
    assert [fresh.locate(i) for i in range(9)] == [(0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1), (1, 2), (1, 3),
                                                   (2, 0)]


def test_focal_line_up_needs_two_agents():
    with pytest.raises(ScheduleError, match="exactly two agents"):
        schedule("amarok", 4, 3, "focal")
