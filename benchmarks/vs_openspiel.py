"""Our ISMCTS against OpenSpiel's, on the same games, at the same time per move.

For each game (default: Alarún 3 players, Amarok 4 players, Edora 2 players, with the
games' bot defaults), in one run:

- ours: ``nemeton.agents.ismcts`` with full random rollouts
  (``ismcts:seconds=S:rollout=random:cutoff=none:prior=none:c=0.7:widen=0``);
- OpenSpiel's: ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` with a random-rollout
  evaluator (one rollout to the end), the same ``c``, unlimited world samples, on our game
  through ``nemeton.interop.openspiel``: each decision builds an OpenSpiel state from a
  determinized sample of the seat's view, and the bot re-samples the hidden part through
  the adapter's ``resample_from_infostate`` every iteration. Its search loop is OpenSpiel's
  own, with a deadline added (OpenSpiel's bot counts simulations; we stop it at S seconds).
  OpenSpiel's C++ ``pyspiel.ISMCTSBot`` crashes on Python games (it cannot call a Python
  ``resample_from_infostate``), so the Python bot is the one that can play them.

Game ``i`` puts ours in seat ``i mod N`` and OpenSpiel's bot in every other seat, so seats
rotate. Reported: iterations per second of each (mean over the decisions with more than one
legal action), and ours' share of the wins (returns: 1 shared among the winners) with a
Wilson 95% interval against the fair share 1/N.

    nice -n 19 python benchmarks/vs_openspiel.py --games 100 --seconds 0.05 --out /tmp/vs.jsonl
    nice -n 19 python benchmarks/vs_openspiel.py --engine fast ...   # ours with kernel playouts

Every finished game is appended to ``--out`` (JSON lines) and a rerun skips the games
already there, so a run can be interrupted and resumed.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import time

import numpy as np
from rich.progress import Progress

from nemeton.agents.base import Agent, make_agent
from nemeton.arena.stats import share_interval
from nemeton.engine import get_game
from nemeton.interop.openspiel import NemetonState, load
from nemeton.table import Table
from open_spiel.python.algorithms import ismcts, mcts

GAMES = {"alarun": 3, "amarok": 4, "edora": 2}


class TimedISMCTSBot(ismcts.ISMCTSBot):
    """OpenSpiel's Python ISMCTS, its ``run_search`` loop unchanged but for a deadline."""

    def __init__(self, game, evaluator, uct_c, seconds, random_state):
        super().__init__(game, evaluator, uct_c, max_simulations=10**9, random_state=random_state)
        self.seconds = seconds
        self.last_iterations = 0

    def run_search(self, state):
        self.reset()
        legal_actions = state.legal_actions()
        if len(legal_actions) == 1:
            self.last_iterations = 0
            return [(legal_actions[0], 1.0)]
        self._root_node = self.create_new_node(state)
        root_key = self.get_state_key(state)
        deadline = time.perf_counter() + self.seconds
        done = 0
        while done < 2 or time.perf_counter() < deadline:  # its final policy needs 2 at least
            sampled = self.sample_root_state(state)
            assert root_key == self.get_state_key(sampled)
            self.run_simulation(sampled)
            done += 1
        self.last_iterations = done
        return self.get_final_policy(state, self._root_node)


class OpenSpielISMCTS(Agent):
    """OpenSpiel's ISMCTS as a Nemeton agent: it sees the seat's view only."""

    name = "openspiel-ismcts"

    def __init__(self, game, seat, rng, seconds: float, c: float, os_game):
        super().__init__(game, seat, rng)
        self.os_game = os_game
        state = np.random.RandomState(rng.getrandbits(32))
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=state)
        self.bot = TimedISMCTSBot(os_game, evaluator, c, seconds, state)

    def act(self, view, legal):
        if len(legal) == 1:
            self.bot.last_iterations = 0
            return legal[0]
        root = NemetonState(self.os_game, self.game.determinize(view, self.rng))
        return self.os_game.actions.actions[self.bot.step(root)]


