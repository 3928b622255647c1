"""ISMCTS iterations per second with the playouts in the compiled kernel (``engine=fast``)
against the reference search (``engine=reference``), in one run, same settings, same
positions, same seeds.

For each game configuration and each setting (the game's defaults, full random rollouts,
random rollouts cut off at the round's end), both engines search the same positions (the
first decision of a game and one after 12 random actions, for 3 deals) for ``--seconds``
each, interleaved (reference, fast, reference, fast, ...), each engine's agent made and
warmed once (the kernel is loaded before the clock starts, as in play). Rates are
iterations over the seconds measured around each search; the median over the positions is
printed, and the ratio fast / reference.

With ``--profile GAME:PLAYERS`` it prints, instead, where the time of one fast search goes
(sampling, descent, loading states into the kernel, the kernel's playouts), per iteration.

    python benchmarks/ismcts_fast.py [--seconds 1] [--configs alarun-2p,amarok-4p,edora-2p] [--json]
    python benchmarks/ismcts_fast.py --profile alarun:2
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time

from nemeton.agents.base import make_agent
from nemeton.engine import get_game

CONFIGS = {"alarun-2p": ("alarun", 2, {}), "alarun-3p": ("alarun", 3, {}), "alarun-4p": ("alarun", 4, {}),
           "amarok-3p": ("amarok", 3, {}), "amarok-4p": ("amarok", 4, {}), "amarok-4p-teams": ("amarok", 4, {"teams": True}),
           "amarok-6p": ("amarok", 6, {}), "edora-2p": ("edora", 2, {}), "edora-3p": ("edora", 3, {}),
           "edora-4p": ("edora", 4, {})}
SETTINGS = {"defaults": "", "random": ":rollout=random:cutoff=none:prior=none",
            "cutoff=round": ":rollout=random:cutoff=round:prior=none"}


def positions(game: str, players: int, options: dict, deals: int = 3) -> list:
    """(spec, view, seat) at the first decision and after 12 random actions, per deal."""
    spec = get_game(game)
    out = []
    for deal in range(deals):
        for steps in (0, 12):
            state = spec.make(seed=1000 + deal, **{**spec.bot_defaults, **options, "players": players})
            rng = random.Random(deal)
            for _ in range(steps):
                p = state.current_player
                state.apply(rng.choice(state.legal_actions(p)), p)
            while len(state.legal_actions(state.current_player)) < 2:  # a real decision
                p = state.current_player
                state.apply(rng.choice(state.legal_actions(p)), p)
            seat = state.current_player
            out.append((spec, state.view(seat), seat))
    return out


def rates(config: str, setting: str, seconds: float) -> dict:
    game, players, options = CONFIGS[config]
    spots = positions(game, players, options)
    spec = spots[0][0]
    found: dict[str, list[float]] = {"reference": [], "fast": []}
    agents = {}
    for engine in found:
        for seat in range(players):
            agents[engine, seat] = make_agent(f"ismcts:seconds={seconds}:engine={engine}{SETTINGS[setting]}",
                                              spec, seat, 7)
    warmed = set()
    for _, view, seat in spots:  # warm each agent once: the kernel loaded, caches filled
        for engine in found:
            if (engine, seat) not in warmed:
                warmed.add((engine, seat))
                agents[engine, seat].search(view)
    for _, view, seat in spots:
        for engine in found:
            agent = agents[engine, seat]
            started = time.perf_counter()
            agent.search(view)
            found[engine].append(agent.last_iterations / (time.perf_counter() - started))
    ref, fast = statistics.median(found["reference"]), statistics.median(found["fast"])
    return {"config": config, "setting": setting, "spec": str(agents["fast", spots[0][2]]),
            "reference": round(ref), "fast": round(fast), "ratio": round(fast / ref, 2)}


def profile(game: str, players: int, seconds: float) -> None:
    """Where one fast search's time goes, per iteration."""
    import cProfile
    import pstats
    spec, view, seat = positions(game, players, {}, 1)[0]
    agent = make_agent(f"ismcts:seconds={seconds}:engine=fast", spec, seat, 7)
    agent.search(view)
    prof = cProfile.Profile()
    prof.enable()
    agent.search(view)
    prof.disable()
    n = agent.last_iterations
    print(f"{agent}: {n} iterations (under the profiler)")
    stats = pstats.Stats(prof)
    for (path, _, name), row in sorted(stats.stats.items(), key=lambda kv: -kv[1][3]):  # type: ignore[attr-defined]
        if name in ("sample", "_descend", "load", "playout", "evaluate", "returns", "_back_up", "shuffle"):
            print(f"  {name:10} {row[3] / n * 1e6:8.1f} µs an iteration  ({path.rsplit('/', 2)[-2]})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--configs", default="alarun-2p,amarok-4p,edora-2p")
    parser.add_argument("--settings", default=",".join(SETTINGS))
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--profile", help="GAME:PLAYERS")
    args = parser.parse_args()
    if args.profile:
        game, players = args.profile.split(":")
        profile(game, int(players), args.seconds)
        return
    rows = []
    if not args.json:
        print(f"# {platform.processor() or platform.machine()}, Python {platform.python_version()}, "
              f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {args.seconds} s a search")
        print("| configuration | setting | reference it/s | fast it/s | ratio |")
        print("| --- | --- | ---: | ---: | ---: |")
    for config in args.configs.split(","):
        for setting in args.settings.split(","):
            row = rates(config, setting, args.seconds)
            rows.append(row)
            if not args.json:
                print(f"| {config} | {setting} | {row['reference']:,} | {row['fast']:,} | {row['ratio']:.1f}x |",
                      flush=True)
    if args.json:
        print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
