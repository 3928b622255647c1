"""Alarún's rule-of-thumb player.

The policy knows only what its seat sees: its hand, its own square, the face-up centre, its
secret colour and the round (from a view, or the same fields of a determinized state).

- **Value of a card** for the seat = the best *placement gain* over the open cells of its
  square, plus 2 for the secret colour, plus 10 for the Centum auri.
- **Placement gain** of a card on a cell, per line through the cell (its row and column):
  the potion points it adds now (the stretch through the cell, by colour or by ingredient,
  against the line's best stretch so far), a share of what the stretch could still become if
  one of its ends stays open, minus a share of what the cell was worth to the stretches
  already beside it (don't block a good stretch with a card that does not extend it). The
  points added now are exact: on the druid's row and column the druid takes its best value
  again with the new card.
- **Actions**: swap the hand card with the lowest value for the centre card with the highest
  when that gains at least ``Weights.swap_margin`` (any gain on the last action after someone
  passed); swap all and pass when the whole centre is that much better than the hand; with 2
  players flip when the centre offers nothing and the hand has a weak card; otherwise pass.
- **Placement**: the (card, cell) with the largest placement gain.

``evaluate`` turns provisional scores (potions so far, Centum auri, colour bonus) plus an
allowance for the cards still to come into a soft share of the win (winners share 1). It is
called once per search iteration, so its hand values are the quick kind: a card joining the
druid's row or column is counted with the druid keeping its present value (the policy's
choices count the druid's best new value exactly).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ...engine import Action, State
from .actions import FLIP, PASS, SWAP_ALL, SWAPS, Place
from .components import CARD_IDS, CENTUM_AURI, COLOURS, EMPTY, ROUNDS, card_id
from .rules import ACTIONS, NO_SEAT, PLACEMENT, AlarunState
from .scoring import (CENTUM_AURI_POINTS, COLOUR_BONUS_POINTS, POINTS, druid_lines, line_strength,
                                     score_grid)
from .square import (CELL_XY, COLUMNS_BETWEEN, ORIGIN, REACH, ROWS_BETWEEN, SIDE,
                                    MagicSquare, cell_index)
from ...engine.heuristic import GameHeuristic

COLOUR_BONUS = 2.0
CENTUM_AURI_VALUE = 10.0


@dataclass(frozen=True)
class Weights:
    growth: float = 0.35       # share of a stretch's next step counted while one of its ends is open
    blocking: float = 0.35     # share of a neighbouring stretch's next step lost by filling its open end
    swap_margin: float = 0.75  # a swap must gain this much hand value (points) to be worth a turn
    weak_card: float = 1.5     # a hand card worth less than this invites a 2-player flip


_COLOUR = tuple(c % 7 for c in range(49))
_INGREDIENT = tuple(c // 7 for c in range(49))
# _TRAITS[card]: bit set of the card's colour (bits 0-6) and ingredient (bits 7-13); the
# Centum auri (-1) has its own gain: never the plain one
_TRAITS = tuple((1 << (c % 7)) | (1 << (7 + c // 7)) for c in range(49)) + (-1,)


def _rays(cell: int) -> tuple:
    """The cells from ``cell`` outwards to the board's edge: (right, left), then (down, up)."""
    x0, y0 = CELL_XY[cell]
    out = []
    for sides in (((1, 0), (-1, 0)), ((0, 1), (0, -1))):
        pair = []
        for dx, dy in sides:
            ray = []
            x, y = x0 + dx, y0 + dy
            while -REACH <= x <= REACH and -REACH <= y <= REACH:
                ray.append(cell_index(x, y))
                x += dx
                y += dy
            pair.append(tuple(ray))
        out.append(tuple(pair))
    return tuple(out)


RAYS = tuple(_rays(i) for i in range(SIDE * SIDE))
DRUID_LINE_CELLS = frozenset(i for i in range(SIDE * SIDE) if 0 in CELL_XY[i])  # the druid's row and column


