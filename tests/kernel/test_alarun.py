"""Alarún's compiled kernel (games/alarun/kernel.py) is the reference rules again: the same deal
for a seed, after every step the same legal actions, acting seat, state, scores, returns and
observations for every seat, and the same games as ``simulate`` with random and heuristic agents."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("numba")

from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

from nemeton.arena.match import game_seeds, simulate  # noqa: E402
from nemeton.engine import get_game, mt  # noqa: E402
from nemeton.engine.kernel import HEURISTIC, RANDOM, kernel_policies  # noqa: E402
from nemeton.games.alarun.heuristic import HEURISTIC as REFERENCE_HEURISTIC  # noqa: E402
from nemeton.games.alarun.kernel import AlarunKernel  # noqa: E402

SPEC = get_game("alarun")
# every player count, without the cap (as people play), with the bots' cap and a tiny one
VARIANTS = [(2, None), (3, None), (4, None), (2, 30), (3, 30), (4, 30), (2, 1), (4, 2)]
VARIANT_IDS = [f"{p}p-cap{c}" for p, c in VARIANTS]

_kernels: dict = {}


def kernel(players: int, cap: int | None, batch: int = 1) -> AlarunKernel:
    key = (players, cap, batch)
    if key not in _kernels:
        _kernels[key] = AlarunKernel(SPEC.options(players=players, action_cap=cap), batch)
    return _kernels[key]


def comparable(state) -> dict:
    """A state's JSON without the history and the event log (the kernel keeps neither)."""
    data = state.to_json()
    del data["history"], data["events"]
    return data


@pytest.mark.parametrize("players,cap", VARIANTS, ids=VARIANT_IDS)
def test_the_same_seed_deals_the_same_game(players, cap):
    seeds = list(range(40)) + [2**31 - 1, 2**32 + 3, 2**62 + 12345]
    k = kernel(players, cap, len(seeds))
    k.deal(seeds)
    options = SPEC.options(players=players, action_cap=cap)
    for slot, seed in enumerate(seeds):
        assert comparable(k.read(slot)) == comparable(SPEC.new_state(options, seed)), seed


def test_deal_into_some_slots_leaves_the_others():
    k = kernel(3, None, 3)
    k.deal([5, 6, 7])
    before = comparable(k.read(1))
    k.deal([99, 100], slots=[0, 2])
    assert comparable(k.read(1)) == before
    options = SPEC.options(players=3)
    assert comparable(k.read(2)) == comparable(SPEC.new_state(options, 100))


def check_same(k: AlarunKernel, ref, encoding, players: int) -> list:
    """Slot 0 of ``k`` against the reference state; returns the reference's legal actions."""
    assert comparable(k.read(0)) == comparable(ref)
    legal = ref.legal_actions()
    ids = encoding.actions.ids(legal)
    assert k.legal_ids(0).tolist() == ids                      # the reference's order
    mask = k.legal_mask()[0]
    assert np.array_equal(mask, encoding.actions.mask(legal))
    assert k.current_player()[0] == ref.current_player
    assert bool(k.terminal()[0]) == ref.is_terminal()
    assert k.scores()[0].tolist() == [float(x) for x in ref.scores()]
    assert k.returns()[0].tolist() == ref.returns()
    assert np.flatnonzero(k.winners()[0]).tolist() == ref.winners()
    for seat in range(players):
        want = encoding.encode(ref.view(seat))
        got = k.observe(np.array([seat]))[0]
        assert np.array_equal(got, want), (seat, np.flatnonzero(got != want)[:8])
    return legal


@pytest.mark.parametrize("players,cap", VARIANTS, ids=VARIANT_IDS)
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(seed=st.integers(0, 2**31 - 1), data=st.data())
def test_every_step_matches_the_reference(players, cap, seed, data):
    """Random play (Hypothesis draws every choice) or the heuristic's, from a dealt game, the
    reference state loaded into the kernel now and then; after every step everything agrees,
    and the kernel's heuristic chooses what the reference heuristic chooses."""
    options = SPEC.options(players=players, action_cap=cap)
    encoding = SPEC.encoding(options)
    k = kernel(players, cap)
    ref = SPEC.new_state(options, seed)
    ref.record_events(False)
    k.deal([seed])
    heuristic_seats = data.draw(st.lists(st.booleans(), min_size=players, max_size=players), "heuristic seats")
    reload_every = data.draw(st.integers(5, 60), "reload every")
    steps = 0
    while True:
        legal = check_same(k, ref, encoding, players)
        if ref.is_terminal():
            break
        seat = ref.current_player
        want = REFERENCE_HEURISTIC.choose_in_state(ref, seat, legal, random.Random(0))
        assert k.heuristic_actions()[0] == encoding.actions.id(want)
        if heuristic_seats[seat]:
            action = want
        else:
            # counted from the end: Hypothesis shrinks towards 0, the last action (flip, swap
            # all and pass, the last placement), whose games end soonest
            action = legal[-1 - data.draw(st.integers(0, len(legal) - 1), "choice")]
        ref.apply(action)
        k.step(np.array([encoding.actions.id(action)]))
        steps += 1
        if steps % reload_every == 0:
            k.load(0, ref.clone())


