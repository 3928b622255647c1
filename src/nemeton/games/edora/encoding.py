"""The Druids of Edora at the RL edge: its action space, its observation tensor (from a
seat's view) and its facts. The slices and their meaning are listed in ``docs/rl.md``.

The board is data (ruling E3), so the action space and the tensor are per board: sanctuaries,
their spaces, fire pits, the dolmen ring and the amulet rows come from the options' board.
Seats are relative (the observer first). Counts and tracks are divided by a fixed scale so
that most values lie in [0, 1] (a few can exceed 1 in long games: prestige, provisions).
"""

from __future__ import annotations

import math
import operator
from functools import lru_cache
from itertools import chain, compress, count, repeat
from typing import Any, Mapping, Sequence


from ...engine.encoding import ActionSpace, GameEncoding, GameFacts, ObservationLayout
from . import actions as A
from . import decisions
from .actions import build_board_tables
from .board import REWARDS, RUNE_UNITS, board_from_text
from .components import DOLMEN_COLOURS, HERBS, HERB_STATES, POTIONS, TABLETS
from .options import EdoraOptions
from .state_json import options_of
from .steps import BEGIN_PLAY, COMPETITION, STEP_NAMES

_STEPS = sorted(STEP_NAMES) + list(range(COMPETITION, BEGIN_PLAY + 1))   # decisions, then automatic steps
_STEP_INDEX = {k: i for i, k in enumerate(_STEPS)}
_REWARD = {r: i for i, r in enumerate(REWARDS)}
_RUNE = {u: i for i, u in enumerate(RUNE_UNITS)}
_HERB = {h: i for i, h in enumerate(HERBS)}
_HERB_STATE = {s: i for i, s in enumerate(HERB_STATES)}
_TABLET = {t: i for i, t in enumerate(TABLETS)}
_POTION = {p: i for i, p in enumerate(POTIONS)}
_COLOUR = {c: i for i, c in enumerate(DOLMEN_COLOURS)}
_FLAGS = ("revisit_sanctuaries", "tablet_draft", "shared_herbs", "arranged_herbs", "shared_dice", "safety_valve")
MAX_ROUNDS = 40          # the safety valve's limit (E4); rounds are divided by it
# one player's board: (name, size, meaning); the scalars first, each divided by its scale
_SCALARS = (("provisions", 30.0), ("mistletoe", 10.0), ("prestige", 100.0), ("knowledge", 14.0),
            ("sickle", 18.0), ("placed", 13.0), ("pairs_released", 6.0), ("arranged", 12.0),
            ("dolmens", 6.0), ("beige_dolmens", 3.0))
_H = len(HERBS)
_PLAYER_PARTS = (
    ("scalars", len(_SCALARS) + 1, "provisions / 30, mistletoe / 10, prestige / 100, knowledge / 14, sickle / 18, "
                                   "dice placed / 13, herb pairs released / 6, herbs arranged / 12, dolmens / 6, "
                                   "beige dolmens / 3, knowledge-stack position / knowledge counter (ties on the track)"),
    ("reserve", 6, "reserve dice of each value 1..6 / 4"),
    ("overview", 6, "overview-board dice of each value 1..6 / 9"),
    ("standing_stones", 6, "1 per standing stone placed, by reward (VP, KNOW, FOOD, DIE, MIST, SICKLE)"),
    ("rune_stones", 6, "1 per rune stone placed, by unit (" + ", ".join(RUNE_UNITS) + ")"),
    ("amulet", 6 * 7, "per amulet slot: one-hot of its gem (the 6 rewards) or empty"),
    ("tablets", len(TABLETS), "copies of each tablet T1..T15 taken / 2"),
    ("potions", len(POTIONS), "1 per potion owned (P1a..P6c)"),
    ("herb_state", _H * 3, "per herb (H_FOOD..H_TABLET): one-hot on the board, active, inactive"),
    ("herbs", _H * (_H + 1), "per circle 1..12 of the sickle track: one-hot of its herb, or hidden (V3 layouts "
                             "face down)"),
)
_PLAYER_OFFSETS = {}
_size = 0
for _name, _n, _ in _PLAYER_PARTS:
    _PLAYER_OFFSETS[_name] = _size
    _size += _n
PLAYER_FEATURES = _size


_DICE_COUNTS: dict[tuple, tuple[list[int], list[int]]] = {}


