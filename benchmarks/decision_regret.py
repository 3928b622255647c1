"""How well one decision is made: the regret of the kernel search and the reference search at
the same time (or iteration) budget, against a much longer search of the same position.

For ``--positions`` positions of a game (a deal played ``0..39`` random actions on, then to a
real decision), a gold search (``ismcts:iterations=--gold:engine=fast:batch=1``, the game's
default settings, fixed seed) values every root action by its mean share of a win; each
engine then decides the position ``--repeats`` times (seeds 0..), at ``--seconds`` a decision
or ``--iterations``. Printed: each engine's mean regret (the gold value of the gold's best
action minus that of the chosen one) with its standard error, and how often it chose the
gold's best action. A head-to-head in games mixes this with the luck of the deal; this asks
the search only for its decision.

    NUMBA_NUM_THREADS=1 python benchmarks/decision_regret.py amarok 4 --seconds 0.2 --positions 24
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics

from nemeton.agents.base import make_agent
from nemeton.engine import get_game


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("players", type=int)
    budget = ap.add_mutually_exclusive_group()
    budget.add_argument("--seconds", type=float, default=None, help="time a decision (default 0.2)")
    budget.add_argument("--iterations", type=int, default=None, help="iterations a decision")
    ap.add_argument("--positions", type=int, default=24)
    ap.add_argument("--repeats", type=int, default=4)
    ap.add_argument("--gold", type=int, default=20000, help="the gold search's iterations")
    ap.add_argument("--engines", default="reference,fast")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    budget_spec = f"iterations={args.iterations}" if args.iterations else f"seconds={args.seconds or 0.2}"
    engines = args.engines.split(",")
    spec = get_game(args.game)
    regret: dict[str, list[float]] = {e: [] for e in engines}
    best_chosen = {e: 0 for e in engines}
    for pos in range(args.positions):
        state = spec.make(seed=100 + pos, **{**spec.bot_defaults, "players": args.players})
        rng = random.Random(pos)
        for _ in range(rng.randrange(0, 40)):
            if state.is_terminal():
                break
            p = state.current_player
            state.apply(rng.choice(state.legal_actions(p)), p)
        while not state.is_terminal() and len(state.legal_actions(state.current_player)) < 2:
            p = state.current_player
            state.apply(rng.choice(state.legal_actions(p)), p)
        if state.is_terminal():
            continue
        seat = state.current_player
        view = state.view(seat)
        root = make_agent(f"ismcts:iterations={args.gold}:engine=fast:batch=1", spec, seat, 999).search(view)
        gold = {a: ch.reward / ch.visits for a, ch in root.children.items() if ch.visits}
        top = max(gold, key=gold.__getitem__)
        for e in engines:
            for s in range(args.repeats):
                a = make_agent(f"ismcts:{budget_spec}:engine={e}", spec, seat, s).act(view, state.legal_actions(seat))
                regret[e].append(gold[top] - gold.get(a, min(gold.values())))
                best_chosen[e] += a == top
    out = {e: {"regret": statistics.mean(r), "stderr": statistics.stdev(r) / len(r) ** 0.5,
               "chose_best": best_chosen[e] / len(r), "decisions": len(r)} for e, r in regret.items()}
    if args.json:
        print(json.dumps({"game": args.game, "players": args.players, "budget": budget_spec, "engines": out}))
        return
    print(f"{args.game}, {args.players} players, {budget_spec}, gold {args.gold:,} iterations "
          f"({platform.machine()}, Python {platform.python_version()})")
    print("| engine | decisions | mean regret ± s.e. | chose the gold's best |")
    print("| --- | ---: | ---: | ---: |")
    for e, o in out.items():
        print(f"| {e} | {o['decisions']} | {o['regret']:.4f} ± {o['stderr']:.4f} | {100 * o['chose_best']:.0f}% |")


if __name__ == "__main__":
    main()
