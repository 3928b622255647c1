"""Edora's JSON forms: the full state (hidden parts and random stream included) and the
game's part of a seat's view, and reading either back into a state.

Everything on the table is public: board, dice (all 13 per player are rolled once at setup),
tracks, amulets, stones, potions, taken tablets. Hidden are the order of the tablet deck and
what is drawn blind: the 3 tablets a player drafts (variant V1) and, in variant V3, the herb
layouts still being arranged face down. A seat knows the tablets it put under the deck (V1)
and where they lie. The view (:mod:`.view`) is the full JSON minus those parts (:mod:`.infer`
fills them back in to sample states).
"""

from __future__ import annotations

import marshal
import random
from itertools import chain, compress, count, repeat
from operator import ne
from typing import Any, Mapping

from ...engine.errors import RecordError
from ...engine.options import build_options
from ...engine.state import rng_to_json
from .actions import build_board_tables
from .board import REWARDS, board_from_text
from .components import HERB_STATES, HERBS, HERBS_PER_PLAYER, POTIONS, SPACE_STRIDE, TABLETS
from .options import EdoraOptions


def _index(names, value):
    return -1 if value is None else names.index(value)


def public_json(st) -> dict[str, Any]:
    """The game's own public data (the engine's envelope adds who acts, the round and the
    scores): every table component, as fresh JSON-ready data. Built at every view, so the
    names are looked up through tables (:func:`_view_tables`) and C-level maps."""
    b = st.board
    n = st.n
    t = _view_tables(b)
    names_or_none, standing_names, rune_units = t["names_or_none"], t["standing_names"], t["rune_units"]
    potions: list[list[str]] = [[] for _ in range(n)]
    potions_left: list[str] = []
    for k, owner in enumerate(st.potion_owner):
        (potions_left if owner < 0 else potions[owner]).append(POTIONS[k])
    boards = [_board_json(st, p, names_or_none, standing_names, rune_units, potions[p]) for p in range(n)]
    return _assemble(st, options_json(st.options), boards, _sanctuaries(st), _table_json(st), potions_left)


def _assemble(st, options: dict, boards: list, sanctuaries: list, table: dict, potions_left: list) -> dict[str, Any]:
    """The public data from its parts (fresh or shared), the table's state read from ``st``."""
    return {
        "options": options,
        "start_player": st.start_player, "ending": st.ending, "quiet_rounds": st.quiet_rounds,
        "die_this_round": st.die_this_round, "knowledge_counter": st.knowledge_counter,
        "links": st.links, "closures": st.closures,
        "stack": list(map(list, st.stack)),
        "boards": boards,
        "sanctuaries": sanctuaries,
        **table,
        "potions_left": potions_left,
        "final": _copy_final(st.final),
    }


def _table_json(st) -> dict[str, Any]:
    """The table's components that change seldom: fire pits, dolmens, oracle, deck, gems."""
    return {
        "fire_pits": dict(zip(st.board.pit_names, st.pit_closed)),
        "dolmen_ring": list(st.ring_colours),
        "dolmen_owner": dict(zip(sorted(set(st.ring_colours)), st.dolmen_owner)),
        "oracle_stones": list(map(REWARDS.__getitem__, st.oracle_stones)),
        "oracle_slots": list(map(_TABLET_OR_NONE.__getitem__, st.oracle_slots)),
        "deck_size": len(st.deck), "deck_marks": list(st.deck_marks),
        "draft_hand_size": len(st.draft_hand),
        "gems_left": dict(zip(REWARDS, st.gems_left)),
    }


