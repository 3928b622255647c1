"""Alarún's compiled core (Numba): B games in one int64 array, proven equal to :mod:`.rules`.

A kernel is the second implementation of the rules, for speed (``engine/kernel.py`` says
what every kernel provides; ``tests/kernel/test_alarun.py`` proves this one equal to the
reference: the same deal for a seed, after every step the same legal actions, state, returns
and observations, the same games with random agents).

**The state.** Slot i of a batch is the row ``state[i]`` of ``WORDS`` int64 words: a header
(players, cap, phase, round, turn, start player, first passer, extra actions left, actions
taken, cards to place, pile lengths), the stack (``DECK``), the face-up centre, the 2-player
face-down cards, the open discard pile, then one block of ``SEAT_WORDS`` per seat (hand,
the cards the others saw it take, secret colour, this round's placements, its square as
the 9 x 9 board of :mod:`.square` with its extent, and the cached potion points views show).
Its random stream is ``rng[i]`` (an :mod:`nemeton.engine.mt` stream of 625 words), which the
deal draws from as ``AlarunState.__init__`` does (shuffle, then sample the secret colours).

The functions below mirror :mod:`.rules` name for name (``swap``, ``pass_turn``,
``swap_all_and_pass``, ``flip``, ``end_turn``, ``first_pass_takes_alarun``,
``begin_placement``, ``place``, ``end_round``, ``refresh_centre``), :mod:`.scoring`
(``line_strength``, ``druid_lines``, the totals and ranking keys), :mod:`.encoding` (the
observation, written at the reference layout's offsets), :mod:`.heuristic` (the policy
``choose`` with its ``SquareReader``: the same float operations in the same order, so the
same choices; ``evaluate``, a search's cut-off) and :mod:`.fitted` (the fitted cut-off
evaluation's features, its weights passed in as a (stage, feature) array).

A playout (search's and learning's, ``Kernel.playout``) stops a slot before acting where an
EXTERNAL seat is to act or once the round (``state.round``: 1 to 8, moved on only by
``end_round``) reaches the slot's cut-off.

Action ids are those of ``spec.action_space(options)``: pass 0, swap all and pass 1, flip 2,
then the swaps (give, take) and the placements (card, cell). Legal actions are listed in the
reference's order (``state.legal_actions``): the swaps, then pass, swap all and pass, flip;
placements by card, then cell. The seat that acts is ``state.current_player`` (the lowest
seat with cards to place during the simultaneous placement), as a table of agents asks.
"""

from __future__ import annotations

import random
import struct
from array import array
from typing import Sequence

import numpy as np
from numba import njit

from ...engine import State, mt
from ...engine.kernel import (EXTERNAL, HEURISTIC, RANDOM, Kernel, KernelUnsupported, Outcome, check_options,
                              compile_notice)
from .components import CENTUM_AURI, DRUID, EMPTY
from .heuristic import Weights
from .options import AlarunOptions, PLAYER_COUNTS
from .rules import ACTIONS, NO_SEAT, OVER, PLACEMENT, AlarunState
from .square import MagicSquare

# ----- the layout of a slot's row ---------------------------------------------------------
MAXP = 4
H_N, H_CAP, H_PHASE, H_ROUND, H_TURN, H_START, H_FIRST, H_EXTRA, H_TAKEN, H_TO_PLACE = range(10)
H_DECK_LEN, H_FACE_DOWN_LEN, H_DISCARD_LEN, H_HAS_CAP = 10, 11, 12, 13
DECK = 16
CENTRE = DECK + 99
FACE_DOWN = CENTRE + 3
DISCARD = FACE_DOWN + 3
SEATS = DISCARD + 99
# per seat, from its block's start
S_HAND, S_HAND_LEN, S_KNOWN, S_KNOWN_LEN, S_SECRET, S_PENDING, S_PENDING_LEN = 0, 3, 4, 7, 8, 9, 12
S_MIN_X, S_MAX_X, S_MIN_Y, S_MAX_Y = 13, 14, 15, 16
S_POINTS, S_POINTS_SHOWN = 17, 18   # potion points: the whole square / without this round's placements; -1 = to compute
S_CELLS = 20
SEAT_WORDS = S_CELLS + 81 + 3
WORDS = SEATS + MAXP * SEAT_WORDS

ROUNDS = 8
ORIGIN = 40
NO_CAP = 1 << 40
PLACE0 = 3 + 50 * 49          # the first placement's id
NUM_ACTIONS = PLACE0 + 50 * 80
MAX_LEGAL = 512
POINTS = np.array([0, 1, 3, 6, 10, 15], dtype=np.int64)
GROWTH = Weights().growth
BLOCKING = Weights().blocking
SWAP_MARGIN = Weights().swap_margin
WEAK_CARD = Weights().weak_card
COLOUR_BONUS = 2.0
CENTUM_AURI_VALUE = 10.0

# the observation's slices, in the order of OBS_OFFSETS (read from the reference layout)
OBS_SLICES = ("acting", "phase", "round", "start_player", "alarun", "extra_actions_left", "actions_taken",
              "deck_size", "face_down", "hand", "centre", "discard", "known_hands", "hand_sizes",
              "placed_this_round", "my_placements", "squares", "potion_points", "secret_colour", "scores",
              "secret_colours")
(O_ACTING, O_PHASE, O_ROUND, O_START, O_ALARUN, O_EXTRA, O_TAKEN, O_DECK, O_FACE_DOWN, O_HAND, O_CENTRE,
 O_DISCARD, O_KNOWN, O_HAND_SIZES, O_PLACED, O_MY_PLACEMENTS, O_SQUARES, O_POINTS, O_SECRET, O_SCORES,
 O_SECRETS) = range(len(OBS_SLICES))


@njit(cache=True)
def seat_at(s):
    return SEATS + s * SEAT_WORDS


@njit(cache=True)
def swap_id(give, take):
    return 3 + give * 49 + (take if take < give else take - 1)


@njit(cache=True)
def place_id(card, cell):
    return PLACE0 + card * 80 + (cell if cell < ORIGIN else cell - 1)


@njit(cache=True)
def popcount(m):
    c = 0
    while m:
        m &= m - 1
        c += 1
    return c


# ----- the deal (AlarunState.__init__) ------------------------------------------------------
@njit(cache=True)
def _deal(row, k, out, at):
    """The last ``k`` cards of the stack, in order, into ``out[at:at + k]``."""
    length = row[H_DECK_LEN]
    for j in range(k):
        out[at + j] = row[DECK + length - k + j]
    row[H_DECK_LEN] = length - k


@njit(cache=True)
def _sort3(a, at, k):
    """Insertion sort of ``a[at:at + k]`` (k <= 3)."""
    for i in range(at + 1, at + k):
        v = a[i]
        j = i - 1
        while j >= at and a[j] > v:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = v


@njit(cache=True)
def _deal_hands(row, n):
    for s in range(n):
        b = seat_at(s)
        _deal(row, 3, row, b + S_HAND)
        _sort3(row, b + S_HAND, 3)
        row[b + S_HAND_LEN] = 3


@njit(cache=True)
def deal_one(row, stream, n, cap, has_cap):
    row[:] = 0
    row[H_N] = n
    row[H_CAP] = cap if has_cap else NO_CAP
    row[H_HAS_CAP] = has_cap
    for c in range(49):
        row[DECK + 2 * c] = c
        row[DECK + 2 * c + 1] = c
    row[DECK + 98] = CENTUM_AURI
    row[H_DECK_LEN] = 99
    mt.shuffle(stream, row[DECK:DECK + 99], 99)
    _deal(row, 3, row, CENTRE)
    _deal_hands(row, n)
    if n == 2:
        _deal(row, 3, row, FACE_DOWN)
        row[H_FACE_DOWN_LEN] = 3
    colours = np.arange(7, dtype=np.int64)
    secret = np.zeros(n, dtype=np.int64)
    mt.sample(stream, colours, 7, n, secret)   # A7: one colour card each, at random
    for s in range(n):
        b = seat_at(s)
        row[b + S_SECRET] = secret[s]
        for i in range(81):
            row[b + S_CELLS + i] = EMPTY
        row[b + S_CELLS + ORIGIN] = DRUID
        row[b + S_POINTS] = -1
        row[b + S_POINTS_SHOWN] = -1
    row[H_ROUND] = 1
    row[H_START] = 0
    _begin_action_phase(row)


@njit(cache=True)
def deal_batch(state, rng, seeds, slots, n, cap, has_cap):
    for j in range(slots.shape[0]):
        i = slots[j]
        mt.seed(rng[i], seeds[j])
        deal_one(state[i], rng[i], n, cap, has_cap)


