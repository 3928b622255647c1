"""From a seat's view back to the game: the legal actions of a view, the determinizer and
search's sampler (:mod:`.view` says what a view holds).

A view read from outside may be anything: :func:`read_view` checks every field the
determinizer and the sampler use, and the fields against each other, once (RecordError
naming the field); :func:`legal_actions_from_view` checks the few fields it reads.

The sampler, search's fast path, reads a view once, then samples many determinized states
cheaply: ``prepare_sampler(view)(rng)`` is distributed like ``determinize(view, rng)`` (see
below): everything the view shows is parsed once into a template; each sample copies
the template's mutable parts, shuffles the unseen cards once and deals them by position (a
uniform shuffle makes every fixed set of positions a uniform draw): first the unseen part of
each other hand, then the face-down cards, the rest is the stack. With hidden placements
(placement phase) each other seat's end-of-action hand is shuffled and its first cards go on
a set of cells drawn uniformly from the sets a legal order of placement reaches
(:func:`hidden_layouts`, listed once per view), as the determinizer does. The other
secret colours are drawn without replacement from the colours the seat does not hold.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any, Callable, Mapping

from ...engine import InvalidOptionsError, RecordError, State, build_options
from ...engine.log import seat_ref
from . import checks
from .actions import PASS
from .components import CARD_NAMES, CENTRE_SIZE, CENTUM_AURI, COLOURS, COPIES, EMPTY, HAND_SIZE, ROUNDS
from .checks import field
from .rules import (ACTIONS, FULL_DECK, MAX_ACTIONS, NO_SEAT, OVER, PHASE_IDS, PHASE_NAMES, PLACEMENT,
                    PLAYER_COUNTS, AlarunOptions, AlarunState, action_phase_actions, dealt_so_far,
                    placement_actions, turn_problem)
from .square import BOX, MagicSquare


def legal_actions_from_view(view: Mapping[str, Any]) -> list:
    """The legal actions of the view's seat, from the view alone (= ``state.legal_actions(seat)``).
    Reads and checks only what they depend on: the phase, the cap, the seat's hand and square,
    the centre (RecordError naming a field that is wrong)."""
    seat = view.get("seat")
    if seat is None or seat not in view["acting"]:
        return []
    n = view["players"]
    phase = checks.choice(field(view, "phase"), "phase", PHASE_IDS)
    if phase == OVER:
        raise RecordError("acting must be empty once the phase is over")
    hand = sorted(checks.cards(field(view, "hand"), "hand", 1, HAND_SIZE))
    if phase == ACTIONS:
        if len(hand) != HAND_SIZE:
            raise RecordError(f"hand must hold {HAND_SIZE} cards in the action phase; got {len(hand)}")
        cap = read_options(view).action_cap
        taken = checks.integer(field(view, "actions_taken"), "actions_taken", 0, MAX_ACTIONS)
        centre = checks.cards(field(view, "centre"), "centre", CENTRE_SIZE, CENTRE_SIZE)
        face_down = read_face_down(view, n)
        if cap is not None and taken >= cap:
            return [PASS]
        return action_phase_actions(hand, centre, face_down > 0)
    squares = checks.per_seat(field(view, "squares"), "squares", n)
    square = checks.square(squares[seat], f"squares[{seat}]")
    if square.count() + len(hand) > BOX * BOX:
        raise RecordError(f"squares[{seat}] has no room for the cards of hand")
    return placement_actions(hand, square.open_cells())


# ----- reading a whole view (the determinizer, the sampler) -------------------------------------


class ViewParts:
    """What a view shows, read and checked once: the determinizer and the sampler build
    states from it. Cards are numbers; ``squares[s]`` is seat s's square as the view shows it;
    ``pool`` the cards the view does not show, ascending; ``secret`` the seat's own colour
    (None for the spectator) or, once the game is over, every seat's."""

    __slots__ = ("n", "seat", "phase", "options", "round", "turn", "start_player", "first_passer",
                 "extra_left", "actions_taken", "centre", "discard", "known", "squares", "own_hand",
                 "own_pending", "hand_sizes", "hidden_placed", "face_down", "deck_size", "pool", "secret")
    n: int
    seat: int | None
    phase: int
    options: AlarunOptions
    round: int
    turn: int
    start_player: int
    first_passer: int
    extra_left: int
    actions_taken: int
    centre: list[int]
    discard: list[int]
    known: list[list[int]]
    squares: list[MagicSquare]
    own_hand: list[int]
    own_pending: list[int]
    hand_sizes: list[int]
    hidden_placed: list[int]
    face_down: int
    deck_size: int
    pool: list[int]
    secret: Any  # once over every seat's colour (list[int]), else the seat's (int; None: spectator)


