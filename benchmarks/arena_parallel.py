"""Arena throughput: 2 workers against 1, and Ray's overhead per game against local processes.

    python benchmarks/arena_parallel.py [--games 40] [--agents ismcts:iterations=300,heuristic]
                                        [--game amarok --players 3] [--tiny 400] [--skip-ray]

One run measures, on the same tournament (the same games, checked identical):

- local, 1 worker (games played in this process) and local, 2 workers (processes): wall time,
  games per second and the speed-up (goal: at least 1.8x on 2 cores);
- Ray with 2 workers on a local Ray instance: its start-up time, then the same games; the
  overhead per game is its wall time minus the local 2-worker time, per game;
- the same with ``--tiny`` games between random agents (about a millisecond each), where
  nearly all of the time is the backend's own cost per game.

The machine is shared: the load average before and after is printed with the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time

from nemeton.arena.tournament import TournamentConfig, run_tournament


def strip(t) -> list[dict]:
    return [{k: v for k, v in o.to_json().items() if k != "seconds"} for o in t.outcomes]


def timed(config: TournamentConfig, games: int, **kwargs) -> tuple[float, object]:
    started = time.perf_counter()
    t = run_tournament(config, games, records=False, **kwargs)
    return time.perf_counter() - started, t


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
    parser.add_argument("--skip-ray", action="store_true")
    args = parser.parse_args()
    print(f"# {machine()}; load average {os.getloadavg()}", file=sys.stderr, flush=True)
    config = TournamentConfig.build(args.game, args.players, args.agents.split(","), args.seed)
    tiny = TournamentConfig.build(args.game, args.players, ["random"], args.seed)
    rows = {}
    one, t1 = timed(config, args.games, workers=1)
    two, t2 = timed(config, args.games, workers=2)
    assert strip(t1) == strip(t2), "2 workers played other games than 1"
    rows["local"] = {"games": args.games, "workers_1_s": round(one, 2), "workers_2_s": round(two, 2),
                     "games_per_s_1": round(args.games / one, 3), "games_per_s_2": round(args.games / two, 3),
                     "speedup": round(one / two, 3)}
    print(json.dumps({"local": rows["local"]}), flush=True)
    tiny1, _ = timed(tiny, args.tiny, workers=1)
    tiny2, _ = timed(tiny, args.tiny, workers=2)
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
        ray_two, tr = timed(config, args.games, workers=2, backend="ray")
        assert strip(tr) == strip(t1), "Ray played other games than local processes"
        ray_tiny, _ = timed(tiny, args.tiny, workers=2, backend="ray")
        ray.shutdown()
        rows["ray"] = {"start_up_s": round(start_up, 2), "workers_2_s": round(ray_two, 2),
                       "games_per_s_2": round(args.games / ray_two, 3),
                       "overhead_ms_per_game": round(1000 * (ray_two - two) / args.games, 1),
                       "tiny_ms_per_game": round(1000 * ray_tiny / args.tiny, 3),
                       "tiny_overhead_ms_per_game": round(1000 * (ray_tiny - tiny2) / args.tiny, 3)}
        print(json.dumps({"ray": rows["ray"]}), flush=True)
    print(f"# load average after {os.getloadavg()}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
