"""Amarok's rule-of-thumb player: one-step look-ahead on a round-win estimate.

The policy reads only what its seat sees (a view, or the same knowledge extracted from a
determinized state). For each legal action it plays the card out in its head (known cards
exactly, unknown cards averaged over the cards it has not seen anywhere) and scores the
position with :func:`utility`:

- each player (team) still to play a card is expected to get a card a little better than the
  average card left (players pick well), so the projected totals per the objective give a
  soft round-win share among the untrapped players (teams); a wolf trap in front means no win;
- a player (team) with one heart in front and a heart within reach threatens to mate; a
  second heart for us wins at once;
- change of season is scored with the objective flipped; a claw by its best target (own trap,
  an opponent's lone heart, the leader's best card...), found by the same scoring;
- the utility is our round-win share minus the opponents', weighted by how close each is to
  winning the game.

``evaluate`` turns levels plus the current round's (omniscient) round-win shares into each
seat's estimated share of the game win.
"""

from __future__ import annotations

import math
import random
from typing import Any, Mapping, Sequence

from ...engine import Action, State, TERMINAL
from .components import CLAW, HEART, SEASON, TRAP, load_deck
from .rules import EMPTY, AmarokState
from .infer import cached_options
from ...engine.heuristic import GameHeuristic

HIDDEN = -2  # a hand card the seat cannot see
EDGE = 2.0  # how much better than average a player's future card is expected to be
WIN = 10.0  # utility of winning the round at once by mating


