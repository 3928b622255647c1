"""Plain-text rendering of a seat's view: the squares as grids, the hand, the centre, scores."""

from __future__ import annotations

from typing import Any, Mapping

from .cards import DRUID, LEGEND, card_id, short_name

_REACH = 4


def _grid_lines(cells: list, highlight: set[tuple[int, int]] = frozenset()) -> list[str]:
    """The square's cards on a grid; offsets from the druid along the edges. A card placed
    this round (still hidden from the others) is marked with '*'."""
    at = {(x, y): card_id(c) for x, y, c in cells}
    at[(0, 0)] = DRUID
    xs = [x for x, _ in at]
    ys = [y for _, y in at]
    # show the 5x5 box the square can still grow into, clipped to the board
    x0, y0 = max(-_REACH, max(xs) - 4), max(-_REACH, max(ys) - 4)
    x1, y1 = min(_REACH, min(xs) + 4), min(_REACH, min(ys) + 4)
    if len(at) == 25:
        x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    lines = ["      " + " ".join(f"{x:^5}" for x in range(x0, x1 + 1))]
    for y in range(y0, y1 + 1):
        row = []
        for x in range(x0, x1 + 1):
            label = short_name(at[(x, y)]) if (x, y) in at else " .. "
            row.append(label + ("*" if (x, y) in highlight else " "))
        lines.append(f"{y:>4}  " + " ".join(row))
    return lines


def render(view: Mapping[str, Any]) -> str:
    seat = view["seat"]
    n = view["players"]
    out = []
    who = "spectator" if seat is None else f"seat {seat}"
    phase = view["phase"]
    head = f"Alarún, {n} players, round {view['round']}/{view['rounds']}, {phase} ({who})"
    out.append(head)
    if phase == "actions":
        passer = view["alarun"]
        status = f"to act: seat {view['to_act']}"
        if passer is not None:
            status += f"; seat {passer} passed first and holds Alarún ({view['extra_actions_left']} more action(s))"
        if view["action_cap"] is not None:
            status += f"; actions this round {view['actions_taken']}/{view['action_cap']}"
        out.append(status)
    elif phase == "placement":
        out.append("placing: " + ", ".join(f"seat {s} ({view['placed_this_round'][s]}/3 placed)"
                                           for s in range(n)))
    out.append(f"centre: {', '.join(view['centre'])}"
               + (f"  (+{view['face_down']} face down)" if view["face_down"] else ""))
    out.append(f"stack: {view['deck_size']} cards; discard pile: {len(view['discard'])} cards")
    if seat is not None:
        out.append(f"your hand: {', '.join(view['hand']) or '(empty)'}; "
                   f"your secret colour: {view['secret_colour']}")
    final = view.get("scores")
    for s in range(n):
        label = f"seat {s}" + (" (you)" if s == seat else "")
        if final:
            b = final[s]
            label += (f": total {b['total']} = potions {b['potions']} + centum auri {b['centum_auri']}"
                      f" + colour bonus {b['colour_bonus']} ({view['secret_colours'][s]});"
                      f" druid as {b['druid']}; rows {b['rows']}, columns {b['columns']}")
        else:
            label += f": potion points so far {view['potion_points'][s]}"
            if s != seat and view["known_hands"][s]:
                label += f"; known in hand: {', '.join(view['known_hands'][s])}"
        out.append("")
        out.append(label)
        mine = {tuple(p) for p in view.get("my_placements", [])} if s == seat else set()
        out.extend(_grid_lines(view["squares"][s], mine))
    if final:
        out.append("")
        out.append("winner(s): " + ", ".join(f"seat {w}" for w in view["winners"]))
    out.append("")
    out.append(LEGEND + "; DRUI = druid, CENT = centum auri")
    return "\n".join(out)
