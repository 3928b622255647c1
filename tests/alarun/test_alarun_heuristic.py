"""The Alarún heuristic: it reads only its seat's knowledge, picks sensible actions and
beats random play clearly (a few fixed-seed games; the 200-game figures are in the report)."""

from __future__ import annotations

import random

import pytest

from nemeton.agents.base import get_heuristic
from nemeton.engine import get_game, make
from nemeton.games.alarun.scoring import score_grid
from nemeton.games.alarun.square import cell_index

from alarun_helpers import act, card, cards, new, pass_round

from heuristic_play import play_heuristic_vs_random

H = get_heuristic("alarun")
SPEC = get_game("alarun")


def _play(players, seed, heuristic_seat, via_view=False):
    return play_heuristic_vs_random("alarun", players, seed, heuristic_seat, via_view, action_cap=30)


def test_heuristic_beats_random_in_two_player_games():
    wins = sum(_play(2, seed, seed % 2, via_view=seed < 4).returns()[seed % 2] for seed in range(12))
    assert wins >= 11  # measured: 200 of 200 games (see the report)


def test_heuristic_beats_random_in_four_player_games():
    wins = sum(_play(4, seed, seed % 4).returns()[seed % 4] for seed in range(6))
    assert wins >= 5


def test_places_a_card_to_extend_a_stretch():
    st = new(2)
    sq = st.squares[0]
    sq.place(card("DE-b"), cell_index(0, 1))  # below the druid
    sq.place(card("MB-b"), cell_index(1, 1))
    st.hands[0] = sorted(cards("CA-b MY-r PF-o"))
    pass_round(st)
    before = score_grid(st.squares[0].grid(), None).potions
    choice = H.choose_in_state(st, 0, st.legal_actions(0), random.Random(0))
    st.apply(choice, 0)
    # the blue calendula makes a third blue in a line (row 1, or the druid's column as blue)
    assert choice.card == "calendula:blue"
    assert score_grid(st.squares[0].grid(), None).potions - before == 4


def _blue_row_position():
    st = new(3)
    sq = st.squares[0]
    for x, c in ((1, "DE-b"), (2, "MB-b"), (3, "FM-b")):
        sq.place(card(c), cell_index(x, 0))
    st.secret[0] = 4  # red
    return st


def test_takes_a_card_that_extends_a_stretch():
    st = _blue_row_position()
    st.hands[0] = sorted(cards("MY-g PF-o MA-y"))
    st.centre = cards("CA-b CA-w PF-g")
    choice = H.choose_in_state(st, 0, st.legal_actions(0), random.Random(0))
    st.apply(choice, 0)
    assert card("CA-b") in st.hands[0]  # by a swap or by swapping all


def test_passes_when_no_centre_card_helps():
    st = _blue_row_position()
    st.hands[0] = sorted(cards("CA-b DE-r FM-r"))  # a blue for the row, two reds (secret colour)
    st.centre = cards("MY-o PF-w MA-p")
    assert str(H.choose_in_state(st, 0, st.legal_actions(0), random.Random(0))) == "pass"


def test_the_same_policy_from_a_view_and_from_a_state():
    st = make("alarun", players=3, seed=5, action_cap=30)
    rng = random.Random(5)
    for _ in range(120):
        if st.is_terminal():
            break
        p = st.current_player
        legal = st.legal_actions(p)
        a = H.choose_in_state(st, p, legal, random.Random(1))
        assert H.choose_from_view(st.view(p), legal, random.Random(1)) == a
        st.apply(rng.choice(legal), p)


def test_the_state_policy_reads_only_what_the_seat_may_see():
    st = new(3, seed=7)
    act(st, "pass")
    view = st.view(1)
    legal = st.legal_actions(1)
    picks = {H.choose_in_state(SPEC.determinize(view, random.Random(k)), 1, legal, random.Random(0))
             for k in range(8)}
    assert len(picks) == 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_evaluate_shares_one_and_favours_the_leader(players):
    st = make("alarun", players=players, seed=3, action_cap=30)
    rng = random.Random(3)
    while st.round < 5:
        p = st.current_player
        legal = st.legal_actions(p)
        st.apply(H.choose_in_state(st, p, legal, rng) if p == 0 else rng.choice(legal), p)
    values = H.evaluate(st)
    assert len(values) == players and sum(values) == pytest.approx(1.0)
    assert values[0] == max(values)


def test_points_added_now_are_exact_including_the_druids_lines():
    from nemeton.games.alarun.heuristic import SquareReader, Weights
    from nemeton.games.alarun.square import MagicSquare
    rng = random.Random(0)
    for _ in range(150):
        sq = MagicSquare()
        for _ in range(rng.randrange(0, 22)):
            sq.place(rng.randrange(50), rng.choice(sq.open_cells()))
        reader = SquareReader(sq, Weights(growth=0.0, blocking=0.0))
        for cell in sq.open_cells():
            c = rng.randrange(50)
            after = sq.copy()
            after.place(c, cell)
            exact = score_grid(after.grid(), None).potions - score_grid(sq.grid(), None).potions
            assert reader.gain(c, cell) == exact
