"""From a seat's view back to the game: the legal actions of a view alone, the options a view
carries (parsed once per value) and the determinizer (a full state consistent with a view).
What a view holds is in :mod:`.view`."""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any, Mapping

from ...engine import TERMINAL, Action, RecordError
from .actions import tables_for
from .components import load_deck
from .rules import AmarokOptions, AmarokState, assemble, options_from_json


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
    deck = load_deck(options.deck)
    hands = [[None if slot is None else slot["card"] for slot in row] for row in view["hands"]]
    known = {c for row in hands for c in row if c is not None}
    known.update(c for row in view["fronts"] for c in row)
    known.update(view["river"])
    known.update(view["deck_bottom"])
    pool = [c for c in deck.ids if c not in known]
    rng.shuffle(pool)
    unknown_deck = view["deck_size"] - len(view["deck_bottom"])
    holes = sum(1 for row in view["hands"] for slot in row if slot is not None and slot["card"] is None)
    if holes + unknown_deck != len(pool):
        raise RecordError(f"inconsistent Amarok view: {len(pool)} unseen cards for "
                         f"{holes} hidden hand cards and {unknown_deck} unknown deck cards")
    it = iter(pool)
    for p, row in enumerate(view["hands"]):
        for k, slot in enumerate(row):
            if slot is not None and slot["card"] is None:
                hands[p][k] = next(it)
    data = {
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
        "deck": list(it) + list(view["deck_bottom"]),  # top first
        "known_bottom": len(view["deck_bottom"]),
        "last": view["last"],
        "last_round": view["last_round"],
    }
    state = assemble(options, data, random.Random(rng.getrandbits(64)), None)
    state.events = None
    return state
