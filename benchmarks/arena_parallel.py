"""Arena throughput: 2 workers against 1, and Ray's overhead per game against local processes.

    python benchmarks/arena_parallel.py [--games 40] [--rounds 4] [--agents ismcts:iterations=300,heuristic]
                                        [--game amarok --players 3] [--tiny 400] [--skip-ray]

One run measures, on the same tournament (the same games, checked identical):

- local, 1 worker (games played in this process) and local, 2 workers (processes), in
  ``--rounds`` alternating slices so that load from other work on a shared machine falls on
  both alike: wall time, games per second and the speed-up (goal: at least 1.8x on 2
  cores); and the CPU seconds per game of each (this process and its worker processes), whose
  ratio is the speed-up the machine would give if nothing else ran on it;
- Ray with 2 workers on a local Ray instance: its start-up time, then the same games,
  alternating with local 2-worker slices again; the overhead per game is Ray's wall time
  minus the local processes', per game;
- the same with ``--tiny`` games between random agents (about a millisecond each), where
  nearly all of the time is the backend's own cost per game.

The machine is shared: the load average before and after is printed with the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import sys
import time

from nemeton.arena.tournament import TournamentConfig, run_tournament


def strip(t) -> list[dict]:
    return [{k: v for k, v in o.to_json().items() if k != "seconds"} for o in t.outcomes]


def cpu() -> float:
    """CPU seconds of this process and of its finished worker processes."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(config: TournamentConfig, games: int, **kwargs) -> tuple[float, object, float]:
    started, used = time.perf_counter(), cpu()
    t = run_tournament(config, games, records=False, **kwargs)
    return time.perf_counter() - started, t, cpu() - used


def machine() -> str:
    cpu = ""
    try:
        for line in open("/proc/cpuinfo", encoding="utf-8"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} cores, {cpu or platform.processor()}, Python {platform.python_version()}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="amarok")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--agents", default="ismcts:iterations=300,heuristic")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--tiny", type=int, default=400, help="games between random agents (backend cost)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rounds", type=int, default=4, help="alternating slices of 1 and 2 workers")
    parser.add_argument("--skip-ray", action="store_true")
    args = parser.parse_args()
    print(f"# {machine()}; load average {os.getloadavg()}", file=sys.stderr, flush=True)
    tiny = TournamentConfig.build(args.game, args.players, ["random"], args.seed)
    rows = {}
    wall = {1: 0.0, 2: 0.0}
    used = {1: 0.0, 2: 0.0}
    played: dict[int, list] = {1: [], 2: []}
    per_round = args.games // args.rounds
    for r in range(args.rounds):  # alternate, so that the machine's other load falls on both alike
        chunk = TournamentConfig.build(args.game, args.players, args.agents.split(","), args.seed + r)
        for workers in (1, 2) if r % 2 == 0 else (2, 1):
            seconds, t, spent = timed(chunk, per_round, workers=workers)
            wall[workers] += seconds
            used[workers] += spent
            played[workers] += strip(t)
    assert played[1] == played[2], "2 workers played other games than 1"
    games = per_round * args.rounds
    rows["local"] = {"games": games, "rounds": args.rounds, "workers_1_s": round(wall[1], 2),
                     "workers_2_s": round(wall[2], 2), "games_per_s_1": round(games / wall[1], 3),
                     "games_per_s_2": round(games / wall[2], 3), "speedup": round(wall[1] / wall[2], 3),
                     "cpu_s_per_game_1": round(used[1] / games, 3), "cpu_s_per_game_2": round(used[2] / games, 3),
                     "speedup_if_idle": round(2 * used[1] / used[2], 3)}
    print(json.dumps({"local": rows["local"]}), flush=True)
    tiny1, _, _ = timed(tiny, args.tiny, workers=1)
    tiny2, _, _ = timed(tiny, args.tiny, workers=2)
    rows["tiny_local"] = {"games": args.tiny, "workers_1_s": round(tiny1, 3), "workers_2_s": round(tiny2, 3),
                          "ms_per_game_1": round(1000 * tiny1 / args.tiny, 3),
                          "ms_per_game_2": round(1000 * tiny2 / args.tiny, 3)}
    print(json.dumps({"tiny_local": rows["tiny_local"]}), flush=True)
    if not args.skip_ray:
        import ray
        started = time.perf_counter()
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        start_up = time.perf_counter() - started
        timed(tiny, 20, workers=2, backend="ray")  # workers started and the function shipped once
        wall_local = wall_ray = 0.0
        for r in range(args.rounds):  # alternating again: load drifts fall on both backends alike
            chunk = TournamentConfig.build(args.game, args.players, args.agents.split(","), args.seed + r)
            for backend in ("local", "ray") if r % 2 == 0 else ("ray", "local"):
                seconds, t, _ = timed(chunk, per_round, workers=2, backend=backend)
                if backend == "ray":
                    wall_ray += seconds
                    assert strip(t) == played[2][r * per_round:(r + 1) * per_round], "Ray played other games"
                else:
                    wall_local += seconds
        ray_tiny, _, _ = timed(tiny, args.tiny, workers=2, backend="ray")
        ray.shutdown()
        rows["ray"] = {"start_up_s": round(start_up, 2), "games": games, "local_workers_2_s": round(wall_local, 2),
                       "ray_workers_2_s": round(wall_ray, 2), "games_per_s_ray": round(games / wall_ray, 3),
                       "overhead_ms_per_game": round(1000 * (wall_ray - wall_local) / games, 1),
                       "tiny_ms_per_game": round(1000 * ray_tiny / args.tiny, 3),
                       "tiny_overhead_ms_per_game": round(1000 * (ray_tiny - tiny2) / args.tiny, 3)}
        print(json.dumps({"ray": rows["ray"]}), flush=True)
    print(f"# load average after {os.getloadavg()}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
