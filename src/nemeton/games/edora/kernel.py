"""The Druids of Edora's compiled core: B games in one int64 array (a row per game), the
rules of :mod:`.rules`, :mod:`.decisions`, :mod:`.potions` and :mod:`.scoring` mirrored in
Numba function for function (same names, same order of effects), proven equal to them by
``tests/kernel/test_edora.py``.

A game is one row of ``rows`` (named offsets ``R_*`` below): the options, the turn's
bookkeeping, the turn stack (``(step, a, b)`` triples, the top last), every player's board
and the table. Its random stream is the matching row of ``rngs`` (only the deal draws from
it: Edora's dice are rolled once, at setup). Action ids are those of
``spec.action_space(options)``; :func:`legal_actions` lists them in the order of
``state.legal_actions(seat)`` (what a random agent chooses among).

Implemented: the designed §9 board, 2-4 players, every rule switch (V1-V4, the summary's
two rules, the safety valve). Refused (:class:`KernelUnsupported`): another ``board``.
The heuristic playout policy (and :meth:`EdoraKernel.heuristic_actions`) is
:meth:`.heuristic.EdoraHeuristic.choose_in_state` mirrored operation for operation (see
:func:`heuristic_choice`): the same quick rules, estimates and lookahead on the seat's
:func:`seen_by` copy, the same floats added in the same order, one ``random()`` per action
looked at from the seat's stream; it chooses what the reference heuristic agent chooses
(proven choice for choice, and by whole games against ``simulate``).
"""

from __future__ import annotations

import array
import operator
import sys
from itertools import chain
from typing import Any, Sequence

import numpy as np
from numba import njit

from ...engine import mt
from ...engine.kernel import EXTERNAL, HEURISTIC, RANDOM, Kernel, Outcome, check_options, compile_notice
from ...engine.state import TERMINAL
from . import actions as A
from . import heuristic as _H
from .board import REWARDS, RUNE_UNITS, board_from_text
from .components import DOLMEN_COLOURS, HERBS, POTIONS, POTION_COST as _POTION_COST, TABLETS
from .encoding import PLAYER_FEATURES as _PF, _PLAYER_OFFSETS
from .options import EdoraOptions
from .steps import (ACTIVATE_HERB, ARRANGE_HERBS, BEGIN_PLAY, BREW_POTION, CHOOSE_START, COMPETITION, DOLMENS,
                    END_TURN, FIRE_PITS, FLIP_HERB, KEEP_TABLET, MOVE, PLACE_DIE, PLACE_RUNE_STONE,
                    PLACE_STANDING_STONE, PROVISIONS_OR_DICE, RAISE_DIE, RELEASED_HERBS, REPEAT_FIRE_REWARD,
                    REPEAT_STONE_REWARD, SANCTUARY_ACTION, TAKE_DIE, TAKE_GEM, TAKE_HERB, TAKE_TABLET)

# ----- the board (the designed §9 board: module constants, frozen into the compiled code) -------
_B = board_from_text(None)
NS = _B.size
NPITS = len(_B.pit_names)
NRING = len(_B.ring)
NCOL = NRING // 2
MAXP = 4
DIST = np.array(_B.dist, dtype=np.int64)
NB = np.full((NS, 8), -1, dtype=np.int64)
NB_N = np.array([len(x) for x in _B.neighbours], dtype=np.int64)
for _s, _nb in enumerate(_B.neighbours):
    NB[_s, :len(_nb)] = _nb
GLADE_OF = np.array(_B.glade_of, dtype=np.int64)
NGLADES = len(_B.glade_names)
GLADE_MEMBERS = np.full((NGLADES, NS), -1, dtype=np.int64)
GLADE_N = np.array([len(m) for m in _B.glade_members], dtype=np.int64)
for _g, _m in enumerate(_B.glade_members):
    GLADE_MEMBERS[_g, :len(_m)] = _m
GLADE_MASK = np.array(_B.glade_masks, dtype=np.int64)
PORTAL = np.array(_B.portal, dtype=np.int64)
PIT_MASK = np.array(_B.pit_masks, dtype=np.int64)
PIT_REW = np.full((NPITS, 4), -1, dtype=np.int64)
PIT_N = np.array([len(r) for r in _B.pit_rewards], dtype=np.int64)
for _k, _r in enumerate(_B.pit_rewards):
    PIT_REW[_k, :len(_r)] = _r
PIT_AROUND_N = np.array([len(a) for a in _B.pit_around], dtype=np.int64)
PITS_OF = np.full((NS, 8), -1, dtype=np.int64)
PITS_OF_N = np.array([len(x) for x in _B.pits_of], dtype=np.int64)
for _s, _p in enumerate(_B.pits_of):
    PITS_OF[_s, :len(_p)] = _p
RING = np.array(_B.ring, dtype=np.int64)
START_SANCT = np.array(_B.start_sanctuary, dtype=np.int64)
NLINES = len(_B.lines_of_four)
LINES = np.array(_B.lines_of_four, dtype=np.int64).reshape(NLINES, 4)
STANDING_ROW = np.array(_B.standing_row, dtype=np.int64)
RUNE_UNIT = np.array([RUNE_UNITS.index(r.unit) for r in _B.rune_stones], dtype=np.int64)
RUNE_FACTOR = np.array([r.factor for r in _B.rune_stones], dtype=np.int64)
RUNE_MINUS = np.array([1 if r.minus_one else 0 for r in _B.rune_stones], dtype=np.int64)
K_END = _B.knowledge_end
K_MULT = np.array(_B.knowledge_multiplier, dtype=np.int64)
S_END = _B.sickle_end
PAIRS_AT = np.array(_B.herb_pairs_at, dtype=np.int64)
S_SCORE = np.array(_B.sickle_score, dtype=np.int64)
BOARD_ORACLE = np.array(_B.oracle_stones, dtype=np.int64)
OVERFLOW = _B.overflow_prestige
START_PROV = _B.start_provisions
SPACE_KIND = np.full((NS, 4), -1, dtype=np.int64)
SPACE_A = np.zeros((NS, 4), dtype=np.int64)
SPACE_B = np.zeros((NS, 4), dtype=np.int64)
for _s, _acts in enumerate(_B.space_actions):
    for _i, (_kind, _a, _b) in enumerate(_acts):
        SPACE_KIND[_s, _i], SPACE_A[_s, _i], SPACE_B[_s, _i] = _kind, _a, _b
POTION_COST = np.array(_POTION_COST, dtype=np.int64)
BEIGE_BONUS = np.array((8, 6, 4), dtype=np.int64)

# rewards, herbs, space kinds, herb states (components.py / board.py)
VP, KNOW, FOOD, DIE, MIST, SICKLE = range(6)
(SPACE_PROVISIONS, SPACE_KNOWLEDGE, SPACE_SICKLE, SPACE_TABLET, SPACE_MISTLETOE, SPACE_AMULET,
 SPACE_STANDING_STONE, SPACE_RUNE_STONE) = range(8)
(HERB_FOOD, HERB_MIST, HERB_SICKLE, HERB_KNOW, HERB_AMULET, HERB_DIE,
 HERB_STAND, HERB_LEAP, HERB_RUNE, HERB_FIRE, HERB_VP, HERB_TABLET) = range(12)
ON_BOARD, ACTIVE, INACTIVE = 0, 1, 2
U_MIST, U_DIE, U_KNOW, U_SICKLE, U_PRESTIGE, U_PROVISION = range(6)   # RUNE_UNITS

# ----- one game's row ---------------------------------------------------------------------------
MAXSTACK = 48
DECK_SIZE = 2 * len(TABLETS)


def _allocator():
    """A function handing out consecutive offsets of a packed array, and its running size."""
    size = [0]

    def alloc(k: int) -> int:
        start = size[0]
        size[0] += k
        return start
    return alloc, size


_alloc, _row_size = _allocator()
_NOTHING = object()   # equal to no value


# options
R_N = _alloc(1)
R_REVISIT = _alloc(1)
R_SUMMARY = _alloc(1)
R_DRAFT = _alloc(1)
R_SHARED_HERBS = _alloc(1)
R_ARRANGED_HERBS = _alloc(1)
R_SHARED_DICE = _alloc(1)
R_VALVE = _alloc(1)
# the turn
R_PLAYER = _alloc(1)
R_START_PLAYER = _alloc(1)
R_ROUND = _alloc(1)
R_ENDING = _alloc(1)
R_OVER = _alloc(1)
R_QUIET = _alloc(1)
R_DIE_ROUND = _alloc(1)
R_KCOUNTER = _alloc(1)
R_LINKS = _alloc(1)
R_CLOSURES = _alloc(1)
R_SP = _alloc(1)
R_STACK = _alloc(3 * MAXSTACK)
# per player
R_PROVISIONS = _alloc(MAXP)
R_MISTLETOE = _alloc(MAXP)
R_PRESTIGE = _alloc(MAXP)
R_KNOWLEDGE = _alloc(MAXP)
R_KSTACK = _alloc(MAXP)
R_SICKLE = _alloc(MAXP)
R_FIGURE = _alloc(MAXP)
R_START_AT = _alloc(MAXP)
R_PLACED = _alloc(MAXP)
R_DIE_MASK = _alloc(MAXP)
R_STANDING = _alloc(MAXP)
R_RUNES = _alloc(MAXP)
R_PAIRS = _alloc(MAXP)
R_ARRANGED = _alloc(MAXP)
R_GEM_MASK = _alloc(MAXP)
R_DOLMENS = _alloc(MAXP)
R_BEIGE = _alloc(MAXP)
R_NTABLETS = _alloc(MAXP)
R_TOTAL = _alloc(MAXP)               # the final scores once over
R_RESERVE = _alloc(7 * MAXP)
R_OVERVIEW = _alloc(7 * MAXP)
R_HERB_AT = _alloc(12 * MAXP)
R_HERB_STATE = _alloc(12 * MAXP)
R_AMULET = _alloc(6 * MAXP)
R_TABLETS = _alloc(DECK_SIZE * MAXP)
# the table
R_OWNER = _alloc(4 * NS)
R_VALUE = _alloc(4 * NS)
R_USED = _alloc(NS)
R_STANDING_AT = _alloc(NS)
R_RUNE_AT = _alloc(NS)
R_PIT = _alloc(NPITS)
R_RING = _alloc(NRING)               # colour index of each ring slot
R_COLOUR_ENDS = _alloc(2 * NCOL)
R_DOLMEN_OWNER = _alloc(NCOL)
R_ORACLE_STONES = _alloc(6)
R_ORACLE_SLOTS = _alloc(12)
R_DECK_LEN = _alloc(1)
R_DECK = _alloc(DECK_SIZE)           # the top of the deck is the end
R_MARKS = _alloc(DECK_SIZE)
R_HAND_LEN = _alloc(1)
R_HAND = _alloc(3)
R_GEMS_LEFT = _alloc(6)
R_POTION_OWNER = _alloc(len(POTIONS))
ROW = _row_size[0]

# ----- action ids: kinds and the tables that find an id -----------------------------------------
(K_START, K_MOVE, K_LEAP, K_PLACE, K_RAISE, K_GEM, K_EMERGENCY, K_FOOD, K_TAKE_DIE, K_BREW, K_STOP,
 K_SKIP, K_STANDING, K_RUNE, K_REPEAT, K_FLIP, K_TAKE_HERB, K_ACTIVATE, K_TAKE_TABLET, K_ARRANGE,
 K_KEEP) = range(21)
MAXCOST = int(DIST.max()) + 1
_ialloc, _id_size = _allocator()


I_START = _ialloc(4)
I_MOVE = _ialloc(NS * MAXCOST)        # [d, cost]
I_LEAP = _ialloc(NS)
I_PLACE = _ialloc(NS * 4 * 7 * 7)      # [s, i, die, value]
I_RAISE = _ialloc(NS * 4 * 7)          # [s, i, value]
I_GEM = _ialloc(3 * 6)                 # [row, gem]
I_EMERGENCY = _ialloc(1)
I_FOOD = _ialloc(2)                    # provisions, dice
I_TAKE_DIE = _ialloc(7)
I_BREW = _ialloc(len(POTIONS))
I_STOP = _ialloc(2)                    # potions, dice to raise
I_SKIP = _ialloc(2)                    # standing-stone, rune-stone
I_STANDING = _ialloc(6)                # by reward
I_RUNE = _ialloc(6)                    # by unit
I_REPEAT = _ialloc(6)
I_FLIP = _ialloc(12)
I_TAKE_HERB = _ialloc(12)
I_ACTIVATE = _ialloc(12 * 12)
I_TABLET = _ialloc(12 * 15)            # [slot, tablet]
I_ARRANGE = _ialloc(12 * 12)           # [herb, circle]
I_KEEP = _ialloc(15)
ID_TABLE = _id_size[0]


