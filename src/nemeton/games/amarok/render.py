"""Plain-text rendering of an Amarok view: a person sees exactly their view, including the
cards on their own forehead that they cannot see (shown as ``[ ?? ]``).

Players are named by ``names`` (a sequence or a callable seat -> name; "seat n" without it):
the screen names seats with :func:`~nemeton.engine.log.seat_ref` and renders them last.

The previous round's result comes first, as its own block, then the current round. A short
key explains the card notation and, while a claw waits for its target, how targets are named.
"""

from __future__ import annotations

from typing import Any, Mapping

from ...engine.log import Names, action_marked, number, render_text, seat_ref
from .actions import ACTION_CODEC

OBJECTIVE_NAME = {"wolf_pack": "WOLF PACK", "lone_wolf": "LONE WOLF"}
OBJECTIVE_RULE = {"wolf_pack": "highest total wins", "lone_wolf": "lowest total wins"}

KEY = ("Cards: [R6 red 6 heart] = id, colour, value, symbol; ?? = a card you cannot see. "
       "heart: two in front of one player win the round at once · claw: send any other card to "
       "the bottom of the deck · season: flip the objective · trap: cannot win this round.")


def card_text(card_id: str | None, cards: Mapping[str, Mapping[str, Any]]) -> str:
    if card_id is None:
        return "[ ?? ]"
    card = cards[card_id]
    symbol = f" {card['symbol']}" if card["symbol"] else ""
    return f"[{card_id} {card['colour']} {card['value']}{symbol}]"


def seats_text(seats: list[int]) -> str:
    names = [seat_ref(s) for s in seats]
    return " and ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else (names[0] if names else "nobody")


def _wrap(text: str, width: int = 98, indent: str = "  ") -> list[str]:
    import textwrap
    return textwrap.wrap(text, width, subsequent_indent=indent)


def team_text(team: list[int]) -> str:
    return " & ".join(seat_ref(s) for s in team)


def winners_text(winners: list[int], teams: list[list[int]] | None) -> str:
    if not teams:
        return seats_text(winners)
    won = [t for t in teams if t[0] in winners]
    return " and ".join(f"the team of {team_text(t)}" for t in won) or "nobody"


def round_result(done: Mapping[str, Any], teams: list[list[int]] | None) -> list[str]:
    """The block telling how the last finished round ended (team mode: by team)."""
    objective = OBJECTIVE_NAME.get(done["objective"], done["objective"])
    if teams:  # the totals of a team's four cards, listed under each of its seats
        totals = "team totals " + ", ".join(f"{team_text(t)} {number(done['totals'][t[0]])}" for t in teams)
        trapped = [team_text(t) for t in teams if done["trapped"][t[0]]]
    else:
        totals = "totals " + "/".join(number(t) for t in done["totals"])
        trapped = [seat_ref(p) for p, t in enumerate(done["trapped"]) if t]
    if done["reason"] == "mating":
        why = f"mating: {seat_ref(done['mating_seat'])} put a second heart in front"
    elif done["winners"]:
        why = objective
    else:
        why = f"every {'team' if teams else 'player'} was trapped"
    head = f"Round {done['round']} won by {winners_text(done['winners'], teams)} — {why}, {totals}"
    if trapped:
        head += "; trapped: " + " and ".join(trapped)
    fronts = " · ".join(f"{seat_ref(p)} " + (" ".join(c for c in front) or "--")
                        for p, front in enumerate(done["fronts"]))
    return _wrap(head) + _wrap(f"  cards in front at the end: {fronts}", indent="    ")


def _hand(view, p: int, me, cards) -> str:
    slots = []
    for k, slot in enumerate(view["hands"][p]):
        if slot is None:
            slots.append(f"slot {k}: --")
            continue
        if me is None:
            facing = "facing its owner" if slot["facing"] == "owner" else "facing the others"
        elif (slot["facing"] == "owner") == (p == me):
            facing = "facing you"
        else:
            facing = "facing its owner" if slot["facing"] == "owner" else "facing the others"
        slots.append(f"slot {k}: {card_text(slot['card'], cards)} ({facing})")
    return "  ".join(slots) or "--"


def render(view: Mapping[str, Any], names: Names | None = None) -> str:
    return render_text(_screen(view), names, view["players"])


def _screen(view: Mapping[str, Any]) -> str:
    cards = {c["id"]: c for c in view["cards"]}
    me = view["seat"]
    n = view["players"]
    teams = view["teams"]
    lines: list[str] = []
    done = view.get("last_round")
    if done:
        lines += round_result(done, teams)
        lines.append("-" * 60)
    objective = view["objective"]
    lines.append(f"Amarok - round {view['round']} - first to {view['rounds_to_win']} round wins"
                 + (f" - you are {seat_ref(me)}" if me is not None else ""))
    lines.append(f"Objective: {OBJECTIVE_NAME[objective]} ({OBJECTIVE_RULE[objective]}); "
                 f"the objective card is held by {seat_ref(view['objective_holder'])}")
    if teams:
        lines.append("Teams (a team's total is its four cards): "
                     + ", ".join(team_text(t) + (" (yours)" if me in t else "") for t in teams))
    lines.append("River: " + (" ".join(card_text(c, cards) for c in view["river"]) or "(empty)"))
    bottom = view["deck_bottom"]
    deck = f"Deck: {view['deck_size']} card(s)"
    if bottom:
        deck += "; clawed to the bottom (upper to lowest): " + " ".join(card_text(c, cards) for c in bottom)
    lines.append(deck)
    for p in range(n):
        who = seat_ref(p) + (" (you)" if p == me else "")
        front = " ".join(card_text(c, cards) for c in view["fronts"][p]) or "--"
        total = sum(cards[c]["value"] for c in view["fronts"][p])
        lines.append(f"{who}: wins {number(view['scores'][p])}  hand {_hand(view, p, me, cards)}")
        lines.append(f"{'':>4}in front: {front}  (total {number(total)})")
    if teams:
        values = {c: cards[c]["value"] for c in cards}
        team_totals = [sum(values[c] for s in t for c in view["fronts"][s]) for t in teams]
        lines.append("Team totals so far: " + ", ".join(
            f"{team_text(t)}{' (yours)' if me in t else ''} {number(total)}" for t, total in zip(teams, team_totals)))
    last = view.get("last")
    if last:
        action = ACTION_CODEC.from_json(last["action"])
        lines.append(f"Last: {seat_ref(last['seat'])}: {action_marked(action)} -> {card_text(last['card'], cards)}")
    lines += _wrap(KEY)
    if view["terminal"]:
        lines.append("Game over. Winner(s): " + winners_text(view["winners"], teams))
        return "\n".join(lines)
    turn = view["acting"][0]
    if view["phase"] == "claw":
        lines.append(f"To play: {seat_ref(turn)}{' (you)' if turn == me else ''}: choose the claw's target")
        own = f"; your own hand is {seat_ref(me)}'s" if me is not None else ""
        lines += _wrap(f"Claw targets: any card but this claw. \"<player>'s hand slot K\" is slot K of "
                       f"that player's hand as listed above{own}; the card goes to the bottom of the deck, "
                       f"seen by all.")
    else:
        hint = " (\"own hand slot K\" = slot K of your hand above, even a ??)" if turn == me else ""
        lines.append(f"To play: {seat_ref(turn)}{' (you)' if turn == me else ''}: take a card{hint}")
    return "\n".join(lines)
