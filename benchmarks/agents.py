"""Agent speed and strength.

Speed: ISMCTS iterations per second on one core from the first decision of a game, with full
random rollouts and with rollouts cut off at the end of the round (heuristic evaluation),
and the peak memory (tracemalloc) of one decision at a time budget.

Strength: head-to-head pairings with seats rotated (one focal agent, the other seats all
the opponent): the focal agent's share of wins with a 95% confidence interval, against the
fair share 1/N.

    python benchmarks/agents.py speed [--game alarun --players 3 --seconds 2]
    python benchmarks/agents.py strength [--game alarun --players 2 --games 200 --workers 2
                                          --pairing heuristic/random --pairing ismcts:seconds=1/heuristic
                                          --out benchmarks/results/strength.jsonl]
    python benchmarks/agents.py table benchmarks/results/strength.jsonl

With ``--out``, every finished game is appended to the JSON-lines file at once and games
already stored for the same pairing (game, players, options, agents, seed) are skipped, so a
long table can be played over several sessions (or machines) and interrupted at any time.
``table`` prints the markdown table of a results file.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
import tracemalloc

from nemeton.agents.base import make_agent
from nemeton.arena.pairing import PairingGame, head_to_head
from nemeton.arena.stats import mean_interval, share_interval
from nemeton.engine import get_game, list_games


def pairing_key(game: str, players: int, options: dict, focal: str, others: str, seed: int) -> dict:
    """What identifies a pairing's games in a results file. The agents' resolved settings are
    part of it, so a changed default never mixes with games played before the change."""
    spec = get_game(game)
    return {"game": game, "players": players, "options": dict(sorted(options.items())),
            "focal": focal, "others": others, "seed": seed,
            "settings": [make_agent(focal, spec, 0, 0).settings(), make_agent(others, spec, 0, 0).settings()]}


def load_results(path: str) -> list[dict]:
    if not os.path.exists(path):
        return []
    rows = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            line = line.strip()
            if line:
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError:  # a line cut short by an interrupted run
                    continue
    return rows


def end_line(path: str) -> None:
    """Close a last line an interrupted run cut short, so the next game starts a line."""
    if os.path.exists(path) and os.path.getsize(path):
        with open(path, "rb") as fh:
            fh.seek(-1, os.SEEK_END)
            cut = fh.read(1) != b"\n"
        if cut:
            with open(path, "ab") as fh:
                fh.write(b"\n")


def table(path: str) -> str:
    """The markdown strength table of a results file, one row per pairing."""
    groups: dict[str, list[dict]] = {}
    for row in load_results(path):
        if "pairing" in row and "index" in row:
            groups.setdefault(json.dumps(row["pairing"], sort_keys=True), []).append(row)
    lines = ["| game | players | options | focal | others | games | focal share [95% CI] | fair share "
             "| margin [95% CI] | focal s/decision |",
             "| --- | ---: | --- | --- | --- | ---: | --- | ---: | ---: | ---: |"]
    def order(item):
        p = item[1][0]["pairing"]
        return (p["game"], p["players"], len(p["options"]), json.dumps(p["options"], sort_keys=True),
                p["others"], p["focal"])
    for _, rows in sorted(groups.items(), key=order):
        p = rows[0]["pairing"]
        by_index = {r["index"]: r for r in rows}  # a game stored twice counts once
        games = list(by_index.values())
        share = share_interval([g["focal_return"] for g in games])
        margin = mean_interval([g["margin"] for g in games])
        decisions = sum(g["focal_decisions"] for g in games)
        per = sum(g["focal_seconds"] for g in games) / decisions if decisions else 0.0
        opts = ", ".join(f"{k}={v}" for k, v in p["options"].items()) or "—"
        fair = 1 / rows[0]["teams"]
        lines.append(f"| {get_game(p['game']).title} | {p['players']} | {opts} | `{p['focal']}` | `{p['others']}` "
                     f"| {len(games)} | {share.mean:.1%} [{share.low:.1%}, {share.high:.1%}] | {fair:.0%} "
                     f"| {margin.mean:+.1f} [{margin.low:+.1f}, {margin.high:+.1f}] | {per:.3f} |")
    return "\n".join(lines)


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


def canonical_options(game: str, players: int, options: dict) -> dict:
    """The options that differ from the game's bot defaults, typed (``teams=true`` → True)."""
    spec = get_game(game)
    base = spec.options(**{**spec.bot_defaults, "players": players}).to_json()
    full = spec.options(**{**spec.bot_defaults, **options, "players": players}).to_json()
    return {k: v for k, v in full.items() if k != "players" and v != base[k]}