class Timed:
    """Wraps an agent: records its iterations and seconds per decision among several actions."""

    def __init__(self, agent, counter):
        self.agent, self.counter = agent, counter
        self.needs_view, self.needs_log = agent.needs_view, getattr(agent, "needs_log", False)
        self.rates: list[float] = []

    def act(self, view, legal):
        start = time.perf_counter()
        action = self.agent.act(view, legal)
        seconds = time.perf_counter() - start
        iterations = self.counter(self.agent)
        if len(legal) > 1 and iterations:
            self.rates.append(iterations / seconds)
        return action

    def __str__(self):
        return str(self.agent)


def play(game: str, players: int, index: int, seconds: float, c: float, seed: int, engine: str = "reference") -> dict:
    spec = get_game(game)
    os_game = load(game, players=players)
    rng = random.Random(f"{seed}:{game}:{index}")
    focal = index % players
    seats = []
    for s in range(players):
        if s == focal:
            agent = make_agent(f"ismcts:seconds={seconds}:rollout=random:cutoff=none:prior=none:c={c}:widen=0"
                               f":engine={engine}", spec, s, rng.getrandbits(63))
            seats.append(Timed(agent, lambda a: a.last_iterations))
        else:
            agent = OpenSpielISMCTS(spec, s, random.Random(rng.getrandbits(63)), seconds, c, os_game)
            seats.append(Timed(agent, lambda a: a.bot.last_iterations))
    options = spec.options(players, **spec.bot_defaults)
    state = spec.new_state(options, rng.getrandbits(63))
    started = time.perf_counter()
    Table(state, seats, clock=None).run(record=False)
    ours = seats[focal].rates
    theirs = [r for s, a in enumerate(seats) if s != focal for r in a.rates]
    return {"game": game, "players": players, "index": index, "seconds": seconds, "c": c, "seed": seed, "engine": engine,
            "focal_seat": focal, "share": state.returns()[focal], "steps": len(state.history),
            "ours_rate": float(np.mean(ours)) if ours else None, "ours_decisions": len(ours),
            "openspiel_rate": float(np.mean(theirs)) if theirs else None, "openspiel_decisions": len(theirs),
            "wall_seconds": round(time.perf_counter() - started, 2)}


def summary(rows: list[dict]) -> None:
    print(f"\nMachine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}")
    print("| game | players | s/move | games | ours it/s | OpenSpiel it/s | ratio | ours' share [95%] | fair |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |")
    for game, players in GAMES.items():
        mine = [r for r in rows if r["game"] == game and r["players"] == players]
        if not mine:
            continue
        ours = np.mean([r["ours_rate"] for r in mine if r["ours_rate"]])
        theirs = np.mean([r["openspiel_rate"] for r in mine if r["openspiel_rate"]])
        share = share_interval([r["share"] for r in mine])
        print(f"| {get_game(game).title} | {players} | {mine[0]['seconds']} | {len(mine)} | {ours:,.0f} | "
              f"{theirs:,.0f} | {ours / theirs:.1f}x | {share} | {1 / players:.0%} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per game (seats rotate)")
    parser.add_argument("--seconds", type=float, default=0.05, help="time per move for both searches")
    parser.add_argument("--c", type=float, default=0.7, help="UCT exploration constant of both")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--engine", choices=["reference", "fast"], default="reference",
                        help="our search's playouts: the Python rules or the compiled kernel (ismcts:engine=fast)")
    parser.add_argument("--only", choices=sorted(GAMES), action="append", help="play only these games")
    parser.add_argument("--out", default=None, help="JSON-lines file: results appended, finished games skipped")
    args = parser.parse_args()
    rows: list[dict] = []
    if args.out and os.path.exists(args.out):
        with open(args.out) as fh:
            rows = [json.loads(line) for line in fh if line.strip()]
        rows = [r for r in rows if r["seconds"] == args.seconds and r["c"] == args.c and r["seed"] == args.seed
                and r.get("engine", "reference") == args.engine]
    todo = [(g, n, i) for g, n in GAMES.items() if not args.only or g in args.only for i in range(args.games)
            if not any(r["game"] == g and r["index"] == i for r in rows)]
    with Progress() as progress:
        task = progress.add_task("games", total=len(todo))
        for game, players, index in todo:
            row = play(game, players, index, args.seconds, args.c, args.seed, args.engine)
            rows.append(row)
            if args.out:
                with open(args.out, "a") as fh:
                    fh.write(json.dumps(row) + "\n")
            progress.advance(task)
    summary(rows)


if __name__ == "__main__":
    main()
