"""From a seat's view back to the game: the legal actions of a view alone, the options a view
carries (parsed once per value), the determinizer (a full state consistent with a view) and
search's sampler (the determinizer with the view read once: :func:`prepare_sampler`).
What a view holds is in :mod:`.view`."""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any, Callable, Mapping

from ...engine import TERMINAL, Action, RecordError, State
from .actions import tables_for
from .components import load_deck
from .rules import AmarokOptions, AmarokState, assemble, last_round_copy, options_from_json


# ----- legal actions from the view alone ---------------------------------------------------
def legal_actions_from_view(view: Mapping[str, Any]) -> list[Action]:
    seat = view["seat"]
    if view["terminal"] or seat not in view["acting"]:
        return []
    options = cached_options(view["options"])
    deck = load_deck(options.deck)
    acts, index = tables_for(deck), deck.index
    hands, n = view["hands"], options.players
    out: list[Action] = []
    if view["phase"] == "claw":
        claw = view["fronts"][seat][-1]
        for p, row in enumerate(view["fronts"]):
            out += [acts.claw_front[p][index[c]] for c in row if c != claw]
        for p, row in enumerate(hands):
            out += [acts.claw_hand[p][k] for k, slot in enumerate(row) if slot is not None]
        out += [acts.claw_river[index[c]] for c in view["river"]]
        if view["deck_size"]:
            out.append(acts.claw_deck)
        return out
    out += [acts.take_own[k] for k, slot in enumerate(hands[seat]) if slot is not None]
    out += [acts.take_river[index[c]] for c in view["river"]]
    if view["deck_size"]:
        out.append(acts.take_deck)
    partner = (seat + n // 2) % n if options.teams and not options.partner_hand else seat
    for p, row in enumerate(hands):
        if p == seat or p == partner:
            continue
        slots = [slot for slot in row if slot is not None]
        out += [acts.take_seen[p][index[slot["card"]]] for slot in slots if slot["card"] is not None]
        if any(slot["card"] is None for slot in slots):
            out.append(acts.take_unseen[p])
    return out


def cached_options(raw: Mapping[str, Any]) -> AmarokOptions:
    """The options of a view, parsed once per distinct value (bounded cache)."""
    if not isinstance(raw, Mapping):
        raise RecordError(f"a view's options must be a JSON object; got {type(raw).__name__}")
    try:
        return _options_for(tuple(sorted(raw.items())))
    except TypeError:  # a value that is not plain (a list, an object): not options we wrote
        raise RecordError("a view's options must map option names to plain values") from None


@lru_cache(maxsize=64)
def _options_for(items: tuple) -> AmarokOptions:
    return options_from_json(dict(items))


# ----- the determinizer --------------------------------------------------------------------
def determinize(view: Mapping[str, Any], rng: random.Random) -> AmarokState:
    """A full state consistent with ``view``: the cards the seat cannot see (its hidden hand
    cards, the cards of others that face away from it, the deck above the known bottom) are
    dealt uniformly at random from the cards it has not seen anywhere."""
    options = cached_options(view["options"])
    hands, pool, holes = _unseen(view, options)
    rng.shuffle(pool)
    _check_unseen(view, pool, holes)
    it = iter(pool)
    for p, k in holes:
        hands[p][k] = next(it)
    state = assemble(options, _state_data(view, hands, list(it)), random.Random(rng.getrandbits(64)), None)
    state.events = None
    return state


def _unseen(view: Mapping[str, Any], options: AmarokOptions) -> tuple[list, list[str], list[tuple[int, int]]]:
    """The hands as card ids (None where a card is hidden from the seat, and for an empty
    slot), the cards the seat has seen nowhere (in deck order) and the hidden hand slots
    (seat, slot), in the order the determinizer fills them."""
    deck = load_deck(options.deck)
    hands = [[None if slot is None else slot["card"] for slot in row] for row in view["hands"]]
    known = {c for row in hands for c in row if c is not None}
    known.update(c for row in view["fronts"] for c in row)
    known.update(view["river"])
    known.update(view["deck_bottom"])
    pool = [c for c in deck.ids if c not in known]
    holes = [(p, k) for p, row in enumerate(view["hands"])
             for k, slot in enumerate(row) if slot is not None and slot["card"] is None]
    return hands, pool, holes


def _check_unseen(view: Mapping[str, Any], pool: list, holes: list) -> None:
    unknown_deck = view["deck_size"] - len(view["deck_bottom"])
    if len(holes) + unknown_deck != len(pool):
        raise RecordError(f"inconsistent Amarok view: {len(pool)} unseen cards for "
                          f"{len(holes)} hidden hand cards and {unknown_deck} unknown deck cards")


def _state_data(view: Mapping[str, Any], hands: list, deck_above_bottom: list) -> dict[str, Any]:
    """The state's JSON fields (as :func:`.rules.assemble` reads them) from the view, its
    hands filled in and the deck above the known bottom (top first)."""
    return {
        "round": view["round"],
        "levels": [int(v) if isinstance(v, float) and v.is_integer() else v for v in view["scores"]],
        "objective": view["objective"],
        "objective_holder": view["objective_holder"],
        "turn": view["acting"][0] if view["acting"] else TERMINAL,
        "claw_pending": view["phase"] == "claw",
        "hands": hands,
        "owner_sees": [[slot is not None and slot["facing"] == "owner" for slot in row]
                       for row in view["hands"]],
        "fronts": view["fronts"],
        "river": view["river"],
        "deck": deck_above_bottom + list(view["deck_bottom"]),  # top first
        "known_bottom": len(view["deck_bottom"]),
        "last": view["last"],
        "last_round": view["last_round"],
    }


# ----- the sampler -------------------------------------------------------------------------
def prepare_sampler(view: Mapping[str, Any]) -> Callable[[random.Random], AmarokState]:
    """Search's fast path: ``prepare_sampler(view)(rng)`` is the state ``determinize(view,
    rng)`` returns, drawn with the same random numbers in the same order (one shuffle of the
    unseen cards, then the state's own generator's seed). The view is read and checked once,
    here, by the determinizer's own code (the same RecordError for a bad view), on the unseen
    cards in deck order; each sample copies that state's lists and deals the shuffled unseen
    cards into the hidden hand slots, then onto the deck, as the determinizer does."""
    options = cached_options(view["options"])
    hands, pool, holes = _unseen(view, options)
    _check_unseen(view, pool, holes)
    it = iter(pool)
    for p, k in holes:
        hands[p][k] = next(it)
    # Every check of assemble holds for any order of the unseen cards (which cards lie where
    # is the same set), so this one state checks every sample.
    t = assemble(options, _state_data(view, hands, list(it)), random.Random(0), None)
    index = t.cards.index
    unseen = [index[c] for c in pool]
    slots = [2 * p + k for p, k in holes]
    n_holes = len(slots)
    bottom = t.deck[:t.known_bottom]  # the deck is bottom first: the known bottom, then the rest
    cards, acts, n, teams, target = t.cards, t.acts, t.n, t.teams, t.target
    round_, levels, objective, holder = t.round, t.levels, t.objective, t.holder
    hand, owner_sees, front, front_count, river = t.hand, t.owner_sees, t.front, t.front_count, t.river
    known_bottom, turn, claw_pending, last, last_round = (t.known_bottom, t.turn, t.claw_pending,
                                                          t.last, t.last_round)
    new, init, Random = AmarokState.__new__, State.__init__, random.Random

    def sample(rng: random.Random) -> AmarokState:
        drawn = unseen[:]
        rng.shuffle(drawn)
        st = new(AmarokState)
        init(st, options, None, Random(rng.getrandbits(64)))
        st.events = None
        st.round = round_
        st.cards = cards
        st.acts = acts
        st.n = n
        st.teams = teams
        st.target = target
        st.levels = levels[:]
        st.objective = objective
        st.holder = holder
        h = hand[:]
        for i, c in zip(slots, drawn):
            h[i] = c
        st.hand = h
        st.owner_sees = owner_sees[:]
        st.front = front[:]
        st.front_count = front_count[:]
        st.river = river[:]
        rest = drawn[n_holes:]
        rest.reverse()  # dealt top first
        st.deck = bottom + rest
        st.known_bottom = known_bottom
        st.turn = turn
        st.claw_pending = claw_pending
        st.last = last  # an immutable tuple
        st.last_round = last_round_copy(last_round)
        return st

    return sample
