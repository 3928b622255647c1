"""What search and learning ask of Alarún's kernel (issue 27), against the reference rules:
playouts with a policy per slot and seat that stop where an EXTERNAL seat is to act or where
the round reaches a cut-off, exactly where the reference loop stops, drawing what it draws;
the cut-off evaluations (the heuristic's and the fitted one) equal to the reference's."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("numba")

from nemeton.engine import mt  # noqa: E402
from nemeton.engine.kernel import EXTERNAL, HEURISTIC, NO_STOP, RANDOM  # noqa: E402
from nemeton.games.alarun.heuristic import HEURISTIC as REFERENCE_HEURISTIC  # noqa: E402

from .test_alarun import SPEC, VARIANT_IDS, VARIANTS, comparable, kernel  # noqa: E402


def played_states(players: int, cap: int | None, games: int, seed: int) -> list:
    """States along games of random and heuristic seats (every few steps, the ends
    included), and a determinized sample from a seat's view of each (what search evaluates)."""
    from nemeton.games.alarun.infer import determinize

    options = SPEC.options(players=players, action_cap=cap)
    r = random.Random(seed)
    out = []
    for _ in range(games):
        state = SPEC.new_state(options, r.randrange(2**31))
        state.record_events(False)
        heuristic_seats = [r.random() < 0.5 for _ in range(players)]
        every = r.randrange(1, 8)
        step = 0
        while True:
            if step % every == 0 or state.is_terminal():
                out.append(state.clone())
                out.append(determinize(state.view(r.randrange(players)), r))
            if state.is_terminal():
                break
            seat = state.current_player
            legal = state.legal_actions(seat)
            if heuristic_seats[seat]:
                state.apply(REFERENCE_HEURISTIC.choose_in_state(state, seat, legal, r))
            else:
                state.apply(r.choice(legal))
            step += 1
    return out


def reference_playout(state, policies, rngs, max_steps: int, stop_round: int) -> tuple[list[int], str]:
    """The loop the kernel's playout mirrors (ISMCTS's, with EXTERNAL seats): returns the
    (steps, decisions) counts and why it stopped."""
    steps = decisions = 0
    while True:
        if state.is_terminal():
            return [steps, decisions], "end"
        if steps == max_steps:
            return [steps, decisions], "max_steps"
        if stop_round != NO_STOP and state.round >= stop_round:
            return [steps, decisions], "round"
        seat = state.current_player
        if policies[seat] == EXTERNAL:
            return [steps, decisions], "external"
        legal = state.legal_actions(seat)
        if policies[seat] == RANDOM:
            action = rngs[seat].choice(legal)
        else:
            action = REFERENCE_HEURISTIC.choose_in_state(state, seat, legal, rngs[seat])
        decisions += len(legal) > 1
        state.apply(action)
        steps += 1


def check_playouts(players: int, cap: int | None, seed: int, policy_choices: list[int], stops: bool,
                   max_steps: int = -1, batch: int = 10) -> set[str]:
    """``batch`` reference states loaded into the slots, each slot with its own policies
    (drawn from ``policy_choices``) and, with ``stops``, its own stop_round; one kernel
    playout, then every slot equals its reference run: state, seat to act, counts and every
    seat's random stream. Returns the reasons the reference runs stopped."""
    r = random.Random(seed)
    k = kernel(players, cap, batch)
    states = r.sample(played_states(players, cap, 3, seed), batch)
    policies = np.array([[r.choice(policy_choices) for _ in range(players)] for _ in range(batch)], dtype=np.int64)
    stop_round = np.array([r.choice([NO_STOP, s.round, s.round + 1, s.round + 2]) if stops else NO_STOP
                           for s in states], dtype=np.int64)
    streams = np.zeros((batch, players, mt.STREAM_WORDS), dtype=np.uint32)
    rngs = []
    for i, state in enumerate(states):
        k.load(i, state)
        seeds = [r.randrange(2**31) for _ in range(players)]
        for s in range(players):
            mt.seed(streams[i, s], seeds[s])
        rngs.append([random.Random(x) for x in seeds])
    counts = k.playout(policies, streams, max_steps=max_steps, stop_round=stop_round)
    seats = k.current_player()
    reasons = set()
    for i, state in enumerate(states):
        want, why = reference_playout(state, policies[i].tolist(), rngs[i], max_steps, int(stop_round[i]))
        reasons.add(why)
        assert counts[i].tolist() == want, (i, why)
        assert comparable(k.read(i)) == comparable(state), (i, why)
        assert seats[i] == (state.current_player if not state.is_terminal() else -1), (i, why)
        for s in range(players):
            assert streams[i, s].tolist() == list(rngs[i][s].getstate()[1]), (i, s, why)
    return reasons