class SquareReader:
    """One seat's square prepared for many placement-gain questions (one decision)."""

    __slots__ = ("square", "cells", "allowed", "base", "arms", "open_cells", "growth", "blocking", "exact_druid",
                 "druid_points", "druid_cells", "best_gains")

    def __init__(self, square: MagicSquare, weights: Weights = Weights(), exact_druid: bool = True):
        """``exact_druid=False`` (quick estimates): the druid keeps its present value when a
        card joins its row or column, instead of taking its best value again."""
        self.square = square
        self.exact_druid = exact_druid
        self.growth = weights.growth
        self.blocking = weights.blocking
        cells = square.cells[:]
        druid, self.druid_points = _druid_lines(cells[ORIGIN - REACH:ORIGIN + REACH + 1], cells[ORIGIN % SIDE::SIDE])
        cells[ORIGIN] = druid  # the druid as the value best for the square so far
        self.cells = cells
        self.allowed = (COLUMNS_BETWEEN[square.max_x - 4 + REACH][square.min_x + 4 + REACH]
                        & ROWS_BETWEEN[square.max_y - 4 + REACH][square.min_y + 4 + REACH])
        self.open_cells = square.open_cells()
        self.druid_cells = DRUID_LINE_CELLS
        # the strength of every row (axis 0) and column (axis 1), by index + REACH; no card: 0
        rows = [0] * SIDE
        for y in range(square.min_y, square.max_y + 1):
            start = (y + REACH) * SIDE
            rows[y + REACH] = line_strength(cells[start:start + SIDE])
        columns = [0] * SIDE
        for x in range(square.min_x, square.max_x + 1):
            columns[x + REACH] = line_strength(cells[x + REACH::SIDE])
        self.base = (rows, columns)
        self.arms: dict[int, tuple] = {}
        self.best_gains: dict[int, float] = {}  # card -> its best placement gain (card_value)

    @classmethod
    def shared(cls, square: MagicSquare, weights: Weights = Weights()) -> "SquareReader":
        """The (exact) reader of a square with these cards, shared by every decision about
        such a square (a square does not change during a round's action phase, and search
        samples keep the public squares): what it has computed is reused."""
        key = (weights, tuple(square.cells))
        reader = _SHARED_READERS.get(key)
        if reader is None:
            if len(_SHARED_READERS) >= 512:
                _SHARED_READERS.clear()
            reader = _SHARED_READERS[key] = cls(square.copy(), weights)
        return reader

    def _line_strength(self, axis: int, index: int) -> int:
        """Strength of the best stretch on row ``index`` (axis 0) or column ``index`` (axis 1)."""
        return self.base[axis][index + REACH]

    def arms_of(self, cell: int) -> tuple:
        """Per line through ``cell`` (row, then column): whether an empty side is open (the
        cell after it empty and allowed), and for each side with cards (up to an empty cell,
        the Centum auri or the edge): the first card's colour, the bit set of the cards from
        it sharing that colour, whether that is the whole side and its end is open, and the
        same by ingredient; then the strength of the strongest of those neighbouring stretches,
        what the cell is worth to it (the points of its next step) and the line's strength.
        Also the colours and ingredients those stretches start with (``_TRAITS`` bits) and the
        gain of a card sharing none of them (the same for all such cards)."""
        arms = self.arms.get(cell)
        if arms is None:
            cells = self.cells
            allowed = self.allowed
            x0, y0 = CELL_XY[cell]
            out: list[tuple[bool, tuple, int, int, int]] = []  # per axis: (empty_open, runs, neighbour, worth, base)
            traits = 0
            for rays in RAYS[cell]:
                empty_open = False
                runs = []
                neighbour = 0
                for ray in rays:
                    open_end = False
                    first = -1
                    for i in ray:
                        card = cells[i]
                        if card == EMPTY:
                            open_end = bool(allowed >> i & 1)
                            break
                        if card >= CENTUM_AURI:
                            break
                        if first < 0:
                            first = card
                            colour = _COLOUR[card]
                            ingredient = _INGREDIENT[card]
                            by_colour = by_ingredient = 1 << card
                            whole_colour = whole_ingredient = True
                            continue
                        if whole_colour:
                            if _COLOUR[card] == colour:
                                by_colour |= 1 << card
                            else:
                                whole_colour = False
                        if whole_ingredient:
                            if _INGREDIENT[card] == ingredient:
                                by_ingredient |= 1 << card
                            else:
                                whole_ingredient = False
                    if first < 0:
                        if open_end:
                            empty_open = True
                        continue
                    runs.append((colour, by_colour, whole_colour and open_end,
                                 ingredient, by_ingredient, whole_ingredient and open_end))
                    traits |= _TRAITS[first]
                    strength = max(by_colour.bit_count(), by_ingredient.bit_count())
                    if strength > neighbour:
                        neighbour = strength
                worth = POINTS[neighbour + 1] - POINTS[neighbour] if 0 < neighbour < 5 else 0
                axis = len(out)
                index = y0 if axis == 0 else x0
                # the line's strength now; the druid's lines are counted exactly apart (99: skip)
                base = self._line_strength(axis, index) if index != 0 or not self.exact_druid else 99
                out.append((empty_open, tuple(runs), neighbour, worth, base))
            lines = tuple(out)
            arms = (lines, traits, _plain_gain(lines, self.growth, self.blocking))
            self.arms[cell] = arms
        return arms

    def gain(self, card: int, cell: int) -> float:
        """Potion points (now and, partly, to come) of ``card`` on ``cell``."""
        druid = self._druid_lines_gain(card, cell) if self.exact_druid and cell in self.druid_cells else 0
        return _lines_gain((self.arms.get(cell) or self.arms_of(cell))[0], card, self.growth, self.blocking, druid)

    def _druid_lines_gain(self, card: int, cell: int) -> int:
        """The points ``card`` on ``cell`` adds to the druid's row and column: the druid may
        take another value."""
        cells = self.square.cells
        row = cells[ORIGIN - REACH:ORIGIN + REACH + 1]
        column = cells[ORIGIN % SIDE::SIDE]
        x, y = CELL_XY[cell]
        if y == 0:
            row[x + REACH] = card
        else:
            column[y + REACH] = card
        return _druid_lines(row, column)[1] - self.druid_points

    def _exact_gain(self, card: int, cell: int) -> int:
        """The potion points ``card`` on ``cell`` adds, the whole square scored again (tests)."""
        after = self.square.copy()
        after.place(card, cell)
        return score_grid(after.grid(), None).potions - score_grid(self.square.grid(), None).potions

    def card_value(self, card: int, secret: int) -> float:
        """What a hand card is worth to this square: its best placement plus the bonuses."""
        best = self.best_gains.get(card)
        if best is None:
            best = self.best_gains[card] = self._best_gain(card)
        return _with_bonuses(card, best, secret)

    def _best_gain(self, card: int) -> float:
        get = self.arms.get
        growth, blocking = self.growth, self.blocking
        druid_cells = self.druid_cells if self.exact_druid else ()
        best = -math.inf
        traits = _TRAITS[card]
        for cell in self.open_cells:
            lines, shared, plain = get(cell) or self.arms_of(cell)
            if cell in druid_cells:
                g = _lines_gain(lines, card, growth, blocking, self._druid_lines_gain(card, cell))
            elif traits < 0 or shared & traits:
                g = _lines_gain(lines, card, growth, blocking, 0)
            else:
                g = plain
            if g > best:
                best = g
        return best

    def hand_value(self, hand: Sequence[int], secret: int) -> float:
        """The sum of the hand's card values (cell by cell: each cell read once)."""
        if not hand:
            return 0.0
        get = self.arms.get
        growth, blocking = self.growth, self.blocking
        druid_cells = self.druid_cells if self.exact_druid else ()
        best = [-math.inf] * len(hand)
        traits = [_TRAITS[card] for card in hand]
        for cell in self.open_cells:
            lines, shared, plain = get(cell) or self.arms_of(cell)
            exact = cell in druid_cells
            for k, card in enumerate(hand):
                if exact:
                    g = _lines_gain(lines, card, growth, blocking, self._druid_lines_gain(card, cell))
                elif traits[k] < 0 or shared & traits[k]:
                    g = _lines_gain(lines, card, growth, blocking, 0)
                else:
                    g = plain
                if g > best[k]:
                    best[k] = g
        total = 0.0
        for k, card in enumerate(hand):
            total += _with_bonuses(card, best[k], secret)
        return total

    def potions(self) -> int:
        """The potion points of the square now (the druid at its best)."""
        square = self.square
        total = self.druid_points
        for y in range(square.min_y, square.min_y + 5):
            if y:
                total += POINTS[self._line_strength(0, y)]
        for x in range(square.min_x, square.min_x + 5):
            if x:
                total += POINTS[self._line_strength(1, x)]
        return total


