"""Edora's compiled kernel (games/edora/kernel.py) is the reference rules, proven step for step:
the same seed deals the same game; after every action of random and heuristic games (Hypothesis
draws the seed and the choices, so a failure shrinks to the shortest sequence) the legal actions
in their order, the mask, the player to act, the end, the returns, the state read back (its
random stream included) and every seat's observation equal the reference's; at every step
of heuristic play the kernel's heuristic chooses what the reference heuristic agent chooses
(drawing the same numbers); random and heuristic agents in the kernel play the games
``simulate`` plays, with the same results."""

from __future__ import annotations

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
from nemeton.engine.kernel import HEURISTIC, RANDOM, KernelUnsupported  # noqa: E402
from nemeton.games.edora import heuristic as H  # noqa: E402
from nemeton.games.edora import kernel as K  # noqa: E402
from nemeton.games.edora.heuristic import HEURISTIC as REFERENCE_HEURISTIC  # noqa: E402
from nemeton.games.edora.kernel import EdoraKernel  # noqa: E402
from nemeton.games.edora.board import standard_board_text  # noqa: E402

SPEC = get_game("edora")

VARIANTS = [
    {"players": 2, "safety_valve": True}, {"players": 3, "safety_valve": True},
    {"players": 4, "safety_valve": True},
    {"players": 2},  # no safety valve: games end by the 13th die
    {"players": 3, "tablet_draft": True, "arranged_herbs": True, "shared_dice": True, "safety_valve": True},
    {"players": 2, "revisit_sanctuaries": True, "fire_pit_scoring": "summary", "shared_herbs": True,
     "safety_valve": True},
    {"players": 4, "tablet_draft": True, "revisit_sanctuaries": True, "fire_pit_scoring": "summary",
     "safety_valve": True},
    {"players": 4, "arranged_herbs": True, "shared_herbs": False, "shared_dice": True, "safety_valve": True},
]
_kernels: dict[tuple[int, int], EdoraKernel] = {}


def kernel(variant: int, batch: int = 2) -> EdoraKernel:
    """One kernel per variant and batch size (built once: building reads the compiled cache)."""
    key = (variant, batch)
    if key not in _kernels:
        _kernels[key] = EdoraKernel(SPEC.options(**VARIANTS[variant]), batch)
    return _kernels[key]


def comparable(state) -> dict:
    """The state's JSON without its history and event log (the kernel keeps neither)."""
    data = state.to_json()
    del data["history"], data["events"]
    return data


def assert_same(k: EdoraKernel, slot: int, ref, where: str, observe: bool = True) -> None:
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
    if not observe:
        return
    for seat in [*range(ref.n), None]:
        seats = np.full(k.batch, -1 if seat is None else seat, dtype=np.int64)
        expected = encoding.encode(ref.view(seat))
        assert np.array_equal(k.observe(seats)[slot], expected), f"{where}, observation of seat {seat}"


# ----- the deal --------------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_same_seed_deals_the_same_game(variant):
    k = kernel(variant, 8)
    options = SPEC.options(**VARIANTS[variant])
    for first in range(0, 48, 8):
        seeds = [first * 7919 + 13 * j for j in range(8)]
        k.deal(seeds)
        for slot, seed in enumerate(seeds):
            assert comparable(k.read(slot)) == comparable(SPEC.new_state(options, seed)), f"seed {seed}"


def test_deal_into_some_slots_leaves_the_others():
    k = kernel(0, 3)
    k.deal([1, 2, 3])
    before = k.rows[1].copy()
    k.deal([7, 8], slots=[0, 2])
    assert np.array_equal(k.rows[1], before)
    options = SPEC.options(**VARIANTS[0])
    assert comparable(k.read(2)) == comparable(SPEC.new_state(options, 8))


def test_load_then_read_gives_the_state_back():
    options = SPEC.options(**VARIANTS[4])
    ref = SPEC.new_state(options, 5)
    rng = random.Random(5)
    k = kernel(4)
    for _ in range(60):
        k.load(1, ref)
        assert comparable(k.read(1)) == comparable(ref)
        ref.apply(rng.choice(ref.legal_actions()))