def _dice_counts(dice: list) -> tuple[list[int], list[int]]:
    """The die values 1..6 that ``dice`` holds (as 0..5, ascending) and how many of each,
    made once per multiset of dice (a board holds at most 13)."""
    key = tuple(dice)
    found = _DICE_COUNTS.get(key)
    if found is None:
        counts = [0] * 7
        for v in dice:
            counts[v] += 1
        found = ([v - 1 for v in range(1, 7) if counts[v]], [c for c in counts[1:] if c])
        if len(_DICE_COUNTS) > 100_000:
            _DICE_COUNTS.clear()
        _DICE_COUNTS[key] = found
    return found


def all_actions(options: EdoraOptions) -> list:
    """Every action of the options' board and variants: start spaces, moves (each
    destination at each cost a route can have), forest leaps, die placements (sanctuary,
    space of a game of this many players, die, value paid), dice raised to 6, gems (row,
    gem), then the board-independent ones (those of variants V1 and V3 only with them on)."""
    board = board_from_text(options.board)
    build_board_tables(board)
    t = board.tables
    n = options.players
    out = list(t["starts"].values())
    for d in range(board.size):
        out += [t["moves"][d][c] for c in sorted(t["move_costs"][d])]
    out += t["leaps"]
    for s in range(board.size):
        for i in range(min(len(board.spaces[s]), n)):
            out += [a for row in t["places"][s][i] for a in row if a is not None]
    for s in range(board.size):
        for i in range(min(len(board.spaces[s]), n)):
            out += [a for a in t["raise"][s][i] if a is not None]
    out += [a for row in t["gems"] for a in row]
    # the rules' own instances of the board-independent actions (ids are then found by identity)
    dec = decisions
    out += [A.EMERGENCY, dec.FOOD_PROVISIONS, dec.FOOD_DICE, *dec.TAKE_DIE_ACTIONS[1:], *dec.BREW, dec.STOP_BREWING,
            dec.STOP_RAISING, dec.SKIP_STANDING, dec.SKIP_RUNE, *dec.STANDING, *dec.RUNE.values(), *dec.REPEAT,
            *dec.FLIP, *dec.TAKE_HERB_ACTIONS, *(a for row in dec.ACTIVATE for a in row if a.herb != a.other),
            *(a for row in dec.TABLET_ACTIONS for a in row)]
    if options.arranged_herbs:
        out += [a for row in dec.ARRANGE for a in row]
    if options.tablet_draft:
        out += dec.KEEP
    return out


def options_from_view(view: Mapping[str, Any]) -> EdoraOptions:
    return options_of(view)