def action_tables(actions: Sequence[A.Action]) -> tuple[np.ndarray, np.ndarray]:
    """(decode, ids): each action id's kind and four numbers, and the ``I_*`` tables that
    find the id of an action from its numbers (-1: no such action)."""
    names, rows = _B.index, _B.amulet_rows
    decode = np.full((len(actions), 5), -1, dtype=np.int64)
    ids = np.full(ID_TABLE, -1, dtype=np.int64)
    row: tuple[int, ...]
    for i, a in enumerate(actions):
        if isinstance(a, A.StartSpace):
            k = _B.start_names.index(a.start)
            row, at = (K_START, k, names[a.sanctuary]), I_START + k
        elif isinstance(a, A.Move):
            d = names[a.to]
            row, at = (K_MOVE, d, a.cost), I_MOVE + d * MAXCOST + a.cost
        elif isinstance(a, A.ForestLeap):
            d = names[a.to]
            row, at = (K_LEAP, d), I_LEAP + d
        elif isinstance(a, A.PlaceDie):
            s, sp = names[a.sanctuary], a.space - 1
            row, at = (K_PLACE, s, sp, a.die, a.value), I_PLACE + ((s * 4 + sp) * 7 + a.die) * 7 + a.value
        elif isinstance(a, A.RaiseDie):
            s, sp = names[a.sanctuary], a.space - 1
            row, at = (K_RAISE, s, sp, a.value), I_RAISE + (s * 4 + sp) * 7 + a.value
        elif isinstance(a, A.TakeGem):
            r, g = rows.index(a.row), REWARDS.index(a.gem)
            row, at = (K_GEM, r, g), I_GEM + r * 6 + g
        elif isinstance(a, A.Emergency):
            row, at = (K_EMERGENCY,), I_EMERGENCY
        elif isinstance(a, A.FoodChoice):
            k = 0 if a.take == "provisions" else 1
            row, at = (K_FOOD, k), I_FOOD + k
        elif isinstance(a, A.TakeDie):
            row, at = (K_TAKE_DIE, a.value), I_TAKE_DIE + a.value
        elif isinstance(a, A.Brew):
            k = POTIONS.index(a.potion)
            row, at = (K_BREW, k), I_BREW + k
        elif isinstance(a, A.Stop):
            k = 0 if a.what == "potions" else 1
            row, at = (K_STOP, k), I_STOP + k
        elif isinstance(a, A.Skip):
            k = 0 if a.what == "standing-stone" else 1
            row, at = (K_SKIP, k), I_SKIP + k
        elif isinstance(a, A.StandingStone):
            r = REWARDS.index(a.stone)
            row, at = (K_STANDING, r), I_STANDING + r
        elif isinstance(a, A.RuneStone):
            u = RUNE_UNITS.index(a.stone)
            row, at = (K_RUNE, u), I_RUNE + u
        elif isinstance(a, A.RepeatReward):
            r = REWARDS.index(a.reward)
            row, at = (K_REPEAT, r), I_REPEAT + r
        elif isinstance(a, A.FlipHerb):
            h = HERBS.index(a.herb)
            row, at = (K_FLIP, h), I_FLIP + h
        elif isinstance(a, A.TakeHerb):
            h = HERBS.index(a.herb)
            row, at = (K_TAKE_HERB, h), I_TAKE_HERB + h
        elif isinstance(a, A.ActivateHerb):
            h, o = HERBS.index(a.herb), HERBS.index(a.other)
            row, at = (K_ACTIVATE, h, o), I_ACTIVATE + h * 12 + o
        elif isinstance(a, A.TakeTablet):
            t = TABLETS.index(a.tablet)
            row, at = (K_TAKE_TABLET, a.slot, t), I_TABLET + a.slot * 15 + t
        elif isinstance(a, A.ArrangeHerb):
            h = HERBS.index(a.herb)
            row, at = (K_ARRANGE, h, a.circle), I_ARRANGE + h * 12 + a.circle
        elif isinstance(a, A.KeepTablet):
            t = TABLETS.index(a.tablet)
            row, at = (K_KEEP, t), I_KEEP + t
        else:  # pragma: no cover - every action class is listed above
            raise TypeError(f"no kernel id for {a!r}")
        decode[i, :len(row)] = row
        ids[at] = i
    return decode, ids


# ----- small helpers -----------------------------------------------------------------------------
@njit(cache=True)
def push(r, step, a, b):
    k = R_STACK + 3 * r[R_SP]
    r[k] = step
    r[k + 1] = a
    r[k + 2] = b
    r[R_SP] += 1


@njit(cache=True)
def top_at(r):
    """The offset of the stack's top entry."""
    return R_STACK + 3 * (r[R_SP] - 1)


@njit(cache=True)
def herb_active(r, p, h):
    return r[R_HERB_STATE + 12 * p + h] == ACTIVE


@njit(cache=True)
def popcount(x):
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@njit(cache=True)
def arranging_any(r):
    for p in range(r[R_N]):
        if r[R_ARRANGED + p] < 12:
            return True
    return False


# ----- the deal (rules.EdoraState._setup) ---------------------------------------------------------
@njit(cache=True)
def dolmen_separation_ok(colours):
    for c in range(NCOL):
        first = -1
        second = -1
        count = 0
        for k in range(NRING):
            if colours[k] == c:
                count += 1
                if first < 0:
                    first = k
                else:
                    second = k
        if count != 2:
            return False
        gap = second - first
        if min(gap, NRING - gap) < 3:
            return False
    return True


@njit(cache=True)
def setup(r, rng, seed, opts):
    """§2, drawing from ``rng`` exactly what ``EdoraState._setup`` draws."""
    r[:] = 0
    mt.seed(rng, seed)
    n = opts[0]
    r[R_N] = n
    r[R_REVISIT] = opts[1]
    r[R_SUMMARY] = opts[2]
    r[R_DRAFT] = opts[3]
    r[R_SHARED_HERBS] = opts[4]
    r[R_ARRANGED_HERBS] = opts[5]
    r[R_SHARED_DICE] = opts[6]
    r[R_VALVE] = opts[7]
    r[R_ROUND] = 1
    for j in range(4 * NS):
        r[R_OWNER + j] = -1
    for k in range(NPITS):
        r[R_PIT + k] = -1
    deck = np.empty(DECK_SIZE, dtype=np.int64)
    for t in range(DECK_SIZE):
        deck[t] = t // 2
    mt.shuffle(rng, deck, DECK_SIZE)
    length = DECK_SIZE
    for j in range(12):
        length -= 1
        r[R_ORACLE_SLOTS + j] = deck[length]
    stones = BOARD_ORACLE.copy()
    mt.shuffle(rng, stones, 6)
    for j in range(6):
        r[R_ORACLE_STONES + j] = stones[j]
    colours = np.empty(NRING, dtype=np.int64)
    for k in range(NRING):
        colours[k] = k // 2
    while True:
        mt.shuffle(rng, colours, NRING)
        if dolmen_separation_ok(colours):
            break
    ends = np.zeros(NCOL, dtype=np.int64)
    for k in range(NRING):
        c = colours[k]
        r[R_RING + k] = c
        r[R_COLOUR_ENDS + 2 * c + ends[c]] = RING[k]
        ends[c] += 1
    for c in range(NCOL):
        r[R_DOLMEN_OWNER + c] = -1
    for g in range(6):
        r[R_GEMS_LEFT + g] = 4
    for k in range(len(POTION_COST)):
        r[R_POTION_OWNER + k] = -1
    for p in range(n):
        r[R_PROVISIONS + p] = START_PROV
        r[R_FIGURE + p] = -1
        r[R_START_AT + p] = -1
        r[R_ARRANGED + p] = 12
        for j in range(6):
            r[R_AMULET + 6 * p + j] = -1
    nine = np.zeros((MAXP, 9), dtype=np.int64)
    for p in range(n):
        for _ in range(4):
            r[R_RESERVE + 7 * p + mt.randint(rng, 1, 6)] += 1
        for j in range(9):
            nine[p, j] = mt.randint(rng, 1, 6)
    sums = np.zeros(MAXP, dtype=np.int64)
    best = -1
    for p in range(n):
        for v in range(1, 7):
            sums[p] += v * r[R_RESERVE + 7 * p + v]
        if sums[p] > best:
            best = sums[p]
    tied = np.empty(MAXP, dtype=np.int64)
    nt = 0
    for p in range(n):
        if sums[p] == best:
            tied[nt] = p
            nt += 1
    sp = tied[0] if nt == 1 else tied[mt.choice_index(rng, nt)]
    r[R_START_PLAYER] = sp
    r[R_PLAYER] = sp
    for p in range(n):
        src = sp if opts[6] else p
        for j in range(9):
            r[R_OVERVIEW + 7 * p + nine[src, j]] += 1
    layouts = np.empty((MAXP, 12), dtype=np.int64)
    for p in range(n):
        for h in range(12):
            layouts[p, h] = h
        mt.shuffle(rng, layouts[p], 12)
    for p in range(n):
        for h in range(12):
            r[R_HERB_AT + 12 * p + h] = -1
            r[R_HERB_STATE + 12 * p + h] = ON_BOARD
        if opts[5]:
            r[R_ARRANGED + p] = 0
        else:
            src = sp if opts[4] else p
            for h in range(12):
                r[R_HERB_AT + 12 * p + h] = layouts[src, h]
    for k in range(n):
        r[R_KSTACK + (sp + k) % n] = k
    r[R_KCOUNTER] = n
    push(r, BEGIN_PLAY, 0, 0)
    for j in range(n - 1, -1, -1):      # reversed([(sp - 1 - j) % n for j in range(n)])
        push(r, CHOOSE_START, (sp - 1 - j) % n, 0)
    if opts[5]:
        push(r, ARRANGE_HERBS, 0, 0)
    if opts[3]:
        for k in range(n - 1, -1, -1):
            push(r, KEEP_TABLET, (sp + k) % n, 0)
    else:
        for k in range(n):
            p = (sp + k) % n
            length -= 1
            r[R_TABLETS + DECK_SIZE * p + r[R_NTABLETS + p]] = deck[length]
            r[R_NTABLETS + p] += 1
    r[R_DECK_LEN] = length
    for j in range(length):
        r[R_DECK + j] = deck[j]
        r[R_MARKS + j] = -1
    advance(r)


# ----- rewards (rules.py) ---------------------------------------------------------------------------
@njit(cache=True)
def vp3(r, p, times):
    r[R_PRESTIGE + p] += (5 if herb_active(r, p, HERB_VP) else 3) * times


@njit(cache=True)
def gain(r, p, reward, times):
    if times <= 0:
        return
    if reward == VP:
        vp3(r, p, times)
    elif reward == KNOW:
        advance_knowledge(r, p, times)
    elif reward == FOOD:
        r[R_PROVISIONS + p] += 3 * times
    elif reward == DIE:
        take_dice(r, p, times)
    elif reward == MIST:
        r[R_MISTLETOE + p] += times
    else:
        advance_sickle(r, p, times)


@njit(cache=True)
def advance_knowledge(r, p, steps):
    if steps <= 0:
        return
    new = r[R_KNOWLEDGE + p] + steps
    if new > K_END:
        r[R_PRESTIGE + p] += (new - K_END) * OVERFLOW
        new = K_END
    if new != r[R_KNOWLEDGE + p]:
        r[R_KNOWLEDGE + p] = new
        r[R_KSTACK + p] = r[R_KCOUNTER]
        r[R_KCOUNTER] += 1


@njit(cache=True)
def advance_sickle(r, p, steps):
    new = r[R_SICKLE + p] + steps
    if new > S_END:
        r[R_PRESTIGE + p] += (new - S_END) * OVERFLOW
        new = S_END
    r[R_SICKLE + p] = new


@njit(cache=True)
def take_dice(r, p, count):
    if r[R_SP] > 0 and r[top_at(r)] == TAKE_DIE:
        r[top_at(r) + 1] += count
        r[top_at(r) + 2] = 0
    else:
        push(r, TAKE_DIE, count, 0)


# ----- turn flow ----------------------------------------------------------------------------------
@njit(cache=True)
def begin_turn(r):
    p = r[R_PLAYER]
    push(r, END_TURN, 0, 0)
    if r[R_FIGURE + p] < 0:
        r[R_FIGURE + p] = r[R_START_AT + p]
        push(r, PLACE_DIE, 0, 0)
    else:
        push(r, MOVE, 0, 0)


