"""Root-parallel ISMCTS (``ismcts:workers=2``): what one decision costs and gains.

For each game, decisions at positions of one heuristic game (every k-th decision with a
choice), in alternating order:

- **rate**: iterations searched in ``seconds=S`` with ``workers=1`` and ``workers=2``
  (the ratio is the parallel speed-up of one decision);
- **overhead**: the wall time of a tiny decision (``iterations=2``, one per process) with
  ``workers=2`` minus that of ``iterations=1`` with one process: sending the view, the
  helper's sampler set-up, the root statistics back;
- **start**: the first parallel decision of a fresh agent minus a later one (the helper
  process starting).

    python benchmarks/parallel_search.py [--seconds 0.25] [--positions 6] [--repeats 3]

The strength gain at equal wall time is measured with the arena (see docs/ai.md).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from nemeton.agents.base import make_agent
from nemeton.engine import get_game

GAMES = [("alarun", 2, {}), ("amarok", 4, {"teams": True}), ("edora", 2, {})]


def positions(game: str, players: int, options: dict, count: int, seed: int = 1) -> list:
    spec = get_game(game)
    state = spec.make(seed=seed, **{**spec.bot_defaults, **options, "players": players})
    agents = [make_agent("heuristic", spec, s, s + 1) for s in range(players)]
    found = []
    while not state.is_terminal():
        seat = state.current_player
        view, legal = state.view(seat), state.legal_actions(seat)
        if len(legal) > 1:
            found.append((seat, view, legal))
        state.apply(agents[seat].act(view, legal), seat)
    step = max(1, len(found) // count)
    return [spec] + found[::step][:count]


def timed(agent, view, legal) -> float:
    started = time.perf_counter()
    agent.act(view, legal)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.25)
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--repeats", type=int, default=3, help="alternating measurements per position")
    args = parser.parse_args()
    print(f"# {os.cpu_count()} cores; load average before: {os.getloadavg()}")
    print("| game | players | positions | it/decision 1 worker | it/decision 2 workers | speed-up "
          "| overhead/decision (ms) | helper start (ms) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for game, players, options in GAMES:
        spec, *found = positions(game, players, options, args.positions)
        one_it, two_it, overhead, start = [], [], [], []
        for seat, view, legal in found:
            single = make_agent(f"ismcts:seconds={args.seconds}", spec, seat, 3)
            double = make_agent(f"ismcts:seconds={args.seconds}:workers=2", spec, seat, 3)
            tiny1 = make_agent("ismcts:iterations=1", spec, seat, 3)
            tiny2 = make_agent("ismcts:iterations=2:workers=2", spec, seat, 3)
            start.append(timed(tiny2, view, legal))
            for _ in range(args.repeats):
                single.act(view, legal)
                one_it.append(single.last_iterations)
                double.act(view, legal)
                two_it.append(double.last_iterations)
                t1 = statistics.median(timed(tiny1, view, legal) for _ in range(5))
                t2 = statistics.median(timed(tiny2, view, legal) for _ in range(5))
                overhead.append(t2 - t1)
            start[-1] -= t2
            double.close()
            tiny2.close()
        mean1, mean2 = statistics.mean(one_it), statistics.mean(two_it)
        print(f"| {spec.title} | {players}{' teams' if options else ''} | {len(found)} | {mean1:,.0f} | {mean2:,.0f} "
              f"| {mean2 / mean1:.2f}x | {1000 * statistics.median(overhead):.1f} "
              f"| {1000 * statistics.median(start):.0f} |", flush=True)
    print(f"# load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
