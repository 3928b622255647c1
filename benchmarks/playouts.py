"""Random-playout speed per game and player count (one process = one core).

Prints games/s and steps/s (a step = legal_actions + a uniform random choice + apply),
using each game's bot defaults (safety caps). The raw loop does not record the event log
(as playouts and search do not). When ``open-spiel`` is installed, the same loop over
OpenSpiel's ``python_tic_tac_toe`` runs in the same process as a yardstick for Python
per-step cost.

``--simulate`` also measures ``nemeton simulate`` with random agents (the table loop: agents
asked through the protocol, every action checked, results and records kept) on the same
configurations, alternating slices of both loops so that a busy machine slows both alike,
and prints the two speeds side by side with their ratio.

    python benchmarks/playouts.py [--seconds 3] [--game alarun] [--json] [--simulate]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import time

from nemeton.engine import get_game, list_games


def raw_loop(name: str, cfg: dict, seconds: float, rng: random.Random,
             clock=time.perf_counter, outcome: bool = False) -> tuple[int, int, float]:
    """(games, steps, elapsed) of the raw loop for about ``seconds`` (at least one game);
    with ``outcome`` each game's scores, ranking, winners and returns are computed at its end,
    as every use of a finished game (a simulation, a search rollout) needs them."""
    spec = get_game(name)
    opts = {**spec.bot_defaults, **cfg}
    games = steps = 0
    start = clock()
    deadline = start + seconds
    while clock() < deadline or games == 0:
        state = spec.make(seed=rng.randrange(2**31), **opts)
        state.record_events(False)
        choice = rng.choice
        while not state.is_terminal():
            p = state.current_player
            state.apply_unchecked(choice(state.legal_actions(p)), p)
            steps += 1
        if outcome:
            state.scores(), state.ranking(), state.winners(), state.returns()
        games += 1
    return games, steps, clock() - start


def rates(games: int, steps: int, elapsed: float) -> dict:
    return {"games": games, "seconds": round(elapsed, 3), "games_per_second": round(games / elapsed, 2),
            "steps_per_second": round(steps / elapsed), "steps_per_game": round(steps / games, 1)}


def label(cfg: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in cfg.items())


def bench_config(name: str, cfg: dict, seconds: float, seed: int = 0) -> dict:
    return {"game": name, "config": label(cfg), **rates(*raw_loop(name, cfg, seconds, random.Random(seed)))}


def bench_against_simulate(name: str, cfg: dict, seconds: float, seed: int = 0, slice_seconds: float = 0.25) -> dict:
    """The raw loop and ``simulate`` (random agents) in alternating slices of about
    ``slice_seconds`` each, ``seconds`` in all for each loop. Both are timed in CPU time of
    this process (``time.process_time``), so other work on a shared machine slows neither."""
    from nemeton.arena.match import simulate
    players = cfg["players"]
    options = {k: v for k, v in cfg.items() if k != "players"}
    rng = random.Random(seed)
    slice_seconds = min(slice_seconds, seconds)
    raw = [0, 0, 0.0]
    full = [0, 0, 0.0]
    sim = [0, 0, 0.0]
    per_slice = 1
    while raw[2] < seconds or sim[2] < seconds:
        games, steps, elapsed = raw_loop(name, cfg, slice_seconds, rng, time.process_time)
        raw = [raw[0] + games, raw[1] + steps, raw[2] + elapsed]
        games, steps, elapsed = raw_loop(name, cfg, slice_seconds, rng, time.process_time, outcome=True)
        full = [full[0] + games, full[1] + steps, full[2] + elapsed]
        start = time.process_time()
        summary = simulate(name, players, per_slice, rng.randrange(2**31), ["random"], options)
        elapsed = time.process_time() - start
        sim = [sim[0] + per_slice, sim[1] + sum(r.steps for r in summary.results), sim[2] + elapsed]
        per_slice = max(1, round(per_slice * slice_seconds / max(elapsed, 1e-3)))
    raw_rates, full_rates, sim_rates = rates(*raw), rates(*full), rates(*sim)
    return {"game": name, "config": label(cfg), **raw_rates,
            "with_outcome": full_rates,
            "simulate": sim_rates,
            "ratio": round(sim_rates["steps_per_second"] / raw_rates["steps_per_second"], 3),
            "ratio_with_outcome": round(sim_rates["steps_per_second"] / full_rates["steps_per_second"], 3)}


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
    parser.add_argument("--simulate", action="store_true",
                        help="also measure `nemeton simulate` with random agents, side by side")
    args = parser.parse_args()
    rows = []
    for spec in list_games():
        if args.game and spec.name not in args.game:
            continue
        for cfg in spec.conformance_configs():
            if args.simulate:
                rows.append(bench_against_simulate(spec.name, cfg, args.seconds))
            else:
                rows.append(bench_config(spec.name, cfg, args.seconds))
            if args.json:
                print(json.dumps(rows[-1]), flush=True)
    if args.simulate:
        if not args.json:
            print_side_by_side(rows)
        return
    yard = bench_openspiel(args.seconds)
    if yard:
        rows.append(yard)
        if args.json:
            print(json.dumps(yard))
    if not args.json:
        print(f"# {machine()}, Python {platform.python_version()}, one process")
        print(f"{'game':32} {'config':24} {'games/s':>10} {'steps/s':>10} {'steps/game':>11}")
        for r in rows:
            print(f"{r['game']:32} {r['config']:24} {r['games_per_second']:>10.1f} "
                  f"{r['steps_per_second']:>10,} {r['steps_per_game']:>11}")
        if not yard:
            print("(open-spiel not installed: pip install -e .[rl] for the OpenSpiel yardstick)")


def print_side_by_side(rows: list[dict]) -> None:
    print(f"# {machine()}, Python {platform.python_version()}, one process")
    print(f"{'game':8} {'config':48} {'raw steps/s':>12} {'simulate steps/s':>17} {'ratio':>6} "
          f"{'raw+outcome':>12} {'ratio':>6}")
    for r in rows:
        print(f"{r['game']:8} {r['config']:48} {r['steps_per_second']:>12,} "
              f"{r['simulate']['steps_per_second']:>17,} {r['ratio']:>6.0%} "
              f"{r['with_outcome']['steps_per_second']:>12,} {r['ratio_with_outcome']:>6.0%}")


def machine() -> str:
    """The processor's model name (lscpu's "Model name" on Linux) and the number of cores."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores"


if __name__ == "__main__":
    main()