@njit(cache=True)
def end_turn(r):
    n = r[R_N]
    p = r[R_PLAYER]
    if p == (r[R_START_PLAYER] - 1) % n:
        r[R_QUIET] = 0 if r[R_DIE_ROUND] else r[R_QUIET] + 1
        r[R_DIE_ROUND] = 0
        valve = r[R_VALVE] != 0 and (r[R_QUIET] >= 3 or r[R_ROUND] >= 40)
        if r[R_ENDING] or valve:
            final_scoring(r)
            r[R_OVER] = 1
            r[R_SP] = 0
            return
        r[R_ROUND] += 1
    r[R_PLAYER] = (p + 1) % n
    begin_turn(r)


@njit(cache=True)
def place_die(r, p, s, i, die, value):
    r[R_PROVISIONS + p] -= value
    r[R_RESERVE + 7 * p + die] -= 1
    r[R_OWNER + 4 * s + i] = p
    r[R_VALUE + 4 * s + i] = value
    r[R_USED + s] += 1
    r[R_DIE_MASK + p] |= 1 << s
    r[R_PLACED + p] += 1
    r[R_DIE_ROUND] = 1
    if r[R_PLACED + p] >= 13 and not r[R_ENDING]:
        r[R_ENDING] = 1
    push(r, RELEASED_HERBS, 0, 0)
    push(r, DOLMENS, 0, 0)
    push(r, FIRE_PITS, s, 0)
    push(r, SANCTUARY_ACTION, s, i)
    push(r, COMPETITION, s, 0)


@njit(cache=True)
def highest_die(r, s):
    """The owner of the highest die on s (ties by §5), -1 if empty."""
    best = -1
    bv = -1
    bk = -1
    bs = -1
    for i in range(r[R_N]):
        o = r[R_OWNER + 4 * s + i]
        if o < 0:
            continue
        v = r[R_VALUE + 4 * s + i]
        k = r[R_KNOWLEDGE + o]
        st = r[R_KSTACK + o]
        if best < 0 or v > bv or (v == bv and (k > bk or (k == bk and st > bs))):
            best, bv, bk, bs = o, v, k, st
    return best


@njit(cache=True)
def competition(r, s):
    if r[R_USED + s] >= 2:
        r[R_PRESTIGE + highest_die(r, s)] += 2


@njit(cache=True)
def do_action(r, p, s, i):
    kind = SPACE_KIND[s, i]
    a = SPACE_A[s, i]
    b = SPACE_B[s, i]
    if kind == SPACE_PROVISIONS:
        push(r, PROVISIONS_OR_DICE, 0, 0)
    elif kind == SPACE_KNOWLEDGE:
        advance_knowledge(r, p, a + (2 if herb_active(r, p, HERB_KNOW) else 0))
    elif kind == SPACE_SICKLE:
        advance_sickle(r, p, a + (2 if herb_active(r, p, HERB_SICKLE) else 0))
    elif kind == SPACE_TABLET:
        push(r, TAKE_TABLET, 1, 0)
    elif kind == SPACE_MISTLETOE:
        r[R_MISTLETOE + p] += a
        if herb_active(r, p, HERB_MIST):
            r[R_MISTLETOE + p] += 1
            vp3(r, p, 1)
        push(r, BREW_POTION, b, 0)
    elif kind == SPACE_AMULET:
        push(r, TAKE_GEM, a, b + (1 if herb_active(r, p, HERB_AMULET) else 0))
    elif kind == SPACE_STANDING_STONE:
        push(r, PLACE_STANDING_STONE, 1, 0)
    else:
        v = r[R_VALUE + 4 * s + i] + (2 if herb_active(r, p, HERB_RUNE) else 0)
        push(r, PLACE_RUNE_STONE, v, 1)


@njit(cache=True)
def close_fire_pits(r, p, s):
    mask = r[R_DIE_MASK + p]
    for j in range(PITS_OF_N[s]):
        k = PITS_OF[s, j]
        pm = PIT_MASK[k]
        if r[R_PIT + k] >= 0 or mask & pm != pm:
            continue
        r[R_PIT + k] = p
        for q in range(PIT_N[k]):
            gain(r, p, PIT_REW[k, q], 1)
        if r[R_SUMMARY]:
            c = r[R_CLOSURES]
            r[R_PRESTIGE + p] += 2 * PIT_AROUND_N[k] + (BEIGE_BONUS[c] if c < 3 else 0)
        r[R_CLOSURES] += 1
        if herb_active(r, p, HERB_FIRE):
            push(r, REPEAT_FIRE_REWARD, k, 0)


@njit(cache=True)
def path_length(a, z, mask):
    seen = np.int64(1) << a
    frontier = np.int64(1) << a
    length = 1
    while frontier:
        if (frontier >> z) & 1:
            return length
        nxt = np.int64(0)
        for u in range(NS):
            if (frontier >> u) & 1:
                for j in range(NB_N[u]):
                    v = NB[u, j]
                    bit = np.int64(1) << v
                    if mask & bit and not seen & bit:
                        seen |= bit
                        nxt |= bit
        frontier = nxt
        length += 1
    return 0


@njit(cache=True)
def link_dolmens(r, p):
    mask = r[R_DIE_MASK + p]
    for c in range(NCOL):
        a = r[R_COLOUR_ENDS + 2 * c]
        z = r[R_COLOUR_ENDS + 2 * c + 1]
        if r[R_DOLMEN_OWNER + c] >= 0 or not (mask >> a) & 1 or not (mask >> z) & 1:
            continue
        length = path_length(a, z, mask)
        if not length:
            continue
        r[R_DOLMEN_OWNER + c] = p
        r[R_DOLMENS + p] += 2
        links = r[R_LINKS]
        bonus = BEIGE_BONUS[links] if links < 3 else 0
        r[R_PRESTIGE + p] += 2 * length + bonus
        if bonus:
            r[R_BEIGE + p] += 1
        r[R_LINKS] += 1


@njit(cache=True)
def release_herbs(r, p):
    while r[R_PAIRS + p] < 6 and PAIRS_AT[r[R_PAIRS + p]] <= r[R_SICKLE + p]:
        k = r[R_PAIRS + p]
        r[R_PAIRS + p] += 1
        h1 = r[R_HERB_AT + 12 * p + 2 * k]
        h2 = r[R_HERB_AT + 12 * p + 2 * k + 1]
        l1 = r[R_HERB_STATE + 12 * p + h1] == ON_BOARD
        l2 = r[R_HERB_STATE + 12 * p + h2] == ON_BOARD
        if l1 and l2:
            push(r, ACTIVATE_HERB, k, 0)
        elif l1:
            r[R_HERB_STATE + 12 * p + h1] = ACTIVE
        elif l2:
            r[R_HERB_STATE + 12 * p + h2] = ACTIVE


@njit(cache=True)
def place_standing_stone(r, p, k):
    r[R_STANDING + p] |= 1 << k
    r[R_STANDING_AT + r[R_FIGURE + p]] += 1
    gained = 1 << STANDING_ROW[k]
    gain(r, p, STANDING_ROW[k], 1)
    for j in range(6):
        if (r[R_STANDING + p] >> j) & 1:
            gain(r, p, STANDING_ROW[j], 1)
            gained |= 1 << STANDING_ROW[j]
    if herb_active(r, p, HERB_STAND):
        push(r, REPEAT_STONE_REWARD, gained, 0)


@njit(cache=True)
def place_rune_stone(r, p, k, v):
    r[R_RUNES + p] |= 1 << k
    r[R_RUNE_AT + r[R_FIGURE + p]] += 1
    amount = max(0, v - 1) if RUNE_MINUS[k] else RUNE_FACTOR[k] * v
    unit = RUNE_UNIT[k]
    if unit == U_MIST:
        r[R_MISTLETOE + p] += amount
    elif unit == U_DIE:
        if amount:
            take_dice(r, p, amount)
    elif unit == U_KNOW:
        advance_knowledge(r, p, amount)
    elif unit == U_SICKLE:
        advance_sickle(r, p, amount)
    elif unit == U_PRESTIGE:
        r[R_PRESTIGE + p] += amount
    else:
        r[R_PROVISIONS + p] += amount


@njit(cache=True)
def take_tablet(r, p, slot):
    t = r[R_ORACLE_SLOTS + slot]
    r[R_TABLETS + DECK_SIZE * p + r[R_NTABLETS + p]] = t
    r[R_NTABLETS + p] += 1
    if r[R_DECK_LEN] > 0:
        r[R_DECK_LEN] -= 1
        r[R_ORACLE_SLOTS + slot] = r[R_DECK + r[R_DECK_LEN]]
    else:
        r[R_ORACLE_SLOTS + slot] = -1
    side = slot // 2
    times = 2 if herb_active(r, p, HERB_TABLET) else 1
    gain(r, p, r[R_ORACLE_STONES + side], times)
    gain(r, p, r[R_ORACLE_STONES + (side + 1) % 6], times)


@njit(cache=True)
def raise_die(r, s, i):
    r[R_VALUE + 4 * s + i] = 6
    competition(r, s)


@njit(cache=True)
def brew(r, p, k):
    """potions.brew: potion k (POTIONS order) for p, mistletoe already paid."""
    if k == 0:                       # P1a
        push(r, PLACE_STANDING_STONE, 0, 0)
    elif k == 1:                     # P1b
        push(r, FLIP_HERB, 0, 0)
    elif k == 2:                     # P1c
        push(r, RAISE_DIE, 1, 0)
    elif k == 3:                     # P2a
        push(r, TAKE_HERB, 1, 0)
    elif k == 4:                     # P2b
        r[R_PROVISIONS + p] += 6
        take_dice(r, p, 1)
    elif k == 5:                     # P2c
        advance_sickle(r, p, 3 + (2 if herb_active(r, p, HERB_SICKLE) else 0))
    elif k == 6:                     # P3a
        r[R_PRESTIGE + p] += 10
    elif k == 7:                     # P3b
        push(r, PLACE_RUNE_STONE, 3, 0)
    elif k == 8:                     # P3c
        push(r, TAKE_TABLET, 1, 0)
    elif k == 9:                     # P4a
        advance_knowledge(r, p, 3 + (2 if herb_active(r, p, HERB_KNOW) else 0))
    elif k == 10:                    # P4b
        r[R_PROVISIONS + p] += 6
        r[R_PRESTIGE + p] += 5
        take_dice(r, p, 2)
    elif k == 11:                    # P4c
        push(r, TAKE_HERB, 2, 0)
    elif k == 12:                    # P5a
        push(r, TAKE_GEM, -1, 5 + (1 if herb_active(r, p, HERB_AMULET) else 0))
    elif k == 13:                    # P5b
        push(r, PLACE_RUNE_STONE, 6, 0)
    elif k == 14:                    # P5c
        push(r, PLACE_STANDING_STONE, 0, 0)
        push(r, PLACE_STANDING_STONE, 0, 0)
    elif k == 15:                    # P6a
        push(r, RAISE_DIE, 3, 1)
    elif k == 16:                    # P6b
        push(r, TAKE_TABLET, 2, 0)
    else:                            # P6c
        r[R_PRESTIGE + p] += 25


# ----- decisions: settle (decisions.SETTLE) -----------------------------------------------------
@njit(cache=True)
def any_brewable(r, p):
    m = r[R_MISTLETOE + p]
    for k in range(len(POTION_COST)):
        if r[R_POTION_OWNER + k] < 0 and POTION_COST[k] <= m:
            return True
    return False


@njit(cache=True)
def gem_choices(r, row_arg, p, ids, out, count):
    """decisions._gem_choices: appends the gem ids to ``out`` from ``count`` (ids None: only
    counts them); returns the new count."""
    lo = row_arg if row_arg >= 0 else 0
    hi = row_arg + 1 if row_arg >= 0 else 3
    gm = r[R_GEM_MASK + p]
    for row in range(lo, hi):
        if r[R_AMULET + 6 * p + 2 * row + 1] >= 0:
            continue
        for g in range(6):
            if not (gm >> g) & 1 and r[R_GEMS_LEFT + g] > 0:
                if ids is not None:
                    out[count] = ids[I_GEM + row * 6 + g]
                count += 1
    return count


@njit(cache=True)
def any_raisable(r, p):
    for s in range(NS):
        if not (r[R_DIE_MASK + p] >> s) & 1:
            continue
        for i in range(r[R_N]):
            if r[R_OWNER + 4 * s + i] == p and r[R_VALUE + 4 * s + i] < 6:
                return True
    return False


