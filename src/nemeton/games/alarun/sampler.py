"""The search fast path: read a view once, then sample many determinized states cheaply.

``prepare_sampler(view)(rng)`` is distributed like ``determinize(view, rng)`` (see
:mod:`.view`): everything the view shows is parsed once into a template; each sample copies
the template's mutable parts, shuffles the unseen cards once and deals them by position (a
uniform shuffle makes every fixed set of positions a uniform draw): first the unseen part of
each other hand, then the face-down cards, the rest is the stack. With hidden placements
(placement phase) each other seat's end-of-action hand is shuffled and its first cards go on
a set of cells drawn uniformly from the sets a legal order of placement reaches
(:func:`.view.hidden_layouts`, listed once per view), as the determinizer does. The other
secret colours are drawn without replacement from the colours the seat does not hold.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Mapping

from ...engine import State
from .cards import COLOURS, HAND_SIZE
from .rules import OVER, PLACEMENT, AlarunState
from .view import hidden_layouts, read_view


def prepare_sampler(view: Mapping[str, Any]) -> Callable[[random.Random], AlarunState]:
    """A function ``rng -> state`` drawing states consistent with ``view`` (like the
    determinizer); the view is read and checked once, here (:func:`.view.read_view`:
    RecordError naming a field that is wrong)."""
    r = read_view(view)
    n, seat, phase = r.n, r.seat, r.phase
    options = r.options
    cap = options.action_cap if options.action_cap is not None else 1 << 60
    round_no, turn, start_player, first_passer = r.round_no, r.turn, r.start_player, r.first_passer
    extra_left, actions_taken = r.extra_left, r.actions_taken
    centre, discard, known = r.centre, r.discard, r.known
    squares = r.squares
    own_hand, own_pending = r.own_hand, r.own_pending
    pool = r.pool
    hidden_placed = r.hidden_placed
    # The sets of cells each other seat's hidden placements may fill (placement phase).
    layouts = [hidden_layouts(squares[s], hidden_placed[s]) if phase == PLACEMENT and s != seat
               and hidden_placed[s] else () for s in range(n)]

    # Where each other seat's unseen hand cards come from in the shuffled pool (read_view
    # checked that the pool holds exactly these, the face-down cards and the stack).
    deals: list[tuple[int, int, int]] = []  # (seat, start, stop)
    position = 0
    for s in range(n):
        if s == seat:
            continue
        need = (HAND_SIZE if phase != OVER else 0) - len(known[s])
        deals.append((s, position, position + need))
        position += need
    fd_start, fd_stop = position, position + r.face_down

    if phase == OVER:
        fixed_secret = r.secret
        own_colour = None
        other_colours: list[int] = []
    else:
        fixed_secret = None
        own_colour = r.secret
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
                if k:
                    square = sqs[s]
                    cells = rng.choice(layouts[s])
                    for card, cell in zip(end_hand, cells):
                        square.place(card, cell)
                    pending[s] = list(cells)
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