# ----- the differential test -------------------------------------------------------------------------
@settings(max_examples=16, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(variant=st.integers(0, len(VARIANTS) - 1), seed=st.integers(0, 2 ** 31 - 1), data=st.data())
def test_every_step_equals_the_reference(variant, seed, data):
    """Random play (choices drawn by Hypothesis), checked after every action; the game is
    played to its end (or 400 actions)."""
    options = SPEC.options(**VARIANTS[variant])
    ref = SPEC.new_state(options, seed)
    k = kernel(variant)
    k.deal([seed, seed], slots=[0, 1])
    encoding = SPEC.encoding(options)
    for step in range(400):
        assert_same(k, 0, ref, f"variant {variant}, seed {seed}, step {step}", observe=step % 3 == 0)
        if ref.is_terminal():
            break
        legal = ref.legal_actions()
        j = data.draw(st.integers(0, len(legal) - 1), label=f"step {step}")
        note(f"step {step}: {legal[j]}")
        ref.apply(legal[j])
        k.step(np.array([encoding.actions.id(legal[j]), -1], dtype=np.int64))
    assert_same(k, 0, ref, "at the end")


def stream_of(rng: random.Random) -> np.ndarray:
    """``rng``'s state as an ``mt`` stream."""
    return np.array(rng.getstate()[1], dtype=np.uint32)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.integers(0, len(VARIANTS) - 1), seed=st.integers(0, 2 ** 31 - 1),
       start=st.integers(0, 60))
def test_heuristic_play_equals_the_reference(variant, seed, start):
    """Play by the reference heuristic (after ``start`` random actions), checked after every
    action: the heuristic reaches states random play seldom does (full rows, brewed potions).
    At every heuristic step the kernel's heuristic chooses what the reference heuristic
    agent chooses from the seat's view, drawing the same numbers from the seat's stream."""
    options = SPEC.options(**VARIANTS[variant])
    ref = SPEC.new_state(options, seed)
    k = kernel(variant)
    k.load(0, ref)
    encoding = SPEC.encoding(options)
    rng = random.Random(seed)
    streams = np.zeros((k.batch, ref.n, mt.STREAM_WORDS), dtype=np.uint32)
    for step in range(120):
        where = f"variant {variant}, seed {seed}, step {step}"
        assert_same(k, 0, ref, where, observe=step % 4 == 0)
        if ref.is_terminal():
            break
        legal = ref.legal_actions()
        seat = ref.current_player
        if step < start:
            action = rng.choice(legal)
        else:
            streams[0, seat] = stream_of(rng)
            mine = k.heuristic_actions(streams)[0]
            action = REFERENCE_HEURISTIC.choose_from_view(ref.view(seat), legal, rng)
            assert mine == encoding.actions.id(action), f"{where}: the kernel chose {encoding.actions.action(mine)}"
            assert np.array_equal(streams[0, seat], stream_of(rng)), f"{where}: the stream"
        ref.apply(action)
        k.step(np.array([encoding.actions.id(action), -1], dtype=np.int64))


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.integers(0, len(VARIANTS) - 1), seed=st.integers(0, 2 ** 31 - 1))
def test_lookahead_values_equal_the_reference_to_the_bit(variant, seed):
    """Along a random game: every player's estimate, and the lookahead's value of every legal
    action on the seat's ``seen_by`` copy, equal the reference's exactly (the same floats,
    added in the same order), so even a change that moves no choice shows."""
    options = SPEC.options(**VARIANTS[variant])
    ref = SPEC.new_state(options, seed)
    k = kernel(variant)
    rng = random.Random(seed)
    encoding = SPEC.encoding(options)
    values = np.zeros(4)
    collected = np.zeros(4, dtype=np.int64)
    rows = np.zeros((3, k.rows.shape[1]), dtype=np.int64)
    bufs = np.zeros((2, K.LEGAL_MAX), dtype=np.int64)
    for step in range(400):
        if ref.is_terminal():
            break
        legal = ref.legal_actions()
        if step % 5 == 0:
            k.load(0, ref)
            K.estimates(k.rows[0], values, collected)
            assert list(values[:ref.n]) == H.estimates(ref), f"seed {seed}, step {step}"
            seat = ref.current_player
            seen = H.seen_by(ref, seat)
            K.seen_by(k.rows[0], seat, rows[0])
            for a in legal:
                mine = K.value_after(rows[0], seat, encoding.actions.id(a), k.ids, k.decode, rows[1:], bufs,
                                     values, collected)
                assert mine == H._value_after(seen, seat, a), f"seed {seed}, step {step}, {a}"
        ref.apply(rng.choice(legal))


