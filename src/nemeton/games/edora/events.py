"""Edora's event log: the kinds of event the rules record, and one sentence per entry.

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

Who sees what: everything is public except what is drawn or laid face down: the three
tablets a player draws in the draft (V1) and the two put back under the deck (the drafter
only), and each herb laid face down while the layouts are arranged (V3: the arranger only,
until ``herbs_revealed`` tells everyone). ``event_text`` writes each sentence from the
viewer's entry alone, so a redacted entry can never be told in full.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from ...engine.log import default_event_text, number, seat_ref, sentence, verb, who
from .components import REWARD_GAINS, REWARD_NAMES, RUNE_NAMES, RUNE_UNIT_WORDS, herb_name, space_name

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


# ----- names people read (the tables live with the components) --------------------------
def _and(items: list[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _whose(seat: int | None, viewer: int | None, capital: bool = False) -> str:
    if seat is None:
        return "The game's" if capital else "the game's"
    if seat != viewer:
        return f"{seat_ref(seat)}'s"
    return "Your" if capital else "your"


def _own(seat: int | None, viewer: int | None) -> str:
    """The possessive of a sentence's own subject: "your" or "their"."""
    return "your" if seat is not None and seat == viewer else "their"


def _rewards(codes: list[str]) -> str:
    return _and([REWARD_GAINS.get(c, c) for c in codes])


def _prestige(e: Mapping[str, Any], lead: str = ": ") -> str:
    """The prestige an entry gives, after ``lead`` (": +2 prestige", " and 3 prestige")."""
    points = e.get("prestige", 0)
    sign = "" if lead == " and " else "+"
    return f"{lead}{sign}{number(points)} prestige" if points else ""


def _in_all(e: Mapping[str, Any], rewards: list[str], times: int = 1) -> str:
    """" (+N prestige in all)" where the prestige differs from 3 per VP listed (herbs, overflow)."""
    points = e.get("prestige", 0)
    if points == 3 * times * rewards.count("VP"):
        return ""
    return f" (+{number(points)} prestige in all)"


def _points(value: Any) -> str:
    return f"{number(value)} point" + ("" if value == 1 else "s")


def _subject(e: Mapping[str, Any], v: int | None) -> tuple[int | None, str]:
    """The seat an entry is about (the actor, else ``player``) and how to name it."""
    s = e["seat"] if e["seat"] is not None else e.get("player")
    return s, who(s, v, capital=True)


def _v(s: int | None, v: int | None, singular: str, plural: str) -> str:
    return verb(s, v, singular, plural)


# ----- one sentence per kind --------------------------------------------------------------
def _setup(e, v):
    s = e["start_player"]
    best = max(e["reserve_sums"])
    tie = " (a tie, drawn at random)" if e["tie"] else ""
    return sentence(f"{who(s, v, capital=True)} {_v(s, v, 'is', 'are')} the start player: the highest "
                    f"sum of reserve dice ({best}){tie}")


def _start_tablet(e, v):
    s, name = _subject(e, v)
    return sentence(f"{name} {_v(s, v, 'draws', 'draw')} tablet {e['tablet']} to start with")


def _draft_draw(e, v):
    s, name = _subject(e, v)
    if "tablets" in e:
        return sentence(f"{name} {_v(s, v, 'draws', 'draw')} tablets {_and(e['tablets'])} for the draft")
    return sentence(f"{name} {_v(s, v, 'draws', 'draw')} {e['count']} tablets blind for the draft")


def _keep_tablet(e, v):
    s, name = _subject(e, v)
    under = (f"{_and(e['under_tablets'])}" if "under_tablets" in e
             else f"{e['under']} tablet" + ("" if e["under"] == 1 else "s"))
    return sentence(f"{name} {_v(s, v, 'keeps', 'keep')} tablet {e['tablet']} and "
                    f"{_v(s, v, 'puts', 'put')} {under} under the deck")


def _arrange_herb(e, v):
    s, name = _subject(e, v)
    herb = herb_name(e["herb"]) if "herb" in e else "a herb"
    return sentence(f"{name} {_v(s, v, 'lays', 'lay')} {herb} face down in herb circle {e['circle'] + 1}")


def _herbs_revealed(e, v):
    return sentence("Everybody has arranged their herbs: the layouts are turned face up")


def _choose_start(e, v):
    s, name = _subject(e, v)
    return sentence(f"{name} {_v(s, v, 'puts', 'put')} {_own(s, v)} druid on start space {e['start']}, "
                    f"next to {e['sanctuary']}")


