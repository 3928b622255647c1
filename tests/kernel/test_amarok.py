"""Amarok's compiled kernel (games/amarok/kernel.py) is the reference rules, proven step for step:
the same seed deals the same game; after every action of random and heuristic games (Hypothesis
draws the seed and the choices, so a failure shrinks to the shortest sequence) the legal actions
in their order, the mask, the player to act, the end, the returns, the state read back and every
seat's observation equal the reference's; random agents in the kernel play the games
``simulate`` plays, with the same results."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("numba")

from hypothesis import HealthCheck, given, note, settings, strategies as st  # noqa: E402

from nemeton.arena.match import game_seeds, simulate  # noqa: E402
from nemeton.engine import get_game, mt  # noqa: E402
from nemeton.engine.kernel import EXTERNAL, HEURISTIC, NO_STOP, RANDOM, KernelUnsupported  # noqa: E402
from nemeton.games.amarok.heuristic import HEURISTIC as REFERENCE_HEURISTIC  # noqa: E402
from nemeton.games.amarok import kernel as amarok_kernel  # noqa: E402
from nemeton.games.amarok.kernel import AmarokKernel  # noqa: E402

SPEC = get_game("amarok")

# another deck (ruling K1: the deck is data): 16 cards, negative values, every symbol twice
OTHER_DECK = json.dumps({"cards": [
    {"id": f"X{i}", "colour": "grey", "value": v, "symbol": s}
    for i, (v, s) in enumerate(zip([-3, 7, 12, 0, 5, -1, 9, 2, 4, 4, 11, -7, 6, 3, 8, 1],
                                   ["heart", "claw", "season", "trap", "none", "heart", "claw", "none",
                                    "season", "trap", "none", "none", "heart", "none", "none", "none"]))]})
VARIANTS = [
    {"players": 3}, {"players": 4}, {"players": 5}, {"players": 6},
    {"players": 4, "teams": True}, {"players": 6, "teams": True},
    {"players": 4, "teams": True, "partner_hand": True},
    {"players": 6, "teams": True, "partner_hand": True, "rounds_to_win": 2},
    {"players": 3, "rounds_to_win": 5},
    {"players": 5, "deck": OTHER_DECK, "rounds_to_win": 1},
    {"players": 4, "teams": True, "deck": OTHER_DECK},
]
_kernels: dict[int, AmarokKernel] = {}


def kernel(variant: int, batch: int = 2) -> AmarokKernel:
    """One kernel per variant and batch size (built once: building reads the compiled cache)."""
    key = variant * 100_000 + batch
    if key not in _kernels:
        _kernels[key] = AmarokKernel(SPEC.options(**VARIANTS[variant]), batch)
    return _kernels[key]


def comparable(state) -> dict:
    """The state's JSON without its history and event log (the kernel keeps neither)."""
    data = state.to_json()
    del data["history"], data["events"]
    return data


def assert_same(k: AmarokKernel, slot: int, ref, where: str) -> None:
    """Slot ``slot`` of the kernel is ``ref``: state, player to act, legal actions in order,
    mask, end, returns, scores, winners and the observation of every seat and the spectator."""
    encoding = SPEC.encoding(ref.options)
    assert comparable(k.read(slot)) == comparable(ref), where
    assert k.current_player()[slot] == ref.current_player, where
    assert bool(k.terminal()[slot]) == ref.is_terminal(), where
    legal = ref.legal_actions()
    assert list(k.legal_ids(slot)) == encoding.actions.ids(legal), where
    assert np.array_equal(k.legal_mask()[slot], encoding.actions.mask(legal)), where
    assert list(k.returns()[slot]) == ref.returns(), where
    assert list(k.scores()[slot]) == ref.scores(), where
    assert [s for s in range(ref.n) if k.winners()[slot, s]] == ref.winners(), where
    for seat in [*range(ref.n), None]:
        seats = np.full(k.batch, -1 if seat is None else seat, dtype=np.int64)
        expected = encoding.encode(ref.view(seat))
        assert np.array_equal(k.observe(seats)[slot], expected), f"{where}, observation of seat {seat}"


