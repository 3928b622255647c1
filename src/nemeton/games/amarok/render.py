"""Plain-text rendering of an Amarok view: a person sees exactly their view, including the
cards on their own forehead that they cannot see (shown as ``[ ?? ]``)."""

from __future__ import annotations

from typing import Any, Mapping

from .actions import ACTION_CODEC

OBJECTIVE_TEXT = {"wolf_pack": "WOLF PACK (highest total wins)",
                  "lone_wolf": "LONE WOLF (lowest total wins)"}


def card_text(card_id: str | None, cards: Mapping[str, Mapping[str, Any]]) -> str:
    if card_id is None:
        return "[ ?? ]"
    card = cards[card_id]
    symbol = f" {card['symbol']}" if card["symbol"] else ""
    return f"[{card_id} {card['colour']} {card['value']}{symbol}]"


def render(view: Mapping[str, Any]) -> str:
    cards = {c["id"]: c for c in view["cards"]}
    me = view["seat"]
    n = len(view["levels"])
    teams = view["teams"]
    lines = [
        f"Amarok - round {view['round']} - first to {view['rounds_to_win']} round wins",
        f"Objective: {OBJECTIVE_TEXT[view['objective']]}, held by seat {view['objective_holder']}",
    ]
    if teams:
        lines.append("Teams: " + ", ".join(" & ".join(f"seat {s}" for s in t) for t in teams))
    lines.append("River: " + (" ".join(card_text(c, cards) for c in view["river"]) or "(empty)"))
    bottom = view["deck_bottom"]
    deck = f"Deck: {view['deck_size']} card(s)"
    if bottom:
        deck += "; clawed to the bottom (upper to lowest): " + " ".join(card_text(c, cards) for c in bottom)
    lines.append(deck)
    for p in range(n):
        who = f"seat {p}" + (" (you)" if p == me else "")
        slots = []
        for k, slot in enumerate(view["hands"][p]):
            if slot is None:
                slots.append(f"{k}: --")
            else:
                facing = "facing you" if (slot["facing"] == "owner") == (p == me) else \
                    ("facing its owner" if slot["facing"] == "owner" else "facing the others")
                if me is None:
                    facing = "facing its owner" if slot["facing"] == "owner" else "facing the others"
                slots.append(f"{k}: {card_text(slot['card'], cards)} ({facing})")
        front = " ".join(card_text(c, cards) for c in view["fronts"][p]) or "--"
        total = sum(cards[c]["value"] for c in view["fronts"][p])
        lines.append(f"{who:>12}  wins {view['levels'][p]}  hand {'  '.join(slots) or '--'}")
        lines.append(f"{'':>12}  in front: {front}  (total {total})")
    last = view.get("last")
    if last:
        action = ACTION_CODEC.from_json(last["action"])
        lines.append(f"Last: seat {last['seat']}: {action} -> {card_text(last['card'], cards)}")
    done = view.get("last_round")
    if done:
        if done["reason"] == "mating":
            why = f"seat {done['mating_seat']} put a second heart in front"
        elif done["winners"]:
            why = f"{done['objective']} with totals {done['totals']}"
        else:
            why = "every player was trapped"
        won = ", ".join(f"seat {s}" for s in done["winners"]) or "nobody"
        lines.append(f"Round {done['round']} won by {won} ({why})")
    if view["phase"] == "over":
        lines.append("Game over. Winner(s): " + ", ".join(f"seat {s}" for s in view["winners"]))
    else:
        turn = view["current_player"]
        doing = "choose the claw's target" if view["phase"] == "claw" else "take a card"
        lines.append(f"To play: seat {turn}{' (you)' if turn == me else ''}: {doing}")
    return "\n".join(lines)