@njit(cache=True)
def any_herb_in(r, p, wanted):
    for h in range(12):
        if r[R_HERB_STATE + 12 * p + h] == wanted:
            return True
    return False


@njit(cache=True)
def pit_mask(k):
    m = 0
    for q in range(PIT_N[k]):
        m |= 1 << PIT_REW[k, q]
    return m


@njit(cache=True)
def single_or_choose(r, mask):
    if mask and mask & (mask - 1):
        return True
    r[R_SP] -= 1
    if mask:
        gain(r, r[R_PLAYER], mt.bit_length(mask) - 1, 1)
    return False


@njit(cache=True)
def settle(r, k, t):
    """Whether the decision on top (kind k at offset t) waits for a player; otherwise it has
    resolved or discarded itself."""
    p = r[R_PLAYER]
    if k == CHOOSE_START or k == MOVE or k == PLACE_DIE or k == PROVISIONS_OR_DICE or k == ACTIVATE_HERB:
        return True
    if k == KEEP_TABLET:
        if r[R_HAND_LEN] == 0:
            for _ in range(min(3, r[R_DECK_LEN])):
                r[R_DECK_LEN] -= 1
                r[R_HAND + r[R_HAND_LEN]] = r[R_DECK + r[R_DECK_LEN]]
                r[R_HAND_LEN] += 1
            if r[R_HAND_LEN] == 0:
                r[R_SP] -= 1
                return False
        return True
    if k == ARRANGE_HERBS:
        if arranging_any(r):
            return True
        r[R_SP] -= 1
        return False
    if k == TAKE_DIE:
        count = r[t + 1]
        base = R_OVERVIEW + 7 * p
        kinds = 0
        total = 0
        for v in range(1, 7):
            if r[base + v]:
                kinds += 1
                total += r[base + v]
        if kinds > 1 and total > count:
            return True
        r[R_SP] -= 1
        for v in range(1, 7):
            if r[base + v]:
                m = min(count, r[base + v])
                r[base + v] -= m
                r[R_RESERVE + 7 * p + v] += m
                count -= m
        r[R_PRESTIGE + p] += 2 * count
        return False
    if k == TAKE_TABLET:
        if r[t + 1] > 0:
            for j in range(12):
                if r[R_ORACLE_SLOTS + j] >= 0:
                    return True
        r[R_SP] -= 1
        return False
    if k == BREW_POTION:
        if r[t + 1] > 0 and any_brewable(r, p):
            return True
        r[R_SP] -= 1
        return False
    if k == TAKE_GEM:
        if gem_choices(r, r[t + 1], p, None, None, 0) > 0:
            return True
        r[R_SP] -= 1
        return False
    if k == PLACE_STANDING_STONE:
        if r[R_STANDING + p] != (1 << 6) - 1:
            return True
        r[R_SP] -= 1
        return False
    if k == REPEAT_STONE_REWARD:
        return single_or_choose(r, r[t + 1])
    if k == PLACE_RUNE_STONE:
        if r[R_RUNES + p] != (1 << 6) - 1:
            return True
        r[R_SP] -= 1
        return False
    if k == REPEAT_FIRE_REWARD:
        return single_or_choose(r, pit_mask(r[t + 1]))
    if k == RAISE_DIE:
        if r[t + 1] > 0 and any_raisable(r, p):
            return True
        r[R_SP] -= 1
        return False
    if k == FLIP_HERB:
        if any_herb_in(r, p, INACTIVE):
            return True
        r[R_SP] -= 1
        return False
    # TAKE_HERB
    if r[t + 1] > 0 and any_herb_in(r, p, ON_BOARD):
        return True
    r[R_SP] -= 1
    return False


@njit(cache=True)
def work(r, k, a, b):
    """An automatic step (already popped)."""
    p = r[R_PLAYER]
    if k == COMPETITION:
        competition(r, a)
    elif k == SANCTUARY_ACTION:
        do_action(r, p, a, b)
    elif k == FIRE_PITS:
        close_fire_pits(r, p, a)
    elif k == DOLMENS:
        link_dolmens(r, p)
    elif k == RELEASED_HERBS:
        release_herbs(r, p)
    elif k == END_TURN:
        end_turn(r)
    else:                             # BEGIN_PLAY
        r[R_PLAYER] = r[R_START_PLAYER]
        begin_turn(r)


@njit(cache=True)
def advance(r):
    """Run automatic steps until a decision with a real choice is on top (or the game ends)."""
    while r[R_SP] > 0:
        t = top_at(r)
        k = r[t]
        if k >= 100:
            a = r[t + 1]
            b = r[t + 2]
            r[R_SP] -= 1
            work(r, k, a, b)
        elif settle(r, k, t):
            return


# ----- who acts, legal actions ---------------------------------------------------------------------
@njit(cache=True)
def current_player(r):
    if r[R_OVER]:
        return -1
    t = top_at(r)
    k = r[t]
    if k == CHOOSE_START or k == KEEP_TABLET:
        return r[t + 1]
    if k == ARRANGE_HERBS:
        for p in range(r[R_N]):
            if r[R_ARRANGED + p] < 12:
                return p
    return r[R_PLAYER]


@njit(cache=True)
def legal_turn(r, p, ids, out):
    n = r[R_N]
    base = R_RESERVE + 7 * p
    minv = 0
    for v in range(1, 7):
        if r[base + v]:
            minv = v
            break
    if not minv:
        out[0] = ids[I_EMERGENCY]
        return 1
    if herb_active(r, p, HERB_DIE):
        minv = max(1, minv - 2)
    budget = r[R_PROVISIONS + p] - minv
    c = 0
    if budget >= 1:
        cur = r[R_FIGURE + p]
        mask = 0 if r[R_REVISIT] else r[R_DIE_MASK + p]
        for d in range(NS):
            cost = DIST[cur, d]
            if cost <= budget and d != cur and not (mask >> d) & 1 and r[R_USED + d] < n:
                out[c] = ids[I_MOVE + d * MAXCOST + cost]
                c += 1
        if herb_active(r, p, HERB_LEAP):
            g = GLADE_OF[cur]
            for j in range(GLADE_N[g]):
                d = GLADE_MEMBERS[g, j]
                if d != cur and DIST[cur, d] > 1 and not (mask >> d) & 1 and r[R_USED + d] < n:
                    out[c] = ids[I_LEAP + d]
                    c += 1
    if r[R_FIGURE + p] >= 0:
        out[c] = ids[I_EMERGENCY]
        c += 1
    return c


@njit(cache=True)
def legal_place(r, p, ids, out):
    s = r[R_FIGURE + p]
    budget = r[R_PROVISIONS + p]
    base = R_RESERVE + 7 * p
    herb = herb_active(r, p, HERB_DIE)
    c = 0
    for i in range(r[R_N]):
        if r[R_OWNER + 4 * s + i] >= 0:
            continue
        for v in range(1, 7):
            if not r[base + v]:
                continue
            if herb:
                for w in range(max(1, v - 2), min(6, v + 2) + 1):
                    if w <= budget:
                        out[c] = ids[I_PLACE + ((s * 4 + i) * 7 + v) * 7 + w]
                        c += 1
            elif v <= budget:
                out[c] = ids[I_PLACE + ((s * 4 + i) * 7 + v) * 7 + v]
                c += 1
    return c


@njit(cache=True)
def legal_actions(r, ids, out):
    """The current player's legal action ids into ``out``, in the reference's order; returns
    how many."""
    if r[R_OVER]:
        return 0
    t = top_at(r)
    k = r[t]
    seat = current_player(r)
    n = r[R_N]
    c = 0
    if k == CHOOSE_START:
        for j in range(4):
            s = START_SANCT[j]
            taken = False
            for q in range(n):
                if r[R_START_AT + q] == s:
                    taken = True
            if not taken:
                out[c] = ids[I_START + j]
                c += 1
    elif k == KEEP_TABLET:
        for tb in range(15):
            for j in range(r[R_HAND_LEN]):
                if r[R_HAND + j] == tb:
                    out[c] = ids[I_KEEP + tb]
                    c += 1
                    break
    elif k == ARRANGE_HERBS:
        kk = r[R_ARRANGED + seat]
        for h in range(12):
            done = False
            for j in range(kk):
                if r[R_HERB_AT + 12 * seat + j] == h:
                    done = True
            if not done:
                out[c] = ids[I_ARRANGE + h * 12 + kk]
                c += 1
    elif k == MOVE:
        c = legal_turn(r, seat, ids, out)
    elif k == PLACE_DIE:
        c = legal_place(r, seat, ids, out)
    elif k == PROVISIONS_OR_DICE:
        out[0] = ids[I_FOOD]
        out[1] = ids[I_FOOD + 1]
        c = 2
    elif k == TAKE_DIE:
        for v in range(1, 7):
            if r[R_OVERVIEW + 7 * seat + v]:
                out[c] = ids[I_TAKE_DIE + v]
                c += 1
    elif k == TAKE_TABLET:
        for slot in range(12):
            tb = r[R_ORACLE_SLOTS + slot]
            if tb >= 0:
                out[c] = ids[I_TABLET + slot * 15 + tb]
                c += 1
    elif k == BREW_POTION:
        m = r[R_MISTLETOE + seat]
        for q in range(len(POTION_COST)):
            if r[R_POTION_OWNER + q] < 0 and POTION_COST[q] <= m:
                out[c] = ids[I_BREW + q]
                c += 1
        out[c] = ids[I_STOP]
        c += 1
    elif k == TAKE_GEM:
        c = gem_choices(r, r[t + 1], seat, ids, out, 0)
    elif k == PLACE_STANDING_STONE:
        mask = r[R_STANDING + seat]
        seen = 0
        for j in range(6):
            rw = STANDING_ROW[j]
            if not (mask >> j) & 1 and not (seen >> rw) & 1:
                seen |= 1 << rw
                out[c] = ids[I_STANDING + rw]
                c += 1
        if r[t + 1]:
            out[c] = ids[I_SKIP]
            c += 1
    elif k == REPEAT_STONE_REWARD or k == REPEAT_FIRE_REWARD:
        mask = r[t + 1] if k == REPEAT_STONE_REWARD else pit_mask(r[t + 1])
        for rw in range(6):
            if (mask >> rw) & 1:
                out[c] = ids[I_REPEAT + rw]
                c += 1
    elif k == PLACE_RUNE_STONE:
        mask = r[R_RUNES + seat]
        for j in range(6):
            if not (mask >> j) & 1:
                out[c] = ids[I_RUNE + RUNE_UNIT[j]]
                c += 1
        if r[t + 2]:
            out[c] = ids[I_SKIP + 1]
            c += 1
    elif k == RAISE_DIE:
        for s in range(NS):
            if not (r[R_DIE_MASK + seat] >> s) & 1:
                continue
            for i in range(n):
                if r[R_OWNER + 4 * s + i] == seat and r[R_VALUE + 4 * s + i] < 6:
                    out[c] = ids[I_RAISE + (s * 4 + i) * 7 + r[R_VALUE + 4 * s + i]]
                    c += 1
        if r[t + 2]:
            out[c] = ids[I_STOP + 1]
            c += 1
    elif k == FLIP_HERB or k == TAKE_HERB:
        wanted = INACTIVE if k == FLIP_HERB else ON_BOARD
        at = I_FLIP if k == FLIP_HERB else I_TAKE_HERB
        for h in range(12):
            if r[R_HERB_STATE + 12 * seat + h] == wanted:
                out[c] = ids[at + h]
                c += 1
    else:                            # ACTIVATE_HERB
        pair = r[t + 1]
        h1 = r[R_HERB_AT + 12 * seat + 2 * pair]
        h2 = r[R_HERB_AT + 12 * seat + 2 * pair + 1]
        out[0] = ids[I_ACTIVATE + h1 * 12 + h2]
        out[1] = ids[I_ACTIVATE + h2 * 12 + h1]
        c = 2
    return c


# ----- applying an action (decisions.APPLY) ---------------------------------------------------------
@njit(cache=True)
def count_down(r, t):
    """A decision taken several times: one fewer left, or off the stack."""
    if r[t + 1] > 1:
        r[t + 1] -= 1
    else:
        r[R_SP] -= 1


