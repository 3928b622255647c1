"""Plain-text rendering of an Edora view: a compact board map and each player's boards."""

from __future__ import annotations

from typing import Any, Mapping

from .board import load_board

LETTERS = "ABCD"
CELL = 11


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
        dice = " ".join(f"{d[1]}{LETTERS[d[0]]}" for d in entry["dice"] if d)
        stones = entry["standing_stones"] + entry["rune_stones"]
        if stones:
            dice += f" +{stones}st"
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


def render(view: Mapping[str, Any]) -> str:
    board = load_board(view["options"].get("board"))
    out = []
    acting = ", ".join(f"P{p}" for p in view["acting"])
    out.append(f"The Druids of Edora · round {view['round']} · start player P{view['start_player']}"
               + (" · last round" if view["ending"] and not view["over"] else ""))
    out.append(f"to act: {acting or '-'} ({_stack_label(view)})")
    out.append("")
    out += _board_map(view, board)
    out.append("")
    ring = " ".join(f"{board.names[s]}:{c}" for s, c in zip(board.ring, view["dolmen_ring"]))
    owners = " ".join(f"{c}={'-' if o < 0 else LETTERS[o]}" for c, o in view["dolmen_owner"].items())
    out.append(f"dolmens: {ring} | linked: {owners} | links so far {view['links']}")
    sides = []
    stones = view["oracle_stones"]
    for side in range(6):
        tabs = [t or "--" for t in view["oracle_slots"][2 * side:2 * side + 2]]
        sides.append(f"{side}:{stones[side]}/{stones[(side + 1) % 6]}[{' '.join(tabs)}]")
    out.append("oracle: " + " ".join(sides) + f" | deck {view['deck_size']}")
    out.append("potions left: " + " ".join(view["potions_left"]))
    if view.get("draft_hand"):
        out.append("your drawn tablets: " + " ".join(view["draft_hand"]))
    out.append("")
    for p, pl in enumerate(view["players"]):
        you = " (you)" if view.get("seat") == p else ""
        mult = board.knowledge_multiplier[pl["knowledge"]]
        out.append(f"P{p} [{LETTERS[p]}]{you}: prestige {pl['prestige']} · provisions {pl['provisions']} · "
                   f"mistletoe {pl['mistletoe']} · knowledge {pl['knowledge']}/{board.knowledge_end} (x{mult}) · "
                   f"sickle {pl['sickle']}/{board.sickle_end}")
        out.append(f"   dice: reserve {pl['reserve']} overview {pl['overview']} placed {pl['placed']}/13")
        herbs = pl["herb_state"]
        active = [h for h, s in herbs.items() if s == "active"]
        inactive = [h for h, s in herbs.items() if s == "inactive"]
        track = [h for h in pl["herbs"] if h and herbs[h] == "board"]
        out.append(f"   herbs: active {' '.join(active) or '-'} · face down {' '.join(inactive) or '-'} · "
                   f"on the sickle {' '.join(track) or '-'}")
        rows = board.amulet_rows
        am = pl["amulet"]
        amulet = " ".join(f"{rows[r]}[{am[2 * r] or '-'},{am[2 * r + 1] or '-'}]" for r in range(3))
        out.append(f"   amulet {amulet} · standing stones placed {' '.join(pl['standing_stones']) or '-'}"
                   f" · runes placed {' '.join(pl['rune_stones']) or '-'}")
        out.append(f"   tablets {' '.join(pl['tablets']) or '-'} · potions {' '.join(pl['potions']) or '-'}"
                   f" · dolmens {pl['dolmens']} + beige {pl['beige_dolmens']}")
    if view.get("final"):
        out.append("")
        out.append("final scoring (prestige + leftovers + sickle + tablets + amulet + sanctuaries = total):")
        for p, f in enumerate(view["final"]):
            out.append(f"  P{p}: {f['prestige']} + {f['leftovers']} + {f['sickle']} + {f['tablets']} + "
                       f"{f['amulet']} + {f['sanctuaries']} ({f['collected']} x{f['multiplier']}) = {f['total']}")
    return "\n".join(out)
