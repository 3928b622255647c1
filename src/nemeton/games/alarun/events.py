"""Alarún's event log: the kinds of event the rules record, and one message per entry.

The rules (:mod:`.rules`) record an event for every action and for every automatic effect:
the deals, the first pass that takes Alarún, the end of the action phase, the reveal of the
round's placements, the centre between rounds, and the final scoring line by line. The
entries' fields name cards as actions and views do (``dragon_eggs:blue``); the messages
(:mod:`nemeton.i18n`, catalogues in ``locale/<lang>/LC_MESSAGES/alarun.po``) name them as the
rulebook does ("Dragon eggs (blue)", "Centum auri", "the druid apprentice") through nested
term messages, and seats as seat arguments. Cells are offsets from the druid. The viewer's
own seat ("you") has its own message ids (``….you``), so every language can conjugate.

Who sees what: everything is public except the cards dealt to a hand and the secret colour
card (their owner only), and a placement's card and cell (the placer only, until everyone has
placed: then ``placements_revealed`` tells everyone). ``event_message`` builds each message
from the viewer's entry alone, so a redacted entry can never be told in full.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from ...i18n import Message, msg, render, seat
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


# ----- terms ---------------------------------------------------------------------------------
def _you(s: int, v: int | None) -> bool:
    return s is not None and s == v


def _told(base: str, s: int, v: int | None, **args: Any) -> Message:
    """Message ``base`` about seat ``s`` (its argument ``seat``), or ``base.you`` (without the
    seat) when ``s`` is the viewer's own: the languages conjugate "you" apart."""
    if _you(s, v):
        return msg(base + ".you", **args)
    return msg(base, seat=seat(s), **args)


def ingredient_message(ingredient: str) -> Message | str:
    """An ingredient as a card's name ("Dragon eggs")."""
    return msg(f"alarun.ingredient.{ingredient}") if ingredient in INGREDIENTS else str(ingredient)


def ingredients_message(ingredient: str) -> Message | str:
    """An ingredient in running text, counted ("dragon eggs" in "a potion of 3 dragon eggs")."""
    return msg(f"alarun.ingredients.{ingredient}") if ingredient in INGREDIENTS else str(ingredient)


def colour_message(colour: str) -> Message | str:
    return msg(f"alarun.colour.{colour}") if colour in COLOURS else str(colour)


def card_message(card: str) -> Message | str:
    """A card as the rulebook names it: ``fungi_magica:orange`` -> "Fungi magica (orange)",
    ``centum_auri`` -> "Centum auri", ``druid`` -> "the druid apprentice"; anything else as
    it is."""
    if card == "centum_auri":
        return msg("alarun.card.centum_auri")
    if card == "druid":
        return msg("alarun.card.druid")
    ingredient, _, colour = str(card).partition(":")
    if ingredient in INGREDIENTS and colour in COLOURS:
        return msg("alarun.card.ingredient", ingredient=ingredient_message(ingredient), colour=colour_message(colour))
    return str(card)


def card_words(card: str) -> str:
    """A card's name in English (tests and tools)."""
    c = card_message(card)
    return c if isinstance(c, str) else render(c, "en")


def _cards(cards) -> Message | str:
    """Cards separated by commas (no "and": a list of names): nested pairs ``{first}, {rest}``."""
    names = [card_message(c) for c in cards]
    if not names:
        return ""
    out = names[-1]
    for name in reversed(names[:-1]):
        out = msg("alarun.cards", first=name, rest=out)
    return out


#: Cards separated by commas, as the event log lists them (the terminal's screen too).
cards_message = _cards


def _cell(x: int, y: int) -> str:
    def signed(v: int) -> str:
        return f"{v:+d}" if v else "0"
    return f"({signed(x)},{signed(y)})"


def _points(value: Any) -> Message:
    return msg("alarun.points", count=value)


def _seats(seats: list[int], v: int | None, start: bool = False) -> list:
    """Seats as a list argument, the viewer's own as "you" ("You" when it starts a sentence)."""
    return [msg("alarun.you.start" if start and k == 0 else "alarun.you") if _you(s, v) else seat(s)
            for k, s in enumerate(seats)]


