"""Amarok's event log: the kinds of event the rules record, and one message per entry for
each viewer (:mod:`nemeton.i18n`: a message id with structured arguments, rendered in each
reader's language from the catalogues in ``locale/``).

Who may read which field follows the views (ruling K2). A card taken is played face up at
once, a clawed card is revealed to all, and the river, the fronts, the objective, the round
wins and each round's result are public: those events have public fields only. The one
secret is a hand at the deal: each ``hand_dealt`` event lists the cards of one seat's hand
that are held the same way, and only the seats that see them (the owner for cards facing it,
everyone else for cards facing the others) receive ``cards``.

The messages are written from the viewer's entry alone (plus the public deck list and the
seating), so a text can never tell more than the entry holds. The viewer's own seat has its
own ids ("you" rather than a seat), so that every language conjugates its own verbs; the
game's terms (cards, symbols, colours, the objective's sides, teams) are nested messages.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...i18n import Message, msg, seat
from .components import Deck

EVENT_KINDS = {
    "deal": "a round begins: who holds the objective card and plays first, its side, the "
            "river, the deck's size",
    "hand_dealt": "cards dealt to one seat's hand that are held the same way (facing their owner "
                  "or the others); the cards are named only to the seats that see them (K2)",
    "take": "a player takes a card (own hand, river, top of the deck, another player's hand) "
            "and plays it face up in front of them",
    "season": "a change of season flips the objective card",
    "claw": "a player's claw reveals a card (in front of a player, in a hand, in the river or on "
            "top of the deck) and puts it at the bottom of the deck",
    "round_end": "a round ends (mating, totals, or every player trapped): totals, traps, the "
                 "winners and their round wins",
    "game_end": "the game ends: the winners (or winning teams) and their round wins",
}

P = "amarok."
#: The card symbols and the objective card's sides, as message ids.
SYMBOL_IDS = {name: f"{P}symbol.{name}" for name in ("heart", "claw", "season", "trap")}
OBJECTIVE_IDS = {name: f"{P}objective.{name}" for name in ("wolf_pack", "lone_wolf")}
#: The standard deck's colours (a deck file's free text); any other colour is shown as written.
COLOUR_IDS = {name: f"{P}colour.{name}" for name in ("red", "blue")}


def colour(text: str) -> Message | str:
    """A card's colour: the standard deck's translated, a custom deck's text as it is."""
    return msg(COLOUR_IDS[text]) if text in COLOUR_IDS else text.lstrip()


def objective(name: str) -> Message:
    return msg(OBJECTIVE_IDS[name])


class Seating:
    """What a message needs besides the entry: the public deck list and who sits where."""

    __slots__ = ("deck", "players", "teams")

    def __init__(self, deck: Deck, players: int, teams: bool):
        self.deck, self.players, self.teams = deck, players, teams

    def card(self, cid: str) -> Message | str:
        """``R6 (red 6, heart)``: the card's id and value as printed (literal text), its
        colour and symbol translated; an id the deck lacks as it is."""
        i = self.deck.index.get(cid)
        if i is None:
            return str(cid)
        card = self.deck.cards[i]
        args: dict[str, Any] = {"code": cid, "value": str(card.value)}
        key = P + "card"
        if card.colour.strip():
            args["colour"] = colour(card.colour)
        else:
            key += ".colourless"
        if card.symbol_name:
            args["symbol"] = msg(SYMBOL_IDS[card.symbol_name])
            key += ".symbol"
        return msg(key, **args)

    def cards(self, cids: Sequence[str]) -> list:
        return [self.card(c) for c in cids]

    def symbol(self, cid: str) -> str | None:
        i = self.deck.index.get(cid)
        return None if i is None else self.deck.cards[i].symbol_name

    def partners(self, seat: int) -> tuple[int, int]:
        half = self.players // 2
        return seat % half, seat % half + half

    def team(self, s: int, viewer: int | None) -> Message:
        """"your team (you and <partner>)" or "the team of <a> and <b>"."""
        a, b = self.partners(s)
        if viewer in (a, b):
            return msg(P + "team.yours", partner=seat(b if viewer == a else a))
        return msg(P + "team", a=seat(a), b=seat(b))

    def units(self, seats: Sequence[int]) -> list[int]:
        """One seat per player or team among ``seats`` (team mode: the lower partner)."""
        if not self.teams:
            return list(seats)
        return sorted({self.partners(s)[0] for s in seats})

    def unit_name(self, s: int, viewer: int | None) -> Any:
        """A team (a message) or a player: the viewer as the message "you", another as a seat."""
        if self.teams:
            return self.team(s, viewer)
        return msg(P + "you") if s == viewer else seat(s)


