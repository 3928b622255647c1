"""The Edora board and player-board data: reading, validation and precomputed tables.

The board of ``edora-spec.md`` §9 is package data (``data/board.yaml``); a table may use
another board (ruling E3). The ``board`` option holds a board file's *text* (None = the
designed board), never a path, so options and records carry the board itself and replay
anywhere; only the command line reads a file (``--board FILE``, ``nemeton.cli.common``).
:func:`board_from_text` parses and validates the text (cached by content, a few boards at
most), checks every reference, rule and size the game relies on, and raises
:class:`BoardError` naming the bad part and what is allowed, without echoing the text. A
:class:`Board` is immutable and shared by every state that uses it; it carries the
precomputed tables the hot path needs (cheapest movement costs, neighbour lists, sanctuary
bitmasks of fire pits and glades) and, in ``tables``, the action values built for it.
"""

from __future__ import annotations

import re
import reprlib
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

import yaml

from ...engine.errors import InputError, InvalidOptionsError
from ...engine.options import content_hash
from .components import DOLMEN_COLOURS

# The six basic rewards (§4.1), in the order used everywhere (indices are the codes' ints).
REWARDS = ("VP", "KNOW", "FOOD", "DIE", "MIST", "SICKLE")
VP, KNOW, FOOD, DIE, MIST, SICKLE = range(6)
REWARD_INDEX = {name: i for i, name in enumerate(REWARDS)}

# Sanctuary action kinds (§4.2).
(SPACE_PROVISIONS, SPACE_KNOWLEDGE, SPACE_SICKLE, SPACE_TABLET, SPACE_MISTLETOE, SPACE_AMULET,
 SPACE_STANDING_STONE, SPACE_RUNE_STONE) = range(8)
RUNE_UNITS = ("MIST", "DIE", "KNOW", "SICKLE_STEP", "PRESTIGE_POINT", "PROVISION")


class BoardError(InvalidOptionsError, InputError):
    """A board that cannot be used (a bad ``board`` option or board file); the message names
    the bad entry and what is allowed, and quotes at most a short name from the text."""


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
    source: str                                 # "standard" or the text's content hash
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
    # per-board caches of values built from it (the rules' action tables); they live and
    # die with the board, so a board dropped from the cache takes its tables with it
    tables: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def size(self) -> int:
        return len(self.names)

    def space_code(self, s: int, i: int) -> str:
        return self.spaces[s][i]


# ----- parsing helpers ------------------------------------------------------------------------

# Sizes a board may have: generous for any real board, small enough that no table built from
# a board (movement costs, action values, the rendered map) can grow without bound.
MAX_SANCTUARIES = 60
MAX_COORDINATE = 20
MAX_DARK = 3
MAX_TRACK = 40
MAX_POINTS = 100
NAME = re.compile(r"^[A-Za-z0-9_]{1,12}$")        # sanctuary, glade, fire pit, stair, colour ids
ROW_NAME = re.compile(r"^[A-Z]{1,12}$")            # amulet rows (space codes AM-<ROW>-x<k>)
NAME_HELP = "a name of 1-12 letters, digits or _"

_SPACE_PATTERNS = (
    (re.compile(r"^FD$"), "FD"),
    (re.compile(r"^KN([1-9])$"), "KN"),
    (re.compile(r"^SI([1-9])$"), "SI"),
    (re.compile(r"^TB$"), "TB"),
    (re.compile(r"^SS$"), "SS"),
    (re.compile(r"^RS$"), "RS"),
    (re.compile(r"^MI([1-9])P([1-9])$"), "MI"),
    (re.compile(r"^AM-([A-Z]{1,12})-x([1-9])$"), "AM"),
)
SPACE_HELP = "FD, KN<k>, SI<k>, TB, SS, RS, MI<m>P<n>, AM-<ROW>-x<k>"

_SHORT = reprlib.Repr()
_SHORT.maxstring = 24
_SHORT.maxother = 24
_SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxdict = _SHORT.maxset = 3
_SHORT.maxlevel = 1


def _q(value: Any) -> str:
    """A value from the text, quoted short (never more than a few dozen characters)."""
    return _SHORT.repr(value)


def is_space_code(code: Any) -> bool:
    return isinstance(code, str) and any(p.match(code) for p, _ in _SPACE_PATTERNS)


