"""Plain-text rendering of an Edora view: a compact board map and each player's boards."""

from __future__ import annotations

import textwrap
from typing import Any, Mapping

from .board import load_board

LETTERS = "ABCD"
CELL = 11
WIDTH = 78


def _stack_label(view: Mapping[str, Any]) -> str:
    from .rules import STEP_NAMES
    if view["over"] or not view["stack"]:
        return "game over"
    return STEP_NAMES.get(view["stack"][-1][0], "")


def _board_map(view: Mapping[str, Any], board) -> list[str]:
    cells: dict[tuple[int, int], tuple[str, str]] = {}
    figures: dict[str, str] = {}
    for p, pl in enumerate(view["players"]):
        if pl["figure"]:
            figures[pl["figure"]] = figures.get(pl["figure"], "") + LETTERS[p]
    for s, entry in enumerate(view["sanctuaries"]):
        name = entry["id"]
        top = name + (" *" + figures[name] if name in figures else "")
        dice = "".join(f"{d[1]}{LETTERS[d[0]]}" for d in entry["dice"] if d)
        stones = entry["standing_stones"] + entry["rune_stones"]
        if stones:
            dice += f"^{stones}"
        cells[board.xy[s]] = (top, dice or "-")
    for k, pit in enumerate(board.pit_names):
        owner = view["fire_pits"][pit]
        cells[board.pit_xy[k]] = (pit, "open" if owner < 0 else f"out {LETTERS[owner]}")
    width = 1 + max(x for x, _ in cells)
    height = 1 + max(y for _, y in cells)
    lines = []
    for y in range(height):
        a = "".join((cells.get((x, y), ("", ""))[0] or ("." if x % 2 and y % 2 else "")).ljust(CELL)
                    for x in range(width))
        b = "".join(cells.get((x, y), ("", ""))[1].ljust(CELL) for x in range(width))
        lines += [a.rstrip(), b.rstrip()]
    return lines


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
        f"P{p} [{LETTERS[p]}]{you}: prestige {pl['prestige']} · provisions {pl['provisions']} · "
        f"mistletoe {pl['mistletoe']} · knowledge {pl['knowledge']} (x{mult})",
        f"   sickle {pl['sickle']}/{board.sickle_end} · reserve {' '.join(map(str, pl['reserve'])) or '-'} · "
        f"overview {' '.join(map(str, pl['overview'])) or '-'} · placed {pl['placed']}/13",
        f"   herbs active {' '.join(active) or '-'} · face down {' '.join(down) or '-'}",
        f"   on the sickle {' '.join(pairs) or '-'}",
        f"   amulet {amulet} · standing {' '.join(pl['standing_stones']) or '-'} · "
        f"runes {' '.join(pl['rune_stones']) or '-'}",
        f"   tablets {' '.join(pl['tablets']) or '-'} · potions {' '.join(pl['potions']) or '-'} · "
        f"dolmens {pl['dolmens']} + beige {pl['beige_dolmens']}",
    ]
    out = []
    for line in lines:
        out += textwrap.wrap(line, WIDTH, subsequent_indent="      ")
    return out


def render(view: Mapping[str, Any]) -> str:
    board = load_board(view["options"].get("board"))
    out = []
    acting = ", ".join(f"P{p}" for p in view["acting"])
    out.append(f"The Druids of Edora · round {view['round']} · start player P{view['start_player']}"
               + (" · last round" if view["ending"] and not view["over"] else ""))
    out.append(f"to act: {acting or '-'} ({_stack_label(view)})")
    out.append("dice: value + player letter; ^n = stones standing there; *X = druid figures")
    out += _board_map(view, board)
    out.append("")
    ring = " ".join(f"{board.names[s]}={c}" for s, c in zip(board.ring, view["dolmen_ring"]))
    owners = " ".join(f"{c}={'-' if o < 0 else LETTERS[o]}" for c, o in view["dolmen_owner"].items())
    out.append(f"dolmens {ring}")
    out.append(f"dolmens linked: {owners} · links so far {view['links']}")
    sides = []
    stones = view["oracle_stones"]
    for side in range(6):
        tabs = [t or "--" for t in view["oracle_slots"][2 * side:2 * side + 2]]
        sides.append(f"{side}:{stones[side]}/{stones[(side + 1) % 6]}[{' '.join(tabs)}]")
    out.append("oracle: " + " ".join(sides[:3]))
    out.append("        " + " ".join(sides[3:]) + f" · deck {view['deck_size']}")
    left = view["potions_left"]
    out.append("potions left: " + " ".join(left[:12]))
    if left[12:]:
        out.append("              " + " ".join(left[12:]))
    if view.get("draft_hand"):
        out.append("your drawn tablets: " + " ".join(view["draft_hand"]))
    out.append("")
    for p, pl in enumerate(view["players"]):
        out += _player(view, board, p, pl)
    if view.get("final"):
        out.append("")
        out.append("final: prestige + leftovers + sickle + tablets + amulet + sanctuaries = total")
        for p, f in enumerate(view["final"]):
            out.append(f"  P{p}: {f['prestige']} + {f['leftovers']} + {f['sickle']} + {f['tablets']} + "
                       f"{f['amulet']} + {f['sanctuaries']} ({f['collected']} x{f['multiplier']}) = {f['total']}")
    return "\n".join(out)
