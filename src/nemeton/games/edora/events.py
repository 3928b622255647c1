"""Edora's event log: the kinds of event the rules record, and one message per entry.

The rules record an event for every action a player chooses (the first event of that action,
with ``seat`` = the player) and for every automatic effect, in the order it happens: setup,
competitions, the automatic sanctuary actions, fire pits, dolmen links, herb releases, dice
taken or missing from the overview board, the last round, each round's end, the five final
scoring steps per player, the tie-break and the winner. An automatic event names the player
it concerns in ``player``; every event that moves a prestige marker carries the points in
``prestige`` (credited to ``player``, else to ``seat``), so the track never jumps unexplained.

Components are named as in actions and views (sanctuary ``S05``, fire pit ``F02``, tablet
``T4``, potion ``P3a``, herb ``H_LEAP``, reward ``VP``); the sentences spell them out with the
names of the rulebook ("the forest-leap herb", "3 prestige").

Each entry is told as a message (:mod:`nemeton.i18n`): an id per kind and variant, "you"
and another seat as separate ids (``edora.event.move.you`` / ``edora.event.move``), the
components as nested messages keyed by their codes (``edora.herb.H_LEAP``,
``edora.potion.P3a``, ``edora.space.KN``...), counts as plural messages. The catalogues are
``locale/<lang>/LC_MESSAGES/edora.po`` (English, Italian, Spanish). Two kinds carry English
prose recorded by older versions and still recorded (``no_effect.what``/``reason``,
``round_end.reason``): the known strings are read through the lookup tables below.

Who sees what: everything is public except what is drawn or laid face down: the three
tablets a player draws in the draft (V1) and the two put back under the deck (the drafter
only), and each herb laid face down while the layouts are arranged (V3: the arranger only,
until ``herbs_revealed`` tells everyone). ``event_message`` builds each message from the
viewer's entry alone, so a redacted entry can never be told in full.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Mapping

from ...engine.log import default_event_text
from ...i18n import Message, msg, render, seat
from .components import HERBS, POTIONS, REWARD_GAINS, RUNE_NAMES

EVENT_KINDS: dict[str, str] = {
    # setup
    "setup": "setup: start_player has the highest sum of reserve dice (reserve_sums per seat; "
             "tie: drawn at random among the tied)",
    "start_tablet": "setup: player draws tablet (kept face up; no oracle rewards)",
    "draft_draw": "V1 setup: player draws count tablets blind (tablets: the player only)",
    "keep_tablet": "V1 setup: seat keeps tablet face up and puts under (a count) tablets under the deck "
                   "(under_tablets: the seat only)",
    "arrange_herb": "V3 setup: seat lays a herb face down in herb circle circle (herb: the seat only)",
    "herbs_revealed": "V3 setup: every herb layout is turned face up (layouts: the 12 circles per seat)",
    "choose_start": "setup: seat puts the druid on start space start, next to sanctuary",
    # the turn
    "first_step": "player's first turn: the druid steps onto the start sanctuary for free",
    "move": "step 1: seat walks from from_sanctuary to sanctuary along the cheapest route, paying cost "
            "provisions",
    "forest_leap": "step 1 with the forest-leap herb: seat leaps from from_sanctuary to sanctuary (1 provision)",
    "emergency": "seat takes an emergency turn: +6 provisions and a die from the overview board "
                 "(forced: no normal turn was possible)",
    "place_die": "step 2: seat places reserve die die showing value on space space (space_action) "
                 "of sanctuary and pays cost provisions",
    "last_round": "player placed their 13th die: the current round is the last",
    "competition": "step 3: player holds the highest die (value) at sanctuary, which holds several dice: "
                   "+prestige (2)",
    "knowledge": "knowledge action or potion: player advances steps on the knowledge track to position "
                 "(prestige: 2 per step beyond the end)",
    "sickle": "sickle action: player advances steps on the sickle track to position "
              "(prestige: 2 per step beyond the end)",
    "mistletoe": "mistletoe action: player gains mistletoe (prestige: the mistletoe herb) and may brew "
                 "up to brews potions",
    "food_choice": "provisions action: seat takes 12 provisions (take=provisions; the provisions herb "
                   "adds 6 and prestige) or 3 dice from the overview board (take=dice)",
    "take_die": "seat moves a die showing value from the overview board to the reserve",
    "overview_dice": "player's dice owed from the overview board taken without a choice (values); "
                     "each one missing (missing) gives 2 prestige",
    "take_tablet": "tablet action: seat takes tablet from oracle side side, gains the side's oracle "
                   "rewards (rewards, prestige); the slot is refilled with refill (null: deck empty)",
    "brew": "seat brews potion, paying cost mistletoe; its immediate effects give prestige",
    "stop": "seat brews no more potions or raises no more dice (what)",
    "skip": "seat leaves the standing-stone or rune-stone action unused (what)",
    "take_gem": "amulet action: seat puts gem on the row row, gaining its reward times times (prestige)",
    "standing_stone": "standing-stone action: seat places the stone covering stone and gains rewards (prestige)",
    "rune_stone": "rune-stone action: seat places rune stone stone; the die counts value, giving amount "
                  "(prestige)",
    "repeat_reward": "the standing-stone or fire herb (herb): reward taken once more (prestige); seat or "
                     "player",
    "raise_die": "potion P1c/P6a: seat sets its die on space space of sanctuary from value to 6",
    "flip_herb": "potion P1b: seat turns herb face up",
    "take_herb": "potion P2a/P4c: seat takes herb from the sickle track, face up",
    "activate_herb": "step 7: of a released pair, seat turns herb face up and other face down",
    "no_effect": "an action or potion of player has no effect (what, reason)",
    "fire_pit": "step 5: player encloses fire pit pit and gains its rewards (prestige; summary scoring: "
                "enclosing_bonus and order_bonus included)",
    "dolmen_link": "step 6: player links the two colour dolmens (sanctuaries) along a path of length "
                   "sanctuaries: prestige = 2 per sanctuary + beige_bonus for the game's first three links",
    "herbs_released": "step 7: player's sickle releases herb pair pair (herbs still there; active: a single "
                      "survivor goes face up)",
    "round_end": "round round ends (game_over; reason: 13th die or the safety valve)",
    # final scoring
    "score_leftovers": "final step 1: player scores points for provisions (1 per 6), mistletoe and reserve dice",
    "score_sickle": "final step 2: player's sickle at position scores points",
    "score_tablets": "final step 3: player's tablets met (10 each) and unmet",
    "score_amulet": "final step 4: player's amulet: full_rows (10 each), left_column (+20)",
    "score_sanctuaries": "final step 5: player collects collected dice and stones, times multiplier",
    "final_score": "end: player's total = prestige_track (the prestige track) + the five final steps",
    "tie_break": "end: players tie on total; the one behind on knowledge (then lower in the stack) wins",
    "game_won": "end: winners with total",
}


# ----- components as nested messages (keyed by their codes) -------------------------------
class _Untold(Exception):
    """An entry whose fields do not fit its kind (a damaged save): told plainly instead."""


def _code(table, code: Any) -> str:
    if not isinstance(code, str) or code not in table:
        raise _Untold(code)
    return code


def _herb(code: Any) -> Message:
    """``H_LEAP`` -> "the forest-leap herb" (the article belongs to the language)."""
    return msg(f"edora.herb.{_code(HERBS, code)}")


def _gain(code: Any) -> Message:
    """A reward as gained: ``VP`` -> "3 prestige"."""
    return msg(f"edora.gain.{_code(REWARD_GAINS, code)}")


def _gains(codes: list) -> list:
    return [_gain(c) for c in codes]


def _bonus(code: Any) -> Message:
    """A reward as printed on a space (what a standing stone covers): ``VP`` -> "prestige"."""
    return msg(f"edora.reward.{_code(REWARD_GAINS, code)}")


def _gem(code: Any) -> Message:
    """``VP`` -> "the prestige gem"."""
    return msg(f"edora.gem.{_code(REWARD_GAINS, code)}")


def _rune(code: Any) -> Message:
    """``MIST`` -> "the mistletoe rune stone"."""
    return msg(f"edora.rune.{_code(RUNE_NAMES, code)}")


def _rune_amount(code: Any, amount: int) -> Message:
    """What a rune stone gives: "3 mistletoe", "1 die", "2 knowledge steps"."""
    return msg(f"edora.rune_amount.{_code(RUNE_NAMES, code)}", count=amount)


_ROWS = ("SUN", "MOON", "STAR")


def _row(name: Any) -> Any:
    """An amulet row: the standard board's three as messages; another board's row names
    (its own capitals) as they are written there."""
    if not isinstance(name, str):
        raise _Untold(name)
    return msg(f"edora.row.{name}") if name in _ROWS else name


_SPACE = re.compile(r"^(?:(FD|TB|SS|RS)|(KN|SI)(\d+)|MI(\d+)P(\d+)|AM-([A-Z]{1,12})-x(\d+))$")


def _space(code: Any) -> Any:
    """A space code in words: ``MI2P1`` -> "2 mistletoe, brew up to 1 potion"."""
    m = _SPACE.match(code) if isinstance(code, str) else None
    if m is None:
        return str(code)
    plain, track, steps, mist, brews, row, times = m.groups()
    if plain:
        return msg(f"edora.space.{plain}")
    if track:
        return msg(f"edora.space.{track}", steps=int(steps))
    if mist:
        return msg("edora.space.MI", mistletoe=_mistletoe_amount(int(mist)), count=int(brews))
    return msg("edora.space.AM", row=_row(row), times=int(times))


def _mistletoe_amount(amount: int) -> Message:
    """ "1 mistletoe", "3 mistletoe" (counted: other languages say "3 vischi")."""
    return msg("edora.mistletoe", count=amount)


def _potion(code: Any) -> Message:
    """A potion's effect: ``P3a`` -> "+10 prestige"."""
    return msg(f"edora.potion.{_code(POTIONS, code)}")


