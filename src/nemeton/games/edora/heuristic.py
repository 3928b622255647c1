"""The Druids of Edora's rule-of-thumb player.

Edora is almost fully public (hidden are only the tablet deck's order, other seats' V1 draft
hands and, while V3 arranging lasts, other seats' face-down herbs), so the policy works on a
state. It is one function of what the seat sees: the lookahead runs on a copy whose hidden
parts are laid out in a fixed order (:func:`seen_by`: the unseen tablets sorted into the deck
positions the seat does not know), so a view (made into a state by the determinizer with a
stream of its own) and any state with that view give the same choice and draw the same
numbers from the caller's random stream (one per action looked at, to break exact ties).

- **Estimate** of each player's final score (:func:`estimates`): prestige so far; the
  sanctuaries they would collect now (highest dice + the stones there) times their knowledge
  multiplier, plus a little per knowledge step for what the multiplier will still reach; the
  sickle's band plus active herbs; met tablets (10) and a hope for the others; amulet points
  and gems; and the economy: provisions, mistletoe, reserve and overview dice, each worth
  less as the game nears its end (then only the leftovers count).
- **Choice**: every legal action is tried on a copy; a move is worth its best die placement
  at the destination; after that the rest of the turn's small decisions are taken by quick
  rules (best reward, best herb, the dearest useful potion). The action whose outcome has
  the best estimate for the seat, against a share of the strongest opponent, wins. An
  emergency turn is only taken when it is the best of all (or forced).

``evaluate`` turns the estimates into a soft share of the win (winners share 1).
"""

from __future__ import annotations

import math
import random
from typing import Any, Mapping, Sequence

from ...engine import Action, State, get_game
from .board import DIE, FOOD, KNOW, MIST, SICKLE, VP
from .components import (ACTIVE, HERBS_PER_PLAYER, HERB_AMULET, HERB_DIE, HERB_FIRE, HERB_FOOD, HERB_INDEX,
                         HERB_KNOW, HERB_LEAP, HERB_MIST, HERB_RUNE, HERB_SICKLE, HERB_STAND, HERB_TABLET,
                         HERB_VP, TABLET_INDEX)
from .rules import EdoraState
from .steps import BREW_POTION, KEEP_TABLET, MOVE, PLACE_DIE, PROVISIONS_OR_DICE
from .scoring import amulet_points, sanctuary_collections, tablet_met
from . import actions as A
from ...engine.heuristic import GameHeuristic

OPPONENT_SHARE = 0.5
TEMPERATURE = 12.0
HERB_VALUE = {HERB_VP: 9, HERB_DIE: 5, HERB_KNOW: 6, HERB_AMULET: 4, HERB_FOOD: 4, HERB_MIST: 3, HERB_SICKLE: 4,
              HERB_STAND: 3, HERB_TABLET: 4, HERB_FIRE: 3, HERB_RUNE: 3, HERB_LEAP: 2}
REWARD_VALUE = {VP: 3.0, KNOW: 2.5, FOOD: 1.8, DIE: 3.0, MIST: 1.5, SICKLE: 1.5}
POTION_VALUE = {"P6c": 25, "P3a": 10, "P4b": 14, "P5b": 13, "P5a": 14, "P6b": 12, "P5c": 12,
                "P4a": 9, "P2b": 7, "P2c": 5, "P3c": 6, "P3b": 6, "P4c": 10, "P2a": 5,
                "P1a": 5, "P1b": 3, "P1c": 3, "P6a": 8}


def estimates(st: EdoraState) -> list[float]:
    """Each player's estimated final score (see the module docstring)."""
    b = st.board
    n = st.n
    progress = min(1.0, max(st.placed) / 13.0)
    late = progress * progress
    w_provisions = 0.45 * (1 - late) + late / 6
    w_mistletoe = 1.4 * (1 - late) + late
    w_reserve = 3.5 * (1 - late) + late
    w_overview = 2.0 * (1 - late)
    collected = sanctuary_collections(st)
    out = []
    for p in range(n):
        e = float(st.prestige[p])
        knowledge = st.knowledge[p]
        mult = b.knowledge_multiplier[knowledge]
        e += collected[p] * mult + (1 - late) * 1.2 * knowledge
        e += b.sickle_score[st.sickle[p]] + 0.6 * (1 - late) * st.sickle[p]
        hs = st.herb_state
        e += (1 - late) * sum(
            HERB_VALUE[h] * 0.6 for h in range(HERBS_PER_PLAYER) if hs[HERBS_PER_PLAYER * p + h] == ACTIVE)
        for t in st.tablets[p]:
            e += 10 if tablet_met(st, p, t) else 2.5 * (1 - late)
        e += amulet_points(st, p) + 2.0 * bin(st.gem_mask[p]).count("1")
        e += w_provisions * min(st.provisions[p], 30) + w_mistletoe * st.mistletoe[p]
        base = 7 * p
        e += w_reserve * sum(st.reserve[base + 1:base + 7]) + w_overview * sum(st.overview[base + 1:base + 7])
        out.append(e)
    return out