@njit(cache=True)
def apply_action(r, decode, action):
    seat = current_player(r)
    kind = decode[action, 0]
    a = decode[action, 1]
    b = decode[action, 2]
    t = top_at(r)
    if kind == K_START:
        r[R_SP] -= 1
        r[R_START_AT + seat] = b
    elif kind == K_KEEP:
        r[R_SP] -= 1
        hand = r[R_HAND_LEN]
        found = 0
        for j in range(hand):
            if r[R_HAND + j] == a:
                found = j
                break
        for j in range(found, hand - 1):
            r[R_HAND + j] = r[R_HAND + j + 1]
        hand -= 1
        r[R_TABLETS + DECK_SIZE * seat + r[R_NTABLETS + seat]] = a
        r[R_NTABLETS + seat] += 1
        for j in range(hand):              # each inserted at the bottom (index 0) in turn
            length = r[R_DECK_LEN]
            for q in range(length, 0, -1):
                r[R_DECK + q] = r[R_DECK + q - 1]
                r[R_MARKS + q] = r[R_MARKS + q - 1]
            r[R_DECK] = r[R_HAND + j]
            r[R_MARKS] = seat
            r[R_DECK_LEN] = length + 1
        r[R_HAND_LEN] = 0
    elif kind == K_ARRANGE:
        kk = r[R_ARRANGED + seat]
        r[R_HERB_AT + 12 * seat + kk] = a
        r[R_ARRANGED + seat] = kk + 1
    elif kind == K_MOVE or kind == K_LEAP:
        r[t] = PLACE_DIE
        r[t + 1] = 0
        r[t + 2] = 0
        r[R_PROVISIONS + seat] -= b if kind == K_MOVE else 1
        r[R_FIGURE + seat] = a
    elif kind == K_EMERGENCY:
        r[R_SP] -= 1
        r[R_PROVISIONS + seat] += 6
        take_dice(r, seat, 1)
    elif kind == K_PLACE:
        r[R_SP] -= 1
        place_die(r, seat, a, b, decode[action, 3], decode[action, 4])
    elif kind == K_FOOD:
        r[R_SP] -= 1
        if a == 0:
            provisions = 12
            if herb_active(r, seat, HERB_FOOD):
                provisions += 6
                vp3(r, seat, 1)
            r[R_PROVISIONS + seat] += provisions
        else:
            take_dice(r, seat, 3)
    elif kind == K_TAKE_DIE:
        count_down(r, t)
        r[R_OVERVIEW + 7 * seat + a] -= 1
        r[R_RESERVE + 7 * seat + a] += 1
    elif kind == K_TAKE_TABLET:
        count_down(r, t)
        take_tablet(r, seat, a)
    elif kind == K_BREW:
        count_down(r, t)
        r[R_MISTLETOE + seat] -= POTION_COST[a]
        r[R_POTION_OWNER + a] = seat
        brew(r, seat, a)
    elif kind == K_STOP or kind == K_SKIP:
        r[R_SP] -= 1
    elif kind == K_GEM:
        times = r[t + 2]
        r[R_SP] -= 1
        slot = R_AMULET + 6 * seat + 2 * a
        if r[slot] >= 0:
            slot += 1
        r[slot] = b
        r[R_GEM_MASK + seat] |= 1 << b
        r[R_GEMS_LEFT + b] -= 1
        gain(r, seat, b, times)
    elif kind == K_STANDING:
        r[R_SP] -= 1
        for k in range(6):
            if STANDING_ROW[k] == a and not (r[R_STANDING + seat] >> k) & 1:
                place_standing_stone(r, seat, k)
                break
    elif kind == K_RUNE:
        v = r[t + 1]
        r[R_SP] -= 1
        for k in range(6):
            if RUNE_UNIT[k] == a and not (r[R_RUNES + seat] >> k) & 1:
                place_rune_stone(r, seat, k, v)
                break
    elif kind == K_REPEAT:
        r[R_SP] -= 1
        gain(r, seat, a, 1)
    elif kind == K_RAISE:
        count_down(r, t)
        raise_die(r, a, b)
    elif kind == K_FLIP:
        r[R_SP] -= 1
        r[R_HERB_STATE + 12 * seat + a] = ACTIVE
    elif kind == K_TAKE_HERB:
        if r[t + 1] > 1:
            r[t + 1] -= 1
            r[t + 2] += 1
        else:
            r[R_SP] -= 1
        r[R_HERB_STATE + 12 * seat + a] = ACTIVE
    else:                                  # K_ACTIVATE
        r[R_SP] -= 1
        r[R_HERB_STATE + 12 * seat + a] = ACTIVE
        r[R_HERB_STATE + 12 * seat + b] = INACTIVE
    advance(r)


# ----- scoring (scoring.py) --------------------------------------------------------------------------
@njit(cache=True)
def tablet_met(r, p, t):
    mask = r[R_DIE_MASK + p]
    n = r[R_N]
    if t == 0:
        return popcount(r[R_STANDING + p]) >= 4
    if t == 1:
        c = 0
        for j in range(4):
            if (mask >> START_SANCT[j]) & 1:
                c += 1
        return c >= 3
    if t == 2:
        for li in range(NLINES):
            full = True
            for j in range(4):
                if not (mask >> LINES[li, j]) & 1:
                    full = False
            if full:
                return True
        return False
    if t == 3:
        vals = np.zeros(NS, dtype=np.int64)
        for s in range(NS):
            if (mask >> s) & 1:
                for i in range(n):
                    if r[R_OWNER + 4 * s + i] == p:
                        vals[s] |= 1 << r[R_VALUE + 4 * s + i]
        for s in range(NS):
            if not (mask >> s) & 1:
                continue
            for v in range(1, 7):
                if (vals[s] >> v) & 1:
                    c = 0
                    for j in range(NB_N[s]):
                        if (vals[NB[s, j]] >> v) & 1:
                            c += 1
                    if c >= 2:
                        return True
        return False
    if t == 4:
        return r[R_DOLMENS + p] + r[R_BEIGE + p] >= 5
    if t == 5:
        return popcount(r[R_RUNES + p]) >= 4
    if t == 6:
        return r[R_KNOWLEDGE + p] >= 6
    if t == 7:
        return r[R_NTABLETS + p] >= 4
    if t == 8:
        c = 0
        for h in range(12):
            if r[R_HERB_STATE + 12 * p + h] == ACTIVE:
                c += 1
        return c >= 6
    if t == 9:
        c = 0
        for g in range(NGLADES):
            if mask & GLADE_MASK[g] == GLADE_MASK[g]:
                c += 1
        return c >= 3
    if t == 10:
        return popcount(r[R_GEM_MASK + p]) >= 5
    if t == 11:
        glades = 0
        for s in range(NS):
            if (mask >> s) & 1:
                glades |= 1 << GLADE_OF[s]
        return popcount(glades) >= 6
    if t == 12:
        c = 0
        for s in range(NS):
            if (mask >> s) & 1 and PORTAL[GLADE_OF[s]]:
                c += 1
        return c >= 4
    if t == 13:
        c = 0
        for k in range(len(POTION_COST)):
            if r[R_POTION_OWNER + k] == p:
                c += 1
        return c >= 4
    c = 0
    for s in range(NS):
        if not (mask >> s) & 1 or r[R_USED + s] < 2:
            continue
        if highest_die(r, s) == p:
            other = False
            for i in range(n):
                o = r[R_OWNER + 4 * s + i]
                if o != -1 and o != p:
                    other = True
            if other:
                c += 1
    return c >= 5


@njit(cache=True)
def amulet_points(r, p):
    rows = 0
    left = True
    for row in range(3):
        a = r[R_AMULET + 6 * p + 2 * row]
        b = r[R_AMULET + 6 * p + 2 * row + 1]
        if a >= 0 and b >= 0:
            rows += 1
        if a < 0:
            left = False
    return 10 * rows + (20 if left else 0)


@njit(cache=True)
def sanctuary_collections(r, collected):
    for p in range(MAXP):
        collected[p] = 0
    for s in range(NS):
        if r[R_USED + s]:
            collected[highest_die(r, s)] += 1 + r[R_STANDING_AT + s] + r[R_RUNE_AT + s]


@njit(cache=True)
def final_scoring(r):
    collected = np.zeros(MAXP, dtype=np.int64)
    sanctuary_collections(r, collected)
    for p in range(r[R_N]):
        dice = 0
        for v in range(1, 7):
            dice += r[R_RESERVE + 7 * p + v]
        leftovers = r[R_PROVISIONS + p] // 6 + r[R_MISTLETOE + p] + dice
        met = 0
        for j in range(r[R_NTABLETS + p]):
            if tablet_met(r, p, r[R_TABLETS + DECK_SIZE * p + j]):
                met += 1
        r[R_TOTAL + p] = (r[R_PRESTIGE + p] + leftovers + S_SCORE[r[R_SICKLE + p]] + 10 * met
                          + amulet_points(r, p) + collected[p] * K_MULT[r[R_KNOWLEDGE + p]])


@njit(cache=True)
def outcome(r, scores, winners, returns):
    """state.scores(), winners() and returns() (ranking: score, then behind on knowledge,
    then lower in the stack)."""
    n = r[R_N]
    over = r[R_OVER] != 0
    for p in range(n):
        scores[p] = r[R_TOTAL + p] if over else r[R_PRESTIGE + p]
        winners[p] = False
        returns[p] = 0.0
    if not over:
        return
    best = 0
    for p in range(1, n):
        if better(r, p, best):
            best = p
    count = 0
    for p in range(n):
        if not better(r, best, p):
            winners[p] = True
            count += 1
    for p in range(n):
        if winners[p]:
            returns[p] = 1.0 / count


@njit(cache=True)
def better(r, p, q):
    """Whether p's ranking key is greater than q's."""
    if r[R_TOTAL + p] != r[R_TOTAL + q]:
        return r[R_TOTAL + p] > r[R_TOTAL + q]
    if r[R_KNOWLEDGE + p] != r[R_KNOWLEDGE + q]:
        return r[R_KNOWLEDGE + p] < r[R_KNOWLEDGE + q]
    return r[R_KSTACK + p] < r[R_KSTACK + q]


# ----- observation (encoding.py: the reference encoder of a seat's view) ----------------------------
OBS_SLICES = ("acting", "scores", "round", "options", "start_player", "game_state", "decision", "players",
              "figures", "start_spaces", "dice", "stones_at", "fire_pits", "dolmen_ring", "dolmen_owner",
              "oracle_stones", "oracle_slots", "deck", "deck_known", "draft_hand", "gems_left", "potions_left")
(O_ACTING, O_SCORES, O_ROUND, O_OPTIONS, O_START_PLAYER, O_GAME_STATE, O_DECISION, O_PLAYERS, O_FIGURES,
 O_STARTS, O_DICE, O_STONES, O_PITS, O_RING, O_DOLMEN_OWNER, O_ORACLE_STONES, O_ORACLE_SLOTS, O_DECK,
 O_DECK_KNOWN, O_DRAFT, O_GEMS, O_POTIONS) = range(len(OBS_SLICES))
N_STEPS = 18 + 7                      # encoding._STEPS: the decisions, then the automatic steps
PF = _PF
P_RESERVE = _PLAYER_OFFSETS["reserve"]
P_OVERVIEW = _PLAYER_OFFSETS["overview"]
P_STANDING = _PLAYER_OFFSETS["standing_stones"]
P_RUNES = _PLAYER_OFFSETS["rune_stones"]
P_AMULET = _PLAYER_OFFSETS["amulet"]
P_TABLETS = _PLAYER_OFFSETS["tablets"]
P_POTIONS = _PLAYER_OFFSETS["potions"]
P_HERB_STATE = _PLAYER_OFFSETS["herb_state"]
P_HERBS = _PLAYER_OFFSETS["herbs"]


