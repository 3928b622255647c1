"""Amarok's rules: the state, a turn, the card effects, the end of a round and the event log.

Rulebook: ``amarok-rulebook-it.txt`` with rulings K1-K9 (``RULINGS.md``); the rules as
implemented, with the test of each, are in ``docs/rules/amarok.md``.

Layout of the state (all flat lists of ints, so ``clone`` is a handful of slice copies):

- ``hand[2*seat + slot]``: card index or ``EMPTY``; ``owner_sees[2*seat + slot]``: whether the
  card faces its owner (True) or the other players (False), fixed at the deal (ruling K2);
- ``front[2*seat + i]`` for ``i < front_count[seat]``: the cards played in front of a seat;
- ``river``: the river, in deal order; ``deck``: bottom first, top last; the bottom
  ``known_bottom`` cards were put there by claws, in the open (ruling K5).

Turn order (our decision, see the docs): the objective holder starts the round; after each
turn (a claw's target included) the next player is the first seat clockwise (seat + 1, ...)
from the one who just played that has fewer than two cards in front; the player who just
played comes last, so a lone player short of cards plays again.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Mapping

from ...engine import Action, RecordError, State, TERMINAL, rng_to_json
from ...engine import checks as read
from ...engine.registry import check_seed
from ...engine.state import clone_rng
from .actions import ActionTables, tables_for
from .components import CLAW, HEART, OBJECTIVE_NAMES, SEASON, TRAP, WOLF_PACK, Deck, load_deck
from .events import Seating, event_message
from .options import PLAYER_COUNTS, AmarokOptions, options_from_json  # re-exported here too
from . import checks, scoring
from .checks import MAX_ROUND, OBJECTIVE_IDS

if TYPE_CHECKING:
    from .view import _Kept

EMPTY = -1


def sees(viewer: int | None, owner: int, faces_owner: bool) -> bool:
    """Whether ``viewer`` (None = the spectator) sees a card held by ``owner`` (ruling K2):
    the owner sees the cards facing it, everyone else the cards facing the others."""
    if viewer is None:
        return False
    return faces_owner if viewer == owner else not faces_owner


@lru_cache(maxsize=None)  # at most 6 seats x 6 owners x 2 ways of holding
def seen_by(players: int, owner: int, faces_owner: bool) -> frozenset[int]:
    """The seats that see a card held by ``owner`` (the same rule as :func:`sees`)."""
    return frozenset(v for v in range(players) if sees(v, owner, faces_owner))


@lru_cache(maxsize=None)  # at most 6 x 6 x 6
def _others(players: int, seat: int, partner: int) -> tuple[int, ...]:
    """The seats whose hands ``seat`` may take from (not its own, nor its partner's), in order."""
    return tuple(p for p in range(players) if p != seat and p != partner)




class AmarokState(State):
    game_name = "amarok"
    __slots__ = ("cards", "acts", "n", "teams", "target", "levels", "objective", "holder",
                 "hand", "owner_sees", "front", "front_count", "river", "deck",
                 "known_bottom", "turn", "claw_pending", "last", "last_round",
                 "_shared")  # what the shared views were made of (view.py), made on first use
    options: AmarokOptions
    cards: Deck
    acts: ActionTables
    n: int
    teams: bool
    target: int               # round wins needed to win the game
    levels: list[int]         # each seat's round wins
    objective: int            # the side of the objective card shown
    holder: int               # the seat holding the objective card
    hand: list[int]           # see the module docstring for these lists
    owner_sees: list[bool]
    front: list[int]
    front_count: list[int]
    river: list[int]
    deck: list[int]
    known_bottom: int
    turn: int                 # the seat to act, or TERMINAL
    claw_pending: bool
    last: tuple[int, Action, int] | None        # the last (seat, action, card)
    last_round: dict[str, Any] | None           # how the last round ended
    _shared: _Kept

    # ----- construction ---------------------------------------------------------------------
    @classmethod
    def new_game(cls, options: AmarokOptions, seed: int | None) -> "AmarokState":
        state = cls._blank(options, seed, random.Random(seed))
        state.levels = [0] * state.n
        state.objective = WOLF_PACK  # round 1 shows the wolf pack (ruling K6)
        state.holder = 0  # the first player holds the objective card
        state.round = 1
        state.last = None  # the last action and its card (kept over the deal: a claw may end a round)
        state.last_round = None
        state.start_round()
        return state

    @classmethod
    def _blank(cls, options: AmarokOptions, seed: int | None, rng: random.Random) -> "AmarokState":
        state = cls.__new__(cls)
        State.__init__(state, options, seed, rng)
        state.cards = load_deck(options.deck)
        state.acts = tables_for(state.cards)
        state.n = options.players
        state.teams = options.teams
        state.target = options.rounds_to_win
        return state

    def start_round(self) -> None:
        """Shuffle every card, deal two to each player and two to the river (ruling K2, K6)."""
        n = self.n
        cards = list(range(len(self.cards)))
        self.rng.shuffle(cards)
        self.hand = cards[:2 * n]
        self.river = cards[2 * n:2 * n + 2]
        self.deck = cards[2 * n + 2:]
        self.known_bottom = 0
        owner_sees = []
        for seat in range(n):
            owner_sees += self.hand_facing(self.levels[seat])
        self.owner_sees = owner_sees
        self.front = [EMPTY] * (2 * n)
        self.front_count = [0] * n
        self.turn = self.holder  # the objective holder starts the round
        self.claw_pending = False
        if self.events is not None:
            self.record_deal()

    def hand_facing(self, level: int) -> list[bool]:
        """Which slots face their owner, by round wins (ruling K2)."""
        if level <= 0:
            return [True, True]
        if level == 1:
            seen = self.rng.randrange(2)  # the card the owner sees is chosen at random
            return [seen == 0, seen == 1]
        return [False, False]

    # ----- who acts -----------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return self.turn

    def is_terminal(self) -> bool:
        return self.turn == TERMINAL


    def partner(self, seat: int) -> int:
        return (seat + self.n // 2) % self.n if self.teams else seat

    def team_of(self, seat: int) -> int:
        return seat % (self.n // 2) if self.teams else seat

    # ----- legal actions ------------------------------------------------------------------
    waiting_seats_have_no_actions = True   # _legal_actions is empty for a seat not acting

    def _legal_actions(self, seat: int | None = None) -> list:
        turn = self.turn
        if seat is None:
            seat = turn
        if seat != turn or turn == TERMINAL:
            return []
        if self.claw_pending:
            return self.claw_targets(seat)
        return self.takeable(seat)

    def takeable(self, seat: int) -> list[Action]:
        """The cards a player may take (ruling K3), in a fixed order: own slots, river, deck,
        then each other player's seen cards and "an unseen one"."""
        acts: ActionTables = self.acts
        hand = self.hand
        out: list[Action] = []
        base = 2 * seat
        if hand[base] != EMPTY:
            out.append(acts.take_own[0])
        if hand[base + 1] != EMPTY:
            out.append(acts.take_own[1])
        take_river = acts.take_river
        for c in self.river:
            out.append(take_river[c])
        if self.deck:
            out.append(acts.take_deck)
        owner_sees = self.owner_sees
        take_seen, take_unseen = acts.take_seen, acts.take_unseen
        for p in _others(self.n, seat, self.partner(seat) if not self.options.partner_hand else seat):
            i = 2 * p
            first, second = hand[i], hand[i + 1]
            # each card facing the others is seen (and named), one facing its owner is not
            if first != EMPTY:
                if second != EMPTY:
                    first_hidden, second_hidden = owner_sees[i], owner_sees[i + 1]
                    if not first_hidden:
                        out.append(take_seen[p][first])
                    if not second_hidden:
                        out.append(take_seen[p][second])
                    if first_hidden or second_hidden:
                        out.append(take_unseen[p])
                else:
                    out.append(take_unseen[p] if owner_sees[i] else take_seen[p][first])
            elif second != EMPTY:
                out.append(take_unseen[p] if owner_sees[i + 1] else take_seen[p][second])
        return out

    def claw_targets(self, seat: int) -> list[Action]:
        """Any card but the claw itself (ruling K5): fronts, hands by slot, river, deck top."""
        acts: ActionTables = self.acts
        claw = self.front[2 * seat + self.front_count[seat] - 1]
        out: list[Action] = []
        front, counts, hand = self.front, self.front_count, self.hand
        for p in range(self.n):
            row = acts.claw_front[p]
            for i in range(2 * p, 2 * p + counts[p]):
                c = front[i]
                if c != claw:
                    out.append(row[c])
        for p in range(self.n):
            if hand[2 * p] != EMPTY:
                out.append(acts.claw_hand[p][0])
            if hand[2 * p + 1] != EMPTY:
                out.append(acts.claw_hand[p][1])
        claw_river = acts.claw_river
        for c in self.river:
            out.append(claw_river[c])
        if self.deck:
            out.append(acts.claw_deck)
        return out

    # ----- a turn -------------------------------------------------------------------------
    def _apply(self, action, seat: int) -> None:
        if self.claw_pending:
            card = self.claw(action)
            self.claw_pending = False
            self.last = (seat, action, card)
            if self.events is not None:
                self.record_claw(seat, action, card)
            self.pass_turn(seat)
            return
        card = self.take(action, seat)
        self.last = (seat, action, card)
        if self.events is not None:
            self.record_take(seat, action, card)
        self.play(seat, card)

    def take(self, action, seat: int) -> int:
        """Remove the chosen card from where it is (ruling K3); returns it."""
        kind = action.kind
        if kind == "take_own":
            i = 2 * seat + action.slot
            card = self.hand[i]
            self.hand[i] = EMPTY
        elif kind == "take_river":
            card = self.cards.index[action.card]
            self.river.remove(card)
        elif kind == "take_deck":
            card = self.draw_top()
        elif kind == "take_seen":
            card = self.cards.index[action.card]
            i = 2 * action.seat
            self.hand[i if self.hand[i] == card else i + 1] = EMPTY
        else:  # take_unseen: uniformly among the cards of that hand the actor cannot see
            i = 2 * action.seat
            hand, owner_sees = self.hand, self.owner_sees
            unseen = [j for j in (i, i + 1) if hand[j] != EMPTY and owner_sees[j]]
            j = unseen[0] if len(unseen) == 1 else unseen[self.rng.randrange(len(unseen))]
            card = hand[j]
            hand[j] = EMPTY
        return card

    def draw_top(self) -> int:
        card = self.deck.pop()
        if self.known_bottom > len(self.deck):
            self.known_bottom = len(self.deck)
        return card

    def play(self, seat: int, card: int) -> None:
        """Play the card face up in front of the player and resolve its symbol at once."""
        i = 2 * seat + self.front_count[seat]
        self.front[i] = card
        self.front_count[seat] += 1
        symbol = self.cards.symbols[card]
        if symbol == HEART:
            if i & 1 and self.cards.symbols[self.front[i - 1]] == HEART:
                self.end_round_by_mating(seat)
                return
        elif symbol == SEASON:
            self.objective ^= 1  # change of season: flip the objective card now
            if self.events is not None:
                self._event("season", None, player=seat, objective=OBJECTIVE_NAMES[self.objective])
        elif symbol == CLAW:
            self.claw_pending = True  # the same player now chooses the claw's target
            return
        self.pass_turn(seat)

    def claw(self, action) -> int:
        """Put the clawed card at the bottom of the deck, in the open (ruling K5)."""
        kind = action.kind
        if kind == "claw_front":
            card = self.cards.index[action.card]
            p = action.seat
            i = 2 * p
            if self.front[i] == card:
                self.front[i] = self.front[i + 1]
            self.front[i + 1] = EMPTY
            self.front_count[p] -= 1  # that player is short of two again and will play again
        elif kind == "claw_hand":
            i = 2 * action.seat + action.slot
            card = self.hand[i]
            self.hand[i] = EMPTY
        elif kind == "claw_river":
            card = self.cards.index[action.card]
            self.river.remove(card)
        else:  # claw_deck
            card = self.draw_top()
        self.deck.insert(0, card)
        self.known_bottom += 1
        return card

    def pass_turn(self, seat: int) -> None:
        """Next: the first seat clockwise from ``seat`` with fewer than two cards in front
        (skipping full players, ruling K4); the round ends when nobody is short."""
        n, counts = self.n, self.front_count
        for step in range(1, n + 1):
            p = (seat + step) % n
            if counts[p] < 2:
                self.turn = p
                return
        self.end_round_by_totals()

    # ----- end of a round -----------------------------------------------------------------
    def end_round_by_mating(self, seat: int) -> None:
        """A second heart in front ends the round at once: that player (team) wins, wolf trap
        or not (ruling K4)."""
        winners = [seat, self.partner(seat)] if self.teams else [seat]
        self.finish_round(sorted(set(winners)), "mating", seat)

    def end_round_by_totals(self) -> None:
        winners = self.round_winners()
        self.finish_round(winners, "totals" if winners else "all_trapped", None)  # none: all trapped

    def totals(self) -> list[int]:
        """Each seat's total in front (team mode: its team's four cards)."""
        return scoring.totals(self)

    def trapped(self) -> list[bool]:
        """Whether each seat cannot win the round (a wolf trap in front of its team)."""
        return scoring.trapped(self)

    def round_winners(self) -> list[int]:
        """Who wins the round on totals (ruling K7; :func:`.scoring.round_winners`)."""
        return scoring.round_winners(self)

    def finish_round(self, winners: list[int], reason: str, mater: int | None) -> None:
        """Winners advance one level (K7); the first to the target wins the game (K8), else the
        objective card passes left and the next round is dealt (K6)."""
        for p in winners:
            self.levels[p] += 1
        if self.events is not None:
            self.record_round_end(winners, reason, mater)
        cards = self.cards
        self.last_round = {
            "round": self.round,
            "reason": "totals" if reason == "all_trapped" else reason,
            "mating_seat": mater,
            "objective": OBJECTIVE_NAMES[self.objective],
            "fronts": [[cards.ids[self.front[i]] for i in range(2 * p, 2 * p + self.front_count[p])]
                       for p in range(self.n)],
            "totals": self.totals(),
            "trapped": self.trapped(),
            "winners": winners,
        }
        if max(self.levels) >= self.target:
            self.turn = TERMINAL  # first to the target wins; simultaneous winners share (K8)
            self.claw_pending = False
            if self.events is not None:
                self._event("game_end", None, winners=self.winners(), levels=self.levels[:])
            return
        self.round += 1
        self.holder = (self.holder + 1) % self.n  # passed left, not flipped (ruling K6)
        self.start_round()

    # ----- the event log (only when recording: guarded by ``self.events is not None``) ------
    def record_deal(self) -> None:
        """The new round in public, then each hand, its cards named to those who see them (K2)."""
        ids, n = self.cards.ids, self.n
        self._event("deal", None, holder=self.holder, objective=OBJECTIVE_NAMES[self.objective],
                    river=[ids[c] for c in self.river], deck_size=len(self.deck))
        hand, owner_sees, event = self.hand, self.owner_sees, self._event
        for p in range(n):
            # one event per way of holding, so K2's audiences never mix: both slots alike, or
            # (one round win) slot 0 and slot 1 apart
            i = 2 * p
            first = owner_sees[i]
            groups: tuple[tuple[tuple[int, ...], bool], ...]
            if owner_sees[i + 1] == first:
                groups = (((0, 1), first),)
            else:
                groups = (((0,), first), ((1,), not first))
            for slots, faces_owner in groups:
                event("hand_dealt", None, secret={"cards": [ids[hand[i + k]] for k in slots]},
                      seen_by=seen_by(n, p, faces_owner), player=p,
                      facing="owner" if faces_owner else "others", slots=list(slots))

    def record_take(self, seat: int, action, card: int) -> None:
        """A taken card is played face up at once, so every viewer may read which card it is (K2)."""
        kind, cid = action.kind, self.cards.ids[card]
        if kind == "take_own":
            self._event("take", seat, source="own_hand", slot=action.slot, card=cid)
        elif kind == "take_river":
            self._event("take", seat, source="river", card=cid)
        elif kind == "take_deck":
            self._event("take", seat, source="deck", card=cid)
        else:  # the slot it came from is not told: the taker may not know it (take_unseen)
            self._event("take", seat, source="hand", player=action.seat, card=cid,
                        chosen="seen" if kind == "take_seen" else "unseen")

    def record_claw(self, seat: int, action, card: int) -> None:
        """The clawed card is revealed to all (K5)."""
        kind, cid = action.kind, self.cards.ids[card]
        if kind == "claw_front":
            self._event("claw", seat, target="front", player=action.seat, card=cid)
        elif kind == "claw_hand":
            self._event("claw", seat, target="hand", player=action.seat, slot=action.slot, card=cid)
        elif kind == "claw_river":
            self._event("claw", seat, target="river", card=cid)
        else:
            self._event("claw", seat, target="deck", card=cid)

    def record_round_end(self, winners: list[int], reason: str, mater: int | None) -> None:
        ids, values, front, counts = self.cards.ids, self.cards.values, self.front, self.front_count
        fronts = [[ids[front[i]] for i in range(2 * p, 2 * p + counts[p])] for p in range(self.n)]
        totals = [sum(values[front[i]] for i in range(2 * p, 2 * p + counts[p])) for p in range(self.n)]
        symbols = self.cards.symbols
        trapped = [p for p in range(self.n)
                   if any(symbols[front[i]] == TRAP for i in range(2 * p, 2 * p + counts[p]))]
        fields: dict[str, Any] = {"reason": reason, "objective": OBJECTIVE_NAMES[self.objective],
                                  "fronts": fronts, "totals": totals, "trapped": trapped}
        if self.teams:
            half = self.n // 2
            fields["team_totals"] = [totals[t] + totals[t + half] for t in range(half)]
        if mater is not None:
            fields["player"] = mater
        self._event("round_end", None, winners=list(winners), levels=self.levels[:], **fields)

    def event_message(self, entry: dict[str, Any], viewer: int | None) -> dict[str, Any] | None:
        return event_message(entry, viewer, Seating(self.cards, self.n, self.teams))

    # ----- outcome ------------------------------------------------------------------------
    def scores(self) -> list[float]:
        return [float(v) for v in self.levels]

    def ranking_key(self, seat: int) -> tuple:
        return (self.levels[seat],)

    def visible_scores(self, seat: int | None) -> list[float | None]:
        """Round wins are public during play (they decide how hands are held, K2)."""
        return [float(v) for v in self.levels]

    # ----- information --------------------------------------------------------------------
    def _view(self, seat: int | None) -> dict[str, Any]:
        return _view_builder()(self, seat)

    def shared_view(self, seat: int | None) -> dict[str, Any]:
        """The engine's :meth:`State.shared_view` (the same view, read-only, unchanged parts
        handed out again), made whole by view.py: the envelope is written there, beside the
        parts it keeps, rather than merged in."""
        return _view_builder()(self, self.check_seat(seat, spectator=True), True)

    # ----- copies and serialisation -------------------------------------------------------
    def clone(self) -> "AmarokState":
        twin = AmarokState.__new__(AmarokState)
        twin.options = self.options
        twin.seed = self.seed
        twin.rng = clone_rng(self.rng)
        twin.history = self.history[:]
        twin.events = None if self.events is None else self.events[:]
        twin.cards = self.cards
        twin.acts = self.acts
        twin.n = self.n
        twin.teams = self.teams
        twin.target = self.target
        twin.levels = self.levels[:]
        twin.objective = self.objective
        twin.holder = self.holder
        twin.round = self.round
        twin.hand = self.hand[:]
        twin.owner_sees = self.owner_sees[:]
        twin.front = self.front[:]
        twin.front_count = self.front_count[:]
        twin.river = self.river[:]
        twin.deck = self.deck[:]
        twin.known_bottom = self.known_bottom
        twin.turn = self.turn
        twin.claw_pending = self.claw_pending
        twin.last = self.last  # an immutable tuple
        twin.last_round = self.last_round  # replaced, never changed in place
        return twin

    def card_id(self, card: int) -> str | None:
        return None if card == EMPTY else self.cards.ids[card]

    def last_json(self) -> dict[str, Any] | None:
        if self.last is None:
            return None
        seat, action, card = self.last
        return {"seat": seat, "action": _action_json(action), "card": self.cards.ids[card]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "AmarokState":
        """The state that :meth:`to_json` wrote (hidden parts, random stream and log included)."""
        if not isinstance(data, Mapping):
            raise RecordError("an Amarok state must be a JSON object")
        options = options_from_json(read.field(data, "options"))
        seed = data.get("seed")
        state = assemble(options, data, read.random_stream(read.field(data, "rng")),
                         None if seed is None else check_seed(seed))
        state.history = checks.history(read.field(data, "history"), state.n, state.cards)
        events = data.get("events")
        if events is not None and not isinstance(events, list):
            raise RecordError("events must be null or a list of events")
        state.events = None if events is None else [checks.read_event(e, i, state) for i, e in enumerate(events)]
        return state

    def to_json(self) -> dict[str, Any]:
        ids, n = self.cards.ids, self.n
        return {
            "game": self.game_name,
            "options": self.options.to_json(),
            "seed": self.seed,
            "rng": rng_to_json(self.rng),
            "history": [{"seat": s, "action": a.to_json()} for s, a in self.history],
            "round": self.round,
            "levels": self.levels[:],
            "objective": OBJECTIVE_NAMES[self.objective],
            "objective_holder": self.holder,
            "turn": self.turn,
            "claw_pending": self.claw_pending,
            "hands": [[self.card_id(self.hand[2 * p + k]) for k in (0, 1)] for p in range(n)],
            "owner_sees": [[self.owner_sees[2 * p + k] for k in (0, 1)] for p in range(n)],
            "fronts": [[ids[self.front[i]] for i in range(2 * p, 2 * p + self.front_count[p])]
                       for p in range(n)],
            "river": [ids[c] for c in self.river],
            "deck": [ids[c] for c in reversed(self.deck)],  # top first
            "known_bottom": self.known_bottom,
            "last": self.last_json(),
            "last_round": last_round_copy(self.last_round),
            "events": None if self.events is None else [e.to_json() for e in self.events],
        }


def assemble(options: AmarokOptions, data: Mapping[str, Any], rng: random.Random,
             seed: int | None) -> AmarokState:
    """A state from the JSON fields shared by ``to_json`` and the determinizer, checked as it
    is read: seats, slots and counts in range, every card of the deck in exactly one place, the
    player to act short of two cards (or choosing a claw's target). Anything else is a
    :class:`RecordError` naming the field."""
    state = AmarokState._blank(options, seed, rng)
    deck, n = state.cards, state.n
    index = deck.index
    state.round = read.integer(read.field(data, "round"), "round", 1, MAX_ROUND)
    state.levels = list(read.integers(read.field(data, "levels"), "levels", 0, state.target, n))
    state.objective = read.choice(read.field(data, "objective"), "objective", OBJECTIVE_IDS)
    state.holder = read.seat(read.field(data, "objective_holder"), "objective_holder", n)
    state.turn = read.integer(read.field(data, "turn"), "turn", TERMINAL, n - 1)
    state.claw_pending = read.boolean(read.field(data, "claw_pending"), "claw_pending")
    state.hand = [checks.slot(c, "hands", index)
                  for row in read.rows(read.field(data, "hands"), "hands", n, 2, 2) for c in row]
    state.owner_sees = [read.boolean(v, "owner_sees")
                        for row in read.rows(read.field(data, "owner_sees"), "owner_sees", n, 2, 2) for v in row]
    state.front = [EMPTY] * (2 * n)
    state.front_count = [0] * n
    for p, row in enumerate(read.rows(read.field(data, "fronts"), "fronts", n, 0, 2)):
        for k, cid in enumerate(row):
            state.front[2 * p + k] = checks.card(cid, "fronts", index)
        state.front_count[p] = len(row)
    state.river = [checks.card(c, "river", index) for c in read.a_list(read.field(data, "river"), "river")]
    state.deck = [checks.card(c, "deck", index) for c in reversed(read.a_list(read.field(data, "deck"), "deck"))]
    state.known_bottom = read.integer(read.field(data, "known_bottom"), "known_bottom", 0, len(state.deck))
    placed = [c for c in state.hand if c != EMPTY] + [c for c in state.front if c != EMPTY]
    if sorted(placed + state.river + state.deck) != list(range(len(deck))):
        raise RecordError("every card of the deck must be in exactly one place (a hand, a front, "
                          "the river or the deck)")
    _check_turn(state)
    state.last = checks.last(data.get("last"), n, deck)
    state.last_round = last_round_copy(checks.last_round(data.get("last_round"), n, deck))
    return state


def _check_turn(state: AmarokState) -> None:
    over = max(state.levels) >= state.target
    if over != (state.turn == TERMINAL):
        raise RecordError("turn must be -1 exactly when a player has reached rounds_to_win")
    if over:
        if state.claw_pending:
            raise RecordError("claw_pending must be false once the game is over")
        return
    count = state.front_count[state.turn]
    if state.claw_pending:
        if count == 0 or state.cards.symbols[state.front[2 * state.turn + count - 1]] != CLAW:
            raise RecordError("claw_pending needs a claw as the last card in front of the player to act")
    elif count >= 2:
        raise RecordError("the player to act must have fewer than two cards in front")


@lru_cache(maxsize=None)
def _view_builder():
    """:func:`.view.build_view` (imported on first use: view.py imports this module)."""
    from .view import build_view
    return build_view


_ACTION_JSON: dict[Any, dict[str, Any]] = {}


def _action_json(action) -> dict[str, Any]:
    """``action.to_json()`` as a fresh dict, made once per action (views show the last one at
    every call; an action's fields are plain values, so a copy of the dict is fresh)."""
    data = _ACTION_JSON.get(action)
    if data is None:
        data = action.to_json()
        if not all(v is None or isinstance(v, (str, int, float)) for v in data.values()):
            return data
        if len(_ACTION_JSON) > 4096:
            _ACTION_JSON.clear()
        _ACTION_JSON[action] = data
    return dict(data)


def last_round_copy(data: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if data is None:
        return None
    out = dict(data)
    for key in ("fronts",):
        out[key] = [list(row) for row in data[key]]
    for key in ("totals", "trapped", "winners"):
        out[key] = list(data[key])
    return out


def new_state(options: AmarokOptions, seed: int) -> AmarokState:
    return AmarokState.new_game(options, seed)