def _objective(st: EdoraState, seat: int) -> float:
    if st.is_terminal():
        scores = st.scores()
        return scores[seat] - OPPONENT_SHARE * max(s for q, s in enumerate(scores) if q != seat)
    est = estimates(st)
    return est[seat] - OPPONENT_SHARE * max(e for q, e in enumerate(est) if q != seat)


# ----- quick rules for the small decisions inside a lookahead ----------------------------------

def _reward_value(st, p, name: str) -> float:
    from .board import REWARDS
    r = REWARDS.index(name)
    if r == VP and st.herb_state[HERBS_PER_PLAYER * p + HERB_VP] == ACTIVE:
        return 5.0
    return REWARD_VALUE[r]


def _quick_key(st: EdoraState, p: int, a: Action) -> float:
    if isinstance(a, A.FoodChoice):
        ov = sum(st.overview[7 * p + 1:7 * p + 7])
        dice_worth = min(ov, 3) * 3.0 + (3 - min(ov, 3)) * 2.0
        food_herb = st.herb_state[HERBS_PER_PLAYER * p + HERB_FOOD] == ACTIVE
        provisions_worth = 12 * (0.5 if st.provisions[p] < 15 else 0.25) + (9 if food_herb else 0)
        return provisions_worth if a.take == "provisions" else dice_worth
    if isinstance(a, A.TakeDie):
        return a.value if st.provisions[p] > 12 else -abs(a.value - 3.5)
    if isinstance(a, A.Brew):
        return POTION_VALUE.get(a.potion, 3)
    if isinstance(a, A.Stop):
        return 0.0
    if isinstance(a, A.Skip):
        return -1.0
    if isinstance(a, (A.TakeGem,)):
        return _reward_value(st, p, a.gem) + (1 if a.row == st.board.amulet_rows[0] else 0)
    if isinstance(a, A.StandingStone):
        return _reward_value(st, p, a.stone)
    if isinstance(a, A.RepeatReward):
        return _reward_value(st, p, a.reward)
    if isinstance(a, A.RuneStone):
        return {"PRESTIGE_POINT": 6, "PROVISION": 5, "KNOW": 5, "DIE": 4, "SICKLE_STEP": 3, "MIST": 3}[a.stone]
    if isinstance(a, (A.FlipHerb, A.TakeHerb, A.ActivateHerb)):
        return HERB_VALUE[HERB_INDEX[a.herb]]
    if isinstance(a, A.TakeTablet):
        t = TABLET_INDEX[a.tablet]
        side = a.slot // 2
        stones = st.oracle_stones
        v = REWARD_VALUE[stones[side]] + REWARD_VALUE[stones[(side + 1) % 6]]
        return v + (8 if tablet_met(st, p, t) else 0)
    if isinstance(a, A.RaiseDie):
        return 6 - a.value
    return 0.0


def _quick_complete(st: EdoraState, seat: int) -> None:
    """Finish seat's turn with the quick rules (stops at a new turn or the end)."""
    for _ in range(40):
        if st.over or st.current_player != seat:
            return
        k = st.stack[-1][0]
        if k == MOVE or k == PLACE_DIE:
            return
        legal = st._legal_actions(seat)  # seat is acting (checked above): no public checks in rollouts
        best = max(legal, key=lambda a: _quick_key(st, seat, a))
        st.apply_unchecked(best, seat)