@njit(cache=True)
def load_row(row, data, n, cap, has_cap):
    """A reference state into ``row`` from ``data``: phase, round, turn, start player, first
    passer, extra actions left, actions taken, cards to place; the stack, the centre, the
    face-down cards and the discard pile, each as its length then its cards; per seat its
    hand, the cards seen taken and this round's placements (each as length, cards), its
    secret colour, its square's extent (min x, max x, min y, max y) and the 45 cells of the 5
    rows from min y (a square spans at most 5 rows; the others are empty)."""
    row[:] = 0
    row[H_N] = n
    row[H_CAP] = cap
    row[H_HAS_CAP] = has_cap
    for j in range(8):
        row[H_PHASE + j] = data[j]
    at = 8
    for start, length_at in ((DECK, H_DECK_LEN), (CENTRE, -1), (FACE_DOWN, H_FACE_DOWN_LEN),
                             (DISCARD, H_DISCARD_LEN)):
        length = data[at]
        if length_at >= 0:
            row[length_at] = length
        row[start:start + length] = data[at + 1:at + 1 + length]
        at += 1 + length
    for s in range(n):
        b = seat_at(s)
        for start, length_at in ((S_HAND, S_HAND_LEN), (S_KNOWN, S_KNOWN_LEN), (S_PENDING, S_PENDING_LEN)):
            length = data[at]
            row[b + length_at] = length
            row[b + start:b + start + length] = data[at + 1:at + 1 + length]
            at += 1 + length
        row[b + S_SECRET] = data[at]
        row[b + S_MIN_X] = data[at + 1]
        row[b + S_MAX_X] = data[at + 2]
        row[b + S_MIN_Y] = data[at + 3]
        row[b + S_MAX_Y] = data[at + 4]
        row[b + S_CELLS:b + S_CELLS + 81] = EMPTY
        first = b + S_CELLS + (data[at + 3] + 4) * 9
        row[first:first + 45] = data[at + 5:at + 50]
        row[b + S_POINTS] = -1
        row[b + S_POINTS_SHOWN] = -1
        at += 50


@njit(cache=True)
def _begin_action_phase(row):
    row[H_PHASE] = ACTIONS
    row[H_TURN] = row[H_START]
    row[H_FIRST] = NO_SEAT
    row[H_EXTRA] = 0
    row[H_TAKEN] = 0
    row[H_TO_PLACE] = 0


# ----- who acts ---------------------------------------------------------------------------
@njit(cache=True)
def current_player(row):
    phase = row[H_PHASE]
    if phase == ACTIONS:
        return row[H_TURN]
    if phase == PLACEMENT:
        for s in range(row[H_N]):
            if row[seat_at(s) + S_HAND_LEN] > 0:
                return s
    return -1


# ----- legal actions ----------------------------------------------------------------------
@njit(cache=True)
def open_cells(row, b, out):
    """The open cells of the square at ``b`` (MagicSquare.open), ascending; returns how many."""
    min_x, max_x = row[b + S_MIN_X], row[b + S_MAX_X]
    min_y, max_y = row[b + S_MIN_Y], row[b + S_MAX_Y]
    cells = b + S_CELLS
    k = 0
    for y in range(max(max_y - 4, min_y - 1, -4), min(min_y + 4, max_y + 1, 4) + 1):
        for x in range(max(max_x - 4, min_x - 1, -4), min(min_x + 4, max_x + 1, 4) + 1):
            i = (y + 4) * 9 + x + 4
            if row[cells + i] != EMPTY:
                continue
            if ((x < 4 and row[cells + i + 1] != EMPTY) or (x > -4 and row[cells + i - 1] != EMPTY)
                    or (y < 4 and row[cells + i + 9] != EMPTY) or (y > -4 and row[cells + i - 9] != EMPTY)):
                out[k] = i
                k += 1
    return k


@njit(cache=True)
def _sorted_centre(row):
    """The three face-up centre cards in ascending order."""
    t0, t1, t2 = row[CENTRE], row[CENTRE + 1], row[CENTRE + 2]
    if t0 > t1:
        t0, t1 = t1, t0
    if t1 > t2:
        t1, t2 = t2, t1
    if t0 > t1:
        t0, t1 = t1, t0
    return t0, t1, t2


@njit(cache=True)
def legal_actions(row, out):
    """The current player's legal action ids in the reference's order; returns how many."""
    phase = row[H_PHASE]
    if phase == ACTIONS:
        if row[H_TAKEN] >= row[H_CAP]:
            out[0] = 0
            return 1
        b = seat_at(row[H_TURN])
        t0, t1, t2 = _sorted_centre(row)
        k = 0
        previous = -1
        for h in range(3):
            give = row[b + S_HAND + h]
            if give == previous:
                continue
            previous = give
            if t0 != give:
                out[k] = swap_id(give, t0)
                k += 1
            if t1 != t0 and t1 != give:
                out[k] = swap_id(give, t1)
                k += 1
            if t2 != t1 and t2 != give:
                out[k] = swap_id(give, t2)
                k += 1
        out[k] = 0
        out[k + 1] = 1
        k += 2
        if row[H_FACE_DOWN_LEN] > 0:
            out[k] = 2
            k += 1
        return k
    if phase == PLACEMENT:
        seat = current_player(row)
        b = seat_at(seat)
        cells = np.empty(81, dtype=np.int64)
        m = open_cells(row, b, cells)
        k = 0
        previous = -1
        for h in range(row[b + S_HAND_LEN]):
            card = row[b + S_HAND + h]
            if card == previous:
                continue
            previous = card
            for j in range(m):
                out[k] = place_id(card, cells[j])
                k += 1
        return k
    return 0


@njit(cache=True)
def legal_mask_batch(state, out):
    legal = np.empty(MAX_LEGAL, dtype=np.int64)
    for i in range(state.shape[0]):
        out[i, :] = False
        k = legal_actions(state[i], legal)
        for j in range(k):
            out[i, legal[j]] = True


# ----- applying actions -------------------------------------------------------------------
@njit(cache=True)
def _remove(row, at, length_at, card):
    """list.remove: the first ``card`` of ``row[at:at + row[length_at]]``."""
    length = row[length_at]
    j = 0
    while row[at + j] != card:
        j += 1
    for k in range(j, length - 1):
        row[at + k] = row[at + k + 1]
    row[length_at] = length - 1


