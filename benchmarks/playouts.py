"""Random-playout speed per game and player count (one process = one core).

Prints games/s and steps/s (a step = legal_actions + a uniform random choice + apply),
using each game's bot defaults (safety caps). When ``open-spiel`` is installed, the same
loop over OpenSpiel's ``python_tic_tac_toe`` runs in the same process as a yardstick for
Python per-step cost.

    python benchmarks/playouts.py [--seconds 3] [--game alarun] [--json]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time

from nemeton.engine import get_game, list_games


def bench_config(name: str, cfg: dict, seconds: float, seed: int = 0) -> dict:
    spec = get_game(name)
    opts = {**spec.bot_defaults, **cfg}
    rng = random.Random(seed)
    games = steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline or games == 0:
        state = spec.make(seed=rng.randrange(2**31), **opts)
        choice = rng.choice
        while not state.is_terminal():
            p = state.current_player
            state.apply_unchecked(choice(state.legal_actions(p)), p)
            steps += 1
        games += 1
    elapsed = time.perf_counter() - start
    label = ", ".join(f"{k}={v}" for k, v in cfg.items())
    return {"game": name, "config": label, "games": games, "seconds": round(elapsed, 3),
            "games_per_second": round(games / elapsed, 2), "steps_per_second": round(steps / elapsed),
            "steps_per_game": round(steps / games, 1)}


def bench_openspiel(seconds: float, seed: int = 0) -> dict | None:
    try:
        import pyspiel
        from open_spiel.python.games import tic_tac_toe  # noqa: F401  (registers python_tic_tac_toe)
    except ImportError:
        return None
    game = pyspiel.load_game("python_tic_tac_toe")
    rng = random.Random(seed)
    games = steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {"game": "openspiel:python_tic_tac_toe", "config": "players=2", "games": games,
            "seconds": round(elapsed, 3), "games_per_second": round(games / elapsed, 2),
            "steps_per_second": round(steps / elapsed), "steps_per_game": round(steps / games, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per configuration")
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    parser.add_argument("--json", action="store_true", help="print JSON lines")
    args = parser.parse_args()
    rows = []
    for spec in list_games():
        if args.game and spec.name not in args.game:
            continue
        for cfg in spec.conformance_configs():
            rows.append(bench_config(spec.name, cfg, args.seconds))
            if args.json:
                print(json.dumps(rows[-1]), flush=True)
    yard = bench_openspiel(args.seconds)
    if yard:
        rows.append(yard)
        if args.json:
            print(json.dumps(yard))
    if not args.json:
        print(f"# {platform.processor() or platform.machine()}, Python {platform.python_version()}, one process")
        print(f"{'game':32} {'config':24} {'games/s':>10} {'steps/s':>10} {'steps/game':>11}")
        for r in rows:
            print(f"{r['game']:32} {r['config']:24} {r['games_per_second']:>10.1f} "
                  f"{r['steps_per_second']:>10,} {r['steps_per_game']:>11}")
        if not yard:
            print("(open-spiel not installed: pip install -e .[bench] for the OpenSpiel yardstick)")


if __name__ == "__main__":
    main()