def read_view(view: Mapping[str, Any]) -> ViewParts:
    """Every field the determinizer needs, checked (the engine has checked the envelope:
    ``players``, ``seat``, ``acting``, ``round``, ``terminal``), then the fields against each
    other as a real game keeps them (hands and squares sized for the phase and round, whose
    turn it is, the unseen cards just enough for the hidden ones). RecordError naming the field
    otherwise."""
    r = ViewParts()
    n = r.n = view["players"]
    seat = r.seat = view["seat"]
    phase = r.phase = checks.choice(field(view, "phase"), "phase", PHASE_IDS)
    round_ = r.round = checks.integer(view["round"], "round", ROUNDS if phase == OVER else 1, ROUNDS)
    if view["terminal"] != (phase == OVER):
        raise RecordError("terminal must be true exactly when the phase is over")
    r.options = read_options(view)
    most = MAX_ACTIONS if r.options.action_cap is None else r.options.action_cap + n  # (passes after the cap)
    r.start_player = checks.seat(field(view, "start_player"), "start_player", n)
    alarun = field(view, "alarun")
    r.first_passer = NO_SEAT if alarun is None else checks.seat(alarun, "alarun", n)
    r.extra_left = checks.integer(field(view, "extra_actions_left"), "extra_actions_left", 0, n - 1)
    r.actions_taken = checks.integer(field(view, "actions_taken"), "actions_taken", 0, most)
    r.hand_sizes = [checks.integer(k, f"hand_sizes[{s}]", 0, HAND_SIZE)
                    for s, k in enumerate(checks.per_seat(field(view, "hand_sizes"), "hand_sizes", n))]
    r.hidden_placed = [checks.integer(k, f"placed_this_round[{s}]", 0, HAND_SIZE) for s, k in
                       enumerate(checks.per_seat(field(view, "placed_this_round"), "placed_this_round", n))]
    _check_acting(view, r)
    r.deck_size = checks.integer(field(view, "deck_size"), "deck_size", 0, len(FULL_DECK))
    if r.deck_size != len(FULL_DECK) - dealt_so_far(n, round_):
        raise RecordError(f"deck_size must be {len(FULL_DECK) - dealt_so_far(n, round_)} in round {round_} "
                          f"with {n} players; got {r.deck_size}")
    r.centre = checks.cards(field(view, "centre"), "centre", CENTRE_SIZE, CENTRE_SIZE)
    r.face_down = read_face_down(view, n)
    r.discard = checks.cards(field(view, "discard"), "discard")
    r.known = [sorted(checks.cards(k, f"known_hands[{s}]", 0, HAND_SIZE)) for s, k in
               enumerate(checks.per_seat(field(view, "known_hands"), "known_hands", n))]
    r.squares = [checks.square(sq, f"squares[{s}]")
                for s, sq in enumerate(checks.per_seat(field(view, "squares"), "squares", n))]
    if seat is not None:
        r.own_hand = sorted(checks.cards(field(view, "hand"), "hand", r.hand_sizes[seat], r.hand_sizes[seat]))
        r.own_pending = checks.cells(field(view, "my_placements"), "my_placements", HAND_SIZE)
        if len(r.own_pending) != r.hidden_placed[seat]:
            raise RecordError(f"my_placements must list placed_this_round[{seat}] cells")
    else:
        r.own_hand, r.own_pending = [], []
    _check_squares_and_known(r)
    if phase == OVER:
        colours = checks.per_seat(field(view, "secret_colours"), "secret_colours", n)
        r.secret = [checks.colour(c, f"secret_colours[{s}]") for s, c in enumerate(colours)]
        if len(set(r.secret)) != n:
            raise RecordError("secret_colours must be different colours")
    else:
        r.secret = None if seat is None else checks.colour(field(view, "secret_colour"), "secret_colour")
    r.pool = _unseen(r)
    return r


