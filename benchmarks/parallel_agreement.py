"""Root-parallel search as a proxy measure: how often a budget finds a reference search's move.

At decisions of heuristic games, a reference search (``--reference`` iterations, one process,
its own seed) picks a move; each variant (``iterations=N`` on one process, ``iterations=2N``
split over two processes as ``workers=2`` would at equal wall time, ``iterations=2N`` on one
process) decides the same view with other seeds, ``--repeats`` times. The share of its
decisions equal to the reference's move (Wilson 95% interval) says how much of a doubled
single-tree budget root parallelism keeps. Cheaper and far less noisy than games, but only a
proxy: agreeing with a longer search is not winning.

    python benchmarks/parallel_agreement.py alarun 2 --budget 500 --reference 8000
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from nemeton.agents.base import make_agent
from nemeton.arena.stats import share_interval

sys.path.insert(0, str(Path(__file__).resolve().parent))
from parallel_search import positions  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("players", type=int)
    parser.add_argument("--option", action="append", default=[], help="game option key=value (JSON value)")
    parser.add_argument("--budget", type=int, default=500)
    parser.add_argument("--reference", type=int, default=8000)
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--extra", default="", help="appended to every spec, e.g. ':rollout=heuristic'")
    args = parser.parse_args()
    options = {k: json.loads(v) for k, _, v in (o.partition("=") for o in args.option)}
    n = args.budget
    variants = {f"iterations={n}": f"ismcts:iterations={n}{args.extra}",
                f"iterations={2 * n}:workers=2": f"ismcts:iterations={2 * n}:workers=2{args.extra}",
                f"iterations={2 * n}": f"ismcts:iterations={2 * n}{args.extra}"}
    spec, *found = positions(args.game, args.players, options, args.positions, seed=4)
    agree = {k: [] for k in variants}
    for i, (seat, view, legal) in enumerate(found):
        reference = make_agent(f"ismcts:iterations={args.reference}{args.extra}", spec, seat, 10_000 + i)
        target = reference.act(view, legal)
        for name, text in variants.items():
            agent = make_agent(text, spec, seat, 100 * i)
            agree[name] += [agent.act(view, legal) == target for _ in range(args.repeats)]
            if hasattr(agent, "close"):
                agent.close()
    print(f"# {spec.title} {args.players}p {options}: {len(found)} positions x {args.repeats}, reference "
          f"{args.reference} iterations{args.extra}; load average {os.getloadavg()}")
    print("| variant | decisions | same move as the reference [95%] |")
    print("| --- | ---: | --- |")
    for name, hits in agree.items():
        e = share_interval([float(h) for h in hits])
        print(f"| `{name}{args.extra}` | {len(hits)} | {e.mean:.1%} [{e.low:.1%}, {e.high:.1%}] |", flush=True)


if __name__ == "__main__":
    main()
