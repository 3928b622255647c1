"""The decisions of Edora's turn stack: for each kind, its legal choices, how it settles
when there is no real choice, and how each chosen action resolves.

``SETTLE[kind](state, top)`` returns True when the decision waits for a player; otherwise it
resolved or discarded itself (no possible effect, or a single possible outcome) and the
stack moves on. ``LEGAL[kind](state, top, seat)`` lists the choices; ``APPLY[cls]`` resolves
an action; ``WORK[kind]`` runs an automatic step.
"""

from __future__ import annotations

from typing import Any, Callable

from . import actions as A
from .board import REWARDS, RUNE_UNITS
from .components import (ACTIVE, HERBS, HERBS_PER_PLAYER, HERB_FOOD, HERB_INDEX, HERB_TABLET, INACTIVE,
                         ON_BOARD, POTIONS, POTION_COST, POTION_INDEX, SPACE_STRIDE, TABLETS, TABLET_INDEX)
from .potions import brew
from .steps import (ACTIVATE_HERB, ARRANGE_HERBS, BEGIN_PLAY, BREW_POTION, CHOOSE_START, COMPETITION, DOLMENS,
                    END_TURN, FIRE_PITS, FLIP_HERB, KEEP_TABLET, MOVE, PLACE_DIE, PLACE_RUNE_STONE,
                    PLACE_STANDING_STONE, PROVISIONS_OR_DICE, RAISE_DIE, RELEASED_HERBS, REPEAT_FIRE_REWARD,
                    REPEAT_STONE_REWARD, SANCTUARY_ACTION, TAKE_DIE, TAKE_GEM, TAKE_HERB, TAKE_TABLET)

# The board-independent actions, built once (the board's own are in ``board.tables``).
FOOD_PROVISIONS = A.FoodChoice("provisions")
FOOD_DICE = A.FoodChoice("dice")
STOP_BREWING = A.Stop("potions")
STOP_RAISING = A.Stop("dice to raise")
SKIP_STANDING = A.Skip("standing-stone")
SKIP_RUNE = A.Skip("rune-stone")
TAKE_DIE_ACTIONS = [None] + [A.TakeDie(v) for v in range(1, 7)]
BREW = [A.Brew(name) for name in POTIONS]
REPEAT = [A.RepeatReward(r) for r in REWARDS]
FLIP = [A.FlipHerb(h) for h in HERBS]
TAKE_HERB_ACTIONS = [A.TakeHerb(h) for h in HERBS]
ACTIVATE = [[A.ActivateHerb(HERBS[a], HERBS[b]) for b in range(len(HERBS))] for a in range(len(HERBS))]
ARRANGE = [[A.ArrangeHerb(h, c) for c in range(HERBS_PER_PLAYER)] for h in HERBS]
KEEP = [A.KeepTablet(t) for t in TABLETS]
TABLET_ACTIONS = [[A.TakeTablet(slot, t) for t in TABLETS] for slot in range(12)]
STANDING = [A.StandingStone(r) for r in REWARDS]
RUNE = {unit: A.RuneStone(unit) for unit in RUNE_UNITS}


def _always(state, top) -> bool:
    return True


# ----- setup ------------------------------------------------------------------------------------

def legal_start(state, top, seat):
    b = state.board
    taken = state.start_at
    return [A.StartSpace(b.start_names[k], b.names[s])
            for k, s in enumerate(b.start_sanctuary) if s not in taken]


def apply_start(state, action, seat):
    if state.events is not None:
        state._event("choose_start", seat, start=action.start, sanctuary=action.sanctuary)
    state.stack.pop()
    state.start_at[seat] = state.board.index[action.sanctuary]


def settle_draft(state, top) -> bool:
    if not state.draft_hand:
        for _ in range(min(3, len(state.deck))):
            state.draft_hand.append(state.deck.pop())
            state.deck_marks.pop()
        if not state.draft_hand:
            state.stack.pop()
            return False
        if state.events is not None:     # drawn blind: only the drafter sees them
            p = top[1]
            state._event("draft_draw", None, secret={"tablets": [TABLETS[t] for t in state.draft_hand]},
                         seen_by=(p,), player=p, count=len(state.draft_hand))
    return True


def legal_draft(state, top, seat):
    return [KEEP[t] for t in sorted(set(state.draft_hand))]


