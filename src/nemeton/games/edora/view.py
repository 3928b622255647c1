"""Edora's JSON forms: the full state, the seat views, and the determinizer.

Everything on the table is public: board, dice (all 13 per player are rolled once at setup),
tracks, amulets, stones, potions, taken tablets. Hidden are the order of the tablet deck and
what is drawn blind: the 3 tablets a player drafts (variant V1) and, in variant V3, the herb
layouts still being arranged face down. A seat knows the tablets it put under the deck (V1)
and where they lie. The view is the full JSON minus those parts; the determinizer fills them
back in from the unseen tablets and herbs.
"""

from __future__ import annotations

import random
from typing import Any, Mapping

from ...engine.log import Event
from ...engine.state import rng_from_json, rng_to_json
from .board import REWARDS, board_from_text
from .components import HERB_STATES, HERBS, POTIONS, TABLET_COPIES, TABLETS
from .options import EdoraOptions

NH = 12
SPACES = 4


def _name(names, i):
    return None if i < 0 else names[i]


def _index(names, value):
    return -1 if value is None else names.index(value)


def _dice(counts, p):
    return [v for v in range(1, 7) for _ in range(counts[7 * p + v])]


def public_json(st) -> dict[str, Any]:
    """The game's own public data (the engine's envelope adds who acts, the round and the
    scores): every table component, as fresh JSON-ready data."""
    b = st.board
    n = st.n
    boards = []
    for p in range(n):
        boards.append({
            "provisions": st.prov[p], "mistletoe": st.mist[p], "prestige": st.prestige[p],
            "knowledge": st.kpos[p], "knowledge_stack": st.kstamp[p], "sickle": st.sickle[p],
            "figure": _name(b.names, st.figure[p]), "start": _name(b.names, st.start_at[p]),
            "reserve": _dice(st.reserve, p), "overview": _dice(st.overview, p), "placed": st.placed[p],
            "standing_stones": [REWARDS[b.standing_row[k]] for k in range(6) if (st.standing[p] >> k) & 1],
            "rune_stones": [b.rune_stones[k].unit for k in range(6) if (st.runes[p] >> k) & 1],
            "herbs": [_name(HERBS, h) for h in st.herb_at[NH * p:NH * p + NH]],
            "herb_state": {HERBS[h]: HERB_STATES[st.herb_state[NH * p + h]] for h in range(NH)},
            "pairs_released": st.pairs_done[p], "arranged": st.arranged[p],
            "amulet": [_name(REWARDS, g) for g in st.amulet[6 * p:6 * p + 6]],
            "tablets": [TABLETS[t] for t in st.tablets[p]],
            "potions": [POTIONS[k] for k in range(len(POTIONS)) if st.potion_owner[k] == p],
            "dolmens": st.dolmens[p], "beige_dolmens": st.beige[p],
        })
    sanctuaries = []
    for s in range(b.size):
        dice = []
        for i in range(n):
            o = st.owner[s * SPACES + i]
            dice.append(None if o < 0 else [o, st.value[s * SPACES + i]])
        sanctuaries.append({"id": b.names[s], "dice": dice, "standing_stones": st.standing_at[s],
                            "rune_stones": st.rune_at[s]})
    colours = sorted(set(st.ring_colours))
    return {
        "options": st.options.to_json(),
        "start_player": st.start_player, "ending": st.ending, "quiet_rounds": st.quiet_rounds,
        "die_this_round": st.die_this_round, "knowledge_counter": st.kcounter,
        "links": st.links, "closures": st.closures,
        "stack": [list(item) for item in st.stack],
        "boards": boards,
        "sanctuaries": sanctuaries,
        "fire_pits": {b.pit_names[k]: st.pit_closed[k] for k in range(len(b.pit_names))},
        "dolmen_ring": list(st.ring_colours),
        "dolmen_owner": {c: st.dolmen_owner[i] for i, c in enumerate(colours)},
        "oracle_stones": [REWARDS[r] for r in st.oracle_stones],
        "oracle_slots": [_name(TABLETS, t) for t in st.oracle_slots],
        "deck_size": len(st.deck), "deck_marks": list(st.deck_marks),
        "draft_hand_size": len(st.draft_hand),
        "gems_left": {REWARDS[g]: st.gems_left[g] for g in range(6)},
        "potions_left": [POTIONS[k] for k in range(len(POTIONS)) if st.potion_owner[k] < 0],
        "final": _copy_final(st.final),
    }


