"""The table loop: seats that are agents or people, simultaneous seats, checks, think time,
the log hooks and the outcome."""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from typing import ClassVar

import pytest

import toygame
from nemeton.agents.base import Agent, RandomAgent
from nemeton.engine import (Action, GameOptions, IllegalActionError, InvalidSeatError, State, TERMINAL,
                            get_game, register)
from nemeton.engine.registry import _REGISTRY
from nemeton.table import AgentActionError, Table, TableError


# ----- a tiny game where every seat picks at once, twice ------------------------------------
@dataclass(frozen=True, slots=True)
class Pick(Action):
    kind: ClassVar[str] = "pick"
    value: int

    def __str__(self):
        return f"pick {self.value}"


class PickState(State):
    """Each round every seat picks 0, 1 or 2 at the same time (seen only by itself until all
    have picked); score = the sum of one's picks. Two rounds."""

    game_name = "picks"

    def __init__(self, players: int = 3):
        super().__init__(GameOptions(players=players), 0, random.Random(0))
        self.picks: list[list[int | None]] = [[None] * players]
        self.round = 1
        self.legal_calls = 0

    @property
    def current_player(self):
        acting = self.acting()
        return acting[0] if acting else TERMINAL

    def acting(self):
        if self.is_terminal():
            return ()
        return tuple(s for s, v in enumerate(self.picks[-1]) if v is None)

    def is_terminal(self):
        return len(self.picks) == 2 and None not in self.picks[-1]

    def _legal_actions(self, seat):
        self.legal_calls += 1
        return [Pick(0), Pick(1), Pick(2)]

    def _apply(self, action, seat):
        self.picks[-1][seat] = action.value
        self._event("pick", seat, secret={"value": action.value}, seen_by=(seat,))
        if None not in self.picks[-1]:
            self._event("reveal", None, picks=list(self.picks[-1]))
            if len(self.picks) < 2:
                self.picks.append([None] * self.num_players)
                self.round += 1

    def scores(self):
        return [float(sum(r[s] or 0 for r in self.picks)) for s in range(self.num_players)]

    def _view(self, seat):
        return {"mine": None if seat is None else [r[seat] for r in self.picks]}

    def clone(self):  # not needed by the table
        raise NotImplementedError

    def to_json(self):
        raise NotImplementedError


class Constant(Agent):
    """Always picks the same value (a new but equal action object each time)."""

    name = "constant"

    def __init__(self, value: int, needs_view: bool = True):
        self.value = value
        self.needs_view = needs_view
        self.views = []

    def act(self, view, legal):
        self.views.append(view)
        return Pick(self.value)


class Reader(Agent):
    """Reads the log: keeps every batch of entries it observes."""

    name = "reader"
    needs_view = False
    needs_log = True

    def __init__(self):
        self.batches = []

    def observe(self, entries):
        self.batches.append(entries)

    def act(self, view, legal):
        return legal[-1]


class Cheat(Agent):
    name = "cheat"
    needs_view = False

    def __init__(self):
        pass

    def act(self, view, legal):
        return Pick(7)


PICKS = dataclasses.replace(toygame.SPEC, name="picks", title="Picks (test game)", player_counts=(2, 3),
                            options_cls=GameOptions, new_state=lambda options, seed: PickState(options.players))


@pytest.fixture(autouse=True)
def picks():
    register(PICKS)  # a record names its game
    yield
    _REGISTRY.pop("picks", None)


@pytest.fixture()
def kuhn():
    toygame.install()
    yield get_game("kuhn")
    toygame.uninstall()


def random_agents(spec, n, seed=0):
    return [RandomAgent(spec, s, random.Random(seed * 10 + s)) for s in range(n)]


# ----- agents only --------------------------------------------------------------------------
def test_a_table_of_agents_plays_to_the_end_and_reports_the_outcome(kuhn):
    state = kuhn.make(players=2, seed=5)
    result = Table(state, random_agents(kuhn, 2)).run()
    assert state.is_terminal()
    assert result.scores == state.scores() and result.ranking == state.ranking()
    assert result.winners == state.winners() and result.returns == state.returns()
    assert result.steps == len(state.history) == len(result.record.actions)
    replayed = result.record.replay()
    assert replayed.moves == state.moves and replayed.cards == state.cards