def apply_keep_tablet(state, action, seat):
    state.stack.pop()
    hand = state.draft_hand
    hand.remove(TABLET_INDEX[action.tablet])
    if state.events is not None:
        state._event("keep_tablet", seat, secret={"under_tablets": [TABLETS[t] for t in hand]},
                     seen_by=(seat,), tablet=action.tablet, under=len(hand))
    state.tablets[seat].append(TABLET_INDEX[action.tablet])
    for t in hand:                     # V1: the other two go under the deck (this player knows them)
        state.deck.insert(0, t)
        state.deck_marks.insert(0, seat)
    hand.clear()


def settle_arrange(state, top) -> bool:
    if state._arranging():
        return True
    state.stack.pop()
    if state.events is not None:
        at = state.herb_at
        n = HERBS_PER_PLAYER
        state._event("herbs_revealed", None,
                     layouts=[[HERBS[h] for h in at[n * p:n * (p + 1)]] for p in range(state.n)])
    return False


def legal_arrange(state, top, seat):
    k = state.arranged[seat]
    done = set(state.herb_at[HERBS_PER_PLAYER * seat:HERBS_PER_PLAYER * seat + k])
    return [ARRANGE[h][k] for h in range(HERBS_PER_PLAYER) if h not in done]


def apply_arrange(state, action, seat):
    if state.events is not None:     # laid face down: only the arranger knows which herb
        state._event("arrange_herb", seat, secret={"herb": action.herb}, seen_by=(seat,), circle=action.circle)
    k = state.arranged[seat]
    state.herb_at[HERBS_PER_PLAYER * seat + k] = HERB_INDEX[action.herb]
    state.arranged[seat] = k + 1


# ----- step 1 and 2 ------------------------------------------------------------------------------

def apply_move(state, action, seat):
    if state.events is not None:
        state._event("move", seat, from_sanctuary=state.board.names[state.figure[seat]],
                     sanctuary=action.to, cost=action.cost)
    state.stack[-1] = (PLACE_DIE, 0, 0)
    state.provisions[seat] -= action.cost
    state.figure[seat] = state.board.index[action.to]


def apply_leap(state, action, seat):
    if state.events is not None:
        state._event("forest_leap", seat, from_sanctuary=state.board.names[state.figure[seat]],
                     sanctuary=action.to, cost=1)
    state.stack[-1] = (PLACE_DIE, 0, 0)
    state.provisions[seat] -= 1
    state.figure[seat] = state.board.index[action.to]


def apply_emergency(state, action, seat):
    """Druid in trouble (Q4): replaces the whole turn; +6 provisions and 1 die (else +2 prestige)."""
    if state.events is not None:
        forced = state._legal_turn(state.stack[-1], seat) == [A.EMERGENCY]
        state._event("emergency", seat, provisions=6, forced=forced)
    state.stack.pop()
    state.provisions[seat] += 6
    state.take_dice(seat, 1)


def apply_place(state, action, seat):
    if state.events is not None:
        state._event("place_die", seat, sanctuary=action.sanctuary, space=action.space,
                     space_action=action.action, die=action.die, value=action.value, cost=action.value)
    state.stack.pop()
    state.place_die(seat, state.board.index[action.sanctuary], action.space - 1, action.die, action.value)


# ----- provisions and dice -------------------------------------------------------------------------

def apply_food(state, action, seat):
    state.stack.pop()
    before = state.prestige[seat]
    provisions = 0
    if action.take == "provisions":
        provisions = 12
        if state.herb_state[HERBS_PER_PLAYER * seat + HERB_FOOD] == ACTIVE:
            provisions += 6
            state.vp3(seat)
        state.provisions[seat] += provisions
    else:
        state.take_dice(seat, 3)       # Q18: the provisions herb gives nothing here
    if state.events is not None:
        state._event("food_choice", seat, take=action.take, provisions=provisions,
                     prestige=state.prestige[seat] - before)


def settle_take_die(state, top) -> bool:
    """Waits while which dice are taken is the player's choice. Otherwise (a single possible
    outcome: every die left shows one value, or no more are left than are to be taken, so
    every order of picks ends alike) takes them at once, lowest first, in one entry; each die
    missing gives +2 prestige. Asking for the order would only make two picks that leave one
    view tell the takes in two orders."""
    p = state.player
    ov = state.overview
    base = 7 * p
    count = top[1]
    values = [v for v in range(1, 7) if ov[base + v]]
    if len(values) > 1 and sum(ov[base + 1:base + 7]) > count:
        return True
    state.stack.pop()
    taken = []
    for v in values:
        t = min(count, ov[base + v])
        ov[base + v] -= t
        state.reserve[base + v] += t
        count -= t
        taken += [v] * t
    state.prestige[p] += 2 * count     # each die missing from the overview board: +2 prestige
    if state.events is not None:
        state._event("overview_dice", None, player=p, values=taken, missing=count, prestige=2 * count)
    return False


