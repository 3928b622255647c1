"""Plain-text rendering of an Edora view: a map with its paths, a legend, and each player's boards.

The map is the board's doubled grid (``data/board.yaml``): sanctuaries with the dice on them,
fire pits between them, the paths drawn with ``- | / \\`` (``~`` marks a dark-forest crossing,
``#`` a stair crossing) and the four start spaces in the margin. Players are named by seat;
the letter after the seat (``seat 1 [B]``) is how their dice and figures appear on the map.
Help that only matters for one decision (tablet conditions, potion and herb effects, the free
spaces of the sanctuaries you can move to) is shown only while that decision is yours.
"""

from __future__ import annotations

import textwrap
from typing import Any, Mapping

from .board import board_from_text
from .components import HERB_EFFECTS, POTION_EFFECTS, TABLET_CONDITIONS
from .steps import (D_ARRANGE, D_BREW, D_DRAFT, D_FLIP, D_RELEASE, D_START, D_TABLET, D_TAKE_HERB, D_TURN,
                    STEP_NAMES)

LETTERS = "ABCD"
CELL = 12          # map columns per grid step
MARGIN = 5         # left margin for the start spaces on the left edge
WIDTH = 98

LEGEND = (
    "key: 3B a die showing 3 of seat 1 [B] · ^n stones placed there · *AB druid figures · - none",
    "  (F02) open fire pit, (F02:B) closed by B · paths - | / \\ · ~ dark forest on the path (+1 cost)",
    "  # stairs: the paths cross, go straight · ST1-ST4 start spaces (letter: who starts there)",
    "spaces: FD +12 provisions or 3 overview dice · KNk/SIk knowledge/sickle +k · TB take a tablet ·",
    "  SS/RS standing/rune stone · MImPn +m mistletoe, brew <= n potions · AM-ROW-xk gem on amulet",
    "  row ROW, its reward k times · Tn tablet · Pnx potion costing n mistletoe",
)


def seat_name(p: int) -> str:
    return f"seat {p} [{LETTERS[p]}]"


def _decision(view: Mapping[str, Any]) -> int | None:
    """The kind of decision on top of the stack, or None when the game is over."""
    if view["terminal"] or not view["stack"]:
        return None
    return view["stack"][-1][0]


def _stack_label(view: Mapping[str, Any]) -> str:
    kind = _decision(view)
    return "game over" if kind is None else STEP_NAMES.get(kind, "")


# ----- the map -----------------------------------------------------------------------------------

class _Canvas:
    def __init__(self, height: int, width: int):
        self.rows = [[" "] * width for _ in range(height)]

    def put(self, row: int, col: int, text: str) -> None:
        line = self.rows[row]
        for k, ch in enumerate(text):
            if 0 <= col + k < len(line):
                line[col + k] = ch

    def get(self, row: int, col: int) -> str:
        return self.rows[row][col]

    def lines(self) -> list[str]:
        return ["".join(r).rstrip() for r in self.rows]


def _col(x: int) -> int:
    return MARGIN + CELL * x