#: The prestige a potion's own effect names (its sentence adds the total only when it differs).
_POTION_PRESTIGE = {"P3a": 10, "P4b": 5, "P6c": 25}


def _points(value: Any) -> Message:
    """ "1 point", "12 points"."""
    return msg("edora.points", count=value)


# ----- English prose recorded in older entries (and still recorded): read as message ids --------
_NO_EFFECT_WHAT = {"tablet action": "tablet", "amulet action": "amulet",
                   "standing-stone action": "standing_stone", "rune-stone action": "rune_stone"}
_NO_EFFECT_POTION = re.compile(r"^potion (P[1-6][abc])$")
_NO_EFFECT_REASON = {
    "no tablet is left at the oracle site": "no_tablet",
    "every row is full": "rows_full",
    "no new type of gem is left": "no_gem",
    "every standing stone is already placed": "no_standing_stone",
    "every rune stone is already placed": "no_rune_stone",
    "no placed die of that player shows less than 6": "no_die_below_6",
    "no herb of that player is face down": "no_herb_face_down",
    "no herb is left on the sickle track": "no_herb_on_track",
}
_ROW_FULL = re.compile(r"^the ([A-Z]{1,12}) row is full$")
_END_REASON = {
    "a player has placed their 13th die": "last_die",
    "safety valve: 3 rounds without any die placed": "quiet_rounds",
    "safety valve: round 40 reached": "round_40",
}


