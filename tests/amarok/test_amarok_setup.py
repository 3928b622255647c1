"""Options, preparation and "before each round" (rulebook PREPARAZIONE / PRIMA DI OGNI ROUND)."""

import pytest

from nemeton.engine import InvalidOptionsError, get_game, make


@pytest.mark.parametrize("players", [3, 5])
def test_team_mode_needs_4_or_6_players(players):
    with pytest.raises(InvalidOptionsError) as err:
        make("amarok", players=players, teams=True, seed=0)
    assert "teams=true needs 4 or 6 players" in str(err.value)


@pytest.mark.parametrize("players", [2, 7])
def test_player_count_is_3_to_6(players):
    with pytest.raises(InvalidOptionsError, match=r"allowed: integer 3\.\.6"):
        make("amarok", players=players, seed=0)


def test_partner_hand_option_needs_team_mode():
    with pytest.raises(InvalidOptionsError, match="partner_hand=true only applies with teams=true"):
        make("amarok", players=4, partner_hand=True, seed=0)


def test_team_mode_variants_are_in_the_conformance_suite():
    variants = get_game("amarok").conformance_variants
    assert {"players": 4, "teams": True} in variants and {"players": 6, "teams": True} in variants


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_each_round_deals_two_cards_each_and_a_river_of_two(players):
    state = make("amarok", players=players, seed=players)
    data = state.to_json()
    assert all(len([c for c in row if c]) == 2 for row in data["hands"])
    assert len(data["river"]) == 2
    assert len(data["deck"]) == 22 - 2 * players - 2
    everything = [c for row in data["hands"] for c in row] + data["river"] + data["deck"]
    assert sorted(everything) == sorted(c["id"] for c in state.view(None)["cards"])


def test_round_one_shows_wolf_pack_and_the_holder_starts():
    state = make("amarok", players=4, seed=3)
    view = state.view(None)
    assert view["round"] == 1 and state.round == 1
    assert view["objective"] == "wolf_pack"
    assert view["objective_holder"] == 0 and state.current_player == 0
    assert view["scores"] == [0, 0, 0, 0]


def test_the_shuffle_follows_the_seed():
    assert make("amarok", players=3, seed=9).to_json() == make("amarok", players=3, seed=9).to_json()
    assert make("amarok", players=3, seed=9).to_json()["hands"] != make("amarok", players=3, seed=10).to_json()["hands"]


def test_scores_are_round_wins_and_teams_are_partners_opposite():
    state = make("amarok", players=6, teams=True, seed=0)
    assert [state.team_of(s) for s in range(6)] == [0, 1, 2, 0, 1, 2]
    assert state.view(0)["teams"] == [[0, 3], [1, 4], [2, 5]]
    assert state.scores() == [0.0] * 6
    solo = make("amarok", players=5, seed=0)
    assert [solo.team_of(s) for s in range(5)] == [0, 1, 2, 3, 4]
