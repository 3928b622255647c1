"""The Edora board and player-board data: loading, validation and precomputed tables.

The board of ``edora-spec.md`` §9 is package data (``data/board.yaml``); a user may supply
another file (ruling E3). :func:`load_board` reads a YAML file, checks every reference and
rule the game relies on, and raises :class:`BoardError` naming the bad part and what is
allowed. A loaded :class:`Board` is immutable and shared by every state that uses it; it
carries the precomputed tables the hot path needs (cheapest movement costs, neighbour
lists, sanctuary bitmasks of fire pits and glades).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from ...engine.errors import InputError

DEFAULT_BOARD = Path(__file__).parent / "data" / "board.yaml"

# The six basic rewards (§4.1), in the order used everywhere (indices are the codes' ints).
REWARDS = ("VP", "KNOW", "FOOD", "DIE", "MIST", "SICKLE")
VP, KNOW, FOOD, DIE, MIST, SICKLE = range(6)
REWARD_INDEX = {name: i for i, name in enumerate(REWARDS)}

# Sanctuary action kinds (§4.2).
A_FD, A_KN, A_SI, A_TB, A_MI, A_AM, A_SS, A_RS = range(8)
RUNE_UNITS = ("MIST", "DIE", "KNOW", "SICKLE_STEP", "PRESTIGE_POINT", "PROVISION")


class BoardError(InputError):
    """A board file that cannot be used; the message names the bad entry."""


@dataclass(frozen=True)
class RuneStone:
    unit: str          # one of RUNE_UNITS
    factor: int        # units per die pip (lower stones)
    minus_one: bool    # upper stones: (v - 1) units

    def amount(self, v: int) -> int:
        return max(0, v - 1) if self.minus_one else self.factor * v

    def label(self) -> str:
        return f"{self.unit} x(v-1)" if self.minus_one else f"{self.unit} x{self.factor}v"


@dataclass(frozen=True, eq=False)
class Board:
    path: str
    names: tuple[str, ...]                      # sanctuary ids, index = position in tuple
    index: dict[str, int]
    xy: tuple[tuple[int, int], ...]
    spaces: tuple[tuple[str, ...], ...]         # space codes per sanctuary
    space_actions: tuple[tuple[tuple[int, int, int], ...], ...]  # parsed (kind, a, b)
    glade_of: tuple[int, ...]
    glade_names: tuple[str, ...]
    glade_members: tuple[tuple[int, ...], ...]
    glade_masks: tuple[int, ...]
    portal: tuple[bool, ...]                    # per glade
    neighbours: tuple[tuple[int, ...], ...]
    edges: tuple[tuple[int, int, int], ...]
    stairs: dict[str, tuple[tuple[str, str], tuple[str, str]]]
    dist: tuple[tuple[int, ...], ...]           # cheapest movement cost a -> b
    pit_names: tuple[str, ...]
    pit_xy: tuple[tuple[int, int], ...]
    pit_around: tuple[tuple[int, ...], ...]
    pit_masks: tuple[int, ...]
    pit_rewards: tuple[tuple[int, ...], ...]
    pits_of: tuple[tuple[int, ...], ...]        # pits bordering each sanctuary
    ring: tuple[int, ...]                       # dolmen slots D01.. in ring order (sanctuaries)
    reference_colours: tuple[str, ...]
    start_names: tuple[str, ...]                # ST1..
    start_sanctuary: tuple[int, ...]
    lines_of_four: tuple[tuple[int, ...], ...]
    standing_row: tuple[int, ...]
    rune_stones: tuple[RuneStone, ...]
    knowledge_end: int
    knowledge_multiplier: tuple[int, ...]       # by position 0..end
    sickle_end: int
    herb_pairs_at: tuple[int, ...]
    sickle_score: tuple[int, ...]               # by position 0..end
    amulet_rows: tuple[str, ...]
    oracle_stones: tuple[int, ...]
    overflow_prestige: int
    start_provisions: int
    max_spaces: int = field(default=0)

    @property
    def size(self) -> int:
        return len(self.names)

    def space_code(self, s: int, i: int) -> str:
        return self.spaces[s][i]


# ----- parsing helpers ------------------------------------------------------------------------

_SPACE_PATTERNS = (
    (re.compile(r"^FD$"), "FD"),
    (re.compile(r"^KN([1-9])$"), "KN"),
    (re.compile(r"^SI([1-9])$"), "SI"),
    (re.compile(r"^TB$"), "TB"),
    (re.compile(r"^SS$"), "SS"),
    (re.compile(r"^RS$"), "RS"),
    (re.compile(r"^MI([1-9])P([1-9])$"), "MI"),
    (re.compile(r"^AM-([A-Z]+)-x([1-9])$"), "AM"),
)
SPACE_HELP = "FD, KN<k>, SI<k>, TB, SS, RS, MI<m>P<n>, AM-<ROW>-x<k>"


def parse_space(code: Any, rows: tuple[str, ...], where: str) -> tuple[int, int, int]:
    if not isinstance(code, str):
        raise BoardError(f"{where}: space code {code!r} must be text; allowed: {SPACE_HELP}")
    for pattern, kind in _SPACE_PATTERNS:
        m = pattern.match(code)
        if not m:
            continue
        if kind == "FD":
            return (A_FD, 0, 0)
        if kind == "KN":
            return (A_KN, int(m.group(1)), 0)
        if kind == "SI":
            return (A_SI, int(m.group(1)), 0)
        if kind == "TB":
            return (A_TB, 0, 0)
        if kind == "SS":
            return (A_SS, 0, 0)
        if kind == "RS":
            return (A_RS, 0, 0)
        if kind == "MI":
            return (A_MI, int(m.group(1)), int(m.group(2)))
        row = m.group(1)
        if row not in rows:
            raise BoardError(f"{where}: amulet space {code} names row {row!r}; "
                             f"the amulet rows are {', '.join(rows)}")
        return (A_AM, rows.index(row), int(m.group(2)))
    raise BoardError(f"{where}: unknown space code {code!r}; allowed: {SPACE_HELP}")


def _need(mapping: Any, key: str, where: str) -> Any:
    if not isinstance(mapping, dict) or key not in mapping:
        raise BoardError(f"{where}: missing key {key!r}")
    return mapping[key]


def _reward(code: Any, where: str) -> int:
    if code not in REWARD_INDEX:
        raise BoardError(f"{where}: unknown reward {code!r}; allowed: {', '.join(REWARDS)}")
    return REWARD_INDEX[code]


def _xy(value: Any, where: str) -> tuple[int, int]:
    if (not isinstance(value, (list, tuple)) or len(value) != 2
            or not all(isinstance(v, int) for v in value)):
        raise BoardError(f"{where}: xy must be two integers, got {value!r}")
    return (value[0], value[1])


def _threshold_table(spec: Any, end: int, where: str) -> tuple[int, ...]:
    if not isinstance(spec, dict) or 0 not in spec:
        raise BoardError(f"{where}: needs a mapping from positions (starting with 0) to values")
    table = []
    current = 0
    for pos in range(end + 1):
        if pos in spec:
            current = int(spec[pos])
        table.append(current)
    bad = [k for k in spec if not isinstance(k, int) or not 0 <= k <= end]
    if bad:
        raise BoardError(f"{where}: positions {bad} are outside the track 0..{end}")
    return tuple(table)


def _cheapest_costs(n: int, edges: list[tuple[int, int, int]]) -> tuple[tuple[int, ...], ...]:
    """Floyd-Warshall: entering a sanctuary costs 1, each dark area crossed costs 1 more."""
    inf = 10 ** 6
    d = [[inf] * n for _ in range(n)]
    for i in range(n):
        d[i][i] = 0
    for a, b, dark in edges:
        w = 1 + dark
        if w < d[a][b]:
            d[a][b] = d[b][a] = w
    for k in range(n):
        dk = d[k]
        for i in range(n):
            dik = d[i][k]
            if dik == inf:
                continue
            di = d[i]
            for j in range(n):
                v = dik + dk[j]
                if v < di[j]:
                    di[j] = v
    return tuple(tuple(row) for row in d)


# ----- the loader -------------------------------------------------------------------------------

def load_board(path: str | Path | None = None) -> Board:
    """The validated board from ``path`` (default: the package's §9 board); cached per file."""
    resolved = str(Path(path).expanduser().resolve()) if path else str(DEFAULT_BOARD)
    return _load_cached(resolved)


@lru_cache(maxsize=16)
def _load_cached(path: str) -> Board:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise BoardError(f"cannot read the board file {path}: {exc.strerror}") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise BoardError(f"the board file {path} is not valid YAML: {exc}") from None
    return board_from_data(data, path)


def board_from_data(data: Any, path: str = "<board>") -> Board:
    """Validate parsed board data (the YAML's structure) and build the :class:`Board`."""
    where = f"board file {path}"
    board = _need(data, "board", where)
    pb = _need(data, "player_board", where)

    # player board first: amulet rows are needed to parse amulet spaces
    rows = tuple(_need(pb, "amulet_rows", f"{where}, player_board"))
    if len(rows) != 3 or len(set(rows)) != 3:
        raise BoardError(f"{where}, player_board.amulet_rows: need 3 different row names, got {list(rows)}")
    standing = tuple(_reward(r, f"{where}, player_board.standing_stone_row")
                     for r in _need(pb, "standing_stone_row", f"{where}, player_board"))
    if len(standing) != 6:
        raise BoardError(f"{where}, player_board.standing_stone_row: need 6 rewards, got {len(standing)}")
    runes_spec = _need(pb, "rune_stones", f"{where}, player_board")
    upper = _need(runes_spec, "upper_times_v_minus_1", f"{where}, player_board.rune_stones")
    lower = _need(runes_spec, "lower", f"{where}, player_board.rune_stones")
    runes = []
    for unit in upper:
        if unit not in RUNE_UNITS:
            raise BoardError(f"{where}, rune_stones: unknown unit {unit!r}; allowed: {', '.join(RUNE_UNITS)}")
        runes.append(RuneStone(unit, 1, True))
    for unit, factor in (lower or {}).items():
        if unit not in RUNE_UNITS or not isinstance(factor, int) or factor < 1:
            raise BoardError(f"{where}, rune_stones.lower: bad entry {unit}: {factor!r}; "
                             f"units: {', '.join(RUNE_UNITS)}, factor a positive integer")
        runes.append(RuneStone(unit, factor, False))
    if len(runes) != 6:
        raise BoardError(f"{where}, rune_stones: need 6 rune stones (3 upper + 3 lower), got {len(runes)}")
    kt = _need(pb, "knowledge_track", f"{where}, player_board")
    k_end = int(_need(kt, "end", f"{where}, knowledge_track"))
    k_mult = _threshold_table(_need(kt, "multiplier_from", f"{where}, knowledge_track"), k_end,
                              f"{where}, knowledge_track.multiplier_from")
    st = _need(pb, "sickle_track", f"{where}, player_board")
    s_end = int(_need(st, "end", f"{where}, sickle_track"))
    pairs = tuple(_need(st, "herb_pairs_at", f"{where}, sickle_track"))
    if (len(pairs) != 6 or list(pairs) != sorted(set(pairs))
            or not all(isinstance(p, int) and 1 <= p <= s_end for p in pairs)):
        raise BoardError(f"{where}, sickle_track.herb_pairs_at: need 6 increasing positions in 1..{s_end}, "
                         f"got {list(pairs)}")
    s_score = _threshold_table(_need(st, "score_from", f"{where}, sickle_track"), s_end,
                               f"{where}, sickle_track.score_from")
    oracle = tuple(_reward(r, f"{where}, player_board.oracle_stones")
                   for r in _need(pb, "oracle_stones", f"{where}, player_board"))
    if len(oracle) != 6:
        raise BoardError(f"{where}, player_board.oracle_stones: need 6 stones, got {len(oracle)}")

    # sanctuaries
    sanct = _need(board, "sanctuaries", where)
    if not isinstance(sanct, dict) or not sanct:
        raise BoardError(f"{where}: 'sanctuaries' must map sanctuary ids to their data")
    names = tuple(sanct)
    index = {n: i for i, n in enumerate(names)}

    def sid(name: Any, ctx: str) -> int:
        if name not in index:
            raise BoardError(f"{where}, {ctx}: unknown sanctuary {name!r}; known: {', '.join(names)}")
        return index[name]

    glades_spec = _need(board, "glades", where)
    glade_names = tuple(glades_spec)
    xy, spaces, actions, glade_of, slots, starts_decl = [], [], [], [], {}, {}
    for name in names:
        entry = sanct[name]
        ctx = f"{where}, sanctuary {name}"
        xy.append(_xy(_need(entry, "xy", ctx), ctx))
        codes = _need(entry, "spaces", ctx)
        if not isinstance(codes, list) or len(codes) < 2:
            raise BoardError(f"{ctx}: 'spaces' must list at least 2 action spaces (2 players)")
        spaces.append(tuple(codes))
        actions.append(tuple(parse_space(c, rows, ctx) for c in codes))
        g = _need(entry, "glade", ctx)
        if g not in glades_spec:
            raise BoardError(f"{ctx}: unknown glade {g!r}; known: {', '.join(glade_names)}")
        glade_of.append(glade_names.index(g))
        if "dolmen_slot" in entry:
            slots[name] = entry["dolmen_slot"]
        if "start" in entry:
            starts_decl[name] = entry["start"]
    members = []
    for gi, g in enumerate(glade_names):
        listed = [sid(s, f"glade {g}") for s in glades_spec[g]]
        actual = [i for i in range(len(names)) if glade_of[i] == gi]
        if sorted(listed) != actual:
            raise BoardError(f"{where}, glade {g}: lists {sorted(names[i] for i in listed)} but the "
                             f"sanctuaries marked glade {g} are {[names[i] for i in actual]}")
        members.append(tuple(actual))
    portals = _need(board, "portal_glades", where)
    for g in portals:
        if g not in glade_names:
            raise BoardError(f"{where}, portal_glades: unknown glade {g!r}; known: {', '.join(glade_names)}")

    # paths
    edges = []
    neighbours: list[list[int]] = [[] for _ in names]
    for k, e in enumerate(_need(board, "edges", where)):
        if not isinstance(e, list) or len(e) != 3 or not isinstance(e[2], int) or e[2] < 0:
            raise BoardError(f"{where}, edge {k + 1}: must be [sanctuary, sanctuary, dark_areas>=0], got {e!r}")
        a, b = sid(e[0], f"edge {k + 1}"), sid(e[1], f"edge {k + 1}")
        if a == b or b in neighbours[a]:
            raise BoardError(f"{where}, edge {k + 1} {e!r}: a path must join two different sanctuaries once")
        neighbours[a].append(b)
        neighbours[b].append(a)
        edges.append((a, b, e[2]))
    dist = _cheapest_costs(len(names), edges)
    unreachable = [names[j] for j in range(len(names)) if dist[0][j] >= 10 ** 6]
    if unreachable:
        raise BoardError(f"{where}: sanctuaries {unreachable} cannot be reached by any path from {names[0]}")
    stairs = {}
    for sname, pair in (board.get("stairs") or {}).items():
        if not isinstance(pair, list) or len(pair) != 2:
            raise BoardError(f"{where}, stair {sname}: must list the two crossing paths")
        for a, b in pair:
            if sid(b, f"stair {sname}") not in neighbours[sid(a, f"stair {sname}")]:
                raise BoardError(f"{where}, stair {sname}: {a}-{b} is not a path of the board")
        stairs[sname] = (tuple(pair[0]), tuple(pair[1]))

    # fire pits
    pits = _need(board, "fire_pits", where)
    pit_names, pit_xy, pit_around, pit_rewards = [], [], [], []
    for pname, entry in pits.items():
        ctx = f"{where}, fire pit {pname}"
        around = _need(entry, "around", ctx)
        if not isinstance(around, list) or not 2 <= len(around) <= 4 or len(set(around)) != len(around):
            raise BoardError(f"{ctx}: must border 2, 3 or 4 different sanctuaries, got {around!r}")
        rewards = _need(entry, "rewards", ctx)
        if not isinstance(rewards, list) or len(rewards) != len(around):
            raise BoardError(f"{ctx}: a pit bordering {len(around)} sanctuaries shows {len(around)} "
                             f"rewards, got {rewards!r}")
        pit_names.append(pname)
        pit_xy.append(_xy(_need(entry, "xy", ctx), ctx))
        pit_around.append(tuple(sid(s, f"fire pit {pname}") for s in around))
        pit_rewards.append(tuple(_reward(r, ctx) for r in rewards))
    pits_of = tuple(tuple(k for k, ar in enumerate(pit_around) if s in ar) for s in range(len(names)))

    # dolmen ring
    ring_names = _need(board, "dolmen_ring", where)
    ring = tuple(sid(s, "dolmen_ring") for s in ring_names)
    if len(set(ring)) != len(ring) or len(ring) % 2 or len(ring) < 6:
        raise BoardError(f"{where}, dolmen_ring: must list an even number (>= 6) of different sanctuaries")
    for k, s in enumerate(ring):
        slot = f"D{k + 1:02d}"
        if slots.get(names[s]) != slot:
            raise BoardError(f"{where}, dolmen_ring: position {k + 1} is {names[s]}, so that sanctuary "
                             f"needs dolmen_slot: {slot} (it has {slots.get(names[s])!r})")
    extra = sorted(set(slots) - {names[s] for s in ring})
    if extra:
        raise BoardError(f"{where}: sanctuaries {extra} have a dolmen slot but are not on dolmen_ring")
    colours = tuple(_need(board, "dolmen_reference_colours", where))
    if len(colours) != len(ring):
        raise BoardError(f"{where}, dolmen_reference_colours: need one colour per ring slot ({len(ring)})")
    check_dolmen_separation(colours, f"{where}, dolmen_reference_colours")

    # start spaces
    st_spec = _need(board, "start_spaces", where)
    if not isinstance(st_spec, dict) or len(st_spec) != 4:
        raise BoardError(f"{where}, start_spaces: need the 4 start spaces ST1..ST4, got {st_spec!r}")
    start_names = tuple(st_spec)
    start_sanct = tuple(sid(s, f"start space {k}") for k, s in st_spec.items())
    for k, s in st_spec.items():
        if starts_decl.get(s) != k:
            raise BoardError(f"{where}, start_spaces: {k} leads to {s}, so {s} needs start: {k}")
    if len(set(start_sanct)) != 4:
        raise BoardError(f"{where}, start_spaces: the 4 start spaces must lead to 4 different sanctuaries")

    lines = []
    for line in _need(board, "lines_of_four", where):
        if not isinstance(line, list) or len(line) != 4:
            raise BoardError(f"{where}, lines_of_four: each line lists 4 sanctuaries, got {line!r}")
        lines.append(tuple(sid(s, "lines_of_four") for s in line))

    def mask(ids) -> int:
        m = 0
        for i in ids:
            m |= 1 << i
        return m

    return Board(
        path=path, names=names, index=index, xy=tuple(xy), spaces=tuple(spaces),
        space_actions=tuple(actions), glade_of=tuple(glade_of), glade_names=glade_names,
        glade_members=tuple(members), glade_masks=tuple(mask(m) for m in members),
        portal=tuple(g in portals for g in glade_names),
        neighbours=tuple(tuple(n) for n in neighbours), edges=tuple(edges), stairs=stairs, dist=dist,
        pit_names=tuple(pit_names), pit_xy=tuple(pit_xy), pit_around=tuple(pit_around),
        pit_masks=tuple(mask(a) for a in pit_around), pit_rewards=tuple(pit_rewards), pits_of=pits_of,
        ring=ring, reference_colours=colours, start_names=start_names, start_sanctuary=start_sanct,
        lines_of_four=tuple(lines), standing_row=standing, rune_stones=tuple(runes),
        knowledge_end=k_end, knowledge_multiplier=k_mult, sickle_end=s_end, herb_pairs_at=pairs,
        sickle_score=s_score, amulet_rows=rows, oracle_stones=oracle,
        overflow_prestige=int(pb.get("overflow_prestige_per_step", 2)),
        start_provisions=int(pb.get("start_provisions", 15)),
        max_spaces=min(len(s) for s in spaces),
    )


def check_dolmen_separation(colours, where: str = "dolmen ring") -> None:
    """Each colour exactly twice, the two at cyclic distance >= 3 (>= 2 other dolmens between)."""
    n = len(colours)
    seen: dict[str, list[int]] = {}
    for k, c in enumerate(colours):
        seen.setdefault(c, []).append(k)
    for c, slots in seen.items():
        if len(slots) != 2:
            raise BoardError(f"{where}: colour {c} appears {len(slots)} times; each colour needs exactly 2 dolmens")
        gap = abs(slots[0] - slots[1])
        if min(gap, n - gap) < 3:
            raise BoardError(f"{where}: the two {c} dolmens (slots D{slots[0] + 1:02d}, D{slots[1] + 1:02d}) "
                             f"need at least 2 other dolmens between them along the ring")
