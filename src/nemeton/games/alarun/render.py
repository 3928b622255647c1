"""Plain-text rendering of a seat's view: the squares as grids, the hand, the centre, scores.

Players are named by ``names`` (a sequence or a callable seat -> name; "seat n" without it):
the screen names seats with :func:`~nemeton.engine.log.seat_ref` and renders them last."""

from __future__ import annotations

import textwrap
from typing import AbstractSet, Any, Mapping

from ...engine.log import Names, render_text, seat_ref
from .components import EMPTY, LEGEND, card_id, short_name
from .square import MagicSquare, cell_index


AXES = "place ... at (x,y): x = column (x →), y = row (y ↓), from the druid (DRUI = 0,0); + = right/down"


def _grid_lines(cells: list, highlight: AbstractSet[tuple[int, int]] = frozenset(), show_open: bool = False) -> list[str]:
    """The square's cards on a grid, with one ring of the cells it may still grow into;
    offsets from the druid along the edges. Cards placed this round (hidden from the others)
    carry a '*'; with ``show_open`` the cells where a card may go now show ' +'."""
    square = MagicSquare.from_cards([(cell_index(x, y), card_id(c)) for x, y, c in cells])
    x0, x1 = max(square.min_x - 1, square.max_x - 4), min(square.max_x + 1, square.min_x + 4)
    y0, y1 = max(square.min_y - 1, square.max_y - 4), min(square.max_y + 1, square.min_y + 4)
    lines = ["   x →  " + " ".join(f"{x:^5}" for x in range(x0, x1 + 1))]
    for y in range(y0, y1 + 1):
        row = []
        for x in range(x0, x1 + 1):
            card = square.card_at(x, y)
            if card != EMPTY:
                label = short_name(card)
            elif show_open and square.is_open(x, y):
                label = "  + "
            else:
                label = "  . "
            row.append(label + ("*" if (x, y) in highlight else " "))
        lines.append(("y ↓" if y == y0 else "   ") + f"{y:>3}  " + " ".join(row))
    return lines


def render(view: Mapping[str, Any], names: Names | None = None) -> str:
    seat = view["seat"]
    n = view["players"]
    out = []
    who = "spectator" if seat is None else seat_ref(seat)
    phase = view["phase"]
    head = f"Alarún, {n} players, round {view['round']}/{view['rounds']}, {phase} ({who})"
    out.append(head)
    if phase == "actions":
        passer = view["alarun"]
        status = f"to act: {seat_ref(view['acting'][0])}"
        if passer is not None:
            status += f"; {seat_ref(passer)} passed first and holds Alarún ({view['extra_actions_left']} more action(s))"
        if view["action_cap"] is not None:
            status += f"; actions this round {view['actions_taken']}/{view['action_cap']}"
        out.append(status)
    elif phase == "placement":
        out.append("placing: " + ", ".join(f"{seat_ref(s)} ({view['placed_this_round'][s]}/3 placed)"
                                           for s in range(n)))
    out += textwrap.wrap(f"centre: {', '.join(view['centre'])}"
                         + (f"  (+{view['face_down']} face down)" if view["face_down"] else ""),
                         98, subsequent_indent="  ")
    out.append(f"stack: {view['deck_size']} cards; discard pile: {len(view['discard'])} cards")
    if seat is not None:
        out += textwrap.wrap(f"your hand: {', '.join(view['hand']) or '(empty)'}; "
                             f"your secret colour: {view['secret_colour']}", 98, subsequent_indent="  ")
    final = view.get("breakdowns")
    for s in range(n):
        label = seat_ref(s) + (" (you)" if s == seat else "")
        if final:
            b = final[s]
            label += (f": total {b['total']} = potions {b['potions']} + centum auri {b['centum_auri']}"
                      f" + colour bonus {b['colour_bonus']} ({view['secret_colours'][s]});"
                      f" druid as {b['druid']}; rows {b['rows']}, columns {b['columns']}")
        else:
            label += f": potion points so far {view['potion_points'][s]}"
            if s != seat and view["known_hands"][s]:
                when = " before placing" if phase == "placement" else ""
                label += f"; known in hand{when}: {', '.join(view['known_hands'][s])}"
        out.append("")
        out += textwrap.wrap(label, 98, subsequent_indent="  ")
        mine = {tuple(p) for p in view.get("my_placements", [])} if s == seat else set()
        out.extend(_grid_lines(view["squares"][s], mine, show_open=(s == seat and phase == "placement")))
    if final:
        out.append("")
        out.append("winner(s): " + ", ".join(seat_ref(w) for w in view["winners"]))
    out.append("")
    out += textwrap.wrap(LEGEND + "; DRUI = druid, CENT = centum auri; * = placed this round, "
                         "+ = open cell, . = empty", 98, subsequent_indent="  ")
    if phase == "placement":
        out.append(AXES)
    return render_text("\n".join(out), names, n)
