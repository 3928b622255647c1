"""What each seat sees, the legal actions from a view alone, and the determinizer.

The one gate for secrets is :func:`build_view`. A seat sees: the cards of its own hand that
face it (the others as hidden, with their slot), the cards of other hands that face it, the
river, every card in front, the objective side, the deck's size and the cards that claws
put at its bottom (in order). It never sees the deck order, its own cards that face away, or
other players' cards that face their owner. The spectator (``None``) sees public information
only: every hand card is hidden.

:func:`build_view` is the game's part of the view; the engine puts its envelope first
(``seat``, ``acting``, ``round``, ``terminal``, ``scores``: the round wins, public all game).

A view's hand slot is ``None`` (empty) or ``{"card": <id or None if hidden>, "facing":
"owner" | "others"}`` (how the card is held is public).
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any, Mapping

from ...engine import TERMINAL, RecordError
from .actions import tables_for
from .cards import load_deck
from .rules import (EMPTY, OBJECTIVE_NAMES, sees, AmarokOptions, AmarokState, assemble,
                    last_round_copy, options_from_json)


def build_view(state: AmarokState, seat: int | None, shared: bool = False) -> dict[str, Any]:
    """Amarok's part of ``seat``'s view: fresh data, or with ``shared`` (for
    :meth:`State.shared_view <nemeton.engine.state.State.shared_view>`, read-only) the deck's
    card list, the options and the last round handed out as the game's own objects, not copies."""
    ids, n = state.cards.ids, state.n
    hand, owner_sees = state.hand, state.owner_sees
    if shared:
        hands = _shared_rows(state, seat)
    else:
        hands = [_hand_row(ids, hand, owner_sees, seat, p) for p in range(n)]
    known = state.known_bottom
    over = state.turn == TERMINAL
    phase = "over" if over else ("claw" if state.claw_pending else "take")
    front, front_count, card_id = state.front, state.front_count, ids.__getitem__
    return {  # the engine's envelope (seat, acting, round, terminal, scores = round wins) comes first
        "phase": phase,
        "options": _OPTIONS_JSON.get(state.options) or _options_json(state.options) if shared
                   else _options_json(state.options),
        "cards": state.cards.cards_json if shared else list(map(dict.copy, state.cards.cards_json)),
        "rounds_to_win": state.target,
        "objective": OBJECTIVE_NAMES[state.objective],
        "objective_holder": state.holder,
        "teams": [[t, t + n // 2] for t in range(n // 2)] if state.teams else None,
        "hands": hands,
        "hand_sizes": [2 - row.count(None) for row in hands],
        "fronts": (_shared_fronts(state) if shared else
                   [list(map(card_id, front[2 * p:2 * p + front_count[p]])) for p in range(n)]),
        "river": list(map(card_id, state.river)),
        "deck_size": len(state.deck),
        # cards clawed to the bottom, from the highest to the very bottom card
        "deck_bottom": list(map(card_id, reversed(state.deck[:known]))),
        "last": state.last_json(),
        "last_round": state.last_round if shared else last_round_copy(state.last_round),
        "winners": state.winners() if over else [],
    }


def _hand_row(ids, hand: list[int], owner_sees: list[bool], seat: int | None, p: int) -> list:
    """Seat ``p``'s two hand slots as ``seat`` sees them."""
    row: list = []
    for k in (2 * p, 2 * p + 1):
        c = hand[k]
        if c == EMPTY:
            row.append(None)
            continue
        faces_owner = owner_sees[k]
        row.append({"card": ids[c] if sees(seat, p, faces_owner) else None,
                    "facing": "owner" if faces_owner else "others"})
    return row


def _shared_rows(state: AmarokState, seat: int | None) -> list[list]:
    """The hands for shared views: each seat's row the same list while its slots hold the
    same cards held the same way (kept in the state per viewer; a clone starts afresh)."""
    kept = getattr(state, "_shared", None)
    if kept is None:
        kept = state._shared = {}
    hand, owner_sees, ids = state.hand, state.owner_sees, state.cards.ids
    rows = []
    for p in range(state.n):
        k = 2 * p
        inputs = (hand[k], hand[k + 1], owner_sees[k], owner_sees[k + 1])
        key = (p, seat)
        was = kept.get(key)
        if was is None or was[0] != inputs:
            was = kept[key] = (inputs, _hand_row(ids, hand, owner_sees, seat, p))
        rows.append(was[1])
    return rows


def _shared_fronts(state: AmarokState) -> list[list]:
    """The cards in front for shared views: each seat's row the same list while it holds the
    same cards (kept in the state; a clone starts afresh)."""
    kept = getattr(state, "_shared", None)
    if kept is None:
        kept = state._shared = {}
    front, front_count, card_id = state.front, state.front_count, state.cards.ids.__getitem__
    rows = []
    for p in range(state.n):
        cards = front[2 * p:2 * p + front_count[p]]
        key = ("front", p)
        was = kept.get(key)
        if was is None or was[0] != cards:
            was = kept[key] = (cards, list(map(card_id, cards)))
        rows.append(was[1])
    return rows


_OPTIONS_JSON: dict[AmarokOptions, dict[str, Any]] = {}


def _options_json(options: AmarokOptions) -> dict[str, Any]:
    """``options.to_json()`` as a fresh dict, the JSON made once per options value (every
    value is plain, so a copy of the dict is a fresh copy)."""
    data = _OPTIONS_JSON.get(options)
    if data is None:
        data = options.to_json()
        if not all(v is None or isinstance(v, (str, int, float)) for v in data.values()):
            return data
        if len(_OPTIONS_JSON) > 64:
            _OPTIONS_JSON.clear()
        _OPTIONS_JSON[options] = data
    return dict(data)


# ----- legal actions from the view alone ---------------------------------------------------
def legal_actions_from_view(view: Mapping[str, Any]) -> list:
    seat = view["seat"]
    if view["terminal"] or seat not in view["acting"]:
        return []
    options = cached_options(view["options"])
    deck = load_deck(options.deck)
    acts, index = tables_for(deck), deck.index
    hands, n = view["hands"], options.players
    out = []
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
