"""What each seat may know (the one gate for secrets); the legal actions of a view, the
determinizer and search's sampler are in :mod:`.infer`.

Hidden from a seat: the other hands (except the cards everyone saw a player take from the
centre this round: ``known_hands``), the other players' secret colours, the 2-player
face-down centre cards, the order of the stack, and the other players' placements of the
current round until everyone has placed (only their number shows). At the end of the game
everything is revealed, with each seat's score breakdown (``breakdowns``).

A view is the engine's envelope (``game``, ``seat``, ``players``, ``acting``, ``round``,
``terminal``, ``scores``) followed by the keys built here; the functions reading a view
(legal actions, the determinizer, the sampler, the renderer, the heuristic) read the seat to
act from ``acting``.

A view read from outside may be anything: :mod:`.infer` checks what it reads.
"""

from __future__ import annotations

from bisect import bisect
from typing import Any

from .components import CARD_NAMES, COLOURS, EMPTY, ROUNDS
from .rules import NO_SEAT, OVER, PHASE_NAMES, PLACEMENT, AlarunState
from .scoring import POINTS, druid_lines, line_strength
from .square import CELL_XY, ORIGIN, SIDE, MagicSquare, cells_of


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
        # (kept: the dict made above whenever shared)
        view["hand"] = (_shared_names(kept, seat, state.hands[seat])  # type: ignore[arg-type]
                        if shared else _names(state.hands[seat]))
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
        view["round"] = state.round
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
