"""The compiled core against the reference rules: random-play steps per second, per game.

For each game with a kernel (``games/<g>/kernel.py``), side by side in one run:

- ``reference_steps_per_s``: the reference rules' raw random loop (legal actions, a uniform
  choice, apply; no event log), one process per core;
- ``fast_steps_per_s``: the kernel's compiled random playout over a batch of games, one
  process per core (the whole machine);
- ``fast_obs_steps_per_s``: the kernel stepped from Python one batched call at a time, with
  every step's legal mask and the acting seat's observation built (what an RL loop needs),
  ended games dealt again in place, one process per core;
- ``compile_s``: compiling the kernel in a fresh process with an empty Numba cache;
  ``load_s``: the same with the cache filled (every later run);
- the ratio fast / reference.

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


def _picker():
    """A compiled uniform choice of one legal action per row of a mask (the policy's part of
    an RL step, kept out of the measure as far as it can be: NumPy over a 6,000-action mask
    would cost more than the game)."""
    import numpy as np
    from numba import njit

    @njit(cache=True)
    def pick(mask, live, out, state):
        for i in range(mask.shape[0]):
            if not live[i]:
                out[i] = -1
                continue
            n = 0
            for a in range(mask.shape[1]):
                n += mask[i, a]
            state[0] = (state[0] * 6364136223846793005 + 1442695040888963407) & 0x7FFFFFFFFFFFFFFF
            k = (state[0] >> 17) % n
            for a in range(mask.shape[1]):
                if mask[i, a]:
                    if k == 0:
                        out[i] = a
                        break
                    k -= 1
    return pick, np.array([12345], dtype=np.int64)


def _fast_obs(game: str, cfg: dict, seconds: float, seed: int, batch: int) -> tuple[int, float]:
    import numpy as np
    kernel = _kernel(game, cfg, batch)
    pick, pick_state = _picker()
    actions = np.zeros(batch, dtype=np.int64)
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
            live = seats >= 0
            pick(mask, live, actions, pick_state)
            steps += int(live.sum())
            kernel.step(actions)
            ended = np.flatnonzero(kernel.terminal())
            if len(ended):
                kernel.deal(rng.integers(0, 2**31, len(ended)), ended)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps, elapsed


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
    return {"reference": _reference, "fast": _fast, "fast_obs": _fast_obs, "openspiel": _hearts_leduc}[kind](*rest)


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
    parser.add_argument("--batch", type=int, default=4096, help="games per kernel batch")
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes (default: cores)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    from nemeton.engine import get_game
    games = [g for g in CONFIGS if (not args.game or g in args.game) and get_game(g).kernel is not None]
    out: dict = {"machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
                 "date": time.strftime("%Y-%m-%d"), "workers": args.workers, "batch": args.batch,
                 "seconds": args.seconds, "games": {}}
    ctx = mp.get_context("spawn")
    with ctx.Pool(args.workers) as pool, tempfile.TemporaryDirectory() as cache:
        for g in games:
            cfg = CONFIGS[g]
            compile_s = compile_seconds(g, cfg, cache)
            load_s = compile_seconds(g, cfg, cache)
            pool.map(_job, [("fast", g, cfg, 0.0, w, 4) for w in range(args.workers)])  # warm every worker
            w = range(args.workers)
            ref = whole_machine(pool, [("reference", g, cfg, args.seconds, i) for i in w])
            fast = whole_machine(pool, [("fast", g, cfg, args.seconds, i, args.batch) for i in w])
            obs = whole_machine(pool, [("fast_obs", g, cfg, args.seconds, i, args.batch) for i in w])
            out["games"][g] = {"config": cfg, "reference_steps_per_s": round(ref), "fast_steps_per_s": round(fast),
                               "fast_obs_steps_per_s": round(obs), "speedup": round(fast / ref, 1),
                               "compile_s": round(compile_s, 1), "load_s": round(load_s, 2)}
            if not args.json:
                print(g, out["games"][g], flush=True)
        try:
            import pyspiel  # noqa: F401
            for name in ("hearts", "leduc_poker"):
                rate = whole_machine(pool, [("openspiel", name, args.seconds, i) for i in range(args.workers)])
                out["openspiel_" + name + "_steps_per_s"] = round(rate)
        except ImportError:
            pass
    print(json.dumps(out) if args.json else json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