def event_message(entry: Mapping[str, Any], viewer: int | None, seating: Seating) -> Message | None:
    """The entry as a message for ``viewer``; None for a kind this game does not record."""
    write = _WRITERS.get(entry["kind"])
    return None if write is None else write(entry, viewer, seating)


def _ev(name: str, you: bool, **args: Any) -> Message:
    """``amarok.event.<name>.you`` (the viewer's own) or ``amarok.event.<name>``."""
    return msg(f"{P}event.{name}" + (".you" if you else ""), **args)


# ----- one writer per kind ---------------------------------------------------------------------
def _deal(e, viewer, s: Seating) -> Message:
    holder = e["holder"]
    river = (msg(P + "river", cards=s.cards(e["river"])) if e["river"] else msg(P + "river.empty"))
    args = {"round": e["round"], "objective": objective(e["objective"]), "river": river,
            "deck": msg(P + "deck_size", count=e["deck_size"])}
    if holder != viewer:
        args["seat"] = seat(holder)
    return _ev("deal", holder == viewer, **args)


def _hand_dealt(e, viewer, s: Seating) -> Message:
    p, slots, facing = e["player"], e["slots"], e["facing"]
    one = len(slots) == 1
    args: dict[str, Any] = {"slot": slots[0]} if one else {"count": len(slots)}
    if "cards" in e:
        cards = s.cards(e["cards"])
        if one:
            args["card"] = cards[0]
        else:
            args["cards"] = cards
        variant = "you.seen" if p == viewer else "seen"
    elif p == viewer:
        variant = "you.hidden"
    else:
        variant = "owner" if facing == "owner" else "others"
    if p != viewer:
        args["seat"] = seat(p)
    return msg(f"{P}event.hand_dealt.{variant}" + (".one" if one else ""), **args)


def _from_hand(player: int, actor: int, viewer: int | None, slot: int | None = None) -> Message:
    """"from your own hand (slot 1)", "from their own hand (slot 1)" (the actor's, told to
    another viewer), "from your hand", "from <seat>'s hand"; another's hand with the slot
    where one is given (the claw's)."""
    if player == actor:
        return msg(P + ("from.own_hand.you.slot" if player == viewer else "from.own_hand.slot"), slot=slot)
    key = "from.hand.you" if player == viewer else "from.hand"
    args: dict[str, Any] = {} if player == viewer else {"player": seat(player)}
    if slot is not None:
        key += ".slot"
        args["slot"] = slot
    return msg(P + key, **args)


def _take(e, viewer, s: Seating) -> Message:
    taker, source = e["seat"], e["source"]
    you = taker == viewer
    if source == "own_hand":
        origin = _from_hand(taker, taker, viewer, e["slot"])
    elif source in ("river", "deck"):
        origin = msg(f"{P}from.{source}")
    else:
        player = e["player"]
        if e["chosen"] == "unseen":
            if you:
                origin = msg(P + "from.hand.unseen.by_you", player=seat(player))
            elif player == viewer:
                origin = msg(P + "from.hand.you.unseen")
            else:
                origin = msg(P + "from.hand.unseen", player=seat(player))
        else:
            origin = _from_hand(player, taker, viewer)
    args: dict[str, Any] = {"card": s.card(e["card"]), "origin": origin}
    if not you:
        args["seat"] = seat(taker)
    symbol = s.symbol(e["card"])
    if symbol == "claw":
        return _ev("take.claw", you, **args)
    if symbol == "trap":
        if s.teams:
            return _ev("take.trap.team", you, team=s.team(taker, viewer), **args)
        return _ev("take.trap", you, **args)
    return _ev("take", you, **args)


def _season(e, viewer, s: Seating) -> Message:
    p = e["player"]
    args: dict[str, Any] = {"objective": objective(e["objective"])}
    if p != viewer:
        args["seat"] = seat(p)
    return _ev("season", p == viewer, **args)