def kernel_games(players: int, games: int, seed: int, agents: list[str], options: dict):
    """The kernel's playout of ``simulate``'s games (same game and agent seeds)."""
    built = SPEC.options(**{**SPEC.bot_defaults, **options, "players": players})
    k = AlarunKernel(built, games)
    seeds = np.zeros(games, dtype=np.int64)
    streams = np.zeros((games, players, mt.STREAM_WORDS), dtype=np.uint32)
    for i in range(games):
        game_seed, agent_seeds = game_seeds(seed, i, players)
        seeds[i] = game_seed
        for s in range(players):
            mt.seed(streams[i, s], agent_seeds[s])
    k.deal(seeds)
    specs = agents * players if len(agents) == 1 else agents
    counts = k.playout(np.array(kernel_policies(specs), dtype=np.int64), streams)
    return k.scores(), k.returns(), k.winners(), counts


def assert_same_games(players: int, games: int, seed: int, agents: list[str], options: dict) -> None:
    reference = simulate("alarun", players, games, seed, agents, options, records=False).results
    scores, returns, winners, counts = kernel_games(players, games, seed, agents, options)
    for i, result in enumerate(reference):
        assert (scores[i].tolist(), returns[i].tolist(), np.flatnonzero(winners[i]).tolist(), counts[i].tolist()) == (
            result.scores, result.returns, result.winners, [result.steps, sum(result.decisions)]), i


@pytest.mark.parametrize("players,options", [(2, {}), (3, {}), (4, {}), (2, {"action_cap": None}),
                                             (4, {"action_cap": None})],
                         ids=["2p", "3p", "4p", "2p-nocap", "4p-nocap"])
def test_random_agents_play_the_games_simulate_plays(players, options):
    assert_same_games(players, 80, 2024 + players, ["random"], options)


@pytest.mark.parametrize("players,agents", [(2, ["heuristic"]), (3, ["heuristic", "random", "heuristic"]),
                                            (4, ["random", "heuristic", "heuristic", "random"])],
                         ids=["2p", "3p-mixed", "4p-mixed"])
def test_heuristic_agents_play_the_games_simulate_plays(players, agents):
    assert_same_games(players, 8, 77, agents, {})


def test_a_playout_stops_after_max_steps_and_goes_on_from_there():
    players = 3
    k = kernel(players, 30, 4)
    k.deal([1, 2, 3, 4])
    streams = np.zeros((4, players, mt.STREAM_WORDS), dtype=np.uint32)
    for i in range(4):
        for s in range(players):
            mt.seed(streams[i, s], 10 * i + s)
    policies = np.array([RANDOM, HEURISTIC, RANDOM], dtype=np.int64)
    first = k.playout(policies, streams, max_steps=7)
    assert first[:, 0].tolist() == [7] * 4 and not k.terminal().any()
    rest = k.playout(policies, streams)
    assert k.terminal().all()
    whole = kernel(players, 30, 4)
    whole.deal([1, 2, 3, 4])
    for i in range(4):
        for s in range(players):
            mt.seed(streams[i, s], 10 * i + s)
    together = whole.playout(policies, streams)
    assert (first + rest).tolist() == together.tolist()
    assert whole.scores().tolist() == k.scores().tolist()


def test_plain_python_runs_the_same_code(tmp_path):
    """NUMBA_DISABLE_JIT=1 (debugging): the same kernel as plain Python plays the same games."""
    script = ("import sys; sys.path.insert(0, %r)\n"
              "from test_alarun import kernel_games\n"
              "s, r, w, c = kernel_games(2, 2, 5, ['random', 'heuristic'], {})\n"
              "print(s.tolist(), r.tolist(), w.tolist(), c.tolist())\n") % os.path.dirname(__file__)
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    plain = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=600)
    assert plain.returncode == 0, plain.stderr
    s, r, w, c = kernel_games(2, 2, 5, ["random", "heuristic"], {})
    assert plain.stdout.strip() == f"{s.tolist()} {r.tolist()} {w.tolist()} {c.tolist()}"


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_agents_over_a_hundred_thousand_games(players, request):
    """Slow: 100,002 games in all (a third per player count), the kernel against simulate."""
    if "slow" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("2-4 minutes: run with -m slow")
    for chunk in range(0, 33_334, 4096):
        games = min(4096, 33_334 - chunk)
        assert_same_games(players, games, 10_000 * players + chunk, ["random"], {})


def test_the_druid_takes_the_value_scoring_gives_it():
    """kernel.druid_lines against scoring.druid_lines on random lines of a 5 x 5 square (empty
    cells, the Centum auri, few colours and ingredients so that stretches form)."""
    from nemeton.games.alarun.components import DRUID, EMPTY
    from nemeton.games.alarun.kernel import druid_lines
    from nemeton.games.alarun.scoring import druid_lines as reference_druid_lines

    r = random.Random(3)

    def line() -> list[int]:
        start = r.randrange(5)  # the 5 cells of the square's window that hold the druid
        cells = [EMPTY] * 9
        for i in range(start, start + 5):
            u = r.random()
            cells[i] = EMPTY if u < 0.25 else 49 if u < 0.3 else r.choice([r.randrange(49), r.randrange(3) * 7 + r.randrange(3)])
        cells[4] = DRUID
        return cells

    for _ in range(3000):
        row, column = line(), line()
        got = druid_lines(np.array(row, dtype=np.int64), np.array(column, dtype=np.int64))
        assert tuple(map(int, got)) == reference_druid_lines(row, 4, column, 4), (row, column)