class Knowledge:
    """What one seat knows, with cards as deck indices."""

    __slots__ = ("index", "values", "symbols", "n", "teams", "me", "sign", "front", "hand", "river",
                 "deck_size", "bottom", "pool", "levels", "partner_hand", "target")
    index: dict[str, int]       # card id -> deck index
    values: tuple[int, ...]     # per card
    symbols: tuple[int, ...]    # per card
    n: int
    teams: bool
    me: int                     # the seat
    sign: int                   # 1 for the wolf pack, -1 for the lone wolf
    front: list[list[int]]      # the cards in front of each seat
    hand: list[int]             # hand[2*seat + slot]: a card, EMPTY or HIDDEN
    river: list[int]
    deck_size: int
    bottom: list[int]           # the deck's known bottom cards
    pool: list[int]             # the cards the seat has not seen anywhere
    levels: list[int]           # each seat's round wins
    partner_hand: bool
    target: int                 # rounds to win

    def copy(self) -> "Knowledge":
        k = Knowledge.__new__(Knowledge)
        for name in Knowledge.__slots__:
            setattr(k, name, getattr(self, name))
        k.front = [row[:] for row in self.front]
        k.hand = self.hand[:]
        k.river = self.river[:]
        k.pool = self.pool[:]
        return k

    def unit(self, seat: int) -> tuple[int, ...]:
        if self.teams:
            half = self.n // 2
            return (seat % half, seat % half + half)
        return (seat,)

    def units(self) -> list[tuple[int, ...]]:
        return [self.unit(s) for s in range(self.n // 2 if self.teams else self.n)]


def knowledge_from_state(state: AmarokState, seat: int) -> Knowledge:
    """The seat's knowledge read from a state: only what ``seat`` sees (ruling K2 faces)."""
    k = Knowledge.__new__(Knowledge)
    k.index, k.values, k.symbols = state.cards.index, state.cards.values, state.cards.symbols
    k.n, k.teams, k.me = state.n, state.teams, seat
    k.sign = 1 if state.objective == 0 else -1
    k.front = [state.front[2 * p:2 * p + state.front_count[p]] for p in range(state.n)]
    hand, owner_sees = state.hand, state.owner_sees
    known = set()
    k.hand = []
    for i, c in enumerate(hand):
        if c == EMPTY:
            k.hand.append(EMPTY)
        elif owner_sees[i] == (i >> 1 == seat):
            k.hand.append(c)
            known.add(c)
        else:
            k.hand.append(HIDDEN)
    k.river = state.river[:]
    k.deck_size = len(state.deck)
    k.bottom = state.deck[:state.known_bottom]
    for row in k.front:
        known.update(row)
    known.update(k.river)
    known.update(k.bottom)
    k.pool = [c for c in range(len(k.values)) if c not in known]
    k.levels = state.levels
    k.partner_hand = state.options.partner_hand
    k.target = state.target
    return k


def knowledge_from_view(view: Mapping[str, Any]) -> Knowledge:
    deck = load_deck(cached_options(view["options"]).deck)
    index = deck.index
    k = Knowledge.__new__(Knowledge)
    k.index, k.values, k.symbols = index, deck.values, deck.symbols
    k.n, k.teams, k.me = view["players"], bool(view["teams"]), view["seat"]
    k.sign = 1 if view["objective"] == "wolf_pack" else -1
    k.front = [[index[c] for c in row] for row in view["fronts"]]
    k.hand = []
    for row in view["hands"]:
        for slot in row:
            k.hand.append(EMPTY if slot is None else (HIDDEN if slot["card"] is None else index[slot["card"]]))
    k.river = [index[c] for c in view["river"]]
    k.deck_size = view["deck_size"]
    k.bottom = [index[c] for c in reversed(view["deck_bottom"])]
    known = {c for c in k.hand if c >= 0}
    for row in k.front:
        known.update(row)
    known.update(k.river)
    known.update(k.bottom)
    k.pool = [c for c in range(len(deck)) if c not in known]
    k.levels = [int(v) for v in view["scores"]]  # the scores are the round wins
    k.partner_hand = view["options"].get("partner_hand", False)
    k.target = view["rounds_to_win"]
    return k


# ----- scoring a position ------------------------------------------------------------------
def round_shares(k: Knowledge) -> list[float]:
    """Each unit's estimated chance to win the round (trap-aware soft-max plus mating)."""
    values, symbols, sign = k.values, k.symbols, k.sign
    in_front = [c for row in k.front for c in row]
    left = [c for c in range(len(values)) if c not in in_front and symbols[c] != TRAP]
    mean = sum(values[c] for c in left) / len(left) if left else 0.0
    future = mean + sign * EDGE
    missing = sum(2 - len(row) for row in k.front)
    scale = 1.5 + 0.8 * missing
    # hearts within reach: seen by me outside the fronts, or unseen
    reach = sum(1 for c in k.river if symbols[c] == HEART)
    reach += sum(1 for c in k.hand if c >= 0 and symbols[c] == HEART)
    unseen_hearts = sum(1 for c in k.pool if symbols[c] == HEART)
    units = k.units()
    strength, mate = [], []
    for unit in units:
        total, trapped, m = 0.0, False, 0.0
        for p in unit:
            row = k.front[p]
            for c in row:
                total += values[c]
                trapped |= symbols[c] == TRAP
            total += (2 - len(row)) * future
            if len(row) == 1 and symbols[row[0]] == HEART:
                m = max(m, 0.7 if reach else min(0.45, 0.12 * unseen_hearts))
        strength.append(None if trapped else sign * total / scale)
        mate.append(m)
    free = [s for s in strength if s is not None]
    shares = [0.0] * len(units)
    if free:
        top = max(free)
        weights = [0.0 if s is None else math.exp(s - top) for s in strength]
        z = sum(weights)
        shares = [w / z for w in weights]
    total_mate = sum(mate)
    if total_mate > 0:
        if total_mate > 0.9:
            mate = [m * 0.9 / total_mate for m in mate]
            total_mate = 0.9
        shares = [m + (1 - total_mate) * s for m, s in zip(mate, shares)]
    return shares


def utility(k: Knowledge) -> float:
    """Our unit's round-win share minus the opponents', weighted by their danger."""
    shares = round_shares(k)
    mine = k.unit(k.me)[0]
    u = 0.0
    for i, unit in enumerate(k.units()):
        if i == mine:
            u += shares[i]
        else:
            level = k.levels[unit[0]]
            u -= shares[i] * (0.25 + 0.4 * level / max(1, k.target - 1))
    return u


def play(k: Knowledge, card: int) -> float:
    """The utility after we play ``card`` (its symbol resolved; a claw at its best target)."""
    symbols = k.symbols
    me = k.me
    row = k.front[me]
    sym = symbols[card]
    if sym == HEART and len(row) == 1 and symbols[row[0]] == HEART:
        return WIN
    row.append(card)
    if sym == SEASON:
        k.sign = -k.sign
    try:
        if sym == CLAW:
            return max((u for _, u in claw_options(k, card)), default=utility(k))
        return utility(k)
    finally:
        row.pop()
        if sym == SEASON:
            k.sign = -k.sign


def claw_options(k: Knowledge, claw: int) -> list[tuple[tuple, float]]:
    """(target, utility) for every claw target that changes what we know."""
    out: list[tuple[tuple, float]] = []
    for p, row in enumerate(k.front):
        for i, c in enumerate(row):
            if c == claw:
                continue
            del row[i]
            out.append((("front", p, c), utility(k)))
            row.insert(i, c)
    base = None
    for i, c in enumerate(k.hand):
        if c == EMPTY:
            continue
        if c == HIDDEN:
            if base is None:
                base = utility(k)
            out.append((("hand", i), base - 0.001))
            continue
        k.hand[i] = EMPTY
        out.append((("hand", i), utility(k)))
        k.hand[i] = c
    for i, c in enumerate(k.river):
        del k.river[i]
        out.append((("river", c), utility(k)))
        k.river.insert(i, c)
    if k.deck_size:
        if base is None:
            base = utility(k)
        out.append((("deck",), base - 0.002))
    return out


def expected_unknown(k: Knowledge) -> float:
    """The utility of playing a card we cannot see (average over the unseen cards)."""
    pool = k.pool
    if not pool:
        return utility(k)
    seen: dict[tuple, float] = {}
    total = 0.0
    for c in pool[:]:
        key = (k.values[c], k.symbols[c]) if k.symbols[c] != CLAW else (c,)
        u = seen.get(key)
        if u is None:
            pool.remove(c)
            u = seen[key] = play(k, c)
            pool.append(c)
        total += u
    return total / len(pool)


def take_known(k: Knowledge, action: Any) -> float:
    """The utility of taking a card we can see: out of its place, then played (``action``: a
    take action, whose fields its kind tells)."""
    kind = action.kind
    if kind == "take_river":
        card = k.index[action.card]
        i = k.river.index(card)
        del k.river[i]
        u = play(k, card)
        k.river.insert(i, card)
        return u
    if kind == "take_own":
        i = 2 * k.me + action.slot
    else:  # take_seen
        i = 2 * action.seat
        if k.hand[i] != k.index[action.card]:
            i += 1
    card = k.hand[i]
    k.hand[i] = EMPTY
    u = play(k, card)
    k.hand[i] = card
    return u


def choose(k: Knowledge, legal: Sequence[Action], rng: random.Random) -> Action:
    if legal[0].kind.startswith("claw"):
        return choose_claw(k, legal, rng)
    unknown = None
    best: list[Action] = []
    best_u = -math.inf
    me = k.me
    takes: Sequence[Any] = legal  # each read by its kind (an annotation: no cast in rollouts)
    for a in takes:
        kind = a.kind
        if kind == "take_deck" or kind == "take_unseen" or (
                kind == "take_own" and k.hand[2 * me + a.slot] == HIDDEN):
            if unknown is None:
                unknown = expected_unknown(k)
            u = unknown
            if kind == "take_unseen":  # a card its owner may have counted on
                u += 0.002 * (1 + k.levels[a.seat])
        else:
            u = take_known(k, a)
        if u > best_u + 1e-9:
            best, best_u = [a], u
        elif abs(u - best_u) <= 1e-9:
            best.append(a)
    return best[0] if len(best) == 1 else rng.choice(best)


def choose_claw(k: Knowledge, legal: Sequence[Action], rng: random.Random) -> Action:
    claw = k.front[k.me][-1]
    scored = {target: u for target, u in claw_options(k, claw)}
    best: list[Action] = []
    best_u = -math.inf
    claws: Sequence[Any] = legal  # each read by its kind (an annotation: no cast in rollouts)
    key: tuple
    for a in claws:
        kind = a.kind
        if kind == "claw_front":
            key = ("front", a.seat, k.index[a.card])
        elif kind == "claw_hand":
            key = ("hand", 2 * a.seat + a.slot)
        elif kind == "claw_river":
            key = ("river", k.index[a.card])
        else:
            key = ("deck",)
        u = scored.get(key, -math.inf)
        if u > best_u + 1e-9:
            best, best_u = [a], u
        elif abs(u - best_u) <= 1e-9:
            best.append(a)
    return best[0] if len(best) == 1 else rng.choice(best)


class AmarokHeuristic(GameHeuristic):
    def choose_from_view(self, view, legal, rng):
        return choose(knowledge_from_view(view), legal, rng)

    def choose_in_state(self, state: State, seat: int, legal, rng):
        assert isinstance(state, AmarokState)
        return choose(knowledge_from_state(state, seat), legal, rng)

    refined_settings = frozenset({"rollout"})

    def search_settings_for(self, options: Mapping[str, Any]) -> Mapping[str, Any]:
        """In teams of 4 players, search plays its rollouts with this policy: a seat's card is
        a quarter of its team's total, so random partners and opponents drown the signal
        (random playouts' action values correlate 0.24 with realistic ones, 0.47 without
        teams), and heuristic rollouts won +14.1% [+3.9%, +24.3%] against this heuristic at an
        equal time budget (160 games on the same deals, docs/ai.md). Not with 6 players, where
        they cost 14.7 times as much as random ones and lost -13.3% [-26.2%, -0.4%] (60
        games), nor without teams, where they tell actions apart no better than random ones
        (benchmarks/rollout_signal.py) at 5.4 times the cost."""
        return {"rollout": "heuristic"} if options.get("teams") and options.get("players") == 4 else {}

    def evaluate(self, state: State) -> list[float]:
        assert isinstance(state, AmarokState)
        n = state.n
        if state.turn == TERMINAL:
            return state.returns()
        k = knowledge_from_state(state, 0)
        k.hand = state.hand[:]  # omniscient: a determinized state is one possible world
        k.pool = []
        shares = round_shares(k)
        units = k.units()
        target = state.target
        # expected wins still needed after this round, per unit -> a soft share of the game
        need = [target - state.levels[u[0]] - shares[i] for i, u in enumerate(units)]
        weights = [math.exp(-1.6 * x) for x in need]
        z = sum(weights)
        out = [0.0] * n
        for i, unit in enumerate(units):
            for p in unit:
                out[p] = weights[i] / z
        return out


HEURISTIC = AmarokHeuristic()