def _draw_path(cv: _Canvas, a: tuple[int, int], b: tuple[int, int], dark: int) -> None:
    (x1, y1), (x2, y2) = sorted((a, b), key=lambda p: (p[1], p[0]))
    if y1 == y2:                                   # horizontal, on the name line
        if x1 > x2:
            x1, x2 = x2, x1
        start, end = _col(x1) + 4, _col(x2) - 2
        while cv.get(3 * y1, start) != " ":       # after the name and figures
            start += 1
        start += 1
        for c in range(start, end + 1):
            cv.put(3 * y1, c, "-")
        if dark:
            cv.put(3 * y1, (start + _col(x1 + 1)) // 2, "~")
    elif x1 == x2:                                 # vertical, through the cell between
        col = _col(x1) + 1
        mid = y1 + 1
        for row in (3 * y1 + 2, 3 * mid, 3 * mid + 1, 3 * mid + 2):
            if cv.get(row, col) == " ":
                cv.put(row, col, "|")
        if dark:
            cv.put(3 * mid + 1, col + 1, "~")
    else:                                          # diagonal, on the connector line
        left, right = sorted((x1, x2))
        col = (_col(left) + _col(right)) // 2 + 2
        cv.put(3 * y1 + 2, col, "\\" if x2 > x1 else "/")
        if dark:
            cv.put(3 * y1 + 2, col + 1, "~")


def _board_map(view: Mapping[str, Any], board) -> list[str]:
    figures: dict[str, str] = {}
    starts: dict[str, str] = {}
    for p, pl in enumerate(view["boards"]):
        if pl["figure"]:
            figures[pl["figure"]] = figures.get(pl["figure"], "") + LETTERS[p]
        elif pl["start"]:
            starts[pl["start"]] = LETTERS[p]
    width = 1 + max(x for x, _ in board.xy + board.pit_xy)
    height = 1 + max(y for _, y in board.xy + board.pit_xy)
    cv = _Canvas(3 * height, MARGIN + CELL * width + 6)
    for s, entry in enumerate(view["sanctuaries"]):
        x, y = board.xy[s]
        name = entry["id"]
        cv.put(3 * y, _col(x), name + (" *" + figures[name] if name in figures else ""))
        dice = "".join(f"{d[1]}{LETTERS[d[0]]}" for d in entry["dice"] if d)
        stones = entry["standing_stones"] + entry["rune_stones"]
        cv.put(3 * y + 1, _col(x), (dice + (f"^{stones}" if stones else "")) or "-")
    for k, pit in enumerate(board.pit_names):
        x, y = board.pit_xy[k]
        owner = view["fire_pits"][pit]
        cv.put(3 * y + 1, _col(x) + 2, f"({pit})" if owner < 0 else f"({pit}:{LETTERS[owner]})")
    stair_cells = set()
    for pair in board.stairs.values():
        (a, b), _ = pair
        (x1, y1), (x2, y2) = board.xy[board.index[a]], board.xy[board.index[b]]
        stair_cells.add(((x1 + x2) // 2, (y1 + y2) // 2))
    for a, b, dark in board.edges:
        _draw_path(cv, board.xy[a], board.xy[b], dark)
    for x, y in stair_cells:
        cv.put(3 * y, _col(x) + 1, "#")
    lines = cv.lines()
    top, bottom = [], []
    for st_name, s in zip(board.start_names, board.start_sanctuary):
        x, y = board.xy[s]
        who = starts.get(board.names[s], "")
        label = st_name + (":" + who if who else "")
        if y == 0:
            top.append((_col(x), label + " v"))
        elif y == height - 1:
            bottom.append((_col(x), label + " ^"))
        elif x == 0:
            lines[3 * y] = (label + ">").ljust(MARGIN) + lines[3 * y][MARGIN:]
        else:
            lines[3 * y] = lines[3 * y].ljust(_col(x) + 5) + " <" + label
    for items, at in ((top, 0), (bottom, len(lines))):
        if items:
            line = ""
            for col, label in sorted(items):
                line = line.ljust(col) + label
            lines.insert(at, line)
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


# ----- the players -------------------------------------------------------------------------------

def _short(herb: str | None) -> str:
    return "?" if herb is None else herb[2:]


def _player(view, board, p: int, pl) -> list[str]:
    you = " (you)" if view.get("seat") == p else ""
    mult = board.knowledge_multiplier[pl["knowledge"]]
    herbs = pl["herb_state"]
    active = [_short(h) for h, s in herbs.items() if s == "active"]
    down = [_short(h) for h, s in herbs.items() if s == "inactive"]
    circles = pl["herbs"]
    pairs = []
    for k, pos in enumerate(board.herb_pairs_at):
        pair = [h for h in circles[2 * k:2 * k + 2] if h is None or herbs[h] == "board"]
        if pair:
            pairs.append(f"{pos}:{'+'.join(_short(h) for h in pair)}")
    rows = board.amulet_rows
    am = pl["amulet"]
    amulet = " ".join(f"{rows[r]}[{am[2 * r] or '-'},{am[2 * r + 1] or '-'}]" for r in range(3))
    lines = [
        f"P{p} [{LETTERS[p]}]{you} = seat {p}: prestige {pl['prestige']} · provisions {pl['provisions']} · "
        f"mistletoe {pl['mistletoe']} · knowledge {pl['knowledge']} (x{mult}) · "
        f"sickle {pl['sickle']}/{board.sickle_end}",
        f"   dice: reserve {' '.join(map(str, pl['reserve'])) or '-'} · "
        f"overview {' '.join(map(str, pl['overview'])) or '-'} · placed {pl['placed']}/13",
        f"   herbs active {' '.join(active) or '-'} · face down {' '.join(down) or '-'} · "
        f"on the sickle track (step:pair) {' '.join(pairs) or '-'}",
        f"   amulet {amulet} · standing stones placed {' '.join(pl['standing_stones']) or '-'} · "
        f"rune stones placed {' '.join(pl['rune_stones']) or '-'}",
        f"   tablets {' '.join(pl['tablets']) or '-'} · potions {' '.join(pl['potions']) or '-'} · "
        f"dolmens {pl['dolmens']} + beige {pl['beige_dolmens']}",
    ]
    if you and pl["tablets"]:
        lines.append("   your tablets: " + "; ".join(f"{t} {TABLET_CONDITIONS[t]}"
                                                     for t in sorted(set(pl["tablets"]), key=_num)))
    out = []
    for line in lines:
        out += textwrap.wrap(line, WIDTH, subsequent_indent="      ")
    return out


def _num(code: str) -> int:
    return int("".join(ch for ch in code if ch.isdigit()))


# ----- help for the decision at hand -------------------------------------------------------------

def _decision_help(view: Mapping[str, Any], board) -> list[str]:
    seat = view.get("seat")
    kind = _decision(view)
    if seat is None or seat not in view["acting"]:
        return []
    if kind in (D_TABLET, D_DRAFT):
        shown = view.get("draft_hand") or [t for t in view["oracle_slots"] if t]
        return _wrapped("tablets (10 points each if met at the end): ",
                        [f"{t} {TABLET_CONDITIONS[t]}" for t in sorted(set(shown), key=_num)])
    if kind == D_BREW:
        mist = view["boards"][seat]["mistletoe"]
        return _wrapped("potions you can afford: ",
                        [f"{k} {POTION_EFFECTS[k]}" for k in view["potions_left"] if int(k[1]) <= mist])
    if kind in (D_RELEASE, D_FLIP, D_TAKE_HERB, D_ARRANGE):
        return _wrapped("herbs (active = face up): ",
                        [f"{h[2:]} {e}" for h, e in HERB_EFFECTS.items()])
    if kind == D_TURN:
        n = view["players"]
        mine = [i for i, e in enumerate(view["sanctuaries"])
                if any(d and d[0] == seat for d in e["dice"])]
        free = []
        for s, e in enumerate(view["sanctuaries"]):
            if s in mine:
                continue
            codes = [board.spaces[s][i] for i in range(n) if e["dice"][i] is None]
            free.append(f"{e['id']} {' '.join(codes) or 'full'}")
        return _wrapped("free spaces where you have no die: ", free)
    return []


def _wrapped(title: str, items: list[str]) -> list[str]:
    return textwrap.wrap(title + " · ".join(items), WIDTH, subsequent_indent="  ", break_on_hyphens=False)


# ----- the whole screen --------------------------------------------------------------------------

def _header(view: Mapping[str, Any]) -> list[str]:
    sp = view["start_player"]
    n = view["players"]
    out = [f"The Druids of Edora · round {view['round']} · start player {seat_name(sp)} "
           f"(plays first each round)" + (" · last round" if view["ending"] and not view["terminal"] else "")]
    acting = ", ".join(seat_name(p) for p in view["acting"])
    out.append(f"to act: {acting or '-'} ({_stack_label(view)})")
    if _decision(view) == D_START:
        order = ", ".join(seat_name((sp - 1 - j) % n) for j in range(n))
        out.append(f"start spaces are chosen from the start player's right, counter-clockwise, "
                   f"start player last; order: {order}")
    return [w for line in out for w in textwrap.wrap(line, WIDTH, subsequent_indent="  ")]


def render(view: Mapping[str, Any]) -> str:
    board = board_from_text(view["options"].get("board"))
    seat = view.get("seat")
    out = _header(view)
    out += _wrapped("players: ", [seat_name(p) + (" (you)" if p == seat else "")
                                  for p in range(view["players"])])
    out += _board_map(view, board)
    out += LEGEND
    ring = " ".join(f"{board.names[s]}={c.lower()}" for s, c in zip(board.ring, view["dolmen_ring"]))
    owners = " ".join(f"{c.lower()}:{'-' if o < 0 else LETTERS[o]}" for c, o in view["dolmen_owner"].items())
    out += textwrap.wrap(f"dolmens (colour at each edge sanctuary): {ring}", WIDTH, subsequent_indent="  ")
    out.append(f"dolmen pairs linked (colour:by) {owners} · links so far {view['links']}")
    sides = []
    stones = view["oracle_stones"]
    for side in range(6):
        tabs = [t or "--" for t in view["oracle_slots"][2 * side:2 * side + 2]]
        sides.append(f"{side}:{stones[side]}+{stones[(side + 1) % 6]}[{' '.join(tabs)}]")
    out.append("oracle side:rewards[tablets] " + " ".join(sides[:3]))
    out.append("                             " + " ".join(sides[3:]) + f" · deck {view['deck_size']}")
    left = view["potions_left"]
    out += textwrap.wrap("potions left: " + (" ".join(left) or "-"), WIDTH, subsequent_indent="  ")
    if view.get("draft_hand"):
        out.append("your drawn tablets: " + " ".join(view["draft_hand"]))
    for p, pl in enumerate(view["boards"]):
        out += _player(view, board, p, pl)
    out += _decision_help(view, board)
    if view.get("final"):
        out.append("")
        out.append("final: prestige + leftovers + sickle + tablets + amulet + sanctuaries = total")
        for p, f in enumerate(view["final"]):
            out.append(f"  {seat_name(p)}: {f['prestige']} + {f['leftovers']} + {f['sickle']} + "
                       f"{f['tablets']} + {f['amulet']} + {f['sanctuaries']} "
                       f"({f['collected']} x{f['multiplier']}) = {f['total']}")
    return "\n".join(out)