def _first_step(e, v):
    s, name = _subject(e, v)
    return sentence(f"First turn: {_whose(s, v)} druid steps onto {e['sanctuary']} for free")


def _move(e, v):
    s, name = _subject(e, v)
    return sentence(f"{name} {_v(s, v, 'moves', 'move')} from {e['from_sanctuary']} to {e['sanctuary']} "
                    f"for {e['cost']} provision" + ("" if e["cost"] == 1 else "s"))


def _forest_leap(e, v):
    s, name = _subject(e, v)
    return sentence(f"{name} {_v(s, v, 'leaps', 'leap')} through the forest from {e['from_sanctuary']} "
                    f"to {e['sanctuary']} for 1 provision")


def _emergency(e, v):
    s, name = _subject(e, v)
    why = " (no normal turn was possible)" if e["forced"] else ""
    return sentence(f"{name} {_v(s, v, 'takes', 'take')} an emergency turn{why}: +6 provisions "
                    f"and a die from the overview board")


def _place_die(e, v):
    s, name = _subject(e, v)
    turned = f" turned to {e['value']}" if e["value"] != e["die"] else ""
    return sentence(f"{name} {_v(s, v, 'places', 'place')} a {e['die']}{turned} on {e['sanctuary']} "
                    f"space {e['space']} ({space_name(e['space_action'])}) and "
                    f"{_v(s, v, 'pays', 'pay')} {e['cost']} provision" + ("" if e["cost"] == 1 else "s"))


def _last_round(e, v):
    s, name = _subject(e, v)
    their = "your" if s == v else "their"
    return sentence(f"{name} {_v(s, v, 'has', 'have')} placed {their} 13th die: this round is the last")


def _competition(e, v):
    s, name = _subject(e, v)
    return sentence(f"{name} {_v(s, v, 'wins', 'win')} the competition at {e['sanctuary']} with a "
                    f"{e['value']}{_prestige(e)}")


def _track(track: str):
    def text(e, v):
        s, name = _subject(e, v)
        steps = e["steps"]
        return sentence(f"{name} {_v(s, v, 'advances', 'advance')} {steps} step" + ("" if steps == 1 else "s")
                        + f" on the {track} track to {e['position']}" + _prestige(e, ", "))
    return text


def _mistletoe(e, v):
    s, name = _subject(e, v)
    brews = e["brews"]
    return sentence(f"{name} {_v(s, v, 'gains', 'gain')} {e['mistletoe']} mistletoe{_prestige(e, ' and ')} "
                    f"and may brew up to {brews} potion" + ("" if brews == 1 else "s"))


def _food_choice(e, v):
    s, name = _subject(e, v)
    if e["take"] == "dice":
        return sentence(f"{name} {_v(s, v, 'chooses', 'choose')} 3 dice from the overview board")
    return sentence(f"{name} {_v(s, v, 'takes', 'take')} {e['provisions']} provisions{_prestige(e, ' and ')}")


def _take_die(e, v):
    s, name = _subject(e, v)
    return sentence(f"{name} {_v(s, v, 'takes', 'take')} a {e['value']} from the overview board")


def _overview_dice(e, v):
    s, name = _subject(e, v)
    parts = []
    if e["values"]:
        dice = _and([f"a {x}" for x in e["values"]])
        parts.append(f"{_v(s, v, 'takes', 'take')} {dice} from the overview board")
    if e["missing"]:
        missing = e["missing"]
        dice = "die" if missing == 1 else "dice"
        parts.append(f"{_v(s, v, 'gains', 'gain')} {number(e['prestige'])} prestige for {missing} {dice} "
                     f"missing there")
    return sentence(f"{name} " + " and ".join(parts))


def _take_tablet(e, v):
    s, name = _subject(e, v)
    refill = (f"; {e['refill']} refills the slot" if e["refill"] else "; the deck is empty, the slot stays empty")
    return sentence(f"{name} {_v(s, v, 'takes', 'take')} tablet {e['tablet']} from oracle side {e['side']} "
                    f"and {_v(s, v, 'gains', 'gain')} {_rewards(e['rewards'])}{_in_all(e, e['rewards'])}{refill}")


def _brew(e, v):
    from .components import POTION_EFFECTS
    s, name = _subject(e, v)
    effect = POTION_EFFECTS.get(e["potion"], "")
    points = e.get("prestige", 0)
    extra = f" (+{number(points)} prestige in all)" if points and f"+{points} prestige" not in effect else ""
    return sentence(f"{name} {_v(s, v, 'brews', 'brew')} potion {e['potion']} for {e['cost']} "
                    f"mistletoe: {effect}{extra}")