@lru_cache(maxsize=16)
def encoding_for(options: EdoraOptions) -> GameEncoding:
    n = options.players
    board = board_from_text(options.board)
    size, pits, ring = board.size, len(board.pit_names), len(board.ring)
    spaces = [min(len(board.spaces[s]), n) for s in range(board.size)]
    space_base = [sum(spaces[:s]) for s in range(size)]
    layout = ObservationLayout()
    seats = "per seat, the observer first then the next seats in turn order"
    off = {
        "acting": layout.add("acting", n, f"1 for each seat that may act now ({seats})"),
        "scores": layout.add("scores", n, f"prestige (the public score) / 100 ({seats})", high=math.inf),
        "round": layout.add("round", 1, f"the round number / {MAX_ROUNDS}"),
        "options": layout.add("options", len(_FLAGS) + 1, "1 per rule switched on: " + ", ".join(_FLAGS)
                              + ", fire_pit_scoring=summary"),
        "start_player": layout.add("start_player", n, f"one-hot: the start player ({seats})"),
        "game_state": layout.add("game_state", 6, "ending (the last round is being played), quiet rounds / 3, a die "
                                                  "was placed this round, dolmens linked / 6, fire pits closed / "
                                                  "number of pits, terminal"),
        "decision": layout.add("decision", len(_STEPS) + n + 3,
                               "the step on top of the turn stack: one-hot of its kind (the 18 decisions, then the "
                               "7 automatic steps), one-hot of the seat it names (" + seats + "), its two numbers "
                               "/ 12 (-1 = none), the stack depth / 10", low=-1.0, high=math.inf),
        "players": layout.add("players", (n, PLAYER_FEATURES),
                              f"each seat's board ({seats}); per seat: " + "; ".join(
                                  f"{name} ({k}): {meaning}" for name, k, meaning in _PLAYER_PARTS), high=math.inf),
        "figures": layout.add("figures", (n, size), f"one-hot: the sanctuary where each seat's druid stands ({seats})"),
        "start_spaces": layout.add("start_spaces", (n, size), f"one-hot: each seat's start sanctuary ({seats})"),
        "dice": layout.add("dice", (sum(spaces), n + 1),
                           f"per sanctuary space (sanctuaries in board order, each with its first min(spaces, "
                           f"players) spaces): one-hot of the owner of the die there ({seats}), then its value / 6"),
        "stones_at": layout.add("stones_at", (size, 2), "per sanctuary: standing stones / 3 and rune stones / 3 placed there"),
        "fire_pits": layout.add("fire_pits", (pits, n + 1), f"per fire pit: one-hot of who closed it ({seats}), or open"),
        "dolmen_ring": layout.add("dolmen_ring", (ring, len(DOLMEN_COLOURS)), "per dolmen slot of the ring: one-hot colour"),
        "dolmen_owner": layout.add("dolmen_owner", (len(DOLMEN_COLOURS), n + 1),
                                   f"per dolmen colour A..F: one-hot of its owner ({seats}), or none"),
        "oracle_stones": layout.add("oracle_stones", (len(REWARDS), len(REWARDS)),
                                    "per corner of the oracle hexagon: one-hot of its reward stone"),
        "oracle_slots": layout.add("oracle_slots", (12, len(TABLETS) + 1),
                                   "per face-up tablet slot: one-hot of its tablet, or empty"),
        "deck": layout.add("deck", 2, "tablets in the deck / 30, tablets in the draft hand / 3"),
        "deck_known": layout.add("deck_known", len(TABLETS), "copies of each tablet the observer put under the "
                                                             "deck (V1) and knows there / 2"),
        "draft_hand": layout.add("draft_hand", len(TABLETS), "copies of each tablet in the observer's draft hand (V1) / 2"),
        "gems_left": layout.add("gems_left", len(REWARDS), "gems of each reward left / 4"),
        "potions_left": layout.add("potions_left", len(POTIONS), "1 per potion still available"),
    }
    flags = [off["options"] + k for k, f in enumerate(_FLAGS) if getattr(options, f)]
    if options.fire_pit_scoring == "summary":
        flags.append(off["options"] + len(_FLAGS))
    length = MAX_ROUNDS * n * 4
    facts = GameFacts(players=n, teams=n, min_utility=0.0, max_utility=1.0, utility_sum=1.0,
                      max_game_length=None, typical_game_length=length,
                      simultaneous=options.arranged_herbs)
    tables = [_SeatTables(off, me, n, board.names, pits, ring, spaces, space_base) for me in range(n)]
    scalar_keys = [key for key, _ in _SCALARS]
    scalar_scales = [1.0 / scale for _, scale in _SCALARS]
    decision = off["decision"]
    steps_end = decision + len(_STEPS)
    g = off["game_state"]
    fixed_idx = [off["round"], g + 1, g + 3, g + 4]
    deck = off["deck"]
    quarter = (0.25).__mul__

    stones = off["stones_at"]
    knowledge_stack = operator.itemgetter("knowledge_stack")

    # The encoder maps views to indices with dict lookups run by map() (C loops): in Python
    # 3.11 each list comprehension is a function call, and the calls cost more than the work.
    # The view is read in parts (engine.encoding.Parts): the table's state, each seat's board
    # in four parts, the sanctuaries and the table's components; with a memo, a part whose
    # objects are those of the observer's previous observation is not read again
    # (State.shared_view hands unchanged parts out so).
    def encode_head(t: _SeatTables, view: Mapping[str, Any]):
        """The table's state, read at every step: its indices are the observer's fixed list
        (:func:`head_indices`), the values made in one list."""
        stack = view["stack"]
        ones = [*map(t.acting.__getitem__, view["acting"]), *flags, t.start_player[view["start_player"]]]
        if view["ending"]:
            ones.append(g)
        if view["die_this_round"]:
            ones.append(g + 2)
        if view["terminal"]:
            ones.append(g + 5)
        if stack:
            kind, a, b = stack[-1]
            ones.append(decision + _STEP_INDEX[kind])
            if 0 <= a < n and kind in (0, 1):   # the setup decisions name their seat
                ones.append(t.decision_seat[a])
            idx = t.head_with_step
            val = [view["round"] / MAX_ROUNDS, view["quiet_rounds"] / 3, view["links"] / 6, view["closures"] / pits,
                   a / 12, b / 12, len(stack) / 10]
        else:
            idx = t.head
            val = [view["round"] / MAX_ROUNDS, view["quiet_rounds"] / 3, view["links"] / 6, view["closures"] / pits,
                   0.0]
        val += map((0.01).__mul__, view["scores"])
        val += (view["deck_size"] / 30, view["draft_hand_size"] / 3)
        # each board's knowledge-stack position / the knowledge counter (the counter is the table's)
        val += map(operator.truediv, map(knowledge_stack, view["boards"]), repeat(max(1, view["knowledge_counter"])))
        known, hand = view["deck_known"], view["draft_hand"]
        if known or hand:   # variant V1 only
            halves: dict[int, float] = {}
            for key, tablets in (("deck_known", [t_ for _, t_ in known]), ("draft_hand", hand or ())):
                o = off[key]
                for tablet in tablets:
                    i = o + _TABLET[tablet]
                    halves[i] = halves.get(i, 0.0) + 0.5
            idx = [*idx, *halves]
            val += halves.values()
        return ones, idx, val

    def head_indices(t: _SeatTables, step: bool) -> list[int]:
        """The head's value indices in :func:`encode_head`'s order (``step``: the stack's top
        has its two numbers)."""
        numbers = [steps_end + n, steps_end + n + 1] if step else []
        return [*fixed_idx, *numbers, steps_end + n + 2, *t.scores, deck, deck + 1, *t.kstack]

    def encode_dice(t: _SeatTables, k: int, reserve: list, overview: list):
        base = t.seat_base[k]
        idx: list[int] = []
        val: list[float] = []
        if reserve:
            held, counts = _dice_counts(reserve)
            idx += map((base + _PLAYER_OFFSETS["reserve"]).__add__, held)
            val += map((0.25).__mul__, counts)
        if overview:
            held, counts = _dice_counts(overview)
            idx += map((base + _PLAYER_OFFSETS["overview"]).__add__, held)
            val += map((1 / 9).__mul__, counts)
        return (), idx, val

    def encode_items(t: _SeatTables, k: int, pl: Mapping[str, Any]):
        ones = list(map(t.standing[k].__getitem__, pl["standing_stones"]))
        ones += map(t.runes[k].__getitem__, pl["rune_stones"])
        ones += map(dict.__getitem__, t.amulet[k], pl["amulet"])
        ones += map(t.potions[k].__getitem__, pl["potions"])
        halves: dict[int, float] = {}  # tablets counted in halves (2 copies of each)
        for tablet in pl["tablets"]:
            i = t.tablets[k][tablet]
            halves[i] = halves.get(i, 0.0) + 0.5
        return ones, list(halves), list(halves.values())

    def encode_herbs(t: _SeatTables, k: int, herb_state: dict, herbs: list):
        ones = list(map(t.herb_state[k].__getitem__, herb_state.items()))
        ones += map(dict.__getitem__, t.herbs[k], herbs)
        return ones, (), ()

    def encode_sanctuaries(t: _SeatTables, sanctuaries: list, cache: dict):
        """Every sanctuary's dice and stones; what a sanctuary gave is kept in ``cache`` by
        its dict's identity (shared views keep the sanctuaries that did not change): only
        the sanctuaries that are new objects are read, found and joined at C speed."""
        # per sanctuary: its dict, its one-hot indices, value indices and values
        kept: tuple[list[Any], list[Sequence[int]], list[Sequence[int]], list[Sequence[float]]] | None
        kept = cache.get("sanctuaries")
        if kept is None or len(kept[0]) != len(sanctuaries):
            size = len(sanctuaries)
            kept = ([None] * size, [()] * size, [()] * size, [()] * size)
            cache["sanctuaries"] = kept
        entries, all_ones, all_idx, all_val = kept
        for s in compress(count(), map(operator.is_not, sanctuaries, entries)):
            entry = entries[s] = sanctuaries[s]
            dice = entry["dice"]
            o: list[int] = []
            i: list[int] = []
            v: list[float] = []
            if any(dice):
                for feature, die in zip(t.spaces[s], dice):
                    if die is not None:
                        o.append(feature[die[0]])
                        i.append(feature[n])
                        v.append(die[1] / 6)
            if entry["standing_stones"]:
                i.append(stones + 2 * s)
                v.append(entry["standing_stones"] / 3)
            if entry["rune_stones"]:
                i.append(stones + 2 * s + 1)
                v.append(entry["rune_stones"] / 3)
            all_ones[s], all_idx[s], all_val[s] = o, i, v
        return list(chain.from_iterable(all_ones)), list(chain.from_iterable(all_idx)), list(chain.from_iterable(all_val))

    def encode_table(t: _SeatTables, view: Mapping[str, Any]):
        ones = list(map(list.__getitem__, t.pits, view["fire_pits"].values()))
        ones += map(dict.__getitem__, t.ring, view["dolmen_ring"])
        ones += map(t.dolmen_owner.__getitem__, view["dolmen_owner"].items())
        ones += map(dict.__getitem__, t.oracle_stones, view["oracle_stones"])
        ones += map(dict.__getitem__, t.oracle_slots, view["oracle_slots"])
        ones += map(t.potions_left.__getitem__, view["potions_left"])
        gems = view["gems_left"]
        idx = list(map(t.gems_left.__getitem__, gems))
        val = list(map(quarter, gems.values()))
        return ones, idx, val

    _ITEMS = ("standing_stones", "rune_stones", "amulet", "potions", "tablets")
    _TABLE = ("fire_pits", "dolmen_ring", "dolmen_owner", "oracle_stones", "oracle_slots", "potions_left", "gems_left")
    board_keys = [("board", s) for s in range(n)]
    # A board's entries do not depend on the observer but through its position k: they are
    # those at position 0 plus k * PLAYER_FEATURES (the druid's and start sanctuaries plus
    # k * size). So each seat's latest board, and its dice, items and herbs, are read once at
    # position 0 for every observer (kept with the objects, compared by identity).
    zero = tables[0]
    shared_boards: list = [None] * n
    shared_pieces: list = [[None, None, None] for _ in range(n)]

    def board_at_zero(pl: Mapping[str, Any], pieces: list):
        """A board at position 0: its scalars, then its dice, items and herbs (each kept in
        ``pieces`` while the board's lists are the same objects), and apart the druid's and
        start sanctuaries' entries."""
        idx = zero.scalars[0][:len(_SCALARS)]
        val = list(map(operator.mul, map(pl.__getitem__, scalar_keys), scalar_scales))
        reserve, overview = pl["reserve"], pl["overview"]
        kept = pieces[0]
        if kept is None or kept[0] is not reserve or kept[1] is not overview:
            kept = pieces[0] = (reserve, overview, encode_dice(zero, 0, reserve, overview))
        idx += kept[2][1]
        val += kept[2][2]
        items = tuple(map(pl.__getitem__, _ITEMS))
        kept = pieces[1]
        if kept is None or not all(map(operator.is_, kept[0], items)):
            kept = pieces[1] = (items, encode_items(zero, 0, pl))
        ones = list(kept[1][0])
        idx += kept[1][1]
        val += kept[1][2]
        herb_state, herbs = pl["herb_state"], pl["herbs"]
        kept = pieces[2]
        if kept is None or kept[0] is not herb_state or kept[1] is not herbs:
            kept = pieces[2] = (herb_state, herbs, encode_herbs(zero, 0, herb_state, herbs))
        ones += kept[2][0]
        places = []
        if pl["figure"] is not None:
            places.append(zero.figures[0][pl["figure"]])
        if pl["start"] is not None:
            places.append(zero.starts[0][pl["start"]])
        return ones, idx, val, places

    def encode_board(t: _SeatTables, s: int, pl: Mapping[str, Any], kept_for_all: bool):
        """Seat ``s``'s board as ``t``'s observer sees it: its entries at position 0, moved;
        kept for every observer only when the views are shared (never changed in place)."""
        if kept_for_all:
            kept = shared_boards[s]
            if kept is None or kept[0] is not pl:
                kept = shared_boards[s] = (pl, board_at_zero(pl, shared_pieces[s]))
            ones, idx, val, places = kept[1]
        else:
            ones, idx, val, places = board_at_zero(pl, [None, None, None])
        k = t.position[s]
        if k:
            shift = k * PLAYER_FEATURES
            ones = list(map(shift.__add__, ones))
            idx = list(map(shift.__add__, idx))
            if places:
                ones += map((k * size).__add__, places)
        elif places:
            ones = ones + places
        return ones, idx, val

    for t in tables:
        t.head_with_step, t.head = head_indices(t, True), head_indices(t, False)

    def encode(view: Mapping[str, Any], parts) -> None:
        seat = view["seat"]
        t = tables[0 if seat is None else seat]
        add = parts.add
        cache = parts.cache
        add("head", None, encode_head, t, view)
        kept_for_all = parts.shared_views
        for s, pl in enumerate(view["boards"]):
            add(board_keys[s], pl, encode_board, t, s, pl, kept_for_all)
        sanctuaries = view["sanctuaries"]
        add("sanctuaries", sanctuaries, encode_sanctuaries, t, sanctuaries, cache)
        add("table", tuple(map(view.__getitem__, _TABLE)), encode_table, t, view)

    return GameEncoding(options, ActionSpace(all_actions(options)), layout, facts, encode)


