"""Placement at the end of a round: adjacency and the 5x5 limit (A2), simultaneous
placement hidden from the others until everyone has placed (A3)."""

from __future__ import annotations

import random

from hypothesis import given, settings, strategies

from nemeton.games.alarun.square import CELL_XY, MagicSquare, cell_index
from nemeton.games.alarun.actions import _signed
from nemeton.games.alarun.events import card_words

from alarun_helpers import act, card, new, pass_round


def open_xy(square: MagicSquare) -> set[tuple[int, int]]:
    return {(x, y) for x in range(-4, 5) for y in range(-4, 5) if square.is_open(x, y)}


def square_with(*xy: tuple[int, int]) -> MagicSquare:
    return MagicSquare.from_cards([(cell_index(x, y), card("DE-b")) for x, y in xy])


def test_first_cards_must_touch_the_druid():
    st = new(3)
    pass_round(st)
    cells = {(a.x, a.y) for a in st.legal_actions(0)}
    assert cells == {(1, 0), (-1, 0), (0, 1), (0, -1)}


def test_a_card_must_touch_the_druid_or_a_placed_card_orthogonally():
    sq = square_with((1, 0), (2, 0))
    assert open_xy(sq) == {(-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (2, 1), (2, -1), (3, 0)}
    assert sq.is_open(1, 1)               # touches (1,0)
    assert not sq.is_open(3, 1)           # diagonal to (2,0) only


def test_the_square_never_grows_beyond_5x5():
    sq = square_with((1, 0), (2, 0), (3, 0), (4, 0))  # five wide: x from 0 to 4
    assert not sq.is_open(-1, 0)
    assert all(0 <= x <= 4 for x, _ in open_xy(sq))
    tall = square_with((0, 1), (0, 2), (0, -1), (0, -2))  # five tall: y from -2 to 2
    assert all(-2 <= y <= 2 for _, y in open_xy(tall))


def test_a_legal_placement_always_exists_and_the_square_ends_full_5x5():
    rng = random.Random(3)
    for _ in range(200):
        sq = MagicSquare()
        for _ in range(24):
            cells = sq.open_cells()
            assert cells
            sq.place(card("DE-b"), rng.choice(cells))
        assert sq.count() == 25
        assert sq.max_x - sq.min_x == 4 and sq.max_y - sq.min_y == 4


def test_every_player_with_cards_places_at_the_same_time():
    st = new(3)
    pass_round(st)
    assert st.phase == 1 and st.acting() == (0, 1, 2) and st.current_player == 0
    st.apply(st.legal_actions(2)[0], 2)  # seat 2 need not wait for seats 0 and 1
    st.apply(st.legal_actions(2)[0], 2)
    st.apply(st.legal_actions(2)[0], 2)
    assert st.acting() == (0, 1)
    assert st.legal_actions(2) == []


def test_each_placement_decision_places_one_hand_card_on_one_cell():
    st = new(3)
    st.hands[0] = sorted([card("DE-b"), card("MB-r"), card("FM-y")])
    pass_round(st)
    act(st, "place dragon_eggs:blue at (+1,0)", seat=0)
    assert st.squares[0].card_at(1, 0) == card("DE-b")
    assert sorted(st.hands[0]) == sorted([card("MB-r"), card("FM-y")])


def test_other_players_placements_are_hidden_until_everyone_has_placed():
    st = new(3)
    pass_round(st)
    for _ in range(2):
        st.apply(st.legal_actions(0)[0], 0)
    st.apply(st.legal_actions(1)[0], 1)
    for viewer in (1, 2, None):
        v = st.view(viewer)
        assert v["squares"][0] == []              # seat 0's two cards are not shown...
        assert v["placed_this_round"][0] == 2     # ...only how many it placed
    mine = st.view(0)
    assert len(mine["squares"][0]) == 2 and len(mine["my_placements"]) == 2
    assert mine["squares"][1] == []
    action = st.legal_actions(0)[0]
    placed = st.clone()
    placed.apply(action, 0)
    for viewer in (1, 2, None):  # the others are told that a card was placed, not which or where
        told = placed.describe_action(0, action, viewer)
        assert told.startswith("Seat 0 places a card") and action.card not in told and "at (" not in told
    assert placed.describe_action(0, action, 0) == (f"You place {card_words(action.card)} at ({_signed(action.x)},"
                                                    f"{_signed(action.y)}) (3 of 3, hidden from the others "
                                                    "until everyone has placed).")
    # everyone finishes: all placements are revealed
    for seat in (0, 1, 1, 2, 2, 2):
        st.apply(st.legal_actions(seat)[0], seat)
    assert st.phase == 0 and st.round == 2
    assert [len(sq) for sq in st.view(2)["squares"]] == [3, 3, 3]


@settings(max_examples=60, deadline=None)
@given(strategies.data())
def test_any_sequence_of_open_cells_keeps_the_square_connected_and_within_5x5(data):
    sq = MagicSquare()
    placed = {(0, 0)}
    for _ in range(24):
        cell = data.draw(strategies.sampled_from(sq.open_cells()))
        x, y = CELL_XY[cell]
        assert (x, y) not in placed
        assert any((x + dx, y + dy) in placed for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))
        placed.add((x, y))
        xs, ys = [p[0] for p in placed], [p[1] for p in placed]
        assert max(xs) - min(xs) <= 4 and max(ys) - min(ys) <= 4
        sq.place(card("MY-g"), cell)
    assert sq.open_cells() == ()
