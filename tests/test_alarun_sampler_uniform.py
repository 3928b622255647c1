"""Alarún: another seat's hidden placements of the round are drawn uniformly over every layout
consistent with the view (the search fast path and the determinizer alike).

A seat that has placed k of its 3 end-of-action cards (hidden, A3) has filled a set of k
cells that some legal order reaches (A2: each card touches the druid or a card, the square
stays within 5x5), and put k of its hand cards on them. Drawing each card's cell among the
open ones, one by one, is not uniform over those sets: from the druid alone, the 6 pairs of
cells that both touch it are reached by two orders, with probability 2 * 1/4 * 1/6 = 1/12
each, and the 12 pairs in a line from it by one, 1/4 * 1/6 = 1/24 each (uniform: 1/18). The
draw is now a uniform set (``hidden_layouts``) with the hand's cards on it in random order.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from nemeton.engine import get_game, make
from nemeton.games.alarun.square import BOX, CELL_XY, NEIGHBOURS, ORIGIN, SIDE, MagicSquare
from nemeton.games.alarun.infer import hidden_layouts, unseen_pool

SPEC = get_game("alarun")
# chi-square critical values at p = 0.001 (scipy.stats.chi2.ppf(0.999, dof))
CHI2_999 = {17: 40.79, 53: 90.57}


def _by_rule(square: MagicSquare, k: int) -> set[frozenset[int]]:
    """The k-cell sets whose cards, added to ``square``, leave its cards connected to the druid
    and within a 5x5 box (the rule, checked directly; such a set always has a legal order)."""
    near = {i for i in range(SIDE * SIDE) if square.cells[i] == -1
            and any(abs(CELL_XY[i][0] - CELL_XY[j][0]) + abs(CELL_XY[i][1] - CELL_XY[j][1]) <= k
                    for j in range(SIDE * SIDE) if square.occupied >> j & 1)}
    out = set()
    for cells in combinations(sorted(near), k):
        filled = {j for j in range(SIDE * SIDE) if square.occupied >> j & 1} | set(cells)
        xs = [CELL_XY[j][0] for j in filled]
        ys = [CELL_XY[j][1] for j in filled]
        if max(xs) - min(xs) >= BOX or max(ys) - min(ys) >= BOX:
            continue
        reached, todo = {ORIGIN}, [ORIGIN]
        while todo:
            j = todo.pop()
            for m in filled:
                if m not in reached and NEIGHBOURS[j] >> m & 1:
                    reached.add(m)
                    todo.append(m)
        if reached == filled:
            out.add(frozenset(cells))
    return out


def _mid_game_square() -> MagicSquare:
    st = make("alarun", players=2, seed=5, action_cap=8)
    rng = random.Random(5)
    while st.round < 4:
        p = st.current_player
        st.apply(rng.choice(st.legal_actions(p)), p)
    return st.squares[0].copy()


@pytest.mark.parametrize("k", [1, 2, 3])
def test_hidden_layouts_are_every_set_of_cells_the_rules_allow_once(k):
    for square in (MagicSquare(), _mid_game_square()):
        layouts = hidden_layouts(square, k)
        sets = [frozenset(cells) for cells in layouts]
        assert len(set(sets)) == len(sets)  # each set once
        assert set(sets) == _by_rule(square, k)
        for cells in layouts:  # and each written in an order that is legal cell by cell
            twin = square.copy()
            for cell in cells:
                assert cell in twin.open_cells()
                twin.place(0, cell)
    assert [len(hidden_layouts(MagicSquare(), k)) for k in (1, 2, 3)] == [4, 18, 76]


def _two_placed_by_seat_0():
    """2 players, round 1: seat 0 took fungi_magica:white from the centre (both of its copies
    are then known to seat 1: no unseen twin), both passed, and seat 0 has placed 2 of its 3
    cards (hidden from seat 1, who has not placed yet)."""
    st = make("alarun", players=2, seed=2)
    for seat, text in ((0, "swap moon_berries:pink <-> fungi_magica:white"), (1, "pass"), (0, "pass")):
        st.apply(next(a for a in st.legal_actions(seat) if str(a) == text), seat)
    st.apply(st.legal_actions(0)[0], 0)
    st.apply(st.legal_actions(0)[-1], 0)
    view = st.view(1)
    assert view["placed_this_round"] == [2, 0]
    (known,) = st.known[0]
    assert unseen_pool(view).count(known) == 0
    return view, known


def _draws(how: str, view, count: int):
    if how == "sampler":
        sample = SPEC.sampler(view)
        rng = random.Random(7)
        return [sample(rng) for _ in range(count)]
    return [SPEC.determinize(view, random.Random(1000 + i)) for i in range(count)]


def _chi2(counts: Counter, cells: int) -> float:
    total = sum(counts.values())
    expected = total / cells
    return sum((counts.get(c, 0) - expected) ** 2 / expected for c in range(cells))


@pytest.mark.parametrize("how", ["sampler", "determinizer"])
def test_hidden_placements_are_uniform_over_the_consistent_layouts(how):
    view, known = _two_placed_by_seat_0()
    layouts = [frozenset(c) for c in hidden_layouts(MagicSquare(), 2)]
    # a layout: the 2 cells filled and where the card everyone saw seat 0 take lies (on the
    # first or second cell, ascending, or still in the hand): 18 x 3 equally likely outcomes
    outcomes = Counter()
    for st in _draws(how, view, 5400 if how == "sampler" else 2700):
        cells = sorted(st.pending[0])
        on = [i for i, cell in enumerate(cells) if st.squares[0].cells[cell] == known]
        assert len(on) + st.hands[0].count(known) == 1
        outcomes[3 * layouts.index(frozenset(cells)) + (on[0] if on else 2)] += 1
    assert _chi2(outcomes, 54) < CHI2_999[53], sorted(outcomes.values())
    sets = Counter()
    for key, n in outcomes.items():
        sets[key // 3] += n
    assert _chi2(sets, 18) < CHI2_999[17], sorted(sets.values())