def test_heuristic_actions_without_streams_draw_from_a_stream_seeded_0():
    options = SPEC.options(**VARIANTS[1])
    ref = SPEC.new_state(options, 4)
    k = kernel(1)
    k.load(0, ref)
    k.load(1, ref)
    encoding = SPEC.encoding(options)
    for _ in range(12):
        seat = ref.current_player
        legal = ref.legal_actions()
        want = encoding.actions.id(REFERENCE_HEURISTIC.choose_from_view(ref.view(seat), legal, random.Random(0)))
        assert list(k.heuristic_actions()) == [want, want]
        ref.apply(encoding.actions.action(want))
        k.step(np.array([want, want], dtype=np.int64))
    k.deal([1, 2])
    k.playout(np.full(3, RANDOM, dtype=np.int64), np.zeros((2, 3, mt.STREAM_WORDS), dtype=np.uint32))
    assert list(k.heuristic_actions()) == [-1, -1]


# ----- random agents: the games simulate plays -------------------------------------------------------
def kernel_results(options: dict, players: int, games: int, seed: int,
                   policies: list[int] | None = None) -> list[tuple]:
    """(scores, returns, winners, steps) of each game, played in the kernel by the seats'
    policies (random agents by default) from the seeds ``simulate`` gives its games and
    agents."""
    built = SPEC.options(**{**SPEC.bot_defaults, **options, "players": players})
    k = EdoraKernel(built, games)
    seeds = np.zeros(games, dtype=np.int64)
    streams = np.zeros((games, players, mt.STREAM_WORDS), dtype=np.uint32)
    for i in range(games):
        game_seed, agent_seeds = game_seeds(seed, i, players)
        seeds[i] = game_seed
        for s in range(players):
            mt.seed(streams[i, s], agent_seeds[s])
    k.deal(seeds)
    counts = k.playout(np.array(policies or [RANDOM] * players, dtype=np.int64), streams)
    scores, returns, winners = k.scores(), k.returns(), k.winners()
    return [([float(x) for x in scores[i]], [float(x) for x in returns[i]],
             [s for s in range(players) if winners[i, s]], int(counts[i, 0])) for i in range(games)]


@pytest.mark.parametrize("players,options,games", [
    (2, {}, 120), (3, {}, 80), (4, {}, 60),
    (3, {"tablet_draft": True, "arranged_herbs": True, "shared_dice": True}, 40),
    (2, {"revisit_sanctuaries": True, "fire_pit_scoring": "summary", "shared_herbs": True}, 40)])
def test_random_playout_plays_the_games_simulate_plays(players, options, games):
    expected = simulate("edora", players, games, 2026, ["random"], options, records=False).results
    got = kernel_results(options, players, games, 2026)
    for i, (result, mine) in enumerate(zip(expected, got)):
        assert (result.scores, result.returns, result.winners, result.steps) == mine, f"game {i}"


def test_simulate_fast_gives_the_reference_results():
    fast = simulate("edora", 3, 30, 11, ["random"], engine="fast").results
    reference = simulate("edora", 3, 30, 11, ["random"], records=False).results
    assert [(r.scores, r.returns, r.winners, r.steps) for r in fast] == \
        [(r.scores, r.returns, r.winners, r.steps) for r in reference]


AGENTS = {"random": RANDOM, "heuristic": HEURISTIC}