@njit(cache=True)
def observe_one(r, me, O, out):
    """``encode(state.view(me))`` into ``out`` (float32); ``me`` -1 is the spectator (seen
    from seat 0, every secret hidden)."""
    out[:] = 0.0
    spectator = me < 0
    if spectator:
        me = 0
    n = r[R_N]
    over = r[R_OVER] != 0
    # head: who acts, the options, the table's state, the decision on top
    if not over:
        t = top_at(r)
        if r[t] == ARRANGE_HERBS:
            for p in range(n):
                if r[R_ARRANGED + p] < 12:
                    out[O[O_ACTING] + (p - me) % n] = 1.0
        else:
            out[O[O_ACTING] + (current_player(r) - me) % n] = 1.0
    flags = (r[R_REVISIT], r[R_DRAFT], r[R_SHARED_HERBS], r[R_ARRANGED_HERBS], r[R_SHARED_DICE], r[R_VALVE],
             r[R_SUMMARY])
    for k in range(7):
        if flags[k]:
            out[O[O_OPTIONS] + k] = 1.0
    out[O[O_START_PLAYER] + (r[R_START_PLAYER] - me) % n] = 1.0
    g = O[O_GAME_STATE]
    if r[R_ENDING]:
        out[g] = 1.0
    if r[R_DIE_ROUND]:
        out[g + 2] = 1.0
    if over:
        out[g + 5] = 1.0
    out[O[O_ROUND]] = r[R_ROUND] / 40
    out[g + 1] = r[R_QUIET] / 3
    out[g + 3] = r[R_LINKS] / 6
    out[g + 4] = r[R_CLOSURES] / NPITS
    d = O[O_DECISION]
    numbers = d + N_STEPS + n
    if r[R_SP] > 0:
        t = top_at(r)
        kind = r[t]
        a = r[t + 1]
        b = r[t + 2]
        out[d + (kind if kind < 100 else 18 + kind - 100)] = 1.0
        if 0 <= a < n and (kind == 0 or kind == 1):
            out[d + N_STEPS + (a - me) % n] = 1.0
        out[numbers] = a / 12
        out[numbers + 1] = b / 12
        out[numbers + 2] = r[R_SP] / 10
    for p in range(n):
        score = r[R_TOTAL + p] if over else r[R_PRESTIGE + p]
        out[O[O_SCORES] + (p - me) % n] = 0.01 * score
    out[O[O_DECK]] = r[R_DECK_LEN] / 30
    out[O[O_DECK] + 1] = r[R_HAND_LEN] / 3
    for j in range(r[R_DECK_LEN]):
        if r[R_MARKS + j] == me and not spectator:
            out[O[O_DECK_KNOWN] + r[R_DECK + j]] += 0.5
    if r[R_SP] > 0 and r[top_at(r)] == KEEP_TABLET and r[top_at(r) + 1] == me and not spectator:
        for j in range(r[R_HAND_LEN]):
            out[O[O_DRAFT] + r[R_HAND + j]] += 0.5
    # the boards
    hiding = arranging_any(r)
    for p in range(n):
        k = (p - me) % n
        base = O[O_PLAYERS] + k * PF
        out[base] = r[R_PROVISIONS + p] * (1.0 / 30.0)
        out[base + 1] = r[R_MISTLETOE + p] * (1.0 / 10.0)
        out[base + 2] = r[R_PRESTIGE + p] * (1.0 / 100.0)
        out[base + 3] = r[R_KNOWLEDGE + p] * (1.0 / 14.0)
        out[base + 4] = r[R_SICKLE + p] * (1.0 / 18.0)
        out[base + 5] = r[R_PLACED + p] * (1.0 / 13.0)
        out[base + 6] = r[R_PAIRS + p] * (1.0 / 6.0)
        out[base + 7] = r[R_ARRANGED + p] * (1.0 / 12.0)
        out[base + 8] = r[R_DOLMENS + p] * (1.0 / 6.0)
        out[base + 9] = r[R_BEIGE + p] * (1.0 / 3.0)
        out[base + 10] = r[R_KSTACK + p] / max(1, r[R_KCOUNTER])
        for v in range(1, 7):
            c = r[R_RESERVE + 7 * p + v]
            if c:
                out[base + P_RESERVE + v - 1] = 0.25 * c
            c = r[R_OVERVIEW + 7 * p + v]
            if c:
                out[base + P_OVERVIEW + v - 1] = (1 / 9) * c
        for j in range(6):
            if (r[R_STANDING + p] >> j) & 1:
                out[base + P_STANDING + STANDING_ROW[j]] = 1.0
            if (r[R_RUNES + p] >> j) & 1:
                out[base + P_RUNES + RUNE_UNIT[j]] = 1.0
            gem = r[R_AMULET + 6 * p + j]
            out[base + P_AMULET + 7 * j + (gem if gem >= 0 else 6)] = 1.0
        for q in range(len(POTION_COST)):
            if r[R_POTION_OWNER + q] == p:
                out[base + P_POTIONS + q] = 1.0
        for j in range(r[R_NTABLETS + p]):
            out[base + P_TABLETS + r[R_TABLETS + DECK_SIZE * p + j]] += 0.5
        for h in range(12):
            out[base + P_HERB_STATE + 3 * h + r[R_HERB_STATE + 12 * p + h]] = 1.0
            herb = r[R_HERB_AT + 12 * p + h]
            if herb < 0 or (hiding and (p != me or spectator)):
                herb = 12
            out[base + P_HERBS + 13 * h + herb] = 1.0
        if r[R_FIGURE + p] >= 0:
            out[O[O_FIGURES] + k * NS + r[R_FIGURE + p]] = 1.0
        if r[R_START_AT + p] >= 0:
            out[O[O_STARTS] + k * NS + r[R_START_AT + p]] = 1.0
    # the sanctuaries (every space of the designed board's sanctuaries is used: min(4, n) = n)
    for s in range(NS):
        for i in range(n):
            o = r[R_OWNER + 4 * s + i]
            if o >= 0:
                at = O[O_DICE] + (n + 1) * (s * n + i)
                out[at + (o - me) % n] = 1.0
                out[at + n] = r[R_VALUE + 4 * s + i] / 6
        if r[R_STANDING_AT + s]:
            out[O[O_STONES] + 2 * s] = r[R_STANDING_AT + s] / 3
        if r[R_RUNE_AT + s]:
            out[O[O_STONES] + 2 * s + 1] = r[R_RUNE_AT + s] / 3
    # the table
    for j in range(NPITS):
        c = r[R_PIT + j]
        out[O[O_PITS] + (n + 1) * j + ((c - me) % n if c >= 0 else n)] = 1.0
    for j in range(NRING):
        out[O[O_RING] + 6 * j + r[R_RING + j]] = 1.0
    for c in range(NCOL):
        o = r[R_DOLMEN_OWNER + c]
        out[O[O_DOLMEN_OWNER] + (n + 1) * c + ((o - me) % n if o >= 0 else n)] = 1.0
    for j in range(6):
        out[O[O_ORACLE_STONES] + 6 * j + r[R_ORACLE_STONES + j]] = 1.0
    for j in range(12):
        tb = r[R_ORACLE_SLOTS + j]
        out[O[O_ORACLE_SLOTS] + 16 * j + (tb if tb >= 0 else 15)] = 1.0
    for q in range(len(POTION_COST)):
        if r[R_POTION_OWNER + q] < 0:
            out[O[O_POTIONS] + q] = 1.0
    for gm in range(6):
        out[O[O_GEMS] + gm] = 0.25 * r[R_GEMS_LEFT + gm]


# ----- the heuristic playout policy (heuristic.py: EdoraHeuristic.choose_in_state) -----------------
# The same float operations in the same order as the reference, so the values, and so the
# choices, are equal to the last bit.
HERB_VALUE = np.array([_H.HERB_VALUE[h] for h in range(12)], dtype=np.float64)
REWARD_VALUE = np.array([_H.REWARD_VALUE[r] for r in range(6)], dtype=np.float64)
POTION_VALUE = np.array([_H.POTION_VALUE.get(name, 3) for name in POTIONS], dtype=np.float64)
RUNE_VALUE = np.array([{"PRESTIGE_POINT": 6, "PROVISION": 5, "KNOW": 5, "DIE": 4, "SICKLE_STEP": 3, "MIST": 3}[u]
                       for u in RUNE_UNITS], dtype=np.float64)     # _quick_key's RuneStone values
OPPONENT_SHARE = _H.OPPONENT_SHARE
TEMPERATURE = _H.TEMPERATURE
QUICK_STEPS = 40                      # _quick_complete's bound
# sum() of floats is Neumaier-compensated from Python 3.12 on: mirrored where the heuristic sums
COMPENSATED_SUM = sys.version_info >= (3, 12)


@njit(cache=True)
def copy_row(src, dst):
    """``dst[:] = src`` (a loop: slice assignment is slow to compile)."""
    for j in range(ROW):
        dst[j] = src[j]


@njit(cache=True)
def reward_value(r, p, reward):
    if reward == VP and herb_active(r, p, HERB_VP):
        return 5.0
    return REWARD_VALUE[reward]


@njit(cache=True)
def quick_key(r, p, decode, action):
    """heuristic._quick_key."""
    kind = decode[action, 0]
    a = decode[action, 1]
    b = decode[action, 2]
    if kind == K_FOOD:
        ov = 0
        for v in range(1, 7):
            ov += r[R_OVERVIEW + 7 * p + v]
        m = min(ov, 3)
        if a == 1:
            return m * 3.0 + (3 - m) * 2.0
        worth = 12 * (0.5 if r[R_PROVISIONS + p] < 15 else 0.25)
        return worth + (9 if herb_active(r, p, HERB_FOOD) else 0)
    if kind == K_TAKE_DIE:
        return float(a) if r[R_PROVISIONS + p] > 12 else -abs(a - 3.5)
    if kind == K_BREW:
        return POTION_VALUE[a]
    if kind == K_STOP:
        return 0.0
    if kind == K_SKIP:
        return -1.0
    if kind == K_GEM:
        return reward_value(r, p, b) + (1 if a == 0 else 0)
    if kind == K_STANDING or kind == K_REPEAT:
        return reward_value(r, p, a)
    if kind == K_RUNE:
        return RUNE_VALUE[a]
    if kind == K_FLIP or kind == K_TAKE_HERB or kind == K_ACTIVATE:
        return HERB_VALUE[a]
    if kind == K_TAKE_TABLET:
        side = a // 2
        v = REWARD_VALUE[r[R_ORACLE_STONES + side]] + REWARD_VALUE[r[R_ORACLE_STONES + (side + 1) % 6]]
        return v + (8 if tablet_met(r, p, b) else 0)
    if kind == K_RAISE:
        return float(6 - decode[action, 3])
    return 0.0


@njit(cache=True)
def quick_best(r, p, decode, legal, count):
    """``max(legal, key=_quick_key)``: the first action of the highest key."""
    best = legal[0]
    best_key = quick_key(r, p, decode, best)
    for j in range(1, count):
        key = quick_key(r, p, decode, legal[j])
        if key > best_key:
            best, best_key = legal[j], key
    return best


@njit(cache=True)
def quick_complete(r, seat, ids, decode, buf):
    """heuristic._quick_complete: the rest of seat's turn by the quick rules."""
    for _ in range(QUICK_STEPS):
        if r[R_OVER] or current_player(r) != seat:
            return
        k = r[top_at(r)]
        if k == MOVE or k == PLACE_DIE:
            return
        c = legal_actions(r, ids, buf)
        apply_action(r, decode, quick_best(r, seat, decode, buf, c))


@njit(cache=True)
def sum_add(total, comp, x):
    """One term of Python's ``sum`` of floats: the new (total, compensation)."""
    t = total + x
    if COMPENSATED_SUM:
        if abs(total) >= abs(x):
            comp += (total - t) + x
        else:
            comp += (x - t) + total
    return t, comp


@njit(cache=True)
def sum_end(total, comp):
    """Python's ``sum`` of floats after its last term."""
    if COMPENSATED_SUM and comp != 0.0 and np.isfinite(comp):
        return total + comp
    return total


@njit(cache=True)
def herb_sum(r, p):
    """``sum(HERB_VALUE[h] * 0.6 for h in range(12) if p's herb h is active)`` as Python adds it."""
    total = 0.0
    comp = 0.0
    for h in range(12):
        if r[R_HERB_STATE + 12 * p + h] == ACTIVE:
            total, comp = sum_add(total, comp, HERB_VALUE[h] * 0.6)
    return sum_end(total, comp)


@njit(cache=True)
def estimates(r, out, collected):
    """heuristic.estimates into ``out``."""
    n = r[R_N]
    most = 0
    for p in range(n):
        most = max(most, r[R_PLACED + p])
    progress = min(1.0, most / 13.0)
    late = progress * progress
    w_provisions = 0.45 * (1 - late) + late / 6
    w_mistletoe = 1.4 * (1 - late) + late
    w_reserve = 3.5 * (1 - late) + late
    w_overview = 2.0 * (1 - late)
    sanctuary_collections(r, collected)
    for p in range(n):
        e = float(r[R_PRESTIGE + p])
        knowledge = r[R_KNOWLEDGE + p]
        e += collected[p] * K_MULT[knowledge] + (1 - late) * 1.2 * knowledge
        sickle = r[R_SICKLE + p]
        e += S_SCORE[sickle] + 0.6 * (1 - late) * sickle
        e += (1 - late) * herb_sum(r, p)
        for j in range(r[R_NTABLETS + p]):
            if tablet_met(r, p, r[R_TABLETS + DECK_SIZE * p + j]):
                e += 10
            else:
                e += 2.5 * (1 - late)
        e += amulet_points(r, p) + 2.0 * popcount(r[R_GEM_MASK + p])
        e += w_provisions * min(r[R_PROVISIONS + p], 30) + w_mistletoe * r[R_MISTLETOE + p]
        reserve = 0
        overview = 0
        for v in range(1, 7):
            reserve += r[R_RESERVE + 7 * p + v]
            overview += r[R_OVERVIEW + 7 * p + v]
        e += w_reserve * reserve + w_overview * overview
        out[p] = e