def run_pairing(game: str, players: int, options: dict, focal: str, others: str, games: int, seed: int,
                workers: int, out: str | None) -> dict:
    """Play a pairing up to ``games`` games; with ``out``, store each game and skip stored ones."""
    spec = get_game(game)
    options = canonical_options(game, players, options)
    started = time.perf_counter()
    key = pairing_key(game, players, options, focal, others, seed)
    skip: set[int] = set()
    store = None
    if out:
        skip = {r["index"] for r in load_results(out) if r["pairing"] == key}
        os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
        end_line(out)
        probe = spec.make(seed=0, **{**spec.bot_defaults, **options, "players": players})
        teams = len({probe.team_of(s) for s in range(players)})

        def store(g: PairingGame) -> None:
            with open(out, "a", encoding="utf-8") as fh:
                fh.write(json.dumps({"pairing": key, "teams": teams, **g.to_json()}) + "\n")
    total = games - len([i for i in skip if i < games])
    label = f"{game} {players}p{' ' + str(options) if options else ''} {focal}/{others}"
    print(f"# {label}: {total} games to play", file=sys.stderr, flush=True)

    def progress(k: int) -> None:
        if k % 10 == 0 or k == total:
            print(f"#   {k}/{total} games, {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    res = head_to_head(game, players, focal, others, games, seed, options, workers,
                       progress=progress, skip=skip, on_game=store)
    if out:  # the whole pairing so far, not only this run's games
        stored = {r["index"]: PairingGame(**{k: v for k, v in r.items() if k not in ("pairing", "teams")})
                  for r in load_results(out) if r["pairing"] == key and r["index"] < games}
        res.games = [stored[i] for i in sorted(stored)]
    row = res.to_json()
    row["options"] = options
    row["wall_seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(row), flush=True)
    return row


# Every game, player count and team mode, and the pairings the agents issue asks for, in
# the order a first pass plays them (``--preset issue``).
PRESET_CONFIGS = [("alarun", 2, {}), ("alarun", 3, {}), ("alarun", 4, {}),
                  ("amarok", 3, {}), ("amarok", 4, {}), ("amarok", 5, {}), ("amarok", 6, {}),
                  ("amarok", 4, {"teams": True}), ("amarok", 6, {"teams": True}),
                  ("edora", 2, {}), ("edora", 3, {}), ("edora", 4, {})]
PRESET_PAIRINGS = ["heuristic/random", "ismcts:seconds=1/heuristic", "ismcts:iterations=200/random",
                   "ismcts:iterations=200/heuristic", "ismcts:seconds=1/random"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("section", choices=["speed", "strength", "table"])
    parser.add_argument("results", nargs="?", help="table: the results file")
    parser.add_argument("--game", action="append")
    parser.add_argument("--players", type=int, action="append")
    parser.add_argument("--option", action="append", default=[], help="game option key=value")
    parser.add_argument("--seconds", type=float, default=2.0, help="speed: time per measured decision")
    parser.add_argument("--games", type=int, default=200, help="strength: games per pairing")
    parser.add_argument("--workers", type=int, default=1, help="strength: local processes")
    parser.add_argument("--pairing", action="append", help="FOCAL/OTHERS agent specs")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", help="strength: append each game to this JSON-lines file, skip games stored there")
    parser.add_argument("--preset", choices=["issue"], help="strength: every game, player count and team mode "
                        "with the issue's pairings (or those given by --pairing), in passes of --step games")
    parser.add_argument("--step", type=int, default=50, help="strength --preset: games added per pass")
    args = parser.parse_args()
    for pairing in args.pairing or []:
        if pairing.count("/") != 1 or not all(pairing.split("/")):
            parser.error(f"--pairing takes FOCAL/OTHERS (two agent specs), got {pairing!r}")
    if args.preset and args.section != "strength":
        parser.error("--preset goes with strength")
    if args.preset and not args.out:
        parser.error("--preset needs --out: each pass adds to the games stored there")
    if args.step < 1 or args.games < 1:
        parser.error("--games and --step must be at least 1")
    if args.results and args.section != "table":
        parser.error(f"{args.section} takes no results file (use --out)")
    if args.preset:
        pairings = args.pairing or PRESET_PAIRINGS
        for target in range(min(args.step, args.games), args.games + args.step, args.step):
            target = min(target, args.games)
            for pairing in pairings:
                focal, others = pairing.split("/")
                for game, players, opts in PRESET_CONFIGS:
                    if (args.game and game not in args.game) or (args.players and players not in args.players):
                        continue
                    run_pairing(game, players, opts, focal, others, target, args.seed, args.workers, args.out)
            if target == args.games:
                break
        return
    if args.section == "table":
        if not args.results:
            parser.error("table: give the results file")
        if not os.path.exists(args.results):
            parser.error(f"table: no such results file: {args.results}")
        print(table(args.results))
        return
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
                    run_pairing(game, players, options, focal, others, args.games, args.seed, args.workers, args.out)


if __name__ == "__main__":
    main()
