"""Screen search variants cheaply: each agent spec against one opponent on the same deals.

Every spec plays an arena tournament with the ``focal`` line-up (it in one seat, or every seat
of one team; the opponent elsewhere) from the same master seed, so every spec meets the same
deals from the same positions; the variants are compared deal by deal (paired differences of
the focal side's mean share over each duplicate block, normal 95% interval), which cancels
most of the luck of the cards. Games are stored (resumable) under ``--out``.

    python benchmarks/screen.py amarok 4 --option teams=true --games 40 --jobs 2 \\
        --out benchmarks/results/ai/screen-amarok-4p-teams ismcts:iterations=370 ismcts:iterations=370:c=0.4
"""

from __future__ import annotations

import argparse
import json
import os
from collections import defaultdict
from pathlib import Path

from nemeton.arena.stats import mean_interval, share_interval
from nemeton.arena.tournament import TournamentConfig, run_tournament


def slug(spec: str) -> str:
    return spec.replace(":", "-").replace("=", "")


def block_means(outcomes) -> dict[int, float]:
    shares = defaultdict(list)
    for o in outcomes:
        shares[o.deal].append(o.share(0))
    return {d: sum(v) / len(v) for d, v in shares.items()}


def parse_option(text: str):
    key, _, value = text.partition("=")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("players", type=int)
    parser.add_argument("specs", nargs="+", help="focal agent specs; the first is the baseline")
    parser.add_argument("--against", default="heuristic")
    parser.add_argument("--option", action="append", default=[], help="game option key=value")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    options = dict(parse_option(o) for o in args.option)
    print(f"# {args.game} {args.players}p {options} against {args.against}, {args.games} games a spec, seed "
          f"{args.seed}; load average {os.getloadavg()}", flush=True)
    base = None
    print("| focal | games | share [95%] | paired difference from the first [95%] | s/game |")
    print("| --- | ---: | --- | --- | ---: |", flush=True)
    for spec in args.specs:
        config = TournamentConfig.build(args.game, args.players, [spec, args.against], args.seed, options,
                                        lineup="focal")
        t = run_tournament(config, args.games, workers=args.jobs, out=Path(args.out) / slug(spec), records=False)
        shares = [o.share(0) for o in t.outcomes]
        est = share_interval(shares)
        blocks = block_means(t.outcomes)
        if base is None:
            base, diff = blocks, "—"
        else:
            d = mean_interval([blocks[k] - base[k] for k in blocks if k in base])
            diff = f"{d.mean:+.1%} [{d.low:+.1%}, {d.high:+.1%}]"
        seconds = sum(sum(o.seconds) for o in t.outcomes) / max(1, len(t.outcomes))
        print(f"| `{spec}` | {len(shares)} | {est.mean:.1%} [{est.low:.1%}, {est.high:.1%}] | {diff} "
              f"| {seconds:.1f} |", flush=True)


if __name__ == "__main__":
    main()
