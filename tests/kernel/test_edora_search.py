"""Edora's kernel for search and learning (issue 27): playouts with a policy per slot and seat,
seats played from outside (EXTERNAL) and a round cut-off stop exactly where the reference loop
(the same policies drawing from the same streams) stops; the heuristic evaluation equals the
reference heuristic's ``evaluate`` on states of random and heuristic play."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("numba")

from nemeton.engine import get_game, mt  # noqa: E402
from nemeton.engine.kernel import EXTERNAL, HEURISTIC, NO_STOP, RANDOM, KernelUnsupported  # noqa: E402
from nemeton.games.edora.heuristic import HEURISTIC as REFERENCE_HEURISTIC  # noqa: E402
from nemeton.games.edora import kernel as K  # noqa: E402
from nemeton.games.edora.components import DOLMEN_COLOURS  # noqa: E402
from nemeton.games.edora.kernel import EdoraKernel  # noqa: E402

SPEC = get_game("edora")

VARIANTS = [
    {"players": 2, "safety_valve": True}, {"players": 3, "safety_valve": True},
    {"players": 4, "safety_valve": True},
    {"players": 2},
    {"players": 3, "tablet_draft": True, "arranged_herbs": True, "shared_dice": True, "safety_valve": True},
    {"players": 4, "tablet_draft": True, "revisit_sanctuaries": True, "fire_pit_scoring": "summary",
     "shared_herbs": True, "safety_valve": True},
]
BATCH = 6
_kernels: dict[int, EdoraKernel] = {}


def kernel(variant: int) -> EdoraKernel:
    if variant not in _kernels:
        _kernels[variant] = EdoraKernel(SPEC.options(**VARIANTS[variant]), BATCH)
    return _kernels[variant]


def comparable(state) -> dict:
    data = state.to_json()
    del data["history"], data["events"]
    return data


def stream_of(rng: random.Random) -> np.ndarray:
    return np.array(rng.getstate()[1], dtype=np.uint32)


def random_state(options, seed: int, actions: int):
    """The state after ``actions`` random actions (fewer if the game ends) from the deal of ``seed``."""
    state = SPEC.new_state(options, seed)
    rng = random.Random(seed ^ 0x5EED)
    for _ in range(actions):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def reference_playout(state, policies, rngs, max_steps: int, stop_round: int) -> tuple[int, int]:
    """The loop the kernel's playout mirrors, on the reference state: a random seat chooses as
    ``RandomAgent`` does, a heuristic seat as the reference heuristic does, each from its rng."""
    steps = choices = 0
    while not state.is_terminal() and (max_steps < 0 or steps < max_steps):
        if stop_round != NO_STOP and state.round >= stop_round:
            break
        seat = state.current_player
        if policies[seat] == EXTERNAL:
            break
        legal = state.legal_actions(seat)
        if policies[seat] == RANDOM:
            action = rngs[seat].choice(legal)
        else:
            action = REFERENCE_HEURISTIC.choose_in_state(state, seat, legal, rngs[seat])
        choices += len(legal) > 1
        state.apply(action)
        steps += 1
    return steps, choices


def check_playouts(variant: int, starts: list, policies: np.ndarray, stop_round: np.ndarray | None,
                   max_steps: int = -1, seed: int = 0) -> list[tuple[int, int]]:
    """Load ``starts`` (one reference state per slot), play them out in the kernel and by the
    reference loop, and assert every slot stops in the same state (random streams included),
    with the same player to act, counts and seat streams. Returns the counts."""
    k = kernel(variant)
    n = k.players
    streams = np.zeros((BATCH, n, mt.STREAM_WORDS), dtype=np.uint32)
    rngs = []
    for i, state in enumerate(starts):
        k.load(i, state)
        seat_rngs = [random.Random(seed * 1000 + 10 * i + s) for s in range(n)]
        for s in range(n):
            streams[i, s] = stream_of(seat_rngs[s])
        rngs.append(seat_rngs)
    counts = k.playout(policies, streams, max_steps, stop_round)
    out = []
    for i, state in enumerate(starts):
        ref = state.clone()
        stop = NO_STOP if stop_round is None else int(stop_round[i])
        steps, choices = reference_playout(ref, list(policies[i]), rngs[i], max_steps, stop)
        where = f"variant {variant}, slot {i}, policies {list(policies[i])}, stop_round {stop}"
        assert (int(counts[i, 0]), int(counts[i, 1])) == (steps, choices), where
        assert comparable(k.read(i)) == comparable(ref), where
        assert int(k.current_player()[i]) == ref.current_player, where
        for s in range(n):
            assert np.array_equal(streams[i, s], stream_of(rngs[i][s])), f"{where}: seat {s}'s stream"
        out.append((steps, choices))
    return out


def starts_for(variant: int, seed: int) -> list:
    options = SPEC.options(**VARIANTS[variant])
    return [random_state(options, seed + i, (seed * 7 + 23 * i) % 90) for i in range(BATCH)]


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_a_playout_stops_where_an_external_seat_is_to_act(variant):
    """Random seats beside EXTERNAL ones, a different EXTERNAL set in each slot (slot 0: none,
    so it plays to the end): each slot stops before the first action of an EXTERNAL seat."""
    n = VARIANTS[variant]["players"]
    policies = np.full((BATCH, n), RANDOM, dtype=np.int64)
    for i in range(1, BATCH):
        policies[i, i % n] = EXTERNAL
        if i >= 4:
            policies[i, (i + 1) % n] = EXTERNAL
    counts = check_playouts(variant, starts_for(variant, 100 + variant), policies, None)
    assert counts[0][0] > 0
    stopped = [i for i in range(1, BATCH) if kernel(variant).current_player()[i] >= 0]
    assert stopped, "no slot stopped at an EXTERNAL seat"
    for i in stopped:
        assert policies[i, kernel(variant).current_player()[i]] == EXTERNAL


def test_every_seat_external_takes_no_step():
    starts = starts_for(1, 7)
    k = kernel(1)
    before = [comparable(s) for s in starts]
    counts = check_playouts(1, starts, np.full((BATCH, 3), EXTERNAL, dtype=np.int64), None)
    live = [i for i, s in enumerate(starts) if not s.is_terminal()]
    assert live and all(counts[i] == (0, 0) for i in range(BATCH))
    assert [comparable(k.read(i)) for i in range(BATCH)] == before


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_a_playout_stops_at_the_round_cut_off(variant):
    """``stop_round`` of the start's round, one and three rounds later, and NO_STOP, in
    different slots: the kernel stops where the reference loop sees ``state.round >= r``."""
    n = VARIANTS[variant]["players"]
    starts = starts_for(variant, 300 + variant)
    stop = np.array([s.round + d for s, d in zip(starts, (0, 1, 3, 1, 2, 0))], dtype=np.int64)
    stop[3] = NO_STOP
    counts = check_playouts(variant, starts, np.full((BATCH, n), RANDOM, dtype=np.int64), stop)
    k = kernel(variant)
    for i in range(BATCH):
        if stop[i] != NO_STOP and not starts[i].is_terminal() and starts[i].round < stop[i] and not k.terminal()[i]:
            assert k.read(i).round == stop[i], f"slot {i}"
    assert counts[0] == (0, 0) and counts[3][0] > 0


@pytest.mark.parametrize("variant", [0, 1, 2, 4])
def test_each_slot_plays_its_own_policies(variant):
    """Random, heuristic and EXTERNAL seats mixed differently in every slot, with a round
    cut-off (the reference heuristic is slow): each slot equals its own reference run."""
    n = VARIANTS[variant]["players"]
    starts = starts_for(variant, 500 + variant)
    policies = np.array([[(i + s) % 2 for s in range(n)] for i in range(BATCH)], dtype=np.int64)
    policies[4, 0] = EXTERNAL
    policies[5, n - 1] = EXTERNAL
    stop = np.array([s.round + 1 + (i % 2) for i, s in enumerate(starts)], dtype=np.int64)
    counts = check_playouts(variant, starts, policies, stop, seed=variant)
    assert any(c[0] > 0 for c in counts)


def test_max_steps_with_external_seats_and_a_cut_off():
    n = 2
    starts = starts_for(0, 900)
    policies = np.array([[RANDOM, EXTERNAL if i % 3 == 0 else RANDOM] for i in range(BATCH)], dtype=np.int64)
    stop = np.array([s.round + 2 for s in starts], dtype=np.int64)
    counts = check_playouts(0, starts, policies, stop, max_steps=7)
    assert all(c[0] <= 7 for c in counts)
    assert any(c[0] == 7 for c in counts)
    assert policies.shape == (BATCH, n)


def test_playout_refuses_policies_of_the_wrong_shape():
    k = kernel(0)
    streams = np.zeros((BATCH, 2, mt.STREAM_WORDS), dtype=np.uint32)
    with pytest.raises(ValueError, match="policies"):
        k.playout(np.zeros((BATCH, 3), dtype=np.int64), streams)


# ----- the heuristic evaluation -----------------------------------------------------------------------
def evaluations_along_playouts(variant: int, policy: int, chunk: int, seed: int) -> int:
    """Deal every slot, play on ``chunk`` actions at a time by ``policy`` (the kernel's random
    and heuristic play are the reference's, proven in test_edora.py) and after each chunk
    compare the kernel's heuristic evaluation of every slot with the reference's of the state
    read back, ended slots included. Returns how many live states were compared."""
    k = kernel(variant)
    n = k.players
    k.deal([seed + i for i in range(BATCH)])
    streams = np.zeros((BATCH, n, mt.STREAM_WORDS), dtype=np.uint32)
    for i in range(BATCH):
        for s in range(n):
            mt.seed(streams[i, s], seed * 31 + 7 * i + s)
    live = 0
    for turn in range(400):
        got = k.evaluate("heuristic")
        for i in range(BATCH):
            state = k.read(i)
            want = REFERENCE_HEURISTIC.evaluate(state)
            assert np.allclose(got[i], want, rtol=0, atol=1e-9), f"variant {variant}, slot {i}, chunk {turn}"
            assert abs(got[i].sum() - 1.0) < 1e-9
            live += not state.is_terminal()
        if k.terminal().all():
            return live
        k.playout(np.full(n, policy, dtype=np.int64), streams, chunk)
    raise AssertionError("the games did not end")


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_the_heuristic_evaluation_equals_the_reference_in_random_play(variant):
    assert evaluations_along_playouts(variant, RANDOM, 9, 40 + variant) > 50


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_the_heuristic_evaluation_equals_the_reference_in_heuristic_play(variant):
    assert evaluations_along_playouts(variant, HEURISTIC, 13, 60 + variant) > 30


def test_the_evaluation_of_an_ended_game_is_its_returns():
    k = kernel(2)
    k.deal(list(range(BATCH)))
    streams = np.zeros((BATCH, 4, mt.STREAM_WORDS), dtype=np.uint32)
    k.playout(np.full(4, RANDOM, dtype=np.int64), streams)
    out = np.full((BATCH, 4), 7.0)
    assert k.evaluate("heuristic", out) is out
    assert np.array_equal(out, k.returns())


def test_an_unknown_evaluation_is_refused():
    with pytest.raises(KernelUnsupported, match="fitted"):
        kernel(0).evaluate("fitted")


# ----- load ---------------------------------------------------------------------------------------------
def plain_row(k: EdoraKernel, state) -> np.ndarray:
    """The row of ``state`` built from zero, field by field (what load wrote before it kept a
    template of the last state loaded)."""
    r = np.zeros(K.ROW, dtype=np.int64)
    r[:len(k.opts)] = k.opts
    n = k.players
    for name, at in K._SCALAR_ROWS:
        r[at] = int(getattr(state, name))
    r[K.R_SP] = len(state.stack)
    for j, entry in enumerate(state.stack):
        r[K.R_STACK + 3 * j:K.R_STACK + 3 * j + 3] = entry
    for name, at in K._LIST_ROWS:
        r[at:at + n] = getattr(state, name)
    for p in range(n):
        r[K.R_NTABLETS + p] = len(state.tablets[p])
        r[K.R_TABLETS + K.DECK_SIZE * p:K.R_TABLETS + K.DECK_SIZE * p + len(state.tablets[p])] = state.tablets[p]
    for name, at in (("reserve", K.R_RESERVE), ("overview", K.R_OVERVIEW), ("herb_at", K.R_HERB_AT),
                     ("herb_state", K.R_HERB_STATE), ("amulet", K.R_AMULET), ("owner", K.R_OWNER),
                     ("value", K.R_VALUE), ("used", K.R_USED), ("standing_at", K.R_STANDING_AT),
                     ("rune_at", K.R_RUNE_AT), ("pit_closed", K.R_PIT), ("dolmen_owner", K.R_DOLMEN_OWNER),
                     ("oracle_stones", K.R_ORACLE_STONES), ("oracle_slots", K.R_ORACLE_SLOTS),
                     ("gems_left", K.R_GEMS_LEFT), ("potion_owner", K.R_POTION_OWNER), ("deck", K.R_DECK),
                     ("deck_marks", K.R_MARKS), ("draft_hand", K.R_HAND)):
        value = getattr(state, name)
        r[at:at + len(value)] = value
    r[K.R_DECK_LEN] = len(state.deck)
    r[K.R_HAND_LEN] = len(state.draft_hand)
    r[K.R_RING:K.R_RING + K.NRING] = [DOLMEN_COLOURS.index(c) for c in state.ring_colours]
    for c, (a, z) in enumerate(state.colour_ends):
        r[K.R_COLOUR_ENDS + 2 * c:K.R_COLOUR_ENDS + 2 * c + 2] = a, z
    if state.final is not None:
        r[K.R_TOTAL:K.R_TOTAL + n] = [f["total"] for f in state.final]
    return r


def search_states(options, seed: int, count: int) -> list:
    """States in the order a search might load them: states along one random game, and
    between them determinizations of the seat's view a few actions on (decks, hands, stacks
    and tablets grow and shrink from one to the next), the game's end included."""
    rng = random.Random(seed)
    state = SPEC.new_state(options, seed)
    out = []
    while len(out) < count:
        out.append(state.clone())
        if state.is_terminal():
            state = SPEC.new_state(options, rng.randrange(10 ** 6))
            continue
        for _ in range(rng.randrange(3)):
            d = SPEC.determinize(state.view(state.current_player), rng)
            for _ in range(rng.randrange(6)):
                if d.is_terminal():
                    break
                d.apply(rng.choice(d.legal_actions()))
            out.append(d)
        for _ in range(rng.randrange(1, 12)):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
    return out


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_each_load_writes_the_row_built_from_zero(variant):
    """Consecutive loads (into alternating slots) each leave exactly the row built from zero for
    their state, whatever was loaded before, and the slot reads back as the state."""
    options = SPEC.options(**VARIANTS[variant])
    k = kernel(variant)
    for j, state in enumerate(search_states(options, 70 + variant, 150)):
        slot = j % 3
        k.load(slot, state)
        assert np.array_equal(k.rows[slot], plain_row(k, state)), f"variant {variant}, state {j}"
        if j % 10 == 0:
            assert comparable(k.read(slot)) == comparable(state), f"variant {variant}, state {j}"
    ended = [s for s in search_states(options, 70 + variant, 150) if s.is_terminal()]
    assert ended, "no ended game among the states"


def test_a_state_changed_in_place_after_its_load_loads_anew():
    """load keeps copies of what it compared: a state's lists changed in place between two
    loads of it are written the second time."""
    options = SPEC.options(**VARIANTS[4])
    k = kernel(4)
    state = SPEC.new_state(options, 9)
    rng = random.Random(9)
    for _ in range(80):
        k.load(0, state)
        assert np.array_equal(k.rows[0], plain_row(k, state))
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))


def test_the_loaded_stream_is_the_states_and_a_deal_replaces_it():
    options = SPEC.options(**VARIANTS[1])
    k = kernel(1)
    a, b = SPEC.new_state(options, 3), SPEC.new_state(options, 4)
    a.rng.random()
    k.load(2, a)
    k.load(4, b)
    assert np.array_equal(k.streams[2], stream_of(a.rng)) and np.array_equal(k.streams[4], stream_of(b.rng))
    k.load(2, b)
    k.deal([3], slots=[4])
    assert np.array_equal(k.streams[2], stream_of(b.rng))
    assert np.array_equal(k.streams[4], stream_of(SPEC.new_state(options, 3).rng))
    assert k.read(2).rng.getstate() == b.rng.getstate()