def legal_take_die(state, top, seat):
    ov = state.overview
    base = 7 * seat
    return [TAKE_DIE_ACTIONS[v] for v in range(1, 7) if ov[base + v]]


def apply_take_die(state, action, seat):
    top = state.stack[-1]
    if top[1] > 1:
        state.stack[-1] = (TAKE_DIE, top[1] - 1, 0)
    else:
        state.stack.pop()
    if state.events is not None:
        state._event("take_die", seat, value=action.value)
    state.overview[7 * seat + action.value] -= 1
    state.reserve[7 * seat + action.value] += 1


# ----- tablets ------------------------------------------------------------------------------------

def settle_tablet(state, top) -> bool:
    if top[1] > 0 and any(t >= 0 for t in state.oracle_slots):
        return True
    state.stack.pop()
    if top[1] > 0:
        state.record_no_effect("tablet action", "no tablet is left at the oracle site")
    return False


def legal_tablet(state, top, seat):
    return [TABLET_ACTIONS[slot][t] for slot, t in enumerate(state.oracle_slots) if t >= 0]


def apply_take_tablet(state, action, seat):
    top = state.stack[-1]
    if top[1] > 1:
        state.stack[-1] = (TAKE_TABLET, top[1] - 1, 0)
    else:
        state.stack.pop()
    before = state.prestige[seat]
    state.take_tablet(seat, action.slot)
    if state.events is not None:
        side = action.slot // 2
        stones = [REWARDS[state.oracle_stones[side]], REWARDS[state.oracle_stones[(side + 1) % 6]]]
        times = 2 if state.herb_state[HERBS_PER_PLAYER * seat + HERB_TABLET] == ACTIVE else 1
        refill = state.oracle_slots[action.slot]
        state._event("take_tablet", seat, tablet=action.tablet, slot=action.slot, side=side,
                     rewards=stones * times, refill=TABLETS[refill] if refill >= 0 else None,
                     prestige=state.prestige[seat] - before)


# ----- potions ------------------------------------------------------------------------------------

def _brewable(state, p):
    m = state.mistletoe[p]
    owner = state.potion_owner
    return [k for k in range(len(POTIONS)) if owner[k] < 0 and POTION_COST[k] <= m]


def settle_brew(state, top) -> bool:
    if top[1] > 0 and _brewable(state, state.player):
        return True
    state.stack.pop()
    return False


def legal_brew(state, top, seat):
    out = [BREW[k] for k in _brewable(state, seat)]
    out.append(STOP_BREWING)
    return out


def apply_brew(state, action, seat):
    top = state.stack[-1]
    if top[1] > 1:
        state.stack[-1] = (BREW_POTION, top[1] - 1, 0)
    else:
        state.stack.pop()
    k = POTION_INDEX[action.potion]
    state.mistletoe[seat] -= POTION_COST[k]
    state.potion_owner[k] = seat
    before = state.prestige[seat]
    brew(state, seat, k)
    if state.events is not None:
        state._event("brew", seat, potion=action.potion, cost=POTION_COST[k],
                     prestige=state.prestige[seat] - before)


def apply_stop(state, action, seat):
    if state.events is not None:
        state._event(action.kind, seat, what=action.what)
    state.stack.pop()


# ----- amulet -------------------------------------------------------------------------------------

def _gem_choices(state, top, p):
    rows = (top[1],) if top[1] >= 0 else (0, 1, 2)
    am = state.amulet
    open_rows = [r for r in rows if am[6 * p + 2 * r + 1] < 0]     # left fills first
    if not open_rows:
        return []
    gm = state.gem_mask[p]
    gems = [g for g in range(6) if not (gm >> g) & 1 and state.gems_left[g] > 0]
    table = state.board.tables["gems"]
    return [table[r][g] for r in open_rows for g in gems]