@pytest.mark.parametrize("players,cap", VARIANTS, ids=VARIANT_IDS)
def test_a_playout_stops_where_an_external_seat_is_to_act(players, cap):
    reasons = set()
    for seed in range(4):
        reasons |= check_playouts(players, cap, 100 * players + seed, [RANDOM, HEURISTIC, EXTERNAL, EXTERNAL], False)
    assert "external" in reasons


@pytest.mark.parametrize("players,cap", VARIANTS, ids=VARIANT_IDS)
def test_a_playout_stops_once_the_round_reaches_stop_round(players, cap):
    reasons = set()
    for seed in range(4):
        reasons |= check_playouts(players, cap, 200 * players + seed, [RANDOM, HEURISTIC], True)
    assert "round" in reasons


@pytest.mark.parametrize("players,cap", [(2, 30), (3, None), (4, 30)], ids=["2p-cap30", "3p-nocap", "4p-cap30"])
def test_each_slot_plays_its_own_policies_with_every_stop_at_once(players, cap):
    """Policies differ across slots (random, heuristic, external mixed), cut-off rounds and
    a step limit together: each slot still matches its own reference run."""
    reasons = set()
    for seed in range(6):
        reasons |= check_playouts(players, cap, 300 * players + seed, [RANDOM, HEURISTIC, EXTERNAL], True,
                                  max_steps=[-1, 3][seed % 2])
    assert {"external", "round", "max_steps"} <= reasons


def test_an_external_seat_to_act_takes_no_step():
    """Every seat EXTERNAL: nothing moves, nothing is drawn."""
    k = kernel(2, 30, 3)
    k.deal([4, 5, 6])
    before = k.state.copy()
    streams = np.zeros((3, 2, mt.STREAM_WORDS), dtype=np.uint32)
    counts = k.playout(np.array([EXTERNAL, EXTERNAL]), streams)
    assert counts.tolist() == [[0, 0]] * 3
    assert np.array_equal(k.state, before) and not streams.any()


@pytest.mark.parametrize("players,cap", VARIANTS, ids=VARIANT_IDS)
def test_the_evaluations_are_the_references(players, cap):
    """evaluate("heuristic") is the heuristic's evaluate, evaluate("fitted") the fitted
    evaluation (returns once a game has ended), within 1e-9, on states of random and
    heuristic play and on determinized samples of them; the kernel's states stay as loaded."""
    from nemeton.agents.fitted import fitted_evaluation

    fitted = fitted_evaluation(SPEC)
    states = played_states(players, cap, 6, 400 + 10 * players + (cap or 0))
    k = kernel(players, cap, len(states))
    for i, state in enumerate(states):
        k.load(i, state)
    heuristic, learned = k.evaluate("heuristic"), k.evaluate("fitted")
    for i, state in enumerate(states):
        assert heuristic[i] == pytest.approx(REFERENCE_HEURISTIC.evaluate(state), abs=1e-9, rel=0), i
        assert learned[i] == pytest.approx(fitted(state), abs=1e-9, rel=0), i
        assert comparable(k.read(i)) == comparable(state)
    ended = [i for i, s in enumerate(states) if s.is_terminal()]
    assert ended and heuristic[ended].sum(axis=1) == pytest.approx(1.0)


def test_an_evaluation_the_game_lacks_is_refused():
    from nemeton.engine.kernel import KernelUnsupported

    with pytest.raises(KernelUnsupported, match="'learned'"):
        kernel(2, 30).evaluate("learned")


def test_a_loaded_stream_is_the_states_until_a_deal_replaces_it():
    """load copies the state's random stream (kept as getstate()'s words until needed): the
    kernel's streams show it, a draw from the state afterwards does not change it, and a deal
    into the slot replaces it while the other slots keep theirs."""
    options = SPEC.options(players=3, action_cap=30)
    k = kernel(3, 30, 2)
    first, second = SPEC.new_state(options, 11), SPEC.new_state(options, 12)
    k.load(0, first)
    k.load(1, second)
    words = list(first.rng.getstate()[1])
    first.rng.random()
    assert k.read(0).rng.getstate()[1] == tuple(words)
    k.deal([13], slots=[1])
    assert k.rng[0].tolist() == words
    assert comparable(k.read(1)) == comparable(SPEC.new_state(options, 13))
    assert comparable(k.read(0)) == comparable(SPEC.new_state(options, 11))