# ----- one message per kind ----------------------------------------------------------------
def _round_started(e: Mapping[str, Any], v: int | None) -> Message:
    s = e["start_player"]
    base = "alarun.event.round_started" + (".later" if e["round"] > 1 else "")
    return _told(base, s, v, round=e["round"], rounds=ROUNDS)


def _centre_dealt(e, v):
    if e["face_down"]:
        return msg("alarun.event.centre_dealt.face_down", cards=_cards(e["cards"]), face_down=e["face_down"])
    return msg("alarun.event.centre_dealt", cards=_cards(e["cards"]))


def _hand_dealt(e, v):
    p = e["player"]
    if "cards" in e:
        return _told("alarun.event.hand_dealt.cards", p, v, n=e["count"], cards=_cards(e["cards"]))
    return _told("alarun.event.hand_dealt", p, v, n=e["count"])


def _colour_dealt(e, v):
    p = e["player"]
    if "colour" in e:
        return _told("alarun.event.colour_dealt.colour", p, v, colour=colour_message(e["colour"]))
    return _told("alarun.event.colour_dealt", p, v)


def _swap(e, v):
    s = e["seat"]
    return _told("alarun.event.swap", s, v, give=card_message(e["give"]),
                 take=card_message(e["take"]))


def _pass(e, v):
    s = e["seat"]
    return _told("alarun.event.pass", s, v)


def _swap_all_and_pass(e, v):
    s = e["seat"]
    return _told("alarun.event.swap_all_and_pass", s, v, gave=_cards(e["gave"]),
                 took=_cards(e["took"]))


def _flip(e, v):
    s = e["seat"]
    return _told("alarun.event.flip", s, v, discarded=_cards(e["discarded"]),
                 turned_up=_cards(e["turned_up"]))


def _alarun_taken(e, v):
    p = e["player"]
    rest = e["one_more"]
    if len(rest) == 1:
        one_more = _told("alarun.one_more", rest[0], v)
    else:
        mine = any(_you(s, v) for s in rest)
        one_more = msg("alarun.one_more.many" + (".you" if mine else ""), seats=_seats(rest, v))
    return _told("alarun.event.alarun_taken", p, v, one_more=one_more)


def _action_cap_reached(e, v):
    return msg("alarun.event.action_cap_reached", cap=e["cap"])


def _placement_started(e, v):
    return msg("alarun.event.placement_started", round=e["round"], cards=e["cards"])


def _place(e, v):
    s = e["seat"]
    if "card" in e:
        return _told("alarun.event.place.card", s, v, card=card_message(e["card"]),
                     cell=_cell(e["x"], e["y"]), placed=e["placed"], hand=HAND_SIZE)
    return _told("alarun.event.place", s, v, placed=e["placed"], hand=HAND_SIZE)


def _placements_revealed(e, v):
    p = e["player"]
    cards = [msg("alarun.card_at", card=card_message(c["card"]), cell=_cell(c["x"], c["y"])) for c in e["cards"]]
    return _told("alarun.event.placements_revealed", p, v, round=e["round"], cards=cards)


def _centre_discarded(e, v):
    if e["face_down"]:
        return msg("alarun.event.centre_discarded.face_down", cards=_cards(e["cards"]),
                   face_down=_cards(e["face_down"]))
    return msg("alarun.event.centre_discarded", cards=_cards(e["cards"]))


def _centre_kept(e, v):
    return msg("alarun.event.centre_kept", cards=_cards(e["cards"]), round=e["round"])


def _druid_value(e, v):
    p = e["player"]
    return _told("alarun.event.druid_value", p, v, card=card_message(e["card"]))


_ORDINALS = tuple(msg(f"alarun.ordinal.{k}") for k in range(1, 6))