def _value_after(st: EdoraState, seat: int, action: Action) -> float:
    c = st.clone()
    c.history = []
    c.events = None             # a lookahead tells nobody anything
    c.apply_unchecked(action, seat)
    if not c.over and c.current_player == seat and c.stack[-1][0] == PLACE_DIE:
        return max(_value_after(c, seat, a) for a in c._legal_actions(seat))
    _quick_complete(c, seat)
    return _objective(c, seat)


def seen_by(state: EdoraState, seat: int) -> EdoraState:
    """A copy of ``state`` for ``seat``'s lookahead: every part ``seat`` cannot see is laid out
    in a fixed order, so the copy depends on ``seat``'s view alone. The tablets it has not seen
    (in the deck positions it does not know, and another seat's V1 draft hand) are sorted into
    those positions, then into the hand; while V3 arranging lasts, the herbs other seats laid
    face down are the first herbs in order. History and log are left out (a lookahead tells
    nobody anything)."""
    c = state.clone()
    c.history = []
    c.events = None
    deck, marks = c.deck, c.deck_marks
    unknown = [k for k in range(len(deck)) if marks[k] != seat]
    top = c.stack[-1] if c.stack else None
    hand_seen = top is not None and top[0] == KEEP_TABLET and top[1] == seat
    cards = sorted([deck[k] for k in unknown] + ([] if hand_seen else c.draft_hand))
    for k, t in zip(unknown, cards):
        deck[k] = t
    if not hand_seen:
        c.draft_hand = cards[len(unknown):]
    if min(c.arranged) < HERBS_PER_PLAYER:
        for p in range(c.n):
            if p != seat:
                k = c.arranged[p]
                c.herb_at[HERBS_PER_PLAYER * p:HERBS_PER_PLAYER * (p + 1)] = (
                    list(range(k)) + [-1] * (HERBS_PER_PLAYER - k))
    return c


class EdoraHeuristic(GameHeuristic):
    """Greedy one-turn lookahead on an estimate of the final scores."""

    def choose_from_view(self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        # any state with this view will do (the lookahead reads it through seen_by): dealt
        # with a stream of its own, so that ``rng`` is used exactly as choose_in_state uses it
        state = get_game("edora").determinize(view, random.Random(0))
        seat = view["seat"] if view.get("seat") is not None else state.current_player
        return self.choose_in_state(state, seat, legal, rng)

    def choose_in_state(self, state: State, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        st: EdoraState = state  # type: ignore[assignment]
        top = st.stack[-1][0]
        if top not in (MOVE, PLACE_DIE, PROVISIONS_OR_DICE, BREW_POTION) and len(legal) > 8:
            return max(legal, key=lambda a: _quick_key(st, seat, a))   # reads public parts only
        st = seen_by(st, seat)
        best, best_value = None, -math.inf
        for a in legal:
            v = _value_after(st, seat, a) + rng.random() * 1e-6
            if v > best_value:
                best, best_value = a, v
        return best  # type: ignore[return-value]

    def search_settings(self) -> Mapping[str, Any]:
        # Against this heuristic at 1000 iterations a move, search without the prior lost
        # ground (2 players 0.36-0.43 over 22-30 games, 3 players 1 win in 12): its round-end
        # evaluation barely tells die values or sub-choices apart, so wide in-turn subtrees are
        # explored near uniformly. Starting every node from the heuristic's choice and keeping
        # a strong bonus for it (bias=10) brought 0.55 over 20 two-player games and 0.50
        # over 10 three-player ones (fair 0.33): search leaves the heuristic's line only when
        # its statistics clearly say so.
        return {"rollout": "heuristic", "prior": "heuristic", "bias": 10.0}

    refined_settings = frozenset({"widen"})

    def search_settings_for(self, options: Mapping[str, Any]) -> Mapping[str, Any]:
        """With 2 players, progressive widening (``widen=0.5``): +18.8% [+5.8%, +31.7%]
        against this heuristic at 230 iterations, 80 games on the same deals (75.0% against
        56.2%; docs/ai.md). Not screened with 3 or 4 players, so not their default."""
        return {"widen": 0.5} if options.get("players") == 2 else {}

    def evaluate(self, state: State) -> list[float]:
        if state.is_terminal():
            return state.returns()
        est = estimates(state)  # type: ignore[arg-type]
        top = max(est)
        weights = [math.exp((e - top) / TEMPERATURE) for e in est]
        total = sum(weights)
        return [w / total for w in weights]


HEURISTIC = EdoraHeuristic()