def settle_gem(state, top) -> bool:
    if _gem_choices(state, top, state.player):
        return True
    state.stack.pop()               # Q6: row full or no new gem type: no effect
    if state.events is not None:
        p = state.player
        rows = (top[1],) if top[1] >= 0 else (0, 1, 2)
        full = all(state.amulet[6 * p + 2 * r + 1] >= 0 for r in rows)
        row = "every row" if top[1] < 0 else f"the {state.board.amulet_rows[top[1]]} row"
        state.record_no_effect("amulet action", f"{row} is full" if full else "no new type of gem is left")
    return False


def legal_gem(state, top, seat):
    return _gem_choices(state, top, seat)


def apply_gem(state, action, seat):
    top = state.stack.pop()
    g = REWARDS.index(action.gem)
    r = state.board.amulet_rows.index(action.row)
    slot = 6 * seat + 2 * r
    if state.amulet[slot] >= 0:
        slot += 1
    state.amulet[slot] = g
    state.gem_mask[seat] |= 1 << g
    state.gems_left[g] -= 1
    if state.events is not None:
        before = state.prestige[seat]
        state.gain(seat, g, top[2])     # each award separate (the prestige herb upgrades each)
        state._event("take_gem", seat, gem=action.gem, row=action.row, times=top[2],
                     prestige=state.prestige[seat] - before)
    else:
        state.gain(seat, g, top[2])


# ----- standing and rune stones ------------------------------------------------------------------

def settle_stone(state, top) -> bool:
    if state.standing[state.player] != (1 << len(state.board.standing_row)) - 1:
        return True
    state.stack.pop()
    state.record_no_effect("standing-stone action", "every standing stone is already placed")
    return False


def legal_stone(state, top, seat):
    row = state.board.standing_row
    mask = state.standing[seat]
    out, seen = [], set()
    for k in range(len(row)):
        if not (mask >> k) & 1 and row[k] not in seen:
            seen.add(row[k])
            out.append(STANDING[row[k]])
    if top[1]:
        out.append(SKIP_STANDING)
    return out


def apply_standing_stone(state, action, seat):
    state.stack.pop()
    row = state.board.standing_row
    r = REWARDS.index(action.stone)
    k = next(k for k in range(len(row)) if row[k] == r and not (state.standing[seat] >> k) & 1)
    if state.events is not None:
        before = state.prestige[seat]
        state.place_standing_stone(seat, k)
        mask = state.standing[seat]
        gained = [REWARDS[row[k]]] + [REWARDS[row[j]] for j in range(len(row)) if (mask >> j) & 1]
        state._event("standing_stone", seat, stone=action.stone, rewards=gained,
                     prestige=state.prestige[seat] - before)
    else:
        state.place_standing_stone(seat, k)


def _single_or_choose(state, mask, herb) -> bool:
    """Repeat decisions: one possible reward is taken at once; several wait for a choice."""
    if mask and mask & (mask - 1):
        return True
    state.stack.pop()
    if mask:
        p = state.player
        before = state.prestige[p]
        reward = mask.bit_length() - 1
        state.gain(p, reward)
        if state.events is not None:
            state._event("repeat_reward", None, player=p, reward=REWARDS[reward], herb=herb,
                         prestige=state.prestige[p] - before)
    return False


def settle_stand_again(state, top) -> bool:
    return _single_or_choose(state, top[1], "H_STAND")


def legal_repeat_mask(state, top, seat):
    mask = top[1]
    return [REPEAT[r] for r in range(6) if (mask >> r) & 1]


def _pit_mask(state, k):
    m = 0
    for r in state.board.pit_rewards[k]:
        m |= 1 << r
    return m


def settle_fire_again(state, top) -> bool:
    return _single_or_choose(state, _pit_mask(state, top[1]), "H_FIRE")


def legal_fire_again(state, top, seat):
    m = _pit_mask(state, top[1])
    return [REPEAT[r] for r in range(6) if (m >> r) & 1]


def apply_repeat(state, action, seat):
    top = state.stack.pop()
    before = state.prestige[seat]
    state.gain(seat, REWARDS.index(action.reward))
    if state.events is not None:
        state._event("repeat_reward", seat, reward=action.reward,
                     herb="H_FIRE" if top[0] == REPEAT_FIRE_REWARD else "H_STAND",
                     prestige=state.prestige[seat] - before)


def settle_rune(state, top) -> bool:
    if state.runes[state.player] != (1 << len(state.board.rune_stones)) - 1:
        return True
    state.stack.pop()
    state.record_no_effect("rune-stone action", "every rune stone is already placed")
    return False