@njit(cache=True)
def objective(r, seat, values, collected):
    """heuristic._objective: seat's (estimated) score against a share of the best other's."""
    n = r[R_N]
    if r[R_OVER]:
        for p in range(n):
            values[p] = float(r[R_TOTAL + p])
    else:
        estimates(r, values, collected)
    other = -np.inf
    for q in range(n):
        if q != seat and values[q] > other:
            other = values[q]
    return values[seat] - OPPONENT_SHARE * other


@njit(cache=True)
def value_after(base, seat, action, ids, decode, work, bufs, values, collected):
    """heuristic._value_after on a copy of ``base`` (``work``: two rows; ``bufs``: two
    legal-action buffers). A move is worth its best die placement; a die placement never
    leaves seat to place another in the same turn, so the lookahead is two deep at most."""
    c = work[0]
    copy_row(base, c)
    apply_action(c, decode, action)
    if not c[R_OVER] and current_player(c) == seat and c[top_at(c)] == PLACE_DIE:
        count = legal_actions(c, ids, bufs[0])
        best = -np.inf
        for j in range(count):
            d = work[1]
            copy_row(c, d)
            apply_action(d, decode, bufs[0, j])
            quick_complete(d, seat, ids, decode, bufs[1])
            v = objective(d, seat, values, collected)
            if v > best or j == 0:
                best = v
        return best
    quick_complete(c, seat, ids, decode, bufs[1])
    return objective(c, seat, values, collected)


@njit(cache=True)
def seen_by(r, seat, out):
    """heuristic.seen_by: ``r`` copied into ``out`` with what seat cannot see laid out in a
    fixed order (the unseen tablets sorted into the deck positions seat does not know, then
    into a hidden draft hand; other seats' face-down herbs while V3 arranging lasts)."""
    copy_row(r, out)
    length = out[R_DECK_LEN]
    unknown = np.empty(DECK_SIZE, dtype=np.int64)
    cards = np.empty(DECK_SIZE + 3, dtype=np.int64)
    nu = 0
    for k in range(length):
        if out[R_MARKS + k] != seat:
            unknown[nu] = k
            cards[nu] = out[R_DECK + k]
            nu += 1
    hand_seen = out[R_SP] > 0 and out[top_at(out)] == KEEP_TABLET and out[top_at(out) + 1] == seat
    nc = nu
    if not hand_seen:
        for j in range(out[R_HAND_LEN]):
            cards[nc] = out[R_HAND + j]
            nc += 1
    for j in range(1, nc):                 # sorted (insertion: a few dozen cards)
        x = cards[j]
        q = j
        while q > 0 and cards[q - 1] > x:
            cards[q] = cards[q - 1]
            q -= 1
        cards[q] = x
    for j in range(nu):
        out[R_DECK + unknown[j]] = cards[j]
    if not hand_seen:
        for j in range(nu, nc):
            out[R_HAND + j - nu] = cards[j]
    if arranging_any(out):
        for p in range(out[R_N]):
            if p != seat:
                k = out[R_ARRANGED + p]
                for h in range(12):
                    out[R_HERB_AT + 12 * p + h] = h if h < k else -1


@njit(cache=True)
def heuristic_choice(r, ids, decode, seat, legal, count, rng, scratch, bufs):
    """EdoraHeuristic.choose_in_state for ``seat`` (the player to act) among ``legal[:count]``
    (the reference's order), drawing from ``rng`` as it does: one ``random()`` per action
    looked at (``scratch``: three rows; ``bufs``: two legal-action buffers)."""
    if count == 1:
        return legal[0]
    top = r[top_at(r)]
    if top != MOVE and top != PLACE_DIE and top != PROVISIONS_OR_DICE and top != BREW_POTION and count > 8:
        return quick_best(r, seat, decode, legal, count)
    seen = scratch[0]
    seen_by(r, seat, seen)
    values = np.empty(MAXP, dtype=np.float64)
    collected = np.empty(MAXP, dtype=np.int64)
    best = legal[0]
    best_value = -np.inf
    for j in range(count):
        v = value_after(seen, seat, legal[j], ids, decode, scratch[1:], bufs, values, collected)
        v = v + mt.random(rng) * 1e-6
        if v > best_value:
            best, best_value = legal[j], v
    return best


# ----- batch entry points ----------------------------------------------------------------------------
LEGAL_MAX = 256


@njit(cache=True)
def deal_batch(rows, rngs, seeds, slots, opts):
    for j in range(len(slots)):
        setup(rows[slots[j]], rngs[slots[j]], seeds[j], opts)


@njit(cache=True)
def step_batch(rows, decode, actions):
    for i in range(rows.shape[0]):
        if not rows[i, R_OVER] and actions[i] >= 0:
            apply_action(rows[i], decode, actions[i])


@njit(cache=True)
def mask_batch(rows, ids, out):
    buf = np.empty(LEGAL_MAX, dtype=np.int64)
    out[:, :] = False
    for i in range(rows.shape[0]):
        c = legal_actions(rows[i], ids, buf)
        for j in range(c):
            out[i, buf[j]] = True


@njit(cache=True)
def current_batch(rows, out):
    for i in range(rows.shape[0]):
        out[i] = current_player(rows[i])


@njit(cache=True)
def outcome_batch(rows, scores, winners, returns):
    for i in range(rows.shape[0]):
        outcome(rows[i], scores[i], winners[i], returns[i])


@njit(cache=True)
def observe_batch(rows, seats, O, out):
    for i in range(rows.shape[0]):
        observe_one(rows[i], seats[i], O, out[i])


@njit(cache=True)
def playout_batch(rows, ids, decode, policies, streams, max_steps, stop_round, counts):
    """Kernel.playout: slot i played on by ``policies[i, seat]`` until its end, ``max_steps``
    actions, an EXTERNAL seat to act or ``stop_round[i]`` (>= 0) reached by its round."""
    buf = np.empty(LEGAL_MAX, dtype=np.int64)
    scratch = np.empty((3, ROW), dtype=np.int64)
    bufs = np.empty((2, LEGAL_MAX), dtype=np.int64)
    for i in range(rows.shape[0]):
        r = rows[i]
        stop = stop_round[i]
        steps = 0
        choices = 0
        while not r[R_OVER] and (max_steps < 0 or steps < max_steps):
            if stop >= 0 and r[R_ROUND] >= stop:
                break
            seat = current_player(r)
            policy = policies[i, seat]
            if policy == EXTERNAL:
                break
            c = legal_actions(r, ids, buf)
            if policy == RANDOM:
                a = buf[mt.randbelow(streams[i, seat], c)]
            else:
                a = heuristic_choice(r, ids, decode, seat, buf, c, streams[i, seat], scratch, bufs)
            if c > 1:
                choices += 1
            apply_action(r, decode, a)
            steps += 1
        counts[i, 0] = steps
        counts[i, 1] = choices


@njit(cache=True)
def evaluate_batch(rows, out):
    """EdoraHeuristic.evaluate of every slot: ``state.returns()`` once ended, else the
    softmax of the estimates (temperature ``TEMPERATURE``), summed as Python's ``sum``."""
    values = np.empty(MAXP, dtype=np.float64)
    collected = np.empty(MAXP, dtype=np.int64)
    scores = np.empty(MAXP, dtype=np.float64)
    winners = np.empty(MAXP, dtype=np.bool_)
    for i in range(rows.shape[0]):
        r = rows[i]
        n = r[R_N]
        if r[R_OVER]:
            outcome(r, scores, winners, out[i])
            continue
        estimates(r, values, collected)
        top = values[0]
        for p in range(1, n):
            if values[p] > top:
                top = values[p]
        total = 0.0
        comp = 0.0
        for p in range(n):
            values[p] = np.exp((values[p] - top) / TEMPERATURE)
            total, comp = sum_add(total, comp, values[p])
        total = sum_end(total, comp)
        for p in range(n):
            out[i, p] = values[p] / total


@njit(cache=True)
def heuristic_batch(rows, ids, decode, streams, out):
    """The heuristic's action for each slot's player to act (-1 once ended), seat ``s`` of
    slot ``i`` drawing from ``streams[i, s]``."""
    buf = np.empty(LEGAL_MAX, dtype=np.int64)
    scratch = np.empty((3, ROW), dtype=np.int64)
    bufs = np.empty((2, LEGAL_MAX), dtype=np.int64)
    for i in range(rows.shape[0]):
        r = rows[i]
        if r[R_OVER]:
            out[i] = -1
            continue
        c = legal_actions(r, ids, buf)
        seat = current_player(r)
        out[i] = heuristic_choice(r, ids, decode, seat, buf, c, streams[i, seat], scratch, bufs)


# ----- the kernel class ------------------------------------------------------------------------------
SUPPORTED = {
    "players": lambda v: v in (2, 3, 4),
    "revisit_sanctuaries": lambda v: isinstance(v, bool),
    "fire_pit_scoring": lambda v: v in ("rulebook", "summary"),
    "tablet_draft": lambda v: isinstance(v, bool),
    "shared_herbs": lambda v: isinstance(v, bool),
    "arranged_herbs": lambda v: isinstance(v, bool),
    "shared_dice": lambda v: isinstance(v, bool),
    "safety_valve": lambda v: isinstance(v, bool),
}
_LIST_ROWS = (("provisions", R_PROVISIONS), ("mistletoe", R_MISTLETOE), ("prestige", R_PRESTIGE),
              ("knowledge", R_KNOWLEDGE), ("knowledge_stack", R_KSTACK), ("sickle", R_SICKLE),
              ("figure", R_FIGURE), ("start_at", R_START_AT), ("placed", R_PLACED), ("die_mask", R_DIE_MASK),
              ("standing", R_STANDING), ("runes", R_RUNES), ("pairs_released", R_PAIRS),
              ("arranged", R_ARRANGED), ("gem_mask", R_GEM_MASK), ("dolmens", R_DOLMENS),
              ("beige_dolmens", R_BEIGE))
_SCALAR_ROWS = (("player", R_PLAYER), ("start_player", R_START_PLAYER), ("round", R_ROUND),
                ("ending", R_ENDING), ("over", R_OVER), ("quiet_rounds", R_QUIET),
                ("die_this_round", R_DIE_ROUND), ("knowledge_counter", R_KCOUNTER), ("links", R_LINKS),
                ("closures", R_CLOSURES))
_BOOL_FIELDS = {"ending", "over", "die_this_round"}
_COLOUR_INDEX = {c: k for k, c in enumerate(DOLMEN_COLOURS)}