# ----- the deal -----------------------------------------------------------------------------
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_the_same_seed_deals_the_same_game(variant):
    seeds = [0, 1, 7, 2**31 - 1, 2**32, 2**64 - 1] + list(range(1000, 1034))
    k = kernel(variant, len(seeds))
    k.deal(seeds)
    for slot, seed in enumerate(seeds):
        assert comparable(k.read(slot)) == comparable(SPEC.new_state(k.options, seed)), seed


def test_dealing_some_slots_leaves_the_others():
    k = kernel(0, 4)
    k.deal([5, 6, 7, 8])
    before = comparable(k.read(1))
    k.deal([9, 10], slots=[0, 2])
    assert comparable(k.read(1)) == before
    assert comparable(k.read(2)) == comparable(SPEC.new_state(k.options, 10))


# ----- step for step --------------------------------------------------------------------------
@settings(max_examples=30, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(variant=st.integers(0, len(VARIANTS) - 1), seed=st.integers(0, 2**64 - 1), data=st.data())
def test_every_step_of_random_and_heuristic_games_matches_the_reference(variant, seed, data):
    """A game of the reference, each action chosen by Hypothesis or (where it says so) by the
    reference heuristic, stepped in slot 1 of the kernel; its states also loaded into slot 0
    (load then read gives the state back, and a loaded state steps on like the reference)."""
    k = kernel(variant)
    ref = SPEC.new_state(k.options, seed)
    k.deal([seed, seed])
    heuristic_rng = random.Random(seed)
    encoding = SPEC.encoding(k.options)
    steps = 0
    while True:
        assert_same(k, 1, ref, f"step {steps}")
        if ref.is_terminal() or steps >= 100:
            break
        legal = ref.legal_actions()
        if data.draw(st.booleans(), label="heuristic"):
            stream = rng_stream(heuristic_rng)
            action = REFERENCE_HEURISTIC.choose_in_state(ref, ref.current_player, legal, heuristic_rng)
            assert kernel_heuristic(k, 1, stream) == encoding.actions.id(action), f"heuristic, step {steps}"
        else:
            action = legal[data.draw(st.integers(0, len(legal) - 1), label="choice")]
        note(f"step {steps}: seat {ref.current_player} {action}")
        k.load(0, ref)
        assert comparable(k.read(0)) == comparable(ref)
        ref.apply(action)
        k.step(np.full(2, encoding.actions.id(action), dtype=np.int64))
        assert comparable(k.read(0)) == comparable(ref), f"loaded, step {steps}"
        steps += 1


def rng_stream(rng: random.Random) -> np.ndarray:
    """The ``mt`` stream of a ``random.Random``'s state."""
    return np.array(rng.getstate()[1], dtype=np.uint32)


def kernel_heuristic(k: AmarokKernel, slot: int, stream: np.ndarray) -> int:
    """The kernel heuristic's choice for slot's current player, drawing ties from ``stream``."""
    legal = k.legal_ids(slot)
    return int(amarok_kernel.heuristic_choice(k.rows[slot], k.cfg, k.values, k.symbols, legal, len(legal),
                                              stream, amarok_kernel.new_scratch(k.cfg)))


def test_an_ended_slot_ignores_its_action():
    k = kernel(1)
    k.deal([3, 4])
    streams = np.zeros((2, 4, mt.STREAM_WORDS), dtype=np.uint32)
    k.playout(np.full(4, RANDOM, dtype=np.int64), streams)
    before = comparable(k.read(0))
    k.step(np.array([-1, 0], dtype=np.int64))
    assert comparable(k.read(0)) == before and k.terminal().all()


# ----- random agents: simulate's games ------------------------------------------------------------
def kernel_simulation(options: dict, players: int, games: int, seed: int,
                      agents: tuple[str, ...] = ("random",)) -> list[tuple]:
    """Per game: scores, returns, winners and steps of the kernel's playout of the games
    ``simulate(..., seed, agents)`` plays (game seed and agent seeds from ``game_seeds``)."""
    k = AmarokKernel(SPEC.options(players=players, **options), games)
    seeds = []
    streams = np.zeros((games, players, mt.STREAM_WORDS), dtype=np.uint32)
    for g in range(games):
        game_seed, agent_seeds = game_seeds(seed, g, players)
        seeds.append(game_seed)
        for s in range(players):
            mt.seed(streams[g, s], agent_seeds[s])
    k.deal(seeds)
    policies = [HEURISTIC if a == "heuristic" else RANDOM for a in (agents * players)[:players]]
    counts = k.playout(np.array(policies, dtype=np.int64), streams)
    scores, returns, winners = k.scores(), k.returns(), k.winners()
    return [(list(scores[g]), list(returns[g]), [s for s in range(players) if winners[g, s]], int(counts[g, 0]))
            for g in range(games)]


def reference_simulation(options: dict, players: int, games: int, seed: int,
                         agents: tuple[str, ...] = ("random",)) -> list[tuple]:
    results = simulate("amarok", players, games, seed, list(agents), options, records=False).results
    return [(r.scores, r.returns, r.winners, r.steps) for r in results]


@pytest.mark.parametrize("players, options", [(3, {}), (4, {}), (5, {}), (6, {}), (4, {"teams": True}),
                                              (6, {"teams": True, "partner_hand": True})])
def test_random_playouts_give_simulates_results(players, options):
    assert kernel_simulation(options, players, 60, 11) == reference_simulation(options, players, 60, 11)


@pytest.mark.parametrize("players, options, agents", [
    (3, {}, ("heuristic",)), (4, {"teams": True}, ("heuristic",)),
    (5, {}, ("heuristic", "random", "random", "heuristic", "random")),
    (6, {"teams": True, "partner_hand": True}, ("random", "heuristic", "heuristic", "random", "heuristic", "random"))])
def test_heuristic_playouts_give_simulates_results(players, options, agents):
    """The kernel's heuristic is heuristic.py's, tie-breaking draws included."""
    assert (kernel_simulation(options, players, 6, 3, agents)
            == reference_simulation(options, players, 6, 3, agents))


@pytest.mark.slow
@pytest.mark.parametrize("players, options", [(3, {}), (4, {}), (5, {}), (6, {}), (4, {"teams": True}),
                                              (6, {"teams": True}), (4, {"teams": True, "partner_hand": True})])
def test_random_playouts_give_simulates_results_over_many_games(players, options, request):
    if "slow" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("about 3 minutes: run with -m slow")
    games = 15_000  # 105,000 games over the seven configurations
    assert kernel_simulation(options, players, games, 2026) == reference_simulation(options, players, games, 2026)


def test_a_playout_stops_after_max_steps_and_counts_decisions():
    k = kernel(0, 3)
    k.deal([1, 2, 3])
    streams = np.zeros((3, 3, mt.STREAM_WORDS), dtype=np.uint32)
    counts = k.playout(np.full(3, RANDOM, dtype=np.int64), streams, max_steps=5)
    assert list(counts[:, 0]) == [5, 5, 5] and (counts[:, 1] <= 5).all()
    assert not k.terminal().any()


# ----- playouts for search and learning: per-slot policies, EXTERNAL seats, a round cut-off ---------
def reference_playout(state, policies, rngs, stop_round=NO_STOP) -> tuple[int, int]:
    """The loop the kernel's playout mirrors, on a reference state: stop before acting at the
    end, at a seat whose policy is EXTERNAL, once ``state.round >= stop_round`` (ISMCTS's
    cut-off); steps and decisions."""
    steps = decisions = 0
    while not state.is_terminal():
        if stop_round != NO_STOP and state.round >= stop_round:
            break
        seat = state.current_player
        if policies[seat] == EXTERNAL:
            break
        legal = state.legal_actions()
        if policies[seat] == HEURISTIC:
            action = REFERENCE_HEURISTIC.choose_in_state(state, seat, legal, rngs[seat])
        else:
            action = rngs[seat].choice(legal)
        decisions += len(legal) > 1
        state.apply(action)
        steps += 1
    return steps, decisions


def started_states(options, count: int, rng: random.Random) -> list:
    """Reference states a random number of random actions into a game (some at round 2 or later)."""
    states = []
    for _ in range(count):
        state = SPEC.new_state(options, rng.getrandbits(64))
        for _ in range(rng.randrange(0, 40)):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        states.append(state)
    return states


def check_playouts(variant, policies, stop_round, seed: int) -> None:
    """Slot ``b`` loaded with a started state, played on with ``policies[b]`` and
    ``stop_round[b]``: it ends where the reference loop ends (state read back, seat to act,
    steps and decisions) and each seat's stream has drawn what the reference agent drew."""
    batch = len(policies)
    k = kernel(variant, batch)
    rng = random.Random(seed)
    refs = started_states(k.options, batch, rng)
    for b, state in enumerate(refs):
        k.load(b, state)
    agent_seeds = [[rng.getrandbits(32) for _ in range(k.players)] for _ in range(batch)]
    streams = np.zeros((batch, k.players, mt.STREAM_WORDS), dtype=np.uint32)
    for b in range(batch):
        for s in range(k.players):
            mt.seed(streams[b, s], agent_seeds[b][s])
    counts = k.playout(np.array(policies, dtype=np.int64), streams, stop_round=np.array(stop_round, dtype=np.int64))
    for b, ref in enumerate(refs):
        rngs = [random.Random(x) for x in agent_seeds[b]]
        start_round = ref.round
        expected = reference_playout(ref, policies[b], rngs, stop_round[b])
        where = f"slot {b}: policies {policies[b]}, stop_round {stop_round[b]}, from round {start_round}"
        assert tuple(counts[b]) == expected, where
        assert comparable(k.read(b)) == comparable(ref), where
        assert k.current_player()[b] == ref.current_player, where
        for s in range(k.players):
            assert np.array_equal(streams[b, s], rng_stream(rngs[s])), f"{where}: stream of seat {s}"


@pytest.fixture(params=[1, 2], ids=["one_thread", "threaded"])
def threads(request, monkeypatch):
    """The kernel's playout on one thread (play_slots) and split over two (playout_batch)."""
    monkeypatch.setattr(amarok_kernel.numba, "get_num_threads", lambda: request.param)
    monkeypatch.setattr(amarok_kernel, "PARALLEL_MIN_SLOTS", 1)  # the tests' batches are small
    return request.param


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_a_playout_stops_where_the_reference_first_reaches_an_external_seat(variant, threads):
    rng = random.Random(variant)
    n = VARIANTS[variant]["players"]
    policies = []
    for _ in range(6):
        row = [rng.choice([RANDOM, HEURISTIC]) for _ in range(n)]
        for seat in rng.sample(range(n), rng.randint(1, n - 1)):
            row[seat] = EXTERNAL
        policies.append(row)
    check_playouts(variant, policies, [NO_STOP] * 6, 100 + variant)


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_a_playout_stops_where_the_reference_first_reaches_the_stop_round(variant, threads):
    rng = random.Random(variant)
    n = VARIANTS[variant]["players"]
    policies = [[rng.choice([RANDOM, RANDOM, HEURISTIC]) for _ in range(n)] for _ in range(6)]
    stop_round = [1, 2, 2, 3, 4, 6]  # started states are in round 1 to 3: some stop at once
    check_playouts(variant, policies, stop_round, 200 + variant)


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_each_slot_plays_its_own_policies_and_cut_off(variant, threads):
    """Policies, EXTERNAL seats and stop rounds differ across the slots of one batch."""
    rng = random.Random(variant)
    n = VARIANTS[variant]["players"]
    policies = [[rng.choice([RANDOM, HEURISTIC, EXTERNAL]) for _ in range(n)] for _ in range(7)]
    policies[0] = [RANDOM] * n
    policies[1] = [HEURISTIC] * n
    stop_round = [rng.choice([NO_STOP, 1, 2, 3]) for _ in range(7)]
    stop_round[0] = NO_STOP  # played to its end
    check_playouts(variant, policies, stop_round, 300 + variant)


def test_a_playout_checks_its_policies_shape():
    k = kernel(0, 3)
    with pytest.raises(ValueError):
        k.playout(np.zeros((3, 4), dtype=np.int64), np.zeros((3, 3, mt.STREAM_WORDS), dtype=np.uint32))


# ----- the evaluation at a search's cut-off ----------------------------------------------------------
def played_states(options, games: int, seed: int) -> list:
    """Every state of ``games`` reference games, each seat random or the heuristic (drawn per
    game), ended states included."""
    rng = random.Random(seed)
    states = []
    for _ in range(games):
        state = SPEC.new_state(options, rng.getrandbits(64))
        heuristic = [rng.random() < 0.5 for _ in range(state.n)]
        states.append(state.clone())
        while not state.is_terminal():
            seat = state.current_player
            legal = state.legal_actions()
            if heuristic[seat]:
                state.apply(REFERENCE_HEURISTIC.choose_in_state(state, seat, legal, rng))
            else:
                state.apply(rng.choice(legal))
            states.append(state.clone())
    return states


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_the_heuristic_evaluation_is_the_references(variant):
    """``evaluate("heuristic")`` of every slot is ``heuristic.evaluate(state)`` within 1e-9 (the
    returns once a game has ended), for every state of random and heuristic games."""
    batch = 64
    k = kernel(variant, batch)
    states = played_states(k.options, 4, 400 + variant)
    assert any(s.is_terminal() for s in states)
    assert any(s.round > 1 for s in states) or k.options.rounds_to_win == 1
    for first in range(0, len(states), batch):
        chunk = states[first:first + batch]
        for b, state in enumerate(chunk):
            k.load(b, state)
        got = k.evaluate("heuristic")
        assert got.shape == (batch, k.players)
        for b, state in enumerate(chunk):
            expected = REFERENCE_HEURISTIC.evaluate(state)
            assert np.allclose(got[b], expected, rtol=0, atol=1e-9), (first + b, list(got[b]), expected)
    out = np.full((batch, k.players), np.nan)
    assert k.evaluate(out=out) is out and not np.isnan(out).any()


def test_an_evaluation_amarok_lacks_is_refused():
    with pytest.raises(KernelUnsupported):
        kernel(0).evaluate("fitted")


# ----- load: what a search does per iteration -------------------------------------------------
@pytest.mark.skipif(sys.implementation.name != "cpython", reason="the generator's memory is CPython's layout")
def test_the_stream_copied_from_a_generators_memory_is_its_getstate():
    assert amarok_kernel.MT_COPY is not None
    stream = mt.new_streams(1)[0]
    rng = random.Random(2026)
    for draws in [0, 1, 2, 311, 312, 313, 622, 1, 1, 1000, 5000]:
        for _ in range(draws):
            rng.getrandbits(32)
        rng.shuffle(list(range(20)))
        amarok_kernel.MT_COPY(rng, stream.ctypes.data)
        assert stream.tolist() == list(rng.getstate()[1])


def test_load_through_numpy_loads_what_the_fast_path_loads(monkeypatch):
    """NumPy's writes (another Python, rows not in C order) load what the packed row and the
    memory copy load; slots count back from the end as NumPy's do."""
    k = kernel(5, 3)
    states = played_states(k.options, 1, 7)[::9]
    fast = []
    for state in states:
        k.load(-1, state)
        fast.append((k.rows[2].copy(), k.streams[2].copy()))
    with pytest.raises(IndexError):
        k.load(3, states[0])
    monkeypatch.setattr(amarok_kernel, "MT_COPY", None)
    other = AmarokKernel(k.options, 3)
    other.rows = np.asfortranarray(other.rows)
    for state, (row, stream) in zip(states, fast):
        other.load(2, state)
        assert np.array_equal(other.rows[2], row) and np.array_equal(other.streams[2], stream)
        assert comparable(other.read(2)) == comparable(state)


def test_without_jit_the_kernel_runs_as_plain_python_and_agrees():
    """NUMBA_DISABLE_JIT=1 runs the same source as Python: the random playouts of a few games
    give simulate's results there too."""
    script = ("import sys; sys.path.insert(0, 'tests/kernel'); import test_amarok as t; "
              "assert t.kernel_simulation({}, 4, 3, 5) == t.reference_simulation({}, 4, 3, 5); print('same')")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                         env={**os.environ, "NUMBA_DISABLE_JIT": "1"},
                         cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    assert out.returncode == 0 and out.stdout.strip() == "same", out.stderr[-2000:]