def legal_rune(state, top, seat):
    stones = state.board.rune_stones
    mask = state.runes[seat]
    out: list[A.Action] = [RUNE[stones[k].unit] for k in range(len(stones)) if not (mask >> k) & 1]
    if top[2]:
        out.append(SKIP_RUNE)
    return out


def apply_rune(state, action, seat):
    top = state.stack.pop()
    stones = state.board.rune_stones
    k = next(k for k in range(len(stones))
             if stones[k].unit == action.stone and not (state.runes[seat] >> k) & 1)
    before = state.prestige[seat]
    state.place_rune_stone(seat, k, top[1])
    if state.events is not None:
        state._event("rune_stone", seat, stone=action.stone, value=top[1], amount=stones[k].amount(top[1]),
                     prestige=state.prestige[seat] - before)


# ----- dice to 6, herbs ---------------------------------------------------------------------------

def _raisable(state, p):
    owner, value = state.owner, state.value
    table = state.board.tables["raise"]
    out = []
    for s in range(state.board.size):
        if not (state.die_mask[p] >> s) & 1:
            continue
        for i in range(state.n):
            j = s * SPACE_STRIDE + i
            if owner[j] == p and value[j] < 6:
                out.append(table[s][i][value[j]])
    return out


def settle_raise(state, top) -> bool:
    if top[1] > 0 and _raisable(state, state.player):
        return True
    state.stack.pop()
    if top[1] == 3 or (top[1] == 1 and not top[2]):     # P6a or P1c before any die was raised
        state.record_no_effect(f"potion {'P6a' if top[1] == 3 else 'P1c'}", "no placed die of that player shows less than 6")
    return False


def legal_raise(state, top, seat):
    out = _raisable(state, seat)
    if top[2]:
        out.append(STOP_RAISING)
    return out


def apply_raise(state, action, seat):
    top = state.stack[-1]
    if top[1] > 1:
        state.stack[-1] = (RAISE_DIE, top[1] - 1, top[2])
    else:
        state.stack.pop()
    if state.events is not None:
        state._event("raise_die", seat, sanctuary=action.sanctuary, space=action.space, value=action.value)
    state.raise_die(state.board.index[action.sanctuary], action.space - 1)


def _herbs_in(state, p, wanted):
    hs = state.herb_state
    return [h for h in range(HERBS_PER_PLAYER) if hs[HERBS_PER_PLAYER * p + h] == wanted]


def settle_flip(state, top) -> bool:
    if _herbs_in(state, state.player, INACTIVE):
        return True
    state.stack.pop()
    state.record_no_effect("potion P1b", "no herb of that player is face down")
    return False


def legal_flip(state, top, seat):
    return [FLIP[h] for h in _herbs_in(state, seat, INACTIVE)]


def apply_flip(state, action, seat):
    if state.events is not None:
        state._event("flip_herb", seat, herb=action.herb)
    state.stack.pop()
    state.herb_state[HERBS_PER_PLAYER * seat + HERB_INDEX[action.herb]] = ACTIVE


def settle_take_herb(state, top) -> bool:
    if top[1] > 0 and _herbs_in(state, state.player, ON_BOARD):
        return True
    state.stack.pop()
    if not top[2]:                  # nothing taken yet (top[2] counts the herbs taken)
        state.record_no_effect(f"potion {'P2a' if top[1] == 1 else 'P4c'}", "no herb is left on the sickle track")
    return False


def legal_take_herb(state, top, seat):
    return [TAKE_HERB_ACTIONS[h] for h in _herbs_in(state, seat, ON_BOARD)]


def apply_take_herb(state, action, seat):
    if state.events is not None:
        state._event("take_herb", seat, herb=action.herb)
    top = state.stack[-1]
    if top[1] > 1:
        state.stack[-1] = (TAKE_HERB, top[1] - 1, top[2] + 1)
    else:
        state.stack.pop()
    state.herb_state[HERBS_PER_PLAYER * seat + HERB_INDEX[action.herb]] = ACTIVE


def legal_release(state, top, seat):
    k = top[1]
    h1, h2 = state.herb_at[HERBS_PER_PLAYER * seat + 2 * k], state.herb_at[HERBS_PER_PLAYER * seat + 2 * k + 1]
    return [ACTIVATE[h1][h2], ACTIVATE[h2][h1]]