def _potion_scored(e, v):
    p = e["player"]
    k = "ABCDEFGHIJ".index(e["line"])
    if k < 5:
        where = msg("alarun.line.row", line=e["line"], ordinal=_ORDINALS[k])
    else:
        where = msg("alarun.line.column", line=e["line"], ordinal=_ORDINALS[k - 5])
    strength, by = e["strength"], e["by"]
    if by == "ingredient":
        potion = msg("alarun.potion.ingredient", strength=strength, ingredient=ingredients_message(e["shared"]))
    elif by == "colour":
        potion = msg("alarun.potion.colour", strength=strength, colour=colour_message(e["shared"]))
    elif strength == 1:
        potion = msg("alarun.potion.nothing_shared")
    else:
        potion = msg("alarun.potion.empty")
    return _told("alarun.event.potion_scored", p, v, line=where, potion=potion,
                 points=_points(e["points"]))


def _centum_auri_scored(e, v):
    p = e["player"]
    if e["points"]:
        return _told("alarun.event.centum_auri_scored", p, v, points=_points(e["points"]))
    return _told("alarun.event.centum_auri_scored.none", p, v)


def _colour_bonus(e, v):
    p = e["player"]
    return _told("alarun.event.colour_bonus", p, v, colour=colour_message(e["colour"]),
                 count=e["cards"], points=_points(e["points"]))


def _final_score(e, v):
    p = e["player"]
    return _told("alarun.event.final_score", p, v, total=_points(e["total"]),
                 potions=e["potions"], centum_auri=e["centum_auri"], colour_bonus=e["colour_bonus"])


def _game_won(e, v):
    winners = e["winners"]
    if len(winners) > 1:
        mine = any(_you(s, v) for s in winners)
        return msg("alarun.event.game_won.shared" + (".you" if mine else ""), seats=_seats(winners, v, start=True),
                   total=_points(e["total"]), potions=e["potions"])
    w = winners[0]
    base = "alarun.event.game_won" + (".tie_break" if e["tie_break"] else "")
    if e["tie_break"]:
        return _told(base, w, v, total=_points(e["total"]), potions=e["potions"])
    return _told(base, w, v, total=_points(e["total"]))


_MESSAGES: dict[str, Callable[[Mapping[str, Any], int | None], Message]] = {
    "round_started": _round_started, "centre_dealt": _centre_dealt, "hand_dealt": _hand_dealt,
    "colour_dealt": _colour_dealt, "swap": _swap, "pass": _pass, "swap_all_and_pass": _swap_all_and_pass,
    "flip": _flip, "alarun_taken": _alarun_taken, "action_cap_reached": _action_cap_reached,
    "placement_started": _placement_started, "place": _place, "placements_revealed": _placements_revealed,
    "centre_discarded": _centre_discarded, "centre_kept": _centre_kept, "druid_value": _druid_value,
    "potion_scored": _potion_scored, "centum_auri_scored": _centum_auri_scored, "colour_bonus": _colour_bonus,
    "final_score": _final_score, "game_won": _game_won,
}
assert set(_MESSAGES) == set(EVENT_KINDS)


def event_message(entry: Mapping[str, Any], viewer: int | None) -> Message:
    """The entry as a message for ``viewer`` (None = spectator), from that viewer's entry alone."""
    return _MESSAGES[entry["kind"]](entry, viewer)


__all__ = ["EVENT_KINDS", "card_message", "card_words", "event_message"]


# ----- actions ---------------------------------------------------------------------------------
def action_message(action: Any) -> Message | None:
    """An action as the terminal's list of moves says it in the reader's language (one id
    per kind, ``alarun.action.*``; cards as the log names them, cells as offsets from the
    druid, "(+1,0)"); ``str(action)`` stays the English text that records and the API use.
    None for an action of another game."""
    kind = getattr(action, "kind", None)
    if kind == "swap":
        return msg("alarun.action.swap", give=card_message(action.give), take=card_message(action.take))
    if kind == "pass":
        return msg("alarun.action.pass")
    if kind == "swap_all":
        return msg("alarun.action.swap_all")
    if kind == "flip":
        return msg("alarun.action.flip")
    if kind == "place":
        return msg("alarun.action.place", card=card_message(action.card), cell=_cell(action.x, action.y))
    return None
