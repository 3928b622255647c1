"""The Druids of Edora: state, setup and the turn (edora-spec.md §2-§3, rulings E1-E4).

A turn runs as a small stack of steps (``self.stack``). Automatic steps (competition,
action, fire pits, dolmens, herb release, end of turn) run as soon as they reach the top;
a decision (where to go, which die on which space, which tablet, gem, stone, potion,
herb or repeated reward) waits on top until its player chooses. The legal actions are
exactly the choices of the decision on top (:mod:`.decisions`). Sanctuary actions, fire
pits, dolmens and herb release are methods below; potions are in :mod:`.potions`, tablet
conditions and the final scoring in :mod:`.scoring`.
"""

from __future__ import annotations

import random
from typing import Any, Mapping

from ...engine.errors import RecordError
from ...engine.log import Event, seat_ref
from ...engine.state import TERMINAL, State, clone_rng, rng_from_json
from . import actions as A
from . import decisions
from .board import (DIE, FOOD, KNOW, MIST, REWARDS, SPACE_AMULET, SPACE_KNOWLEDGE, SPACE_MISTLETOE,
                    SPACE_PROVISIONS, SPACE_SICKLE, SPACE_STANDING_STONE, SPACE_TABLET, VP, Board,
                    board_from_text, dolmen_separation_problem)
from .components import (ACTIVE, BEIGE_BONUS, DOLMEN_COLOURS, HERBS, HERBS_PER_PLAYER, HERB_AMULET, HERB_DIE,
                         HERB_FIRE, HERB_KNOW, HERB_LEAP, HERB_MIST, HERB_RUNE, HERB_SICKLE, HERB_STAND,
                         HERB_TABLET, HERB_VP, ON_BOARD, POTIONS, SPACE_STRIDE, TABLETS, TABLET_COPIES)
from .events import event_message
from .options import EdoraOptions
from .scoring import final_scoring, record_final_scoring
from .checks import check_state
from .state_json import load_state, options_of, state_to_json
from .view import shared_view, state_view
from .steps import (ACTIVATE_HERB, ARRANGE_HERBS, BEGIN_PLAY, BREW_POTION, CHOOSE_START, COMPETITION, DOLMENS,
                    END_TURN, FIRE_PITS, KEEP_TABLET, MOVE, PLACE_DIE, PLACE_RUNE_STONE, PLACE_STANDING_STONE,
                    PROVISIONS_OR_DICE, RELEASED_HERBS, REPEAT_FIRE_REWARD, REPEAT_STONE_REWARD,
                    SANCTUARY_ACTION, TAKE_DIE, TAKE_GEM, TAKE_TABLET)