def _no_effect_reason(reason: Any) -> Message:
    if reason in _NO_EFFECT_REASON:
        return msg(f"edora.no_effect.{_NO_EFFECT_REASON[reason]}")
    m = _ROW_FULL.match(reason) if isinstance(reason, str) else None
    if m is None:
        raise _Untold(reason)
    return msg("edora.no_effect.row_full", row=_row(m.group(1)))


# ----- who the sentence is about ----------------------------------------------------------------
def _subject(e: Mapping[str, Any]) -> int:
    """The seat an entry is about: the actor, else ``player``."""
    s = e["seat"] if e["seat"] is not None else e.get("player")
    if isinstance(s, bool) or not isinstance(s, int):
        raise _Untold(s)
    return s


def _told(name: str, s: int, v: int | None, **args: Any) -> Message:
    """Message ``edora.event.<name>.you`` for the viewer's own seat, else ``edora.event.<name>``
    with the seat as ``seat``."""
    if s == v:
        return msg(f"edora.event.{name}.you", **args)
    return msg(f"edora.event.{name}", seat=seat(s), **args)


def _about(name: str, e: Mapping[str, Any], v: int | None, **args: Any) -> Message:
    return _told(name, _subject(e), v, **args)


def _seats(seats: list, v: int | None) -> list:
    """Seats for a list ("seat 0, you and seat 2"): the viewer as "you" ("You" first)."""
    out: list = []
    for i, s in enumerate(seats):
        if s == v and i == 0:
            out.append(msg("edora.you.start"))
        elif s == v:
            out.append(msg("edora.you"))
        else:
            out.append(seat(s))
    return out