def read_options(view: Mapping[str, Any]) -> AlarunOptions:
    cap = field(view, "action_cap")
    if cap is not None and not checks.is_int(cap):
        checks.fail("action_cap", "null (no cap) or a whole number of actions", cap)
    return _options(view["players"], cap)


@lru_cache(maxsize=64)
def _options(players: int, cap: int | None) -> AlarunOptions:
    """The options of a view (parsed once per value: a view is read once per decision)."""
    try:
        return build_options(AlarunOptions, {"players": players, "action_cap": cap}, PLAYER_COUNTS)
    except InvalidOptionsError as exc:
        raise RecordError(f"action_cap: {exc}") from None


def read_face_down(view: Mapping[str, Any], n: int) -> int:
    allowed = (0, CENTRE_SIZE) if n == 2 else (0,)
    face_down = field(view, "face_down")
    if not checks.is_int(face_down) or face_down not in allowed:
        checks.fail("face_down", " or ".join(map(str, allowed)) + f" with {n} players", face_down)
    return face_down


def _check_acting(view: Mapping[str, Any], r: ViewParts) -> None:
    """Who acts, as the phase says: one seat whose turn it is in the action phase, every seat
    with cards left to place in the placement phase, no one at the end."""
    acting, phase, n = view["acting"], r.phase, r.n
    if phase == ACTIONS:
        if len(acting) != 1:
            raise RecordError("acting must be one seat in the action phase")
        problem = turn_problem(n, acting[0], r.start_player, r.actions_taken, r.first_passer, r.extra_left)
        if problem:
            raise RecordError(f"acting, start_player, actions_taken, alarun and extra_actions_left: {problem}")
        r.turn = acting[0]
        if r.hand_sizes != [HAND_SIZE] * n or any(r.hidden_placed):
            raise RecordError(f"hand_sizes must be all {HAND_SIZE} and placed_this_round all 0 in the action phase")
        return
    r.turn = r.start_player
    if phase == PLACEMENT:
        if r.first_passer == NO_SEAT or r.extra_left:
            raise RecordError("alarun must be a seat and extra_actions_left 0 in the placement phase")
        if any(k + p != HAND_SIZE for k, p in zip(r.hand_sizes, r.hidden_placed)):
            raise RecordError(f"hand_sizes and placed_this_round must add up to {HAND_SIZE} for each seat")
        if acting != [s for s in range(n) if r.hand_sizes[s]] or not acting:
            raise RecordError("acting must be the seats with cards left to place")
        return
    if acting or any(r.hand_sizes) or any(r.hidden_placed):
        raise RecordError("acting, hand_sizes and placed_this_round must be empty or 0 once the game is over")