def _copy_final(final):
    return None if final is None else [dict(f, tablets_met=list(f["tablets_met"])) for f in final]


def state_to_json(st) -> dict[str, Any]:
    data = public_json(st)
    data["round"] = st.round_no
    data["player"] = st.player
    data["over"] = st.over
    data["seed"] = st.seed
    data["deck"] = [TABLETS[t] for t in st.deck]
    data["draft_hand"] = [TABLETS[t] for t in st.draft_hand]
    data["rng"] = rng_to_json(st.rng)
    data["history"] = [{"seat": seat, "action": a.to_json()} for seat, a in st.history]
    data["events"] = None if st.events is None else [e.to_json() for e in st.events]
    return data


def state_view(st, seat: int | None) -> dict[str, Any]:
    """The game's part of ``seat``'s view: the table, minus the deck order, other seats' V1
    draft hands and, while V3 arranging lasts, other seats' face-down herb layouts."""
    from .rules import D_DRAFT
    data = public_json(st)
    if any(a < NH for a in st.arranged):       # V3: layouts stay face down until everybody is done
        for p, board in enumerate(data["boards"]):
            if p != seat:
                board["herbs"] = [None] * NH
    data["deck_known"] = ([[k, TABLETS[t]] for k, t in enumerate(st.deck) if st.deck_marks[k] == seat]
                          if seat is not None else [])
    top = st.stack[-1] if st.stack else None
    data["draft_hand"] = ([TABLETS[t] for t in st.draft_hand]
                          if seat is not None and top is not None and top[0] == D_DRAFT and top[1] == seat
                          else None)
    return data


# ----- reading back -----------------------------------------------------------------------------

def _load(data: Mapping[str, Any], deck: list[int], hand: list[int], rng: random.Random,
          round_no: int, over: bool, player: int):
    """A state from the public data of a view or a state JSON plus the hidden parts given."""
    from .rules import EdoraState, build_tables
    opts = EdoraOptions(**data["options"])
    st = EdoraState.__new__(EdoraState)
    st.options, st.seed, st.rng, st.history = opts, data.get("seed"), rng, []
    st.events = None
    st.board = b = board_from_text(opts.board)
    build_tables(b)
    st.n = n = opts.players
    st.round_no, st.start_player, st.player = round_no, data["start_player"], player
    st.ending, st.over, st.quiet_rounds = data["ending"], over, data["quiet_rounds"]
    st.die_this_round, st.kcounter = data["die_this_round"], data["knowledge_counter"]
    st.links, st.closures = data["links"], data["closures"]
    st.stack = [tuple(item) for item in data["stack"]]
    pls = data["boards"]
    st.prov = [pl["provisions"] for pl in pls]
    st.mist = [pl["mistletoe"] for pl in pls]
    st.prestige = [pl["prestige"] for pl in pls]
    st.kpos = [pl["knowledge"] for pl in pls]
    st.kstamp = [pl["knowledge_stack"] for pl in pls]
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
    st.pairs_done = [pl["pairs_released"] for pl in pls]
    st.arranged = [pl["arranged"] for pl in pls]
    st.amulet = [_index(REWARDS, g) for pl in pls for g in pl["amulet"]]
    st.gem_mask = [sum(1 << g for g in st.amulet[6 * p:6 * p + 6] if g >= 0) for p in range(n)]
    st.tablets = [[TABLETS.index(t) for t in pl["tablets"]] for pl in pls]
    st.dolmens = [pl["dolmens"] for pl in pls]
    st.beige = [pl["beige_dolmens"] for pl in pls]
    st.potion_owner = [-1] * len(POTIONS)
    for p, pl in enumerate(pls):
        for k in pl["potions"]:
            st.potion_owner[POTIONS.index(k)] = p
    st.owner = [-1] * (b.size * SPACES)
    st.value = [0] * (b.size * SPACES)
    st.used = [0] * b.size
    st.standing_at = [0] * b.size
    st.rune_at = [0] * b.size
    st.die_mask = [0] * n
    for s, entry in enumerate(data["sanctuaries"]):
        for i, die in enumerate(entry["dice"]):
            if die is not None:
                st.owner[s * SPACES + i], st.value[s * SPACES + i] = die
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