def _with_bonuses(card: int, best_gain: float, secret: int) -> float:
    if best_gain == -math.inf:  # no open cell
        best_gain = 0.0
    if card == CENTUM_AURI:
        return CENTUM_AURI_VALUE + best_gain
    return best_gain + (COLOUR_BONUS if _COLOUR[card] == secret else 0.0)


def bonuses(square: MagicSquare, secret: int) -> int:
    """The Centum auri's points and the secret colour's bonus of the cards placed."""
    total = CENTUM_AURI_POINTS if CENTUM_AURI in square.cells else 0
    for card in square.cells:
        if 0 <= card < CENTUM_AURI and _COLOUR[card] == secret:
            total += COLOUR_BONUS_POINTS
    return total


def _plain_gain(lines: tuple, growth: float, blocking: float) -> float:
    """``_lines_gain`` of a card sharing neither colour nor ingredient with the stretches
    beside the cell: a stretch of 1 on both lines (the same operations, the same value)."""
    immediate = 0.0
    potential = 0.0
    for empty_open, _, neighbour, worth, base in lines:
        if base == 0:
            immediate += POINTS[1]
        if empty_open:
            potential += growth * (POINTS[2] - POINTS[1])
        if neighbour >= 1:
            potential -= blocking * worth
    return immediate + potential


