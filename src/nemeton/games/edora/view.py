"""What one seat sees of an Edora game: the whole table minus the tablet deck's order, other
seats' V1 draft hands and, while V3 arranging lasts, other seats' face-down herb layouts (the
one gate for secrets; the JSON forms it is made of are in :mod:`.state_json`). ``shared_view``
is the same view made of parts kept between calls, for search and RL."""

from __future__ import annotations

from itertools import chain, repeat
from typing import Any

from .components import HERBS, HERBS_PER_PLAYER, HERB_STATES, POTIONS, TABLETS
from .state_json import (_DIE_VALUES, _HERB_OR_NONE, _OPTIONS_JSON, _REWARD_OR_NONE, _assemble, _board_json,
                         _shared_sanctuaries, _table_json, _view_tables, options_json, public_json)
from .steps import KEEP_TABLET


def state_view(st, seat: int | None) -> dict[str, Any]:
    """The game's part of ``seat``'s view: the table, minus the deck order, other seats' V1
    draft hands and, while V3 arranging lasts, other seats' face-down herb layouts."""
    data = public_json(st)
    if _arranging(st):       # V3: layouts stay face down until everybody is done
        for p, board in enumerate(data["boards"]):
            if p != seat:
                board["herbs"] = [None] * HERBS_PER_PLAYER
    data["deck_known"] = _deck_known(st, seat)
    data["draft_hand"] = _draft_hand(st, seat)
    return data


def _arranging(st) -> bool:
    return any(a < HERBS_PER_PLAYER for a in st.arranged)


def _deck_known(st, seat: int | None) -> list[list]:
    """The tablets ``seat`` put under the deck (V1), with their positions."""
    if seat is None or seat not in st.deck_marks:
        return []
    return [[k, TABLETS[t]] for k, t in enumerate(st.deck) if st.deck_marks[k] == seat]


def _draft_hand(st, seat: int | None) -> list[str] | None:
    """The V1 draft hand, to the seat drafting it only."""
    top = st.stack[-1] if st.stack else None
    if seat is not None and top is not None and top[0] == KEEP_TABLET and top[1] == seat:
        return [TABLETS[t] for t in st.draft_hand]
    return None


def shared_view(st, seat: int | None) -> dict[str, Any]:
    """:meth:`State.shared_view <nemeton.engine.state.State.shared_view>` whole, for a
    checked seat: equal to ``view(seat)`` (the engine's envelope written here beside the
    game's keys, with the values :meth:`State._envelope` gives), read-only, each board, the
    sanctuaries and the table's other lists made again only when the state values they are
    made from differ from those they were last made from (kept in the state, a clone starts
    afresh), else handed out as the same objects."""
    parts = getattr(st, "_view_parts", None)
    if parts is None:
        parts = st._view_parts = {}
    owners = st.potion_owner
    kept = parts.get("potions")
    if kept is None or kept[0] != owners:
        potions: list[list[str]] = [[] for _ in range(st.n)]
        left: list[str] = []
        for k, owner in enumerate(owners):
            (left if owner < 0 else potions[owner]).append(POTIONS[k])
        kept = parts["potions"] = (owners[:], potions, left)
    potions_left = kept[2]
    boards = _shared_boards(st, parts, seat, kept[1])
    inputs = (st.pit_closed, st.ring_colours, st.dolmen_owner, st.oracle_stones, st.oracle_slots, st.deck_marks,
              st.gems_left, [len(st.deck), len(st.draft_hand)])
    kept = parts.get("table")
    if kept is None or kept[0] != inputs:
        table = _table_json(st)   # the components that change seldom, made again together
        kept = parts["table"] = (tuple(map(list.copy, inputs)), table)
    table = kept[1]
    kept = parts.get("options")
    if kept is None or kept[0] is not st.options:   # options hash all their fields: looked up once a state
        kept = parts["options"] = (st.options, _options_shared(st.options))
    data = _assemble(st, kept[1], boards, _shared_sanctuaries(st, parts), table, potions_left)
    # the engine's envelope (State._envelope's values), written beside the game's keys
    data["game"], data["seat"], data["players"], data["round"] = st.game_name, seat, st.n, st.round
    data["acting"], data["terminal"], data["scores"] = list(st.acting()), st.over, st.visible_scores(seat)
    data["deck_known"] = _deck_known(st, seat)
    data["draft_hand"] = _draft_hand(st, seat)
    return data