def state_from_json(data: Mapping[str, Any]):
    st = _load(data, [TABLETS.index(t) for t in data["deck"]],
               [TABLETS.index(t) for t in data["draft_hand"]], rng_from_json(data["rng"]),
               data["round"], data["over"], data["player"])
    from .actions import CODEC
    st.history = [(h["seat"], CODEC.from_json(h["action"])) for h in data["history"]]
    events = data.get("events")
    st.events = None if events is None else [Event.from_json(e) for e in events]
    return st


def _turn_player(view: Mapping[str, Any]) -> int:
    """Whose turn it is, from a view: the acting seat during a turn, the start player during
    setup (setup decisions name their own seat), the round's last player once the game is over."""
    from .rules import SETUP_DECISIONS
    start = view["start_player"]
    if view["terminal"]:
        return (start - 1) % view["players"]
    stack = view["stack"]
    if not stack or stack[-1][0] in SETUP_DECISIONS:
        return start
    return view["acting"][0]


def _load_view(view: Mapping[str, Any], deck: list[int], hand: list[int], rng: random.Random):
    return _load(view, deck, hand, rng, view["round"], view["terminal"], _turn_player(view))


def determinize(view: Mapping[str, Any], rng: random.Random):
    """A full state consistent with ``view``: the unseen tablets re-dealt to the unknown deck
    positions (and a hidden draft hand), other players' face-down herb layouts re-drawn."""
    seat = view.get("seat")
    size = view["deck_size"]
    known = {k: TABLETS.index(t) for k, t in view.get("deck_known", [])}
    hand_known = view.get("draft_hand")
    pool = [t for t in range(len(TABLETS)) for _ in range(TABLET_COPIES)]
    seen = [t for t in view["oracle_slots"] if t is not None]
    for board in view["boards"]:
        seen += board["tablets"]
    seen += [TABLETS[t] for t in known.values()]
    if hand_known:
        seen += hand_known
    for t in seen:
        pool.remove(TABLETS.index(t))
    rng.shuffle(pool)
    deck = [known[k] if k in known else pool.pop() for k in range(size)]
    hand = ([TABLETS.index(t) for t in hand_known] if hand_known is not None
            else [pool.pop() for _ in range(view["draft_hand_size"])])
    st = _load_view(view, deck, hand, random.Random(rng.getrandbits(64)))
    st.seed = None
    n = st.n
    for p in range(n):
        if p != seat and view["boards"][p]["herbs"][0] is None and any(h is None for h in view["boards"][p]["herbs"]):
            perm = list(range(NH))
            rng.shuffle(perm)
            k = st.arranged[p]
            st.herb_at[NH * p:NH * p + NH] = perm[:k] + [-1] * (NH - k)
    return st


def legal_actions_from_view(view: Mapping[str, Any]) -> list:
    deck = [0] * view["deck_size"]
    hand = [TABLETS.index(t) for t in view["draft_hand"]] if view.get("draft_hand") else \
        [0] * view["draft_hand_size"]
    st = _load_view(view, deck, hand, random.Random(0))
    seat = view.get("seat")
    return st.legal_actions(seat if seat is not None else st.current_player)


def prepare_sampler(view: Mapping[str, Any]):
    """Search's fast path: read ``view`` once, then each sample clones a template state and
    re-deals only what the seat cannot see (distributed like :func:`determinize`)."""
    seat = view.get("seat")
    size = view["deck_size"]
    known = {k for k, _ in view.get("deck_known", [])}
    unknown_positions = [k for k in range(size) if k not in known]
    hidden_hand = view.get("draft_hand") is None
    hand_size = view["draft_hand_size"]
    template = determinize(view, random.Random(0))
    # the tablets the seat cannot place: those now dealt to unknown positions and a hidden hand
    pool = [template.deck[k] for k in unknown_positions] + (list(template.draft_hand) if hidden_hand else [])
    redraw = [p for p in range(template.n)
              if p != seat and view["boards"][p]["herbs"][0] is None
              and any(h is None for h in view["boards"][p]["herbs"])]

    def sample(rng: random.Random):
        st = template.clone()
        cards = pool[:]
        rng.shuffle(cards)
        deck = st.deck
        for k in unknown_positions:
            deck[k] = cards.pop()
        if hidden_hand:
            st.draft_hand = [cards.pop() for _ in range(hand_size)]
        st.rng = random.Random(rng.getrandbits(64))
        st.seed = None
        for p in redraw:
            perm = list(range(NH))
            rng.shuffle(perm)
            k = st.arranged[p]
            st.herb_at[NH * p:NH * p + NH] = perm[:k] + [-1] * (NH - k)
        return st

    return sample
