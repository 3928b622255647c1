"""Amarok's compiled core: B games in NumPy arrays, played by Numba-compiled functions that
mirror :mod:`.rules` function for function (same names, same order of effects, the same
draws from the state's random stream), proven equal to it by ``tests/kernel/test_amarok.py``.

Every option is supported: 3-6 players, team mode (4 or 6), any deck (the ``deck`` option's
cards become the ``values`` and ``symbols`` arrays), ``rounds_to_win`` and ``partner_hand``.

Layout. Slot ``b`` of the batch is one ``int32`` row ``rows[b]`` with the fields at the
offsets below (seat arrays sized for six seats), and one random stream ``streams[b]`` (the
state's ``rng``, :mod:`nemeton.engine.mt`). As in ``rules.py``: ``hand[2*seat + slot]``,
``owner_sees[2*seat + slot]``, ``front[2*seat + i]`` for ``i < front_count[seat]``, the river
in deal order, the deck bottom first (its bottom ``known_bottom`` cards put there by claws).
``last`` is (seat, action id, card); the last round keeps its number (0: none yet), how it
ended, the mating seat, the objective, the fronts and the winners (its totals and traps are
the fronts' own, recomputed when a state is read back).

The game's constants travel in ``cfg`` (int64: players, cards, team mode, partner_hand,
rounds_to_win and where each kind of action starts in the action space of
``encoding.all_actions``) beside the deck's ``values`` and ``symbols``.

``legal_actions`` lists a slot's action ids in the order the reference lists its actions
(own slots, the river in deal order, the deck, each other seat's seen cards by slot and its
unseen card; a claw: fronts, hands, river, deck), which is not ascending id order: a random
agent picks ``legal[randbelow(len(legal))]`` from that list.
"""

from __future__ import annotations

import array
import math
import random
import struct
import sys
from typing import Any, Callable, Sequence

import numba
import numpy as np
from numba import njit

from ...engine import TERMINAL, mt
from ...engine.kernel import EXTERNAL, HEURISTIC, NO_STOP, RANDOM, Kernel, Outcome, compile_notice
from ...engine.state import State
from .components import CLAW, HEART, OBJECTIVE_NAMES, SEASON, TRAP, WOLF_PACK, load_deck
from .options import AmarokOptions
from .rules import EMPTY, AmarokState

PARALLEL_MIN_SLOTS = 128  # slots per thread below which a playout runs on one thread

# ----- the row of one game -------------------------------------------------------------------
TURN, CLAW_PENDING, OBJECTIVE, HOLDER, ROUND, KNOWN_BOTTOM, RIVER_LEN, DECK_LEN = range(8)
LAST_SEAT, LAST_ACTION, LAST_CARD = 8, 9, 10                 # LAST_SEAT -1: no last action
LAST_ROUND, LAST_MATING, LAST_MATER, LAST_OBJECTIVE = 11, 12, 13, 14  # LAST_ROUND 0: none yet
SEATS = 6
LEVELS = 16
HAND = LEVELS + SEATS
OWNER_SEES = HAND + 2 * SEATS
FRONT = OWNER_SEES + 2 * SEATS
FRONT_COUNT = FRONT + 2 * SEATS
LAST_FRONT = FRONT_COUNT + SEATS
LAST_COUNT = LAST_FRONT + 2 * SEATS
LAST_WINNERS = LAST_COUNT + SEATS
RIVER = LAST_WINNERS + SEATS
DECK = RIVER + 2          # then the deck's cards (the row is DECK + cards long)

# ----- cfg: the game's constants --------------------------------------------------------------
PLAYERS, CARDS, TEAMS, PARTNER_HAND, TARGET = range(5)
# first action id of each kind (take_own is 0, 1)
TAKE_RIVER, TAKE_DECK, TAKE_SEEN, TAKE_UNSEEN, CLAW_FRONT, CLAW_HAND, CLAW_RIVER, CLAW_DECK, ACTIONS = range(5, 14)
CFG_SIZE = 14

# ----- obs_at: the observation's slice offsets (read from the reference layout) --------------
OBS_SLICES = ("acting", "phase", "objective", "objective_holder", "round_wins", "round", "teams",
              "hands", "fronts", "front_summary", "river", "deck_size", "deck_bottom")
(AT_ACTING, AT_PHASE, AT_OBJECTIVE, AT_HOLDER, AT_ROUND_WINS, AT_ROUND, AT_TEAMS, AT_HANDS,
 AT_FRONTS, AT_SUMMARY, AT_RIVER, AT_DECK_SIZE, AT_DECK_BOTTOM) = range(13)
ROUND_SCALE = 10.0
LEGAL_MAX = 4 * SEATS + 3    # the longest legal list (a claw's targets with six seats)
U32 = "I" if array.array("I").itemsize == 4 else "L"  # the array typecode of a uint32


def make_cfg(options: Any, cards: int) -> np.ndarray:
    n = options.players
    cfg = np.zeros(CFG_SIZE, dtype=np.int64)
    cfg[PLAYERS], cfg[CARDS], cfg[TEAMS] = n, cards, int(options.teams)
    cfg[PARTNER_HAND], cfg[TARGET] = int(options.partner_hand), options.rounds_to_win
    cfg[TAKE_RIVER] = 2
    cfg[TAKE_DECK] = 2 + cards
    cfg[TAKE_SEEN] = 3 + cards
    cfg[TAKE_UNSEEN] = 3 + cards + n * cards
    cfg[CLAW_FRONT] = cfg[TAKE_UNSEEN] + n
    cfg[CLAW_HAND] = cfg[CLAW_FRONT] + n * cards
    cfg[CLAW_RIVER] = cfg[CLAW_HAND] + 2 * n
    cfg[CLAW_DECK] = cfg[CLAW_RIVER] + cards
    cfg[ACTIONS] = cfg[CLAW_DECK] + 1
    return cfg


# ----- construction ----------------------------------------------------------------------------
@njit(cache=True)
def new_game(row, rng, cfg, deal_buffer):
    """``AmarokState.new_game`` after the stream is seeded."""
    row[:] = 0
    row[OBJECTIVE] = WOLF_PACK  # round 1 shows the wolf pack (ruling K6)
    row[HOLDER] = 0
    row[ROUND] = 1
    row[LAST_SEAT] = -1
    row[LAST_ACTION] = -1
    row[LAST_CARD] = -1
    row[LAST_ROUND] = 0
    row[LAST_MATER] = -1
    start_round(row, rng, cfg, deal_buffer)


@njit(cache=True)
def start_round(row, rng, cfg, cards):
    """Shuffle every card, deal two to each player and two to the river (ruling K2, K6)."""
    n, size = cfg[PLAYERS], cfg[CARDS]
    for c in range(size):
        cards[c] = c
    mt.shuffle(rng, cards, size)
    for i in range(2 * n):
        row[HAND + i] = cards[i]
    row[RIVER] = cards[2 * n]
    row[RIVER + 1] = cards[2 * n + 1]
    row[RIVER_LEN] = 2
    for i in range(size - 2 * n - 2):
        row[DECK + i] = cards[2 * n + 2 + i]
    row[DECK_LEN] = size - 2 * n - 2
    row[KNOWN_BOTTOM] = 0
    for seat in range(n):
        hand_facing(row, rng, seat)
    for i in range(2 * n):
        row[FRONT + i] = EMPTY
    for p in range(n):
        row[FRONT_COUNT + p] = 0
    row[TURN] = row[HOLDER]  # the objective holder starts the round
    row[CLAW_PENDING] = 0