def apply_activate(state, action, seat):
    if state.events is not None:
        state._event("activate_herb", seat, herb=action.herb, other=action.other)
    state.stack.pop()
    state.herb_state[HERBS_PER_PLAYER * seat + HERB_INDEX[action.herb]] = ACTIVE
    state.herb_state[HERBS_PER_PLAYER * seat + HERB_INDEX[action.other]] = INACTIVE


# ----- automatic steps ----------------------------------------------------------------------------

def work_compete(state, top):
    state.competition(top[1])


def work_action(state, top):
    state.do_action(state.player, top[1], top[2])


def work_fire(state, top):
    state.close_fire_pits(state.player, top[1])


def work_dolmen(state, top):
    state.link_dolmens(state.player)


def work_herbs(state, top):
    state.release_herbs(state.player)


def work_end_turn(state, top):
    state.end_turn()


def work_begin(state, top):
    state.player = state.start_player
    state.begin_turn()


_LEGAL_BY_STEP: dict[int, Callable[[Any, Any, Any], list]] = {
    CHOOSE_START: legal_start, KEEP_TABLET: legal_draft, ARRANGE_HERBS: legal_arrange,
    MOVE: lambda st, top, seat: st._legal_turn(top, seat),
    PLACE_DIE: lambda st, top, seat: st._legal_place(top, seat),
    PROVISIONS_OR_DICE: lambda st, top, seat: [FOOD_PROVISIONS, FOOD_DICE],
    TAKE_DIE: legal_take_die, TAKE_TABLET: legal_tablet, BREW_POTION: legal_brew, TAKE_GEM: legal_gem,
    PLACE_STANDING_STONE: legal_stone, REPEAT_STONE_REWARD: legal_repeat_mask, PLACE_RUNE_STONE: legal_rune,
    REPEAT_FIRE_REWARD: legal_fire_again, RAISE_DIE: legal_raise, FLIP_HERB: legal_flip,
    TAKE_HERB: legal_take_herb, ACTIVATE_HERB: legal_release,
}
LEGAL = [_LEGAL_BY_STEP[k] for k in range(max(_LEGAL_BY_STEP) + 1)]  # indexed by step (every decision has one)

_SETTLE_BY_STEP: dict[int, Callable[[Any, Any], bool]] = {
    CHOOSE_START: _always, KEEP_TABLET: settle_draft, ARRANGE_HERBS: settle_arrange, MOVE: _always,
    PLACE_DIE: _always, PROVISIONS_OR_DICE: _always, TAKE_DIE: settle_take_die, TAKE_TABLET: settle_tablet,
    BREW_POTION: settle_brew, TAKE_GEM: settle_gem, PLACE_STANDING_STONE: settle_stone, REPEAT_STONE_REWARD: settle_stand_again,
    PLACE_RUNE_STONE: settle_rune, REPEAT_FIRE_REWARD: settle_fire_again, RAISE_DIE: settle_raise, FLIP_HERB: settle_flip,
    TAKE_HERB: settle_take_herb, ACTIVATE_HERB: _always,
}
SETTLE = [_SETTLE_BY_STEP[k] for k in range(max(_SETTLE_BY_STEP) + 1)]  # indexed by step (every decision has one)

APPLY = {
    A.StartSpace: apply_start, A.KeepTablet: apply_keep_tablet, A.ArrangeHerb: apply_arrange,
    A.Move: apply_move, A.ForestLeap: apply_leap, A.Emergency: apply_emergency,
    A.PlaceDie: apply_place, A.FoodChoice: apply_food, A.TakeDie: apply_take_die,
    A.TakeTablet: apply_take_tablet, A.Brew: apply_brew, A.Stop: apply_stop, A.Skip: apply_stop,
    A.TakeGem: apply_gem,
    A.StandingStone: apply_standing_stone, A.RuneStone: apply_rune, A.RepeatReward: apply_repeat,
    A.RaiseDie: apply_raise, A.FlipHerb: apply_flip, A.TakeHerb: apply_take_herb,
    A.ActivateHerb: apply_activate,
}

WORK = {COMPETITION: work_compete, SANCTUARY_ACTION: work_action, FIRE_PITS: work_fire, DOLMENS: work_dolmen,
        RELEASED_HERBS: work_herbs, END_TURN: work_end_turn, BEGIN_PLAY: work_begin}