def _in_all(e: Mapping[str, Any], rewards: list, times: int = 1) -> bool:
    """Whether a sentence adds "(+N prestige in all)": the prestige differs from 3 per VP
    listed (herbs, overflow)."""
    return e.get("prestige", 0) != 3 * times * rewards.count("VP")


# ----- one message per kind --------------------------------------------------------------------
def _setup(e, v):
    tie = ".tie" if e["tie"] else ""
    return _told("setup" + tie, e["start_player"], v, best=max(e["reserve_sums"]))


def _start_tablet(e, v):
    return _about("start_tablet", e, v, tablet=e["tablet"])


def _draft_draw(e, v):
    if "tablets" in e:
        return _about("draft_draw.tablets", e, v, tablets=list(e["tablets"]))
    return _about("draft_draw", e, v, count=e["count"])


def _keep_tablet(e, v):
    under = list(e["under_tablets"]) if "under_tablets" in e else msg("edora.tablets", count=e["under"])
    return _about("keep_tablet", e, v, tablet=e["tablet"], under=under)


def _arrange_herb(e, v):
    herb = _herb(e["herb"]) if "herb" in e else msg("edora.herb.hidden")
    return _about("arrange_herb", e, v, herb=herb, circle=e["circle"] + 1)


def _herbs_revealed(e, v):
    return msg("edora.event.herbs_revealed")


def _choose_start(e, v):
    return _about("choose_start", e, v, start=e["start"], sanctuary=e["sanctuary"])


def _first_step(e, v):
    return _about("first_step", e, v, sanctuary=e["sanctuary"])


def _move(e, v):
    return _about("move", e, v, origin=e["from_sanctuary"], sanctuary=e["sanctuary"], count=e["cost"])


def _forest_leap(e, v):
    return _about("forest_leap", e, v, origin=e["from_sanctuary"], sanctuary=e["sanctuary"])


def _emergency(e, v):
    return _about("emergency.forced" if e["forced"] else "emergency", e, v)


def _place_die(e, v):
    turned = e["value"] != e["die"]
    args = dict(die=e["die"], sanctuary=e["sanctuary"], space=e["space"], action=_space(e["space_action"]),
                count=e["cost"])
    if turned:
        args["value"] = e["value"]
    return _about("place_die.turned" if turned else "place_die", e, v, **args)


def _last_round(e, v):
    return _about("last_round", e, v)


