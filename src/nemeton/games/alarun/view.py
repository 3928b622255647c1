"""What each seat may know (the one gate for secrets), legal actions from a view, and the
determinizer.

Hidden from a seat: the other hands (except the cards everyone saw a player take from the
centre this round: ``known_hands``), the other players' secret colours, the 2-player
face-down centre cards, the order of the stack, and the other players' placements of the
current round until everyone has placed (only their number shows). At the end of the game
everything is revealed, with each seat's score breakdown (``breakdowns``).

A view is the engine's envelope (``game``, ``seat``, ``players``, ``acting``, ``round``,
``terminal``, ``scores``) followed by the keys built here; the functions reading a view
(legal actions, the determinizer, the sampler, the renderer, the heuristic) read the seat to
act from ``acting``.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Mapping

from ...engine import State
from .actions import PASS
from .cards import CARD_NAMES, COLOURS, HAND_SIZE, ROUNDS, card_id, full_deck
from .rules import (ACTIONS, NO_SEAT, OVER, PHASE_NAMES, PLACEMENT, AlarunOptions, AlarunState,
                    action_phase_actions, placement_actions)
from .scoring import score_grid
from .square import CELL_XY, MagicSquare, cell_index


def _names(cards) -> list[str]:
    return [CARD_NAMES[c] for c in cards]


def build_view(state: AlarunState, seat: int | None) -> dict[str, Any]:
    """Alarún's own part of ``seat``'s view (the engine adds the envelope: ``game``, ``seat``,
    ``players``, ``acting``, ``round``, ``terminal``, ``scores``). Fresh data only."""
    n = state.n
    phase = state.phase
    visible_squares = []
    potion_points = []
    for s in range(n):
        square = state.squares[s]
        hidden = set(state.pending[s]) if (phase == PLACEMENT and s != seat) else ()
        cells = [(i, c) for i, c in square.placed() if i not in hidden]
        visible_squares.append([[*CELL_XY[i], CARD_NAMES[c]] for i, c in cells])
        shown = MagicSquare.from_cards(cells) if hidden else square
        potion_points.append(score_grid(shown.grid(), None).potions)
    view: dict[str, Any] = {
        "rounds": ROUNDS,
        "phase": PHASE_NAMES[phase],
        "start_player": state.start_player,
        "alarun": None if state.first_passer == NO_SEAT else state.first_passer,
        "extra_actions_left": state.extra_left,
        "actions_taken": state.actions_taken,
        "action_cap": state.options.action_cap,
        "deck_size": len(state.deck),
        "centre": _names(state.centre),
        "face_down": len(state.face_down),
        "discard": _names(state.discard),
        "hand_sizes": [len(h) for h in state.hands],
        "known_hands": [_names(k) for k in state.known],
        "placed_this_round": [len(p) for p in state.pending],
        "squares": visible_squares,
        "potion_points": potion_points,
    }
    if seat is not None:
        view["hand"] = _names(state.hands[seat])
        view["my_placements"] = [list(CELL_XY[i]) for i in state.pending[seat]]
        view["secret_colour"] = COLOURS[state.secret[seat]]
    if phase == OVER:
        view["secret_colours"] = [COLOURS[c] for c in state.secret]
        view["breakdowns"] = [b.to_json() for b in state.breakdowns()]
        view["winners"] = state.winners()
    return view


def legal_actions_from_view(view: Mapping[str, Any]) -> list:
    """The legal actions of the view's seat, from the view alone (= ``state.legal_actions(seat)``)."""
    seat = view.get("seat")
    if seat is None or seat not in view["acting"]:
        return []
    hand = sorted(card_id(c) for c in view["hand"])
    if view["phase"] == "actions":
        cap = view["action_cap"]
        if cap is not None and view["actions_taken"] >= cap:
            return [PASS]
        return action_phase_actions(hand, [card_id(c) for c in view["centre"]], view["face_down"] > 0)
    if view["phase"] == "placement":
        square = MagicSquare.from_cards([(cell_index(x, y), card_id(c)) for x, y, c in view["squares"][seat]])
        return placement_actions(hand, square.open_cells())
    return []


