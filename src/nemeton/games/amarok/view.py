"""What each seat sees (the legal actions of a view and the determinizer are in :mod:`.infer`).

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

from operator import itemgetter
from typing import Any

from ...engine import TERMINAL, Action
from .rules import (_ACTION_JSON, EMPTY, OBJECTIVE_NAMES, sees, AmarokOptions, AmarokState, _action_json,
                    last_round_copy)


def build_view(state: AmarokState, seat: int | None, shared: bool = False) -> dict[str, Any]:
    """Amarok's part of ``seat``'s view: fresh data, or with ``shared`` the whole view of
    :meth:`State.shared_view <nemeton.engine.state.State.shared_view>` (the engine's envelope
    included; read-only), whose parts are handed out again as the same objects while the
    state values they are made from are unchanged (:class:`_Kept`)."""
    if shared:
        return _shared_view(state, seat)
    ids, n = state.cards.ids, state.n
    hand, owner_sees = state.hand, state.owner_sees
    hands = [_hand_row(ids, hand, owner_sees, seat, p) for p in range(n)]
    known = state.known_bottom
    over = state.turn == TERMINAL
    front, front_count, card_id = state.front, state.front_count, ids.__getitem__
    return {  # the engine's envelope (seat, acting, round, terminal, scores = round wins) comes first
        "phase": "over" if over else ("claw" if state.claw_pending else "take"),
        "options": _options_json(state.options),
        "cards": list(map(dict.copy, state.cards.cards_json)),
        "rounds_to_win": state.target,
        "objective": OBJECTIVE_NAMES[state.objective],
        "objective_holder": state.holder,
        "teams": [[t, t + n // 2] for t in range(n // 2)] if state.teams else None,
        "hands": hands,
        "hand_sizes": [2 - row.count(None) for row in hands],
        "fronts": [list(map(card_id, front[2 * p:2 * p + front_count[p]])) for p in range(n)],
        "river": list(map(card_id, state.river)),
        "deck_size": len(state.deck),
        # cards clawed to the bottom, from the highest to the very bottom card
        "deck_bottom": list(map(card_id, reversed(state.deck[:known]))),
        "last": state.last_json(),
        "last_round": last_round_copy(state.last_round),
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


# ----- shared views ------------------------------------------------------------------------
class _Kept:
    """What a state's shared views were made of, with the state values each part was made
    from (kept in the state, made on first use; a clone starts afresh). Each part is made
    again only when those values changed, so it never holds what ``view(seat)`` would not.
    The state values start as None (no view made yet), so the first shared view makes every
    part (``seat_rows``, ``hand_sizes``, ``fronts``, ``river_ids``, ``bottom_ids``, ``scores``)
    before anything reads it."""

    __slots__ = ("rows", "options", "teams", "hand", "owner_sees", "seat_rows", "hands_of",
                 "hand_sizes", "front", "front_count", "fronts", "river", "river_ids", "bottom",
                 "bottom_ids", "levels", "scores", "last", "last_json")
    rows: _Rows
    options: dict[str, Any]
    teams: list[list[int]] | None
    hand: list[int] | None                   # the state values each part was made from ...
    owner_sees: list[bool] | None
    seat_rows: list[tuple[list, list, list, int]]   # ... and the parts
    hands_of: dict[int | None, list[list]]
    hand_sizes: list[int]
    front: list[int] | None
    front_count: list[int] | None
    fronts: list[list]
    river: list[int] | None
    river_ids: list[str]
    bottom: list[int] | None
    bottom_ids: list[str]
    levels: list[int] | None
    scores: list[float]
    last: tuple[int, Action, int] | None
    last_json: dict[str, Any] | None

    def __init__(self, state: AmarokState):
        n = state.n
        self.rows = _rows_of(state.cards.ids)
        self.options = _options_json(state.options)
        self.teams = [[t, t + n // 2] for t in range(n // 2)] if state.teams else None
        self.hand = self.owner_sees = None
        self.hands_of = {}   # viewer -> its list of rows, while no hand changes
        self.front = self.front_count = None
        self.river = self.bottom = None
        self.levels = None
        self.last = self.last_json = None


def _kept(state: AmarokState) -> _Kept:
    kept = getattr(state, "_shared", None)
    if kept is None:
        kept = state._shared = _Kept(state)
    return kept


class _Rows:
    """One deck's rows for shared views, each made on first use and then the same list for
    every state and viewer (read-only, like the rest of a shared view), so readers that key
    what they made of a row by its identity (the RL encoder) find it again in any seat's
    view, at any step, in any game.

    ``hand[(c0, c1, faces_owner0, faces_owner1)]`` (card indices or EMPTY): a seat's hand row
    as its owner, the other seats and the spectator see it (:func:`sees`), and its size;
    ``front[(c0, c1, count)]``: the row of the first ``count`` of those cards in front.

    A row is one object per *seen* content (``seen``), never per the cards behind it: two
    rows that show the same are the same list, so not even a row's identity tells a reader
    which hidden card it stands for."""

    def __init__(self, ids: tuple[str, ...]):
        self.ids = ids
        self.hand = _Memo(self._hand)
        self.front = _Memo(self._front)
        self.seen = _Memo(_seen_row)

    def _hand(self, key: tuple) -> tuple[list, list, list, int]:
        ids = self.ids
        cards, facing = key[:2], key[2:]
        # the row of seat 0 as seat 0 (its owner), seat 1 (any other seat) and the spectator
        # see it: one rule for every seat (sees)
        rows = [self.seen[tuple(None if c == EMPTY else
                                (ids[c] if sees(viewer, 0, faces_owner) else None,
                                 "owner" if faces_owner else "others")
                                for c, faces_owner in zip(cards, facing))]
                for viewer in (0, 1, None)]
        return rows[0], rows[1], rows[2], 2 - cards.count(EMPTY)

    def _front(self, key: tuple) -> list:
        return [self.ids[c] for c in key[:key[2]]]


def _seen_row(seen: tuple) -> list:
    """A hand row from what is seen of each slot: None (empty) or (card or None, facing)."""
    return [None if slot is None else {"card": slot[0], "facing": slot[1]} for slot in seen]


class _Memo(dict):
    """A dict whose missing entries are made (by ``make(key)``) on first lookup."""

    def __init__(self, make):
        super().__init__()
        self.make = make

    def __missing__(self, key):
        value = self[key] = self.make(key)
        return value


_ROWS: dict[tuple, _Rows] = {}


def _rows_of(ids: tuple[str, ...]) -> _Rows:
    rows = _ROWS.get(ids)
    if rows is None:
        if len(_ROWS) > 32:   # decks are data: keep a few
            _ROWS.clear()
        rows = _ROWS[ids] = _Rows(ids)
    return rows


_OWN, _OTHERS, _BLIND, _SIZE = (itemgetter(k) for k in range(4))


def _hands_of(kept: _Kept, state: AmarokState, seat: int | None) -> list[list]:
    """``seat``'s hand rows: each seat's row as the owner sees it for ``seat``'s own, as the
    others see it for the others' (the spectator: as nobody sees it)."""
    hand, owner_sees = state.hand, state.owner_sees
    if hand != kept.hand or owner_sees != kept.owner_sees:
        rows = kept.seat_rows = list(map(kept.rows.hand.__getitem__,
                                         zip(hand[0::2], hand[1::2], owner_sees[0::2], owner_sees[1::2])))
        kept.hand_sizes = list(map(_SIZE, rows))
        kept.hand, kept.owner_sees = hand[:], owner_sees[:]
        kept.hands_of = {}   # new lists: views handed out before keep theirs
    hands = kept.hands_of.get(seat)
    if hands is None:
        if seat is None:
            hands = list(map(_BLIND, kept.seat_rows))
        else:
            hands = list(map(_OTHERS, kept.seat_rows))
            hands[seat] = _OWN(kept.seat_rows[seat])
        kept.hands_of[seat] = hands
    return hands