@pytest.mark.parametrize("players,agents,options,games", [
    (2, ["heuristic"], {}, 8), (2, ["random", "heuristic"], {}, 16),
    (3, ["heuristic", "random", "heuristic"], {}, 8),
    (3, ["random", "heuristic", "random"], {"tablet_draft": True, "arranged_herbs": True}, 8),
    (4, ["heuristic", "random", "random", "random"], {}, 8),
    (4, ["random", "random", "random", "heuristic"], {"revisit_sanctuaries": True, "shared_dice": True}, 6)])
def test_heuristic_playout_plays_the_games_simulate_plays(players, agents, options, games):
    """Heuristic agents (alone and beside random ones) in the kernel play the games
    ``simulate`` plays, to the same results (few games: the reference heuristic is slow)."""
    specs = agents * players if len(agents) == 1 else agents
    expected = simulate("edora", players, games, 77, specs, options, records=False).results
    got = kernel_results(options, players, games, 77, [AGENTS[a] for a in specs])
    for i, (result, mine) in enumerate(zip(expected, got)):
        assert (result.scores, result.returns, result.winners, result.steps) == mine, f"game {i}"


def test_plain_python_runs_the_same_code():
    """NUMBA_DISABLE_JIT=1 (debugging, coverage): the same source as plain Python plays the
    same games, a heuristic seat included."""
    script = ("import sys; sys.path.insert(0, %r)\n"
              "from test_edora import kernel_results\n"
              "print(kernel_results({}, 2, 3, 4, [0, 1]))\n") % os.path.dirname(__file__)
    plain = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=900,
                           env={**os.environ, "NUMBA_DISABLE_JIT": "1"})
    assert plain.returncode == 0, plain.stderr
    assert plain.stdout.strip() == str(kernel_results({}, 2, 3, 4, [RANDOM, HEURISTIC]))


@pytest.mark.slow
def test_random_playout_plays_the_games_simulate_plays_at_scale(request):
    """100,000 games across the player counts (about a third per count); run by hand."""
    if "slow" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("about 5 minutes: run with -m slow")
    for players, games in ((2, 34_000), (3, 33_000), (4, 33_000)):
        for first in range(0, games, 1000):
            expected = [(r.scores, r.returns, r.winners, r.steps) for r in
                        simulate("edora", players, 1000, first * 7 + players, ["random"], records=False).results]
            assert kernel_results({}, players, 1000, first * 7 + players) == expected, (players, first)


@pytest.mark.slow
def test_heuristic_playout_plays_the_games_simulate_plays_at_scale(request):
    """600 games of heuristic agents beside random ones (200 per player count); run by hand."""
    if "slow" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("about 6 minutes (6 min 15 s on the shared machine): run with -m slow")
    for players in (2, 3, 4):
        for first in range(0, 200, 50):
            block = first // 50         # all heuristic, then beside random agents on even or odd seats
            specs = ["heuristic" if block in (0, 3) or (s + block) % 2 == 0 else "random" for s in range(players)]
            expected = [(r.scores, r.returns, r.winners, r.steps) for r in
                        simulate("edora", players, 50, first + players, specs, records=False).results]
            got = kernel_results({}, players, 50, first + players, [AGENTS[a] for a in specs])
            assert got == expected, (players, first)


# ----- refusals -------------------------------------------------------------------------------------
def test_another_board_is_refused_by_name():
    text = standard_board_text().replace("start_provisions: 15", "start_provisions: 16")
    assert text != standard_board_text()
    with pytest.raises(KernelUnsupported, match="board"):
        EdoraKernel(SPEC.options(players=2, board=text), 1)


def test_the_mask_of_an_ended_game_is_empty_and_its_step_ignored():
    k = kernel(0, 1)
    k.deal([3])
    streams = np.zeros((1, 2, mt.STREAM_WORDS), dtype=np.uint32)
    mt.seed(streams[0, 0], 1)
    mt.seed(streams[0, 1], 2)
    k.playout(np.full(2, RANDOM, dtype=np.int64), streams)
    assert k.terminal()[0] and k.current_player()[0] == -1
    assert not k.legal_mask()[0].any() and len(k.legal_ids(0)) == 0
    before = k.rows.copy()
    k.step(np.array([-1]))
    assert np.array_equal(k.rows, before)
    assert abs(k.returns()[0].sum() - 1.0) < 1e-12