def _lines_gain(arms: tuple, card: int, growth: float, blocking: float, druid: int) -> float:
    """The placement gain of ``card`` on a cell along its row and column (``SquareReader.arms_of``);
    ``druid``: the points it adds to the druid's lines when those are counted apart."""
    immediate = float(druid)
    potential = 0.0
    if card == CENTUM_AURI:
        for _, _, _, worth, _ in arms:
            potential -= blocking * worth
        return potential
    colour = _COLOUR[card]
    ingredient = _INGREDIENT[card]
    bit = 1 << card
    for empty_open, runs, neighbour, worth, base in arms:
        # the stretch through the cell by colour, then by ingredient: the longer (or as long
        # with an open end) counts
        mask = mask_i = bit
        best_open = open_i = empty_open
        for c0, cm, c_open, i0, im, i_open in runs:
            if c0 == colour:
                mask |= cm
                if c_open:
                    best_open = True
            if i0 == ingredient:
                mask_i |= im
                if i_open:
                    open_i = True
        best_k = mask.bit_count()
        k = mask_i.bit_count()
        if k > best_k or (k == best_k and open_i):
            best_k, best_open = k, open_i
        if best_k > base:
            immediate += POINTS[best_k] - POINTS[base]
        if best_open and best_k < 5:
            potential += growth * (POINTS[best_k + 1] - POINTS[best_k])
        if best_k <= neighbour:  # it does not extend the stretch beside it: blocks it
            potential -= blocking * worth
    return immediate + potential


_DRUID_LINES: dict[tuple, tuple[int, int]] = {}
_SHARED_READERS: dict[tuple, SquareReader] = {}


def _druid_lines(row: list[int], column: list[int]) -> tuple[int, int]:
    """(best druid value, points of the druid's row and column) for the board's middle row and
    column, memoised: a player's square does not change during a round's action phase."""
    key = (*row, *column)
    hit = _DRUID_LINES.get(key)
    if hit is None:
        if len(_DRUID_LINES) > 100_000:
            _DRUID_LINES.clear()
        hit = _DRUID_LINES[key] = druid_lines(row, REACH, column, REACH)
    return hit