def parse_space(code: Any, rows: tuple[str, ...], where: str) -> tuple[int, int, int]:
    if not isinstance(code, str):
        raise BoardError(f"{where}: space code {_q(code)} must be text; allowed: {SPACE_HELP}")
    for pattern, kind in _SPACE_PATTERNS:
        m = pattern.match(code)
        if not m:
            continue
        if kind == "FD":
            return (SPACE_PROVISIONS, 0, 0)
        if kind == "KN":
            return (SPACE_KNOWLEDGE, int(m.group(1)), 0)
        if kind == "SI":
            return (SPACE_SICKLE, int(m.group(1)), 0)
        if kind == "TB":
            return (SPACE_TABLET, 0, 0)
        if kind == "SS":
            return (SPACE_STANDING_STONE, 0, 0)
        if kind == "RS":
            return (SPACE_RUNE_STONE, 0, 0)
        if kind == "MI":
            return (SPACE_MISTLETOE, int(m.group(1)), int(m.group(2)))
        row = m.group(1)
        if row not in rows:
            raise BoardError(f"{where}: amulet space {code} names row {row!r}; "
                             f"the amulet rows are {', '.join(rows)}")
        return (SPACE_AMULET, rows.index(row), int(m.group(2)))
    raise BoardError(f"{where}: unknown space code {_q(code)}; allowed: {SPACE_HELP}")


def _need(mapping: Any, key: str, where: str) -> Any:
    if not isinstance(mapping, dict):
        raise BoardError(f"{where}: must be a mapping (key: value lines)")
    if key not in mapping:
        raise BoardError(f"{where}: missing key {key!r}")
    return mapping[key]


def _mapping(value: Any, where: str, what: str = "a mapping (key: value lines)") -> dict:
    if not isinstance(value, dict):
        raise BoardError(f"{where}: must be {what}")
    return value


def _list(value: Any, where: str, low: int = 0, high: int = 1000) -> list:
    if not isinstance(value, list) or not low <= len(value) <= high:
        size = f"{low}" if low == high else f"{low}-{high}"
        raise BoardError(f"{where}: must be a list of {size} entries, got {_q(value)}")
    return value


def _int(value: Any, low: int, high: int, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BoardError(f"{where}: must be an integer from {low} to {high}, got {_q(value)}")
    return value


def _ident(value: Any, where: str, pattern: re.Pattern = NAME, help: str = NAME_HELP) -> str:
    if not isinstance(value, str) or not pattern.match(value):
        raise BoardError(f"{where}: {_q(value)} is not {help}")
    return value


def _reward(code: Any, where: str) -> int:
    if not isinstance(code, str) or code not in REWARD_INDEX:
        raise BoardError(f"{where}: unknown reward {_q(code)}; allowed: {', '.join(REWARDS)}")
    return REWARD_INDEX[code]


def _xy(value: Any, where: str) -> tuple[int, int]:
    pair = _list(value, f"{where}, xy", 2, 2)
    return (_int(pair[0], 0, MAX_COORDINATE, f"{where}, x"), _int(pair[1], 0, MAX_COORDINATE, f"{where}, y"))


def _threshold_table(spec: Any, end: int, where: str) -> tuple[int, ...]:
    spec = _mapping(spec, where, "a mapping from track positions (starting with 0) to values")
    for k in spec:
        _int(k, 0, end, f"{where}, position")
    if 0 not in spec:
        raise BoardError(f"{where}: needs a value for position 0")
    table = []
    current = 0
    for pos in range(end + 1):
        if pos in spec:
            current = _int(spec[pos], 0, MAX_POINTS, f"{where}, position {pos}")
        table.append(current)
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


# ----- reading a board ----------------------------------------------------------------------------

def standard_board_text() -> str:
    """The text of the designed §9 board shipped with the game (what ``board=None`` means)."""
    return resources.files(__package__).joinpath("data", "board.yaml").read_text(encoding="utf-8")


def board_from_text(text: str | None = None) -> Board:
    """The validated board of a ``board`` option: a board file's text, None for the designed
    §9 board. Boards are cached by content (the last few used)."""
    if text is None:
        return _standard_board()
    if not isinstance(text, str):
        raise BoardError(f"a board must be the text of a board file, got {type(text).__name__}")
    return _parsed(text)


@lru_cache(maxsize=1)
def _standard_board() -> Board:
    return _parse(standard_board_text(), "standard")


@lru_cache(maxsize=8)
def _parsed(text: str) -> Board:
    return _parse(text, content_hash(text))


def _parse(text: str, source: str) -> Board:
    try:
        data = yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = (exc.problem or "unreadable")[:60]
        raise BoardError(f"the board is not valid YAML{where}: {problem}") from None
    except (yaml.YAMLError, RecursionError, ValueError, OverflowError):
        raise BoardError("the board is not valid YAML") from None
    try:
        return board_from_data(data, source)
    except BoardError:
        raise
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, RecursionError, OverflowError):
        # a shape no check above foresaw: still an error about the board, never a crash
        raise BoardError("the board has an entry of an unexpected shape; compare it with "
                         "the standard board (nemeton's games/edora/data/board.yaml)") from None