def _claw(e, viewer, s: Seating) -> Message:
    clawer, target = e["seat"], e["target"]
    if target == "front":
        origin = (msg(P + "from.front.you") if e["player"] == viewer
                  else msg(P + "from.front", player=seat(e["player"])))
    elif target == "hand":
        origin = _from_hand(e["player"], clawer, viewer, e["slot"])
    elif target == "river":
        origin = msg(P + "from.river")
    else:
        origin = msg(P + "from.deck")
    args: dict[str, Any] = {"card": s.card(e["card"]), "origin": origin}
    if clawer != viewer:
        args["seat"] = seat(clawer)
    # "your claw" or "<seat>'s claw"; after a card in front of a player, who plays again
    key = P + "event.claw" + (".you" if clawer == viewer else "")
    if target == "front":
        key += ".again_you" if e["player"] == viewer else ".again"
        if e["player"] != viewer:
            args["player"] = seat(e["player"])
    return msg(key, **args)


def _round_end(e, viewer, s: Seating) -> Message:
    reason = e["reason"]
    if reason == "mating":
        p = e["player"]
        args: dict[str, Any] = {"round": e["round"], "winners": _winners(e, viewer, s, "it")}
        if p != viewer:
            args["seat"] = seat(p)
        return _ev("round_end.mating", p == viewer, **args)
    args = {"round": e["round"], "objective": objective(e["objective"]), "totals": _totals(e, viewer, s)}
    if reason == "all_trapped":
        return msg(P + "event.round_end.all_trapped" + (".teams" if s.teams else ""), **args)
    return msg(P + "event.round_end", winners=_winners(e, viewer, s, "round"), **args)


def _winners(e, viewer, s: Seating, what: str) -> Message:
    """"<seat 1> wins the round and now has 2 round wins" (a team, several winners, you);
    ``what`` "it" (the round just named) or "round"."""
    units, levels = s.units(e["winners"]), e["levels"]
    key = f"{P}winners.{what}."
    if len(units) == 1:
        u = units[0]
        if not s.teams and u == viewer:
            return msg(key + "win.you", count=levels[u])
        return msg(key + "win", winner=s.unit_name(u, viewer), count=levels[u])
    you = not s.teams and viewer in units
    return msg(key + ("share.you" if you else "share"), winners=[s.unit_name(u, viewer) for u in units],
               counts=[levels[u] for u in units])


_TOTALS_ARGS = "abcdef"


def _totals(e, viewer, s: Seating) -> Message:
    """"totals 5 for you, 7 for <seat 1> (trapped), ..." or the team totals: one id per count
    of players (or teams), each total a nested message."""
    trapped = set(e["trapped"])
    items = []
    if s.teams:
        for t, total in enumerate(e["team_totals"]):
            a, b = s.partners(t)
            key = "total.team.yours" if viewer in (a, b) else "total.team"
            args = {"partner": seat(b if viewer == a else a)} if viewer in (a, b) else {"a": seat(a), "b": seat(b)}
            if trapped & {a, b}:
                key += ".trapped"
            items.append(msg(P + key, total=total, **args))
        key = f"{P}totals.teams.{len(items)}"
    else:
        for p, total in enumerate(e["totals"]):
            key = "total.you" if p == viewer else "total"
            args = {} if p == viewer else {"seat": seat(p)}
            if p in trapped:
                key += ".trapped"
            items.append(msg(P + key, total=total, **args))
        key = f"{P}totals.{len(items)}"
    return msg(key, **dict(zip(_TOTALS_ARGS, items)))


def _game_end(e, viewer, s: Seating) -> Message:
    winners, levels = e["winners"], e["levels"]
    units = s.units(winners)
    count = levels[units[0]] if units else 0
    if len(units) == 1:
        if not s.teams and units[0] == viewer:
            return msg(P + "event.game_end.you", count=count)
        return msg(P + "event.game_end", winner=s.unit_name(units[0], viewer), count=count)
    names = [s.unit_name(u, viewer) for u in units]
    key = "share.teams" if s.teams else ("share.you" if viewer in units else "share")
    return msg(f"{P}event.game_end.{key}", winners=names, count=count)


_WRITERS = {"deal": _deal, "hand_dealt": _hand_dealt, "take": _take, "season": _season,
            "claw": _claw, "round_end": _round_end, "game_end": _game_end}
