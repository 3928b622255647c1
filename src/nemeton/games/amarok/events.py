"""Amarok's event log: the kinds of event the rules record, and one sentence per entry for
each viewer.

Who may read which field follows the views (ruling K2). A card taken is played face up at
once, a clawed card is revealed to all, and the river, the fronts, the objective, the round
wins and each round's result are public: those events have public fields only. The one
secret is a hand at the deal: each ``hand_dealt`` event lists the cards of one seat's hand
that are held the same way, and only the seats that see them (the owner for cards facing it,
everyone else for cards facing the others) receive ``cards``.

The sentences are written from the viewer's entry alone (plus the public deck list and the
seating), so a text can never tell more than the entry holds.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...engine.log import number, seat_ref, sentence, verb, who
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

SYMBOL_WORDS = {"heart": "heart", "claw": "claw", "season": "change of season", "trap": "wolf trap"}
OBJECTIVE_WORDS = {"wolf_pack": "the wolf pack (highest total wins)",
                   "lone_wolf": "the lone wolf (lowest total wins)"}


class Seating:
    """What a sentence needs besides the entry: the public deck list and who sits where."""

    __slots__ = ("deck", "players", "teams")

    def __init__(self, deck: Deck, players: int, teams: bool):
        self.deck, self.players, self.teams = deck, players, teams

    def card(self, cid: str) -> str:
        """``R6 (red 6, heart)``."""
        i = self.deck.index.get(cid)
        if i is None:
            return str(cid)
        card = self.deck.cards[i]
        about = f"{card.colour} {card.value}".strip()
        if card.symbol_name:
            about += f", {SYMBOL_WORDS[card.symbol_name]}"
        return f"{cid} ({about})"

    def cards(self, cids: Sequence[str]) -> str:
        return join([self.card(c) for c in cids])

    def partners(self, seat: int) -> tuple[int, int]:
        half = self.players // 2
        return seat % half, seat % half + half

    def team(self, seat: int, viewer: int | None) -> str:
        a, b = self.partners(seat)
        if viewer in (a, b):
            return f"your team (you and {seat_ref(b if viewer == a else a)})"
        return f"the team of {seat_ref(a)} and {seat_ref(b)}"

    def units(self, seats: Sequence[int]) -> list[int]:
        """One seat per player or team among ``seats`` (team mode: the lower partner)."""
        if not self.teams:
            return list(seats)
        return sorted({self.partners(s)[0] for s in seats})

    def unit_name(self, seat: int, viewer: int | None) -> str:
        return self.team(seat, viewer) if self.teams else who(seat, viewer)


def join(names: Sequence[str]) -> str:
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def whose(seat: int, viewer: int | None) -> str:
    return "your" if seat == viewer else f"{seat_ref(seat)}'s"


def _hand_of(player: int, actor: int, viewer: int | None) -> str:
    """"your hand", "their own hand" (the actor's, told to another viewer), "<seat 2>'s hand"."""
    if player == viewer:
        return "your own hand" if player == actor else "your hand"
    return "their own hand" if player == actor else f"{seat_ref(player)}'s hand"


def wins_count(level: Any) -> str:
    return f"{number(level)} round win" + ("" if level == 1 else "s")


def event_text(entry: Mapping[str, Any], viewer: int | None, seating: Seating) -> str:
    write = _WRITERS.get(entry["kind"])
    if write is None:
        return sentence(f"{entry['kind'].replace('_', ' ')}")
    return sentence(write(entry, viewer, seating))


# ----- one writer per kind ---------------------------------------------------------------------
def _deal(e, viewer, s: Seating) -> str:
    holder = e["holder"]
    hold = f"{who(holder, viewer)} {verb(holder, viewer, 'holds', 'hold')} the objective card"
    plays = verb(holder, viewer, "plays", "play")
    river = s.cards(e["river"]) or "empty"
    return (f"Round {e['round']} begins: {hold}, showing {OBJECTIVE_WORDS[e['objective']]}, and "
            f"{plays} first; the river is {river}; {e['deck_size']} card{'' if e['deck_size'] == 1 else 's'} "
            f"in the deck")


def _hand_dealt(e, viewer, s: Seating) -> str:
    p, slots, facing = e["player"], e["slots"], e["facing"]
    count = "a card" if len(slots) == 1 else f"{len(slots)} cards"
    where = f" in slot {slots[0]}" if len(slots) == 1 else ""
    it = "it" if len(slots) == 1 else "them"
    dealt = f"{who(p, viewer, capital=True)} {verb(p, viewer, 'is', 'are')} dealt"
    if "cards" in e:
        if p == viewer:
            return f"{dealt} {s.cards(e['cards'])}{where}, facing you"
        return f"{dealt} {s.cards(e['cards'])}{where}, facing the other players ({who(p, viewer)} cannot see {it})"
    if p == viewer:
        return f"{dealt} {count}{where} facing the other players: you cannot see {it}"
    if facing == "owner":  # as the owner reads "..., facing you", the others read the owner's name
        return f"{dealt} {count}{where}, facing {who(p, viewer)}"
    return f"{dealt} {count}{where} facing the other players"


def _take(e, viewer, s: Seating) -> str:
    seat, source = e["seat"], e["source"]
    if source == "own_hand":
        origin = f"{_hand_of(seat, seat, viewer)} (slot {e['slot']})"
    elif source == "river":
        origin = "the river"
    elif source == "deck":
        origin = "the top of the deck"
    else:
        origin = _hand_of(e["player"], seat, viewer)
        if e["chosen"] == "unseen":
            could = "you" if seat == viewer else "they"
            origin += f" (drawn at random among the cards {could} could not see)"
    text = (f"{who(seat, viewer, capital=True)} {verb(seat, viewer, 'takes', 'take')} "
            f"{s.card(e['card'])} from {origin} and {verb(seat, viewer, 'plays', 'play')} it")
    symbol = s.deck.cards[s.deck.index[e["card"]]].symbol_name if e["card"] in s.deck.index else None
    if symbol == "claw":
        text += (f"; {who(seat, viewer)} now {verb(seat, viewer, 'chooses', 'choose')} a card "
                 f"for the claw to send to the bottom of the deck")
    elif symbol == "trap":
        loser = s.team(seat, viewer) if s.teams else who(seat, viewer)
        text += f"; with a wolf trap in front of {who(seat, viewer)}, {loser} cannot win this round"
    return text


def _season(e, viewer, s: Seating) -> str:
    return (f"{whose(e['player'], viewer)} change of season flips the objective card: now "
            f"{OBJECTIVE_WORDS[e['objective']]}")


def _claw(e, viewer, s: Seating) -> str:
    seat, target = e["seat"], e["target"]
    if target == "front":
        origin = f"in front of {who(e['player'], viewer)}"
    elif target == "hand":
        origin = f"{_hand_of(e['player'], seat, viewer)} (slot {e['slot']})"
    elif target == "river":
        origin = "the river"
    else:
        origin = "the top of the deck"
    text = (f"{whose(seat, viewer)} claw reveals {s.card(e['card'])} from {origin} and puts it "
            f"at the bottom of the deck")
    if target == "front":
        text += f"; {who(e['player'], viewer)} will play again"
    return text


def _round_end(e, viewer, s: Seating) -> str:
    reason = e["reason"]
    if reason == "mating":
        p = e["player"]
        return (f"{who(p, viewer, capital=True)} {verb(p, viewer, 'puts', 'put')} a second heart in "
                f"front: mating ends round {e['round']} at once; {_winners(e, viewer, s, 'it')}")
    head = f"Round {e['round']} ends under {OBJECTIVE_WORDS[e['objective']]}: {_totals(e, viewer, s)}"
    if reason == "all_trapped":
        return f"{head}; every {'team' if s.teams else 'player'} is trapped, so nobody wins the round"
    return f"{head}; {_winners(e, viewer, s, 'the round')}"


def _winners(e, viewer, s: Seating, what: str) -> str:
    """``<seat 1> wins the round and now has 2 round wins`` (a team, several winners, you)."""
    units, levels = s.units(e["winners"]), e["levels"]
    names = [s.unit_name(u, viewer) for u in units]
    if len(units) == 1:
        you = not s.teams and units[0] == viewer
        return (f"{names[0]} {'win' if you else 'wins'} {what} and now {'have' if you else 'has'} "
                f"{wins_count(levels[units[0]])}")
    counts = join([number(levels[u]) for u in units])
    return f"{join(names)} share {what} and now have {counts} round wins"


def _totals(e, viewer, s: Seating) -> str:
    trapped = set(e["trapped"])
    if s.teams:
        parts = []
        for t, total in enumerate(e["team_totals"]):
            name = s.team(t, viewer).replace("the team of ", "")
            parts.append(f"{number(total)} for {name}" + (" (trapped)" if trapped & set(s.partners(t)) else ""))
        return "team totals " + ", ".join(parts)
    return "totals " + ", ".join(f"{number(t)} for {who(p, viewer)}" + (" (trapped)" if p in trapped else "")
                                 for p, t in enumerate(e["totals"]))


def _game_end(e, viewer, s: Seating) -> str:
    winners, levels = e["winners"], e["levels"]
    units = s.units(winners)
    names = [s.unit_name(u, viewer) for u in units]
    count = wins_count(levels[units[0]]) if units else ""
    if len(units) == 1:
        one = names[0]
        wins = "win" if (not s.teams and units[0] == viewer) else "wins"
        return f"Game over: {one} {wins} the game with {count}"
    return f"Game over: {join(names)} share the victory with {count} each"


_WRITERS = {"deal": _deal, "hand_dealt": _hand_dealt, "take": _take, "season": _season,
            "claw": _claw, "round_end": _round_end, "game_end": _game_end}