def _stop(e, v):
    s, name = _subject(e, v)
    what = "brew no more potions" if e["what"] == "potions" else "raise no more dice"
    verb_ = what.replace("brew", "brews").replace("raise", "raises") if s != v else what
    return sentence(f"{name} {verb_}")


def _skip(e, v):
    s, name = _subject(e, v)
    return sentence(f"{name} {_v(s, v, 'leaves', 'leave')} the {e['what']} action unused")


def _take_gem(e, v):
    s, name = _subject(e, v)
    return sentence(f"{name} {_v(s, v, 'puts', 'put')} the {REWARD_NAMES.get(e['gem'], e['gem'])} gem on "
                    f"the {e['row']} row of {_own(s, v)} amulet and {_v(s, v, 'gains', 'gain')} "
                    f"{REWARD_GAINS.get(e['gem'], e['gem'])} {e['times']} times"
                    f"{_in_all(e, [e['gem']], e['times'])}")


def _standing_stone(e, v):
    s, name = _subject(e, v)
    return sentence(f"{name} {_v(s, v, 'places', 'place')} the standing stone covering "
                    f"{REWARD_NAMES.get(e['stone'], e['stone'])} and {_v(s, v, 'gains', 'gain')} "
                    f"{_rewards(e['rewards'])}{_in_all(e, e['rewards'])}")


def _rune_stone(e, v):
    s, name = _subject(e, v)
    one, many = RUNE_UNIT_WORDS.get(e["stone"], (e["stone"], e["stone"]))
    amount = e["amount"]
    points = e.get("prestige", 0)
    extra = f" (+{number(points)} prestige in all)" if points and e["stone"] != "PRESTIGE_POINT" else ""
    return sentence(f"{name} {_v(s, v, 'places', 'place')} the {RUNE_NAMES.get(e['stone'], e['stone'])} "
                    f"rune stone with the die counting {e['value']}: "
                    f"{amount} {one if amount == 1 else many}{extra}")


def _repeat_reward(e, v):
    s, name = _subject(e, v)
    return sentence(f"{name} {_v(s, v, 'takes', 'take')} {REWARD_GAINS.get(e['reward'], e['reward'])} once "
                    f"more with {herb_name(e['herb'])}{_in_all(e, [e['reward']])}")


def _raise_die(e, v):
    s, name = _subject(e, v)
    return sentence(f"{name} {_v(s, v, 'sets', 'set')} {_own(s, v)} {e['value']} on {e['sanctuary']} "
                    f"space {e['space']} to 6")


def _flip_herb(e, v):
    s, name = _subject(e, v)
    return sentence(f"{name} {_v(s, v, 'turns', 'turn')} {herb_name(e['herb'])} face up")


def _take_herb(e, v):
    s, name = _subject(e, v)
    return sentence(f"{name} {_v(s, v, 'takes', 'take')} {herb_name(e['herb'])} from the sickle track, face up")


def _activate_herb(e, v):
    s, name = _subject(e, v)
    return sentence(f"{name} {_v(s, v, 'turns', 'turn')} {herb_name(e['herb'])} face up and "
                    f"{herb_name(e['other'])} face down")


def _no_effect(e, v):
    s, name = _subject(e, v)
    return sentence(f"{_whose(s, v, capital=True)} {e['what']} has no effect: {e['reason']}")


def _fire_pit(e, v):
    s, name = _subject(e, v)
    extra = []
    if e.get("enclosing_bonus"):
        extra.append(f"{e['enclosing_bonus']} for the enclosing dice")
    if e.get("order_bonus"):
        extra.append(f"{e['order_bonus']} for closing one of the first three pits")
    bonus = f", and {_and(extra)} prestige" if extra else ""
    plain = 3 * e["rewards"].count("VP") + e.get("enclosing_bonus", 0) + e.get("order_bonus", 0)
    total = f" (+{number(e['prestige'])} prestige in all)" if e["prestige"] != plain else ""
    return sentence(f"{name} {_v(s, v, 'encloses', 'enclose')} fire pit {e['pit']} and "
                    f"{_v(s, v, 'gains', 'gain')} {_rewards(e['rewards'])}{bonus}{total}")