@njit(cache=True)
def hand_facing(row, rng, seat):
    """Which slots face their owner, by round wins (ruling K2)."""
    level = row[LEVELS + seat]
    i = OWNER_SEES + 2 * seat
    if level <= 0:
        row[i] = 1
        row[i + 1] = 1
    elif level == 1:
        seen = mt.randrange(rng, 2)  # the card the owner sees is chosen at random
        row[i] = 1 if seen == 0 else 0
        row[i + 1] = 1 if seen == 1 else 0
    else:
        row[i] = 0
        row[i + 1] = 0


# ----- who acts --------------------------------------------------------------------------------
@njit(cache=True)
def partner(cfg, seat):
    n = cfg[PLAYERS]
    return (seat + n // 2) % n if cfg[TEAMS] else seat


@njit(cache=True)
def team_of(cfg, seat):
    return seat % (cfg[PLAYERS] // 2) if cfg[TEAMS] else seat


# ----- legal actions ---------------------------------------------------------------------------
@njit(cache=True)
def legal_actions(row, cfg, out):
    """The current player's legal action ids in the reference's order into ``out``; their count
    (0 once the game is over)."""
    seat = row[TURN]
    if seat == TERMINAL:
        return 0
    if row[CLAW_PENDING]:
        return claw_targets(row, cfg, seat, out)
    return takeable(row, cfg, seat, out)


@njit(cache=True)
def takeable(row, cfg, seat, out):
    """The cards a player may take (ruling K3): own slots, river, deck, then each other
    player's seen cards and "an unseen one"."""
    n, size = cfg[PLAYERS], cfg[CARDS]
    k = 0
    base = HAND + 2 * seat
    if row[base] != EMPTY:
        out[k] = 0
        k += 1
    if row[base + 1] != EMPTY:
        out[k] = 1
        k += 1
    k = river_and_deck(row, cfg[TAKE_RIVER], cfg[TAKE_DECK], out, k)
    mate = seat if cfg[PARTNER_HAND] else partner(cfg, seat)
    for p in range(n):
        if p == seat or p == mate:
            continue
        i = 2 * p
        first, second = row[HAND + i], row[HAND + i + 1]
        seen_at = cfg[TAKE_SEEN] + p * size
        unseen = cfg[TAKE_UNSEEN] + p
        # each card facing the others is seen (and named), one facing its owner is not
        if first != EMPTY:
            if second != EMPTY:
                first_hidden, second_hidden = row[OWNER_SEES + i], row[OWNER_SEES + i + 1]
                if not first_hidden:
                    out[k] = seen_at + first
                    k += 1
                if not second_hidden:
                    out[k] = seen_at + second
                    k += 1
                if first_hidden or second_hidden:
                    out[k] = unseen
                    k += 1
            else:
                out[k] = unseen if row[OWNER_SEES + i] else seen_at + first
                k += 1
        elif second != EMPTY:
            out[k] = unseen if row[OWNER_SEES + i + 1] else seen_at + second
            k += 1
    return k


@njit(cache=True)
def claw_targets(row, cfg, seat, out):
    """Any card but the claw itself (ruling K5): fronts, hands by slot, river, deck top."""
    n, size = cfg[PLAYERS], cfg[CARDS]
    claw = row[FRONT + 2 * seat + row[FRONT_COUNT + seat] - 1]
    k = 0
    for p in range(n):
        for i in range(2 * p, 2 * p + row[FRONT_COUNT + p]):
            c = row[FRONT + i]
            if c != claw:
                out[k] = cfg[CLAW_FRONT] + p * size + c
                k += 1
    for p in range(n):
        if row[HAND + 2 * p] != EMPTY:
            out[k] = cfg[CLAW_HAND] + 2 * p
            k += 1
        if row[HAND + 2 * p + 1] != EMPTY:
            out[k] = cfg[CLAW_HAND] + 2 * p + 1
            k += 1
    return river_and_deck(row, cfg[CLAW_RIVER], cfg[CLAW_DECK], out, k)


@njit(cache=True)
def river_and_deck(row, river_at, deck_id, out, k):
    """The river's cards in deal order, then the deck's top (if any), after ``out[:k]``."""
    for r in range(row[RIVER_LEN]):
        out[k] = river_at + row[RIVER + r]
        k += 1
    if row[DECK_LEN] > 0:
        out[k] = deck_id
        k += 1
    return k


# ----- a turn ------------------------------------------------------------------------------------
@njit(cache=True)
def apply_action(row, rng, cfg, values, symbols, action, deal_buffer):
    """``AmarokState._apply`` of a legal action id for the current player."""
    seat = row[TURN]
    if row[CLAW_PENDING]:
        card = claw(row, cfg, action)
        row[CLAW_PENDING] = 0
        set_last(row, seat, action, card)
        pass_turn(row, rng, cfg, values, symbols, seat, deal_buffer)
        return
    card = take(row, rng, cfg, action, seat)
    set_last(row, seat, action, card)
    play(row, rng, cfg, values, symbols, seat, card, deal_buffer)


@njit(cache=True)
def set_last(row, seat, action, card):
    row[LAST_SEAT] = seat
    row[LAST_ACTION] = action
    row[LAST_CARD] = card


@njit(cache=True)
def remove_from_river(row, card):
    """``river.remove(card)``: the other card keeps its place."""
    count = row[RIVER_LEN]
    j = 0
    while row[RIVER + j] != card:
        j += 1
    for r in range(j, count - 1):
        row[RIVER + r] = row[RIVER + r + 1]
    row[RIVER + count - 1] = 0
    row[RIVER_LEN] = count - 1


@njit(cache=True)
def take(row, rng, cfg, action, seat):
    """Remove the chosen card from where it is (ruling K3); returns it."""
    size = cfg[CARDS]
    if action < cfg[TAKE_RIVER]:  # take_own
        i = HAND + 2 * seat + action
        card = row[i]
        row[i] = EMPTY
    elif action < cfg[TAKE_DECK]:  # take_river
        card = action - cfg[TAKE_RIVER]
        remove_from_river(row, card)
    elif action == cfg[TAKE_DECK]:
        card = draw_top(row)
    elif action < cfg[TAKE_UNSEEN]:  # take_seen
        p = (action - cfg[TAKE_SEEN]) // size
        card = (action - cfg[TAKE_SEEN]) % size
        i = HAND + 2 * p
        row[i if row[i] == card else i + 1] = EMPTY
    else:  # take_unseen: uniformly among the cards of that hand the actor cannot see
        p = action - cfg[TAKE_UNSEEN]
        i = 2 * p
        count = 0
        first = -1
        for j in range(i, i + 2):
            if row[HAND + j] != EMPTY and row[OWNER_SEES + j]:
                if count == 0:
                    first = j
                count += 1
        if count == 1:
            j = first
        else:  # both slots unseen: unseen[randrange(2)]
            j = i + mt.randrange(rng, count)
        card = row[HAND + j]
        row[HAND + j] = EMPTY
    return card


@njit(cache=True)
def draw_top(row):
    count = row[DECK_LEN] - 1
    card = row[DECK + count]
    row[DECK + count] = 0
    row[DECK_LEN] = count
    if row[KNOWN_BOTTOM] > count:
        row[KNOWN_BOTTOM] = count
    return card


@njit(cache=True)
def play(row, rng, cfg, values, symbols, seat, card, deal_buffer):
    """Play the card face up in front of the player and resolve its symbol at once."""
    i = 2 * seat + row[FRONT_COUNT + seat]
    row[FRONT + i] = card
    row[FRONT_COUNT + seat] += 1
    symbol = symbols[card]
    if symbol == HEART:
        if i & 1 and symbols[row[FRONT + i - 1]] == HEART:
            end_round_by_mating(row, rng, cfg, values, symbols, seat, deal_buffer)
            return
    elif symbol == SEASON:
        row[OBJECTIVE] ^= 1  # change of season: flip the objective card now
    elif symbol == CLAW:
        row[CLAW_PENDING] = 1  # the same player now chooses the claw's target
        return
    pass_turn(row, rng, cfg, values, symbols, seat, deal_buffer)


@njit(cache=True)
def claw(row, cfg, action):
    """Put the clawed card at the bottom of the deck, in the open (ruling K5)."""
    size = cfg[CARDS]
    if action < cfg[CLAW_HAND]:  # claw_front
        p = (action - cfg[CLAW_FRONT]) // size
        card = (action - cfg[CLAW_FRONT]) % size
        i = FRONT + 2 * p
        if row[i] == card:
            row[i] = row[i + 1]
        row[i + 1] = EMPTY
        row[FRONT_COUNT + p] -= 1  # that player is short of two again and will play again
    elif action < cfg[CLAW_RIVER]:  # claw_hand
        i = HAND + action - cfg[CLAW_HAND]
        card = row[i]
        row[i] = EMPTY
    elif action < cfg[CLAW_DECK]:  # claw_river
        card = action - cfg[CLAW_RIVER]
        remove_from_river(row, card)
    else:  # claw_deck
        card = draw_top(row)
    count = row[DECK_LEN]
    for j in range(count, 0, -1):  # deck.insert(0, card)
        row[DECK + j] = row[DECK + j - 1]
    row[DECK] = card
    row[DECK_LEN] = count + 1
    row[KNOWN_BOTTOM] += 1
    return card


@njit(cache=True)
def pass_turn(row, rng, cfg, values, symbols, seat, deal_buffer):
    """Next: the first seat clockwise from ``seat`` with fewer than two cards in front
    (skipping full players, ruling K4); the round ends when nobody is short."""
    n = cfg[PLAYERS]
    for step in range(1, n + 1):
        p = (seat + step) % n
        if row[FRONT_COUNT + p] < 2:
            row[TURN] = p
            return
    end_round_by_totals(row, rng, cfg, values, symbols, deal_buffer)


# ----- end of a round ------------------------------------------------------------------------
@njit(cache=True)
def end_round_by_mating(row, rng, cfg, values, symbols, seat, deal_buffer):
    """A second heart in front ends the round at once: that player (team) wins, wolf trap or
    not (ruling K4)."""
    mate = partner(cfg, seat)
    for p in range(cfg[PLAYERS]):
        row[LAST_WINNERS + p] = 1 if p == seat or p == mate else 0
    finish_round(row, rng, cfg, 1, seat, deal_buffer)


@njit(cache=True)
def end_round_by_totals(row, rng, cfg, values, symbols, deal_buffer):
    round_winners(row, cfg, values, symbols)
    finish_round(row, rng, cfg, 0, -1, deal_buffer)


@njit(cache=True)
def front_total(row, values, p):
    total = 0
    for i in range(2 * p, 2 * p + row[FRONT_COUNT + p]):
        total += values[row[FRONT + i]]
    return total


@njit(cache=True)
def front_trapped(row, symbols, p):
    for i in range(2 * p, 2 * p + row[FRONT_COUNT + p]):
        if symbols[row[FRONT + i]] == TRAP:
            return True
    return False


@njit(cache=True)
def total(row, cfg, values, p):
    """A seat's total in front (team mode: its team's four cards)."""
    own = front_total(row, values, p)
    return own + front_total(row, values, partner(cfg, p)) if cfg[TEAMS] else own


@njit(cache=True)
def trapped(row, cfg, symbols, p):
    """Whether a seat cannot win the round: a wolf trap in front of it (its team)."""
    own = front_trapped(row, symbols, p)
    return (own or front_trapped(row, symbols, partner(cfg, p))) if cfg[TEAMS] else own


@njit(cache=True)
def round_winners(row, cfg, values, symbols):
    """Ruling K7: untrapped players (teams) with the best total per the objective; every tied
    one wins; nobody if all are trapped. Into ``row[LAST_WINNERS + seat]``."""
    n = cfg[PLAYERS]
    best = 0
    found = False
    for p in range(n):
        if not trapped(row, cfg, symbols, p):
            t = total(row, cfg, values, p)
            if not found or (t > best if row[OBJECTIVE] == WOLF_PACK else t < best):
                best = t
            found = True
    for p in range(n):
        row[LAST_WINNERS + p] = 1 if (found and not trapped(row, cfg, symbols, p)
                                      and total(row, cfg, values, p) == best) else 0


@njit(cache=True)
def finish_round(row, rng, cfg, mating, mater, deal_buffer):
    """Winners (``row[LAST_WINNERS + seat]``) advance one level (K7); the first to the target
    wins the game (K8), else the objective card passes left and the next round is dealt (K6)."""
    n = cfg[PLAYERS]
    top = 0
    for p in range(n):
        if row[LAST_WINNERS + p]:
            row[LEVELS + p] += 1
        top = max(top, row[LEVELS + p])
    row[LAST_ROUND] = row[ROUND]
    row[LAST_MATING] = mating
    row[LAST_MATER] = mater
    row[LAST_OBJECTIVE] = row[OBJECTIVE]
    for i in range(2 * n):
        row[LAST_FRONT + i] = row[FRONT + i]
    for p in range(n):
        row[LAST_COUNT + p] = row[FRONT_COUNT + p]
    if top >= cfg[TARGET]:
        row[TURN] = TERMINAL  # first to the target wins; simultaneous winners share (K8)
        row[CLAW_PENDING] = 0
        return
    row[ROUND] += 1
    row[HOLDER] = (row[HOLDER] + 1) % n  # passed left, not flipped (ruling K6)
    start_round(row, rng, cfg, deal_buffer)


# ----- outcome -------------------------------------------------------------------------------
@njit(cache=True)
def outcome(row, cfg, scores, winners, returns):
    """``scores()``, ``winners()`` and ``returns()`` of one game (the last two empty and 0
    before its end): the winners are the seats with the most round wins, and 1 is shared
    equally among their teams."""
    n = cfg[PLAYERS]
    top = -1
    for p in range(n):
        scores[p] = row[LEVELS + p]
        top = max(top, row[LEVELS + p])
        winners[p] = False
        returns[p] = 0.0
    if row[TURN] != TERMINAL:
        return
    teams = np.zeros(SEATS, dtype=np.bool_)
    count = 0
    for p in range(n):
        if row[LEVELS + p] == top:
            winners[p] = True
            t = team_of(cfg, p)
            if not teams[t]:
                teams[t] = True
                count += 1
    share = 1.0 / count
    for p in range(n):
        if teams[team_of(cfg, p)]:
            returns[p] = share


# ----- the observation ---------------------------------------------------------------------
@njit(cache=True)
def sees(viewer, owner, faces_owner):
    """Ruling K2 (``rules.sees``); viewer -1 is the spectator."""
    if viewer < 0:
        return False
    return faces_owner if viewer == owner else not faces_owner


@njit(cache=True)
def observe_one(row, cfg, values, symbols, obs_at, value_scale, viewer, out):
    """``encoding_for(options).encode(view(viewer))`` (viewer -1: the spectator) into ``out``."""
    n, size = cfg[PLAYERS], cfg[CARDS]
    out[:] = 0.0
    me = 0 if viewer < 0 else viewer
    turn = row[TURN]
    if turn != TERMINAL:
        out[obs_at[AT_ACTING] + (turn - me) % n] = 1.0
        out[obs_at[AT_PHASE] + (1 if row[CLAW_PENDING] else 0)] = 1.0
    else:
        out[obs_at[AT_PHASE] + 2] = 1.0
    out[obs_at[AT_OBJECTIVE] + row[OBJECTIVE]] = 1.0
    out[obs_at[AT_HOLDER] + (row[HOLDER] - me) % n] = 1.0
    if cfg[TEAMS]:
        out[obs_at[AT_TEAMS]] = 1.0
    out[obs_at[AT_ROUND]] = min(1.0, row[ROUND] / ROUND_SCALE)
    out[obs_at[AT_DECK_SIZE]] = row[DECK_LEN] / size
    hand_f = size + 3
    for k in range(n):
        s = (me + k) % n
        out[obs_at[AT_ROUND_WINS] + k] = row[LEVELS + s] / cfg[TARGET]
        base = obs_at[AT_HANDS] + k * 2 * hand_f
        for slot in range(2):
            c = row[HAND + 2 * s + slot]
            if c != EMPTY:
                out[base] = 1.0
                faces_owner = row[OWNER_SEES + 2 * s + slot] != 0
                if faces_owner:
                    out[base + 1] = 1.0
                if sees(viewer, s, faces_owner):
                    out[base + 3 + c] = 1.0
                else:
                    out[base + 2] = 1.0
            base += hand_f
        count = row[FRONT_COUNT + s]
        if count:
            base = obs_at[AT_FRONTS] + k * 2 * size
            summary = obs_at[AT_SUMMARY] + 5 * k
            total = 0
            for i in range(count):
                c = row[FRONT + 2 * s + i]
                out[base + i * size + c] = 1.0
                total += values[c]
                symbol = symbols[c]
                if symbol != 0:  # heart 1, claw 2, season 3, trap 4: its feature
                    out[summary + symbol] += 1.0
            out[summary] = total / value_scale
    for r in range(row[RIVER_LEN]):
        out[obs_at[AT_RIVER] + row[RIVER + r]] = 1.0
    for j in range(row[KNOWN_BOTTOM]):
        out[obs_at[AT_DECK_BOTTOM] + row[DECK + j]] = 1.0


# ----- the batch -------------------------------------------------------------------------
@njit(cache=True)
def deal_batch(rows, streams, seeds, slots, cfg):
    buffer = np.empty(cfg[CARDS], dtype=np.int64)
    for k in range(slots.shape[0]):
        b = slots[k]
        mt.seed(streams[b], seeds[k])
        new_game(rows[b], streams[b], cfg, buffer)


@njit(cache=True)
def step_batch(rows, streams, actions, cfg, values, symbols):
    buffer = np.empty(cfg[CARDS], dtype=np.int64)
    for b in range(rows.shape[0]):
        if rows[b, TURN] != TERMINAL and actions[b] >= 0:
            apply_action(rows[b], streams[b], cfg, values, symbols, actions[b], buffer)


@njit(cache=True)
def mask_batch(rows, cfg, out):
    legal = np.empty(LEGAL_MAX, dtype=np.int64)
    out[:, :] = False
    for b in range(rows.shape[0]):
        count = legal_actions(rows[b], cfg, legal)
        for k in range(count):
            out[b, legal[k]] = True


@njit(cache=True)
def outcome_batch(rows, cfg, scores, winners, returns):
    for b in range(rows.shape[0]):
        outcome(rows[b], cfg, scores[b], winners[b], returns[b])


@njit(cache=True)
def observe_batch(rows, cfg, values, symbols, obs_at, value_scale, seats, out):
    for b in range(rows.shape[0]):
        observe_one(rows[b], cfg, values, symbols, obs_at, value_scale, seats[b], out[b])


@njit(cache=True, parallel=True)
def playout_batch(rows, streams, cfg, values, symbols, policies, agent_streams, max_steps, stop_round, counts,
                  parts):
    """:func:`play_slots` over the whole batch in ``parts`` parts, one per thread (the slots
    are independent: each game draws only from its own streams)."""
    batch = rows.shape[0]
    for part in numba.prange(parts):
        play_slots(rows, streams, cfg, values, symbols, policies, agent_streams, max_steps, stop_round, counts,
                   part * batch // parts, (part + 1) * batch // parts)


@njit(cache=True)
def play_slots(rows, streams, cfg, values, symbols, policies, agent_streams, max_steps, stop_round, counts,
               first, end):
    """Slots ``first`` to ``end`` played on by their seats' policies ``policies[b, seat]``
    (RANDOM: ``legal[randbelow(len(legal))]`` from the seat's own stream, as RandomAgent;
    HEURISTIC: :func:`heuristic_choice`), each stopping before acting at its end, after
    ``max_steps`` actions, at a seat whose policy is EXTERNAL or once its round reaches
    ``stop_round[b]`` (NO_STOP: never); each slot's steps and decisions (more than one legal
    action)."""
    legal = np.empty(LEGAL_MAX, dtype=np.int64)
    buffer = np.empty(cfg[CARDS], dtype=np.int64)
    scratch = new_scratch(cfg)
    for b in range(first, end):
        row = rows[b]
        policy = policies[b]
        stop = stop_round[b]
        if stop < 0:  # NO_STOP
            stop = 2**31  # beyond any round an int32 row holds
        steps = 0
        decisions = 0
        while row[TURN] != TERMINAL and steps != max_steps and row[ROUND] < stop:
            seat = row[TURN]
            kind = policy[seat]
            if kind == EXTERNAL:
                break
            count = legal_actions(row, cfg, legal)
            if kind == HEURISTIC:
                action = heuristic_choice(row, cfg, values, symbols, legal, count, agent_streams[b, seat], scratch)
            else:
                action = legal[mt.choice_index(agent_streams[b, seat], count)]
            if count > 1:
                decisions += 1
            apply_action(row, streams[b], cfg, values, symbols, action, buffer)
            steps += 1
        counts[b, 0] = steps
        counts[b, 1] = decisions


# ----- the heuristic (heuristic.py) ---------------------------------------------------------
# What one seat knows (heuristic.Knowledge), as one int64 array: these fields, then the
# fronts, their counts, the hands (a card, EMPTY or HIDDEN), the river and the pool of cards
# the seat has not seen anywhere (ascending).
K_SIGN, K_ME, K_DECK_SIZE, K_RIVER_LEN, K_POOL_LEN, K_POOL_HEARTS = range(6)
K_FRONT = 8
K_COUNT = K_FRONT + 2 * SEATS
K_HAND = K_COUNT + SEATS
K_RIVER = K_HAND + 2 * SEATS
K_POOL = K_RIVER + 2
HIDDEN = -2  # a hand card the seat cannot see
EDGE = 2.0   # how much better than average a player's future card is expected to be
WIN = 10.0   # utility of winning the round at once by mating
CLAW_TARGETS_MAX = 4 * SEATS + 3
# sum() of floats is Neumaier-compensated from Python 3.12 on: mirrored where the heuristic sums
COMPENSATED_SUM = sys.version_info >= (3, 12)


@njit(cache=True)
def py_sum(xs, count):
    """``sum(xs[:count])`` of floats as the running Python computes it (``count`` > 0)."""
    total = xs[0]
    c = 0.0
    for i in range(1, count):
        x = xs[i]
        t = total + x
        if COMPENSATED_SUM:
            if abs(total) >= abs(x):
                c += (total - t) + x
            else:
                c += (x - t) + total
        total = t
    if COMPENSATED_SUM and c != 0.0 and math.isfinite(c):
        total += c
    return total


@njit(cache=True)
def knowledge_from_state(row, cfg, symbols, seat, kn):
    """The seat's knowledge read from a state: only what ``seat`` sees (ruling K2 faces)."""
    n, size = cfg[PLAYERS], cfg[CARDS]
    known = np.zeros(size, dtype=np.bool_)
    kn[K_SIGN] = 1 if row[OBJECTIVE] == WOLF_PACK else -1
    kn[K_ME] = seat
    for i in range(2 * n):
        c = row[FRONT + i]
        kn[K_FRONT + i] = c
        if c != EMPTY:
            known[c] = True
        c = row[HAND + i]
        if c == EMPTY:
            kn[K_HAND + i] = EMPTY
        elif (row[OWNER_SEES + i] != 0) == (i >> 1 == seat):
            kn[K_HAND + i] = c
            known[c] = True
        else:
            kn[K_HAND + i] = HIDDEN
    for p in range(n):
        kn[K_COUNT + p] = row[FRONT_COUNT + p]
    kn[K_RIVER_LEN] = row[RIVER_LEN]
    for r in range(row[RIVER_LEN]):
        kn[K_RIVER + r] = row[RIVER + r]
        known[row[RIVER + r]] = True
    kn[K_DECK_SIZE] = row[DECK_LEN]
    for j in range(row[KNOWN_BOTTOM]):
        known[row[DECK + j]] = True
    count = 0
    hearts = 0
    for c in range(size):
        if not known[c]:
            kn[K_POOL + count] = c
            count += 1
            if symbols[c] == HEART:
                hearts += 1
    kn[K_POOL_LEN] = count
    kn[K_POOL_HEARTS] = hearts


@njit(cache=True)
def round_shares(kn, cfg, values, symbols, shares):
    """Each unit's estimated chance to win the round (trap-aware soft-max plus mating) into
    ``shares``; the number of units."""
    n, size = cfg[PLAYERS], cfg[CARDS]
    sign = kn[K_SIGN]
    left_total = 0
    left_count = 0
    for c in range(size):
        if symbols[c] != TRAP:
            left_total += values[c]
            left_count += 1
    missing = 0
    for p in range(n):
        count = kn[K_COUNT + p]
        missing += 2 - count
        for i in range(count):
            c = kn[K_FRONT + 2 * p + i]
            if symbols[c] != TRAP:
                left_total -= values[c]
                left_count -= 1
    mean = left_total / left_count if left_count else 0.0
    future = mean + sign * EDGE
    scale = 1.5 + 0.8 * missing
    # hearts within reach: seen by me outside the fronts, or unseen
    reach = 0
    for r in range(kn[K_RIVER_LEN]):
        if symbols[kn[K_RIVER + r]] == HEART:
            reach += 1
    for i in range(2 * n):
        c = kn[K_HAND + i]
        if c >= 0 and symbols[c] == HEART:
            reach += 1
    unseen_hearts = kn[K_POOL_HEARTS]
    units = n // 2 if cfg[TEAMS] else n
    strength = np.zeros(SEATS)
    free = np.zeros(SEATS, dtype=np.bool_)
    mate = np.zeros(SEATS)
    any_free = False
    top = 0.0
    for u in range(units):
        total = 0.0
        caught = False
        m = 0.0
        for k in range(2 if cfg[TEAMS] else 1):
            p = u + k * (n // 2)
            count = kn[K_COUNT + p]
            for i in range(count):
                c = kn[K_FRONT + 2 * p + i]
                total += values[c]
                caught |= symbols[c] == TRAP
            total += (2 - count) * future
            if count == 1 and symbols[kn[K_FRONT + 2 * p]] == HEART:
                m = max(m, 0.7 if reach else min(0.45, 0.12 * unseen_hearts))
        free[u] = not caught
        if not caught:
            strength[u] = sign * total / scale
            top = strength[u] if not any_free else max(top, strength[u])
            any_free = True
        mate[u] = m
    for u in range(units):
        shares[u] = 0.0
    if any_free:
        weights = np.zeros(SEATS)
        for u in range(units):
            weights[u] = math.exp(strength[u] - top) if free[u] else 0.0
        z = py_sum(weights, units)
        for u in range(units):
            shares[u] = weights[u] / z
    total_mate = py_sum(mate, units)
    if total_mate > 0:
        if total_mate > 0.9:
            for u in range(units):
                mate[u] = mate[u] * 0.9 / total_mate
            total_mate = 0.9
        for u in range(units):
            shares[u] = mate[u] + (1 - total_mate) * shares[u]
    return units


@njit(cache=True)
def utility(kn, row, cfg, values, symbols):
    """Our unit's round-win share minus the opponents', weighted by their danger."""
    shares = np.zeros(SEATS)
    units = round_shares(kn, cfg, values, symbols, shares)
    mine = team_of(cfg, kn[K_ME])
    u = 0.0
    for i in range(units):
        if i == mine:
            u += shares[i]
        else:
            level = row[LEVELS + i]  # a unit's first seat is its index
            u -= shares[i] * (0.25 + 0.4 * level / max(1, cfg[TARGET] - 1))
    return u


@njit(cache=True)
def heuristic_play(kn, row, cfg, values, symbols, card, targets, scored):
    """The utility after we play ``card`` (its symbol resolved; a claw at its best target)."""
    me = kn[K_ME]
    count = kn[K_COUNT + me]
    symbol = symbols[card]
    if symbol == HEART and count == 1 and symbols[kn[K_FRONT + 2 * me]] == HEART:
        return WIN
    kn[K_FRONT + 2 * me + count] = card
    kn[K_COUNT + me] = count + 1
    if symbol == SEASON:
        kn[K_SIGN] = -kn[K_SIGN]
    if symbol == CLAW:
        u = utility(kn, row, cfg, values, symbols)  # max(..., default=utility(k))
        options = claw_options(kn, row, cfg, values, symbols, card, targets, scored)
        for j in range(options):
            u = scored[j] if j == 0 else max(u, scored[j])
    else:
        u = utility(kn, row, cfg, values, symbols)
    kn[K_COUNT + me] = count
    kn[K_FRONT + 2 * me + count] = EMPTY
    if symbol == SEASON:
        kn[K_SIGN] = -kn[K_SIGN]
    return u


@njit(cache=True)
def claw_options(kn, row, cfg, values, symbols, claw, targets, scored):
    """(target, utility) for every claw target, into ``targets`` (the claw's action id) and
    ``scored``; their count."""
    n, size = cfg[PLAYERS], cfg[CARDS]
    k = 0
    for p in range(n):
        count = kn[K_COUNT + p]
        for i in range(count):
            c = kn[K_FRONT + 2 * p + i]
            if c == claw:
                continue
            other = kn[K_FRONT + 2 * p + 1 - i]
            kn[K_FRONT + 2 * p] = other if count == 2 else EMPTY  # del row[i]
            kn[K_FRONT + 2 * p + 1] = EMPTY
            kn[K_COUNT + p] = count - 1
            targets[k] = cfg[CLAW_FRONT] + p * size + c
            scored[k] = utility(kn, row, cfg, values, symbols)
            k += 1
            kn[K_COUNT + p] = count  # row.insert(i, c)
            kn[K_FRONT + 2 * p + i] = c
            if count == 2:
                kn[K_FRONT + 2 * p + 1 - i] = other
    base = 0.0
    based = False
    for i in range(2 * n):
        c = kn[K_HAND + i]
        if c == EMPTY:
            continue
        targets[k] = cfg[CLAW_HAND] + i
        if c == HIDDEN:
            if not based:
                base = utility(kn, row, cfg, values, symbols)
                based = True
            scored[k] = base - 0.001
        else:
            kn[K_HAND + i] = EMPTY
            scored[k] = utility(kn, row, cfg, values, symbols)
            kn[K_HAND + i] = c
        k += 1
    for i in range(kn[K_RIVER_LEN]):
        c = kn[K_RIVER + i]
        remove_known_river(kn, i)
        targets[k] = cfg[CLAW_RIVER] + c
        scored[k] = utility(kn, row, cfg, values, symbols)
        k += 1
        insert_known_river(kn, i, c)
    if kn[K_DECK_SIZE]:
        if not based:
            base = utility(kn, row, cfg, values, symbols)
        targets[k] = cfg[CLAW_DECK]
        scored[k] = base - 0.002
        k += 1
    return k


@njit(cache=True)
def remove_known_river(kn, i):
    count = kn[K_RIVER_LEN]
    for r in range(i, count - 1):
        kn[K_RIVER + r] = kn[K_RIVER + r + 1]
    kn[K_RIVER_LEN] = count - 1


@njit(cache=True)
def insert_known_river(kn, i, card):
    count = kn[K_RIVER_LEN]
    for r in range(count, i, -1):
        kn[K_RIVER + r] = kn[K_RIVER + r - 1]
    kn[K_RIVER + i] = card
    kn[K_RIVER_LEN] = count + 1


@njit(cache=True)
def expected_unknown(kn, row, cfg, values, symbols, targets, scored):
    """The utility of playing a card we cannot see (average over the unseen cards)."""
    pool = kn[K_POOL_LEN]
    if pool == 0:
        return utility(kn, row, cfg, values, symbols)
    us = np.zeros(pool)
    total = 0.0
    for j in range(pool):
        c = kn[K_POOL + j]
        found = -1
        if symbols[c] != CLAW:  # cards alike (value and symbol) are played out once
            for e in range(j):
                d = kn[K_POOL + e]
                if symbols[d] == symbols[c] and values[d] == values[c]:
                    found = e
                    break
        if found >= 0:
            u = us[found]
        else:
            heart = 1 if symbols[c] == HEART else 0
            kn[K_POOL_HEARTS] -= heart  # pool.remove(c) ... pool.append(c)
            u = heuristic_play(kn, row, cfg, values, symbols, c, targets, scored)
            kn[K_POOL_HEARTS] += heart
        us[j] = u
        total += u
    return total / pool


@njit(cache=True)
def take_known(kn, row, cfg, values, symbols, action, targets, scored):
    """The utility of taking a card we can see: out of its place, then played."""
    size = cfg[CARDS]
    if cfg[TAKE_RIVER] <= action < cfg[TAKE_DECK]:
        card = action - cfg[TAKE_RIVER]
        i = 0
        while kn[K_RIVER + i] != card:
            i += 1
        remove_known_river(kn, i)
        u = heuristic_play(kn, row, cfg, values, symbols, card, targets, scored)
        insert_known_river(kn, i, card)
        return u
    if action < cfg[TAKE_RIVER]:  # take_own
        i = 2 * kn[K_ME] + action
    else:  # take_seen
        p = (action - cfg[TAKE_SEEN]) // size
        i = 2 * p
        if kn[K_HAND + i] != (action - cfg[TAKE_SEEN]) % size:
            i += 1
    card = kn[K_HAND + i]
    kn[K_HAND + i] = EMPTY
    u = heuristic_play(kn, row, cfg, values, symbols, card, targets, scored)
    kn[K_HAND + i] = card
    return u


@njit(cache=True)
def new_scratch(cfg):
    """The heuristic's working arrays: knowledge, claw targets and their utilities, the best
    actions."""
    kn = np.zeros(K_POOL + cfg[CARDS], dtype=np.int64)
    targets = np.zeros(CLAW_TARGETS_MAX, dtype=np.int64)
    scored = np.zeros(CLAW_TARGETS_MAX)
    best = np.zeros(LEGAL_MAX, dtype=np.int64)
    return kn, targets, scored, best


@njit(cache=True)
def heuristic_choice(row, cfg, values, symbols, legal, count, rng, scratch):
    """``AmarokHeuristic.choose_in_state`` for the current player (``rng``: its agent's
    stream, drawn from only to break a tie)."""
    kn, targets, scored, chosen = scratch
    seat = row[TURN]
    knowledge_from_state(row, cfg, symbols, seat, kn)
    claws = legal[0] >= cfg[CLAW_FRONT]
    options = 0
    if claws:  # every target scored once (nothing below overwrites them)
        claw = kn[K_FRONT + 2 * seat + kn[K_COUNT + seat] - 1]
        options = claw_options(kn, row, cfg, values, symbols, claw, targets, scored)
    found = 0
    best_u = -math.inf
    unknown = 0.0
    has_unknown = False
    for j in range(count):
        a = legal[j]
        if claws:
            u = -math.inf
            for t in range(options):
                if targets[t] == a:
                    u = scored[t]
                    break
        else:
            if (a == cfg[TAKE_DECK] or a >= cfg[TAKE_UNSEEN]
                    or (a < cfg[TAKE_RIVER] and kn[K_HAND + 2 * seat + a] == HIDDEN)):
                if not has_unknown:
                    unknown = expected_unknown(kn, row, cfg, values, symbols, targets, scored)
                    has_unknown = True
                u = unknown
                if a >= cfg[TAKE_UNSEEN]:  # a card its owner may have counted on
                    u += 0.002 * (1 + row[LEVELS + a - cfg[TAKE_UNSEEN]])
            else:
                u = take_known(kn, row, cfg, values, symbols, a, targets, scored)
        if u > best_u + 1e-9:  # the best actions, ties within 1e-9 kept in legal order
            chosen[0] = a
            found = 1
            best_u = u
        elif abs(u - best_u) <= 1e-9:
            chosen[found] = a
            found += 1
    return chosen[0] if found == 1 else chosen[mt.choice_index(rng, found)]


@njit(cache=True)
def evaluate_one(row, cfg, values, symbols, kn, shares, weights, scores, winners, out):
    """``AmarokHeuristic.evaluate`` of a full state into ``out``: ``returns()`` once it has
    ended, else each unit's soft share of the game from the round wins it still needs after
    this round's omniscient round-win shares (every hand card seen, no unseen pool)."""
    if row[TURN] == TERMINAL:
        outcome(row, cfg, scores, winners, out)
        return
    n = cfg[PLAYERS]
    knowledge_from_state(row, cfg, symbols, 0, kn)
    for i in range(2 * n):
        kn[K_HAND + i] = row[HAND + i]
    kn[K_POOL_LEN] = 0
    kn[K_POOL_HEARTS] = 0
    units = round_shares(kn, cfg, values, symbols, shares)
    for u in range(units):  # a unit's first seat is its index
        weights[u] = math.exp(-1.6 * ((cfg[TARGET] - row[LEVELS + u]) - shares[u]))
    z = py_sum(weights, units)
    for p in range(n):
        out[p] = weights[team_of(cfg, p)] / z


@njit(cache=True)
def evaluate_batch(rows, cfg, values, symbols, out):
    kn = np.zeros(K_POOL + cfg[CARDS], dtype=np.int64)
    shares = np.zeros(SEATS)
    weights = np.zeros(SEATS)
    scores = np.zeros(SEATS)
    winners = np.zeros(SEATS, dtype=np.bool_)
    for b in range(rows.shape[0]):
        evaluate_one(rows[b], cfg, values, symbols, kn, shares, weights, scores, winners, out[b])


# ----- loading a random stream ----------------------------------------------------------------
def mt_copier() -> Callable[[random.Random, int], None] | None:
    """``copy(rng, address)``: a ``random.Random``'s 624 words then its position written as a
    stream (:mod:`nemeton.engine.mt`) at ``address``, straight from the generator's memory
    (CPython's ``RandomObject``: the object header, ``int index``, ``uint32_t state[624]``),
    what ``getstate()[1]`` lists without building 625 Python ints (most of a load's cost).
    None where that layout is not the one this Python has (checked here on generators at
    several positions): then :meth:`AmarokKernel.load` calls ``getstate``."""
    if sys.implementation.name != "cpython":
        return None
    try:
        import _random
        import ctypes
    except ImportError:
        return None
    head = object.__basicsize__
    if _random.Random.__basicsize__ < head + 4 * mt.STREAM_WORDS or ctypes.sizeof(ctypes.c_int) != 4:
        return None
    memmove, words = ctypes.memmove, 4 * mt.N

    def copy(rng: random.Random, address: int) -> None:
        at = id(rng) + head
        memmove(address, at + 4, words)
        memmove(address + words, at, 4)

    probe = mt.new_streams(1)[0]
    for seed in (0, 5, 2**40 + 3):
        rng = random.Random(seed)
        for draws in (0, 1, 623, 1, 100):  # positions 624 (just seeded), 1, 624, 1 and 101
            for _ in range(draws):
                rng.getrandbits(32)
            copy(rng, probe.ctypes.data)
            if probe.tolist() != list(rng.getstate()[1]):
                return None
    return copy


MT_COPY = mt_copier()


# ----- the kernel class -------------------------------------------------------------------------
class AmarokKernel(Kernel):
    """B games of Amarok with one set of options (every option is supported)."""

    game = "amarok"
    options: AmarokOptions

    def __init__(self, options: Any, batch: int):
        from . import SPEC
        if not isinstance(options, SPEC.options_cls):
            options = SPEC.options(**dict(options))
        self.options = options
        self.batch = batch
        self.players = options.players
        self.deck = load_deck(options.deck)
        size = len(self.deck)
        self.encoding = SPEC.encoding(options)
        self.actions = self.encoding.actions
        self.cfg = make_cfg(options, size)
        self.num_actions = int(self.cfg[ACTIONS])
        if self.num_actions != len(self.actions):
            raise AssertionError("the kernel's action ids differ from encoding.all_actions")
        self.observation_size = self.encoding.observation_size
        self.values = np.array(self.deck.values, dtype=np.int64)
        self.symbols = np.array(self.deck.symbols, dtype=np.int64)
        layout = self.encoding.layout
        self.obs_at = np.array([layout[name].offset for name in OBS_SLICES], dtype=np.int64)
        self.value_scale = float(max(1, max(abs(v) for v in self.deck.values)) * 2)
        self.rows = np.zeros((batch, DECK + size), dtype=np.int32)
        self.rows[:, TURN] = TERMINAL
        self.streams = mt.new_streams(batch)
        self.seeds: list[int | None] = [None] * batch
        self._legal = np.empty(LEGAL_MAX, dtype=np.int64)
        self._zeros = [[0] * k for k in range(DECK + size + 1)]  # padding lists for load
        self._loaded_last_round: dict[str, Any] | None = None  # the last one load converted
        self._loaded_head, self._loaded_cards = [0, 0, -1, 0, 0], [0] * (RIVER - LAST_FRONT)
        self._rows_seen: np.ndarray | None = None  # load's buffers (_find_buffers)
        self._streams_seen: np.ndarray | None = None
        self._row_bytes: memoryview | None = None
        self._row_struct = struct.Struct("i")
        self._streams_at: int | None = None
        compile_notice(self.game, self._warm)

    def _warm(self) -> None:
        """Every compiled function once, on a one-game batch."""
        twin = AmarokKernel.__new__(AmarokKernel)
        twin.__dict__.update(self.__dict__)
        twin.batch = 1
        twin.rows = np.zeros((1, self.rows.shape[1]), dtype=np.int32)
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
        twin.playout(np.full(self.players, RANDOM, dtype=np.int64), streams, 4)
        twin.playout(np.full(self.players, HEURISTIC, dtype=np.int64), streams, 4)
        twin.evaluate()
        playout_batch(twin.rows, twin.streams, self.cfg, self.values, self.symbols,  # the threaded one
                      np.full((1, self.players), RANDOM, dtype=np.int64), streams, 4,
                      np.full(1, NO_STOP, dtype=np.int64), np.zeros((1, 2), dtype=np.int64), 1)

    # -- setting up games ------------------------------------------------------------------
    def deal(self, seeds: Sequence[int] | np.ndarray, slots: Sequence[int] | np.ndarray | None = None) -> None:
        slots_ = np.arange(self.batch, dtype=np.int64) if slots is None else np.asarray(slots, dtype=np.int64)
        values = [int(s) for s in seeds]
        if len(values) != len(slots_):
            raise ValueError(f"deal needs one seed per slot: {len(values)} seeds for {len(slots_)} slots")
        deal_batch(self.rows, self.streams, np.array(values, dtype=np.uint64), slots_, self.cfg)
        for b, s in zip(slots_, values):
            self.seeds[int(b)] = s

    def load(self, slot: int, state: State) -> None:
        """The row built as one list and packed into the rows' bytes at once, the stream copied
        from the generator's memory (a search loads a state per iteration: every Python-level
        write counts)."""
        assert isinstance(state, AmarokState)
        if state.options is not self.options and state.options != self.options:
            raise ValueError("load needs a state with the kernel's options")
        zeros = self._zeros
        last = state.last
        if last is None:
            head = [state.turn, int(state.claw_pending), state.objective, state.holder, state.round,
                    state.known_bottom, len(state.river), len(state.deck), -1, -1, -1]
        else:
            head = [state.turn, int(state.claw_pending), state.objective, state.holder, state.round,
                    state.known_bottom, len(state.river), len(state.deck), last[0], self.actions.id(last[1]),
                    last[2]]
        seats, pairs = zeros[SEATS - self.players], zeros[2 * (SEATS - self.players)]
        last_head, last_cards = self._last_round_fields(state.last_round)
        width = self.rows.shape[1]
        values = (head + last_head + state.levels + seats + state.hand + pairs + state.owner_sees + pairs
                  + state.front + pairs + state.front_count + seats + last_cards
                  + state.river + zeros[2 - len(state.river)] + state.deck + zeros[width - DECK - len(state.deck)])
        slot = range(self.rows.shape[0])[slot]  # an IndexError out of range, a negative slot counted back
        rows, streams, rng = self.rows, self.streams, state.rng
        if rows is not self._rows_seen or streams is not self._streams_seen:
            self._find_buffers()
        if self._row_bytes is not None:
            self._row_struct.pack_into(self._row_bytes, slot * 4 * width, *values)
        else:
            rows[slot] = values
        copy = MT_COPY
        if copy is not None and self._streams_at is not None and type(rng) is random.Random:
            copy(rng, self._streams_at + slot * 4 * mt.STREAM_WORDS)
        else:
            streams[slot] = np.frombuffer(array.array(U32, rng.getstate()[1]), dtype=np.uint32)
        self.seeds[slot] = state.seed

    def _find_buffers(self) -> None:
        """Where load writes: the rows as bytes (packed by a ``struct``, several times faster
        than NumPy converting a list), the streams' address (for :data:`MT_COPY`); None
        where an array is not the C-ordered one the kernel made (then NumPy writes)."""
        rows, streams = self.rows, self.streams
        self._rows_seen, self._streams_seen = rows, streams
        whole = rows.dtype == np.int32 and rows.ndim == 2 and rows.flags.c_contiguous
        self._row_bytes = memoryview(rows.data).cast("B") if whole else None
        self._row_struct = struct.Struct(f"={rows.shape[1]}i")
        self._streams_at = (streams.ctypes.data if MT_COPY is not None and streams.dtype == np.uint32
                            and streams.shape == (rows.shape[0], mt.STREAM_WORDS)
                            and streams.flags.c_contiguous else None)

    def _last_round_fields(self, last: dict[str, Any] | None) -> tuple[list[int], list[int]]:
        """The row's fields of ``state.last_round``: from LAST_ROUND to LEVELS, and from
        LAST_FRONT to RIVER. The last dict converted is kept: a state's ``last_round`` is
        replaced, never changed in place, so the states of one round (a search's samples)
        share it and it is converted once."""
        if last is self._loaded_last_round:
            return self._loaded_head, self._loaded_cards
        n = self.players
        cards = [0] * (RIVER - LAST_FRONT)
        if last is None:
            head = [0, 0, -1, 0, 0]
        else:
            index = self.deck.index
            head = [last["round"], int(last["reason"] == "mating"),
                    -1 if last["mating_seat"] is None else last["mating_seat"],
                    OBJECTIVE_NAMES.index(last["objective"]), 0]
            cards[:2 * n] = [EMPTY] * (2 * n)
            for p, front in enumerate(last["fronts"]):
                cards[LAST_COUNT - LAST_FRONT + p] = len(front)
                for i, cid in enumerate(front):
                    cards[2 * p + i] = index[cid]
            for p in last["winners"]:
                cards[LAST_WINNERS - LAST_FRONT + p] = 1
        self._loaded_last_round, self._loaded_head, self._loaded_cards = last, head, cards
        return head, cards

    def read(self, slot: int) -> AmarokState:
        row = [int(v) for v in self.rows[slot]]
        n = self.players
        rng = random.Random.__new__(random.Random)
        rng.setstate((3, tuple(int(w) for w in self.streams[slot]), None))
        state = AmarokState._blank(self.options, self.seeds[slot], rng)
        state.events = None
        state.levels = row[LEVELS:LEVELS + n]
        state.objective = row[OBJECTIVE]
        state.holder = row[HOLDER]
        state.round = row[ROUND]
        state.hand = row[HAND:HAND + 2 * n]
        state.owner_sees = [bool(v) for v in row[OWNER_SEES:OWNER_SEES + 2 * n]]
        state.front = row[FRONT:FRONT + 2 * n]
        state.front_count = row[FRONT_COUNT:FRONT_COUNT + n]
        state.river = row[RIVER:RIVER + row[RIVER_LEN]]
        state.deck = row[DECK:DECK + row[DECK_LEN]]
        state.known_bottom = row[KNOWN_BOTTOM]
        state.turn = row[TURN]
        state.claw_pending = bool(row[CLAW_PENDING])
        state.last = None if row[LAST_SEAT] < 0 else (
            row[LAST_SEAT], self.actions.actions[row[LAST_ACTION]], row[LAST_CARD])
        state.last_round = None if row[LAST_ROUND] == 0 else self._last_round(row)
        return state

    def _last_round(self, row: list[int]) -> dict[str, Any]:
        n, deck = self.players, self.deck
        fronts = [[row[LAST_FRONT + 2 * p + i] for i in range(row[LAST_COUNT + p])] for p in range(n)]
        own = [sum(deck.values[c] for c in cards) for cards in fronts]
        caught = [any(deck.symbols[c] == TRAP for c in cards) for cards in fronts]
        if self.options.teams:
            mate = [(p + n // 2) % n for p in range(n)]
            own = [own[p] + own[mate[p]] for p in range(n)]
            caught = [caught[p] or caught[mate[p]] for p in range(n)]
        mating = bool(row[LAST_MATING])
        return {
            "round": row[LAST_ROUND],
            "reason": "mating" if mating else "totals",
            "mating_seat": row[LAST_MATER] if mating else None,
            "objective": OBJECTIVE_NAMES[row[LAST_OBJECTIVE]],
            "fronts": [[deck.ids[c] for c in cards] for cards in fronts],
            "totals": own,
            "trapped": caught,
            "winners": [p for p in range(n) if row[LAST_WINNERS + p]],
        }

    # -- playing -----------------------------------------------------------------------------
    def current_player(self) -> np.ndarray:
        return self.rows[:, TURN].astype(np.int64)

    def legal_mask(self, out: np.ndarray | None = None) -> np.ndarray:
        if out is None:
            out = np.empty((self.batch, self.num_actions), dtype=np.bool_)
        mask_batch(self.rows, self.cfg, out)
        return out

    def legal_ids(self, slot: int) -> np.ndarray:
        count = legal_actions(self.rows[slot], self.cfg, self._legal)
        return self._legal[:count].copy()

    def step(self, actions: np.ndarray) -> None:
        step_batch(self.rows, self.streams, np.asarray(actions, dtype=np.int64), self.cfg, self.values, self.symbols)

    def terminal(self) -> np.ndarray:
        return self.rows[:, TURN] == TERMINAL

    def outcome(self) -> Outcome:
        scores = np.zeros((self.batch, self.players), dtype=np.float64)
        winners = np.zeros((self.batch, self.players), dtype=np.bool_)
        returns = np.zeros((self.batch, self.players), dtype=np.float64)
        outcome_batch(self.rows, self.cfg, scores, winners, returns)
        return Outcome(scores, winners, returns)

    def observe(self, seats: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """Seat -1 is the spectator (``view(None)``)."""
        if out is None:
            out = np.empty((self.batch, self.observation_size), dtype=np.float32)
        observe_batch(self.rows, self.cfg, self.values, self.symbols, self.obs_at, self.value_scale,
                      np.asarray(seats, dtype=np.int64), out)
        return out

    def _playout(self, policies: np.ndarray, streams: np.ndarray, max_steps: int, stop_round: np.ndarray,
                 counts: np.ndarray) -> None:
        # Threads only for batches worth a parallel launch: a search's batch of a few short
        # playouts took 14 ms a call on a busy machine with two threads (waiting for a
        # second core), 0.1 ms on one.
        parts = max(1, min(numba.get_num_threads(), self.batch // PARALLEL_MIN_SLOTS))
        if parts == 1:  # one thread: no parallel launch (it costs microseconds a call)
            play_slots(self.rows, self.streams, self.cfg, self.values, self.symbols, policies, streams,
                       max_steps, stop_round, counts, 0, self.batch)
        else:
            playout_batch(self.rows, self.streams, self.cfg, self.values, self.symbols, policies, streams,
                          max_steps, stop_round, counts, parts)

    def _evaluate(self, kind: str, out: np.ndarray) -> None:
        if kind != "heuristic":
            super()._evaluate(kind, out)
        evaluate_batch(self.rows, self.cfg, self.values, self.symbols, out)


KERNEL = AmarokKernel
