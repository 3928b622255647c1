"""Plain-text rendering of an Amarok view: a person sees exactly their view, including the
cards on their own forehead that they cannot see (shown as ``[ ?? ]``).

Players are named by ``names`` (a sequence or a callable seat -> name; "seat n" without it):
the screen names seats with :func:`~nemeton.engine.log.seat_ref` and renders them last.
Every word comes from the game's catalogue (``amarok.term.*`` and the terms the event log
and the web table use) in ``lang`` ("en", "it" or "es"; :mod:`nemeton.i18n`).

The previous round's result comes first, as its own block, then the current round. A short
key explains the card notation and, while a claw waits for its target, how targets are named.
"""

from __future__ import annotations

from typing import Any, Mapping

from ...engine.log import Names, render_text, seat_ref
from ...i18n import Message, format_number, msg, seat, t
from .actions import ACTION_CODEC, action_message
from .events import COLOUR_IDS

OBJECTIVE_NAME = {"wolf_pack": "amarok.term.objective.wolf_pack", "lone_wolf": "amarok.term.objective.lone_wolf"}
OBJECTIVE_RULE = {"wolf_pack": "amarok.web.objective.wolf_pack.rule", "lone_wolf": "amarok.web.objective.lone_wolf.rule"}
SYMBOL_WORD = {name: f"amarok.web.symbol_short.{name}" for name in ("heart", "claw", "season", "trap")}
UNSEEN = "[ ?? ]"


def _colour(text: str) -> Message | str:
    return msg(COLOUR_IDS[text]) if text in COLOUR_IDS else text


def _symbol(name: str) -> Message | str:
    return msg(SYMBOL_WORD[name]) if name in SYMBOL_WORD else name


def card_text(card_id: str | None, cards: Mapping[str, Mapping[str, Any]], lang: str = "en") -> str:
    """``[R6 red 6 heart]`` (id, colour, value, symbol in the language's order); ``[ ?? ]``."""
    if card_id is None:
        return UNSEEN
    card = cards[card_id]
    args = {"code": card_id, "colour": _colour(card["colour"]), "value": str(card["value"])}
    if card["symbol"]:
        return t("amarok.term.card.symbol", lang, symbol=_symbol(card["symbol"]), **args)
    return t("amarok.term.card", lang, **args)


def _cards(ids, cards, lang: str) -> str:
    return " ".join(card_text(c, cards, lang) for c in ids)


def seats_text(seats: list[int], lang: str = "en") -> str:
    if not seats:
        return t("amarok.term.nobody", lang)
    return t("amarok.term.seats", lang, seats=[seat(s) for s in seats])


def _wrap(text: str, width: int = 98, indent: str = "  ") -> list[str]:
    import textwrap
    return textwrap.wrap(text, width, subsequent_indent=indent)


def team_text(team: list[int], lang: str = "en") -> str:
    return t("amarok.term.team", lang, a=seat(team[0]), b=seat(team[1]))


def winners_text(winners: list[int], teams: list[list[int]] | None, lang: str = "en") -> str:
    if not teams:
        return seats_text(winners, lang)
    won = [team for team in teams if team[0] in winners]
    if not won:
        return t("amarok.term.nobody", lang)
    return t("amarok.term.seats", lang, seats=[msg("amarok.term.team_of", team=msg("amarok.term.team", a=seat(a), b=seat(b)))
                                               for a, b in won])


def round_result(done: Mapping[str, Any], teams: list[list[int]] | None, lang: str = "en") -> list[str]:
    """The block telling how the last finished round ended (team mode: by team)."""
    num = lambda v: format_number(v, lang)  # noqa: E731
    if teams:  # the totals of a team's four cards, listed under each of its seats
        totals = t("amarok.term.team_totals", lang, totals=", ".join(
            t("amarok.term.team_total", lang, team=team_text(tm, lang), total=done["totals"][tm[0]]) for tm in teams))
        trapped = [team_text(tm, lang) for tm in teams if done["trapped"][tm[0]]]
    else:
        totals = t("amarok.term.totals", lang, totals="/".join(num(v) for v in done["totals"]))
        trapped = [seat_ref(p) for p, tr in enumerate(done["trapped"]) if tr]
    if done["reason"] == "mating":
        why = t("amarok.term.why.mating", lang, seat=seat(done["mating_seat"]))
    elif done["winners"]:
        why = t(OBJECTIVE_NAME[done["objective"]], lang) if done["objective"] in OBJECTIVE_NAME else done["objective"]
    elif teams:
        why = t("amarok.term.why.all_trapped.teams", lang)
    else:
        why = t("amarok.term.why.all_trapped", lang)
    args = dict(round=done["round"], winners=winners_text(done["winners"], teams, lang), why=why, totals=totals)
    if trapped:
        head = t("amarok.term.round_won.trapped", lang, trapped=t("amarok.term.seats", lang, seats=trapped), **args)
    else:
        head = t("amarok.term.round_won", lang, **args)
    fronts = " · ".join(f"{seat_ref(p)} " + (" ".join(c for c in front) or "--")
                        for p, front in enumerate(done["fronts"]))
    return _wrap(head) + _wrap("  " + t("amarok.term.fronts_at_end", lang, fronts=fronts), indent="    ")


