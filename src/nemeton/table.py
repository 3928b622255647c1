"""One table: a game played to the end by seats that are agents or people.

Every place that plays a game uses this loop: terminal play (one person and agents), the
arena and ``nemeton simulate`` (agents only, as fast as the rules allow) and the game server
(several people acting when they like, agents moved on a worker)::

    table = Table(state, [heuristic, None, ismcts])  # None = a seat played by a person
    table.advance()               # agents act until a person must act or the game is over
    table.pending()               # [1]: the seats waiting for a person
    table.legal_actions(1)        # what seat 1 may do
    table.news(1)                 # the log entries since seat 1's last decision, as seat 1 sees them
    table.submit(1, action)       # checked: an illegal action raises and changes nothing
    ...
    table.result()                # scores, ranking, winners, returns, record, think time

Who acts comes from ``state.acting()``, which may hold several seats at once (Alarún's
placement at the end of a round, Edora's arranged herbs). When the table advances, the agents
among them act in seat order; people may submit in any order. Terminal play advances before
asking the person, so the agents never depend on when the person answers, and a game of
agents only is a function of its seeds. The record holds the order in which the actions were
applied, so a game always replays.

An agent is asked with its own view (built only if ``agent.needs_view``) and the legal
actions; an agent with ``needs_log`` first receives, through ``agent.observe(entries)``, its
seat's log entries since its last decision. What an agent answers is checked: an action
that is not legal raises :class:`AgentActionError` naming the agent. An agent is asked even
when only one action is legal, so its random stream advances alike wherever it plays, but
only decisions between several actions count as decisions. Think time is counted
per seat for real decisions (more than one legal action): an agent's time in ``observe`` and
``act``, a person's time from being asked (first seen in :meth:`pending`) to :meth:`submit`
(a table made with ``clock=None`` counts decisions but no time, as a simulation that reports
none).

When no seat reads the log (agents only, none with ``needs_log``) the table turns the
state's event recording off, so a simulation pays nothing for the log.

A table is not thread-safe: a server serialises the calls on one table (a worker may run
:meth:`step` while people's submissions wait for it).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence, cast

from .engine import TERMINAL, Action, GameRecord, IllegalActionError, NemetonError, State
from .engine.log import action_marked as _marked, seat_ref


class AgentActionError(IllegalActionError):
    """An agent answered with an action that is not legal (a bug in the agent)."""


class TableError(NemetonError, ValueError):
    """A table set up wrongly, or asked for something it cannot do now."""


@dataclass
class TableResult:
    """A finished game: outcome, record and per-seat think time."""

    scores: list[float]
    ranking: list[int]
    winners: list[int]
    returns: list[float]
    steps: int
    record: GameRecord | None  # None when not asked for (a long simulation keeps no records)
    seconds: list[float] = field(default_factory=list)  # think time per seat (0 without a clock)
    decisions: list[int] = field(default_factory=list)  # decisions with more than one legal action


_VIEW, _LOG = 1, 2  # what an agent reads besides the legal actions

# An agent seat's plan: its act (its view, None when it reads none, and the legal actions ->
# its choice) and what it reads (_VIEW | _LOG).
_Plan = tuple[Callable[[dict[str, Any] | None, list[Action]], Action], int]


@dataclass
class AgentTurn:
    """One agent decision prepared by :meth:`Table.ask_agent`: :meth:`decide` asks the agent
    (it touches the agent only, never the state, so it may run on another thread while the
    table serves others); :meth:`Table.play_agent` then applies the answer."""

    seat: int
    legal: list[Action]
    at: int  # the number of actions applied when the agent was asked
    ask: Callable[[], Action]
    clock: Callable[[], float] | None
    agent: Any = None  # the agent asked (its seat may be handed to someone else meanwhile)
    seconds: float = 0.0

    def decide(self) -> Action:
        started = self.clock() if self.clock is not None else 0.0
        action = self.ask()
        if self.clock is not None:
            self.seconds = self.clock() - started
        return action


def is_one_of(action: Any, legal: Sequence[Action]) -> bool:
    """``action in legal``, by identity first: agents return one of the listed objects, and
    comparing by identity costs a fraction of comparing dataclasses by value."""
    for candidate in legal:
        if candidate is action:
            return True
    return action in legal


def listed(legal: Sequence[Action], most: int = 12) -> str:
    return ", ".join(_marked(a) for a in legal[:most]) + (" ..." if len(legal) > most else "")


class Table:
    """A game in progress with its seats: ``seats[s]`` is an agent, or None for a person."""

    def __init__(self, state: State, seats: Sequence[Any | None],
                 clock: Callable[[], float] | None = time.perf_counter, keep_log: bool = False):
        if len(seats) != state.num_players:
            raise TableError(f"a table of {state.num_players} seats needs {state.num_players} "
                             f"agents or people; got {len(seats)}")
        self.state = state
        self.seats: list[Any] = list(seats)  # an agent, or None for a person
        self.clock = clock
        self.people = tuple(s for s, a in enumerate(self.seats) if a is None)
        # Per seat: None for a person, else (the agent's act, what it reads: _VIEW | _LOG).
        self._plan: list[_Plan | None] = [None if a is None else
                      (a.act, (_VIEW if getattr(a, "needs_view", True) else 0)
                       | (_LOG if getattr(a, "needs_log", False) else 0))
                      for a in self.seats]
        # keep_log: someone outside the table reads the log (a server's spectators), so it is
        # recorded even at a table of agents that do not read it.
        if keep_log or self.people or any(turn[1] & _LOG for turn in self._plan if turn is not None):
            state.record_events(True)
        else:
            state.record_events(False)
        # Where each seat's news starts: the log length at its last decision.
        self._since = [0] * state.num_players
        self._asked_at: dict[int, float] = {}
        self._legal: tuple[int, int, list[Action]] | None = None  # (history length, seat, legal)
        self.seconds = [0.0] * state.num_players
        self.decisions = [0] * state.num_players
        self.steps = 0

    # ----- who acts ---------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.state.is_terminal()

    def pending(self) -> list[int]:
        """The seats waiting for a person now, in seat order (their think time starts when
        they are first listed here)."""
        waiting = [s for s in sorted(self.state.acting()) if self.seats[s] is None]
        if waiting and self.clock is not None:
            now = self.clock()
            for s in waiting:
                self._asked_at.setdefault(s, now)
        return waiting

    def agent_to_act(self) -> int | None:
        """The seat whose agent acts next (the lowest acting agent seat), or None."""
        for s in sorted(self.state.acting()):
            if self.seats[s] is not None:
                return s
        return None

    # ----- agents -----------------------------------------------------------------------
    def step(self) -> int | None:
        """Let one agent act; returns its seat, or None when no agent may act now (a person
        must act, or the game is over)."""
        if self._run_agents(1):
            return self.state.history[-1][0]
        return None

    def advance(self) -> list[int]:
        """Let agents act until a person must act or the game is over; returns :meth:`pending`."""
        self._run_agents(-1)
        return self.pending()

    def run(self, record: bool = True) -> TableResult:
        """Play a table of agents to the end; its result (with the record unless ``record``
        is False)."""
        self._run_agents(-1)
        if not self.state.is_terminal():
            raise TableError(f"{', '.join(map(seat_ref, self.pending()))} wait for a person; "
                             "run() is for tables of agents only (use advance and submit)")
        return self.result(record)

    def _run_agents(self, limit: int) -> int:
        """The loop: up to ``limit`` agent actions (-1 = no limit); returns how many.

        It runs once per step of every simulation, so it is written for speed: what each
        seat needs is looked up once, legal actions are computed once (the check below
        replaces the one ``State.apply`` would repeat) and the view is built only for an
        agent that reads it. At a table of agents only, the seat to act is
        ``current_player`` (by the protocol, the lowest acting seat), which games answer
        faster than the whole ``acting()`` tuple."""
        state = self.state
        plan = self._plan
        agent_plan = cast("list[_Plan]", plan)  # used at a table of agents only: no None in it
        acting = state.acting
        agents_only = not self.people
        legal_actions = state._legal_actions  # for an acting seat, unchecked: checked below
        apply = state.apply_unchecked
        clock = self.clock
        timed = clock is not None
        seconds = self.seconds
        decisions = self.decisions
        moved = 0
        while moved != limit:
            if agents_only:
                seat = state.current_player
                if seat == TERMINAL:
                    break
                act, reads = agent_plan[seat]
            else:
                for seat in sorted(acting()):
                    turn = plan[seat]
                    if turn is not None:
                        act, reads = turn
                        break
                else:  # a person must act, or the game is over
                    break
            legal = legal_actions(seat)
            view = self._prepare(seat, reads) if reads else None
            if clock is not None:  # as cheap as `if timed` (one jump on None)
                started = clock()
                if reads:
                    self._observe(seat, reads)
                action = act(view, legal)
                spent = clock() - started
            else:
                if reads:
                    self._observe(seat, reads)
                action = act(view, legal)
            for candidate in legal:  # by identity first: far cheaper than comparing values
                if candidate is action:
                    break
            else:
                if action not in legal:
                    raise AgentActionError(f"agent {self.seats[seat]} at {seat_ref(seat)} chose {action!r}, "
                                           f"which is not legal now; legal: {listed(legal)}")
            if len(legal) > 1:
                decisions[seat] += 1
                if timed:
                    seconds[seat] += spent
            apply(action, seat)
            moved += 1
        self.steps += moved
        return moved

    def _prepare(self, seat: int, reads: int) -> dict[str, Any] | None:
        return self.state.view(seat) if reads & _VIEW else None

    def _observe(self, seat: int, reads: int) -> None:
        if reads & _LOG:
            self.seats[seat].observe(self.state.log(seat, since=self._since[seat]))
            self._since[seat] = self.state.log_length()

    # ----- seats changing hands (a server's absent players) ------------------------------
    def replace_seat(self, seat: int, agent: Any | None) -> None:
        """From now on ``seat`` is played by ``agent`` (None: by a person). The log must
        already be recorded when a person or a log reader takes a seat."""
        seat = self.state.check_seat(seat)
        turn: _Plan | None = None if agent is None else (agent.act, (_VIEW if getattr(agent, "needs_view", True) else 0)
                                           | (_LOG if getattr(agent, "needs_log", False) else 0))
        if self.state.events is None and (turn is None or turn[1] & _LOG):
            raise TableError("this table does not record the log (make it with keep_log=True)")
        self.seats[seat] = agent
        self._plan[seat] = turn
        self.people = tuple(s for s, a in enumerate(self.seats) if a is None)
        self._asked_at.pop(seat, None)

    # ----- agents deciding away from the table (a server) --------------------------------
    def ask_agent(self) -> AgentTurn | None:
        """The next agent decision, prepared now (its view and news are taken here), or None
        when no agent may act. Run ``turn.decide()`` anywhere, then :meth:`play_agent`."""
        seat = self.agent_to_act()
        if seat is None:
            return None
        act, reads = cast("_Plan", self._plan[seat])  # the seat of an agent: never None
        legal = self.state._legal_actions(seat)
        view = self._prepare(seat, reads) if reads else None
        news = None
        if reads & _LOG:
            news = self.state.log(seat, since=self._since[seat])
            self._since[seat] = self.state.log_length()
        agent = self.seats[seat]

        def ask() -> Action:
            if news is not None:
                agent.observe(news)
            return act(view, legal)

        return AgentTurn(seat, legal, len(self.state.history), ask, self.clock, agent)

    def play_agent(self, turn: AgentTurn, action: Action) -> bool:
        """Apply an agent's answer to ``turn``; False (nothing applied) when the game moved
        on since the agent was asked (ask again). An answer that is not legal raises
        :class:`AgentActionError`."""
        if (len(self.state.history) != turn.at or turn.seat not in self.state.acting()
                or self.seats[turn.seat] is not turn.agent):
            return False
        if not is_one_of(action, turn.legal):
            raise AgentActionError(f"agent {self.seats[turn.seat]} at {seat_ref(turn.seat)} chose {action!r}, "
                                   f"which is not legal now; legal: {listed(turn.legal)}")
        if len(turn.legal) > 1:
            self.decisions[turn.seat] += 1
            self.seconds[turn.seat] += turn.seconds
        self.state.apply_unchecked(action, turn.seat)
        self.steps += 1
        return True

    # ----- people -----------------------------------------------------------------------
    def legal_actions(self, seat: int) -> list[Action]:
        """Legal actions of ``seat`` now (empty when it may not act), in the engine's order."""
        seat = self.state.check_seat(seat)
        key = len(self.state.history)
        cached = self._legal
        if cached is not None and cached[0] == key and cached[1] == seat:
            return list(cached[2])
        legal = self.state.legal_actions(seat)
        self._legal = (key, seat, legal)
        return list(legal)

    def news(self, seat: int, lang: str = "en") -> list[dict[str, Any]]:
        """``seat``'s log entries since its last decision (all of them before its first),
        its own last action included; their text in ``lang``."""
        seat = self.state.check_seat(seat)
        return self.state.log(seat, since=self._since[seat], lang=lang)

    def submit(self, seat: int, action: Action) -> None:
        """A person's action for ``seat``, checked: a seat that is not a person's or may not
        act now, or an action that is not legal, raises and changes nothing."""
        seat = self.state.check_seat(seat)
        if self.seats[seat] is not None:
            raise IllegalActionError(f"{seat_ref(seat)} is played by agent {self.seats[seat]}, not by a person")
        if self.state.is_terminal():
            raise IllegalActionError(f"the game is over; no action is legal (got {action})")
        acting = self.state.acting()
        if seat not in acting:
            raise IllegalActionError(f"{seat_ref(seat)} may not act now; acting: {', '.join(map(seat_ref, acting)) or 'nobody'}")
        if not isinstance(action, Action):
            raise IllegalActionError(f"not an action: {str(action)[:80]!r}")
        legal = self.legal_actions(seat)
        if not is_one_of(action, legal):
            raise IllegalActionError(f"{_marked(action)} is not legal for {seat_ref(seat)} now; legal: {listed(legal)}")
        if len(legal) > 1:
            self.decisions[seat] += 1
            if self.clock is not None:
                now = self.clock()
                self.seconds[seat] += now - self._asked_at.pop(seat, now)
        self._asked_at.pop(seat, None)
        self._since[seat] = self.state.log_length()
        self.state.apply_unchecked(action, seat)
        self.steps += 1

    # ----- the end ----------------------------------------------------------------------
    def result(self, record: bool = True) -> TableResult:
        """The outcome of the finished game (with its record unless ``record`` is False)."""
        state = self.state
        if not state.is_terminal():
            raise TableError("the game is not over yet")
        return TableResult(list(state.scores()), state.ranking(), state.winners(), state.returns(),
                           self.steps, state.record() if record else None,
                           [round(s, 6) for s in self.seconds], list(self.decisions))