def test_the_same_seeds_play_the_same_game(kuhn):
    first = Table(kuhn.make(players=2, seed=3), random_agents(kuhn, 2, seed=1)).run()
    again = Table(kuhn.make(players=2, seed=3), random_agents(kuhn, 2, seed=1)).run()
    assert first.record.to_json() == again.record.to_json()


def test_event_recording_is_off_when_no_seat_reads_the_log(kuhn):
    quiet = kuhn.make(players=2, seed=1)
    Table(quiet, random_agents(kuhn, 2)).run()
    assert quiet.events is None
    with_person = kuhn.make(players=2, seed=1)
    Table(with_person, [None, RandomAgent(kuhn, 1, random.Random(0))])
    assert with_person.events == []
    with_reader = PickState(2)
    Table(with_reader, [Reader(), Constant(1)]).run()
    assert with_reader.events is not None and len(with_reader.events) == 6


def test_the_view_is_built_only_for_agents_that_read_it():
    state = PickState(2)
    reads, ignores = Constant(1, needs_view=True), Constant(2, needs_view=False)
    Table(state, [reads, ignores]).run()
    assert [v["seat"] for v in reads.views] == [0, 0] and reads.views[0]["mine"] == [None]
    assert ignores.views == [None, None]


def test_legal_actions_are_computed_once_per_agent_step():
    state = PickState(3)
    Table(state, [Constant(0), Constant(1), Constant(2)]).run()
    assert len(state.history) == 6 and state.legal_calls == 6


def test_an_agent_returning_an_illegal_action_is_an_error_naming_the_agent():
    state = PickState(2)
    table = Table(state, [Constant(1), Cheat()])
    with pytest.raises(AgentActionError, match="agent cheat at seat 1 chose .*not legal"):
        table.run()
    assert state.history == [(0, Pick(1))]  # nothing of the cheat's was applied


def test_an_equal_action_that_is_not_one_of_the_listed_objects_is_accepted():
    state = PickState(2)
    Table(state, [Constant(1), Constant(2)]).run()  # Constant builds a new Pick every time
    assert state.scores() == [2.0, 4.0]


# ----- simultaneous seats and people ----------------------------------------------------------
def test_simultaneous_seats_agents_act_in_seat_order_then_people_are_asked():
    state = PickState(3)
    table = Table(state, [Constant(2), None, Constant(1)])
    assert table.advance() == [1]
    assert [seat for seat, _ in state.history] == [0, 2]
    table.submit(1, Pick(0))
    assert table.advance() == [1]  # round 2: the agents again first
    assert [seat for seat, _ in state.history] == [0, 2, 1, 0, 2]
    table.submit(1, Pick(2))
    assert table.over and table.pending() == []
    assert table.result().scores == [4.0, 2.0, 2.0]


def test_several_people_acting_at_once_are_all_pending_and_may_answer_in_any_order():
    state = PickState(3)
    table = Table(state, [None, Constant(1), None])
    assert table.advance() == [0, 2]
    table.submit(2, Pick(2))
    assert table.pending() == [0]
    table.submit(0, Pick(0))
    assert [seat for seat, _ in state.history] == [1, 2, 0]
    assert table.advance() == [0, 2] and table.steps == 4


def test_step_moves_one_agent_and_returns_its_seat():
    state = PickState(3)
    table = Table(state, [Constant(0), None, Constant(1)])
    assert table.agent_to_act() == 0
    assert table.step() == 0
    assert table.step() == 2
    assert table.step() is None  # only the person may act now
    assert table.pending() == [1]


