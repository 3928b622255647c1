"""Slot-steps per second of the vector environments (``nemeton.interop.vector``), next to
Gymnasium's ``SyncVectorEnv`` over our single environment, in one run.

For each game (Alarún 2 players, Amarok 4, Edora 2), the self-play vector environment
(``make(game, B)``, the default NextStep autoreset) at B = 1, 64 and 1024, and
``gymnasium.vector.SyncVectorEnv`` of 64 ``gymnasium.make("nemeton/<Game>-v0")`` (one seat
against random opponents, the opponents' moves inside each step). Every call draws a uniformly
random legal action per slot from the mask returned by the previous call (vectorized, NumPy:
:func:`nemeton.interop.vector.sample_legal`), and every call returns the observations and the
masks. A step is a slot-step: a call of a B-slot environment counts B (a slot that starts a new
game in that call, its action ignored, counts too, as EnvPool counts it).

The environments take turns in slices of a quarter of a second, timed in CPU time of the
process (``time.process_time``: the kernels' calls are single-threaded), so other work on a
shared machine slows none more than another; the load average is printed on stderr.

    python benchmarks/vector_env.py [--seconds S] [--json] [--compare]

``--json`` prints one JSON object ``{game: {"1": ..., "64": ..., "1024": ..., "sync_64": ...}}``.
``--compare`` adds, where they are installed (neither is a dependency), EnvPool's
``CartPole-v1`` and pgx's ``tic_tac_toe`` and ``connect_four`` (JAX on the CPU, ``vmap``-ed and
jitted, ``auto_reset``, a random legal action drawn in JAX, observations and masks read back as
NumPy arrays every call) at B = 64 and 1024, in the same rounds, under their own names.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from typing import Callable

import numpy as np

CONFIGS = [("alarun", 2), ("amarok", 4), ("edora", 2)]
BATCHES = (1, 64, 1024)
SYNC = 64
IDS = {"alarun": "nemeton/Alarun-v0", "amarok": "nemeton/Amarok-v0", "edora": "nemeton/Edora-v0"}
SLICE = 0.25


class Runner:
    """One environment: ``call()`` steps it once and returns its slot-steps."""

    def __init__(self, name: str, key: str, call: Callable[[], int]):
        self.name, self.key, self.call = name, key, call
        self.steps = 0
        self.seconds = 0.0
        call()  # the first call outside the clock (compiling, first observations)

    def run(self, seconds: float) -> None:
        call = self.call
        steps = 0
        start = time.process_time()
        while True:
            steps += call()
            spent = time.process_time() - start
            if spent >= seconds:
                break
        self.steps += steps
        self.seconds += spent

    @property
    def rate(self) -> float:
        return self.steps / max(self.seconds, 1e-9)


def ours(game: str, players: int, batch: int) -> Callable[[], int]:
    from nemeton.interop.vector import make, sample_legal
    env = make(game, batch, players=players, seed=0)
    rng = np.random.default_rng(0)
    state = {"batch": env.reset()}

    def call() -> int:
        state["batch"] = env.step(sample_legal(state["batch"].action_mask, rng))
        return batch
    return call


def sync(game: str, players: int) -> Callable[[], int]:
    import gymnasium
    import nemeton.interop.gymnasium  # noqa: F401  registers the ids
    from nemeton.interop.vector import sample_legal
    envs = gymnasium.vector.SyncVectorEnv([lambda: gymnasium.make(IDS[game], players=players)
                                           for _ in range(SYNC)])
    rng = np.random.default_rng(0)
    state = {"infos": envs.reset(seed=0)[1]}

    def call() -> int:
        actions = sample_legal(state["infos"]["action_mask"].view(np.bool_), rng)
        actions[actions < 0] = 0  # a slot that ended: NextStep resets it, the action is ignored
        state["infos"] = envs.step(actions)[4]
        return SYNC
    return call


def envpool_cartpole(batch: int) -> Callable[[], int]:
    import envpool
    env = envpool.make_gymnasium("CartPole-v1", num_envs=batch, seed=0)
    env.reset()
    rng = np.random.default_rng(0)

    def call() -> int:
        env.step(rng.integers(0, 2, batch))
        return batch
    return call


def pgx_game(name: str, batch: int) -> Callable[[], int]:
    import jax
    import jax.numpy as jnp
    import pgx
    from pgx.experimental import auto_reset
    env = pgx.make(name)

    def play(state, key):
        key, choose, reset = jax.random.split(key, 3)
        action = jax.random.categorical(choose, jnp.where(state.legal_action_mask, 0.0, -jnp.inf), axis=-1)
        return jax.vmap(auto_reset(env.step, env.init))(state, action, jax.random.split(reset, batch)), key

    play = jax.jit(play)
    key = jax.random.PRNGKey(0)
    box = {"state": jax.jit(jax.vmap(env.init))(jax.random.split(key, batch)), "key": key}

    def call() -> int:
        box["state"], box["key"] = play(box["state"], box["key"])
        np.asarray(box["state"].observation), np.asarray(box["state"].legal_action_mask)  # back on the host
        return batch
    return call


def comparisons() -> list[Runner]:
    out = []
    for label, make in (("envpool/CartPole-v1", envpool_cartpole),
                        ("pgx/tic_tac_toe", lambda b: pgx_game("tic_tac_toe", b)),
                        ("pgx/connect_four", lambda b: pgx_game("connect_four", b))):
        for batch in (64, 1024):
            try:
                out.append(Runner(label, str(batch), make(batch)))
            except ImportError as exc:
                print(f"{label} left out: {exc}", file=sys.stderr)
                break
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per environment (default 3)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--compare", action="store_true", help="add EnvPool's and pgx's own games, if installed")
    args = parser.parse_args()
    runners = []
    for game, players in CONFIGS:
        for batch in BATCHES:
            runners.append(Runner(game, str(batch), ours(game, players, batch)))
        runners.append(Runner(game, f"sync_{SYNC}", sync(game, players)))
    if args.compare:
        runners += comparisons()
    load = os.getloadavg()
    rounds = max(1, round(args.seconds / SLICE))
    for _ in range(rounds):
        for runner in runners:
            runner.run(SLICE)
    results: dict[str, dict[str, float]] = {}
    for runner in runners:
        results.setdefault(runner.name, {})[runner.key] = round(runner.rate)
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"load average {load[0]:.2f} before, {os.getloadavg()[0]:.2f} after; CPU time, {rounds} rounds",
          file=sys.stderr)
    if args.json:
        print(json.dumps(results))
        return
    keys = [str(b) for b in BATCHES] + [f"sync_{SYNC}"]
    print(f"{'environment':<22}" + "".join(f"{k:>12}" for k in keys))
    for name, row in results.items():
        print(f"{name:<22}" + "".join(f"{row[k]:>12,}" if k in row else f"{'':>12}" for k in keys))


if __name__ == "__main__":
    main()