def _check_squares_and_known(r: ViewParts) -> None:
    """Each square holds the cards of the rounds before (and the seat's own placements of this
    round); the cards others saw a seat take are in its hand (or, for the seat itself, placed
    from it this round)."""
    earlier = HAND_SIZE * (r.round - 1) if r.phase != OVER else HAND_SIZE * ROUNDS
    for s in range(r.n):
        own = len(r.own_pending) if s == r.seat else 0
        shown = r.squares[s].count() - 1  # the druid is not a card
        if shown != earlier + own:
            raise RecordError(f"squares[{s}] must show {earlier + own} cards in round {r.round} "
                              f"({PHASE_NAMES[r.phase]}); got {shown}")
        known = r.known[s]
        if len(known) > (HAND_SIZE if r.phase != OVER else 0):
            raise RecordError(f"known_hands[{s}] must be cards of {seat_ref(s)}'s hand")
    if r.seat is not None:
        cells = r.squares[r.seat].cells
        if any(cells[i] == EMPTY for i in r.own_pending):
            raise RecordError("my_placements must name cells of your square that hold a card")
        held = r.own_hand + [cells[i] for i in r.own_pending]
        known = r.known[r.seat]
        if any(known.count(c) > held.count(c) for c in known):
            raise RecordError("known_hands of your seat must be cards of your hand (or placed from it this round)")


def _unseen(r: ViewParts) -> list[int]:
    """The cards the view does not show, ascending; just enough of them for the hidden hand
    cards, the face-down cards and the stack."""
    unseen = [COPIES] * len(CARD_NAMES)  # per card number (0..49)
    unseen[CENTUM_AURI] = 1
    visible = r.centre + r.discard + r.own_hand
    for s in range(r.n):
        visible += checks.square_cards(r.squares[s])
        if s != r.seat:
            visible += r.known[s]
    for c in visible:
        unseen[c] -= 1
    if min(unseen) < 0:
        name = CARD_NAMES[min(range(len(unseen)), key=unseen.__getitem__)]
        raise RecordError(f"the view shows more copies of {name} than the game has")
    pool = [c for c, k in enumerate(unseen) for _ in range(k)]
    hidden_hands = sum(HAND_SIZE - len(r.known[s]) for s in range(r.n) if s != r.seat) if r.phase != OVER else 0
    if len(pool) != hidden_hands + r.face_down + r.deck_size:
        raise RecordError(f"the cards the view shows (centre, discard, squares, hand, known_hands) leave "
                          f"{len(pool)} unseen, which must add up to the hidden ones: {hidden_hands} in hands, "
                          f"{r.face_down} face_down and deck_size {r.deck_size}")
    return pool


def unseen_pool(view: Mapping[str, Any]) -> list[int]:
    """The cards the view does not show (the stack, the face-down cards, the unseen hand
    cards and the other seats' hidden placements), ascending."""
    return read_view(view).pool


_LAYOUTS: dict[tuple[int, int], tuple[tuple[int, ...], ...]] = {}


def hidden_layouts(square: MagicSquare, k: int) -> tuple[tuple[int, ...], ...]:
    """Every set of ``k`` cells a seat may have filled this round on ``square`` (the square as
    the round began): the sets some legal order of placement reaches, each once, written as
    one such order. A hidden placement is drawn uniformly over these sets (the cards on them
    are a uniform draw from the hand in random order), not cell by cell: drawing each card's
    cell among the open ones would favour the sets that many orders reach (from the druid
    alone, two cells both touching it come twice as often as two in a line).

    The open cells after a set of placements depend only on the set, so the search grows
    each set once. Memoised on the occupied cells (public, and repeated by every sample of
    a view and by the views of one round)."""
    key = (square.occupied, k)
    found = _LAYOUTS.get(key)
    if found is None:
        layouts: dict[int, tuple[int, ...]] = {}
        seen: set[int] = set()

        def grow(sq: MagicSquare, order: tuple[int, ...], mask: int) -> None:
            if len(order) == k:
                layouts[mask] = order
                return
            for cell in sq.open_cells():
                bigger = mask | 1 << cell
                if bigger in seen:
                    continue
                seen.add(bigger)
                twin = sq.copy()
                twin.place(0, cell)  # any card: only which cells are filled matters here
                grow(twin, order + (cell,), bigger)

        grow(square, (), 0)
        found = tuple(layouts.values())
        if len(_LAYOUTS) > 500:  # an entry may hold a few hundred sets
            _LAYOUTS.clear()
        _LAYOUTS[key] = found
    return found


