"""The teacher's budget: time to analyse a 60-decision game, and how stable the analysis is.

For each game a game the heuristic plays in every seat (the first 60 actions of its record,
seed 1) is analysed at the budget given (default: the teacher's, ``DEFAULT_ITERATIONS``):
wall time and CPU time (this process and its helper processes, the kernel's loading
included). Stability: the same record analysed with two seeds; the mean |difference| of
``before`` and of ``after`` (win chance, 0..1) over the decisions, and the share of decisions
given the same class (None included) by both runs, and of those flagged (inaccuracy or
worse) by either run, the share flagged by both.

    python benchmarks/teacher.py [--iterations N] [--workers W] [--games alarun:2,amarok:4,edora:2]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import resource
import time

from nemeton.agents.base import get_heuristic
from nemeton.engine import GameRecord, get_game
from nemeton.teacher.analysis import DEFAULT_ITERATIONS, analyse_record

DECISIONS = 60


def heuristic_record(name: str, players: int, seed: int, actions: int) -> GameRecord:
    spec = get_game(name)
    heuristic = get_heuristic(name)
    rng = random.Random(seed)
    state = spec.make(players=players, seed=seed, **spec.bot_defaults)
    while not state.is_terminal() and len(state.history) < actions:
        seat = state.acting()[0]
        state.apply(heuristic.choose_in_state(state.clone(), seat, state.legal_actions(seat), rng), seat)
    return state.record()


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(record: GameRecord, iterations: int, seed: int, workers: int):
    wall, cpu = time.perf_counter(), cpu_seconds()
    analysis = analyse_record(record, iterations=iterations, seed=seed, workers=workers)
    return analysis.to_json(), time.perf_counter() - wall, cpu_seconds() - cpu


def stability(a: dict, b: dict) -> dict[str, float]:
    pairs = [(x, y) for x, y in zip(a["decisions"], b["decisions"]) if not x["forced"]]
    flagged = [(x, y) for x, y in pairs if x["class"] or y["class"]]
    return {"before": sum(abs(x["before"] - y["before"]) for x, y in pairs) / len(pairs),
            "after": sum(abs(x["after"] - y["after"]) for x, y in pairs) / len(pairs),
            "same class": sum(x["class"] == y["class"] for x, y in pairs) / len(pairs),
            "flagged by both": (sum(bool(x["class"]) and bool(y["class"]) for x, y in flagged) / len(flagged)
                                if flagged else float("nan")),
            "flagged": len(flagged), "judged": len(pairs)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--games", default="alarun:2,amarok:4,edora:2")
    args = parser.parse_args()
    print(f"# {platform.node()} {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.1f}, {time.strftime('%Y-%m-%d')}; {args.iterations} iterations a decision, "
          f"{args.workers} worker(s)")
    for item in args.games.split(","):
        name, players = item.split(":")
        record = heuristic_record(name, int(players), 1, DECISIONS)
        first, wall, cpu = timed(record, args.iterations, 0, args.workers)
        second, wall2, cpu2 = timed(record, args.iterations, 1, args.workers)
        s = stability(first, second)
        print(f"{name} {players}p, {len(record.actions)} decisions ({s['judged']} unforced): "
              f"wall {wall:.1f} s / {wall2:.1f} s, CPU {cpu:.1f} s / {cpu2:.1f} s (seeds 0 / 1); "
              f"mean |d before| {s['before']:.3f}, |d after| {s['after']:.3f}, same class {s['same class']:.0%}, "
              f"of {s['flagged']} flagged by either, flagged by both {s['flagged by both']:.0%}", flush=True)


if __name__ == "__main__":
    main()
