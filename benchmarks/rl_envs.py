"""Random-action steps per second of our PettingZoo environments, next to PettingZoo's own
classic games, in one run.

Ours run on the compiled kernel (``engine="fast"``, the default where Numba is installed);
with ``--reference`` also on the Python rules (``engine="reference"``), in the same run.

Every environment runs the same loop: ``for agent in env.agent_iter(): obs, ... =
env.last()``, then a uniformly random legal action drawn from ``obs["action_mask"]`` (or
None for a finished agent) and ``env.step(action)``; so the observation tensor and the mask
are built at every step. Steps are ``env.step`` calls (a game's final None steps included,
as PettingZoo counts them); decisions are the steps with an action. The environments take
turns in slices of a quarter of a second, timed in CPU time of the process
(``time.process_time``), so other work on a shared machine slows none more than another.

With ``--breakdown`` it also times, per decision of each of our games, where the time goes:
on the kernel, its observation, its mask, its step (and the seat to act next) and the rest
of the environment's step; with ``--reference`` also the reference engine's step (legal
actions and apply), the seat's view, the tensor made from it and the mask.

    python benchmarks/rl_envs.py --seconds 3 [--reference] [--breakdown]

PettingZoo's classic games need ``pygame`` (and ``texas_holdem_v4`` ``rlcard``); one that
cannot be imported is left out and said so (``pip install pygame rlcard`` beside the extras).
"""

from __future__ import annotations

import argparse
import importlib
import platform
import random
import time

import numpy as np

from nemeton.engine import get_game
from nemeton.interop import pettingzoo as ours
from nemeton.interop._fast import KernelGame

OURS = [("alarun", {"players": 2}), ("alarun", {"players": 3}), ("alarun", {"players": 4}),
        ("amarok", {"players": 3}), ("amarok", {"players": 4}), ("amarok", {"players": 6}),
        ("amarok", {"players": 4, "teams": True}), ("amarok", {"players": 6, "teams": True}),
        ("edora", {"players": 2}), ("edora", {"players": 3}), ("edora", {"players": 4})]


def theirs() -> list[tuple[str, object]]:
    """PettingZoo's classic games that import here (all three need ``pygame``, texas hold'em
    ``rlcard`` too: neither is in our extras); the others are left out, and said so."""
    out = []
    for name in ("tictactoe_v3", "connect_four_v3", "texas_holdem_v4"):
        try:
            module = importlib.import_module(f"pettingzoo.classic.{name}")
            module.env().reset(seed=0)
        except Exception as exc:  # pygame or rlcard missing
            print(f"{name} left out: {type(exc).__name__}: {exc}")
            continue
        out.append((name, module.env))
    return out


def legal_ids(mask: np.ndarray) -> np.ndarray:
    """The ids a mask allows. PettingZoo's masks are int8 0/1: read as booleans (the same
    bytes), ``nonzero`` is about ten times faster than on int8 (1 against 14 microseconds
    for Alarún's 6,453 actions), a cost of the random player, not of the environment."""
    if mask.dtype.itemsize == 1:
        return mask.view(np.bool_).nonzero()[0]
    return np.flatnonzero(mask)


class Runner:
    """One environment, played in slices; counts steps, decisions and CPU seconds."""

    def __init__(self, label: str, make):
        self.label = label
        self.env = make()
        self.env.reset(seed=0)
        self.rng = random.Random(0)
        self.steps = self.decisions = 0
        self.seconds = 0.0
        self._iter = iter(self.env.agent_iter())

    def run(self, seconds: float) -> None:
        env, rng = self.env, self.rng
        steps = decisions = 0
        start = time.process_time()
        while True:
            for _ in range(64):
                try:
                    next(self._iter)
                except StopIteration:
                    env.reset()
                    self._iter = iter(env.agent_iter())
                    continue
                obs, _, term, trunc, _ = env.last()
                if term or trunc:
                    env.step(None)
                else:
                    env.step(rng.choice(legal_ids(obs["action_mask"])))
                    decisions += 1
                steps += 1
            if time.process_time() - start >= seconds:
                break
        self.seconds += time.process_time() - start
        self.steps += steps
        self.decisions += decisions


def fast_breakdown(game: str, options: dict, env_rate: float, games: int = 20) -> dict[str, float]:
    """Microseconds per decision on the kernel (one slot, as the environment steps it): the
    observation, the mask, the step with the seat to act next; ``rest``: what else a step of
    the environment at ``env_rate`` decisions per second took (PettingZoo's loop, the
    checks, the rewards, the random choice)."""
    spec = get_game(game)
    opts = spec.options(**{**spec.bot_defaults, **options})
    fast = KernelGame(spec, opts)
    rng = random.Random(1)
    t_obs = t_mask = t_step = 0.0
    n = 0
    clock = time.process_time
    for seed in range(games):
        fast.deal(seed)
        seat = fast.current_player()
        while seat >= 0:
            t0 = clock()
            fast.observe(seat)
            t1 = clock()
            mask = fast.mask()
            t2 = clock()
            action = rng.choice(legal_ids(mask))
            t3 = clock()
            fast.step(action)
            seat = fast.current_player()
            t4 = clock()
            t_obs += t1 - t0
            t_mask += t2 - t1
            t_step += t4 - t3
            n += 1
    scale = 1e6 / n
    out = {"observation": t_obs * scale, "mask": t_mask * scale, "step": t_step * scale}
    out["rest"] = max(0.0, 1e6 / env_rate - sum(out.values()))
    return out