def _shared_boards(st, parts: dict, seat: int | None, potions: list[list[str]]) -> list[dict[str, Any]]:
    """Every board for :func:`shared_view`, each kept per (player, herbs hidden) with what it
    was made from: the player's numbers (one row of the per-player lists, zipped at once)
    and slices of the lists that hold several values per player (reserve, overview, herbs,
    herb states, amulet, tablets), compared only after those lists changed as a whole."""
    rows = list(zip(st.provisions, st.mistletoe, st.prestige, st.knowledge, st.knowledge_stack, st.sickle,
                    st.figure, st.start_at, st.placed, st.standing, st.runes, st.pairs_released, st.arranged,
                    st.dolmens, st.beige_dolmens))
    lists = (st.reserve, st.overview, st.herb_at, st.herb_state, st.amulet, st.tablets)
    kept = parts.get("board_lists")
    if kept is None or kept[0] != lists:
        kept = parts["board_lists"] = ((*map(list.copy, lists[:5]), list(map(list.copy, lists[5]))),
                                       0 if kept is None else kept[1] + 1)
    generation = kept[1]
    hiding = min(st.arranged) < HERBS_PER_PLAYER   # V3: layouts face down until everybody is done
    boards = []
    for p, row in enumerate(rows):
        key = (p, hiding and p != seat)
        kept = parts.get(key)
        if kept is not None and kept[1] == generation and kept[0] == row and kept[3] is potions[p]:
            boards.append(kept[4])
            continue
        if kept is not None and kept[1] == generation:
            pieces = kept[2]
        else:
            h = HERBS_PER_PLAYER * p
            pieces = (st.reserve[7 * p + 1:7 * p + 7], st.overview[7 * p + 1:7 * p + 7],
                      st.herb_at[h:h + HERBS_PER_PLAYER], st.herb_state[h:h + HERBS_PER_PLAYER],
                      st.amulet[6 * p:6 * p + 6], st.tablets[p][:])
        if kept is None:
            t = _view_tables(st.board)
            board = _board_json(st, p, t["names_or_none"], t["standing_names"], t["rune_units"], potions[p])
            if key[1]:
                board["herbs"] = [None] * HERBS_PER_PLAYER
        elif kept[0] == row and kept[2] == pieces and kept[3] is potions[p]:
            board = kept[4]   # another player's lists changed
            pieces = kept[2]
        else:
            board = _patch_board(kept[4], kept[0], kept[2], row, pieces, potions[p], st.board, key[1])
        parts[key] = (row, generation, pieces, potions[p], board)
        boards.append(board)
    return boards


def _patch_board(old: dict[str, Any], was: tuple, was_pieces: tuple, row: tuple, pieces: tuple,
                 potions: list[str], b, hidden: bool) -> dict[str, Any]:
    """A new board dict for :func:`shared_view`: ``old`` (made from the row ``was`` and the
    pieces ``was_pieces``) with every value whose inputs changed made again from ``row`` and
    ``pieces`` (:func:`_shared_boards`' order), the unchanged lists and dicts kept as the same
    objects (a hidden herb layout stays hidden: ``hidden`` is part of the board's key)."""
    t = _view_tables(b)
    names = t["names_or_none"]
    board = dict(old)
    board.update(provisions=row[0], mistletoe=row[1], prestige=row[2], knowledge=row[3],
                 knowledge_stack=row[4], sickle=row[5], figure=names[row[6]], start=names[row[7]],
                 placed=row[8], pairs_released=row[11], arranged=row[12], dolmens=row[13],
                 beige_dolmens=row[14], potions=potions)
    if row[9] != was[9]:
        board["standing_stones"] = list(t["standing_names"][row[9] & 63])
    if row[10] != was[10]:
        board["rune_stones"] = list(t["rune_units"][row[10] & 63])
    if pieces is not was_pieces:
        if pieces[0] != was_pieces[0]:
            board["reserve"] = list(chain.from_iterable(map(repeat, _DIE_VALUES, pieces[0])))
        if pieces[1] != was_pieces[1]:
            board["overview"] = list(chain.from_iterable(map(repeat, _DIE_VALUES, pieces[1])))
        if pieces[2] != was_pieces[2] and not hidden:
            board["herbs"] = list(map(_HERB_OR_NONE.__getitem__, pieces[2]))
        if pieces[3] != was_pieces[3]:
            board["herb_state"] = dict(zip(HERBS, map(HERB_STATES.__getitem__, pieces[3])))
        if pieces[4] != was_pieces[4]:
            board["amulet"] = list(map(_REWARD_OR_NONE.__getitem__, pieces[4]))
        if pieces[5] != was_pieces[5]:
            board["tablets"] = list(map(TABLETS.__getitem__, pieces[5]))
    return board


def _options_shared(options) -> dict[str, Any]:
    """The options' JSON, the same dict for every shared view (read-only)."""
    data = _OPTIONS_JSON.get(options)
    return data if data is not None else options_json(options)
