"""The agent-strength table, played by the arena: ISMCTS at a fixed iteration budget against
the heuristic and against random, for every game, player count and team mode.

Each pairing is an arena tournament with the ``focal`` line-up (ISMCTS in one seat, or every
seat of one team; the other agent everywhere else), duplicate deals (each deal replayed with
the focal side in every position) and sequential stopping: it stops once the anytime-valid
95% confidence sequence of the focal side's share lies wholly above or below the goal line
(65% in two-sided games, the fair share 1/N otherwise), or at 200 games.

    python benchmarks/strength.py calibrate [--seconds 1] [--budgets FILE]
    python benchmarks/strength.py run [--out DIR] [--passes 20,60,200] [--jobs 2] [--only random|heuristic]
    python benchmarks/strength.py table [--out DIR] [--scale 0.1]

    (each also takes --configs alarun-2p,amarok-4p-teams,... to play or show only those, and
    --extra ':rollout=heuristic' appended to every ISMCTS spec, budgets included)
    python benchmarks/strength.py calibration
    python benchmarks/strength.py compact [--out DIR]

``calibrate`` plays one game per configuration with ``ismcts:seconds=1`` against the
heuristic and records the iterations per second over all of its decisions; the budget of a
configuration is what one second buys (two significant digits), stored in ``--budgets``.
``run`` plays the pairings in passes (every undecided pairing up to 20 games, then 60, then
200), two pairings at a time (``--jobs``, one process each); every game is stored under
``--out`` at once, so the run can be stopped and resumed at any time and adds up to the same
games. ``table`` prints the markdown table of what is stored (the verdicts recomputed from
the stored games), ``calibration`` the budgets. ``--scale`` multiplies every budget (0.1: a
tenth of a second a decision), for a table that fits in less compute.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from nemeton.agents.base import make_agent
from nemeton.arena.stats import mean_interval, share_interval
from nemeton.arena.tournament import (TournamentConfig, TournamentError, load_tournament, run_tournament,
                                      sequential_decision)
from nemeton.engine import get_game
from nemeton.table import Table

HERE = Path(__file__).resolve().parent
BUDGETS = HERE / "results" / "arena-budgets.json"
OUT = HERE / "results" / "arena-strength"
SEED = 0
MAX_GAMES = 200
CONFIGS = [("alarun", 2, {}), ("alarun", 3, {}), ("alarun", 4, {}),
           ("amarok", 3, {}), ("amarok", 4, {}), ("amarok", 5, {}), ("amarok", 6, {}),
           ("amarok", 4, {"teams": True}), ("amarok", 6, {"teams": True}),
           ("edora", 2, {}), ("edora", 3, {}), ("edora", 4, {})]
OPPONENTS = ("random", "heuristic")


def config_name(game: str, players: int, options: dict) -> str:
    return f"{game}-{players}p" + "".join(f"-{k}" if v is True else f"-{k}={v}" for k, v in sorted(options.items()))


# ----- calibration ------------------------------------------------------------------------

def calibrate_one(game: str, players: int, options: dict, seconds: float, seed: int = 0, extra: str = "",
                  clock: str = "wall") -> dict:
    """Iterations per second of ``ismcts:seconds=S`` over every decision of one game against
    the heuristic (ISMCTS in seat 0). ``clock="cpu"``: per second of the process's CPU time
    (what an idle core would give, on a machine other work shares), else per second of wall
    time."""
    spec = get_game(game)
    state = spec.make(seed=seed, **{**spec.bot_defaults, **options, "players": players})
    focal = make_agent(f"ismcts:seconds={seconds}{extra}", spec, 0, 1)
    agents = [focal] + [make_agent("heuristic", spec, s, s + 1) for s in range(1, players)]
    if getattr(focal, "engine", "reference") == "fast":  # the kernel loaded before any search is timed
        focal._fast_playouts(state)  # (only its options are read)
    iterations, spent, cpu = [], [], []
    search = focal.search

    def timed(view):
        started, started_cpu = time.perf_counter(), time.process_time()
        root = search(view)
        spent.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
        iterations.append(focal.last_iterations)
        return root

    focal.search = timed
    Table(state, agents, clock=None).run(False)
    rate = sum(iterations) / sum(cpu if clock == "cpu" else spent)
    budget = int(float(f"{rate * seconds:.2g}"))
    return {"game": game, "players": players, "options": options, "decisions": len(spent),
            "iterations_per_second": round(rate), "clock": clock, "mean_seconds": round(sum(spent) / len(spent), 3),
            "mean_cpu_seconds": round(sum(cpu) / len(cpu), 3), "budget": budget}


def calibrate(args) -> None:
    rows = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        chosen = set(args.configs.split(",")) if args.configs else None
        futures = [pool.submit(calibrate_one, g, p, o, args.seconds, 0, args.extra, args.clock) for g, p, o in CONFIGS
                   if not chosen or config_name(g, p, o) in chosen]
        for future in futures:
            row = future.result()
            print(json.dumps(row), flush=True)
            rows.append(row)
    data = {"machine": machine(), "date": time.strftime("%Y-%m-%d"), "seconds": args.seconds,
            "method": f"one game per configuration, ismcts:seconds={args.seconds}{args.extra} (per-game defaults) in seat 0 "
                      f"against the heuristic, {args.jobs} games at a time; iterations per second "
                      f"({'of CPU time' if args.clock == 'cpu' else 'of wall time'}) over all its "
                      "decisions; budget = that rate times the seconds, two significant digits",
            "configs": rows}
    Path(args.budgets).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def machine() -> str:
    cpu = ""
    try:
        for line in open("/proc/cpuinfo", encoding="utf-8"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (f"{os.cpu_count()} cores, {cpu or platform.processor()}, {platform.machine()}, "
            f"Python {platform.python_version()}")


def budgets(path: str) -> dict[str, int]:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    return {config_name(r["game"], r["players"], r["options"]): r["budget"] for r in data["configs"]}


# ----- the pairings -----------------------------------------------------------------------

def pairings(budget_of: dict[str, int], only: str | None, scale: float = 1.0, configs: str | None = None,
             extra: str = "") -> list[dict]:
    chosen = set(configs.split(",")) if configs else None
    known = {config_name(*c) for c in CONFIGS}
    if chosen and chosen - known:
        raise TournamentError(f"unknown configuration(s) {', '.join(sorted(chosen - known))}; "
                              f"known: {', '.join(sorted(known))}")
    out = []
    for others in OPPONENTS:
        if only and others != only:
            continue
        for game, players, options in CONFIGS:
            name = config_name(game, players, options)
            if chosen and name not in chosen:
                continue
            iterations = max(1, round(budget_of[name] * scale))
            focal = f"ismcts:iterations={iterations}{extra}"
            config = TournamentConfig.build(game, players, [focal, others], SEED, options, lineup="focal")
            units = len(config.schedule().units)
            line = 0.65 if units == 2 else 1 / units
            out.append({"name": f"{name}-{focal.replace(':', '-').replace('=', '')}-vs-{others}",
                        "game": game, "players": players, "options": options, "focal": focal,
                        "others": others, "line": line, "units": units})
    return out


def play_pass(pairing: dict, games: int, out: str) -> dict:
    """Play one pairing up to ``games`` games (or until decided) in this process."""
    config = TournamentConfig.build(pairing["game"], pairing["players"], [pairing["focal"], pairing["others"]],
                                    SEED, pairing["options"], lineup="focal")
    t = run_tournament(config, games, workers=1, out=Path(out) / pairing["name"], until_decided=pairing["line"],
                       records=False)  # they replay from the seeds: the budgets are iteration counts
    return {"pairing": pairing["name"], "games": len(t.outcomes), "played": t.played,
            "seconds": round(t.seconds, 1), "decision": t.decision.to_json()}


def run(args) -> None:
    budget_of = budgets(args.budgets)
    todo = pairings(budget_of, args.only, args.scale, args.configs, args.extra)
    passes = [int(x) for x in args.passes.split(",")]
    print(f"# {machine()}; {len(todo)} pairings; passes {passes}", file=sys.stderr, flush=True)
    decided: set[str] = set()
    for target in passes:
        started = time.perf_counter()
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            futures = {pool.submit(play_pass, p, target, args.out): p for p in todo if p["name"] not in decided}
            for future in as_completed(futures):
                row = future.result()
                if row["decision"]["verdict"] is not None:
                    decided.add(row["pairing"])
                print(json.dumps({"pass": target, **row}), flush=True)
        print(f"# pass to {target} games: {time.perf_counter() - started:.0f} s; decided {len(decided)}/{len(todo)}",
              file=sys.stderr, flush=True)


# ----- the table --------------------------------------------------------------------------

def summarise(directory: Path, line: float) -> dict:
    t = load_tournament(directory)
    config = t.config
    spec = get_game(config.game)
    units = config.schedule().units
    # the stopping rule's verdict, recomputed from the stored games (the same as the run's)
    decision, used = sequential_decision(config, t.outcomes, line, MAX_GAMES)
    shares = [o.share(0) for o in used]
    margins = []
    decisions = 0
    for o in used:
        ours = [s for u in units for s in u if o.seats[u[0]] == 0]
        theirs = [s for s in range(config.players) if s not in ours]
        margins.append(max(o.scores[s] for s in ours) - max(o.scores[s] for s in theirs))
        decisions += sum(o.decisions[s] for s in ours)
    options = {k: v for k, v in config.options.items()
               if k != "players" and v != spec.options(**{**spec.bot_defaults, "players": config.players}).to_json()[k]}
    return {"game": spec.title, "players": config.players, "options": options, "focal": config.agents[0],
            "others": config.agents[1], "games": len(used), "share": share_interval(shares),
            "cs": decision.interval, "verdict": decision.verdict, "line": line,
            "fair": 1 / len(units), "margin": mean_interval(margins), "decisions": decisions,
            "stored": len(t.outcomes)}


def table(args) -> None:
    budget_of = budgets(args.budgets)
    rows = []
    for p in pairings(budget_of, None, args.scale, args.configs, args.extra):
        directory = Path(args.out) / p["name"]
        if (directory / "tournament.json").exists():
            rows.append(summarise(directory, p["line"]))
    print("| game | players | options | focal | others | games | focal share | 95% confidence sequence "
          "| goal line | verdict | margin [95% CI] |")
    print("| --- | ---: | --- | --- | --- | ---: | ---: | --- | ---: | --- | ---: |")
    for r in rows:
        opts = ", ".join(f"{k}={v}" for k, v in r["options"].items()) or "—"
        verdict = {"above": "**above**", "below": "below", None: "undecided"}[r["verdict"]]
        cs = r["cs"]
        m = r["margin"]
        print(f"| {r['game']} | {r['players']} | {opts} | `{r['focal']}` | `{r['others']}` | {r['games']} "
              f"| {r['share'].mean:.1%} | [{cs.low:.1%}, {cs.high:.1%}] | {r['line']:.0%} | {verdict} "
              f"| {m.mean:+.1f} [{m.low:+.1f}, {m.high:+.1f}] |")


def compact(args) -> None:
    """Drop the records from the stored games (they replay from the seeds: every budget is an
    iteration count, so a game is the same on any machine), to keep the results small."""
    from nemeton.arena.tournament import write_atomically
    dropped = 0
    for path in sorted(Path(args.out).glob("*/games/*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("record") is not None:
            data["record"] = None
            write_atomically(path, json.dumps(data))
            dropped += 1
    print(f"{dropped} records dropped", file=sys.stderr)


def calibration(args) -> None:
    """The calibration as a markdown table."""
    data = json.loads(Path(args.budgets).read_text(encoding="utf-8"))
    print(f"Calibrated {data['date']} on {data['machine']}: {data['method']}.\n")
    print("| game | players | options | decisions measured | iterations/s | budget (≈ 1 s) |")
    print("| --- | ---: | --- | ---: | ---: | ---: |")
    for r in data["configs"]:
        opts = ", ".join(f"{k}={v}" for k, v in r["options"].items()) or "—"
        print(f"| {get_game(r['game']).title} | {r['players']} | {opts} | {r['decisions']} "
              f"| {r['iterations_per_second']:,} | {r['budget']:,} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("section", choices=["calibrate", "run", "table", "calibration", "compact"])
    parser.add_argument("--budgets", default=str(BUDGETS), help="the calibrated iteration budgets (JSON)")
    parser.add_argument("--out", default=str(OUT), help="one tournament directory per pairing under it")
    parser.add_argument("--seconds", type=float, default=1.0, help="calibrate: the time budget to match")
    parser.add_argument("--clock", choices=["wall", "cpu"], default="wall",
                        help="calibrate: iterations per second of wall time, or of the process's CPU time "
                             "(on a machine other work shares)")
    parser.add_argument("--passes", default="20,60,200", help="run: games per pairing after each pass")
    parser.add_argument("--jobs", type=int, default=2, help="pairings played at once (one process each)")
    parser.add_argument("--only", choices=OPPONENTS, help="run: only the pairings against this opponent")
    parser.add_argument("--scale", type=float, default=1.0, help="budget multiplier (e.g. 0.1 for a quick table)")
    parser.add_argument("--configs", help="only these configurations, e.g. alarun-2p,edora-2p,amarok-4p-teams")
    parser.add_argument("--extra", default="", help="appended to every ISMCTS spec, e.g. ':rollout=heuristic'")
    args = parser.parse_args()
    try:
        {"calibrate": calibrate, "run": run, "table": table, "calibration": calibration,
         "compact": compact}[args.section](args)
    except TournamentError as exc:
        parser.error(str(exc))


if __name__ == "__main__":
    main()
