"""Alarún's rules: setup, the action phase of a round, the placement at its end, 8 rounds.

See ``docs/rules/alarun.md`` for the rules as implemented and the rulings A1-A9.

A round has two phases. In the *action phase* players act one at a time, clockwise (seat
order), from the round's start player: swap, pass, swap all and pass, or (2 players) flip.
The first pass ends the round for everyone after each other player has had exactly one more
action (A4). In the *placement phase* every player puts their 3 hand cards into their
square, one card per decision, all players at once (A3): ``acting()`` lists every seat with
cards left to place, and other seats' placements stay hidden in views until all have placed.

Every action and every automatic effect is recorded in the event log (kinds and sentences in
:mod:`.events`), each call guarded by ``if self.events is not None`` so that playouts and
search, which record nothing, pay nothing.
"""

from __future__ import annotations

import random
from itertools import compress
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Mapping

from ...engine import Action, InvalidOptionsError, RecordError, State, TERMINAL, build_options, rng_to_json
from ...engine.registry import check_seed
from ...engine.state import clone_rng
from ...engine.log import Event
from . import checks
from .checks import field
from .actions import FLIP, PASS, PLACES, SWAP_ALL, SWAPS, Flip, Pass, Place, Swap, SwapAllAndPass
from .components import (CARD_IDS, CARD_NAMES, CENTRE_SIZE, COLOURS, DRUID, EMPTY, HAND_SIZE, INGREDIENTS, ROUNDS,
                    card_name, full_deck)
from .events import event_message as message_for
from .options import PLAYER_COUNTS, AlarunOptions  # (re-exported: options live in options.py)
from .scoring import POINTS, ScoreBreakdown, score_grid, strongest_potion
from .square import CELL_XY, MagicSquare, cell_index

if TYPE_CHECKING:
    from .view import _SeenSquare

ACTIONS, PLACEMENT, OVER = 0, 1, 2
PHASE_NAMES = ("actions", "placement", "over")
NO_SEAT = -1
ONLY = tuple(frozenset((s,)) for s in range(max(PLAYER_COUNTS)))  # seen_by: this seat alone
# The score sheet's lines: rows A-E (top to bottom), then columns F-J (left to right), as
# cell indices of a 5x5 grid.
LINES = tuple(tuple(range(r * 5, r * 5 + 5)) for r in range(5)) + tuple(tuple(range(c, 25, 5)) for c in range(5))


def action_phase_actions(hand: list[int], centre: list[int], can_flip: bool) -> list[Action]:
    """Swaps (by hand card, then centre card, each ascending; identical cards are not
    swapped), then pass, swap all and pass, and the 2-player flip."""
    acts: list[Action] = []
    targets = sorted(set(centre))
    previous = -1
    for give in hand:  # hands are kept sorted
        if give == previous:
            continue
        previous = give
        row = SWAPS[give]
        for take in targets:
            if take != give:
                acts.append(row[take])  # type: ignore[arg-type]  # None only at row[give]
    acts.append(PASS)
    acts.append(SWAP_ALL)
    if can_flip:
        acts.append(FLIP)
    return acts


def placement_actions(hand: list[int], cells: tuple[int, ...]) -> list:
    """Every distinct hand card on every open cell (card ascending, then cell)."""
    acts = []
    previous = -1
    for card in hand:
        if card == previous:
            continue
        previous = card
        row = PLACES[card]
        acts.extend([row[c] for c in cells])
    return acts