@njit(cache=True)
def apply_action(row, a):
    """Apply action id ``a`` for the current player (assumed legal)."""
    seat = current_player(row)
    if a >= PLACE0:
        p = a - PLACE0
        k = p % 80
        place(row, seat, p // 80, k if k < ORIGIN else k + 1)
    elif a >= 3:
        q = a - 3
        give = q // 49
        t = q % 49
        swap(row, seat, give, t if t < give else t + 1)
    elif a == 0:
        pass_turn(row)
    elif a == 1:
        swap_all_and_pass(row, seat)
    else:
        flip(row)


@njit(cache=True)
def swap(row, seat, give, take):
    """Swap: one hand card for one face-up centre card. Everyone sees both cards."""
    b = seat_at(seat)
    _remove(row, b + S_HAND, b + S_HAND_LEN, give)
    row[b + S_HAND + 2] = take
    row[b + S_HAND_LEN] = 3
    _sort3(row, b + S_HAND, 3)
    j = 0
    while row[CENTRE + j] != take:
        j += 1
    row[CENTRE + j] = give
    known = row[b + S_KNOWN_LEN]
    for k in range(known):
        if row[b + S_KNOWN + k] == give:
            _remove(row, b + S_KNOWN, b + S_KNOWN_LEN, give)
            break
    known = row[b + S_KNOWN_LEN]
    row[b + S_KNOWN + known] = take
    row[b + S_KNOWN_LEN] = known + 1
    _sort3(row, b + S_KNOWN, known + 1)
    end_turn(row, False)


@njit(cache=True)
def pass_turn(row):
    """Pass: take no card."""
    end_turn(row, True)


@njit(cache=True)
def swap_all_and_pass(row, seat):
    """Swap and pass: the whole hand for the three face-up centre cards; this is a pass."""
    b = seat_at(seat)
    for k in range(3):
        card = row[CENTRE + k]
        row[CENTRE + k] = row[b + S_HAND + k]
        row[b + S_HAND + k] = card
    _sort3(row, b + S_HAND, 3)
    for k in range(3):
        row[b + S_KNOWN + k] = row[b + S_HAND + k]
    row[b + S_KNOWN_LEN] = 3
    end_turn(row, True)


@njit(cache=True)
def flip(row):
    """2 players (A5): discard the face-up centre cards, turn the face-down ones up. Not a pass."""
    d = row[H_DISCARD_LEN]
    for k in range(3):
        row[DISCARD + d + k] = row[CENTRE + k]
        row[CENTRE + k] = row[FACE_DOWN + k]
    row[H_DISCARD_LEN] = d + 3
    row[H_FACE_DOWN_LEN] = 0
    end_turn(row, False)


@njit(cache=True)
def end_turn(row, passed):
    """A4: the first pass gives each other player exactly one more action, in turn order;
    after the last of them the round's placement begins."""
    row[H_TAKEN] += 1
    if row[H_FIRST] == NO_SEAT:
        if passed:
            first_pass_takes_alarun(row)
    else:
        row[H_EXTRA] -= 1
    if row[H_FIRST] != NO_SEAT and row[H_EXTRA] == 0:
        begin_placement(row)
    else:
        row[H_TURN] = (row[H_TURN] + 1) % row[H_N]


@njit(cache=True)
def first_pass_takes_alarun(row):
    row[H_FIRST] = row[H_TURN]
    row[H_EXTRA] = row[H_N] - 1


@njit(cache=True)
def begin_placement(row):
    row[H_PHASE] = PLACEMENT
    row[H_TO_PLACE] = 3 * row[H_N]


@njit(cache=True)
def place(row, seat, card, cell):
    """A3: one hand card onto an open cell of the seat's square."""
    b = seat_at(seat)
    _remove(row, b + S_HAND, b + S_HAND_LEN, card)
    row[b + S_CELLS + cell] = card
    x = cell % 9 - 4
    y = cell // 9 - 4
    if x < row[b + S_MIN_X]:
        row[b + S_MIN_X] = x
    elif x > row[b + S_MAX_X]:
        row[b + S_MAX_X] = x
    if y < row[b + S_MIN_Y]:
        row[b + S_MIN_Y] = y
    elif y > row[b + S_MAX_Y]:
        row[b + S_MAX_Y] = y
    row[b + S_POINTS] = -1
    pending = row[b + S_PENDING_LEN]
    row[b + S_PENDING + pending] = cell
    row[b + S_PENDING_LEN] = pending + 1
    row[H_TO_PLACE] -= 1
    if row[H_TO_PLACE] == 0:
        end_round(row)


@njit(cache=True)
def end_round(row):
    """All placements are revealed; after round 8 the game ends, else the next round is dealt."""
    n = row[H_N]
    for s in range(n):
        b = seat_at(s)
        row[b + S_PENDING_LEN] = 0
        row[b + S_KNOWN_LEN] = 0
        row[b + S_POINTS_SHOWN] = -1
    if row[H_ROUND] == ROUNDS:
        row[H_PHASE] = OVER
        return
    row[H_ROUND] += 1
    row[H_START] = row[H_FIRST]
    refresh_centre(row)
    _deal_hands(row, n)
    _begin_action_phase(row)


@njit(cache=True)
def refresh_centre(row):
    """A6: with 4 players the centre stays; with 2-3 it goes to the open discard pile (face-down
    cards too) and 3 new cards are dealt face up (2 players: 3 more face down)."""
    n = row[H_N]
    if n == 4:
        return
    d = row[H_DISCARD_LEN]
    for k in range(3):
        row[DISCARD + d + k] = row[CENTRE + k]
    d += 3
    for k in range(row[H_FACE_DOWN_LEN]):
        row[DISCARD + d + k] = row[FACE_DOWN + k]
    d += row[H_FACE_DOWN_LEN]
    row[H_DISCARD_LEN] = d
    _deal(row, 3, row, CENTRE)
    if n == 2:
        _deal(row, 3, row, FACE_DOWN)
        row[H_FACE_DOWN_LEN] = 3
    else:
        row[H_FACE_DOWN_LEN] = 0


@njit(cache=True)
def step_batch(state, actions):
    for i in range(state.shape[0]):
        if state[i, H_PHASE] != OVER and actions[i] >= 0:
            apply_action(state[i], actions[i])


# ----- scoring (scoring.py) -----------------------------------------------------------------
@njit(cache=True)
def line_strength(board, start, stride):
    """Strength of the strongest stretch of the 9 cells ``board[start + k * stride]``."""
    best = 0
    prev_colour = -1
    prev_ingredient = -1
    colour_run = np.int64(0)
    ingredient_run = np.int64(0)
    for k in range(9):
        card = board[start + k * stride]
        if card < 0 or card >= CENTUM_AURI:
            prev_colour = -1
            prev_ingredient = -1
            continue
        bit = np.int64(1) << card
        colour = card % 7
        ingredient = card // 7
        if colour == prev_colour:
            colour_run |= bit
        else:
            prev_colour = colour
            colour_run = bit
        if ingredient == prev_ingredient:
            ingredient_run |= bit
        else:
            prev_ingredient = ingredient
            ingredient_run = bit
        c = popcount(colour_run)
        if c > best:
            best = c
        c = popcount(ingredient_run)
        if c > best:
            best = c
    return best


@njit(cache=True)
def _stretches_through(line, sets, at):
    """scoring._stretches_through for a druid at ``line[4]``: per colour (ingredient) the bit
    set of the neighbouring cards a druid of that colour (ingredient) would join, into
    ``sets[at:at + 7]`` (``sets[at + 7:at + 14]``)."""
    for k in range(14):
        sets[at + k] = 0
    for step in (-1, 1):
        first = line[4 + step]
        if first < 0 or first >= CENTUM_AURI:
            continue
        colour = first % 7
        ingredient = first // 7
        k = 4 + step
        while 0 <= k < 9 and 0 <= line[k] < CENTUM_AURI and line[k] % 7 == colour:
            sets[at + colour] |= np.int64(1) << line[k]
            k += step
        k = 4 + step
        while 0 <= k < 9 and 0 <= line[k] < CENTUM_AURI and line[k] // 7 == ingredient:
            sets[at + 7 + ingredient] |= np.int64(1) << line[k]
            k += step


@njit(cache=True, inline='always')
def _joined(sets, at, d):
    """The stretch through a druid of value ``d`` joining the neighbouring stretches
    ``sets[at:at + 14]`` (_stretches_through): druid_lines' in_row / in_column."""
    bit = np.int64(1) << d
    return max(popcount(sets[at + d % 7] | bit), popcount(sets[at + 7 + d // 7] | bit))


@njit(cache=True)
def druid_lines(row9, column9):
    """(best druid value, potion points of its row and column) for a druid at ``row9[4]`` =
    ``column9[4]``: the first value in card order among equals (scoring.druid_lines). The
    stretches avoiding the druid are fixed; the one through it joins the neighbouring cards
    sharing its colour or its ingredient."""
    base_row = line_strength(row9, 0, 1)
    base_column = line_strength(column9, 0, 1)
    row_sets = np.empty(14, dtype=np.int64)
    column_sets = np.empty(14, dtype=np.int64)
    _stretches_through(row9, row_sets, 0)
    _stretches_through(column9, column_sets, 0)
    best = 99
    best_points = -1
    for d in range(49):
        points = POINTS[max(base_row, _joined(row_sets, 0, d))] + POINTS[max(base_column, _joined(column_sets, 0, d))]
        if points > best_points:
            best = d
            best_points = points
    return best, best_points


@njit(cache=True)
def board_potions(board):
    """The potion points of a 9 x 9 board (the druid at the origin taking its best value)."""
    total = 0
    for r in range(9):
        if r != 4:
            total += POINTS[line_strength(board, r * 9, 1)]
            total += POINTS[line_strength(board, r, 9)]
    row9 = board[36:45].copy()
    column9 = np.empty(9, dtype=np.int64)
    for k in range(9):
        column9[k] = board[k * 9 + 4]
    return total + druid_lines(row9, column9)[1]


@njit(cache=True)
def potions(row, s, hide_pending):
    """Seat s's potion points (cached in its row): the whole square, or (``hide_pending``)
    without this round's placements, as the other seats' views show it."""
    b = seat_at(s)
    at = b + (S_POINTS_SHOWN if hide_pending else S_POINTS)
    if row[at] < 0:
        board = row[b + S_CELLS:b + S_CELLS + 81].copy()
        if hide_pending:
            for k in range(row[b + S_PENDING_LEN]):
                board[row[b + S_PENDING + k]] = EMPTY
        row[at] = board_potions(board)
    return row[at]


@njit(cache=True)
def total_score(row, s):
    b = seat_at(s)
    total = potions(row, s, False)
    secret = row[b + S_SECRET]
    for i in range(81):
        card = row[b + S_CELLS + i]
        if card == CENTUM_AURI:
            total += 10
        elif 0 <= card < CENTUM_AURI and card % 7 == secret:
            total += 2
    return total


@njit(cache=True)
def outcome_one(row, scores, returns, winners):
    """A slot's scores (provisional before the end); returns and winners once it has ended
    (ranking key: total, then potions; ties share)."""
    n = row[H_N]
    for s in range(n):
        scores[s] = total_score(row, s)
        returns[s] = 0.0
        winners[s] = False
    if row[H_PHASE] != OVER:
        return
    top_total = -1
    top_potions = -1
    for s in range(n):
        t = scores[s]
        p = potions(row, s, False)
        if t > top_total or (t == top_total and p > top_potions):
            top_total = t
            top_potions = p
    count = 0
    for s in range(n):
        if scores[s] == top_total and potions(row, s, False) == top_potions:
            winners[s] = True
            count += 1
    for s in range(n):
        if winners[s]:
            returns[s] = 1.0 / count


@njit(cache=True)
def outcome_batch(state, scores, returns, winners):
    for i in range(state.shape[0]):
        outcome_one(state[i], scores[i], returns[i], winners[i])


# ----- the observation (encoding.py) --------------------------------------------------------
@njit(cache=True)
def observe_one(row, me, off, out, cap_scale):
    out[:] = 0.0
    n = row[H_N]
    phase = row[H_PHASE]
    square_size = 81 * 16
    for k in range(n):
        out[off[O_SQUARES] + k * square_size + ORIGIN * 16 + 15] = 1.0   # the druid
    if phase == ACTIONS:
        out[off[O_ACTING] + (row[H_TURN] - me) % n] = 1.0
    elif phase == PLACEMENT:
        for s in range(n):
            if row[seat_at(s) + S_HAND_LEN] > 0:
                out[off[O_ACTING] + (s - me) % n] = 1.0
    out[off[O_PHASE] + phase] = 1.0
    out[off[O_ROUND] + row[H_ROUND] - 1] = 1.0
    out[off[O_START] + (row[H_START] - me) % n] = 1.0
    first = row[H_FIRST]
    out[off[O_ALARUN] + (n if first == NO_SEAT else (first - me) % n)] = 1.0
    taken = row[H_TAKEN]
    if row[H_HAS_CAP] and taken >= row[H_CAP]:
        out[off[O_TAKEN] + 1] = 1.0
    if row[H_FACE_DOWN_LEN] > 0:
        out[off[O_FACE_DOWN]] = 1.0
    b = seat_at(me)
    for k in range(row[b + S_PENDING_LEN]):
        out[off[O_MY_PLACEMENTS] + row[b + S_PENDING + k]] = 1.0
    out[off[O_SECRET] + row[b + S_SECRET]] = 1.0
    out[off[O_EXTRA]] = row[H_EXTRA] / (n - 1)
    out[off[O_TAKEN]] = min(1.0, taken / cap_scale)
    out[off[O_DECK]] = row[H_DECK_LEN] / 99
    for k in range(row[b + S_HAND_LEN]):
        out[off[O_HAND] + row[b + S_HAND + k]] += 0.5
    for k in range(3):
        out[off[O_CENTRE] + row[CENTRE + k]] += 0.5
    for k in range(row[H_DISCARD_LEN]):
        out[off[O_DISCARD] + row[DISCARD + k]] += 0.5
    for k in range(n):
        s = (me + k) % n
        bs = seat_at(s)
        for j in range(row[bs + S_KNOWN_LEN]):
            out[off[O_KNOWN] + k * 50 + row[bs + S_KNOWN + j]] += 0.5
        out[off[O_HAND_SIZES] + k] = row[bs + S_HAND_LEN] / 3
        pending = row[bs + S_PENDING_LEN]
        out[off[O_PLACED] + k] = pending / 3
        hide = phase == PLACEMENT and pending > 0 and s != me
        out[off[O_POINTS] + k] = potions(row, s, hide) / 100.0
        base = off[O_SQUARES] + k * square_size
        for i in range(81):
            card = row[bs + S_CELLS + i]
            if card == EMPTY or i == ORIGIN:
                continue
            if hide:
                hidden = False
                for j in range(pending):
                    if row[bs + S_PENDING + j] == i:
                        hidden = True
                if hidden:
                    continue
            if card == CENTUM_AURI:
                out[base + i * 16 + 14] = 1.0
            else:
                out[base + i * 16 + card // 7] = 1.0
                out[base + i * 16 + 7 + card % 7] = 1.0
        if phase == OVER:
            out[off[O_SCORES] + k] = total_score(row, s) / 100.0
            out[off[O_SECRETS] + k * 7 + row[bs + S_SECRET]] = 1.0


@njit(cache=True)
def observe_batch(state, seats, off, out, cap_scale):
    for i in range(state.shape[0]):
        observe_one(state[i], seats[i], off, out[i], cap_scale)


# ----- the heuristic (heuristic.py: SquareReader and choose) --------------------------------
# A seat's reading of its square (SquareReader) lives in scratch arrays with a seat axis
# (_new_reading), made once per batch call, and stays valid while the square does: a square
# changes only when its seat places, so a playout reads it again only after that seat's
# placements (_placed), and the decisions of a round's action phase (and its first placement)
# reuse it with the card values found so far (SquareReader.shared does the same in the
# reference). The druid's lines change only with a placement on them: their reading and the
# druid gain of each card on each of their cells are kept across readings, by generation.
# Per seat: the reading holds the square (R_VALID), its open cells (R_OPEN); the druid's best
# value and points, the generation of the druid's lines (R_DRUID_STAMP, moved on when they may
# have changed) and the one those two and the seat's ``druid`` part were read at (R_DRUID_READ)
R_VALID, R_OPEN, R_DRUID_VALUE, R_DRUID_POINTS, R_DRUID_STAMP, R_DRUID_READ = range(6)
# per seat and druid line (0 its row, 1 its column): the line's strength without the druid,
# the stretches through the druid (_stretches_through: 7 by colour, 7 by ingredient), the line's
# points with the druid as each card d, and (-1: not yet) the best points of both lines when
# a placement leaves the stretches through the druid as they are, by the line's new strength
D_BASE, D_SETS, D_POINTS, D_BEST = 0, 1, 15, 64
D_WORDS = D_BEST + 6


# the sizes of a reading's arrays (_reading), per seat and apart
READING_SHAPES = ((MAXP, 6), (MAXP, 81), (MAXP, 81, 2, 5), (MAXP, 81, 2, 2, 6), (MAXP, 81), (MAXP, 81),
                  (MAXP, 2, D_WORDS), (2, 9), (9,), (14,), (MAXP, 50, 18), (MAXP, 50, 18))
READING_INTS = sum(int(np.prod(shape)) for shape in READING_SHAPES)
READING_FLOATS = 2 * MAXP * 81   # plain, then best (its first 50 of 81 per seat)


@njit(cache=True)
def _new_reading():
    """Scratch for the heuristic as two flat arrays (int64, float64), every seat's reading out
    of date: a compiled call from Python converts each array argument (a few hundred ns each),
    so the kernel passes these two and _reading makes the views."""
    ints = np.zeros(READING_INTS, dtype=np.int64)
    floats = np.zeros(READING_FLOATS)
    _reading(ints, floats)[0][:, R_DRUID_STAMP] = 1
    return ints, floats


@njit(cache=True)
def _reading(ints, floats):
    """The views of a reading (_new_reading): (info, cells, arms_f, arms_r, open_list, traits,
    plain, druid, best, strengths, line, sets, druid_gains, druid_stamps). Per seat: ``info``
    (R_*), the board with the druid at its best value, the arms and list of the open cells (as
    _read_square fills them), per open cell the colours and ingredients its neighbouring
    stretches start with (``traits``, bits 0-6 and 7-13) and the gain of a card sharing none
    of them (``plain``), the druid's lines (D_*) and each card's best placement gain (NaN: not
    yet). Then the line strengths of the square being read, one line of 9 cells and the
    stretches through the druid of a line with a new card. Last, per seat, card and cell of the
    druid's lines (its row's 9, then its column's) the card's druid gain there and the
    generation of the druid's lines it was found at (R_DRUID_STAMP)."""
    at = 0
    info = ints[at:at + MAXP * 6].reshape((MAXP, 6))
    at += MAXP * 6
    cells = ints[at:at + MAXP * 81].reshape((MAXP, 81))
    at += MAXP * 81
    arms_f = ints[at:at + MAXP * 810].reshape((MAXP, 81, 2, 5))
    at += MAXP * 810
    arms_r = ints[at:at + MAXP * 1944].reshape((MAXP, 81, 2, 2, 6))
    at += MAXP * 1944
    open_list = ints[at:at + MAXP * 81].reshape((MAXP, 81))
    at += MAXP * 81
    traits = ints[at:at + MAXP * 81].reshape((MAXP, 81))
    at += MAXP * 81
    druid = ints[at:at + MAXP * 2 * D_WORDS].reshape((MAXP, 2, D_WORDS))
    at += MAXP * 2 * D_WORDS
    strengths = ints[at:at + 18].reshape((2, 9))
    at += 18
    line = ints[at:at + 9]
    at += 9
    sets = ints[at:at + 14]
    at += 14
    druid_gains = ints[at:at + MAXP * 900].reshape((MAXP, 50, 18))
    at += MAXP * 900
    druid_stamps = ints[at:at + MAXP * 900].reshape((MAXP, 50, 18))
    plain = floats[:MAXP * 81].reshape((MAXP, 81))
    best = floats[MAXP * 81:].reshape((MAXP, 81))
    return (info, cells, arms_f, arms_r, open_list, traits, plain, druid, best, strengths, line, sets, druid_gains,
            druid_stamps)


@njit(cache=True)
def _forget(info):
    """Every seat's reading out of date (another game in the slot, or a state set from
    outside); ``info``: a reading's first array (the tuple costs more to pass than this)."""
    for s in range(MAXP):
        info[s, R_VALID] = 0
        info[s, R_DRUID_STAMP] += 1


@njit(cache=True)
def _placed(info, seat, a):
    """Placement ``a`` (an action id) by ``seat`` changes its square: its reading is out of
    date, and the druid's lines with it when the cell is on one of them (``info`` as _forget's)."""
    info[seat, R_VALID] = 0
    k = (a - PLACE0) % 80
    cell = k if k < ORIGIN else k + 1
    if cell % 9 == 4 or cell // 9 == 4:
        info[seat, R_DRUID_STAMP] += 1


@njit(cache=True, inline='always')   # a call per gain costs more than the gain
def _lines_gain(arms_f, arms_r, cell, card, druid):
    """heuristic._lines_gain: the placement gain of ``card`` on ``cell`` along its row and
    column. Per axis a: arms_f[cell, a] = (empty_open, number of runs, neighbour, worth, base),
    arms_r[cell, a, r] = (colour, by colour, colour end open, ingredient, by ingredient,
    ingredient end open)."""
    immediate = float(druid)
    potential = 0.0
    if card == CENTUM_AURI:
        for a in range(2):
            potential -= BLOCKING * arms_f[cell, a, 3]
        return potential
    colour = card % 7
    ingredient = card // 7
    bit = np.int64(1) << card
    for a in range(2):
        empty_open = arms_f[cell, a, 0] != 0
        neighbour = arms_f[cell, a, 2]
        worth = arms_f[cell, a, 3]
        base = arms_f[cell, a, 4]
        mask = bit
        mask_i = bit
        best_open = empty_open
        open_i = empty_open
        for r in range(arms_f[cell, a, 1]):
            if arms_r[cell, a, r, 0] == colour:
                mask |= arms_r[cell, a, r, 1]
                if arms_r[cell, a, r, 2]:
                    best_open = True
            if arms_r[cell, a, r, 3] == ingredient:
                mask_i |= arms_r[cell, a, r, 4]
                if arms_r[cell, a, r, 5]:
                    open_i = True
        best_k = popcount(mask)
        k = popcount(mask_i)
        if k > best_k or (k == best_k and open_i):
            best_k = k
            best_open = open_i
        if best_k > base:
            immediate += POINTS[best_k] - POINTS[base]
        if best_open and best_k < 5:
            potential += GROWTH * (POINTS[best_k + 1] - POINTS[best_k])
        if best_k <= neighbour:
            potential -= BLOCKING * worth
    return immediate + potential


@njit(cache=True)
def _plain_gain(arms_f, cell):
    """heuristic._plain_gain: _lines_gain of a card sharing neither colour nor ingredient with
    the stretches beside ``cell`` (a stretch of 1 on both lines: the same operations in the
    same order, so the same value)."""
    immediate = 0.0
    potential = 0.0
    for a in range(2):
        base = arms_f[cell, a, 4]
        if 1 > base:
            immediate += POINTS[1] - POINTS[base]
        if arms_f[cell, a, 0] != 0:
            potential += GROWTH * (POINTS[2] - POINTS[1])
        if 1 <= arms_f[cell, a, 2]:
            potential -= BLOCKING * arms_f[cell, a, 3]
    return immediate + potential


@njit(cache=True)
def _traits(card):
    """heuristic._TRAITS: the bit of the card's colour (0-6) and of its ingredient (7-13)."""
    return (np.int64(1) << (card % 7)) | (np.int64(1) << (7 + card // 7))


@njit(cache=True)
def _druid_line(line, druid_a):
    """One line of the druid (``line``, 9 cells, the druid at 4) for druid_lines: its strength
    without the druid, the stretches through the druid and its points with the druid as each
    card (the other line's are added apart)."""
    base = line_strength(line, 0, 1)
    druid_a[D_BASE] = base
    _stretches_through(line, druid_a, D_SETS)
    for d in range(49):
        druid_a[D_POINTS + d] = POINTS[max(base, _joined(druid_a, D_SETS, d))]
    for k in range(6):
        druid_a[D_BEST + k] = -1


@njit(cache=True)
def _best_druid(sets, at, base, other):
    """druid_lines' best points: a line of strength ``base`` without the druid and the
    stretches ``sets[at:at + 14]`` through it, with the other line (``_druid_line``). A druid
    value sharing neither colour nor ingredient with the stretches beside it on either line
    makes a stretch of 1 on both (such a value exists: at most 4 colours and 4 ingredients
    start those stretches); only the values of the colours or ingredients that start one can
    do better."""
    best_points = POINTS[max(base, 1)] + POINTS[max(other[D_BASE], 1)]
    colours = 0   # the colours starting a stretch beside the druid, as bits
    for c in range(7):
        if sets[at + c] != 0 or other[D_SETS + c] != 0:
            colours |= 1 << c
    for g in range(7):
        any_colour = sets[at + 7 + g] != 0 or other[D_SETS + 7 + g] != 0
        for c in range(7):
            if any_colour or colours >> c & 1:
                d = 7 * g + c
                points = POINTS[max(base, _joined(sets, at, d))] + other[D_POINTS + d]
                if points > best_points:
                    best_points = points
    return best_points


@njit(cache=True)
def _druid_gain(row, b, druid, druid_points, card, cell, line, sets):
    """SquareReader._druid_lines_gain: the points ``card`` on ``cell`` (on the druid's row or
    column) adds to the druid's lines, the druid taking its best value again: druid_lines of
    the line with the card and the other line as it is. A card apart from the stretches
    through the druid (an empty cell or the Centum auri between) changes only the line's
    strength without the druid, whose best points are kept per strength."""
    x = cell % 9 - 4
    y = cell // 9 - 4
    a = 0 if y == 0 else 1
    at = x + 4 if a == 0 else y + 4
    start = b + S_CELLS + (36 if a == 0 else 4)
    stride = 1 if a == 0 else 9
    for k in range(9):
        line[k] = row[start + k * stride]
    line[at] = card
    base = line_strength(line, 0, 1)
    this = druid[a]
    other = druid[1 - a]
    step = 1 if at > 4 else -1
    k = 4 + step
    while k != at and 0 <= line[k] < CENTUM_AURI:
        k += step
    if k != at:
        best_points = this[D_BEST + base]
        if best_points < 0:
            best_points = _best_druid(this, D_SETS, base, other)
            this[D_BEST + base] = best_points
        return best_points - druid_points
    _stretches_through(line, sets, 0)
    return _best_druid(sets, 0, base, other) - druid_points


@njit(cache=True)
def _read_druid(row, b, druid, line):
    """The druid's lines of the square at ``b`` into a seat's ``druid`` part of a reading;
    returns druid_lines: (best druid value, points of its row and column)."""
    board = b + S_CELLS
    for k in range(9):
        line[k] = row[board + 36 + k]
    _druid_line(line, druid[0])
    for k in range(9):
        line[k] = row[board + k * 9 + 4]
    _druid_line(line, druid[1])
    druid_value = 99
    druid_points = -1
    for d in range(49):   # the first value in card order among equals
        points = druid[0, D_POINTS + d] + druid[1, D_POINTS + d]
        if points > druid_points:
            druid_value = d
            druid_points = points
    return druid_value, druid_points


@njit(cache=True)
def _read_square(row, b, cells, arms_f, arms_r, open_list, traits, plain, druid_value, strengths, exact_druid):
    """SquareReader(square, exact_druid=exact_druid) into one seat's part of a reading
    (_new_reading): the druid at its best value (``druid_value``, _read_druid), each line's
    strength and the arms, traits and plain gain of every open cell. Returns the number of
    open cells."""
    board = b + S_CELLS
    for i in range(81):
        cells[i] = row[board + i]
    cells[ORIGIN] = druid_value
    min_x, max_x = row[b + S_MIN_X], row[b + S_MAX_X]
    min_y, max_y = row[b + S_MIN_Y], row[b + S_MAX_Y]
    lo_x, hi_x, lo_y, hi_y = max_x - 4, min_x + 4, max_y - 4, min_y + 4
    strengths[:] = 0   # rows (axis 0) and columns (axis 1), by index + 4
    for y in range(min_y, max_y + 1):
        strengths[0, y + 4] = line_strength(cells, (y + 4) * 9, 1)
    for x in range(min_x, max_x + 1):
        strengths[1, x + 4] = line_strength(cells, x + 4, 9)
    m = open_cells(row, b, open_list)
    for j in range(m):
        cell = open_list[j]
        x0 = cell % 9 - 4
        y0 = cell // 9 - 4
        shared = np.int64(0)
        for a in range(2):
            empty_open = False
            runs = 0
            neighbour = 0
            for side in range(2):
                step = 1 if side == 0 else -1
                dx = step if a == 0 else 0
                dy = step if a == 1 else 0
                x = x0 + dx
                y = y0 + dy
                open_end = False
                first = -1
                colour = 0
                ingredient = 0
                by_colour = np.int64(0)
                by_ingredient = np.int64(0)
                whole_colour = True
                whole_ingredient = True
                while -4 <= x <= 4 and -4 <= y <= 4:
                    i = (y + 4) * 9 + x + 4
                    card = cells[i]
                    if card == EMPTY:
                        open_end = lo_x <= x <= hi_x and lo_y <= y <= hi_y
                        break
                    if card >= CENTUM_AURI:
                        break
                    if first < 0:
                        first = card
                        colour = card % 7
                        ingredient = card // 7
                        by_colour = np.int64(1) << card
                        by_ingredient = by_colour
                    else:
                        if whole_colour:
                            if card % 7 == colour:
                                by_colour |= np.int64(1) << card
                            else:
                                whole_colour = False
                        if whole_ingredient:
                            if card // 7 == ingredient:
                                by_ingredient |= np.int64(1) << card
                            else:
                                whole_ingredient = False
                    x += dx
                    y += dy
                if first < 0:
                    if open_end:
                        empty_open = True
                    continue
                arms_r[cell, a, runs, 0] = colour
                arms_r[cell, a, runs, 1] = by_colour
                arms_r[cell, a, runs, 2] = whole_colour and open_end
                arms_r[cell, a, runs, 3] = ingredient
                arms_r[cell, a, runs, 4] = by_ingredient
                arms_r[cell, a, runs, 5] = whole_ingredient and open_end
                runs += 1
                shared |= _traits(first)
                strength = max(popcount(by_colour), popcount(by_ingredient))
                if strength > neighbour:
                    neighbour = strength
            worth = POINTS[neighbour + 1] - POINTS[neighbour] if 0 < neighbour < 5 else 0
            index = y0 if a == 0 else x0
            arms_f[cell, a, 0] = empty_open
            arms_f[cell, a, 1] = runs
            arms_f[cell, a, 2] = neighbour
            arms_f[cell, a, 3] = worth
            # exact: the druid's lines are counted apart (99: skip)
            arms_f[cell, a, 4] = strengths[a, index + 4] if index != 0 or not exact_druid else 99
        traits[cell] = shared
        plain[cell] = _plain_gain(arms_f, cell)
    return m


@njit(cache=True, inline='always')   # a call per gain costs more than the gain
def _gain(arms_f, arms_r, traits, plain, druid_gains, card, cell):
    """SquareReader.gain (the exact kind): on the druid's row or column the druid takes its
    best value again (``druid_gains``, from _druid_gains; the Centum auri's gain leaves that
    out); elsewhere a card sharing no colour or ingredient with the stretches beside the cell
    has the cell's plain gain."""
    x = cell % 9
    y = cell // 9
    if x == 4 or y == 4:
        druid_gain = 0 if card == CENTUM_AURI else druid_gains[card, x if y == 4 else 9 + y]
        return _lines_gain(arms_f, arms_r, cell, card, druid_gain)
    if card != CENTUM_AURI and traits[cell] & _traits(card) == 0:
        return plain[cell]
    return _lines_gain(arms_f, arms_r, cell, card, 0)


@njit(cache=True)
def _druid_gains(row, b, druid, druid_points, line, sets, druid_gains, druid_stamps, stamp, card, open_list, m):
    """``card``'s druid gain (_druid_gain) on each open cell of the druid's lines into
    ``druid_gains``, unless kept there for the generation ``stamp`` of those lines; apart from
    _gain, whose loops run faster without this call inside."""
    if card == CENTUM_AURI:
        return
    for j in range(m):
        cell = open_list[j]
        x = cell % 9
        y = cell // 9
        if x == 4 or y == 4:
            k = x if y == 4 else 9 + y
            if druid_stamps[card, k] != stamp:
                druid_gains[card, k] = _druid_gain(row, b, druid, druid_points, card, cell, line, sets)
                druid_stamps[card, k] = stamp


@njit(cache=True)
def _with_bonuses(card, best_gain, secret):
    """heuristic._with_bonuses: a card's value from its best placement gain."""
    if best_gain == -np.inf:  # no open cell
        best_gain = 0.0
    if card == CENTUM_AURI:
        return CENTUM_AURI_VALUE + best_gain
    return best_gain + (COLOUR_BONUS if card % 7 == secret else 0.0)


@njit(cache=True)
def heuristic_choose(row, legal, count, reading):
    """heuristic.choose for the current player (the rng is not used), with the seat's reading
    in ``reading`` (_new_reading): made here unless still valid (the caller invalidates a
    seat's reading when it places)."""
    if count == 1:
        return legal[0]
    (info, cells, arms_f, arms_r, open_list, traits, plain, druid, best, strengths, line, sets, druid_gains,
     druid_stamps) = reading
    seat = current_player(row)
    b = seat_at(seat)
    stamp = info[seat, R_DRUID_STAMP]
    if not info[seat, R_VALID]:
        if info[seat, R_DRUID_READ] != stamp:
            info[seat, R_DRUID_VALUE], info[seat, R_DRUID_POINTS] = _read_druid(row, b, druid[seat], line)
            info[seat, R_DRUID_READ] = stamp
        info[seat, R_OPEN] = _read_square(row, b, cells[seat], arms_f[seat], arms_r[seat], open_list[seat],
                                          traits[seat], plain[seat], info[seat, R_DRUID_VALUE], strengths, True)
        info[seat, R_VALID] = 1
        best[seat, :] = np.nan
    m = info[seat, R_OPEN]
    druid_points = info[seat, R_DRUID_POINTS]
    arms_f_s, arms_r_s, traits_s, plain_s, druid_s = arms_f[seat], arms_r[seat], traits[seat], plain[seat], druid[seat]
    gains_s, stamps_s = druid_gains[seat], druid_stamps[seat]
    open_s = open_list[seat]
    if legal[0] >= PLACE0:
        choice = legal[0]
        best_gain = -np.inf
        previous = -1
        for j in range(count):
            p = legal[j] - PLACE0
            card = p // 80
            if card != previous:
                _druid_gains(row, b, druid_s, druid_points, line, sets, gains_s, stamps_s, stamp, card, open_s, m)
                previous = card
            k = p % 80
            g = _gain(arms_f_s, arms_r_s, traits_s, plain_s, gains_s, card, k if k < ORIGIN else k + 1)
            if g > best_gain:
                choice = legal[j]
                best_gain = g
        return choice
    # the action phase: each card's value (its best placement plus the bonuses)
    secret = row[b + S_SECRET]
    best_s = best[seat]
    for k in range(6):
        card = row[b + S_HAND + k] if k < 3 else row[CENTRE + k - 3]
        if best_s[card] == best_s[card]:   # known (not NaN)
            continue
        _druid_gains(row, b, druid_s, druid_points, line, sets, gains_s, stamps_s, stamp, card, open_s, m)
        best_gain = -np.inf
        for j in range(m):
            g = _gain(arms_f_s, arms_r_s, traits_s, plain_s, gains_s, card, open_s[j])
            if g > best_gain:
                best_gain = g
        best_s[card] = best_gain
    h0, h1, h2 = row[b + S_HAND], row[b + S_HAND + 1], row[b + S_HAND + 2]
    c0, c1, c2 = row[CENTRE], row[CENTRE + 1], row[CENTRE + 2]
    last_action = row[H_FIRST] != NO_SEAT
    margin = 1e-9 if last_action else SWAP_MARGIN
    best_swap = -1
    best_gain = margin
    t0, t1, t2 = _sorted_centre(row)
    previous = -1
    for h in range(3):
        give = row[b + S_HAND + h]
        if give == previous:
            continue
        previous = give
        before = -1
        for t in range(3):
            take = t0 if t == 0 else t1 if t == 1 else t2
            if take == before:
                continue
            before = take
            if give != take:
                g = (_with_bonuses(take, best_s[take], secret) - _with_bonuses(give, best_s[give], secret))
                if g > best_gain:
                    best_swap = swap_id(give, take)
                    best_gain = g
    all_gain = (((0.0 + _with_bonuses(c0, best_s[c0], secret)) + _with_bonuses(c1, best_s[c1], secret))
                + _with_bonuses(c2, best_s[c2], secret)) - (
        ((0.0 + _with_bonuses(h0, best_s[h0], secret)) + _with_bonuses(h1, best_s[h1], secret))
        + _with_bonuses(h2, best_s[h2], secret))
    if all_gain > max(best_gain, margin):
        return 1
    if best_swap >= 0:
        return best_swap
    if row[H_FACE_DOWN_LEN] > 0 and not last_action:
        weakest = min(_with_bonuses(h0, best_s[h0], secret),
                      min(_with_bonuses(h1, best_s[h1], secret), _with_bonuses(h2, best_s[h2], secret)))
        if weakest < WEAK_CARD:
            return 2
    return 0


# ----- the cut-off evaluations (heuristic.evaluate, fitted.features) -------------------------
@njit(cache=True)
def _quick_reading(row, s, reading):
    """SquareReader(square of seat s, exact_druid=False), read into seat s's part of
    ``reading``: the hand value of the seat's cards still to place (hand_value) and its
    openings (fitted.features)."""
    info, cells, arms_f, arms_r, open_list, traits, plain, druid, best, strengths, line = reading[:11]
    b = seat_at(s)
    arms_f_s, arms_r_s, open_s, traits_s, plain_s = arms_f[s], arms_r[s], open_list[s], traits[s], plain[s]
    druid_value = _read_druid(row, b, druid[s], line)[0]
    m = _read_square(row, b, cells[s], arms_f_s, arms_r_s, open_s, traits_s, plain_s, druid_value, strengths, False)
    info[s, R_VALID] = 0   # not the exact reading the heuristic's choices take
    info[s, R_DRUID_STAMP] += 1
    hand_len = row[b + S_HAND_LEN]
    best_s = best[s]
    for k in range(hand_len):
        best_s[k] = -np.inf
    openings = 0
    for j in range(m):
        cell = open_s[j]
        for k in range(hand_len):
            card = row[b + S_HAND + k]
            if card != CENTUM_AURI and traits_s[cell] & _traits(card) == 0:
                g = plain_s[cell]
            else:
                g = _lines_gain(arms_f_s, arms_r_s, cell, card, 0)
            if g > best_s[k]:
                best_s[k] = g
        w0 = arms_f_s[cell, 0, 3]
        w1 = arms_f_s[cell, 1, 3]
        openings += w0 if w0 > w1 else w1
    hand = 0.0
    secret = row[b + S_SECRET]
    for k in range(hand_len):
        hand += _with_bonuses(row[b + S_HAND + k], best_s[k], secret)
    return hand, openings


@njit(cache=True)
def _softmax(scores, n, temperature, out):
    """Shares of the win: exp((score - top) / temperature), normalised (in the reference's order)."""
    top = scores[0]
    for s in range(1, n):
        if scores[s] > top:
            top = scores[s]
    total = 0.0
    for s in range(n):
        out[s] = np.exp((scores[s] - top) / temperature)
        total += out[s]
    for s in range(n):
        out[s] = out[s] / total


@njit(cache=True)
def evaluate_batch(state, fitted, weights, out, ints, floats):
    """Each slot's estimated share of the win per seat: heuristic.evaluate, or (``fitted``)
    the fitted evaluation with ``weights`` (stage x feature); returns of ended slots.
    ``ints``, ``floats``: the heuristic's scratch (_new_reading), its readings left out of date."""
    reading = _reading(ints, floats)
    scores = np.empty(MAXP)
    winners = np.empty(MAXP, dtype=np.bool_)
    for i in range(state.shape[0]):
        row = state[i]
        n = row[H_N]
        phase = row[H_PHASE]
        if phase == OVER:
            outcome_one(row, scores, out[i], winners)
            continue
        if fitted:
            w = weights[2 * (row[H_ROUND] - 1) + (phase == PLACEMENT)]
            starter = row[H_START] if phase == ACTIONS else row[H_FIRST]
            for s in range(n):
                hand, openings = _quick_reading(row, s, reading)
                points = potions(row, s, False)
                features = (float(points), float(total_score(row, s) - points), hand, float(openings),
                            1.0 if s == starter else 0.0)
                z = 0.0
                for f in range(5):
                    z += w[f] * features[f]
                scores[s] = z
            _softmax(scores, n, 1.0, out[i])
        else:
            for s in range(n):
                scores[s] = total_score(row, s) + _quick_reading(row, s, reading)[0]
            rounds_left = ROUNDS - row[H_ROUND] + (phase == ACTIONS)
            _softmax(scores, n, 3.0 + 2.5 * rounds_left, out[i])


# ----- playing on ---------------------------------------------------------------------------
@njit(cache=True)
def playout_batch(state, policies, streams, max_steps, stop_round, counts, ints, floats):
    """Every slot on, seat s of slot i choosing by ``policies[i, s]``: RANDOM as RandomAgent
    (``legal[randbelow(len(legal))]`` from its stream ``streams[i, s]``), HEURISTIC as
    heuristic.choose. A slot stops, before acting, at its end, after ``max_steps`` actions,
    when the seat to act is EXTERNAL, or once its round reaches ``stop_round[i]`` (negative:
    never; the round is ``state.round``, which only ``end_round`` moves on). ``ints``,
    ``floats``: the heuristic's scratch (_new_reading, made once per kernel: a playout of a few
    steps costs about as much as making it), whose views (_reading, about 0.7 us) are made only
    where a seat plays the heuristic."""
    for i in range(policies.shape[0]):
        for s in range(policies.shape[1]):
            if policies[i, s] == HEURISTIC:
                _playout(state, policies, streams, max_steps, stop_round, counts, _reading(ints, floats))
                return
    _playout(state, policies, streams, max_steps, stop_round, counts, None)


@njit(cache=True)
def _playout(state, policies, streams, max_steps, stop_round, counts, reading):
    """playout_batch with the heuristic's ``reading`` (_reading), None where no seat plays
    the heuristic (the compiled code for None leaves the heuristic out)."""
    legal = np.empty(MAX_LEGAL, dtype=np.int64)
    for i in range(state.shape[0]):
        row = state[i]
        if reading is not None:
            _forget(reading[0])
        stop = stop_round[i] if stop_round[i] >= 0 else ROUNDS + 1
        steps = 0
        decisions = 0
        while row[H_PHASE] != OVER and steps != max_steps and row[H_ROUND] < stop:
            seat = current_player(row)
            policy = policies[i, seat]
            if policy == EXTERNAL:
                break
            k = legal_actions(row, legal)
            if policy == RANDOM:
                a = legal[mt.randbelow(streams[i, seat], k)]
            elif reading is None:   # not reached: playout_batch passes a reading for HEURISTIC seats
                a = legal[0]
            else:
                a = heuristic_choose(row, legal, k, reading)
            if k > 1:
                decisions += 1
            if reading is not None:
                if a >= PLACE0:
                    _placed(reading[0], seat, a)
            apply_action(row, a)
            steps += 1
        counts[i, 0] = steps
        counts[i, 1] = decisions


@njit(cache=True)
def current_player_batch(state, out):
    for i in range(state.shape[0]):
        out[i] = current_player(state[i])


@njit(cache=True)
def heuristic_batch(state, out, ints, floats):
    """The heuristic's action for each slot's current player (-1 for ended slots), with the
    scratch ``ints``, ``floats`` (_new_reading)."""
    legal = np.empty(MAX_LEGAL, dtype=np.int64)
    reading = _reading(ints, floats)
    for i in range(state.shape[0]):
        _forget(reading[0])
        if state[i, H_PHASE] == OVER:
            out[i] = -1
        else:
            out[i] = heuristic_choose(state[i], legal, legal_actions(state[i], legal), reading)


# ----- the class ----------------------------------------------------------------------------
def _warm() -> None:
    """One call of every compiled function on a tiny batch of each shape."""
    for n in PLAYER_COUNTS:
        state = np.zeros((1, WORDS), dtype=np.int64)
        rng = mt.new_streams(1)
        deal_batch(state, rng, np.array([1], dtype=np.uint64), np.array([0], dtype=np.int64), n, 30, True)
        mask = np.zeros((1, NUM_ACTIONS), dtype=np.bool_)
        legal_mask_batch(state, mask)
        step_batch(state, np.zeros(1, dtype=np.int64))
        players = np.zeros(1, dtype=np.int64)
        current_player_batch(state, players)
        ints, floats = _new_reading()
        heuristic_batch(state, players, ints, floats)
        streams = np.zeros((1, n, mt.STREAM_WORDS), dtype=np.uint32)
        for s in range(n):
            mt.seed(streams[0, s], s)
        playout_batch(state, np.array([[RANDOM] * (n - 1) + [HEURISTIC]], dtype=np.int64), streams, -1,
                      np.full(1, -1, dtype=np.int64), np.zeros((1, 2), dtype=np.int64), ints, floats)
        outcome_batch(state, np.zeros((1, n)), np.zeros((1, n)), np.zeros((1, n), dtype=np.bool_))
        for fitted in (False, True):
            evaluate_batch(state, fitted, np.zeros((16, 5)), np.zeros((1, n)), ints, floats)
    # the observation needs a layout: the largest one
    off = np.zeros(len(OBS_SLICES), dtype=np.int64)
    observe_batch(state, np.zeros(1, dtype=np.int64), off, np.zeros((1, 30000), dtype=np.float32), 30.0)
    load_row(state[0], np.zeros(400, dtype=np.int64), 4, NO_CAP, False)


class AlarunKernel(Kernel):
    """B games of Alarún with fixed options (every option is implemented: the player count
    and the action cap)."""

    game = "alarun"
    options: AlarunOptions

    def __init__(self, options: AlarunOptions, batch: int):
        check_options(self.game, {"players": options.players, "action_cap": options.action_cap},
                      {"players": lambda v: v in PLAYER_COUNTS, "action_cap": lambda v: v is None or v >= 1})
        from .encoding import encoding_for
        encoding = encoding_for(options)
        self.options = options
        self.batch = int(batch)
        self.players = options.players
        self.num_actions = len(encoding.actions)
        assert self.num_actions == NUM_ACTIONS
        self.observation_size = encoding.layout.size
        self.offsets = np.array([encoding.layout[name].offset for name in OBS_SLICES], dtype=np.int64)
        cap = options.action_cap
        self.has_cap = cap is not None
        self.cap = int(cap) if cap is not None else 0
        self.cap_scale = float(cap) if cap is not None else 30.0
        self.state = np.zeros((self.batch, WORDS), dtype=np.int64)
        self._rng = mt.new_streams(self.batch)
        self._rng_words: dict[int, tuple[int, ...]] = {}   # streams loaded, not yet in _rng (rng)
        # load's flat list: the header, the cards (99 in all, hands included) and the lengths,
        # then per seat the cards seen taken, the placements, the secret, extent and cells
        load_words = 8 + 4 + 99 + self.players * (3 + 3 + 3 + 5 + 45)
        self._packer = struct.Struct(f"{load_words}q")
        self._padding = [0] * load_words
        self.seeds: list[int | None] = [None] * self.batch
        self._legal = np.empty(MAX_LEGAL, dtype=np.int64)
        self._fitted: np.ndarray | None = None
        self._no_weights = np.zeros((1, 5))
        compile_notice("Alarún", _warm)
        self._reading = _new_reading()   # the heuristic's scratch, for every compiled call
        self.deal(np.zeros(self.batch, dtype=np.int64))

    # -- setting up games ----------------------------------------------------------------
    def deal(self, seeds: Sequence[int] | np.ndarray, slots: Sequence[int] | np.ndarray | None = None) -> None:
        chosen = np.arange(self.batch, dtype=np.int64) if slots is None else np.asarray(slots, dtype=np.int64)
        values = [abs(int(x)) for x in seeds]   # random.Random(seed) seeds from |seed|
        if len(values) != len(chosen):
            raise ValueError(f"deal: {len(values)} seeds for {len(chosen)} slots")
        if any(v >= 1 << 64 for v in values):
            raise ValueError("deal: seeds must be below 2**64")
        if self._rng_words:
            for slot in chosen:
                self._rng_words.pop(int(slot), None)
        deal_batch(self.state, self._rng, np.array(values, dtype=np.uint64), chosen, self.players, self.cap,
                   self.has_cap)
        for slot, value in zip(chosen, seeds):
            self.seeds[int(slot)] = int(value)

    def load(self, slot: int, state: State) -> None:
        """Search loads a sampled state per iteration, so this is built for speed: one flat
        list of the state's fields (``load_row``'s order), padded to a fixed length, packed at
        once (``struct``: about twice as fast as ``array``, which parses each item) and laid
        out by compiled code. The random stream is copied as ``getstate()``'s tuple (about half
        of the time a load takes), turned into words when first needed (``rng``): only a deal
        draws from it."""
        assert isinstance(state, AlarunState) and state.options == self.options
        deck, face_down, discard = state.deck, state.face_down, state.discard
        data = [state.phase, state.round, state.turn, state.start_player, state.first_passer, state.extra_left,
                state.actions_taken, state.to_place, len(deck), *deck, len(state.centre), *state.centre,
                len(face_down), *face_down, len(discard), *discard]
        hands, known, pending, secret = state.hands, state.known, state.pending, state.secret
        for s, square in enumerate(state.squares):
            h, k, p = hands[s], known[s], pending[s]
            min_y = square.min_y
            data += [len(h), *h, len(k), *k, len(p), *p, secret[s], square.min_x, square.max_x, min_y,
                     square.max_y]
            data += square.cells[(min_y + 4) * 9:(min_y + 9) * 9]   # the 5 rows the square may span
        data += self._padding[len(data):]
        load_row(self.state[slot], np.frombuffer(self._packer.pack(*data), dtype=np.int64), state.n,
                 self.cap if self.has_cap else NO_CAP, self.has_cap)
        self._rng_words[slot] = state.rng.getstate()[1]
        self.seeds[slot] = state.seed

    @property
    def rng(self) -> np.ndarray:
        """(B, STREAM_WORDS) the slots' random streams (``mt``), loaded streams included."""
        words = self._rng_words
        if words:
            for slot, tup in words.items():
                self._rng[slot, :] = np.frombuffer(array("I", tup), dtype=np.uint32)
            words.clear()
        return self._rng

    def read(self, slot: int) -> AlarunState:
        row = [int(x) for x in self.state[slot]]
        rng = random.Random()
        words = self._rng_words.get(slot)
        rng.setstate((3, words if words is not None else tuple(int(w) for w in self._rng[slot]), None))
        state = AlarunState.__new__(AlarunState)
        State.__init__(state, self.options, self.seeds[slot], rng)
        state.events = None
        n = self.players
        state.n = n
        state.cap = self.options.action_cap if self.options.action_cap is not None else 1 << 60
        state._final = None
        state.phase, state.round, state.turn = row[H_PHASE], row[H_ROUND], row[H_TURN]
        state.start_player, state.first_passer, state.extra_left = row[H_START], row[H_FIRST], row[H_EXTRA]
        state.actions_taken, state.to_place = row[H_TAKEN], row[H_TO_PLACE]
        state.deck = row[DECK:DECK + row[H_DECK_LEN]]
        state.centre = row[CENTRE:CENTRE + 3]
        state.face_down = row[FACE_DOWN:FACE_DOWN + row[H_FACE_DOWN_LEN]]
        state.discard = row[DISCARD:DISCARD + row[H_DISCARD_LEN]]
        seats = [SEATS + s * SEAT_WORDS for s in range(n)]
        state.hands = [row[b + S_HAND:b + S_HAND + row[b + S_HAND_LEN]] for b in seats]
        state.known = [row[b + S_KNOWN:b + S_KNOWN + row[b + S_KNOWN_LEN]] for b in seats]
        state.pending = [row[b + S_PENDING:b + S_PENDING + row[b + S_PENDING_LEN]] for b in seats]
        state.secret = [row[b + S_SECRET] for b in seats]
        state.squares = [MagicSquare.from_cards([(i, c) for i, c in enumerate(row[b + S_CELLS:b + S_CELLS + 81])
                                                 if c != EMPTY and i != ORIGIN]) for b in seats]
        return state

    # -- playing ---------------------------------------------------------------------------
    def current_player(self) -> np.ndarray:
        out = np.empty(self.batch, dtype=np.int64)
        current_player_batch(self.state, out)
        return out

    def legal_mask(self, out: np.ndarray | None = None) -> np.ndarray:
        if out is None:
            out = np.zeros((self.batch, self.num_actions), dtype=np.bool_)
        legal_mask_batch(self.state, out)
        return out

    def legal_ids(self, slot: int) -> np.ndarray:
        k = legal_actions(self.state[slot], self._legal)
        return self._legal[:k].copy()

    def step(self, actions: np.ndarray) -> None:
        step_batch(self.state, np.asarray(actions, dtype=np.int64))

    def terminal(self) -> np.ndarray:
        return self.state[:, H_PHASE] == OVER

    def outcome(self) -> Outcome:
        n = self.players
        scores, returns = np.zeros((self.batch, n)), np.zeros((self.batch, n))
        winners = np.zeros((self.batch, n), dtype=np.bool_)
        outcome_batch(self.state, scores, returns, winners)
        return Outcome(scores, winners, returns)

    def observe(self, seats: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        if out is None:
            out = np.zeros((self.batch, self.observation_size), dtype=np.float32)
        observe_batch(self.state, np.asarray(seats, dtype=np.int64), self.offsets, out, self.cap_scale)
        return out

    def heuristic_actions(self, streams: np.ndarray | None = None) -> np.ndarray:
        """(B,) the heuristic's choice for each slot's current player (-1 once ended); it
        draws nothing (``streams`` is not read)."""
        out = np.empty(self.batch, dtype=np.int64)
        heuristic_batch(self.state, out, *self._reading)
        return out

    def _evaluate(self, kind: str, out: np.ndarray) -> None:
        if kind == "heuristic":
            evaluate_batch(self.state, False, self._no_weights, out, *self._reading)
        elif kind == "fitted":
            evaluate_batch(self.state, True, self._fitted_weights(), out, *self._reading)
        else:
            super()._evaluate(kind, out)

    def _fitted_weights(self) -> np.ndarray:
        """The fitted evaluation's (stage, feature) weights for this player count, read at the
        first fitted evaluation (as nemeton.agents.fitted reads them for each search)."""
        if self._fitted is None:
            from .fitted import FEATURES, FITTED, STAGES
            entry = FITTED.weights().get(self.players)
            if entry is None or tuple(entry["features"]) != FEATURES:
                raise KernelUnsupported(f"the compiled alarun kernel has no fitted weights for {self.players} "
                                        f"players with the features {FEATURES}")
            self._fitted = np.array(entry["weights"], dtype=np.float64).reshape(STAGES, len(FEATURES))
        return self._fitted

    def _playout(self, policies: np.ndarray, streams: np.ndarray, max_steps: int, stop_round: np.ndarray,
                 counts: np.ndarray) -> None:
        playout_batch(self.state, policies, streams, max_steps, stop_round, counts, *self._reading)


KERNEL = AlarunKernel

__all__ = ["AlarunKernel", "KERNEL"]
