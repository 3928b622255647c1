"""Alarún's event log: the kinds of event the rules record, and one sentence per entry.

The rules (:mod:`.rules`) record an event for every action and for every automatic effect:
the deals, the first pass that takes Alarún, the end of the action phase, the reveal of the
round's placements, the centre between rounds, and the final scoring line by line. The
entries' fields name cards as actions and views do (``dragon_eggs:blue``); the sentences name
them as the rulebook does ("Dragon eggs (blue)", "Centum auri", "the druid apprentice"), and
seats with :func:`~nemeton.engine.log.seat_ref`. Cells are offsets from the druid.

Who sees what: everything is public except the cards dealt to a hand and the secret colour
card (their owner only), and a placement's card and cell (the placer only, until everyone has
placed: then ``placements_revealed`` tells everyone). ``event_text`` writes each sentence
from the viewer's entry alone, so a redacted entry can never be told in full.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from ...engine.log import number, seat_ref, sentence, verb, who
from .components import COLOURS, HAND_SIZE, INGREDIENTS, ROUNDS

EVENT_KINDS: dict[str, str] = {
    "round_started": "a round begins; start_player starts it (round 1: seat 0; later: who passed first)",
    "centre_dealt": "cards turned face up in the centre (cards), face_down more beside them (2 players)",
    "hand_dealt": "player takes count cards from the stack (cards: the player only)",
    "colour_dealt": "setup: player takes a secret colour card from Alarún (colour: the player only)",
    "swap": "seat gives a hand card (give) to the centre and takes a face-up centre card (take)",
    "pass": "seat passes",
    "swap_all_and_pass": "seat gives its whole hand (gave) for the face-up centre cards (took); a pass",
    "flip": "2 players: seat discards the face-up centre (discarded) and turns the face-down cards up (turned_up)",
    "alarun_taken": "player passed first and takes Alarún; the seats in one_more have one more action each (A4)",
    "action_cap_reached": "the round's safety cap (A9) is reached: the only action left is to pass",
    "placement_started": "the action phase is over: every player places their cards at once (A3)",
    "place": "seat places its placed-th card of the round (card, x, y: the seat only, until the reveal)",
    "placements_revealed": "once everyone has placed: the cards player placed this round, with their cells",
    "centre_discarded": "2-3 players, between rounds: the centre cards (cards) and face-down ones (face_down) "
                        "go to the open discard pile",
    "centre_kept": "4 players, between rounds: the centre cards (cards) stay",
    "druid_value": "end: the card player's druid apprentice counts as (card)",
    "potion_scored": "end: a row (A-E) or column (F-J) of player's square, its strongest potion and its points",
    "centum_auri_scored": "end: player's points for the Centum auri (10, or 0 without it)",
    "colour_bonus": "end: player's secret colour revealed, its cards in the square and their bonus points",
    "final_score": "end: player's total = potions + Centum auri + colour bonus",
    "game_won": "end: the winner(s) (total; ties broken on potion points, then shared)",
}


# ----- pieces of sentences -------------------------------------------------------------------
def _and(items: list[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _whose(seat: int, viewer: int | None, capital: bool = False) -> str:
    if seat != viewer:
        return f"{seat_ref(seat)}'s"
    return "Your" if capital else "your"


# The ingredients as the rulebook names them (its list of components).
INGREDIENT_WORDS = {"fungi_magica": "Fungi magica", "moon_berries": "Moon berries", "calendula": "Calendula",
                    "phoenix_feathers": "Phoenix feathers", "dragon_eggs": "Dragon eggs",
                    "mandrake": "Mandrake", "myrrh": "Myrrh"}
assert set(INGREDIENT_WORDS) == set(INGREDIENTS)


def card_words(card: str) -> str:
    """A card as the rulebook names it: ``fungi_magica:orange`` -> "Fungi magica (orange)",
    ``centum_auri`` -> "Centum auri", ``druid`` -> "the druid apprentice"."""
    if card == "centum_auri":
        return "Centum auri"
    if card == "druid":
        return "the druid apprentice"
    ingredient, _, colour = str(card).partition(":")
    if ingredient in INGREDIENT_WORDS and colour in COLOURS:
        return f"{INGREDIENT_WORDS[ingredient]} ({colour})"
    return str(card)


def _cards(cards) -> str:
    return ", ".join(card_words(c) for c in cards)


def _cell(x: int, y: int) -> str:
    def signed(v: int) -> str:
        return f"{v:+d}" if v else "0"
    return f"({signed(x)},{signed(y)})"


def _points(value: Any) -> str:
    return f"{number(value)} point" + ("" if value == 1 else "s")


_ORDINALS = ("1st", "2nd", "3rd", "4th", "5th")


def _words(name: str) -> str:
    return name.replace("_", " ")


# ----- one sentence per kind ---------------------------------------------------------------
def _round_started(e: Mapping[str, Any], v: int | None) -> str:
    s = e["start_player"]
    text = f"Round {e['round']} of {ROUNDS} begins: {who(s, v)} {verb(s, v, 'starts', 'start')}"
    if e["round"] > 1:
        text += f", as the first to pass last round, and {verb(s, v, 'puts', 'put')} Alarún back on the stack"
    return sentence(text)


def _centre_dealt(e, v):
    text = f"Dealt face up to the centre: {_cards(e['cards'])}"
    if e["face_down"]:
        text += f"; {e['face_down']} more cards lie face down beside them"
    return sentence(text)


def _hand_dealt(e, v):
    p = e["player"]
    text = f"{who(p, v, capital=True)} {verb(p, v, 'takes', 'take')} {e['count']} cards from the stack"
    if "cards" in e:
        text += ": " + _cards(e["cards"])
    return sentence(text)


def _colour_dealt(e, v):
    p = e["player"]
    if "colour" in e:
        return sentence(f"{who(p, v, capital=True)} {verb(p, v, 'takes', 'take')} the colour card "
                        f"{e['colour']} from Alarún; it stays secret until the end")
    return sentence(f"{who(p, v, capital=True)} {verb(p, v, 'takes', 'take')} a colour card from Alarún "
                    f"and {verb(p, v, 'keeps', 'keep')} it secret")


def _swap(e, v):
    s = e["seat"]
    return sentence(f"{who(s, v, capital=True)} {verb(s, v, 'swaps', 'swap')}: "
                    f"{verb(s, v, 'gives', 'give')} {card_words(e['give'])} to the centre and "
                    f"{verb(s, v, 'takes', 'take')} {card_words(e['take'])}")


def _pass(e, v):
    s = e["seat"]
    return sentence(f"{who(s, v, capital=True)} {verb(s, v, 'passes', 'pass')}")


def _swap_all_and_pass(e, v):
    s = e["seat"]
    return sentence(f"{who(s, v, capital=True)} {verb(s, v, 'swaps', 'swap')} all and "
                    f"{verb(s, v, 'passes', 'pass')}: {verb(s, v, 'gives', 'give')} {_cards(e['gave'])} "
                    f"to the centre and {verb(s, v, 'takes', 'take')} {_cards(e['took'])}")


def _flip(e, v):
    s = e["seat"]
    return sentence(f"{who(s, v, capital=True)} {verb(s, v, 'flips', 'flip')}: "
                    f"{verb(s, v, 'discards', 'discard')} {_cards(e['discarded'])} from the centre and "
                    f"{verb(s, v, 'turns', 'turn')} up {_cards(e['turned_up'])}")


def _alarun_taken(e, v):
    p = e["player"]
    rest = e["one_more"]
    others = _and([who(s, v) for s in rest])
    has = verb(rest[0], v, "has", "have") if len(rest) == 1 else "have"
    each = " each" if len(rest) > 1 else ""
    return sentence(f"{who(p, v, capital=True)} passed first and {verb(p, v, 'takes', 'take')} Alarún; "
                    f"{others} {has} one more action{each}, then the round's placement begins")


def _action_cap_reached(e, v):
    return sentence(f"The round's cap of {e['cap']} actions is reached: the only action left is to pass")


def _placement_started(e, v):
    return sentence(f"The actions of round {e['round']} are over: every player places their "
                    f"{e['cards']} cards at once")


def _place(e, v):
    s = e["seat"]
    count = f"{e['placed']} of {HAND_SIZE}"
    if "card" in e:
        return sentence(f"{who(s, v, capital=True)} {verb(s, v, 'places', 'place')} {card_words(e['card'])} at "
                        f"{_cell(e['x'], e['y'])} ({count}, hidden from the others until everyone has placed)")
    return sentence(f"{who(s, v, capital=True)} {verb(s, v, 'places', 'place')} a card ({count}; "
                    f"hidden until everyone has placed)")


def _placements_revealed(e, v):
    p = e["player"]
    cards = _and([f"{card_words(c['card'])} at {_cell(c['x'], c['y'])}" for c in e["cards"]])
    return sentence(f"{_whose(p, v, capital=True)} cards of round {e['round']} are revealed: {cards}")


def _centre_discarded(e, v):
    text = f"The centre cards {_cards(e['cards'])} go to the open discard pile"
    if e["face_down"]:
        text += f", and so do the face-down {_cards(e['face_down'])}, turned face up"
    return sentence(text)


def _centre_kept(e, v):
    return sentence(f"The centre cards {_cards(e['cards'])} stay for round {e['round']}")


def _druid_value(e, v):
    p = e["player"]
    return sentence(f"{_whose(p, v, capital=True)} druid apprentice counts as {card_words(e['card'])} "
                    f"(the value that brews the most potion points)")


def _potion_scored(e, v):
    p = e["player"]
    k = "ABCDEFGHIJ".index(e["line"])
    where = f"row {e['line']} ({_ORDINALS[k]} from the top)" if k < 5 else \
        f"column {e['line']} ({_ORDINALS[k - 5]} from the left)"
    line = f"{_whose(p, v, capital=True)} {where}"
    strength, by = e["strength"], e["by"]
    if by == "ingredient":
        potion = f"a potion of {strength} {_words(e['shared'])} in different colours"
    elif by == "colour":
        potion = f"a potion of {strength} different {e['shared']} ingredients"
    elif strength == 1:
        potion = "no two neighbouring ingredients share a type or a colour"
    else:
        potion = "no ingredient"
    return sentence(f"{line}: {potion}, {_points(e['points'])}")


def _centum_auri_scored(e, v):
    p = e["player"]
    if e["points"]:
        return sentence(f"{_whose(p, v, capital=True)} Centum auri: {_points(e['points'])}")
    return sentence(f"{who(p, v, capital=True)} {verb(p, v, 'has', 'have')} no Centum auri: 0 points")


def _colour_bonus(e, v):
    p = e["player"]
    count = e["cards"]
    noun = "ingredient" if count == 1 else "ingredients"
    return sentence(f"{_whose(p, v, capital=True)} secret colour is {e['colour']}: {count} {e['colour']} {noun} "
                    f"in the square, colour bonus {_points(e['points'])}")


def _final_score(e, v):
    p = e["player"]
    return sentence(f"{who(p, v, capital=True)} {verb(p, v, 'scores', 'score')} {_points(e['total'])} in total: "
                    f"potions {number(e['potions'])} + Centum auri {number(e['centum_auri'])} + "
                    f"colour bonus {number(e['colour_bonus'])}")


def _game_won(e, v):
    winners = e["winners"]
    names = _and([who(s, v) for s in winners])
    names = names[:1].upper() + names[1:]
    if len(winners) > 1:
        return sentence(f"{names} share the victory with {_points(e['total'])} each "
                        f"(tied on potion points too, {number(e['potions'])})")
    w = winners[0]
    text = f"{names} {verb(w, v, 'wins', 'win')} with {_points(e['total'])}"
    if e["tie_break"]:
        text += f", tied on the total but ahead on potion points ({number(e['potions'])})"
    winner = "are" if w == v else "is"
    return sentence(text + (", and " if e["tie_break"] else " and ") + f"{winner} appointed the new druid of the village")


_TEXTS: dict[str, Callable[[Mapping[str, Any], int | None], str]] = {
    "round_started": _round_started, "centre_dealt": _centre_dealt, "hand_dealt": _hand_dealt,
    "colour_dealt": _colour_dealt, "swap": _swap, "pass": _pass, "swap_all_and_pass": _swap_all_and_pass,
    "flip": _flip, "alarun_taken": _alarun_taken, "action_cap_reached": _action_cap_reached,
    "placement_started": _placement_started, "place": _place, "placements_revealed": _placements_revealed,
    "centre_discarded": _centre_discarded, "centre_kept": _centre_kept, "druid_value": _druid_value,
    "potion_scored": _potion_scored, "centum_auri_scored": _centum_auri_scored, "colour_bonus": _colour_bonus,
    "final_score": _final_score, "game_won": _game_won,
}
assert set(_TEXTS) == set(EVENT_KINDS)


def event_text(entry: Mapping[str, Any], viewer: int | None) -> str:
    """One English sentence telling ``viewer`` (None = spectator) what the entry says."""
    return _TEXTS[entry["kind"]](entry, viewer)


__all__ = ["EVENT_KINDS", "event_text"]