def _dolmen_link(e, v):
    s, name = _subject(e, v)
    a, z = e["sanctuaries"]
    length, bonus = e["length"], e["beige_bonus"]
    beige = (f" and {_v(s, v, 'takes', 'take')} a beige dolmen: 2 x {length} + {bonus} = {number(e['prestige'])}"
             if bonus else f": 2 x {length} = {number(e['prestige'])}")
    return sentence(f"{name} {_v(s, v, 'links', 'link')} the two dolmens of colour {e['colour']} ({a} and {z}) along "
                    f"{length} sanctuaries{beige} prestige")


def _herbs_released(e, v):
    s, name = _subject(e, v)
    herbs = [herb_name(h) for h in e["herbs"]]
    text = f"{_whose(s, v, capital=True)} sickle releases herb pair {e['pair']}"
    if e.get("active"):
        text += f": {herb_name(e['active'])}, the only one left, goes face up"
    elif herbs:
        text += f" ({_and(herbs)})"
    else:
        text += ", already empty"
    return sentence(text)


def _round_end(e, v):
    text = f"Round {e['round']} ends"
    reason = e.get("reason")
    if e["game_over"]:
        text += f" and so does the game ({reason})" if reason else " and so does the game"
    return sentence(text)


def _score_leftovers(e, v):
    s, name = _subject(e, v)
    dice = e["dice"]
    return sentence(f"Final step 1: {who(s, v)} {_v(s, v, 'scores', 'score')} "
                    f"{_points(e['points'])} for leftovers ({e['provisions']} provisions, {e['mistletoe']} "
                    f"mistletoe, {dice} reserve di" + ("e" if dice == 1 else "ce") + ")")


def _score_sickle(e, v):
    s, name = _subject(e, v)
    return sentence(f"Final step 2: {who(s, v)} {_v(s, v, 'scores', 'score')} "
                    f"{_points(e['points'])} for the sickle at {e['position']}")


def _score_tablets(e, v):
    s, name = _subject(e, v)
    met = f"met: {_and(e['met'])}" if e["met"] else "none met"
    unmet = f"; not met: {_and(e['unmet'])}" if e["unmet"] else ""
    return sentence(f"Final step 3: {who(s, v)} {_v(s, v, 'scores', 'score')} "
                    f"{_points(e['points'])} for tablets ({met}{unmet})")


def _score_amulet(e, v):
    s, name = _subject(e, v)
    rows = e["full_rows"]
    left = ", all three left slots filled" if e["left_column"] else ""
    return sentence(f"Final step 4: {who(s, v)} {_v(s, v, 'scores', 'score')} "
                    f"{_points(e['points'])} for the amulet ({rows} full row" + ("" if rows == 1 else "s")
                    + f"{left})")


def _score_sanctuaries(e, v):
    s, name = _subject(e, v)
    return sentence(f"Final step 5: {who(s, v)} {_v(s, v, 'collects', 'collect')} "
                    f"{e['collected']} dice and stones from the sanctuaries, times {e['multiplier']} for "
                    f"knowledge: {_points(e['points'])}")


def _final_score(e, v):
    s, name = _subject(e, v)
    return sentence(f"{name} {_v(s, v, 'finishes', 'finish')} with {_points(e['total'])} "
                    f"({number(e['prestige_track'])} on the prestige track + "
                    f"{number(e['total'] - e['prestige_track'])} in the final scoring)")


def _seats(seats: list[int], v: int | None) -> str:
    return _and([who(s, v) for s in seats])


def _tie_break(e, v):
    return sentence(f"{_seats(e['players'], v)} tie on {_points(e['total'])}: the player behind on the "
                    f"knowledge track wins (on the same space, the marker lower in the stack)")


def _game_won(e, v):
    w = e["winners"]
    names = _seats(w, v)
    if len(w) == 1:
        return sentence(f"{names} {_v(w[0], v, 'wins', 'win')} with {_points(e['total'])}")
    return sentence(f"{names} share the win with {_points(e['total'])}")


_TEXTS: dict[str, Callable[[Mapping[str, Any], int | None], str]] = {
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
assert set(_TEXTS) == set(EVENT_KINDS)


def event_text(entry: Mapping[str, Any], viewer: int | None) -> str:
    """One English sentence telling ``viewer`` (None = spectator) what the entry says. An entry
    whose fields do not fit its kind (a damaged save) is told plainly, field by field."""
    try:
        return _TEXTS[entry["kind"]](entry, viewer)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        return default_event_text(entry, viewer)


__all__ = ["EVENT_KINDS", "event_text"]