def _competition(e, v):
    points = e.get("prestige", 0)
    if points:
        return _about("competition.prestige", e, v, sanctuary=e["sanctuary"], value=e["value"], prestige=points)
    return _about("competition", e, v, sanctuary=e["sanctuary"], value=e["value"])


def _track(track: str):
    def told(e, v):
        points = e.get("prestige", 0)
        args = dict(count=e["steps"], position=e["position"])
        if points:
            return _about(f"{track}.prestige", e, v, prestige=points, **args)
        return _about(track, e, v, **args)
    return told


def _mistletoe(e, v):
    points = e.get("prestige", 0)
    if points:
        return _about("mistletoe.prestige", e, v, mistletoe=_mistletoe_amount(e["mistletoe"]), prestige=points,
                      count=e["brews"])
    return _about("mistletoe", e, v, mistletoe=_mistletoe_amount(e["mistletoe"]), count=e["brews"])


def _food_choice(e, v):
    if e["take"] == "dice":
        return _about("food_choice.dice", e, v)
    points = e.get("prestige", 0)
    if points:
        return _about("food_choice.prestige", e, v, provisions=e["provisions"], prestige=points)
    return _about("food_choice", e, v, provisions=e["provisions"])


def _take_die(e, v):
    return _about("take_die", e, v, value=e["value"])


def _overview_dice(e, v):
    values, missing = e["values"], e["missing"]
    dice = [msg("edora.die", value=x) for x in values]
    if values and missing:
        return _about("overview_dice.both", e, v, dice=dice, prestige=e["prestige"], count=missing)
    if missing:
        return _about("overview_dice.missing", e, v, prestige=e["prestige"], count=missing)
    if values:
        return _about("overview_dice", e, v, dice=dice)
    raise _Untold(e)


def _take_tablet(e, v):
    refill = (msg("edora.refill", tablet=e["refill"]) if e["refill"] else msg("edora.refill.empty"))
    args = dict(tablet=e["tablet"], side=e["side"], rewards=_gains(e["rewards"]), refill=refill)
    if _in_all(e, e["rewards"]):
        return _about("take_tablet.in_all", e, v, prestige=e.get("prestige", 0), **args)
    return _about("take_tablet", e, v, **args)


def _brew(e, v):
    points = e.get("prestige", 0)
    args = dict(potion=e["potion"], cost=_mistletoe_amount(e["cost"]), effect=_potion(e["potion"]))
    if points and points != _POTION_PRESTIGE.get(e["potion"]):
        return _about("brew.in_all", e, v, prestige=points, **args)
    return _about("brew", e, v, **args)


def _stop(e, v):
    return _about("stop.potions" if e["what"] == "potions" else "stop.dice", e, v)


_SKIPPED = {"standing-stone": "standing_stone", "rune-stone": "rune_stone"}


def _skip(e, v):
    return _about(f"skip.{_SKIPPED[_code(_SKIPPED, e['what'])]}", e, v)


def _take_gem(e, v):
    args = dict(gem=_gem(e["gem"]), row=_row(e["row"]), gain=_gain(e["gem"]), count=e["times"])
    if _in_all(e, [e["gem"]], e["times"]):
        return _about("take_gem.in_all", e, v, prestige=e.get("prestige", 0), **args)
    return _about("take_gem", e, v, **args)


def _standing_stone(e, v):
    args = dict(stone=_bonus(e["stone"]), rewards=_gains(e["rewards"]))
    if _in_all(e, e["rewards"]):
        return _about("standing_stone.in_all", e, v, prestige=e.get("prestige", 0), **args)
    return _about("standing_stone", e, v, **args)


def _rune_stone(e, v):
    points = e.get("prestige", 0)
    args = dict(rune=_rune(e["stone"]), value=e["value"], amount=_rune_amount(e["stone"], e["amount"]))
    if points and e["stone"] != "PRESTIGE_POINT":
        return _about("rune_stone.in_all", e, v, prestige=points, **args)
    return _about("rune_stone", e, v, **args)