def _hand(view, p: int, me, cards, lang: str) -> str:
    slots = []
    for k, slot in enumerate(view["hands"][p]):
        if slot is None:
            slots.append(t("amarok.term.slot.empty", lang, slot=k))
            continue
        if me is not None and (slot["facing"] == "owner") == (p == me):
            facing = msg("amarok.term.facing.you")
        elif slot["facing"] == "owner":
            facing = msg("amarok.term.facing.owner")
        else:
            facing = msg("amarok.term.facing.others")
        slots.append(t("amarok.term.slot", lang, slot=k, card=card_text(slot["card"], cards, lang), facing=facing))
    return "  ".join(slots) or "--"


def render(view: Mapping[str, Any], names: Names | None = None, *, lang: str = "en") -> str:
    return render_text(_screen(view, lang), names, view["players"], lang)


def _screen(view: Mapping[str, Any], lang: str = "en") -> str:
    cards = {c["id"]: c for c in view["cards"]}
    me = view["seat"]
    n = view["players"]
    teams = view["teams"]
    lines: list[str] = []
    done = view.get("last_round")
    if done:
        lines += round_result(done, teams, lang)
        lines.append("-" * 60)
    objective = view["objective"]
    head = dict(round=view["round"], count=view["rounds_to_win"])
    lines.append(t("amarok.term.header", lang, **head) if me is None
                 else t("amarok.term.header.seat", lang, seat=seat(me), **head))
    lines.append(t("amarok.term.objective", lang, objective=msg(OBJECTIVE_NAME[objective]),
                   rule=msg(OBJECTIVE_RULE[objective]), seat=seat(view["objective_holder"])))
    if teams:
        lines.append(t("amarok.term.teams", lang, teams=", ".join(
            t("amarok.term.team.yours", lang, team=team_text(tm, lang)) if me in tm else team_text(tm, lang)
            for tm in teams)))
    river = view["river"]
    lines.append(t("amarok.term.river", lang, cards=_cards(river, cards, lang)) if river
                 else t("amarok.term.river.empty", lang))
    bottom = view["deck_bottom"]
    if bottom:
        lines.append(t("amarok.term.deck.bottom", lang, count=view["deck_size"], cards=_cards(bottom, cards, lang)))
    else:
        lines.append(t("amarok.term.deck", lang, count=view["deck_size"]))
    for p in range(n):
        front = _cards(view["fronts"][p], cards, lang) or "--"
        total = sum(cards[c]["value"] for c in view["fronts"][p])
        line = "amarok.term.seat_line.you" if p == me else "amarok.term.seat_line"
        lines.append(t(line, lang, seat=seat(p), wins=view["scores"][p], hand=_hand(view, p, me, cards, lang)))
        lines.append(f"{'':>4}" + t("amarok.term.front", lang, cards=front, total=total))
    if teams:
        values = {c: cards[c]["value"] for c in cards}
        team_totals = [sum(values[c] for s in tm for c in view["fronts"][s]) for tm in teams]
        lines.append(t("amarok.term.team_totals_so_far", lang, totals=", ".join(
            t("amarok.term.team_total.yours" if me in tm else "amarok.term.team_total", lang,
              team=team_text(tm, lang), total=total) for tm, total in zip(teams, team_totals))))
    last = view.get("last")
    if last:
        action = ACTION_CODEC.from_json(last["action"])
        said = action_message(action)
        if said["id"] == "amarok.action.take_own" and last["seat"] != me:  # the mover's hand, not "your hand"
            said = msg("amarok.action.take_own.other", **said.get("args", {}))
        lines.append(t("amarok.term.last", lang, seat=seat(last["seat"]), action=said,
                       card=card_text(last["card"], cards, lang)))
    lines += _wrap(t("amarok.term.key", lang))
    if view["terminal"]:
        lines.append(t("amarok.term.game_over", lang, winners=winners_text(view["winners"], teams, lang)))
        return "\n".join(lines)
    turn = view["acting"][0]
    you = turn == me
    if view["phase"] == "claw":
        lines.append(t("amarok.term.to_play.claw.you" if you else "amarok.term.to_play.claw", lang, seat=seat(turn)))
        lines += _wrap(t("amarok.term.claw_targets", lang) if me is None
                       else t("amarok.term.claw_targets.own", lang, seat=seat(me)))
    else:
        lines.append(t("amarok.term.to_play.take.you" if you else "amarok.term.to_play.take", lang, seat=seat(turn)))
    return "\n".join(lines)