def _board_json(st, p: int, names_or_none, standing_names, rune_units, potions: list[str]) -> dict[str, Any]:
    """Player ``p``'s board in the public data."""
    h = HERBS_PER_PLAYER * p
    reserve, overview = st.reserve, st.overview
    return {
        "provisions": st.provisions[p], "mistletoe": st.mistletoe[p], "prestige": st.prestige[p],
        "knowledge": st.knowledge[p], "knowledge_stack": st.knowledge_stack[p], "sickle": st.sickle[p],
        "figure": names_or_none[st.figure[p]], "start": names_or_none[st.start_at[p]],
        "reserve": list(chain.from_iterable(map(repeat, _DIE_VALUES, reserve[7 * p + 1:7 * p + 7]))),
        "overview": list(chain.from_iterable(map(repeat, _DIE_VALUES, overview[7 * p + 1:7 * p + 7]))),
        "placed": st.placed[p],
        "standing_stones": list(standing_names[st.standing[p] & 63]),
        "rune_stones": list(rune_units[st.runes[p] & 63]),
        "herbs": list(map(_HERB_OR_NONE.__getitem__, st.herb_at[h:h + HERBS_PER_PLAYER])),
        "herb_state": dict(zip(HERBS, map(HERB_STATES.__getitem__, st.herb_state[h:h + HERBS_PER_PLAYER]))),
        "pairs_released": st.pairs_released[p], "arranged": st.arranged[p],
        "amulet": list(map(_REWARD_OR_NONE.__getitem__, st.amulet[6 * p:6 * p + 6])),
        "tablets": list(map(TABLETS.__getitem__, st.tablets[p])),
        "potions": potions,
        "dolmens": st.dolmens[p], "beige_dolmens": st.beige_dolmens[p],
    }


def _sanctuaries(st) -> list[dict[str, Any]]:
    """The sanctuaries' part of the public data: the dice on their spaces and the stones
    placed there. Most steps change none of it, so the state keeps the last one made (as
    marshal bytes, with the lists it was made from) and a view whose lists are equal to them
    gets a fresh copy by ``marshal.loads``, twice as fast as building it."""
    owner, value, standing_at, rune_at = st.owner, st.value, st.standing_at, st.rune_at
    kept = getattr(st, "_sanctuaries_json", None)
    if kept is not None and kept[0] == owner and kept[1] == value and kept[2] == standing_at and kept[3] == rune_at:
        return marshal.loads(kept[4])
    sanctuaries = _build_sanctuaries(st)
    st._sanctuaries_json = (owner[:], value[:], standing_at[:], rune_at[:], marshal.dumps(sanctuaries))
    return sanctuaries


def _build_sanctuaries(st) -> list[dict[str, Any]]:
    return [_sanctuary(st, s) for s in range(st.board.size)]


def _sanctuary(st, s: int) -> dict[str, Any]:
    k = s * SPACE_STRIDE
    n = st.n
    return {"id": st.board.names[s],
            "dice": [None if o < 0 else [o, v] for o, v in zip(st.owner[k:k + n], st.value[k:k + n])],
            "standing_stones": st.standing_at[s], "rune_stones": st.rune_at[s]}


def _shared_sanctuaries(st, parts: dict) -> list[dict[str, Any]]:
    """The sanctuaries for :func:`shared_view`: the list made again when a die or stone
    changed, with the sanctuaries that did not change kept as the same dicts (only the
    lists that changed are scanned for the sanctuaries they touch)."""
    owner, value, standing_at, rune_at = st.owner, st.value, st.standing_at, st.rune_at
    kept = parts.get("sanctuaries")
    if kept is not None and kept[0] == owner and kept[1] == value and kept[2] == standing_at and kept[3] == rune_at:
        return kept[4]
    if kept is None:
        sanctuaries = _build_sanctuaries(st)
    else:
        changed: set[int] = set()
        was_owner, was_value = kept[0], kept[1]
        del parts["sanctuaries"]   # its lists are patched below: an error on the way leaves none kept
        if was_owner != owner or was_value != value:
            # A hint first: the sanctuaries whose number of dice changed, copied into the kept
            # lists (private to this state); the lists scanned only if more changed (a raise).
            changed.update(compress(count(), map(ne, st.used, kept[5])))
            for s in changed:
                k = s * SPACE_STRIDE
                was_owner[k:k + SPACE_STRIDE] = owner[k:k + SPACE_STRIDE]
                was_value[k:k + SPACE_STRIDE] = value[k:k + SPACE_STRIDE]
            space_of = _space_of(len(owner))
            if was_owner != owner:
                changed.update(compress(space_of, map(ne, owner, was_owner)))
            if was_value != value:
                changed.update(compress(space_of, map(ne, value, was_value)))
        if kept[2] != standing_at:
            changed.update(compress(count(), map(ne, standing_at, kept[2])))
        if kept[3] != rune_at:
            changed.update(compress(count(), map(ne, rune_at, kept[3])))
        sanctuaries = kept[4][:]
        for s in changed:
            sanctuaries[s] = _sanctuary(st, s)
    parts["sanctuaries"] = (owner[:], value[:], standing_at[:], rune_at[:], sanctuaries, st.used[:])
    return sanctuaries