@pytest.mark.parametrize("seat,action,error", [
    (0, Pick(1), IllegalActionError),      # an agent's seat
    (1, Pick(5), IllegalActionError),      # not a legal action
    (1, "pick 1", IllegalActionError),     # not an action
    ("1", Pick(1), InvalidSeatError),      # not a seat
    (3, Pick(1), InvalidSeatError),
])
def test_submit_checks_the_seat_and_the_action_and_changes_nothing_when_wrong(seat, action, error):
    state = PickState(3)
    table = Table(state, [Constant(0), None, None])
    table.advance()
    before = (list(state.history), len(state.events), table.steps)
    with pytest.raises(error):
        table.submit(seat, action)
    assert (list(state.history), len(state.events), table.steps) == before


def test_a_person_may_not_act_twice_before_the_others_have_acted():
    state = PickState(2)
    table = Table(state, [None, None])
    table.submit(0, Pick(1))
    assert table.pending() == [1]
    with pytest.raises(IllegalActionError, match="seat 0 may not act now"):
        table.submit(0, Pick(2))
    assert state.history == [(0, Pick(1))]


def test_run_is_for_tables_of_agents_only_and_result_for_finished_games():
    table = Table(PickState(2), [None, Constant(1)])
    with pytest.raises(TableError, match="wait for a person"):
        table.run()
    with pytest.raises(TableError, match="not over"):
        table.result()
    with pytest.raises(TableError, match="needs 2"):
        Table(PickState(2), [Constant(1)])


# ----- what people and agents are told ------------------------------------------------------
def test_a_person_is_told_the_events_since_their_last_decision_as_their_seat_sees_them():
    state = PickState(2)
    table = Table(state, [None, Constant(2)])
    table.advance()
    assert [e["kind"] for e in table.news(0)] == ["pick"]  # seat 1's pick, value hidden
    assert "value" not in table.news(0)[0]
    table.submit(0, Pick(1))
    table.advance()
    news = table.news(0)
    assert [e["kind"] for e in news] == ["pick", "reveal", "pick"]  # own pick first, value shown
    assert news[0]["seat"] == 0 and news[0]["value"] == 1
    assert news[1]["picks"] == [1, 2] and "value" not in news[2]


def test_an_agent_that_reads_the_log_observes_its_entries_since_its_last_decision():
    state = PickState(2)
    reader = Reader()
    Table(state, [Constant(1), reader]).run()
    first, second = reader.batches
    assert [e["kind"] for e in first] == ["pick"] and "value" not in first[0]  # seat 0's, hidden
    assert [e["i"] for e in second] == [1, 2, 3]  # its own pick, the reveal, seat 0's next pick
    assert second[0]["value"] == 2 and "value" not in second[2]


# ----- think time ---------------------------------------------------------------------------
class FakeClock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


class Slow(Agent):
    name = "slow"
    needs_view = False

    def __init__(self, clock, seconds):
        self.clock, self.seconds = clock, seconds

    def act(self, view, legal):
        self.clock.now += self.seconds
        return legal[0]


def test_think_time_is_counted_per_seat_for_real_decisions():
    clock = FakeClock()
    state = PickState(3)
    table = Table(state, [Slow(clock, 2.0), None, Slow(clock, 0.5)], clock=clock)
    table.advance()
    clock.now += 7.0  # the person thinks
    table.submit(1, Pick(1))
    table.advance()
    clock.now += 1.0
    table.submit(1, Pick(1))
    result = table.result()
    assert result.seconds == [4.0, 8.0, 1.0] and result.decisions == [2, 2, 2]


class Forced(PickState):
    def _legal_actions(self, seat):
        return [Pick(1)] if seat == 0 else super()._legal_actions(seat)


def test_forced_moves_are_not_counted_as_decisions():
    clock = FakeClock()
    table = Table(Forced(2), [Slow(clock, 3.0), Slow(clock, 1.0)], clock=clock)
    result = table.run()
    assert result.decisions == [0, 2] and result.seconds == [0.0, 2.0]


def test_a_table_without_a_clock_counts_decisions_but_no_time():
    result = Table(PickState(2), [Constant(1), Constant(2)], clock=None).run()
    assert result.decisions == [2, 2] and result.seconds == [0.0, 0.0]
    table = Table(PickState(2), [None, Constant(2)], clock=None)
    table.advance()
    table.submit(0, Pick(1))
    assert table.decisions == [1, 1] and table.seconds == [0.0, 0.0]