def _load_writers(n: int) -> list[tuple[str, Any]]:
    """What :meth:`EdoraKernel.load` writes: for each state attribute, a function
    ``write(row, value, old)`` writing ``value`` into the part of the row it owns, where
    ``old`` was written before (``_NOTHING``: the part is still zero), and returning a copy of
    ``value`` to compare the next state's with. A part of variable length is written with its
    count, and the tail ``old`` left beyond it zeroed."""
    def scalar(at):
        def write(t, v, old):
            t[at] = v
            return v
        return write

    def fixed(at):
        def write(t, v, old):
            t[at:at + len(v)] = v
            return v[:]
        return write

    def padded(at, length_at):
        def write(t, v, old):
            k = len(v)
            t[at:at + k] = v
            if old is not _NOTHING and len(old) > k:
                t[at + k:at + len(old)] = 0
            if length_at >= 0:
                t[length_at] = k
            return v[:]
        return write

    def stack(t, v, old):
        k = len(v)
        t[R_STACK:R_STACK + 3 * k] = list(chain.from_iterable(v))
        if old is not _NOTHING and len(old) > k:
            t[R_STACK + 3 * k:R_STACK + 3 * len(old)] = 0
        t[R_SP] = k
        return v[:]

    def tablets(t, v, old):
        for p, held in enumerate(v):
            before = [] if old is _NOTHING else old[p]
            if held != before:
                at, k = R_TABLETS + DECK_SIZE * p, len(held)
                t[at:at + k] = held
                if len(before) > k:
                    t[at + k:at + len(before)] = 0
                t[R_NTABLETS + p] = k
        return [held[:] for held in v]

    def ring(t, v, old):
        t[R_RING:R_RING + NRING] = [_COLOUR_INDEX[c] for c in v]
        return v[:]

    def ends(t, v, old):
        t[R_COLOUR_ENDS:R_COLOUR_ENDS + 2 * NCOL] = list(chain.from_iterable(v))
        return v[:]

    def final(t, v, old):
        t[R_TOTAL:R_TOTAL + n] = 0 if v is None else [f["total"] for f in v]
        return None if v is None else [dict(f) for f in v]

    return [*((name, scalar(at)) for name, at in _SCALAR_ROWS), ("stack", stack),
            *((name, fixed(at)) for name, at in _LIST_ROWS), ("tablets", tablets),
            ("reserve", fixed(R_RESERVE)), ("overview", fixed(R_OVERVIEW)), ("herb_at", fixed(R_HERB_AT)),
            ("herb_state", fixed(R_HERB_STATE)), ("amulet", fixed(R_AMULET)), ("owner", fixed(R_OWNER)),
            ("value", fixed(R_VALUE)), ("used", fixed(R_USED)), ("standing_at", fixed(R_STANDING_AT)),
            ("rune_at", fixed(R_RUNE_AT)), ("pit_closed", fixed(R_PIT)), ("ring_colours", ring),
            ("colour_ends", ends), ("dolmen_owner", fixed(R_DOLMEN_OWNER)),
            ("oracle_stones", fixed(R_ORACLE_STONES)), ("oracle_slots", fixed(R_ORACLE_SLOTS)),
            ("deck", padded(R_DECK, R_DECK_LEN)), ("deck_marks", padded(R_MARKS, -1)),
            ("draft_hand", padded(R_HAND, R_HAND_LEN)), ("gems_left", fixed(R_GEMS_LEFT)),
            ("potion_owner", fixed(R_POTION_OWNER)), ("final", final)]


class EdoraKernel(Kernel):
    """B games of Edora with one set of options (every option but another ``board``)."""

    game = "edora"
    options: EdoraOptions

    def __init__(self, options: Any, batch: int):
        from . import SPEC
        if not isinstance(options, SPEC.options_cls):
            options = SPEC.options(**dict(options))
        defaults = SPEC.options_cls(players=options.players)
        changed = {name: getattr(options, name) for name in options.to_json()
                   if getattr(options, name) != getattr(defaults, name)}
        changed["players"] = options.players
        check_options(self.game, changed, SUPPORTED)
        self.options = options
        self.batch = batch
        self.players = n = options.players
        self.opts = np.array([n, options.revisit_sanctuaries, options.fire_pit_scoring == "summary",
                              options.tablet_draft, options.shared_herbs, options.arranged_herbs,
                              options.shared_dice, options.safety_valve], dtype=np.int64)
        self.encoding = SPEC.encoding(options)
        self.actions = self.encoding.actions
        self.num_actions = len(self.actions)
        self.decode, self.ids = action_tables(self.actions.actions)
        self.observation_size = self.encoding.observation_size
        layout = self.encoding.layout
        self.obs_at = np.array([layout[name].offset for name in OBS_SLICES], dtype=np.int64)
        self.rows = np.zeros((batch, ROW), dtype=np.int64)
        self.rows[:, :len(self.opts)] = self.opts   # a slot never dealt: an ended game of these options
        self.rows[:, R_OVER] = 1
        self._streams = mt.new_streams(batch)
        self._pending: dict[int, tuple[int, ...]] = {}   # slot: the words of a loaded stream, not yet copied
        self.seeds: list[int | None] = [None] * batch
        self._legal = np.empty(LEGAL_MAX, dtype=np.int64)
        # load: the row of the last state loaded, and what it was built from (see load)
        writers = _load_writers(n)
        self._get_fields = operator.attrgetter(*(name for name, _ in writers))
        self._writers = [write for _, write in writers]
        self._template = np.zeros(ROW, dtype=np.int64)
        self._template[:len(self.opts)] = self.opts
        self._loaded: list[Any] = [_NOTHING] * len(writers)
        compile_notice(self.game, self._warm)

    @property
    def streams(self) -> np.ndarray:
        """(B, mt.STREAM_WORDS) uint32: each slot's random stream (only the deal draws from it)."""
        if self._pending:
            for slot, words in self._pending.items():
                self._streams[slot] = np.frombuffer(array.array("I", words), dtype=np.uint32)
            self._pending.clear()
        return self._streams

    @streams.setter
    def streams(self, value: np.ndarray) -> None:
        self._streams = value
        self._pending = {}

    def _warm(self) -> None:
        """Every compiled function once, on a one-game batch."""
        twin = EdoraKernel.__new__(EdoraKernel)
        twin.__dict__.update(self.__dict__)
        twin.batch = 1
        twin.rows = np.zeros((1, ROW), dtype=np.int64)
        twin.streams = mt.new_streams(1)
        twin.seeds = [None]
        twin.deal([1])
        twin.legal_mask()
        twin.observe(np.zeros(1, dtype=np.int64))
        twin.returns()
        twin.step(np.array([twin.legal_ids(0)[0]], dtype=np.int64))
        streams = mt.new_streams(self.players).reshape(1, self.players, -1)
        for p in range(self.players):
            mt.seed(streams[0, p], p)
        twin.heuristic_actions(streams)
        twin.playout(np.full(self.players, HEURISTIC, dtype=np.int64), streams, 4)
        twin.playout(np.full(self.players, RANDOM, dtype=np.int64), streams, 4)
        twin.evaluate()

    # -- setting up games ------------------------------------------------------------------
    def deal(self, seeds: Sequence[int] | np.ndarray, slots: Sequence[int] | np.ndarray | None = None) -> None:
        slots_ = np.arange(self.batch, dtype=np.int64) if slots is None else np.asarray(slots, dtype=np.int64)
        values = [int(s) for s in seeds]
        if len(values) != len(slots_):
            raise ValueError(f"deal needs one seed per slot: {len(values)} seeds for {len(slots_)} slots")
        if any(not 0 <= s < 2 ** 64 for s in values):
            raise ValueError("the kernel deals from seeds 0 <= seed < 2**64")
        for b in slots_:
            self._pending.pop(int(b), None)
        deal_batch(self.rows, self._streams, np.array(values, dtype=np.uint64), slots_, self.opts)
        for b, s in zip(slots_, values):
            self.seeds[int(b)] = s

    def load(self, slot: int, state: Any) -> None:
        """Copy ``state`` into ``slot``. The row is built in a template kept from the last load,
        rewriting only the parts whose value differs from the state loaded then (consecutive
        states of a search differ in a few), and copied into the slot; the random stream's
        words are kept and copied into :attr:`streams` when that is read."""
        if state.options is not self.options and state.options != self.options:
            raise ValueError("load needs a state with the kernel's options")
        template, loaded, writers = self._template, self._loaded, self._writers
        for j, value in enumerate(self._get_fields(state)):
            old = loaded[j]
            if value != old:
                loaded[j] = writers[j](template, value, old)
        self.rows[slot] = template
        self._pending[slot] = state.rng.getstate()[1]
        self.seeds[slot] = state.seed

    def read(self, slot: int) -> Any:
        import random
        from .actions import build_board_tables
        from .rules import EdoraState
        from .scoring import final_scoring
        row = [int(v) for v in self.rows[slot]]
        n = self.players
        st = EdoraState.__new__(EdoraState)
        rng = random.Random.__new__(random.Random)
        rng.setstate((3, tuple(int(w) for w in self.streams[slot]), None))
        st.options, st.seed, st.rng, st.history, st.events = self.options, self.seeds[slot], rng, [], None
        st.board = _B
        build_board_tables(_B)
        st.n = n
        for name, at in _SCALAR_ROWS:
            setattr(st, name, bool(row[at]) if name in _BOOL_FIELDS else row[at])
        st.stack = [tuple(row[R_STACK + 3 * j:R_STACK + 3 * j + 3]) for j in range(row[R_SP])]
        for name, at in _LIST_ROWS:
            setattr(st, name, row[at:at + n])
        st.tablets = [row[R_TABLETS + DECK_SIZE * p:R_TABLETS + DECK_SIZE * p + row[R_NTABLETS + p]]
                      for p in range(n)]
        st.reserve = row[R_RESERVE:R_RESERVE + 7 * n]
        st.overview = row[R_OVERVIEW:R_OVERVIEW + 7 * n]
        st.herb_at = row[R_HERB_AT:R_HERB_AT + 12 * n]
        st.herb_state = row[R_HERB_STATE:R_HERB_STATE + 12 * n]
        st.amulet = row[R_AMULET:R_AMULET + 6 * n]
        st.owner = row[R_OWNER:R_OWNER + 4 * NS]
        st.value = row[R_VALUE:R_VALUE + 4 * NS]
        st.used = row[R_USED:R_USED + NS]
        st.standing_at = row[R_STANDING_AT:R_STANDING_AT + NS]
        st.rune_at = row[R_RUNE_AT:R_RUNE_AT + NS]
        st.pit_closed = row[R_PIT:R_PIT + NPITS]
        st.ring_colours = [DOLMEN_COLOURS[c] for c in row[R_RING:R_RING + NRING]]
        st._index_colours()
        st.dolmen_owner = row[R_DOLMEN_OWNER:R_DOLMEN_OWNER + NCOL]
        st.oracle_stones = row[R_ORACLE_STONES:R_ORACLE_STONES + 6]
        st.oracle_slots = row[R_ORACLE_SLOTS:R_ORACLE_SLOTS + 12]
        st.deck = row[R_DECK:R_DECK + row[R_DECK_LEN]]
        st.deck_marks = row[R_MARKS:R_MARKS + row[R_DECK_LEN]]
        st.draft_hand = row[R_HAND:R_HAND + row[R_HAND_LEN]]
        st.gems_left = row[R_GEMS_LEFT:R_GEMS_LEFT + 6]
        st.potion_owner = row[R_POTION_OWNER:R_POTION_OWNER + len(POTIONS)]
        st.final = final_scoring(st) if st.over else None
        return st

    # -- playing ---------------------------------------------------------------------------
    def current_player(self) -> np.ndarray:
        out = np.empty(self.batch, dtype=np.int64)
        current_batch(self.rows, out)
        return out

    def legal_mask(self, out: np.ndarray | None = None) -> np.ndarray:
        if out is None:
            out = np.zeros((self.batch, self.num_actions), dtype=np.bool_)
        mask_batch(self.rows, self.ids, out)
        return out

    def legal_ids(self, slot: int) -> np.ndarray:
        c = legal_actions(self.rows[slot], self.ids, self._legal)
        return self._legal[:c].copy()

    def step(self, actions: np.ndarray) -> None:
        step_batch(self.rows, self.decode, np.asarray(actions, dtype=np.int64))

    def terminal(self) -> np.ndarray:
        return self.rows[:, R_OVER] != 0

    def outcome(self) -> Outcome:
        scores = np.zeros((self.batch, self.players))
        winners = np.zeros((self.batch, self.players), dtype=np.bool_)
        returns = np.zeros((self.batch, self.players))
        outcome_batch(self.rows, scores, winners, returns)
        return Outcome(scores, winners, returns)

    def observe(self, seats: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        if out is None:
            out = np.zeros((self.batch, self.observation_size), dtype=np.float32)
        observe_batch(self.rows, np.asarray(seats, dtype=np.int64), self.obs_at, out)
        return out

    def _playout(self, policies: np.ndarray, streams: np.ndarray, max_steps: int, stop_round: np.ndarray,
                 counts: np.ndarray) -> None:
        playout_batch(self.rows, self.ids, self.decode, policies, streams, max_steps, stop_round, counts)

    def _evaluate(self, kind: str, out: np.ndarray) -> None:
        if kind != "heuristic":
            super()._evaluate(kind, out)
        evaluate_batch(self.rows, out)

    def heuristic_actions(self, streams: np.ndarray | None = None) -> np.ndarray:
        """(B,) the heuristic's choice for each slot's player to act (-1 once ended). The
        heuristic breaks ties with one ``random()`` per action it looks at: seat ``s`` of slot
        ``i`` draws from ``streams[i, s]`` (advanced, as the playout advances it); without
        streams, from a fresh stream seeded 0 (``random.Random(0)``) each call."""
        if streams is None:
            streams = mt.new_streams(self.batch * self.players).reshape(self.batch, self.players, -1)
            for i in range(self.batch):
                for s in range(self.players):
                    mt.seed(streams[i, s], 0)
        out = np.empty(self.batch, dtype=np.int64)
        heuristic_batch(self.rows, self.ids, self.decode, streams, out)
        return out


KERNEL = EdoraKernel
