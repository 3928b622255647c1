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

A view read from outside may be anything: :func:`read_view` checks every field the
determinizer and the sampler use, and the fields against each other, once (RecordError
naming the field); :func:`legal_actions_from_view` checks the few fields it reads.
"""

from __future__ import annotations

import random
from bisect import bisect
from functools import lru_cache
from typing import Any, Mapping

from ...engine import InvalidOptionsError, RecordError, State, build_options
from ...engine.log import seat_ref
from . import checks
from .actions import PASS
from .cards import CARD_NAMES, CENTRE_SIZE, CENTUM_AURI, COLOURS, COPIES, EMPTY, HAND_SIZE, ROUNDS
from .checks import field
from .rules import (ACTIONS, FULL_DECK, MAX_ACTIONS, NO_SEAT, OVER, PHASE_IDS, PHASE_NAMES, PLACEMENT,
                    PLAYER_COUNTS, AlarunOptions, AlarunState, action_phase_actions, dealt_so_far,
                    placement_actions, turn_problem)
from .scoring import POINTS, druid_lines, line_strength
from .square import BOX, CELL_XY, ORIGIN, SIDE, MagicSquare, cells_of


def _names(cards) -> list[str]:
    return [CARD_NAMES[c] for c in cards]


def build_view(state: AlarunState, seat: int | None, shared: bool = False) -> dict[str, Any]:
    """Alarún's own part of ``seat``'s view (the engine adds the envelope: ``game``, ``seat``,
    ``players``, ``acting``, ``round``, ``terminal``, ``scores``), fresh data only; or, with
    ``shared``, the whole view for :meth:`AlarunState.shared_view` (the envelope written here),
    each square's and card list the same object for as long as it shows the same cards."""
    phase = state.phase
    squares, pending = state.squares, state.pending
    seen = getattr(state, "_seen", None)  # each seat's _SeenSquare, made on first use
    if seen is None or len(seen) != len(squares):
        seen = state._seen = [_SeenSquare(sq) for sq in squares]
    hide = phase == PLACEMENT  # (other seats' placements of this round)
    visible_squares = []
    potion_points = []
    for s, square in enumerate(squares):
        seen_square = seen[s]
        if seen_square.square is not square:  # another object: a clone's, a determinized state's square
            seen_square = seen[s] = _SeenSquare(square)
        if hide and pending[s] and s != seat:
            shown = seen_square.without(square, pending[s])
        else:
            shown = seen_square.full
            if square.occupied != shown.mask:
                shown.grow(square.cells, square.occupied)
        if shared:
            json = shown.json
            if json is None:
                json = shown.json = list(map(list, shown.cells))  # once per change of the cells
            visible_squares.append(json)
        else:
            visible_squares.append(list(map(list, shown.cells)))
        potion_points.append(shown.points)
    if shared:
        kept = getattr(state, "_shared", None)  # the card lists' names (a clone starts afresh)
        if kept is None:
            kept = state._shared = {}
        centre = _shared_names(kept, "centre", state.centre)
        discard = _shared_names(kept, "discard", state.discard)
        known = _shared_known(kept, state.known)
    else:
        centre, discard = _names(state.centre), _names(state.discard)
        known = [_names(k) for k in state.known]
    view: dict[str, Any] = {
        "rounds": ROUNDS,
        "phase": PHASE_NAMES[phase],
        "start_player": state.start_player,
        "alarun": None if state.first_passer == NO_SEAT else state.first_passer,
        "extra_actions_left": state.extra_left,
        "actions_taken": state.actions_taken,
        "action_cap": state.options.action_cap,
        "deck_size": len(state.deck),
        "centre": centre,
        "face_down": len(state.face_down),
        "discard": discard,
        "hand_sizes": list(map(len, state.hands)),
        "known_hands": known,
        "placed_this_round": list(map(len, pending)),
        "squares": visible_squares,
        "potion_points": potion_points,
    }
    if seat is not None:
        view["hand"] = _shared_names(kept, seat, state.hands[seat]) if shared else _names(state.hands[seat])
        view["my_placements"] = [list(CELL_XY[i]) for i in pending[seat]]
        view["secret_colour"] = COLOURS[state.secret[seat]]
    if phase == OVER:
        view["secret_colours"] = [COLOURS[c] for c in state.secret]
        view["breakdowns"] = [b.to_json() for b in state.breakdowns()]
        view["winners"] = state.winners()
    if shared:  # the envelope, after the game's keys as State.shared_view merges it (no merge)
        view["game"] = state.game_name
        view["seat"] = seat
        view["players"] = state.n
        view["acting"] = list(state.acting())
        view["round"] = state.round_no
        view["terminal"] = phase == OVER
        view["scores"] = state.visible_scores(seat)
    return view


def _shared_names(kept: dict, key: Any, cards: list[int]) -> list[str]:
    """The names of ``cards`` for shared views: the same list while the cards are equal to
    those it was made from (kept under ``key``)."""
    was = kept.get(key)
    if was is not None and was[0] == cards:
        return was[1]
    names = _names(cards)
    kept[key] = (cards[:], names)
    return names


def _shared_known(kept: dict, known: list[list[int]]) -> list[list[str]]:
    """``known_hands`` for shared views: the same list while every seat's known cards are."""
    was = kept.get("known")
    if was is not None and was[0] == known:
        return was[1]
    names = [_names(k) for k in known]
    kept["known"] = ([k[:] for k in known], names)
    return names


