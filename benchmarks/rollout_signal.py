"""How much a single decision's playouts tell actions apart (signal to noise), per playout policy.

At decisions of heuristic games (the seat's view only), for every legal action: apply it to a
fresh determinization, play out to the end of the round with the policy, score with the
heuristic's ``evaluate`` (the deciding seat's value), ``--samples`` times. The signal is the
spread (standard deviation) of the actions' mean values, the noise the mean within-action
standard deviation; ``samples needed`` = (noise / signal)^2 is roughly how many playouts per
action separate actions one spread apart. A search whose playouts tell actions apart poorly
needs many more iterations to find the better one.

    python benchmarks/rollout_signal.py [--positions 8] [--samples 40]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
from pathlib import Path

from nemeton.agents.base import get_heuristic

sys.path.insert(0, str(Path(__file__).resolve().parent))
from parallel_search import positions  # noqa: E402

CONFIGS = [("amarok", 4, {}), ("amarok", 4, {"teams": True})]


def playout_value(spec, view, seat, action, policy, heuristic, rng) -> float:
    state = spec.sampler(view)(rng)
    start = state.round
    state.apply_unchecked(action, seat)
    while not state.is_terminal() and state.round == start:
        p = state.current_player
        legal = state._legal_actions(p)
        move = heuristic.choose_in_state(state, p, legal, rng) if policy == "heuristic" else rng.choice(legal)
        state.apply_unchecked(move, p)
    return heuristic.evaluate(state)[seat]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--samples", type=int, default=40)
    args = parser.parse_args()
    print(f"# load average {os.getloadavg()}")
    print("| game | players | policy | positions | signal (sd of action means) | noise (sd within) | samples needed "
          "| correlation with the other policy's means |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for game, players, options in CONFIGS:
        heuristic = get_heuristic(game)
        spec, *found = positions(game, players, options, args.positions, seed=2)
        rows = {}
        for policy in ("random", "heuristic"):
            rng = random.Random(5)
            rows[policy] = []
            for seat, view, legal in found:
                means, sds = [], []
                for action in legal:
                    values = [playout_value(spec, view, seat, action, policy, heuristic, rng)
                              for _ in range(args.samples)]
                    means.append(statistics.mean(values))
                    sds.append(statistics.pstdev(values))
                rows[policy].append((means, sds))
        for policy, other in (("random", "heuristic"), ("heuristic", "random")):
            signal = statistics.mean(statistics.pstdev(m) for m, _ in rows[policy])
            noise = statistics.mean(statistics.mean(sd) for _, sd in rows[policy])
            corr = statistics.mean(statistics.correlation(m, o) for (m, _), (o, _) in zip(rows[policy], rows[other])
                                   if len(m) > 2 and statistics.pstdev(m) > 0 and statistics.pstdev(o) > 0)
            print(f"| {spec.title} | {players}{' teams' if options else ''} | {policy} | {len(found)} | {signal:.3f} "
                  f"| {noise:.3f} | {(noise / signal) ** 2:.0f} | {corr:.2f} |", flush=True)

if __name__ == "__main__":
    main()
