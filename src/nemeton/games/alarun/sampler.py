"""The search fast path: read a view once, then sample many determinized states cheaply.

``prepare_sampler(view)(rng)`` is distributed like ``determinize(view, rng)`` (see
:mod:`.view`): everything the view shows is parsed once into a template; each sample copies
the template's mutable parts, shuffles the unseen cards once and deals them by position (a
uniform shuffle makes every fixed set of positions a uniform draw): first the unseen part of
each other hand, then the face-down cards, the rest is the stack. With hidden placements
(placement phase) each other seat's end-of-action hand is shuffled and its first cards go on
random open cells one by one, as the determinizer does. The other secret colours are drawn
without replacement from the colours the seat does not hold.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Mapping

from ...engine import State
from .cards import COLOURS, HAND_SIZE, card_id
from .rules import ACTIONS, NO_SEAT, OVER, PHASE_NAMES, PLACEMENT, AlarunOptions, AlarunState
from .square import MagicSquare, cell_index
from .view import unseen_pool


def prepare_sampler(view: Mapping[str, Any]) -> Callable[[random.Random], AlarunState]:
    """A function ``rng -> state`` drawing states consistent with ``view`` (like the
    determinizer); the view is read once, here. ValueError if the view is inconsistent."""
    n = view["players"]
    seat = view["seat"]
    phase = PHASE_NAMES.index(view["phase"])
    options = AlarunOptions(players=n, action_cap=view["action_cap"])
    cap = options.action_cap if options.action_cap is not None else 1 << 60
    round_no = view["round"]
    turn = view["acting"][0] if phase == ACTIONS else view["start_player"]
    start_player = view["start_player"]
    first_passer = NO_SEAT if view["alarun"] is None else view["alarun"]
    extra_left = view["extra_actions_left"]
    actions_taken = view["actions_taken"]
    centre = [card_id(c) for c in view["centre"]]
    discard = [card_id(c) for c in view["discard"]]
    known = [sorted(card_id(c) for c in k) for k in view["known_hands"]]
    placed = [[(cell_index(x, y), card_id(c)) for x, y, c in sq] for sq in view["squares"]]
    squares = [MagicSquare.from_cards(cells) for cells in placed]
    own_hand = sorted(card_id(c) for c in view["hand"]) if seat is not None else []
    own_pending = [cell_index(x, y) for x, y in view["my_placements"]] if seat is not None else []
    pool = unseen_pool(view)
    face_down = view["face_down"]
    deck_size = view["deck_size"]

    # Where each other seat's unseen hand cards come from in the shuffled pool.
    deals: list[tuple[int, int, int]] = []  # (seat, start, stop)
    position = 0
    for s in range(n):
        if s == seat:
            continue
        size = HAND_SIZE if phase == PLACEMENT else view["hand_sizes"][s]
        need = size - len(known[s])
        deals.append((s, position, position + need))
        position += need
    fd_start, fd_stop = position, position + face_down
    if len(pool) - fd_stop != deck_size:
        raise ValueError(f"inconsistent view: {len(pool) - fd_stop} unseen cards left for a stack of {deck_size}")
    hidden_placed = view["placed_this_round"]

    if phase == OVER:
        fixed_secret = [COLOURS.index(c) for c in view["secret_colours"]]
        own_colour = None
        other_colours: list[int] = []
    else:
        fixed_secret = None
        own_colour = COLOURS.index(view["secret_colour"]) if seat is not None else None
        other_colours = [c for c in range(len(COLOURS)) if c != own_colour]
    secret_draws = n - (seat is not None)
    new = AlarunState.__new__

    def sample(rng: random.Random) -> AlarunState:
        st = new(AlarunState)
        State.__init__(st, options, None, random.Random(rng.getrandbits(64)))
        st.events = None
        st.n = n
        st.cap = cap
        st._final = None
        st.phase = phase
        st.round_no = round_no
        st.turn = turn
        st.start_player = start_player
        st.first_passer = first_passer
        st.extra_left = extra_left
        st.actions_taken = actions_taken
        st.centre = centre[:]
        st.discard = discard[:]
        st.known = [k[:] for k in known]
        cards = pool[:]
        rng.shuffle(cards)
        hands = [own_hand[:] if s == seat else None for s in range(n)]
        sqs = [sq.copy() for sq in squares]
        pending = [own_pending[:] if s == seat else [] for s in range(n)]
        if phase == PLACEMENT:
            for s, a, b in deals:
                end_hand = known[s] + cards[a:b]
                rng.shuffle(end_hand)
                k = hidden_placed[s]
                square = sqs[s]
                cells = pending[s]
                for card in end_hand[:k]:
                    cell = rng.choice(square.open_cells())
                    square.place(card, cell)
                    cells.append(cell)
                hand = end_hand[k:]
                hand.sort()
                hands[s] = hand
            st.to_place = sum(len(h) for h in hands)
        else:
            for s, a, b in deals:
                hand = known[s] + cards[a:b]
                hand.sort()
                hands[s] = hand
            st.to_place = 0
        st.hands = hands
        st.squares = sqs
        st.pending = pending
        st.face_down = cards[fd_start:fd_stop]
        st.deck = cards[fd_stop:]
        if fixed_secret is not None:
            st.secret = fixed_secret[:]
        else:
            drawn = rng.sample(other_colours, secret_draws)
            st.secret = [own_colour if s == seat else drawn.pop() for s in range(n)]
        return st

    return sample


__all__ = ["prepare_sampler"]
