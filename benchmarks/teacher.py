"""The teacher's budget: time to analyse a 60-decision game, and how stable the analysis is.

For each game a game the heuristic plays in every seat (the first 60 actions of its record,
seed 1) is analysed at the budget given (default: the teacher's, ``DEFAULT_ITERATIONS``):
wall time and CPU time (this process and its helper processes, the kernel's loading
included). Stability: the same record analysed with two seeds; the mean |difference| of
``before`` and of ``after`` (win chance, 0..1) over the decisions, and the share of decisions
given the same class (None included) by both runs, and of those flagged (inaccuracy or
worse) by either run, the share flagged by both.

    python benchmarks/teacher.py [--iterations N] [--workers W] [--games alarun:2,amarok:4,edora:2]

``--costly`` asks whether the moves the analysis marks are really costly: games between fallible
players (the heuristic and a 300-iteration ISMCTS mixed, seats rotated from game to game) in
each configuration of ``COSTLY_CONFIGS``, each analysed at the teacher's default budget; for
every decision classed inaccuracy, mistake or blunder, and for a sample of the unforced
unflagged ones (the baseline), a stronger agent (``--strong``, its seed fixed per decision)
chooses from the same seat's view. The figure: the share of those decisions where the stronger
agent would not have played the move played (Wilson 95% interval), per class and per game.
One JSON line per game is appended to ``--out``; a rerun skips the games already there, and
``--report`` prints the table from the file alone.

    python benchmarks/teacher.py --costly [--games-per-config N] [--strong SPEC] [--report]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import time
from pathlib import Path

from nemeton.agents.base import get_heuristic, make_agent
from nemeton.arena.match import game_seeds
from nemeton.arena.stats import wilson
from nemeton.engine import Action, GameRecord, get_game
from nemeton.table import Table
from nemeton.teacher.analysis import (
    DEFAULT_ITERATIONS,
    analyse_record,
    decision_seed,
    decisions_of,
)

DECISIONS = 60
# --costly: (label, game, players, options); games are played in this order, one of each in turn
COSTLY_CONFIGS = [("alarun-2p", "alarun", 2, {}), ("alarun-3p", "alarun", 3, {}), ("amarok-4p", "amarok", 4, {}),
                  ("amarok-4p-teams", "amarok", 4, {"teams": True}), ("edora-2p", "edora", 2, {})]
FALLIBLE = ("heuristic", "ismcts:iterations=300:engine=fast")
STRONG = "ismcts:iterations=20000:engine=fast"
COSTLY_OUT = Path(__file__).parent / "results" / "teacher" / "costly.jsonl"
COSTLY_MASTER_SEED = 28  # the number: game and agent seeds are drawn from it
BASELINE_MIN = 4  # unflagged unforced decisions asked per game: as many as the flagged ones, at least this
CLASSES = ("inaccuracy", "mistake", "blunder")


def heuristic_record(name: str, players: int, seed: int, actions: int) -> GameRecord:
    spec = get_game(name)
    heuristic = get_heuristic(name)
    rng = random.Random(seed)
    state = spec.make(players=players, seed=seed, **spec.bot_defaults)
    while not state.is_terminal() and len(state.history) < actions:
        seat = state.acting()[0]
        state.apply(heuristic.choose_in_state(state.clone(), seat, state.legal_actions(seat), rng), seat)
    return state.record()


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(record: GameRecord, iterations: int, seed: int, workers: int):
    wall, cpu = time.perf_counter(), cpu_seconds()
    analysis = analyse_record(record, iterations=iterations, seed=seed, workers=workers)
    return analysis.to_json(), time.perf_counter() - wall, cpu_seconds() - cpu


def stability(a: dict, b: dict) -> dict[str, float]:
    pairs = [(x, y) for x, y in zip(a["decisions"], b["decisions"]) if not x["forced"]]
    flagged = [(x, y) for x, y in pairs if x["class"] or y["class"]]
    return {"before": sum(abs(x["before"] - y["before"]) for x, y in pairs) / len(pairs),
            "after": sum(abs(x["after"] - y["after"]) for x, y in pairs) / len(pairs),
            "same class": sum(x["class"] == y["class"] for x, y in pairs) / len(pairs),
            "flagged by both": (sum(bool(x["class"]) and bool(y["class"]) for x, y in flagged) / len(flagged)
                                if flagged else float("nan")),
            "flagged": len(flagged), "judged": len(pairs)}


def seat_agents(players: int, game_index: int) -> list[str]:
    """The fallible players' seats in game ``game_index``: half the seats (rounded up) the
    heuristic, the rest the small search, as a block rotated by one seat a game (partners in
    Amarok's teams, seats k and k + 2, are always one of each)."""
    block = [FALLIBLE[0]] * ((players + 1) // 2) + [FALLIBLE[1]] * (players // 2)
    shift = game_index % players
    return block[-shift:] + block[:-shift] if shift else block


def strong_choice(spec, seat: int, view: dict, strong: str, index: int) -> Action:
    """The stronger agent's move from ``seat``'s view, its seed fixed by the decision's index."""
    agent = make_agent(strong, spec, seat, decision_seed(COSTLY_MASTER_SEED, index))
    return agent.act(view, spec.legal_actions_from_view(view))


def costly_game(label: str, name: str, players: int, options: dict, game_index: int, strong: str) -> dict:
    """One game of the --costly mode: played, analysed, its flagged and baseline decisions
    asked of the stronger agent; its JSON line."""
    spec = get_game(name)
    built = spec.options(**{**spec.bot_defaults, **options, "players": players})
    game_seed, agent_seeds = game_seeds(COSTLY_MASTER_SEED, game_index, players)
    specs = seat_agents(players, game_index)
    cpu, wall = cpu_seconds(), time.perf_counter()
    agents = [make_agent(a, spec, s, agent_seeds[s]) for s, a in enumerate(specs)]
    record = Table(spec.new_state(built, game_seed), agents, clock=None).run(True).record
    played_cpu = cpu_seconds() - cpu
    analysis = analyse_record(record).to_json()
    analysed_cpu = cpu_seconds() - cpu - played_cpu
    unforced = [d for d in analysis["decisions"] if not d["forced"]]
    flagged = [d for d in unforced if d["class"]]
    rest = [d for d in unforced if not d["class"]]
    rng = random.Random(f"nemeton-costly-baseline:{label}:{game_index}")
    baseline = rng.sample(rest, min(len(rest), max(BASELINE_MIN, len(flagged))))
    views = {index: view for index, _seat, view, _action in decisions_of(record)}
    asked = []
    for kind, d in [("flagged", d) for d in flagged] + [("baseline", d) for d in sorted(baseline, key=lambda d: d["index"])]:
        move = strong_choice(spec, d["seat"], views[d["index"]], strong, d["index"]).to_json()
        asked.append({"sample": kind, "index": d["index"], "seat": d["seat"], "agent": specs[d["seat"]],
                      "class": d["class"], "loss": d["loss"], "played": d["action"], "best": d["best"]["action"],
                      "strong": move, "strong_played": move == d["action"], "strong_best": move == d["best"]["action"]})
    return {"config": label, "game": name, "players": players, "options": options, "index": game_index,
            "seed": game_seed, "agents": specs, "strong": strong, "budget": analysis["budget"],
            "decisions": len(analysis["decisions"]), "unforced": len(unforced),
            "classes": {c: sum(d["class"] == c for d in unforced) for c in CLASSES},
            "asked": asked, "cpu": {"play": round(played_cpu, 1), "analyse": round(analysed_cpu, 1),
                                    "strong": round(cpu_seconds() - cpu - played_cpu - analysed_cpu, 1)},
            "wall": round(time.perf_counter() - wall, 1), "load": round(os.getloadavg()[0], 1),
            "date": time.strftime("%Y-%m-%d"), "record": record.to_json()}


def read_lines(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def costly_report(lines: list[dict]) -> None:
    """The share of asked decisions where the stronger agent would not have played the move,
    per class (all games) and per game (flagged, baseline)."""
    def share(rows: list[dict]) -> str:
        e = wilson(sum(not r["strong_played"] for r in rows), len(rows))
        return f"{e.mean:.0%} [{e.low:.0%}, {e.high:.0%}] (n={e.n})" if e.n else "-"

    asked = [dict(r, config=line["config"]) for line in lines for r in line["asked"]]
    cpu = sum(sum(line["cpu"].values()) for line in lines)
    print(f"# {len(lines)} games, {sum(line['unforced'] for line in lines)} unforced decisions, "
          f"{sum(r['sample'] == 'flagged' for r in asked)} flagged; CPU {cpu / 60:.1f} min; "
          f"strong agent {lines[0]['strong'] if lines else STRONG}")
    print("stronger agent would not have played it (share, Wilson 95%):")
    for c in CLASSES:
        print(f"  {c:<10} {share([r for r in asked if r['class'] == c])}")
    print(f"  {'flagged':<10} {share([r for r in asked if r['sample'] == 'flagged'])}")
    baseline = [r for r in asked if r["sample"] == "baseline"]
    print(f"  {'baseline':<10} {share(baseline)}")
    print(f"    of which the analysis's best move:       {share([r for r in baseline if r['played'] == r['best']])}")
    print(f"    of which not its best (loss under 0.05): {share([r for r in baseline if r['played'] != r['best']])}")
    flagged = [r for r in asked if r["sample"] == "flagged"]
    print(f"  stronger agent's move = the analysis's best move: flagged {sum(r['strong_best'] for r in flagged)}"
          f" of {len(flagged)}")
    for label, *_ in COSTLY_CONFIGS:
        mine = [line for line in lines if line["config"] == label]
        rows = [r for r in asked if r["config"] == label]
        print(f"{label}: {len(mine)} games, {sum(line['unforced'] for line in mine)} unforced; flagged "
              f"{share([r for r in rows if r['sample'] == 'flagged'])}, baseline "
              f"{share([r for r in rows if r['sample'] == 'baseline'])}; CPU "
              f"{sum(sum(line['cpu'].values()) for line in mine) / max(1, len(mine)):.0f} s a game")


def costly(games: int, strong: str, out: Path, report_only: bool) -> None:
    if not report_only:
        out.parent.mkdir(parents=True, exist_ok=True)
        done = {(line["config"], line["index"], line["strong"]) for line in read_lines(out)}
        print(f"# {platform.node()} {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
              f"load {os.getloadavg()[0]:.1f}, {time.strftime('%Y-%m-%d')}; players {' / '.join(FALLIBLE)}, "
              f"analysis {DEFAULT_ITERATIONS} iterations, strong {strong}", flush=True)
        for g in range(games):
            for label, name, players, options in COSTLY_CONFIGS:
                if (label, g, strong) in done:
                    continue
                line = costly_game(label, name, players, options, g, strong)
                with out.open("a") as f:
                    f.write(json.dumps(line, separators=(",", ":")) + "\n")
                print(f"{label} game {g}: {line['unforced']} unforced, {len(line['asked'])} asked, "
                      f"CPU {line['cpu']}, wall {line['wall']} s", flush=True)
    costly_report([line for line in read_lines(out) if line["strong"] == strong])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--games", default="alarun:2,amarok:4,edora:2")
    parser.add_argument("--costly", action="store_true", help="are the marked moves costly? (docstring)")
    parser.add_argument("--games-per-config", type=int, default=4)
    parser.add_argument("--strong", default=STRONG)
    parser.add_argument("--out", type=Path, default=COSTLY_OUT)
    parser.add_argument("--report", action="store_true", help="with --costly: the table from --out alone")
    args = parser.parse_args()
    if args.costly:
        costly(args.games_per_config, args.strong, args.out, args.report)
        return
    print(f"# {platform.node()} {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.1f}, {time.strftime('%Y-%m-%d')}; {args.iterations} iterations a decision, "
          f"{args.workers} worker(s)")
    for item in args.games.split(","):
        name, players = item.split(":")
        record = heuristic_record(name, int(players), 1, DECISIONS)
        first, wall, cpu = timed(record, args.iterations, 0, args.workers)
        second, wall2, cpu2 = timed(record, args.iterations, 1, args.workers)
        s = stability(first, second)
        print(f"{name} {players}p, {len(record.actions)} decisions ({s['judged']} unforced): "
              f"wall {wall:.1f} s / {wall2:.1f} s, CPU {cpu:.1f} s / {cpu2:.1f} s (seeds 0 / 1); "
              f"mean |d before| {s['before']:.3f}, |d after| {s['after']:.3f}, same class {s['same class']:.0%}, "
              f"of {s['flagged']} flagged by either, flagged by both {s['flagged by both']:.0%}", flush=True)


if __name__ == "__main__":
    main()