def _repeat_reward(e, v):
    args = dict(gain=_gain(e["reward"]), herb=_herb(e["herb"]))
    if _in_all(e, [e["reward"]]):
        return _about("repeat_reward.in_all", e, v, prestige=e.get("prestige", 0), **args)
    return _about("repeat_reward", e, v, **args)


def _raise_die(e, v):
    return _about("raise_die", e, v, value=e["value"], sanctuary=e["sanctuary"], space=e["space"])


def _flip_herb(e, v):
    return _about("flip_herb", e, v, herb=_herb(e["herb"]))


def _take_herb(e, v):
    return _about("take_herb", e, v, herb=_herb(e["herb"]))


def _activate_herb(e, v):
    return _about("activate_herb", e, v, herb=_herb(e["herb"]), other=_herb(e["other"]))


def _no_effect(e, v):
    what, reason = e["what"], _no_effect_reason(e["reason"])
    if what in _NO_EFFECT_WHAT:
        return _about(f"no_effect.{_NO_EFFECT_WHAT[what]}", e, v, reason=reason)
    m = _NO_EFFECT_POTION.match(what) if isinstance(what, str) else None
    if m is None:
        raise _Untold(what)
    return _about("no_effect.potion", e, v, potion=m.group(1), reason=reason)


def _fire_pit(e, v):
    bonus = []
    if e.get("enclosing_bonus"):
        bonus.append(msg("edora.fire_bonus.enclosing", prestige=e["enclosing_bonus"]))
    if e.get("order_bonus"):
        bonus.append(msg("edora.fire_bonus.order", prestige=e["order_bonus"]))
    plain = 3 * e["rewards"].count("VP") + e.get("enclosing_bonus", 0) + e.get("order_bonus", 0)
    name = "fire_pit" + (".bonus" if bonus else "") + (".in_all" if e["prestige"] != plain else "")
    args: dict[str, Any] = dict(pit=e["pit"], rewards=_gains(e["rewards"]))
    if bonus:
        args["bonus"] = bonus
    if e["prestige"] != plain:
        args["prestige"] = e["prestige"]
    return _about(name, e, v, **args)


def _dolmen_link(e, v):
    a, z = e["sanctuaries"]
    args = dict(colour=e["colour"], first=a, second=z, length=e["length"], prestige=e["prestige"])
    if e["beige_bonus"]:
        return _about("dolmen_link.beige", e, v, bonus=e["beige_bonus"], **args)
    return _about("dolmen_link", e, v, **args)


def _herbs_released(e, v):
    pair = e["pair"]
    if e.get("active"):
        return _about("herbs_released.active", e, v, pair=pair, herb=_herb(e["active"]))
    if e["herbs"]:
        return _about("herbs_released", e, v, pair=pair, herbs=[_herb(h) for h in e["herbs"]])
    return _about("herbs_released.empty", e, v, pair=pair)


def _round_end(e, v):
    if not e["game_over"]:
        return msg("edora.event.round_end", round=e["round"])
    reason = e.get("reason")
    if not reason:
        return msg("edora.event.round_end.game_over", round=e["round"])
    if reason not in _END_REASON:
        raise _Untold(reason)
    return msg("edora.event.round_end.game_over.reason", round=e["round"],
               reason=msg(f"edora.end_reason.{_END_REASON[reason]}"))


def _score_leftovers(e, v):
    return _about("score_leftovers", e, v, points=_points(e["points"]), provisions=e["provisions"],
                  mistletoe=_mistletoe_amount(e["mistletoe"]), dice=msg("edora.reserve_dice", count=e["dice"]))


def _score_sickle(e, v):
    return _about("score_sickle", e, v, points=_points(e["points"]), position=e["position"])