__all__ = ["all_actions", "encoding_for", "options_from_view", "PLAYER_FEATURES"]


class _SeatTables:
    """Absolute observation indices as seen from seat ``me`` (seats relative to it), so the
    encoder turns each part of a view into indices by plain lookups."""

    head_with_step: list[int]   # the head's value indices (encoding_for sets them)
    head: list[int]

    def __init__(self, off: dict, me: int, n: int, names: tuple, pits: int, ring: int, spaces: list,
                 space_base: list):
        size = len(names)
        self.position = [(s - me) % n for s in range(n)]            # absolute seat -> position
        rel = self.position
        self.acting = [off["acting"] + rel[s] for s in range(n)]
        self.start_player = [off["start_player"] + rel[s] for s in range(n)]
        self.decision_seat = [off["decision"] + len(_STEPS) + rel[s] for s in range(n)]
        self.scores = [off["scores"] + rel[s] for s in range(n)]
        self.seat_base = [off["players"] + k * PLAYER_FEATURES for k in range(n)]
        po = _PLAYER_OFFSETS
        base = self.seat_base
        self.scalars = [list(range(b, b + len(_SCALARS) + 1)) for b in base]
        self.kstack = [self.scalars[rel[s]][len(_SCALARS)] for s in range(n)]   # by absolute seat
        self.standing = [{r: b + po["standing_stones"] + i for r, i in _REWARD.items()} for b in base]
        self.runes = [{u: b + po["rune_stones"] + i for u, i in _RUNE.items()} for b in base]
        self.amulet = [[{**{r: b + po["amulet"] + 7 * j + i for r, i in _REWARD.items()},
                         None: b + po["amulet"] + 7 * j + 6} for j in range(6)] for b in base]
        self.tablets = [{t: b + po["tablets"] + i for t, i in _TABLET.items()} for b in base]
        self.potions = [{p: b + po["potions"] + i for p, i in _POTION.items()} for b in base]
        self.herb_state = [{(h, st): b + po["herb_state"] + 3 * i + j for h, i in _HERB.items()
                            for st, j in _HERB_STATE.items()} for b in base]
        self.herbs = [[{**{h: b + po["herbs"] + (_H + 1) * c + i for h, i in _HERB.items()},
                        None: b + po["herbs"] + (_H + 1) * c + _H} for c in range(_H)] for b in base]
        self.figures = [{name: off["figures"] + k * size + s for s, name in enumerate(names)} for k in range(n)]
        self.starts = [{name: off["start_spaces"] + k * size + s for s, name in enumerate(names)} for k in range(n)]
        owner = rel + [n]   # an owner of -1 (none: an open pit, a dolmen nobody owns) is the last entry
        # per sanctuary space: the owner's one-hot index for each absolute seat, then the value's
        self.spaces = [[[off["dice"] + (n + 1) * (space_base[s] + i) + rel[c] for c in range(n)]
                        + [off["dice"] + (n + 1) * (space_base[s] + i) + n]
                        for i in range(spaces[s])] for s in range(size)]
        self.pits = [[off["fire_pits"] + (n + 1) * j + owner[c] for c in range(n)] + [off["fire_pits"] + (n + 1) * j + n]
                     for j in range(pits)]
        self.ring = [{c: off["dolmen_ring"] + 6 * j + i for c, i in _COLOUR.items()} for j in range(ring)]
        self.dolmen_owner = {(c, o): off["dolmen_owner"] + (n + 1) * i + owner[o] for c, i in _COLOUR.items()
                             for o in range(-1, n)}
        self.oracle_stones = [{r: off["oracle_stones"] + 6 * j + i for r, i in _REWARD.items()} for j in range(6)]
        self.oracle_slots = [{**{t: off["oracle_slots"] + 16 * j + i for t, i in _TABLET.items()},
                              None: off["oracle_slots"] + 16 * j + 15} for j in range(12)]
        self.gems_left = {r: off["gems_left"] + i for r, i in _REWARD.items()}
        self.potions_left = {p: off["potions_left"] + i for p, i in _POTION.items()}