class AlarunState(State):
    game_name = "alarun"
    __slots__ = ("n", "cap", "phase", "turn", "start_player", "first_passer", "extra_left",
                 "actions_taken", "deck", "centre", "face_down", "discard", "hands", "known", "secret",
                 "squares", "pending", "to_place", "_final",
                 "_seen",    # the views' cache of each square's cards and points (view.py), made on first use
                 "_shared")  # the shared views' card lists (view.py), made on first use
    options: AlarunOptions
    n: int
    cap: int                  # the action cap, or 1 << 60 for none
    phase: int                # ACTIONS, PLACEMENT or OVER
    turn: int                 # the seat to act in the action phase, or TERMINAL
    start_player: int
    first_passer: int         # or NO_SEAT
    extra_left: int
    actions_taken: int
    deck: list[int]
    centre: list[int]
    face_down: list[int]
    discard: list[int]
    hands: list[list[int]]
    known: list[list[int]]
    secret: list[int]         # each seat's colour
    squares: list[MagicSquare]
    pending: list[list[int]]  # each seat's cells placed this round
    to_place: int
    _final: list[ScoreBreakdown] | None
    _seen: list[_SeenSquare]
    _shared: dict[Any, list[str]]

    # ----- setup ------------------------------------------------------------------------
    def __init__(self, options: AlarunOptions, seed: int | None, rng: random.Random | None = None):
        super().__init__(options, seed, rng if rng is not None else random.Random(seed))
        n = options.players
        self.n = n
        self.cap = options.action_cap if options.action_cap is not None else 1 << 60
        self._final: list[ScoreBreakdown] | None = None
        self.deck = full_deck()
        self.rng.shuffle(self.deck)
        self.discard: list[int] = []
        self.centre = self._deal(CENTRE_SIZE)
        self.hands = [sorted(self._deal(HAND_SIZE)) for _ in range(n)]
        self.face_down = self._deal(CENTRE_SIZE) if n == 2 else []
        self.secret = self.rng.sample(range(len(COLOURS)), n)  # A7: one colour card each, at random
        self.squares = [MagicSquare() for _ in range(n)]
        self.known: list[list[int]] = [[] for _ in range(n)]    # hand cards the others saw taken
        self.pending: list[list[int]] = [[] for _ in range(n)]  # cells placed this round (hidden)
        self.round = 1
        self.start_player = 0  # the rulebook's "most recently in a forest": seat 0
        if self.events is not None:
            self._event("round_started", None, start_player=0)
            self._tell_centre_dealt()
            self._tell_hands_dealt()
            for s in range(n):
                self._event("colour_dealt", None, {"colour": COLOURS[self.secret[s]]}, ONLY[s], player=s)
        self._begin_action_phase()

    def _deal(self, k: int) -> list[int]:
        cards = self.deck[-k:]
        del self.deck[-k:]
        return cards

    def _begin_action_phase(self) -> None:
        self.phase = ACTIONS
        self.turn = self.start_player
        self.first_passer = NO_SEAT
        self.extra_left = 0
        self.actions_taken = 0
        self.to_place = 0

    # ----- who acts ---------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        if self.phase == ACTIONS:
            return self.turn
        if self.phase == PLACEMENT:
            for s, hand in enumerate(self.hands):
                if hand:
                    return s
        return TERMINAL

    def acting(self) -> tuple[int, ...]:
        if self.phase == ACTIONS:
            return (self.turn,)
        if self.phase == PLACEMENT:
            return tuple(compress(range(self.n), self.hands))  # the seats whose hand is not empty
        return ()

    def is_terminal(self) -> bool:
        return self.phase == OVER


    # ----- legal actions ----------------------------------------------------------------
    waiting_seats_have_no_actions = True   # _legal_actions is empty for a seat not acting

    def _legal_actions(self, seat: int | None = None) -> list:
        phase = self.phase
        if phase == ACTIONS:
            if seat is not None and seat != self.turn:
                return []
            if self.actions_taken >= self.cap:
                return [PASS]
            return action_phase_actions(self.hands[self.turn], self.centre, bool(self.face_down))
        if phase == PLACEMENT:
            if seat is None:
                seat = self.current_player
            hand = self.hands[seat]
            if not hand:
                return []
            return placement_actions(hand, self.squares[seat].open_cells())
        return []

    # ----- applying actions -------------------------------------------------------------
    def _apply(self, action, seat: int) -> None:
        cls = action.__class__
        if cls is Place:
            self.place(seat, CARD_IDS[action.card], cell_index(action.x, action.y))
        elif cls is Swap:
            self.swap(seat, CARD_IDS[action.give], CARD_IDS[action.take])
        elif cls is Pass:
            self.pass_turn(seat)
        elif cls is SwapAllAndPass:
            self.swap_all_and_pass(seat)
        elif cls is Flip:
            self.flip(seat)
        else:
            raise TypeError(f"not an Alarún action: {action!r}")

    def swap(self, seat: int, give: int, take: int) -> None:
        """Swap: one hand card for one face-up centre card. Everyone sees both cards."""
        hand = self.hands[seat]
        hand.remove(give)
        hand.append(take)
        hand.sort()
        centre = self.centre
        centre[centre.index(take)] = give
        known = self.known[seat]
        if give in known:
            known.remove(give)
        known.append(take)
        known.sort()
        if self.events is not None:  # (Event directly: the hot path of a recorded game)
            self.events.append(Event("swap", seat, self.round, {"give": CARD_NAMES[give], "take": CARD_NAMES[take]}))
        self.end_turn(passed=False)

    def pass_turn(self, seat: int) -> None:
        """Pass: take no card."""
        if self.events is not None:
            self.events.append(Event("pass", seat, self.round, {}))
        self.end_turn(passed=True)

    def swap_all_and_pass(self, seat: int) -> None:
        """Swap and pass: the whole hand for the three face-up centre cards; this is a pass."""
        hand = self.hands[seat]
        self.hands[seat] = sorted(self.centre)
        self.centre = hand
        self.known[seat] = self.hands[seat][:]
        if self.events is not None:
            self._event("swap_all_and_pass", seat, gave=[CARD_NAMES[c] for c in hand],
                        took=[CARD_NAMES[c] for c in self.hands[seat]])
        self.end_turn(passed=True)

    def flip(self, seat: int) -> None:
        """2 players (A5): discard the face-up centre cards, turn the face-down ones up. Not a pass."""
        if self.events is not None:
            self._event("flip", seat, discarded=[CARD_NAMES[c] for c in self.centre],
                        turned_up=[CARD_NAMES[c] for c in self.face_down])
        self.discard.extend(self.centre)
        self.centre = self.face_down
        self.face_down = []
        self.end_turn(passed=False)

    def end_turn(self, passed: bool) -> None:
        """A4: the first pass gives each other player exactly one more action, in turn order;
        after the last of them the round's placement begins."""
        self.actions_taken += 1
        if self.first_passer == NO_SEAT:
            if passed:
                self.first_pass_takes_alarun()
        else:
            self.extra_left -= 1
        if self.first_passer != NO_SEAT and self.extra_left == 0:
            self.begin_placement()
        else:
            self.turn = (self.turn + 1) % self.n
            if self.actions_taken == self.cap and self.events is not None:
                self._event("action_cap_reached", None, cap=self.cap)

    def first_pass_takes_alarun(self) -> None:
        """A4: the first passer takes Alarún (and starts the next round); each other player has
        exactly one more action, in turn order."""
        n = self.n
        self.first_passer = self.turn
        self.extra_left = n - 1
        if self.events is not None:
            self._event("alarun_taken", None, player=self.turn,
                        one_more=[(self.turn + k) % n for k in range(1, n)])

    def begin_placement(self) -> None:
        self.phase = PLACEMENT
        self.to_place = HAND_SIZE * self.n
        if self.events is not None:
            self._event("placement_started", None, cards=HAND_SIZE)

    def place(self, seat: int, card: int, cell: int) -> None:
        """A3: one hand card onto an open cell of the seat's square (hidden from the others
        until every player has placed)."""
        self.hands[seat].remove(card)
        self.squares[seat].place(card, cell)
        pending = self.pending[seat]
        pending.append(cell)
        if self.events is not None:
            x, y = CELL_XY[cell]
            self.events.append(Event("place", seat, self.round, {"placed": len(pending)},
                                     {"card": CARD_NAMES[card], "x": x, "y": y}, ONLY[seat]))
        self.to_place -= 1
        if self.to_place == 0:
            self.end_round()

    def end_round(self) -> None:
        """All placements are revealed; after round 8 the game ends, else the next round is dealt."""
        n = self.n
        events = self.events is not None
        if events:
            self._tell_placements_revealed()
        self.pending = [[] for _ in range(n)]
        self.known = [[] for _ in range(n)]
        if self.round == ROUNDS:
            self.phase = OVER
            if events:
                self._tell_final_scores()
            return
        self.round += 1
        self.start_player = self.first_passer
        if events:
            self._event("round_started", None, start_player=self.start_player)
        self.refresh_centre()
        self.hands = [sorted(self._deal(HAND_SIZE)) for _ in range(n)]
        if events:
            self._tell_hands_dealt()
        self._begin_action_phase()

    def refresh_centre(self) -> None:
        """A6: with 4 players the centre stays; with 2-3 it goes to the open discard pile (face-down
        cards too, face up) and 3 new cards are dealt face up (2 players: 3 more face down)."""
        if self.n == 4:
            if self.events is not None:
                self._event("centre_kept", None, cards=[CARD_NAMES[c] for c in self.centre])
            return
        if self.events is not None:
            self._event("centre_discarded", None, cards=[CARD_NAMES[c] for c in self.centre],
                        face_down=[CARD_NAMES[c] for c in self.face_down])
        self.discard.extend(self.centre)
        self.discard.extend(self.face_down)
        self.centre = self._deal(CENTRE_SIZE)
        self.face_down = self._deal(CENTRE_SIZE) if self.n == 2 else []
        if self.events is not None:
            self._tell_centre_dealt()

    # ----- telling what happened (the event log) ----------------------------------------
    def _tell_centre_dealt(self) -> None:
        self._event("centre_dealt", None, cards=[CARD_NAMES[c] for c in self.centre],
                    face_down=len(self.face_down))

    def _tell_hands_dealt(self) -> None:
        """Everyone sees that each player takes 3 cards; only the player sees which."""
        events, round_ = self.events, self.round
        assert events is not None  # told only while the log is recorded
        for s, hand in enumerate(self.hands):
            events.append(Event("hand_dealt", None, round_, {"player": s, "count": len(hand)},
                                {"cards": [CARD_NAMES[c] for c in hand]}, ONLY[s]))

    def _tell_placements_revealed(self) -> None:
        """A3: once everyone has placed, the round's cards are shown, each seat's by cell (row
        by row), not in the order placed (which no one else saw)."""
        events, round_ = self.events, self.round
        assert events is not None  # told only while the log is recorded
        for s, square in enumerate(self.squares):
            cells = square.cells
            shown = []
            for i in sorted(self.pending[s]):
                x, y = CELL_XY[i]
                shown.append({"card": CARD_NAMES[cells[i]], "x": x, "y": y})
            events.append(Event("placements_revealed", None, round_, {"player": s, "cards": shown}))

    def _tell_final_scores(self) -> None:
        """The score sheet, line by line: the druid's value, rows A-E and columns F-J with
        their potions, the Centum auri, the colour bonus (the secret colour revealed), the
        total; then the winner(s)."""
        finals = self.breakdowns()
        for s, b in enumerate(finals):
            grid = self.squares[s].grid()
            if b.druid is not None:
                self._event("druid_value", None, player=s, card=CARD_NAMES[b.druid])
            self._tell_potions(s, grid, b)
            self._event("centum_auri_scored", None, player=s, points=b.centum_auri)
            colour = COLOURS[self.secret[s]]
            self._event("colour_bonus", None, player=s, colour=colour, cards=b.colour_bonus // 2,
                        points=b.colour_bonus)
            self._event("final_score", None, player=s, potions=b.potions, centum_auri=b.centum_auri,
                        colour_bonus=b.colour_bonus, total=b.total)
        winners = self.winners()
        best = finals[winners[0]]
        tied = [s for s, b in enumerate(finals) if b.total == best.total]
        self._event("game_won", None, winners=winners, total=best.total, potions=best.potions,
                    tie_break=len(winners) < len(tied))

    def _tell_potions(self, seat: int, grid: list[int], b: ScoreBreakdown) -> None:
        """One ``potion_scored`` per line of the score sheet: rows A-E, then columns F-J."""
        druid = DRUID if b.druid is None else b.druid  # (None only for a grid without the druid)
        counted = [druid if c == DRUID else c for c in grid]
        names = [card_name(c) for c in grid]
        events, round_ = self.events, self.round
        assert events is not None  # told only while the log is recorded
        for k, line in enumerate(LINES):
            points = b.rows[k] if k < 5 else b.columns[k - 5]
            if points > 1:  # from 2 cards on, a potion shares an ingredient or a colour
                strength, by, trait = strongest_potion([counted[i] for i in line])
                shared = (INGREDIENTS if by == "ingredient" else COLOURS)[trait]
            else:
                strength, by, shared = points, None, None
            events.append(Event("potion_scored", None, round_, {
                "player": seat, "line": "ABCDEFGHIJ"[k], "cards": [names[i] for i in line],
                "strength": strength, "by": by, "shared": shared, "points": POINTS[strength]}))

    # ----- outcome ----------------------------------------------------------------------
    def breakdowns(self, druids: Mapping[int, int] | None = None) -> list[ScoreBreakdown]:
        """Each seat's score breakdown (final once the game is over); ``druids`` may impose the
        druid's value for some seats (default: the best for each)."""
        if druids is None and self._final is not None:
            return self._final
        out = [score_grid(self.squares[s].grid(), self.secret[s], (druids or {}).get(s))
               for s in range(self.n)]
        if druids is None and self.phase == OVER:
            self._final = out
        return out

    def scores(self) -> list[float]:
        """Final scores once the game is over; before that, the provisional score of the
        cards placed so far."""
        return [b.total for b in self.breakdowns()]

    def ranking_key(self, seat: int) -> tuple:
        b = self.breakdowns()[seat]
        return (b.total, b.potions)  # tie-break: the most powerful potions, then shared

    # ----- information ------------------------------------------------------------------
    def _view(self, seat: int | None) -> dict[str, Any]:
        return _view_builder()(self, seat)

    def shared_view(self, seat: int | None) -> dict[str, Any]:
        """The engine's :meth:`State.shared_view` (equal to ``view(seat)``, read-only, unchanged
        parts handed out again), made whole by view.py: the envelope is written there rather
        than merged in."""
        return _view_builder()(self, self.check_seat(seat, spectator=True), True)

    def event_message(self, entry: dict[str, Any], viewer: int | None) -> dict[str, Any]:
        return message_for(entry, viewer)

    # ----- copies and serialisation -----------------------------------------------------
    def clone(self) -> "AlarunState":
        twin = AlarunState.__new__(AlarunState)
        twin.options = self.options
        twin.seed = self.seed
        twin.rng = clone_rng(self.rng)
        twin.history = self.history[:]
        twin.events = None if self.events is None else self.events[:]
        twin.n = self.n
        twin.cap = self.cap
        twin.phase = self.phase
        twin.round = self.round
        twin.turn = self.turn
        twin.start_player = self.start_player
        twin.first_passer = self.first_passer
        twin.extra_left = self.extra_left
        twin.actions_taken = self.actions_taken
        twin.to_place = self.to_place
        twin.deck = self.deck[:]
        twin.centre = self.centre[:]
        twin.face_down = self.face_down[:]
        twin.discard = self.discard[:]
        twin.hands = [h[:] for h in self.hands]
        twin.known = [k[:] for k in self.known]
        twin.secret = self.secret[:]
        twin.squares = [sq.copy() for sq in self.squares]
        twin.pending = [p[:] for p in self.pending]
        twin._final = self._final  # immutable breakdowns of a finished game
        return twin

    def to_json(self) -> dict[str, Any]:
        names = CARD_NAMES
        return {
            "game": "alarun",
            "options": self.options.to_json(),
            "seed": self.seed,
            "rng": rng_to_json(self.rng),
            "phase": PHASE_NAMES[self.phase],
            "round": self.round,
            "turn": self.turn,
            "start_player": self.start_player,
            "first_passer": None if self.first_passer == NO_SEAT else self.first_passer,
            "extra_actions_left": self.extra_left,
            "actions_taken": self.actions_taken,
            "deck": [names[c] for c in self.deck],
            "centre": [names[c] for c in self.centre],
            "face_down": [names[c] for c in self.face_down],
            "discard": [names[c] for c in self.discard],
            "hands": [[names[c] for c in h] for h in self.hands],
            "known": [[names[c] for c in k] for k in self.known],
            "secret_colours": [COLOURS[c] for c in self.secret],
            "squares": [[[*CELL_XY[i], names[c]] for i, c in sq.placed()] for sq in self.squares],
            "pending": [[list(CELL_XY[i]) for i in p] for p in self.pending],
            "history": [{"seat": s, "action": a.to_json()} for s, a in self.history],
            "events": None if self.events is None else [e.to_json() for e in self.events],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "AlarunState":
        """The state :meth:`to_json` wrote, each field checked as it is read (:mod:`.checks`),
        then the fields against each other (:func:`check_consistent`): RecordError naming the
        field otherwise."""
        from . import SPEC
        n, state = _blank_state(data)
        options = state.options
        state.phase = checks.choice(field(data, "phase"), "phase", PHASE_IDS)
        state.round = checks.integer(field(data, "round"), "round", 1, ROUNDS)
        state.turn = checks.seat(field(data, "turn"), "turn", n)
        state.start_player = checks.seat(field(data, "start_player"), "start_player", n)
        first_passer = field(data, "first_passer")
        state.first_passer = NO_SEAT if first_passer is None else checks.seat(first_passer, "first_passer", n)
        state.extra_left = checks.integer(field(data, "extra_actions_left"), "extra_actions_left", 0, n - 1)
        most = MAX_ACTIONS if options.action_cap is None else options.action_cap + n  # (passes after the cap)
        state.actions_taken = checks.integer(field(data, "actions_taken"), "actions_taken", 0, most)
        state.deck = checks.cards(field(data, "deck"), "deck")
        state.centre = checks.cards(field(data, "centre"), "centre", CENTRE_SIZE, CENTRE_SIZE)
        state.face_down = checks.cards(field(data, "face_down"), "face_down", 0, CENTRE_SIZE)
        state.discard = checks.cards(field(data, "discard"), "discard")
        state.hands = [checks.cards(h, f"hands[{s}]", 0, HAND_SIZE)
                       for s, h in enumerate(checks.per_seat(field(data, "hands"), "hands", n))]
        state.known = [checks.cards(k, f"known[{s}]", 0, HAND_SIZE)
                       for s, k in enumerate(checks.per_seat(field(data, "known"), "known", n))]
        state.secret = [checks.colour(c, f"secret_colours[{s}]")
                        for s, c in enumerate(checks.per_seat(field(data, "secret_colours"), "secret_colours", n))]
        state.squares = [checks.square(sq, f"squares[{s}]")
                         for s, sq in enumerate(checks.per_seat(field(data, "squares"), "squares", n))]
        state.pending = [checks.cells(p, f"pending[{s}]", HAND_SIZE)
                         for s, p in enumerate(checks.per_seat(field(data, "pending"), "pending", n))]
        state.to_place = sum(len(h) for h in state.hands) if state.phase == PLACEMENT else 0
        check_consistent(state)
        state.history = _history(field(data, "history"), n, SPEC.action_from_json)
        state.events = checks.events(data.get("events"), n)
        return state


PHASE_IDS = {name: k for k, name in enumerate(PHASE_NAMES)}
MAX_ACTIONS = 1_000_000  # actions in a round's action phase without a cap (as many as a view may show)


def _blank_state(data: Mapping[str, Any]) -> tuple[int, AlarunState]:
    """A state with its options, seed and random stream read from ``data``, nothing else."""
    try:
        options = build_options(AlarunOptions, field(data, "options"), PLAYER_COUNTS)
    except InvalidOptionsError as exc:
        raise RecordError(f"options: {exc}") from None
    seed = field(data, "seed")
    if seed is not None:
        seed = check_seed(seed)
    state = AlarunState.__new__(AlarunState)
    State.__init__(state, options, seed, checks.rng(field(data, "rng")))
    state.n = options.players
    state.cap = options.action_cap if options.action_cap is not None else 1 << 60
    state._final = None
    return options.players, state


def _history(value: Any, n: int, decode) -> list:
    history = []
    for k, item in enumerate(checks.a_list(value, "history")):
        seat = checks.seat(field(item, "seat", f"history[{k}]."), f"history[{k}].seat", n)
        history.append((seat, decode(field(item, "action", f"history[{k}]."))))
    return history


@lru_cache(maxsize=None)
def _view_builder():
    """:func:`.view.build_view` (imported on first use: view.py imports this module)."""
    from .view import build_view
    return build_view


def dealt_so_far(players: int, round_: int) -> int:
    """Cards dealt from the stack by the end of round ``round_``'s deal: 12 a round (the
    hands, and with 2-3 players a new centre, face-down cards with 2), plus the first centre,
    which 4 players keep all game."""
    return 12 * round_ + (CENTRE_SIZE if players == 4 else 0)


def check_consistent(state: AlarunState) -> None:
    """The fields of a loaded state against each other, as the rules keep them: every card in
    one place and the stack as long as the round says, hands and squares sized for the phase,
    placements on the seat's own cards, whose turn it is, the cards others saw taken in the
    hand, the secret colours distinct. RecordError naming the field otherwise."""
    n, phase, round_ = state.n, state.phase, state.round
    everything = state.deck + state.centre + state.face_down + state.discard
    for s in range(n):
        everything += state.hands[s]
        everything += checks.square_cards(state.squares[s])
    if sorted(everything) != FULL_DECK:
        raise RecordError(f"the cards must be the game's {len(FULL_DECK)} (each coloured ingredient "
                          f"twice, the Centum auri once), each in one place; found {len(everything)} cards "
                          f"or a card too often")
    if len(state.deck) != len(FULL_DECK) - dealt_so_far(n, round_):
        raise RecordError(f"deck must hold {len(FULL_DECK) - dealt_so_far(n, round_)} cards in round "
                          f"{round_} with {n} players; got {len(state.deck)}")
    if len(state.face_down) not in ((0, CENTRE_SIZE) if n == 2 else (0,)):
        raise RecordError(f"face_down must hold 0 or {CENTRE_SIZE} cards with 2 players, none with more; "
                          f"got {len(state.face_down)}")
    if len(set(state.secret)) != n:
        raise RecordError("secret_colours must be different colours")
    if phase == OVER and round_ != ROUNDS:
        raise RecordError(f"round must be {ROUNDS} once the phase is over; got {round_}")
    if phase == ACTIONS:
        _check_turn(state)
    elif phase == PLACEMENT and (state.first_passer == NO_SEAT or state.extra_left):
        raise RecordError("first_passer must be a seat and extra_actions_left 0 in the placement phase")
    earlier = HAND_SIZE * (round_ - 1) if phase != OVER else HAND_SIZE * ROUNDS
    for s in range(n):
        _check_seat_cards(state, s, earlier)


def _check_turn(state: AlarunState) -> None:
    problem = turn_problem(state.n, state.turn, state.start_player, state.actions_taken, state.first_passer,
                           state.extra_left)
    if problem:
        raise RecordError(f"turn, start_player, actions_taken, first_passer and extra_actions_left: {problem}")


def turn_problem(n: int, turn: int, start_player: int, actions_taken: int, first_passer: int,
                 extra_left: int) -> str | None:
    """What is wrong with whose turn it is in the action phase, or None. The turn goes round
    from the start player, one seat per action; after the first pass each other seat has
    exactly one more action (A4)."""
    if turn != (start_player + actions_taken) % n:
        return "the turn must be the start player's seat plus the actions taken (clockwise)"
    if (first_passer == NO_SEAT) != (extra_left == 0):
        return "the extra actions left must be 0 before the first pass and 1 or more after it"
    if first_passer != NO_SEAT and turn != (first_passer + n - extra_left) % n:
        return "the turn must follow the first passer by the extra actions already taken"
    return None


def _check_seat_cards(state: AlarunState, s: int, earlier: int) -> None:
    """Seat ``s``'s hand, this round's placements and square for the phase; ``earlier`` = the
    cards placed in the rounds before."""
    hand, pending, square = state.hands[s], state.pending[s], state.squares[s]
    phase = state.phase
    if phase == ACTIONS and len(hand) != HAND_SIZE:
        raise RecordError(f"hands[{s}] must hold {HAND_SIZE} cards in the action phase; got {len(hand)}")
    if phase != PLACEMENT and pending:
        raise RecordError(f"pending[{s}] must be empty outside the placement phase")
    if phase == PLACEMENT and len(hand) + len(pending) != HAND_SIZE:
        raise RecordError(f"hands[{s}] and pending[{s}] must hold {HAND_SIZE} cards together in the placement phase")
    if phase == OVER and hand:
        raise RecordError(f"hands[{s}] must be empty once the game is over")
    if square.count() - 1 != earlier + len(pending):
        raise RecordError(f"squares[{s}] must hold {earlier + len(pending)} cards in round {state.round} "
                          f"({PHASE_NAMES[phase]}); got {square.count() - 1}")
    cells = square.cells
    if any(cells[i] == EMPTY for i in pending):
        raise RecordError(f"pending[{s}] must name cells of squares[{s}] that hold a card")
    known = state.known[s]
    if known:
        held = hand + [cells[i] for i in pending]
        if phase == OVER or any(known.count(c) > held.count(c) for c in known):
            raise RecordError(f"known[{s}] must be cards of hands[{s}] (or placed from it this round)")


FULL_DECK = sorted(full_deck())


def new_state(options: AlarunOptions, seed: int) -> AlarunState:
    return AlarunState(options, seed)


__all__ = ["AlarunOptions", "AlarunState", "PLAYER_COUNTS", "action_phase_actions", "new_state",
           "placement_actions"]