class EdoraState(State):
    game_name = "edora"

    __slots__ = (
        "board", "n", "stack", "player", "start_player", "ending", "over",
        "quiet_rounds", "die_this_round", "knowledge_counter", "links", "closures",
        # per player
        "provisions", "mistletoe", "prestige", "knowledge", "knowledge_stack", "sickle", "figure", "start_at",
        "reserve", "overview", "placed", "die_mask", "standing", "runes", "herb_at",
        "herb_state", "pairs_released", "arranged", "amulet", "gem_mask", "tablets", "dolmens", "beige_dolmens",
        # shared
        "owner", "value", "used", "standing_at", "rune_at", "pit_closed", "ring_colours",
        "colour_ends", "dolmen_owner", "oracle_stones", "oracle_slots", "deck", "deck_marks",
        "draft_hand", "gems_left", "potion_owner", "final",
        "_sanctuaries_json",  # the views' cache of the sanctuaries' JSON (state_json.py), made on first use
        "_view_parts",        # the shared views' parts (view.shared_view), made on first use
    )
    options: EdoraOptions
    board: Board
    n: int
    stack: list[tuple[int, ...]]        # the turn stack: (step, parameter, parameter), the top last
    player: int
    start_player: int
    ending: bool
    over: bool
    quiet_rounds: int
    die_this_round: bool
    knowledge_counter: int
    links: int
    closures: int
    # per player (a list of one entry per seat, or of a fixed number of entries per seat)
    provisions: list[int]
    mistletoe: list[int]
    prestige: list[int]
    knowledge: list[int]
    knowledge_stack: list[int]
    sickle: list[int]
    figure: list[int]                   # the sanctuary the druid stands on (-1: off the board)
    start_at: list[int]
    reserve: list[int]                  # 7 per seat: dice of each value
    overview: list[int]                 # 7 per seat
    placed: list[int]
    die_mask: list[int]
    standing: list[int]                 # bit masks of the stones taken
    runes: list[int]
    herb_at: list[int]                  # 12 per seat: the circle's herb (-1: empty)
    herb_state: list[int]               # 12 per seat
    pairs_released: list[int]
    arranged: list[int]
    amulet: list[int]                   # 6 per seat: the gem on each slot (-1: none)
    gem_mask: list[int]
    tablets: list[list[int]]
    dolmens: list[int]
    beige_dolmens: list[int]
    # shared
    owner: list[int]                    # SPACE_STRIDE per sanctuary: the seat of the die on each space
    value: list[int]
    used: list[int]
    standing_at: list[int]
    rune_at: list[int]
    pit_closed: list[int]
    ring_colours: list[str]
    colour_ends: list[tuple[int, ...]]
    dolmen_owner: list[int]
    oracle_stones: list[int]
    oracle_slots: list[int]
    deck: list[int]                     # the top of the deck is the end of the list
    deck_marks: list[int]
    draft_hand: list[int]
    gems_left: list[int]
    potion_owner: list[int]
    final: list[dict[str, Any]] | None
    _sanctuaries_json: tuple
    _view_parts: dict[str, Any]

    # ----- construction ----------------------------------------------------------------------
    def __init__(self, options: EdoraOptions, seed: int | None, rng: random.Random | None = None):
        super().__init__(options, seed, rng if rng is not None else random.Random(seed))
        self.board: Board = board_from_text(options.board)
        A.build_board_tables(self.board)
        self.n = options.players
        self._setup()

    def _setup(self) -> None:
        """§2: board, oracle site, dolmens, dice, start player, tablets, herbs, knowledge stack."""
        b, n, rng, opts = self.board, self.n, self.rng, self.options
        ns = b.size
        self.stack = []
        self.player = 0
        self.round = 1
        self.ending = False
        self.over = False
        self.quiet_rounds = 0
        self.die_this_round = False
        self.links = 0
        self.closures = 0
        self.owner = [-1] * (ns * SPACE_STRIDE)
        self.value = [0] * (ns * SPACE_STRIDE)
        self.used = [0] * ns
        self.standing_at = [0] * ns
        self.rune_at = [0] * ns
        self.pit_closed = [-1] * len(b.pit_names)
        # tablets: shuffled deck, 2 face up beside each side of the hexagon; oracle stones
        deck = [t for t in range(len(TABLETS)) for _ in range(TABLET_COPIES)]
        rng.shuffle(deck)
        self.deck = deck                       # the top of the deck is the end of the list
        self.deck_marks = [-1] * len(deck)     # who knows that card (V1: put under the deck)
        self.oracle_slots = [deck.pop() for _ in range(12)]
        del self.deck_marks[len(deck):]
        stones = list(b.oracle_stones)
        rng.shuffle(stones)
        self.oracle_stones = stones
        self.ring_colours = random_dolmen_ring(len(b.ring), rng)
        self._index_colours()
        self.dolmen_owner = [-1] * (len(b.ring) // 2)
        self.gems_left = [4] * 6
        self.potion_owner = [-1] * len(POTIONS)
        self.final = None
        # per player
        self.provisions = [b.start_provisions] * n
        self.mistletoe = [0] * n
        self.prestige = [0] * n
        self.knowledge = [0] * n
        self.knowledge_stack = [0] * n
        self.sickle = [0] * n
        self.figure = [-1] * n
        self.start_at = [-1] * n
        self.placed = [0] * n
        self.die_mask = [0] * n
        self.standing = [0] * n
        self.runes = [0] * n
        self.pairs_released = [0] * n
        self.arranged = [HERBS_PER_PLAYER] * n
        self.amulet = [-1] * (6 * n)
        self.gem_mask = [0] * n
        self.tablets = [[] for _ in range(n)]
        self.dolmens = [0] * n
        self.beige_dolmens = [0] * n
        self.draft_hand = []
        # dice: 4 rolled to the reserve, 9 to the overview board (public, never re-rolled)
        self.reserve = [0] * (7 * n)
        self.overview = [0] * (7 * n)
        nine = []
        for p in range(n):
            for _ in range(4):
                self.reserve[7 * p + rng.randint(1, 6)] += 1
            nine.append([rng.randint(1, 6) for _ in range(9)])
        sums = [sum(v * self.reserve[7 * p + v] for v in range(1, 7)) for p in range(n)]
        best = max(sums)
        tied = [p for p in range(n) if sums[p] == best]
        sp = tied[0] if len(tied) == 1 else rng.choice(tied)
        self.start_player = sp
        self.player = sp
        if self.events is not None:
            self._event("setup", None, start_player=sp, reserve_sums=sums, tie=len(tied) > 1)
        for p in range(n):
            for v in (nine[sp] if opts.shared_dice else nine[p]):
                self.overview[7 * p + v] += 1
        # herbs: shuffled face down, then laid face up in the 12 circles of the sickle track
        self.herb_at = [-1] * (HERBS_PER_PLAYER * n)
        self.herb_state = [ON_BOARD] * (HERBS_PER_PLAYER * n)
        layouts = []
        for p in range(n):
            perm = list(range(HERBS_PER_PLAYER))
            rng.shuffle(perm)
            layouts.append(perm)
        for p in range(n):
            if opts.arranged_herbs:
                self.arranged[p] = 0
            else:
                layout = layouts[sp] if opts.shared_herbs else layouts[p]
                self.herb_at[HERBS_PER_PLAYER * p:HERBS_PER_PLAYER * (p + 1)] = layout
        # knowledge stack: start player at the bottom, the others clockwise on top
        for k in range(n):
            self.knowledge_stack[(sp + k) % n] = k
        self.knowledge_counter = n
        order = [(sp + k) % n for k in range(n)]
        # the setup decisions, last pushed = first taken
        self.stack.append((BEGIN_PLAY, 0, 0))
        # start spaces: from the start player's right, counter-clockwise; start player last
        for p in reversed([(sp - 1 - j) % n for j in range(n)]):
            self.stack.append((CHOOSE_START, p, 0))
        if opts.arranged_herbs:
            self.stack.append((ARRANGE_HERBS, 0, 0))
        if opts.tablet_draft:
            for p in reversed(order):
                self.stack.append((KEEP_TABLET, p, 0))
        else:
            for p in order:
                self.tablets[p].append(self.deck.pop())
                self.deck_marks.pop()
                if self.events is not None:
                    self._event("start_tablet", None, player=p, tablet=TABLETS[self.tablets[p][-1]])
        self._advance()

    def _index_colours(self) -> None:
        ring = self.board.ring
        ends: dict[str, list[int]] = {}
        for k, c in enumerate(self.ring_colours):
            ends.setdefault(c, []).append(ring[k])
        self.colour_ends = [tuple(ends[c]) for c in sorted(ends)]

    # ----- protocol: who acts -----------------------------------------------------------------
    @property
    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        top = self.stack[-1]
        k = top[0]
        if k == CHOOSE_START or k == KEEP_TABLET:
            return top[1]
        if k == ARRANGE_HERBS:
            return min(self._arranging())
        return self.player

    def acting(self) -> tuple[int, ...]:
        if self.over:
            return ()
        if self.stack[-1][0] == ARRANGE_HERBS:
            return self._arranging()
        return (self.current_player,)

    def _arranging(self) -> tuple[int, ...]:
        return tuple(p for p in range(self.n) if self.arranged[p] < HERBS_PER_PLAYER)

    def is_terminal(self) -> bool:
        return self.over


    def herb_active(self, p: int, h: int) -> bool:
        return self.herb_state[HERBS_PER_PLAYER * p + h] == ACTIVE

    def ahead(self, p: int) -> tuple[int, int]:
        """§5: position on the knowledge track, then height in that position's stack."""
        return (self.knowledge[p], self.knowledge_stack[p])

    # ----- protocol: legal actions ------------------------------------------------------------
    waiting_seats_have_no_actions = True   # _legal_actions is empty for a seat not acting

    def _legal_actions(self, seat: int | None = None) -> list:
        if self.over:
            return []
        top = self.stack[-1]
        if seat is not None and seat != self.current_player:
            if top[0] != ARRANGE_HERBS or seat not in self._arranging():
                return []
        if seat is None:
            seat = self.current_player
        return _LEGAL[top[0]](self, top, seat)

    def _legal_turn(self, top, p) -> list:
        b = self.board
        res = self.reserve
        base = 7 * p
        minv = 0
        for v in range(1, 7):
            if res[base + v]:
                minv = v
                break
        if not minv:
            return [A.EMERGENCY]
        if self.herb_state[HERBS_PER_PLAYER * p + HERB_DIE] == ACTIVE:
            minv = max(1, minv - 2)
        budget = self.provisions[p] - minv
        out = []
        if budget >= 1:
            cur = self.figure[p]
            dist = b.dist[cur]
            mask = 0 if self.options.revisit_sanctuaries else self.die_mask[p]
            used, n = self.used, self.n
            table = b.tables["moves"]
            for d in range(b.size):
                c = dist[d]
                if c <= budget and d != cur and not (mask >> d) & 1 and used[d] < n:
                    out.append(table[d][c])
            if self.herb_state[HERBS_PER_PLAYER * p + HERB_LEAP] == ACTIVE:
                leaps = b.tables["leaps"]
                for d in b.glade_members[b.glade_of[cur]]:
                    if d != cur and dist[d] > 1 and not (mask >> d) & 1 and used[d] < n:
                        out.append(leaps[d])
        if self.figure[p] >= 0:
            out.append(A.EMERGENCY)
        return out

    def _legal_place(self, top, p) -> list:
        s = self.figure[p]
        budget = self.provisions[p]
        res = self.reserve
        base = 7 * p
        herb = self.herb_state[HERBS_PER_PLAYER * p + HERB_DIE] == ACTIVE
        table = self.board.tables["places"][s]
        owner = self.owner
        out = []
        for i in range(self.n):
            if owner[s * SPACE_STRIDE + i] >= 0:
                continue
            ti = table[i]
            for v in range(1, 7):
                if not res[base + v]:
                    continue
                if herb:
                    for w in range(max(1, v - 2), min(6, v + 2) + 1):
                        if w <= budget:
                            out.append(ti[v][w])
                elif v <= budget:
                    out.append(ti[v][v])
        return out

    # ----- protocol: apply --------------------------------------------------------------------
    def _apply(self, action, seat: int) -> None:
        _APPLY[type(action)](self, action, seat)
        self._advance()

    def _advance(self) -> None:
        """Run automatic steps until a decision with a real choice is on top (or the game ends)."""
        stack = self.stack
        while stack:
            top = stack[-1]
            k = top[0]
            if k >= 100:
                stack.pop()
                _WORK[k](self, top)
            elif _SETTLE[k](self, top):
                return

    # ----- rewards ----------------------------------------------------------------------------
    def vp3(self, p: int, times: int = 1) -> None:
        """Awards of exactly 3 prestige (5 with the prestige herb, Q7)."""
        self.prestige[p] += (5 if self.herb_state[HERBS_PER_PLAYER * p + HERB_VP] == ACTIVE else 3) * times

    def gain(self, p: int, reward: int, times: int = 1) -> None:
        """A basic reward (§4.1), ``times`` separate awards; no action herbs apply here."""
        if times <= 0:
            return
        if reward == VP:
            self.vp3(p, times)
        elif reward == KNOW:
            self.advance_knowledge(p, times)
        elif reward == FOOD:
            self.provisions[p] += 3 * times
        elif reward == DIE:
            self.take_dice(p, times)
        elif reward == MIST:
            self.mistletoe[p] += times
        else:
            self.advance_sickle(p, times)

    def advance_knowledge(self, p: int, steps: int) -> None:
        if steps <= 0:
            return
        end = self.board.knowledge_end
        new = self.knowledge[p] + steps
        if new > end:
            self.prestige[p] += (new - end) * self.board.overflow_prestige
            new = end
        if new != self.knowledge[p]:
            self.knowledge[p] = new
            self.knowledge_stack[p] = self.knowledge_counter     # lands on top of that position's stack
            self.knowledge_counter += 1

    def advance_sickle(self, p: int, steps: int) -> None:
        end = self.board.sickle_end
        new = self.sickle[p] + steps
        if new > end:
            self.prestige[p] += (new - end) * self.board.overflow_prestige
            new = end
        self.sickle[p] = new

    def take_dice(self, p: int, count: int) -> None:
        """Dice from the overview board (the player picks which); none left -> +2 prestige each."""
        top = self.stack[-1] if self.stack else None
        if top is not None and top[0] == TAKE_DIE:
            self.stack[-1] = (TAKE_DIE, top[1] + count, 0)
        else:
            self.stack.append((TAKE_DIE, count, 0))

    # ----- turn flow --------------------------------------------------------------------------
    def begin_turn(self) -> None:
        p = self.player
        self.stack.append((END_TURN, 0, 0))
        if self.figure[p] < 0:      # first turn: free step onto the start sanctuary
            self.figure[p] = self.start_at[p]
            self.stack.append((PLACE_DIE, 0, 0))
            if self.events is not None:
                self._event("first_step", None, player=p, sanctuary=self.board.names[self.figure[p]])
        else:
            self.stack.append((MOVE, 0, 0))

    def end_turn(self) -> None:
        """After a turn: next player; at the end of a round, the game end (§6) and safety valve (E4)."""
        n = self.n
        p = self.player
        if p == (self.start_player - 1) % n:
            self.quiet_rounds = 0 if self.die_this_round else self.quiet_rounds + 1
            self.die_this_round = False
            valve = self.options.safety_valve and (self.quiet_rounds >= 3 or self.round >= 40)
            over = self.ending or valve
            if self.events is not None:
                self._event("round_end", None, game_over=over, reason=self._end_reason(valve) if over else None)
            if over:
                self.final = final_scoring(self)
                self.over = True
                self.stack.clear()
                if self.events is not None:
                    record_final_scoring(self)
                return
            self.round += 1
        self.player = (p + 1) % n
        self.begin_turn()

    def _end_reason(self, valve: bool) -> str:
        if self.ending:
            return "a player has placed their 13th die"
        if self.quiet_rounds >= 3:
            return "safety valve: 3 rounds without any die placed"
        return "safety valve: round 40 reached"

    def place_die(self, p: int, s: int, i: int, die: int, value: int) -> None:
        """Step 2: the die goes on space i of sanctuary s; pay its (possibly turned) value."""
        self.provisions[p] -= value
        self.reserve[7 * p + die] -= 1
        self.owner[s * SPACE_STRIDE + i] = p
        self.value[s * SPACE_STRIDE + i] = value
        self.used[s] += 1
        self.die_mask[p] |= 1 << s
        self.placed[p] += 1
        self.die_this_round = True
        if self.placed[p] >= 13 and not self.ending:
            self.ending = True
            if self.events is not None:
                self._event("last_round", None, player=p)
        st = self.stack
        st.append((RELEASED_HERBS, 0, 0))
        st.append((DOLMENS, 0, 0))
        st.append((FIRE_PITS, s, 0))
        st.append((SANCTUARY_ACTION, s, i))
        st.append((COMPETITION, s, 0))

    def highest_die(self, s: int) -> tuple[int, int]:
        """(owner, space) of the highest die on s, ties by §5; (-1, -1) if empty."""
        owner, value, knowledge, stack = self.owner, self.value, self.knowledge, self.knowledge_stack
        best, best_key, best_i = -1, None, -1
        base = s * SPACE_STRIDE
        for i in range(self.n):
            o = owner[base + i]
            if o < 0:
                continue
            key = (value[base + i], knowledge[o], stack[o])
            if best_key is None or key > best_key:
                best, best_key, best_i = o, key, i
        return best, best_i

    def competition(self, s: int) -> None:
        """Step 3: with >= 2 dice here, the owner of the highest die gains 2 prestige."""
        if self.used[s] >= 2:
            winner, i = self.highest_die(s)
            self.prestige[winner] += 2
            if self.events is not None:
                self._event("competition", None, player=winner, sanctuary=self.board.names[s],
                            value=self.value[s * SPACE_STRIDE + i], prestige=2)

    def do_action(self, p: int, s: int, i: int) -> None:
        """Step 4: the placed space's action (§4.2)."""
        kind, a, b = self.board.space_actions[s][i]
        hs = self.herb_state
        if kind == SPACE_PROVISIONS:
            self.stack.append((PROVISIONS_OR_DICE, 0, 0))
        elif kind == SPACE_KNOWLEDGE:
            steps = a + (2 if hs[HERBS_PER_PLAYER * p + HERB_KNOW] == ACTIVE else 0)
            before = self.prestige[p]
            self.advance_knowledge(p, steps)
            if self.events is not None:
                self._event("knowledge", None, player=p, steps=steps, position=self.knowledge[p],
                            prestige=self.prestige[p] - before)
        elif kind == SPACE_SICKLE:
            steps = a + (2 if hs[HERBS_PER_PLAYER * p + HERB_SICKLE] == ACTIVE else 0)
            before = self.prestige[p]
            self.advance_sickle(p, steps)
            if self.events is not None:
                self._event("sickle", None, player=p, steps=steps, position=self.sickle[p],
                            prestige=self.prestige[p] - before)
        elif kind == SPACE_TABLET:
            self.stack.append((TAKE_TABLET, 1, 0))
        elif kind == SPACE_MISTLETOE:
            before = self.prestige[p]
            gained = a
            self.mistletoe[p] += a
            if hs[HERBS_PER_PLAYER * p + HERB_MIST] == ACTIVE:
                self.mistletoe[p] += 1
                gained += 1
                self.vp3(p)
            self.stack.append((BREW_POTION, b, 0))
            if self.events is not None:
                self._event("mistletoe", None, player=p, mistletoe=gained, brews=b,
                            prestige=self.prestige[p] - before)
        elif kind == SPACE_AMULET:
            self.stack.append((TAKE_GEM, a, b + (1 if hs[HERBS_PER_PLAYER * p + HERB_AMULET] == ACTIVE else 0)))
        elif kind == SPACE_STANDING_STONE:           # a sanctuary's stone action may be left unused (skip)
            self.stack.append((PLACE_STANDING_STONE, 1, 0))
        else:
            v = self.value[s * SPACE_STRIDE + i] + (2 if hs[HERBS_PER_PLAYER * p + HERB_RUNE] == ACTIVE else 0)
            self.stack.append((PLACE_RUNE_STONE, v, 1))

    def close_fire_pits(self, p: int, s: int) -> None:
        """Step 5: every open pit around s whose bordering sanctuaries all hold your dice."""
        b = self.board
        mask = self.die_mask[p]
        summary = self.options.fire_pit_scoring == "summary"
        for k in b.pits_of[s]:
            pm = b.pit_masks[k]
            if self.pit_closed[k] >= 0 or mask & pm != pm:
                continue
            self.pit_closed[k] = p
            before = self.prestige[p]
            for r in b.pit_rewards[k]:
                self.gain(p, r)
            enclosing = order = 0
            if summary:   # E2: the summary's 2 per enclosing die and 8/6/4 for the first three
                enclosing = 2 * len(b.pit_around[k])
                order = BEIGE_BONUS[self.closures] if self.closures < 3 else 0
                self.prestige[p] += enclosing + order
            self.closures += 1
            if self.events is not None:
                extra: dict[str, Any] = {"enclosing_bonus": enclosing, "order_bonus": order} if summary else {}
                self._event("fire_pit", None, player=p, pit=b.pit_names[k],
                            rewards=[REWARDS[r] for r in b.pit_rewards[k]],
                            prestige=self.prestige[p] - before, **extra)
            if self.herb_state[HERBS_PER_PLAYER * p + HERB_FIRE] == ACTIVE:
                self.stack.append((REPEAT_FIRE_REWARD, k, 0))

    def link_dolmens(self, p: int) -> None:
        """Step 6: each colour whose two sanctuaries your dice join along a path."""
        mask = self.die_mask[p]
        for c, (a, z) in enumerate(self.colour_ends):
            if self.dolmen_owner[c] >= 0 or not (mask >> a) & 1 or not (mask >> z) & 1:
                continue
            length = self._path_length(a, z, mask)
            if not length:
                continue
            self.dolmen_owner[c] = p
            self.dolmens[p] += 2
            bonus = BEIGE_BONUS[self.links] if self.links < len(BEIGE_BONUS) else 0
            self.prestige[p] += 2 * length + bonus
            if bonus:
                self.beige_dolmens[p] += 1
            self.links += 1
            if self.events is not None:
                names = self.board.names
                self._event("dolmen_link", None, player=p, colour=sorted(set(self.ring_colours))[c],
                            sanctuaries=[names[a], names[z]], length=length, beige_bonus=bonus,
                            prestige=2 * length + bonus)

    def _path_length(self, a: int, z: int, mask: int) -> int:
        """Sanctuaries on the shortest path a..z inside ``mask`` (both ends counted), 0 if none."""
        nb = self.board.neighbours
        seen = 1 << a
        frontier = [a]
        length = 1
        while frontier:
            if z in frontier:
                return length
            nxt = []
            for u in frontier:
                for v in nb[u]:
                    bit = 1 << v
                    if mask & bit and not seen & bit:
                        seen |= bit
                        nxt.append(v)
            frontier = nxt
            length += 1
        return 0

    def release_herbs(self, p: int) -> None:
        """Step 7: each herb pair the sickle reached or passed: one face up, one face down (Q9)."""
        pairs = self.board.herb_pairs_at
        hs, at = self.herb_state, self.herb_at
        while self.pairs_released[p] < len(pairs) and pairs[self.pairs_released[p]] <= self.sickle[p]:
            k = self.pairs_released[p]
            self.pairs_released[p] += 1
            h1, h2 = at[HERBS_PER_PLAYER * p + 2 * k], at[HERBS_PER_PLAYER * p + 2 * k + 1]
            left = [h for h in (h1, h2) if hs[HERBS_PER_PLAYER * p + h] == ON_BOARD]
            if len(left) == 2:
                self.stack.append((ACTIVATE_HERB, k, 0))
            elif left:
                hs[HERBS_PER_PLAYER * p + left[0]] = ACTIVE
            if self.events is not None:
                self._event("herbs_released", None, player=p, pair=k + 1, herbs=[HERBS[h] for h in left],
                            active=HERBS[left[0]] if len(left) == 1 else None)

    # ----- standing and rune stones -----------------------------------------------------------
    def place_standing_stone(self, p: int, k: int) -> None:
        """§4.2 SS: the stone's reward, then every uncovered reward of the row once more."""
        b = self.board
        self.standing[p] |= 1 << k
        self.standing_at[self.figure[p]] += 1
        row = b.standing_row
        gained = 1 << row[k]
        self.gain(p, row[k])
        for j in range(len(row)):
            if (self.standing[p] >> j) & 1:
                self.gain(p, row[j])
                gained |= 1 << row[j]
        if self.herb_state[HERBS_PER_PLAYER * p + HERB_STAND] == ACTIVE:
            self.stack.append((REPEAT_STONE_REWARD, gained, 0))

    def place_rune_stone(self, p: int, k: int, v: int) -> None:
        """§4.2 RS: the stone's reward times a number given by the die value v."""
        stone = self.board.rune_stones[k]
        self.runes[p] |= 1 << k
        self.rune_at[self.figure[p]] += 1
        amount = stone.amount(v)
        unit = stone.unit
        if unit == "MIST":
            self.mistletoe[p] += amount
        elif unit == "DIE":
            if amount:
                self.take_dice(p, amount)
        elif unit == "KNOW":
            self.advance_knowledge(p, amount)
        elif unit == "SICKLE_STEP":
            self.advance_sickle(p, amount)
        elif unit == "PRESTIGE_POINT":
            self.prestige[p] += amount
        else:
            self.provisions[p] += amount

    def take_tablet(self, p: int, slot: int) -> None:
        """§4.2 TB: take it, gain the two oracle stones of its side, refill from the deck."""
        t = self.oracle_slots[slot]
        self.tablets[p].append(t)
        if self.deck:
            self.oracle_slots[slot] = self.deck.pop()
            self.deck_marks.pop()
        else:
            self.oracle_slots[slot] = -1
        side = slot // 2
        times = 2 if self.herb_state[HERBS_PER_PLAYER * p + HERB_TABLET] == ACTIVE else 1
        self.gain(p, self.oracle_stones[side], times)
        self.gain(p, self.oracle_stones[(side + 1) % 6], times)

    def record_no_effect(self, what: str, reason: str) -> None:
        """A sanctuary action or potion of the turn's player that cannot do anything."""
        if self.events is not None:
            self._event("no_effect", None, player=self.player, what=what, reason=reason)

    def raise_die(self, s: int, i: int) -> None:
        """P1c/P6a: the die becomes a 6; with other dice there, a new competition."""
        self.value[s * SPACE_STRIDE + i] = 6
        self.competition(s)

    # ----- outcome ----------------------------------------------------------------------------
    def scores(self) -> list[float]:
        if self.final is not None:
            return [float(f["total"]) for f in self.final]
        return [float(x) for x in self.prestige]

    def visible_scores(self, seat: int | None) -> list[float | None]:
        """Prestige is public during play (the prestige track); the final scores once over."""
        scores: list[Any] = self.scores()  # (a list of floats: an annotation, not a copy)
        return scores

    def ranking_key(self, seat: int) -> tuple:
        """Highest total; ties: the player behind on knowledge, then lower in the stack (§5, Q15)."""
        return (self.scores()[seat], -self.knowledge[seat], -self.knowledge_stack[seat])

    # ----- copies -----------------------------------------------------------------------------
    def clone(self) -> "EdoraState":
        c = EdoraState.__new__(EdoraState)
        c.options, c.seed, c.rng, c.history = self.options, self.seed, clone_rng(self.rng), self.history[:]
        c.events = None if self.events is None else self.events[:]
        c.board, c.n = self.board, self.n
        c.stack = self.stack[:]
        c.player, c.start_player, c.round = self.player, self.start_player, self.round
        c.ending, c.over, c.quiet_rounds = self.ending, self.over, self.quiet_rounds
        c.die_this_round, c.knowledge_counter, c.links, c.closures = (self.die_this_round, self.knowledge_counter,
                                                             self.links, self.closures)
        for name in _LIST_FIELDS:
            setattr(c, name, getattr(self, name)[:])
        c.tablets = [t[:] for t in self.tablets]
        c.colour_ends = self.colour_ends
        c.final = self.final
        return c

    def event_message(self, entry: dict[str, Any], viewer: int | None) -> dict[str, Any] | None:
        return event_message(entry, viewer)

    def _view(self, seat: int | None) -> dict[str, Any]:
        return state_view(self, seat)

    def shared_view(self, seat: int | None) -> dict[str, Any]:
        """The engine's :meth:`State.shared_view` (equal to ``view(seat)``, read-only, unchanged
        parts handed out again), made whole by view.py: the envelope is written there,
        beside the parts it keeps, rather than merged in."""
        return shared_view(self, self.check_seat(seat, spectator=True))

    def to_json(self) -> dict[str, Any]:
        return state_to_json(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "EdoraState":
        """The state saved by :meth:`to_json` (its history and event log included); anything
        malformed or inconsistent raises RecordError (:mod:`.checks`)."""
        options = options_of(data)
        check_state(data, options.players, board_from_text(options.board))
        st = load_state(cls, data, [TABLETS.index(t) for t in data["deck"]],
                        [TABLETS.index(t) for t in data["draft_hand"]], rng_from_json(data["rng"]),
                        data["round"], data["over"], data["player"])
        st.history = [(h["seat"], A.CODEC.from_json(h["action"], options)) for h in data["history"]]
        events = data["events"]
        st.events = None if events is None else [Event.from_json(e, options.players) for e in events]
        st.check_playable()
        return st

    def check_playable(self) -> None:
        """RecordError unless every seat that acts now has something to do (a loaded state)."""
        if self.over:
            return
        if self.stack[-1][0] == ARRANGE_HERBS and not self._arranging():
            raise RecordError("the herbs are all arranged, yet the state waits for their arrangement")
        for seat in self.acting():
            if not self._legal_actions(seat):
                raise RecordError(f"{seat_ref(seat)} is to act but has no legal action in this state")


_LIST_FIELDS = ("provisions", "mistletoe", "prestige", "knowledge", "knowledge_stack", "sickle", "figure",
                "start_at",
                "reserve", "overview", "placed", "die_mask", "standing", "runes", "herb_at",
                "herb_state", "pairs_released", "arranged", "amulet", "gem_mask", "dolmens", "beige_dolmens",
                "owner", "value", "used", "standing_at", "rune_at", "pit_closed", "ring_colours",
                "dolmen_owner", "oracle_stones", "oracle_slots", "deck", "deck_marks", "draft_hand",
                "gems_left", "potion_owner")


def random_dolmen_ring(size: int, rng: random.Random) -> list[str]:
    """Setup step 6: a random colour layout with >= 2 other dolmens between each pair."""
    colours = [c for c in DOLMEN_COLOURS[:size // 2] for _ in range(2)]
    while True:                 # rejection sampling: about one shuffle in 9 is valid (12 slots)
        rng.shuffle(colours)
        if dolmen_separation_problem(colours) is None:
            return colours[:]


_LEGAL = decisions.LEGAL
_SETTLE = decisions.SETTLE
_APPLY = decisions.APPLY
_WORK = decisions.WORK
