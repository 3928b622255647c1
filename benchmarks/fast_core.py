"""The compiled core against the reference rules: random-play steps per second, per game.

For each game with a kernel (``games/<g>/kernel.py``), side by side in one run:

- ``reference_steps_per_s``: the reference rules' raw random loop (legal actions, a uniform
  choice, apply; no event log), one process per core;
- ``fast_steps_per_s``: the kernel's compiled random playout over a batch of games, one
  process per core (the whole machine);
- ``fast_obs_steps_per_s``: the kernel stepped from Python one batched call at a time, with
  every step's legal mask and the acting seat's observation built (what an RL loop needs),
  each slot's random choice made in the kernel (its random playout for one action), ended
  games dealt again in place, one process per core;
- each the median of ``--rounds`` interleaved rounds (all rounds are in ``rounds``: the
  machine's speed drifts by tens of per cent over minutes here);
- ``compile_s``: compiling the kernel in a fresh process with an empty Numba cache;
  ``load_s``: the same with the cache filled (every later run);
- the ratio fast / reference;
- ``time_per_step_one_core``: where the time goes, in nanoseconds per game step, in one
  process: each call of the observation loop, and the compiled playout's deal and play.

OpenSpiel's C++ ``hearts`` and ``leduc_poker`` through their Python loop (``legal_actions``,
a uniform choice, ``apply_action``; chance outcomes drawn by their probabilities, counted as
steps too) run in the same run for scale, one process per core.

    python benchmarks/fast_core.py [--seconds 5] [--batch 4096] [--game alarun] [--json]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time

CONFIGS = {"alarun": {"players": 2}, "amarok": {"players": 4}, "edora": {"players": 2}}


def _reference(game: str, cfg: dict, seconds: float, seed: int) -> tuple[int, float]:
    sys.path.insert(0, os.path.dirname(__file__))
    from playouts import raw_loop
    _, steps, elapsed = raw_loop(game, cfg, seconds, random.Random(seed))
    return steps, elapsed


def _kernel(game: str, cfg: dict, batch: int):
    from nemeton.engine import get_game
    spec = get_game(game)
    options = spec.options(**{**spec.bot_defaults, **cfg})
    return spec.kernel()(options, batch)


def _fast(game: str, cfg: dict, seconds: float, seed: int, batch: int) -> tuple[int, float]:
    import numpy as np
    from nemeton.engine import mt
    from nemeton.engine.kernel import RANDOM
    kernel = _kernel(game, cfg, batch)
    players = kernel.players
    policies = np.full(players, RANDOM, dtype=np.int64)
    streams = np.zeros((batch, players, mt.STREAM_WORDS), dtype=np.uint32)
    rng = random.Random(seed)
    for i in range(batch):
        for s in range(players):
            mt.seed(streams[i, s], rng.getrandbits(63))
    steps = 0
    start = time.perf_counter()
    while True:
        kernel.deal(np.array([rng.randrange(2**31) for _ in range(batch)], dtype=np.int64))
        steps += int(kernel.playout(policies, streams)[:, 0].sum())
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps, elapsed


def _random_policy(kernel, seed: int):
    """Each slot's random choice made inside the kernel (its random playout, one action at a
    time: ``playout(policies, streams, max_steps=1)``), as a random agent chooses."""
    import numpy as np
    from nemeton.engine import mt
    from nemeton.engine.kernel import RANDOM
    streams = np.zeros((kernel.batch, kernel.players, mt.STREAM_WORDS), dtype=np.uint32)
    for i in range(kernel.batch):
        for s in range(kernel.players):
            mt.seed(streams[i, s], seed * 1_000_003 + i * kernel.players + s)
    return np.full(kernel.players, RANDOM, dtype=np.int64), streams


def _fast_obs(game: str, cfg: dict, seconds: float, seed: int, batch: int) -> tuple[int, float]:
    import numpy as np
    kernel = _kernel(game, cfg, batch)
    policies, streams = _random_policy(kernel, seed)
    rng = np.random.default_rng(seed)
    kernel.deal(rng.integers(0, 2**31, batch))
    mask = np.zeros((batch, kernel.num_actions), dtype=np.bool_)
    obs = np.zeros((batch, kernel.observation_size), dtype=np.float32)
    steps = 0
    start = time.perf_counter()
    while True:
        for _ in range(50):
            seats = kernel.current_player()
            kernel.legal_mask(out=mask)
            kernel.observe(np.maximum(seats, 0), out=obs)
            steps += int(kernel.playout(policies, streams, 1)[:, 0].sum())
            ended = np.flatnonzero(kernel.terminal())
            if len(ended):
                kernel.deal(rng.integers(0, 2**31, len(ended)), ended)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps, elapsed


def _breakdown(game: str, cfg: dict, seconds: float, seed: int, batch: int) -> dict:
    """Where the time of the observation loop goes: nanoseconds per game step in each call
    (``deal`` is the ended games dealt again), and for the compiled playout, the deal and the
    play apart."""
    import numpy as np
    kernel = _kernel(game, cfg, batch)
    policies, streams = _random_policy(kernel, seed)
    rng = np.random.default_rng(seed)
    kernel.deal(rng.integers(0, 2**31, batch))
    mask = np.zeros((batch, kernel.num_actions), dtype=np.bool_)
    obs = np.zeros((batch, kernel.observation_size), dtype=np.float32)
    spent = dict.fromkeys(("current_player", "legal_mask", "observe", "choose_and_step", "deal"), 0.0)
    clock = time.perf_counter
    steps = 0
    start = clock()
    while clock() - start < seconds:
        t0 = clock()
        seats = kernel.current_player()
        t1 = clock()
        kernel.legal_mask(out=mask)
        t2 = clock()
        kernel.observe(np.maximum(seats, 0), out=obs)
        t3 = clock()
        steps += int(kernel.playout(policies, streams, 1)[:, 0].sum())
        t4 = clock()
        ended = np.flatnonzero(kernel.terminal())
        if len(ended):
            kernel.deal(rng.integers(0, 2**31, len(ended)), ended)
        t5 = clock()
        for key, a, b in (("current_player", t0, t1), ("legal_mask", t1, t2), ("observe", t2, t3),
                          ("choose_and_step", t3, t4), ("deal", t4, t5)):
            spent[key] += b - a
    out = {f"{k}_ns": round(v / steps * 1e9) for k, v in spent.items()}
    dealt = played = 0.0
    steps = 0
    for _ in range(5):
        t0 = clock()
        kernel.deal(rng.integers(0, 2**31, batch))
        t1 = clock()
        steps += int(kernel.playout(policies, streams)[:, 0].sum())
        t2 = clock()
        dealt += t1 - t0
        played += t2 - t1
    out["playout_deal_ns"] = round(dealt / steps * 1e9)
    out["playout_play_ns"] = round(played / steps * 1e9)
    return out


def _hearts_leduc(name: str, seconds: float, seed: int) -> tuple[int, float]:
    import pyspiel
    game = pyspiel.load_game(name)
    rng = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps, time.perf_counter() - start


def _job(args: tuple) -> tuple[int, float]:
    kind, rest = args[0], args[1:]
    return {"reference": _reference, "fast": _fast, "fast_obs": _fast_obs, "openspiel": _hearts_leduc,
            "breakdown": _breakdown}[kind](*rest)


def whole_machine(pool, jobs: list[tuple]) -> float:
    """Steps per second of one job per core, run at the same time."""
    results = pool.map(_job, jobs)
    return sum(steps / elapsed for steps, elapsed in results)


def compile_seconds(game: str, cfg: dict, cache_dir: str) -> float:
    code = ("import time; t = time.perf_counter(); import sys; sys.path.insert(0, %r); "
            "from fast_core import _kernel; _kernel(%r, %r, 4); print(time.perf_counter() - t)"
            % (os.path.dirname(os.path.abspath(__file__)), game, cfg))
    env = {**os.environ, "NUMBA_CACHE_DIR": cache_dir}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    parser.add_argument("--batch", type=int, default=4096, help="games per kernel batch (playouts)")
    parser.add_argument("--obs-batch", type=int, default=256,
                        help="games per batch when observations are built (a batch of observations "
                             "that fits the cache: at 4096, Alarún's are 49 MB a step)")
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes (default: cores)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="interleaved rounds of the three measures; the median is reported")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    from nemeton.engine import get_game
    games = [g for g in CONFIGS if (not args.game or g in args.game) and get_game(g).kernel is not None]
    out: dict = {"machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
                 "date": time.strftime("%Y-%m-%d"), "workers": args.workers, "batch": args.batch, "obs_batch": args.obs_batch, "rounds": args.rounds,
                 "seconds": args.seconds, "games": {}}
    # one process per core, each on one thread (a kernel's playout may split its batch across
    # threads: with a process per core that would only oversubscribe the machine)
    os.environ["NUMBA_NUM_THREADS"] = "1"
    ctx = mp.get_context("spawn")
    with ctx.Pool(args.workers) as pool, tempfile.TemporaryDirectory() as cache:
        for g in games:
            cfg = CONFIGS[g]
            compile_s = compile_seconds(g, cfg, cache)
            load_s = compile_seconds(g, cfg, cache)
            pool.map(_job, [("fast", g, cfg, 0.0, w, 4) for w in range(args.workers)])  # warm every worker
            w = range(args.workers)
            runs: dict[str, list[float]] = {"reference": [], "fast": [], "fast_obs": []}
            for r in range(args.rounds):  # interleaved, so that a change of the machine's speed hits all three
                runs["reference"].append(whole_machine(pool, [("reference", g, cfg, args.seconds, 10 * r + i) for i in w]))
                runs["fast"].append(whole_machine(pool, [("fast", g, cfg, args.seconds, 10 * r + i, args.batch) for i in w]))
                runs["fast_obs"].append(whole_machine(
                    pool, [("fast_obs", g, cfg, args.seconds, 10 * r + i, args.obs_batch) for i in w]))
            ref, fast, obs = (statistics.median(runs[k]) for k in ("reference", "fast", "fast_obs"))
            where = pool.apply(_job, (("breakdown", g, cfg, min(args.seconds, 3.0), 0, args.obs_batch),))
            out["games"][g] = {"config": cfg, "reference_steps_per_s": round(ref), "fast_steps_per_s": round(fast),
                               "fast_obs_steps_per_s": round(obs), "speedup": round(fast / ref, 1),
                               "compile_s": round(compile_s, 1), "load_s": round(load_s, 2),
                               "rounds": {k: [round(x) for x in v] for k, v in runs.items()},
                               "time_per_step_one_core": where}
            if not args.json:
                print(g, out["games"][g], flush=True)
        try:
            import pyspiel  # noqa: F401  (is OpenSpiel here?)
            for name in ("hearts", "leduc_poker"):
                rate = whole_machine(pool, [("openspiel", name, args.seconds, i) for i in range(args.workers)])
                out["openspiel_" + name + "_steps_per_s"] = round(rate)
        except ImportError:
            pass
    print(json.dumps(out) if args.json else json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