def choose(legal: Sequence[Action], hand: list[int], square: MagicSquare, centre: list[int],
           secret: int, last_action: bool, rng: random.Random, weights: Weights = Weights()) -> Action:
    """The policy: one decision from what the seat knows."""
    if len(legal) == 1:
        return legal[0]
    first = legal[0]
    reader = SquareReader.shared(square, weights)
    if first.__class__ is Place:
        places: Sequence[Any] = legal  # all Place (an annotation, not a cast: this runs at every rollout step)
        best, best_gain = first, -math.inf
        for action in places:
            g = reader.gain(CARD_IDS[action.card], cell_index(action.x, action.y))
            if g > best_gain:
                best, best_gain = action, g
        return best
    # the action phase
    values: dict[int, float] = {}

    def value(card: int) -> float:
        v = values.get(card)
        if v is None:
            v = values[card] = reader.card_value(card, secret)
        return v

    margin = 1e-9 if last_action else weights.swap_margin
    best_swap, best_gain = None, margin
    for give in sorted(set(hand)):
        for take in sorted(set(centre)):
            if give != take:
                g = value(take) - value(give)
                if g > best_gain:
                    best_swap, best_gain = SWAPS[give][take], g
    all_gain = sum(value(c) for c in centre) - sum(value(c) for c in hand)
    if SWAP_ALL in legal and all_gain > max(best_gain, margin):
        return SWAP_ALL
    if best_swap is not None and best_swap in legal:
        return best_swap
    if FLIP in legal and not last_action and min(value(c) for c in hand) < weights.weak_card:
        return FLIP
    return PASS


class AlarunHeuristic(GameHeuristic):
    def __init__(self, weights: Weights = Weights()):
        self.weights = weights

    def choose_from_view(self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        seat = view["seat"]
        square = MagicSquare.from_cards([(cell_index(x, y), card_id(c)) for x, y, c in view["squares"][seat]])
        hand = sorted(card_id(c) for c in view["hand"])
        centre = [card_id(c) for c in view["centre"]]
        secret = COLOURS.index(view["secret_colour"])
        return choose(legal, hand, square, centre, secret, view["alarun"] is not None, rng, self.weights)

    def choose_in_state(self, state: State, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        assert isinstance(state, AlarunState)
        return choose(legal, state.hands[seat], state.squares[seat], state.centre, state.secret[seat],
                      state.first_passer != NO_SEAT, rng, self.weights)

    def search_settings(self) -> Mapping[str, Any]:
        # at a 1 s budget against this heuristic (2 players, same deals) its rollouts with
        # its prior won 4/6 where twice as many random rollouts won 3/6; over 30 deals they
        # only break even (0.50), so this is a weak preference, not a proven gain. The fitted
        # cut-off evaluation (nemeton.agents.fitted) won +12.0% [+4.0%, +20.0%] over the
        # heuristic's evaluate at 200 iterations, 2 players, 200 games on the same deals
        return {"rollout": "heuristic", "prior": "heuristic", "evaluation": "fitted"}

    def evaluate(self, state: State) -> list[float]:
        """Each seat's estimated share of the win: a softmax of provisional scores (plus the
        quick value of the hand still to be placed), flatter the more rounds remain."""
        assert isinstance(state, AlarunState)
        if state.is_terminal():
            return state.returns()
        n = state.n
        estimates = []
        hands = state.hands if state.phase in (ACTIONS, PLACEMENT) else [[]] * n
        for s in range(n):
            square = state.squares[s]
            secret = state.secret[s]
            reader = SquareReader(square, self.weights, exact_druid=False)
            estimates.append(reader.potions() + bonuses(square, secret) + reader.hand_value(hands[s], secret))
        rounds_left = ROUNDS - state.round + (state.phase == ACTIONS)
        temperature = 3.0 + 2.5 * rounds_left
        top = max(estimates)
        weights = [math.exp((e - top) / temperature) for e in estimates]
        total = sum(weights)
        return [w / total for w in weights]


HEURISTIC = AlarunHeuristic()