def breakdown(game: str, options: dict, games: int = 20) -> dict[str, float]:
    """Microseconds per decision of the reference engine in: the engine's step, the view
    (``shared_view``, as the environment takes it), the tensor (with the seat's memo), the
    mask."""
    spec = get_game(game)
    opts = spec.options(**{**spec.bot_defaults, **options})
    encoding = spec.encoding(opts)
    out = np.zeros(encoding.observation_size, dtype=np.float32)
    rng = random.Random(1)
    t_step = t_view = t_encode = t_mask = 0.0
    n = 0
    clock = time.process_time
    for seed in range(games):
        state = spec.new_state(opts, seed)
        state.record_events(False)
        memos = [encoding.new_memo() for _ in range(opts.players)]
        while not state.is_terminal():
            seat = state.current_player
            t0 = clock()
            view = state.shared_view(seat)
            t1 = clock()
            encoding.encode(view, out, memos[seat])
            t2 = clock()
            legal = state.legal_actions(seat)
            mask = np.zeros(len(encoding.actions), dtype=np.int8)
            ids = encoding.actions.ids(legal)
            mask[np.fromiter(ids, np.intp, len(ids))] = 1
            t3 = clock()
            state.apply_unchecked(rng.choice(legal), seat)
            t4 = clock()
            t_view += t1 - t0
            t_encode += t2 - t1
            t_mask += t3 - t2
            t_step += t4 - t3
            n += 1
    scale = 1e6 / n
    return {"step": t_step * scale, "view": t_view * scale, "tensor": t_encode * scale, "mask": t_mask * scale}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per environment")
    parser.add_argument("--reference", action="store_true",
                        help="also run our environments on the reference engine (the Python rules)")
    parser.add_argument("--breakdown", action="store_true", help="also time the parts of a step of our games")
    args = parser.parse_args()
    runners = [Runner(label, make) for label, make in theirs()]
    engines = ["fast", "reference"] if args.reference else ["fast"]
    for engine in engines:
        for game, options in OURS:
            label = f"{game} " + " ".join(f"{k}={v}" for k, v in options.items()) + f" ({engine})"
            runners.append(Runner(label, lambda g=game, o=options, e=engine: ours.env(g, engine=e, **o)))
    rounds = max(1, round(args.seconds / 0.25))
    for _ in range(rounds):
        for r in runners:
            r.run(args.seconds / rounds)
    print(f"Machine: {platform.processor() or platform.machine()}, Python {platform.python_version()}, "
          f"one process, CPU time")
    base = next((r for r in runners if r.label == "tictactoe_v3"), None)
    print("| environment | observation | actions | steps/s | decisions/s | vs tictactoe_v3 |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for r in runners:
        space = r.env.observation_space(r.env.possible_agents[0])["observation"]
        actions = r.env.action_space(r.env.possible_agents[0]).n
        rate = r.steps / r.seconds
        ratio = f"{rate / (base.steps / base.seconds):.2f}" if base else ""
        print(f"| {r.label} | {int(np.prod(space.shape))} | {actions} | {rate:,.0f} | "
              f"{r.decisions / r.seconds:,.0f} | {ratio} |")
    if args.breakdown:
        print("\nMicroseconds per decision on the kernel (CPU time; rest: the environment's step less these):")
        print("| game | observation | mask | step | rest | total |")
        print("| --- | ---: | ---: | ---: | ---: | ---: |")
        for game, options in OURS:
            label = f"{game} " + " ".join(f"{k}={v}" for k, v in options.items())
            r = next(r for r in runners if r.label == f"{label} (fast)")
            b = fast_breakdown(game, options, r.decisions / r.seconds)
            print(f"| {label} | {b['observation']:.1f} | {b['mask']:.1f} | {b['step']:.1f} | {b['rest']:.1f} | "
                  f"{sum(b.values()):.1f} |")
    if args.breakdown and args.reference:
        print("\nMicroseconds per decision of the reference engine (CPU time):")
        print("| game | engine step | view | tensor | mask | total |")
        print("| --- | ---: | ---: | ---: | ---: | ---: |")
        for game, options in OURS:
            b = breakdown(game, options)
            label = f"{game} " + " ".join(f"{k}={v}" for k, v in options.items())
            print(f"| {label} | {b['step']:.1f} | {b['view']:.1f} | {b['tensor']:.1f} | {b['mask']:.1f} | "
                  f"{sum(b.values()):.1f} |")


if __name__ == "__main__":
    main()
