"""Plain-text rendering of a seat's view: the squares as grids, the hand, the centre, scores.

Players are named by ``names`` (a sequence or a callable seat -> name; "seat n" without it):
the screen names seats with :func:`~nemeton.engine.log.seat_ref` and renders them last.
Every word comes from the catalogue (``alarun.term.*``, the cards and colours as the event
log names them) in ``lang``: English, Italian or Spanish."""

from __future__ import annotations

import textwrap
from typing import AbstractSet, Any, Mapping

from ...engine.log import Names, render_text, seat_ref
from ...i18n import Message, msg, render as render_message, seat as seat_arg
from .components import CENTUM_AURI, COLOURS, DRUID, EMPTY, INGREDIENTS, card_id
from .events import card_message, cards_message, colour_message, ingredient_message
from .square import MagicSquare, cell_index


def _t(lang: str, id: str, **args: Any) -> str:
    """Message ``id`` in ``lang``, seats left as markers (rendered with the names at the end)."""
    return render_message(msg(id, **args), lang)


def short_label(card: int, lang: str = "en") -> str:
    """A 4-character label for grids in ``lang``: "DE-b" (blue dragon eggs), "CENT", "DRUI"."""
    if card == CENTUM_AURI:
        return _t(lang, "alarun.term.short.centum_auri")
    if card == DRUID:
        return _t(lang, "alarun.term.short.druid")
    if card == EMPTY:
        return " .. "
    return (_t(lang, f"alarun.term.short.{INGREDIENTS[card // 7]}") + "-"
            + _t(lang, f"alarun.term.short.{COLOURS[card % 7]}"))


def _axes(lang: str) -> str:
    return _t(lang, "alarun.term.axes", druid=_t(lang, "alarun.term.short.druid"))


def _legend(lang: str) -> str:
    ingredients = [msg("alarun.term.legend_item", short=_t(lang, f"alarun.term.short.{i}"), name=ingredient_message(i))
                   for i in INGREDIENTS]
    colours = [msg("alarun.term.legend_item", short=_t(lang, f"alarun.term.short.{c}"), name=colour_message(c))
               for c in COLOURS]
    return _t(lang, "alarun.term.legend", ingredients=_commas(ingredients), colours=_commas(colours),
              druid=_t(lang, "alarun.term.short.druid"), centum=_t(lang, "alarun.term.short.centum_auri"))


def _commas(items: list) -> Message | str:
    """Items separated by commas, without "and" (a legend): nested ``alarun.cards`` pairs."""
    if not items:
        return ""
    out = items[-1]
    for item in reversed(items[:-1]):
        out = msg("alarun.cards", first=item, rest=out)
    return out


def _cards(cards: list[str]) -> Message | str:
    return cards_message(cards) if cards else ""


def _grid_lines(cells: list, highlight: AbstractSet[tuple[int, int]] = frozenset(), show_open: bool = False,
                lang: str = "en") -> list[str]:
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
                label = short_label(card, lang)
            elif show_open and square.is_open(x, y):
                label = "  + "
            else:
                label = "  . "
            row.append(label + ("*" if (x, y) in highlight else " "))
        lines.append(("y ↓" if y == y0 else "   ") + f"{y:>3}  " + " ".join(row))
    return lines


def render(view: Mapping[str, Any], names: Names | None = None, lang: str = "en") -> str:
    seat = view["seat"]
    n = view["players"]
    out = []
    T = lambda id, **args: _t(lang, id, **args)  # noqa: E731
    who = T("alarun.term.spectator") if seat is None else seat_ref(seat)
    phase = view["phase"]
    out.append(T("alarun.term.head", count=n, round=view["round"], rounds=view["rounds"],
                 phase=msg(f"alarun.term.phase.{phase}"), who=who))
    if phase == "actions":
        passer = view["alarun"]
        status = [T("alarun.term.to_act", seat=seat_arg(view["acting"][0]))]
        if passer is not None:
            status.append(T("alarun.term.holds_alarun", seat=seat_arg(passer), count=view["extra_actions_left"]))
        if view["action_cap"] is not None:
            status.append(T("alarun.term.cap", taken=view["actions_taken"], cap=view["action_cap"]))
        out.append("; ".join(status))
    elif phase == "placement":
        out.append(T("alarun.term.placing", seats=[
            msg("alarun.term.placed", seat=seat_arg(s), placed=view["placed_this_round"][s], hand=3) for s in range(n)]))
    centre = _cards(view["centre"])
    if view["face_down"]:
        line = T("alarun.term.centre.face_down", cards=centre, face_down=view["face_down"])
    else:
        line = T("alarun.term.centre", cards=centre)
    out += textwrap.wrap(line, 98, subsequent_indent="  ")
    out.append(T("alarun.term.stack", stack=msg("alarun.term.cards", count=view["deck_size"]),
                 discard=msg("alarun.term.cards", count=len(view["discard"]))))
    if seat is not None:
        hand = _cards(view["hand"]) if view["hand"] else msg("alarun.term.hand.empty")
        out += textwrap.wrap(T("alarun.term.hand", cards=hand, colour=colour_message(view["secret_colour"])),
                             98, subsequent_indent="  ")
    final = view.get("breakdowns")
    for s in range(n):
        label = T("alarun.term.seat.you", seat=seat_arg(s)) if s == seat else seat_ref(s)
        if final:
            b = final[s]
            label = T("alarun.term.final", who=label, total=b["total"], potions=b["potions"],
                      centum_auri=b["centum_auri"], colour_bonus=b["colour_bonus"],
                      colour=colour_message(view["secret_colours"][s]), druid=card_message(b["druid"]),
                      rows=str(b["rows"]), columns=str(b["columns"]))
        else:
            label = T("alarun.term.so_far", who=label, points=view["potion_points"][s])
            if s != seat and view["known_hands"][s]:
                known = "alarun.term.known.placing" if phase == "placement" else "alarun.term.known"
                label = "; ".join([label, T(known, cards=_cards(view["known_hands"][s]))])
        out.append("")
        out += textwrap.wrap(label, 98, subsequent_indent="  ")
        mine = {tuple(p) for p in view.get("my_placements", [])} if s == seat else set()
        out.extend(_grid_lines(view["squares"][s], mine, show_open=(s == seat and phase == "placement"), lang=lang))
    if final:
        out.append("")
        out.append(T("alarun.term.winners", count=len(view["winners"]), seats=[seat_arg(w) for w in view["winners"]]))
    out.append("")
    out += textwrap.wrap(_legend(lang), 98, subsequent_indent="  ")
    if phase == "placement":
        out.append(_axes(lang))
    return render_text("\n".join(out), names, n, lang)