def determinize(view: Mapping[str, Any], rng: random.Random) -> AlarunState:
    """A full state consistent with ``view``: the stack order, the face-down cards, the unseen
    hand cards, the other secret colours and the other seats' hidden placements of this round
    (uniform over the sets of cells a legal order reaches: :func:`hidden_layouts`) are
    sampled from ``rng``."""
    r = read_view(view)
    n, seat, phase = r.n, r.seat, r.phase
    state = AlarunState.__new__(AlarunState)
    State.__init__(state, r.options, None, random.Random(rng.getrandbits(64)))
    state.events = None
    state.n = n
    state.cap = r.options.action_cap if r.options.action_cap is not None else 1 << 60
    state._final = None
    state.phase = phase
    state.round = r.round
    state.turn = r.turn
    state.start_player = r.start_player
    state.first_passer = r.first_passer
    state.extra_left = r.extra_left
    state.actions_taken = r.actions_taken
    state.centre = r.centre[:]
    state.discard = r.discard[:]
    state.known = [k[:] for k in r.known]

    pool = r.pool[:]
    rng.shuffle(pool)

    hands: list[list[int]] = []
    pending: list[list[int]] = []
    squares: list[MagicSquare] = []
    for s in range(n):
        square = r.squares[s].copy()
        if s == seat:
            hands.append(r.own_hand[:])
            pending.append(r.own_pending[:])
        elif phase == PLACEMENT:
            # The hand at the end of the action phase: the known cards plus unseen ones; the
            # seat has placed some of them (hidden), on a set of cells drawn uniformly.
            end_hand = state.known[s] + [pool.pop() for _ in range(HAND_SIZE - len(state.known[s]))]
            rng.shuffle(end_hand)
            k = r.hidden_placed[s]
            cells = list(rng.choice(hidden_layouts(square, k))) if k else []
            for card, cell in zip(end_hand[:k], cells):
                square.place(card, cell)
            hands.append(sorted(end_hand[k:]))
            pending.append(cells)
        else:
            size = r.hand_sizes[s]
            hands.append(sorted(state.known[s] + [pool.pop() for _ in range(size - len(state.known[s]))]))
            pending.append([])
        squares.append(square)
    state.hands = hands
    state.pending = pending
    state.squares = squares
    state.to_place = sum(len(h) for h in hands) if phase == PLACEMENT else 0
    state.face_down = [pool.pop() for _ in range(r.face_down)]
    state.deck = pool

    if phase == OVER:
        state.secret = r.secret[:]
    else:
        own = r.secret
        others = [c for c in range(len(COLOURS)) if c != own]
        sampled = rng.sample(others, n - (seat is not None))
        state.secret = [own if s == seat else sampled.pop() for s in range(n)]
    return state


# ----- the sampler -------------------------------------------------------------------------
def prepare_sampler(view: Mapping[str, Any]) -> Callable[[random.Random], AlarunState]:
    """A function ``rng -> state`` drawing states consistent with ``view`` (like the
    determinizer); the view is read and checked once, here (:func:`.view.read_view`:
    RecordError naming a field that is wrong)."""
    r = read_view(view)
    n, seat, phase = r.n, r.seat, r.phase
    options = r.options
    cap = options.action_cap if options.action_cap is not None else 1 << 60
    round_, turn, start_player, first_passer = r.round, r.turn, r.start_player, r.first_passer
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
        st.round = round_
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
        hands: list[Any] = [own_hand[:] if s == seat else None for s in range(n)]  # list[int] once dealt below
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
            # own_colour is an int whenever a seat (not the spectator) is sampled for
            st.secret = [own_colour if s == seat else drawn.pop() for s in range(n)]  # type: ignore[misc]
        return st

    return sample


__all__ = ["prepare_sampler"]