def board_from_data(data: Any, source: str = "board") -> Board:
    """Validate parsed board data (the YAML's structure) and build the :class:`Board`."""
    where = "board"
    board = _mapping(_need(data, "board", where), "board")
    pb = _mapping(_need(data, "player_board", where), "player_board")

    # player board first: amulet rows are needed to parse amulet spaces
    rows = tuple(_ident(r, "player_board.amulet_rows", ROW_NAME, "a row name of 1-12 capital letters")
                 for r in _list(_need(pb, "amulet_rows", "player_board"), "player_board.amulet_rows", 3, 3))
    if len(set(rows)) != 3:
        raise BoardError(f"player_board.amulet_rows: need 3 different row names, got {list(rows)}")
    standing = tuple(_reward(r, "player_board.standing_stone_row")
                     for r in _list(_need(pb, "standing_stone_row", "player_board"),
                                    "player_board.standing_stone_row", 6, 6))
    runes_spec = _need(pb, "rune_stones", "player_board")
    upper = _list(_need(runes_spec, "upper_times_v_minus_1", "player_board.rune_stones"),
                  "player_board.rune_stones.upper_times_v_minus_1", 3, 3)
    lower = _mapping(_need(runes_spec, "lower", "player_board.rune_stones"), "player_board.rune_stones.lower")
    runes = []
    for unit in upper:
        if not isinstance(unit, str) or unit not in RUNE_UNITS:
            raise BoardError(f"rune_stones: unknown unit {_q(unit)}; allowed: {', '.join(RUNE_UNITS)}")
        runes.append(RuneStone(unit, 1, True))
    for unit, factor in lower.items():
        if not isinstance(unit, str) or unit not in RUNE_UNITS:
            raise BoardError(f"rune_stones.lower: unknown unit {_q(unit)}; allowed: {', '.join(RUNE_UNITS)}")
        runes.append(RuneStone(unit, _int(factor, 1, 10, f"rune_stones.lower.{unit}"), False))
    if len(runes) != 6:
        raise BoardError(f"rune_stones: need 6 rune stones (3 upper + 3 lower), got {len(runes)}")
    kt = _need(pb, "knowledge_track", "player_board")
    k_end = _int(_need(kt, "end", "knowledge_track"), 1, MAX_TRACK, "knowledge_track.end")
    k_mult = _threshold_table(_need(kt, "multiplier_from", "knowledge_track"), k_end,
                              "knowledge_track.multiplier_from")
    st = _need(pb, "sickle_track", "player_board")
    s_end = _int(_need(st, "end", "sickle_track"), 1, MAX_TRACK, "sickle_track.end")
    pairs = tuple(_int(p, 1, s_end, "sickle_track.herb_pairs_at")
                  for p in _list(_need(st, "herb_pairs_at", "sickle_track"), "sickle_track.herb_pairs_at", 6, 6))
    if list(pairs) != sorted(set(pairs)):
        raise BoardError(f"sickle_track.herb_pairs_at: need 6 increasing positions in 1..{s_end}, "
                         f"got {list(pairs)}")
    s_score = _threshold_table(_need(st, "score_from", "sickle_track"), s_end, "sickle_track.score_from")
    oracle = tuple(_reward(r, "player_board.oracle_stones")
                   for r in _list(_need(pb, "oracle_stones", "player_board"), "player_board.oracle_stones", 6, 6))
    overflow = _int(pb.get("overflow_prestige_per_step", 2), 0, MAX_POINTS,
                    "player_board.overflow_prestige_per_step")
    provisions = _int(pb.get("start_provisions", 15), 0, MAX_POINTS, "player_board.start_provisions")

    # sanctuaries
    sanct = _mapping(_need(board, "sanctuaries", where), "board.sanctuaries",
                     "a mapping from sanctuary ids to their data")
    if not 2 <= len(sanct) <= MAX_SANCTUARIES:
        raise BoardError(f"board.sanctuaries: need 2 to {MAX_SANCTUARIES} sanctuaries, got {len(sanct)}")
    names = tuple(_ident(name, "board.sanctuaries") for name in sanct)
    index = {n: i for i, n in enumerate(names)}

    def sid(name: Any, ctx: str) -> int:
        if not isinstance(name, str) or name not in index:
            raise BoardError(f"{ctx}: unknown sanctuary {_q(name)}")
        return index[name]

    glades_spec = _mapping(_need(board, "glades", where), "board.glades",
                           "a mapping from glade ids to sanctuaries")
    glade_names = tuple(_ident(g, "board.glades") for g in glades_spec)
    xy, spaces, actions, glade_of, slots, starts_decl = [], [], [], [], {}, {}
    for name in names:
        entry = _mapping(sanct[name], f"sanctuary {name}")
        ctx = f"sanctuary {name}"
        xy.append(_xy(_need(entry, "xy", ctx), ctx))
        codes = _need(entry, "spaces", ctx)
        if not isinstance(codes, list) or not 2 <= len(codes) <= 4:
            raise BoardError(f"{ctx}: 'spaces' must list 2 to 4 action spaces (one per player)")
        actions.append(tuple(parse_space(c, rows, ctx) for c in codes))
        spaces.append(tuple(codes))
        g = _need(entry, "glade", ctx)
        if not isinstance(g, str) or g not in glades_spec:
            raise BoardError(f"{ctx}: unknown glade {_q(g)}; known: {', '.join(glade_names)}")
        glade_of.append(glade_names.index(g))
        if "dolmen_slot" in entry:
            slots[name] = entry["dolmen_slot"]
        if "start" in entry:
            starts_decl[name] = entry["start"]
    members = []
    for gi, g in enumerate(glade_names):
        listed = [sid(s, f"glade {g}") for s in _list(glades_spec[g], f"glade {g}", 1, MAX_SANCTUARIES)]
        actual = [i for i in range(len(names)) if glade_of[i] == gi]
        if sorted(listed) != actual:
            raise BoardError(f"glade {g}: lists {sorted(names[i] for i in listed)} but the "
                             f"sanctuaries marked glade {g} are {[names[i] for i in actual]}")
        members.append(tuple(actual))
    portals = _list(_need(board, "portal_glades", where), "board.portal_glades", 0, len(glade_names))
    for g in portals:
        if not isinstance(g, str) or g not in glade_names:
            raise BoardError(f"portal_glades: unknown glade {_q(g)}; known: {', '.join(glade_names)}")

    # paths
    edges = []
    neighbours: list[list[int]] = [[] for _ in names]
    for k, e in enumerate(_list(_need(board, "edges", where), "board.edges", 1, 20 * MAX_SANCTUARIES)):
        if not isinstance(e, list) or len(e) != 3:
            raise BoardError(f"edge {k + 1}: must be [sanctuary, sanctuary, dark_areas], got {_q(e)}")
        dark = _int(e[2], 0, MAX_DARK, f"edge {k + 1}, dark areas")
        a, b = sid(e[0], f"edge {k + 1}"), sid(e[1], f"edge {k + 1}")
        if a == b or b in neighbours[a]:
            raise BoardError(f"edge {k + 1} {names[a]}-{names[b]}: a path must join two different "
                             f"sanctuaries once")
        neighbours[a].append(b)
        neighbours[b].append(a)
        edges.append((a, b, dark))
    dist = _cheapest_costs(len(names), edges)
    unreachable = [names[j] for j in range(len(names)) if dist[0][j] >= 10 ** 6]
    if unreachable:
        raise BoardError(f"sanctuaries {unreachable[:6]} cannot be reached by any path from {names[0]}")
    stairs = {}
    for sname, pair in _mapping(board.get("stairs") or {}, "board.stairs").items():
        _ident(sname, "board.stairs")
        crossing = _list(pair, f"stair {sname}", 2, 2)
        paths = []
        for path in crossing:
            a, b = _list(path, f"stair {sname}", 2, 2)
            if sid(b, f"stair {sname}") not in neighbours[sid(a, f"stair {sname}")]:
                raise BoardError(f"stair {sname}: {a}-{b} is not a path of the board")
            paths.append((a, b))
        stairs[sname] = (paths[0], paths[1])

    # fire pits
    pits = _mapping(_need(board, "fire_pits", where), "board.fire_pits",
                    "a mapping from fire pit ids to their data")
    if len(pits) > 4 * MAX_SANCTUARIES:
        raise BoardError(f"board.fire_pits: at most {4 * MAX_SANCTUARIES} fire pits")
    pit_names, pit_xy, pit_around, pit_rewards = [], [], [], []
    for pname, entry in pits.items():
        ctx = f"fire pit {_ident(pname, 'board.fire_pits')}"
        around = _need(entry, "around", ctx)
        if not isinstance(around, list) or not 2 <= len(around) <= 4:
            raise BoardError(f"{ctx}: must border 2, 3 or 4 different sanctuaries, got {_q(around)}")
        ids = tuple(sid(s, ctx) for s in around)
        if len(set(ids)) != len(ids):
            raise BoardError(f"{ctx}: must border 2, 3 or 4 different sanctuaries, got {_q(around)}")
        rewards = _need(entry, "rewards", ctx)
        if not isinstance(rewards, list) or len(rewards) != len(around):
            raise BoardError(f"{ctx}: a pit bordering {len(around)} sanctuaries shows {len(around)} "
                             f"rewards, got {_q(rewards)}")
        pit_names.append(pname)
        pit_xy.append(_xy(_need(entry, "xy", ctx), ctx))
        pit_around.append(ids)
        pit_rewards.append(tuple(_reward(r, ctx) for r in rewards))
    pits_of = tuple(tuple(k for k, ar in enumerate(pit_around) if s in ar) for s in range(len(names)))

    # dolmen ring
    ring_names = _list(_need(board, "dolmen_ring", where), "board.dolmen_ring", 6, MAX_SANCTUARIES)
    ring = tuple(sid(s, "dolmen_ring") for s in ring_names)
    if len(set(ring)) != len(ring) or len(ring) % 2 or len(ring) > 2 * len(DOLMEN_COLOURS):
        raise BoardError(f"dolmen_ring: must list an even number (6 to {2 * len(DOLMEN_COLOURS)}) "
                         f"of different sanctuaries")
    for k, s in enumerate(ring):
        slot = f"D{k + 1:02d}"
        if slots.get(names[s]) != slot:
            raise BoardError(f"dolmen_ring: position {k + 1} is {names[s]}, so that sanctuary "
                             f"needs dolmen_slot: {slot} (it has {_q(slots.get(names[s]))})")
    extra = sorted(set(slots) - {names[s] for s in ring})
    if extra:
        raise BoardError(f"sanctuaries {extra[:6]} have a dolmen slot but are not on dolmen_ring")
    colours = tuple(_ident(c, "dolmen_reference_colours")
                    for c in _list(_need(board, "dolmen_reference_colours", where),
                                   "board.dolmen_reference_colours", len(ring), len(ring)))
    check_dolmen_separation(colours, "dolmen_reference_colours")

    # start spaces
    st_spec = _mapping(_need(board, "start_spaces", where), "board.start_spaces")
    if len(st_spec) != 4:
        raise BoardError(f"start_spaces: need the 4 start spaces ST1..ST4, got {len(st_spec)}")
    start_names = tuple(_ident(k, "start_spaces") for k in st_spec)
    start_sanct = tuple(sid(s, f"start space {k}") for k, s in st_spec.items())
    for k, s in st_spec.items():
        if starts_decl.get(s) != k:
            raise BoardError(f"start_spaces: {k} leads to {s}, so {s} needs start: {k}")
    if len(set(start_sanct)) != 4:
        raise BoardError("start_spaces: the 4 start spaces must lead to 4 different sanctuaries")

    lines = []
    for line in _list(_need(board, "lines_of_four", where), "board.lines_of_four", 0, 4 * MAX_SANCTUARIES):
        if not isinstance(line, list) or len(line) != 4:
            raise BoardError(f"lines_of_four: each line lists 4 sanctuaries, got {_q(line)}")
        lines.append(tuple(sid(s, "lines_of_four") for s in line))

    def mask(ids) -> int:
        m = 0
        for i in ids:
            m |= 1 << i
        return m

    return Board(
        source=source, names=names, index=index, xy=tuple(xy), spaces=tuple(spaces),
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
        overflow_prestige=overflow, start_provisions=provisions,
        max_spaces=min(len(s) for s in spaces),
    )


def check_dolmen_separation(colours, where: str = "dolmen ring") -> bool:
    """Each colour exactly twice, the two at cyclic distance >= 3 (>= 2 other dolmens between);
    raises BoardError naming the first colour that breaks it."""
    problem = dolmen_separation_problem(colours)
    if problem:
        raise BoardError(f"{where}: {problem}")
    return True


def dolmen_separation_problem(colours) -> str | None:
    """What breaks the dolmen separation rule in ``colours`` (None when it holds)."""
    n = len(colours)
    seen: dict[str, list[int]] = {}
    for k, c in enumerate(colours):
        seen.setdefault(c, []).append(k)
    for c, slots in seen.items():
        if len(slots) != 2:
            return f"colour {c} appears {len(slots)} times; each colour needs exactly 2 dolmens"
        gap = abs(slots[0] - slots[1])
        if min(gap, n - gap) < 3:
            return (f"the two {c} dolmens (slots D{slots[0] + 1:02d}, D{slots[1] + 1:02d}) "
                    f"need at least 2 other dolmens between them along the ring")
    return None
