"""Alarún at the RL edge: its action space, its observation tensor (from a seat's view) and
its facts. The slices and their meaning are listed in ``docs/rl.md`` (made from
:meth:`ObservationLayout.describe`).

Cards are encoded by what scoring reads: a card is one of the 49 coloured ingredients or the
Centum auri (50 card kinds, ``components.CARD_NAMES`` order) in the card-count slices, and 7
ingredient + 7 colour + Centum auri + druid features on a cell of a square. A square is the
9 x 9 frame of offsets -4..4 around the druid (the offsets ``place`` actions use), so the
same cell always has the same index, wherever the square grows.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any, Mapping


from ...engine.encoding import ActionSpace, GameEncoding, GameFacts, ObservationLayout
from .actions import FLIP, PASS, PLACES, SWAP_ALL, SWAPS
from .components import CARD_IDS, CARD_NAMES, CENTUM_AURI, COLOURS, HAND_SIZE, ROUNDS
from .options import AlarunOptions
from .rules import PHASE_NAMES
from .square import REACH, SIDE
from .infer import read_options

CARD_KINDS = len(CARD_NAMES)          # 50
CELLS = SIDE * SIDE                   # 81 cells of the 9 x 9 frame
CELL_FEATURES = 16                    # 7 ingredients, 7 colours, Centum auri, druid
DECK = 99
SCALE_POINTS = 100.0                  # potion points and scores are divided by this
CAP_SCALE = 30                        # actions_taken is divided by the cap (this without one)

# feature offsets of a card on a cell: (ingredient feature, colour feature); the Centum auri
# has one feature, given twice (setting it twice is setting it once)
_CELL_FEATURES = {name: ((c // 7, 7 + c % 7) if c < CENTUM_AURI else (14, 14)) for c, name in enumerate(CARD_NAMES)}
_DRUID_FEATURE = 15
_COLOUR_INDEX = {c: i for i, c in enumerate(COLOURS)}
_PHASE_INDEX = {p: i for i, p in enumerate(PHASE_NAMES)}


def all_actions() -> list:
    """Pass, swap all and pass, flip, every swap (hand card, then centre card), every place
    (card, then cell): the same list for every option value (flip is never legal with 3 or 4
    players; its id is kept so that ids mean the same at every player count)."""
    out = [PASS, SWAP_ALL, FLIP]
    out += [a for row in SWAPS for a in row if a is not None]
    out += [a for row in PLACES for a in row if a is not None]
    return out


@lru_cache(maxsize=1)
def _action_space() -> ActionSpace:
    return ActionSpace(all_actions())


def options_from_view(view: Mapping[str, Any]) -> AlarunOptions:
    return read_options(view)


@lru_cache(maxsize=32)
def encoding_for(options: AlarunOptions) -> GameEncoding:
    n = options.players
    cap = options.action_cap
    layout = ObservationLayout()
    seats = "per seat, the observer first then the next seats in turn order"
    off = {
        "acting": layout.add("acting", n, f"1 for each seat that may act now ({seats})"),
        "phase": layout.add("phase", 3, "one-hot: action phase, placement, game over"),
        "round": layout.add("round", ROUNDS, "one-hot: round 1..8"),
        "start_player": layout.add("start_player", n, f"one-hot: the round's start player ({seats})"),
        "alarun": layout.add("alarun", n + 1, "one-hot: who holds Alarún (passed first this round), the last "
                                              "entry = nobody yet"),
        "extra_actions_left": layout.add("extra_actions_left", 1,
                                         "the one-more actions still owed after the first pass / (players - 1)"),
        "actions_taken": layout.add("actions_taken", 2, "actions taken this round / the cap (30 without one), "
                                                        "capped at 1; 1 once the cap is reached (only pass is legal)"),
        "deck_size": layout.add("deck_size", 1, "cards left in the stack / 99"),
        "face_down": layout.add("face_down", 1, "1 while the 2-player face-down centre cards are there"),
        "hand": layout.add("hand", CARD_KINDS, "copies of each card kind in the observer's hand / 2"),
        "centre": layout.add("centre", CARD_KINDS, "copies of each card kind face up in the centre / 2"),
        "discard": layout.add("discard", CARD_KINDS, "copies of each card kind in the open discard pile / 2"),
        "known_hands": layout.add("known_hands", (n, CARD_KINDS),
                                  f"copies of each card kind everyone saw a seat take from the centre this "
                                  f"round and still in its hand / 2 ({seats})"),
        "hand_sizes": layout.add("hand_sizes", n, f"hand cards / 3 ({seats})"),
        "placed_this_round": layout.add("placed_this_round", n,
                                        f"cards placed in this round's placement / 3 ({seats})"),
        "my_placements": layout.add("my_placements", (SIDE, SIDE),
                                    "1 on the cells where the observer placed a card this round (rows y = -4..4, "
                                    "columns x = -4..4 around the druid)"),
        "squares": layout.add("squares", (n, SIDE, SIDE, CELL_FEATURES),
                              f"each square as the view shows it ({seats}): per cell (y, x from -4 to 4 around the "
                              "druid) 7 ingredient, 7 colour, Centum auri and druid features (other seats' cards "
                              "placed this round are hidden until everyone has placed)"),
        "potion_points": layout.add("potion_points", n, f"potion points of each square as shown / 100 ({seats})",
                                    high=math.inf),
        "secret_colour": layout.add("secret_colour", len(COLOURS), "one-hot: the observer's secret colour"),
        "scores": layout.add("scores", n, f"final scores / 100 once the game is over, else 0 ({seats})",
                             high=math.inf),
        "secret_colours": layout.add("secret_colours", (n, len(COLOURS)),
                                     f"one-hot: every seat's secret colour, once the game is over ({seats})"),
    }
    # cell_start[k][y][x]: where the features of cell (x, y) of position k's square start
    # (indexed by the offsets -4..4 themselves: Python's negative indices wrap round the 9 rows)
    wrap = [p if p <= REACH else p - SIDE for p in range(SIDE)]   # list position -> offset
    cell_start = [[[off["squares"] + k * CELLS * CELL_FEATURES
                    + ((wrap[row] + REACH) * SIDE + wrap[col] + REACH) * CELL_FEATURES
                    for col in range(SIDE)] for row in range(SIDE)] for k in range(n)]
    # cell_cards[k][y][x][name]: the two feature indices of that card on that cell
    cell_cards = [[[{name: (start + first, start + second) for name, (first, second) in _CELL_FEATURES.items()}
                    for start in row] for row in rows] for rows in cell_start]
    druid = [off["squares"] + k * CELLS * CELL_FEATURES + (REACH * SIDE + REACH) * CELL_FEATURES + _DRUID_FEATURE
             for k in range(n)]
    cap_scale = float(cap if cap is not None else CAP_SCALE)
    action_phase_most = None if cap is None else cap + n
    facts = GameFacts(
        players=n, teams=n, min_utility=0.0, max_utility=1.0, utility_sum=1.0,
        max_game_length=None if action_phase_most is None else ROUNDS * (action_phase_most + HAND_SIZE * n),
        typical_game_length=ROUNDS * (CAP_SCALE + n + HAND_SIZE * n),
        simultaneous=True)
    round_at, face_down_at = off["round"] - 1, off["face_down"]
    extra_at, taken_at, deck_at = off["extra_actions_left"], off["actions_taken"], off["deck_size"]
    tables = [_SeatTables(off, me, n, (extra_at, taken_at, deck_at)) for me in range(n)]
    card_at = {key: {name: off[key] + i for name, i in CARD_IDS.items()} for key in ("hand", "centre", "discard")}
    phase_at = {name: off["phase"] + i for name, i in _PHASE_INDEX.items()}
    placement_at = [[off["my_placements"] + (y + REACH) * SIDE + x + REACH for x in range(-REACH, REACH + 1)]
                    for y in range(-REACH, REACH + 1)]
    colour_at = {c: off["secret_colour"] + i for c, i in _COLOUR_INDEX.items()}

    def encode_square(rows: list, cells: list) -> tuple[list[int], tuple, tuple]:
        ones: list[int] = []
        for x, y, name in cells:
            ones += rows[y][x][name]
        return ones, (), ()

    square_keys = [("square", k) for k in range(n)]

    def encode_cards(at: dict, cards: list | None) -> tuple[tuple, list[int], list[float]]:
        counts: dict[int, float] = {}
        get = counts.get
        for name in cards or ():
            i = at[name]
            counts[i] = get(i, 0.0) + 0.5
        return (), list(counts), list(counts.values())

    def encode_known(t: "_SeatTables", known: list) -> tuple[tuple, list[int], list[float]]:
        counts: dict[int, float] = {}
        get = counts.get
        for k, s in enumerate(t.order):
            if known[s]:
                at = t.known_hands[k]
                for name in known[s]:
                    i = at[name]
                    counts[i] = get(i, 0.0) + 0.5
        return (), list(counts), list(counts.values())

    # Parts every observer makes alike (the centre, the discard: no seat-relative index), by
    # key: (the view's list, the part made of it), so that the observers after the first take
    # the part made of the same list (State.shared_view hands the same list to every seat).
    common: dict[str, tuple[Any, tuple]] = {}

    def encode_common(key: str, cards: list | None, shared: bool) -> tuple:
        """The part of the centre or the discard, kept by the list's identity for every
        observer only when the views are shared (never changed in place)."""
        if not shared:
            return encode_cards(card_at[key], cards)
        kept = common.get(key)
        if kept is not None and kept[0] is cards:
            return kept[1]
        ones, index, values = encode_cards(card_at[key], cards)
        part = (ones, tuple(index), tuple(values))  # (read by every observer's memo: never changed)
        common[key] = (cards, part)
        return part

    # The view is read in parts (engine.encoding.Parts): each square apart (with a memo, a
    # square that is the same object as at the observer's previous observation is not read
    # again: State.shared_view hands unchanged squares out so), the rest of the table at once.
    def encode(view: Mapping[str, Any], parts) -> None:
        seat = view["seat"]
        t = tables[0 if seat is None else seat]
        parts.add("table", None, encode_table, t, view)
        hand = view.get("hand")
        parts.add("hand", hand, encode_cards, card_at["hand"], hand)
        for key in ("centre", "discard"):
            cards = view.get(key)
            parts.add(key, cards, encode_common, key, cards, parts.shared_views)
        known = view["known_hands"]
        parts.add("known_hands", known, encode_known, t, known)
        squares = view["squares"]
        for k, s in enumerate(t.order):
            cells = squares[s]
            parts.add(square_keys[k], cells, encode_square, cell_cards[k], cells)

    def encode_table(t: "_SeatTables", view: Mapping[str, Any]) -> tuple[list[int], tuple | list, list[float]]:
        ones = druid[:]
        ones += map(t.acting.__getitem__, view["acting"])
        ones.append(phase_at[view["phase"]])
        ones.append(round_at + view["round"])
        ones.append(t.start_player[view["start_player"]])
        alarun = view["alarun"]
        ones.append(t.alarun[n if alarun is None else alarun])
        taken = view["actions_taken"]
        if cap is not None and taken >= cap:
            ones.append(taken_at + 1)
        if view["face_down"]:
            ones.append(face_down_at)
        for x, y in view.get("my_placements") or ():
            ones.append(placement_at[y + REACH][x + REACH])
        colour = view.get("secret_colour")
        if colour is not None:
            ones.append(colour_at[colour])
        # the values at t.table_index: extra actions, actions taken, deck, then per position
        # hand size, placed this round, potion points
        values = [view["extra_actions_left"] / (n - 1), min(1.0, taken / cap_scale), view["deck_size"] / DECK]
        hand_sizes, placed, points = view["hand_sizes"], view["placed_this_round"], view["potion_points"]
        for s in t.order:
            values += (hand_sizes[s] / HAND_SIZE, placed[s] / HAND_SIZE, points[s] / SCALE_POINTS)
        if not view["terminal"]:
            return ones, t.table_index, values
        scores, colours = view["scores"], view["secret_colours"]
        for k, s in enumerate(t.order):
            values.append(scores[s] / SCALE_POINTS)
            ones.append(t.secret_colours[k] + _COLOUR_INDEX[colours[s]])
        return ones, t.table_index + t.scores, values

    return GameEncoding(options, _action_space(), layout, facts, encode)


__all__ = ["all_actions", "encoding_for", "options_from_view"]


class _SeatTables:
    """Observation indices as seen from seat ``me``: ``order[k]`` is the absolute seat at
    position k; ``acting``, ``start_player`` and ``alarun`` are indexed by absolute seat
    (``alarun[n]``: nobody), the other lists by position."""

    def __init__(self, off: dict, me: int, n: int, table_index: tuple[int, ...]):
        rel = [(s - me) % n for s in range(n)]
        self.order = [(me + k) % n for k in range(n)]
        self.acting = [off["acting"] + rel[s] for s in range(n)]
        self.start_player = [off["start_player"] + rel[s] for s in range(n)]
        self.alarun = [off["alarun"] + rel[s] for s in range(n)] + [off["alarun"] + n]
        self.known_hands = [{name: off["known_hands"] + k * CARD_KINDS + i for name, i in CARD_IDS.items()}
                            for k in range(n)]
        self.hand_sizes = [off["hand_sizes"] + k for k in range(n)]
        self.placed = [off["placed_this_round"] + k for k in range(n)]
        self.points = [off["potion_points"] + k for k in range(n)]
        self.scores = tuple(off["scores"] + k for k in range(n))
        # the table part's indices with values: ``table_index`` (the table's own: extra
        # actions, actions taken, deck), then per position hand size, placed, potion points
        self.table_index = table_index + tuple(i for k in range(n)
                                               for i in (self.hand_sizes[k], self.placed[k], self.points[k]))
        self.secret_colours = [off["secret_colours"] + k * len(COLOURS) for k in range(n)]