def _fronts_of(kept: _Kept, state: AmarokState) -> list[list]:
    front, front_count = state.front, state.front_count
    if front != kept.front or front_count != kept.front_count:
        kept.fronts = list(map(kept.rows.front.__getitem__, zip(front[0::2], front[1::2], front_count)))
        kept.front, kept.front_count = front[:], front_count[:]
    return kept.fronts


def _shared_view(state: AmarokState, seat: int | None) -> dict[str, Any]:
    """The whole shared view (:meth:`AmarokState.shared_view`): the engine's envelope, then
    Amarok's part, equal key for key to ``state.view(seat)``."""
    kept = _kept(state)
    ids = state.cards.ids
    river = state.river
    if river != kept.river:
        kept.river, kept.river_ids = river[:], list(map(ids.__getitem__, river))
    deck, known = state.deck, state.known_bottom
    bottom = deck[:known]
    if bottom != kept.bottom:
        kept.bottom, kept.bottom_ids = bottom, list(map(ids.__getitem__, reversed(bottom)))
    levels = state.levels
    if levels != kept.levels:
        kept.levels, kept.scores = levels[:], [float(v) for v in levels]
    last = state.last
    if last is not kept.last:   # an immutable tuple, replaced at every action
        kept.last = last
        kept.last_json = None if last is None else {
            "seat": last[0], "action": _ACTION_JSON.get(last[1]) or _action_json(last[1]), "card": ids[last[2]]}
    hands = _hands_of(kept, state, seat)
    turn = state.turn
    over = turn == TERMINAL
    return {
        # the engine's envelope (State._envelope), written here beside the parts kept
        "game": state.game_name, "seat": seat, "players": state.n, "acting": list(state.acting()),
        "round": state.round, "terminal": over, "scores": kept.scores,
        "phase": "over" if over else ("claw" if state.claw_pending else "take"),
        "options": kept.options,
        "cards": state.cards.cards_json,
        "rounds_to_win": state.target,
        "objective": OBJECTIVE_NAMES[state.objective],
        "objective_holder": state.holder,
        "teams": kept.teams,
        "hands": hands,
        "hand_sizes": kept.hand_sizes,
        "fronts": _fronts_of(kept, state),
        "river": kept.river_ids,
        "deck_size": len(deck),
        "deck_bottom": kept.bottom_ids,
        "last": kept.last_json,
        "last_round": state.last_round,
        "winners": state.winners() if over else [],
    }


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
