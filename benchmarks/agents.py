"""Agent speed and strength.

Speed: ISMCTS iterations per second on one core from the first decision of a game, with full
random rollouts and with rollouts cut off at the end of the round (heuristic evaluation),
and the peak memory (tracemalloc) of one decision at a time budget.

Strength: head-to-head pairings with seats rotated (one focal agent, the other seats all
the opponent): the focal agent's share of wins with a 95% confidence interval, against the
fair share 1/N.

    python benchmarks/agents.py speed [--game alarun --players 3 --seconds 2]
    python benchmarks/agents.py strength [--game alarun --players 2 --games 200 --workers 2
                                          --pairing heuristic/random --pairing ismcts:seconds=1/heuristic]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
import tracemalloc

from nemeton.agents.base import make_agent
from nemeton.arena.pairing import head_to_head
from nemeton.engine import get_game, list_games


def first_decision(game: str, players: int, seed: int = 0, options: dict | None = None):
    spec = get_game(game)
    state = spec.make(seed=seed, **{**spec.bot_defaults, **(options or {}), "players": players})
    seat = state.current_player
    return spec, state, seat


def ismcts_speed(game: str, players: int, seconds: float, agent: str, options: dict | None = None) -> dict:
    spec, state, seat = first_decision(game, players, options=options)
    ag = make_agent(f"{agent}:seconds={seconds}", spec, seat, seed=1)
    view = state.view(seat)
    start = time.perf_counter()
    ag.search(view)
    elapsed = time.perf_counter() - start
    return {"game": game, "players": players, "agent": agent, "iterations": ag.last_iterations,
            "iterations_per_second": round(ag.last_iterations / elapsed, 1)}


def ismcts_memory(game: str, players: int, iterations: int, agent: str = "ismcts", options: dict | None = None) -> dict:
    """Peak memory of one decision of ``iterations`` iterations (pass the number a 1 s
    decision makes without tracing: tracemalloc itself slows search several-fold)."""
    spec, state, seat = first_decision(game, players, options=options)
    ag = make_agent(f"{agent}:iterations={iterations}", spec, seat, seed=1)
    view = state.view(seat)
    tracemalloc.start()
    root = ag.search(view)
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del root
    return {"game": game, "players": players, "agent": agent, "memory_for_iterations": iterations, "peak_mib": round(peak / 2**20, 2),
            "tree_mib_after": round(current / 2**20, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("section", choices=["speed", "strength"])
    parser.add_argument("--game", action="append")
    parser.add_argument("--players", type=int, action="append")
    parser.add_argument("--option", action="append", default=[], help="game option key=value")
    parser.add_argument("--seconds", type=float, default=2.0, help="speed: time per measured decision")
    parser.add_argument("--games", type=int, default=200, help="strength: games per pairing")
    parser.add_argument("--workers", type=int, default=1, help="strength: local processes")
    parser.add_argument("--pairing", action="append", help="FOCAL/OTHERS agent specs")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    options = dict(o.split("=", 1) for o in args.option)
    print(f"# {platform.machine()}, Python {platform.python_version()}", file=sys.stderr)
    games = args.game or [s.name for s in list_games()]
    for game in games:
        spec = get_game(game)
        for players in args.players or list(spec.player_counts):
            if args.section == "speed":
                most = (0.0, "ismcts")
                # spelled out: plain ``ismcts`` takes per-game defaults
                for agent in ("ismcts:rollout=random:cutoff=none:prior=none",
                              "ismcts:rollout=random:cutoff=round:prior=none",
                              "ismcts:rollout=heuristic:cutoff=round:prior=none"):
                    row = ismcts_speed(game, players, args.seconds, agent, options)
                    most = max(most, (row["iterations_per_second"], agent))
                    print(json.dumps(row), flush=True)
                # the tree a 1 s decision builds with the fastest variant (the most nodes)
                print(json.dumps(ismcts_memory(game, players, int(most[0]), most[1], options)), flush=True)
            else:
                for pairing in args.pairing or ["heuristic/random"]:
                    focal, others = pairing.split("/")
                    started = time.perf_counter()
                    res = head_to_head(game, players, focal, others, args.games, args.seed, options, args.workers)
                    out = res.to_json()
                    out["options"] = options
                    out["wall_seconds"] = round(time.perf_counter() - started, 1)
                    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