class _SeenSquare:
    """What views show of one seat's square, kept between views: the whole square
    (:class:`_Shown`, grown by the cards placed since the last view), and the square without
    this round's hidden placements (what the other seats see during the placement phase),
    grown likewise by the cards committed since (a square only gains cards, and this round's
    placements are the newest: without them it holds the cards of the rounds before). Valid
    for the square object held (a clone's or a determinized state's squares are other
    objects, with their own)."""

    __slots__ = ("square", "full", "committed")

    def __init__(self, square: MagicSquare):
        self.square = square  # held, so that its id is never another square's
        self.full = _Shown()
        self.committed = _Shown()

    def without(self, square: MagicSquare, pending: list[int]) -> "_Shown":
        """The square without the ``pending`` cells (this round's hidden placements)."""
        mask = square.occupied
        for i in pending:
            mask &= ~(1 << i)
        committed = self.committed
        if mask != committed.mask:
            board = square.cells[:]
            for i in pending:
                board[i] = EMPTY
            committed.grow(board, mask)
        return committed


_DRUID_ROW = ORIGIN // SIDE  # the druid's row and column on the 9 x 9 board (it sits at the origin)


class _Shown:
    """A square as a view shows it: ``cells``, (x, y, card name) of every card by cell index,
    and ``points``, its potion points (``score_grid(square.grid(), None).potions``).

    The points are summed over the rows and columns of the 9 x 9 board (the cells outside
    the 5 x 5 window are empty, and an empty cell ends a stretch, so a board line scores as
    its part in the window): each line's points are kept, and a placed card changes only its
    row and its column; the druid (at the origin) takes the value that scores best in its
    row and column, and only those depend on it."""

    __slots__ = ("mask", "cells", "index", "row_points", "column_points", "druid_points", "points", "json")

    def __init__(self) -> None:
        self.mask = 0
        self.cells: tuple = ()
        self.json: list | None = None  # ``cells`` as the shared views' JSON list (None: not made since they changed)
        self.index: list[int] = []   # the cell indices of ``cells``
        self.row_points = [0] * SIDE
        self.column_points = [0] * SIDE
        self.druid_points = 0
        self.points = 0

    def grow(self, board: list[int], occupied: int) -> "_Shown":
        """Brought up to the 9 x 9 ``board`` (cards by cell index, EMPTY where none is
        shown), whose ``occupied`` cells hold the cards seen so far and maybe more."""
        new = occupied & ~self.mask
        if not new:
            return self
        cells, index = list(self.cells), self.index
        rows, columns = set(), set()
        for i in cells_of(new):
            if i == ORIGIN:
                continue
            k = bisect(index, i)
            index.insert(k, i)
            cells.insert(k, (*CELL_XY[i], CARD_NAMES[board[i]]))
            rows.add(i // SIDE)
            columns.add(i % SIDE)
        self.cells = tuple(cells)
        self.json = None
        first = not self.mask
        self.mask = occupied
        for r in rows:
            if r != _DRUID_ROW:
                self.row_points[r] = _line_points(tuple(board[r * SIDE:r * SIDE + SIDE]))
        for c in columns:
            if c != _DRUID_ROW:
                self.column_points[c] = _line_points(tuple(board[c::SIDE]))
        if first or _DRUID_ROW in rows or _DRUID_ROW in columns:
            self.druid_points = _druid_points(board)
        self.points = sum(self.row_points) + sum(self.column_points) + self.druid_points
        return self


# Memos of the parts of a square's potion points (lines and druid values repeat between
# squares and games).
_LINE_POINTS: dict[tuple[int, ...], int] = {}
_DRUID_POINTS: dict[tuple, int] = {}
_MEMO_SIZE = 200_000


def _line_points(line: tuple[int, ...]) -> int:
    points = _LINE_POINTS.get(line)
    if points is None:
        if len(_LINE_POINTS) > _MEMO_SIZE:
            _LINE_POINTS.clear()
        points = _LINE_POINTS[line] = POINTS[line_strength(line)]
    return points


def _druid_points(board: list[int]) -> int:
    """The points of the druid's row and column with the druid's best value."""
    r = _DRUID_ROW
    key = (tuple(board[r * SIDE:r * SIDE + SIDE]), tuple(board[r::SIDE]))
    points = _DRUID_POINTS.get(key)
    if points is None:
        points = druid_lines(key[0], r, key[1], r)[1]
        if len(_DRUID_POINTS) > _MEMO_SIZE:
            _DRUID_POINTS.clear()
        _DRUID_POINTS[key] = points
    return points


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

    __slots__ = ("n", "seat", "phase", "options", "round_no", "turn", "start_player", "first_passer",
                 "extra_left", "actions_taken", "centre", "discard", "known", "squares", "own_hand",
                 "own_pending", "hand_sizes", "hidden_placed", "face_down", "deck_size", "pool", "secret")


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
    round_no = r.round_no = checks.integer(view["round"], "round", ROUNDS if phase == OVER else 1, ROUNDS)
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
    if r.deck_size != len(FULL_DECK) - dealt_so_far(n, round_no):
        raise RecordError(f"deck_size must be {len(FULL_DECK) - dealt_so_far(n, round_no)} in round {round_no} "
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
    earlier = HAND_SIZE * (r.round_no - 1) if r.phase != OVER else HAND_SIZE * ROUNDS
    for s in range(r.n):
        own = len(r.own_pending) if s == r.seat else 0
        shown = r.squares[s].count() - 1  # the druid is not a card
        if shown != earlier + own:
            raise RecordError(f"squares[{s}] must show {earlier + own} cards in round {r.round_no} "
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
    state.round_no = r.round_no
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