def unseen_pool(view: Mapping[str, Any]) -> list[int]:
    """The cards the view does not show (the stack, the face-down cards, the unseen hand
    cards and the other seats' hidden placements), ascending."""
    seat = view["seat"]
    unseen = Counter(full_deck())
    unseen.subtract(card_id(c) for c in view["centre"])
    unseen.subtract(card_id(c) for c in view["discard"])
    for sq in view["squares"]:
        unseen.subtract(card_id(c) for _, _, c in sq)
    if seat is not None:
        unseen.subtract(card_id(c) for c in view["hand"])
    for s, k in enumerate(view["known_hands"]):
        if s != seat:
            unseen.subtract(card_id(c) for c in k)
    if any(k < 0 for k in unseen.values()):
        raise ValueError("inconsistent view: more copies of a card are visible than exist")
    return [c for c, k in sorted(unseen.items()) for _ in range(k)]


def determinize(view: Mapping[str, Any], rng: random.Random) -> AlarunState:
    """A full state consistent with ``view``: the stack order, the face-down cards, the unseen
    hand cards, the other secret colours and the other seats' hidden placements of this round
    (random legal cells) are sampled from ``rng``."""
    n = view["players"]
    seat = view["seat"]
    phase = PHASE_NAMES.index(view["phase"])
    options = AlarunOptions(players=n, action_cap=view["action_cap"])
    state = AlarunState.__new__(AlarunState)
    State.__init__(state, options, None, random.Random(rng.getrandbits(64)))
    state.events = None
    state.n = n
    state.cap = options.action_cap if options.action_cap is not None else 1 << 60
    state._final = None
    state.phase = phase
    state.round_no = view["round"]
    state.turn = view["acting"][0] if phase == ACTIONS else view["start_player"]
    state.start_player = view["start_player"]
    state.first_passer = NO_SEAT if view["alarun"] is None else view["alarun"]
    state.extra_left = view["extra_actions_left"]
    state.actions_taken = view["actions_taken"]
    state.centre = [card_id(c) for c in view["centre"]]
    state.discard = [card_id(c) for c in view["discard"]]
    state.known = [sorted(card_id(c) for c in k) for k in view["known_hands"]]
    placed = [[(cell_index(x, y), card_id(c)) for x, y, c in sq] for sq in view["squares"]]

    pool = unseen_pool(view)
    own_hand = [card_id(c) for c in view["hand"]] if seat is not None else []
    rng.shuffle(pool)

    hands: list[list[int]] = []
    pending: list[list[int]] = []
    squares: list[MagicSquare] = []
    for s in range(n):
        square = MagicSquare.from_cards(placed[s])
        if s == seat:
            hands.append(sorted(own_hand))
            pending.append([cell_index(x, y) for x, y in view["my_placements"]])
        elif phase == PLACEMENT:
            # The hand at the end of the action phase: the known cards plus unseen ones; the
            # seat has placed some of them (hidden) on random legal cells.
            end_hand = state.known[s] + [pool.pop() for _ in range(HAND_SIZE - len(state.known[s]))]
            rng.shuffle(end_hand)
            k = view["placed_this_round"][s]
            cells = []
            for card in end_hand[:k]:
                cell = rng.choice(square.open_cells())
                square.place(card, cell)
                cells.append(cell)
            hands.append(sorted(end_hand[k:]))
            pending.append(cells)
        else:
            size = view["hand_sizes"][s]
            hands.append(sorted(state.known[s] + [pool.pop() for _ in range(size - len(state.known[s]))]))
            pending.append([])
        squares.append(square)
    state.hands = hands
    state.pending = pending
    state.squares = squares
    state.to_place = sum(len(h) for h in hands) if phase == PLACEMENT else 0
    state.face_down = [pool.pop() for _ in range(view["face_down"])]
    if len(pool) != view["deck_size"]:
        raise ValueError(f"inconsistent view: {len(pool)} unseen cards left for a stack of {view['deck_size']}")
    state.deck = pool

    if phase == OVER:
        state.secret = [COLOURS.index(c) for c in view["secret_colours"]]
    else:
        own = COLOURS.index(view["secret_colour"]) if seat is not None else None
        others = [c for c in range(len(COLOURS)) if c != own]
        sampled = rng.sample(others, n - (seat is not None))
        state.secret = [own if s == seat else sampled.pop() for s in range(n)]
    return state