_SPACE_OF: dict[int, tuple[int, ...]] = {}


def _space_of(length: int) -> tuple[int, ...]:
    """The sanctuary of each entry of the per-space lists (``owner``, ``value``)."""
    found = _SPACE_OF.get(length)
    if found is None:
        found = _SPACE_OF[length] = tuple(i // SPACE_STRIDE for i in range(length))
    return found


# Name tables for the views: index -1 (nothing there) is the last entry, None.
_HERB_OR_NONE = (*HERBS, None)
_REWARD_OR_NONE = (*REWARDS, None)
_TABLET_OR_NONE = (*TABLETS, None)
_DIE_VALUES = range(1, 7)


def _view_tables(b) -> dict[str, Any]:
    """The board's name tables for views, built once and kept in ``board.tables``: sanctuary
    names (index -1 = None) and, for every 6-bit mask, the standing stones' rewards and the
    rune stones' units it holds."""
    tables = b.tables.get("view")
    if tables is None:
        tables = b.tables["view"] = {
            "names_or_none": (*b.names, None),
            "standing_names": tuple(tuple(REWARDS[b.standing_row[k]] for k in range(6) if (m >> k) & 1)
                                    for m in range(64)),
            "rune_units": tuple(tuple(b.rune_stones[k].unit for k in range(6) if (m >> k) & 1)
                                for m in range(64)),
        }
    return tables


_OPTIONS_JSON: dict[Any, dict[str, Any]] = {}


def options_json(options) -> dict[str, Any]:
    """``options.to_json()`` as a fresh dict, the JSON made once per options value (every
    value is plain: a copy of the dict is a fresh copy)."""
    data = _OPTIONS_JSON.get(options)
    if data is None:
        data = options.to_json()
        if not all(v is None or isinstance(v, (str, int, float)) for v in data.values()):
            return data
        if len(_OPTIONS_JSON) > 64:
            _OPTIONS_JSON.clear()
        _OPTIONS_JSON[options] = data
    return dict(data)


def _copy_final(final):
    return None if final is None else [dict(f, tablets_met=list(f["tablets_met"])) for f in final]


def state_to_json(st) -> dict[str, Any]:
    data = public_json(st)
    data["round"] = st.round
    data["player"] = st.player
    data["over"] = st.over
    data["seed"] = st.seed
    data["deck"] = [TABLETS[t] for t in st.deck]
    data["draft_hand"] = [TABLETS[t] for t in st.draft_hand]
    data["rng"] = rng_to_json(st.rng)
    data["history"] = [{"seat": seat, "action": a.to_json()} for seat, a in st.history]
    data["events"] = None if st.events is None else [e.to_json() for e in st.events]
    return data


# ----- reading back -----------------------------------------------------------------------------

def options_of(data: Any) -> EdoraOptions:
    """The validated options a state JSON or a view carries."""
    raw = data.get("options") if isinstance(data, dict) else None
    if not isinstance(raw, dict):
        raise RecordError("an Edora state or view must carry its options as a JSON object")
    return build_options(EdoraOptions, raw, (2, 3, 4))


def load_state(cls, data: Mapping[str, Any], deck: list[int], hand: list[int], rng: random.Random,
               round_: int, over: bool, player: int):
    """A ``cls`` (the state class) from the public data of a view or a state JSON (checked by
    :mod:`.checks` first), with the hidden parts given (deck, draft hand) and the turn's
    bookkeeping; no history, no log."""
    opts = options_of(data)
    st = cls.__new__(cls)
    st.options, st.seed, st.rng, st.history = opts, data.get("seed"), rng, []
    st.events = None
    st.board = b = board_from_text(opts.board)
    build_board_tables(b)
    st.n = n = opts.players
    st.round, st.start_player, st.player = round_, data["start_player"], player
    st.ending, st.over, st.quiet_rounds = data["ending"], over, data["quiet_rounds"]
    st.die_this_round, st.knowledge_counter = data["die_this_round"], data["knowledge_counter"]
    st.links, st.closures = data["links"], data["closures"]
    st.stack = [tuple(item) for item in data["stack"]]
    pls = data["boards"]
    st.provisions = [pl["provisions"] for pl in pls]
    st.mistletoe = [pl["mistletoe"] for pl in pls]
    st.prestige = [pl["prestige"] for pl in pls]
    st.knowledge = [pl["knowledge"] for pl in pls]
    st.knowledge_stack = [pl["knowledge_stack"] for pl in pls]
    st.sickle = [pl["sickle"] for pl in pls]
    st.figure = [_index_name(b.index, pl["figure"]) for pl in pls]
    st.start_at = [_index_name(b.index, pl["start"]) for pl in pls]
    st.reserve = [0] * (7 * n)
    st.overview = [0] * (7 * n)
    for p, pl in enumerate(pls):
        for v in pl["reserve"]:
            st.reserve[7 * p + v] += 1
        for v in pl["overview"]:
            st.overview[7 * p + v] += 1
    st.placed = [pl["placed"] for pl in pls]
    row_names = [REWARDS[r] for r in b.standing_row]
    st.standing = [sum(1 << row_names.index(r) for r in pl["standing_stones"]) for pl in pls]
    units = [rs.unit for rs in b.rune_stones]
    st.runes = [sum(1 << units.index(u) for u in pl["rune_stones"]) for pl in pls]
    st.herb_at = [_index(HERBS, h) for pl in pls for h in pl["herbs"]]
    st.herb_state = [HERB_STATES.index(pl["herb_state"][h]) for pl in pls for h in HERBS]
    st.pairs_released = [pl["pairs_released"] for pl in pls]
    st.arranged = [pl["arranged"] for pl in pls]
    st.amulet = [_index(REWARDS, g) for pl in pls for g in pl["amulet"]]
    st.gem_mask = [sum(1 << g for g in st.amulet[6 * p:6 * p + 6] if g >= 0) for p in range(n)]
    st.tablets = [[TABLETS.index(t) for t in pl["tablets"]] for pl in pls]
    st.dolmens = [pl["dolmens"] for pl in pls]
    st.beige_dolmens = [pl["beige_dolmens"] for pl in pls]
    st.potion_owner = [-1] * len(POTIONS)
    for p, pl in enumerate(pls):
        for k in pl["potions"]:
            st.potion_owner[POTIONS.index(k)] = p
    st.owner = [-1] * (b.size * SPACE_STRIDE)
    st.value = [0] * (b.size * SPACE_STRIDE)
    st.used = [0] * b.size
    st.standing_at = [0] * b.size
    st.rune_at = [0] * b.size
    st.die_mask = [0] * n
    for s, entry in enumerate(data["sanctuaries"]):
        for i, die in enumerate(entry["dice"]):
            if die is not None:
                st.owner[s * SPACE_STRIDE + i], st.value[s * SPACE_STRIDE + i] = die
                st.used[s] += 1
                st.die_mask[die[0]] |= 1 << s
        st.standing_at[s] = entry["standing_stones"]
        st.rune_at[s] = entry["rune_stones"]
    st.pit_closed = [data["fire_pits"][name] for name in b.pit_names]
    st.ring_colours = list(data["dolmen_ring"])
    st._index_colours()
    st.dolmen_owner = [data["dolmen_owner"][c] for c in sorted(data["dolmen_owner"])]
    st.oracle_stones = [REWARDS.index(r) for r in data["oracle_stones"]]
    st.oracle_slots = [_index(TABLETS, t) for t in data["oracle_slots"]]
    st.deck = deck
    st.deck_marks = list(data["deck_marks"])
    st.draft_hand = hand
    st.gems_left = [data["gems_left"][r] for r in REWARDS]
    st.final = _copy_final(data["final"])
    return st


def _index_name(index, name):
    return -1 if name is None else index[name]