def _score_tablets(e, v):
    met, unmet = list(e["met"]), list(e["unmet"])
    if met:
        detail = msg("edora.tablets_scored.met_unmet", met=met, unmet=unmet) if unmet else \
            msg("edora.tablets_scored.met", met=met)
    else:
        detail = msg("edora.tablets_scored.none_unmet", unmet=unmet) if unmet else msg("edora.tablets_scored.none")
    return _about("score_tablets", e, v, points=_points(e["points"]), detail=detail)


def _score_amulet(e, v):
    name = "score_amulet.left" if e["left_column"] else "score_amulet"
    return _about(name, e, v, points=_points(e["points"]), rows=msg("edora.full_rows", count=e["full_rows"]))


def _score_sanctuaries(e, v):
    return _about("score_sanctuaries", e, v, collected=e["collected"], multiplier=e["multiplier"],
                  points=_points(e["points"]))


def _final_score(e, v):
    return _about("final_score", e, v, points=_points(e["total"]), track=e["prestige_track"],
                  rest=e["total"] - e["prestige_track"])


def _tie_break(e, v):
    players = list(e["players"])
    name = "edora.event.tie_break" + (".you" if v in players else "")
    return msg(name, players=_seats(players, v), points=_points(e["total"]))


def _game_won(e, v):
    w = list(e["winners"])
    if len(w) == 1:
        return _told("game_won", w[0], v, points=_points(e["total"]))
    name = "edora.event.game_won.shared" + (".you" if v in w else "")
    return msg(name, players=_seats(w, v), points=_points(e["total"]))


_MESSAGES: dict[str, Callable[[Mapping[str, Any], int | None], Message]] = {
    "setup": _setup, "start_tablet": _start_tablet, "draft_draw": _draft_draw, "keep_tablet": _keep_tablet,
    "arrange_herb": _arrange_herb, "herbs_revealed": _herbs_revealed, "choose_start": _choose_start,
    "first_step": _first_step, "move": _move, "forest_leap": _forest_leap, "emergency": _emergency,
    "place_die": _place_die, "last_round": _last_round, "competition": _competition,
    "knowledge": _track("knowledge"), "sickle": _track("sickle"), "mistletoe": _mistletoe,
    "food_choice": _food_choice, "take_die": _take_die, "overview_dice": _overview_dice,
    "take_tablet": _take_tablet, "brew": _brew, "stop": _stop, "skip": _skip, "take_gem": _take_gem,
    "standing_stone": _standing_stone, "rune_stone": _rune_stone, "repeat_reward": _repeat_reward,
    "raise_die": _raise_die, "flip_herb": _flip_herb, "take_herb": _take_herb,
    "activate_herb": _activate_herb, "no_effect": _no_effect, "fire_pit": _fire_pit,
    "dolmen_link": _dolmen_link, "herbs_released": _herbs_released, "round_end": _round_end,
    "score_leftovers": _score_leftovers, "score_sickle": _score_sickle, "score_tablets": _score_tablets,
    "score_amulet": _score_amulet, "score_sanctuaries": _score_sanctuaries, "final_score": _final_score,
    "tie_break": _tie_break, "game_won": _game_won,
}
assert set(_MESSAGES) == set(EVENT_KINDS)


def event_message(entry: Mapping[str, Any], viewer: int | None) -> Message | None:
    """The entry as a message for ``viewer`` (None = spectator), from that viewer's entry
    alone. None for an entry whose fields do not fit its kind (a damaged save): the engine
    then tells it plainly, field by field."""
    try:
        return _MESSAGES[entry["kind"]](entry, viewer)
    except (_Untold, KeyError, TypeError, ValueError, IndexError, AttributeError):
        return None


def event_text(entry: Mapping[str, Any], viewer: int | None) -> str:
    """The entry as one English sentence (with seat markers), as the engine's ``event_text``
    writes it."""
    message = event_message(entry, viewer)
    return render(message, "en") if message is not None else default_event_text(entry, viewer)


__all__ = ["EVENT_KINDS", "event_message", "event_text"]
