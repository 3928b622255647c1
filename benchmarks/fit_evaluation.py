"""Fit a game's cut-off evaluation to self-play games and write its weights (``games/<g>/fitted_weights.py``).

Self-play: the heuristic in every seat, each move replaced by a random legal one with chance
``--epsilon`` (variety), games seeded ``seed, seed + 1, ...``. At the start of every stage
the fitted evaluation distinguishes (Alarún: each round's action phase, the states where
search cuts its playouts at the end of the previous round, and each placement phase) the
state's per-seat features (:mod:`nemeton.agents.fitted`, the very functions the search
calls), the heuristic's ``evaluate`` and, once the game ends, its ``returns()`` are recorded.

Model: per stage, a seat's score is a weight vector times its features and the seats' shares
are the softmax of the scores; fitted by Newton's method on the cross-entropy against the
final shares (a small ridge). The last ``--test`` fraction of the games (whole games: their
states are correlated) is held out: log-loss and accuracy (the sole winner is the seat with
the largest share) of the fit on the training games against the heuristic's ``evaluate`` on
the same held-out states. The weights written are then refitted on all games.

    python benchmarks/fit_evaluation.py alarun 2 --games 6000
"""

from __future__ import annotations

import argparse
import os
import pprint
import random
import time
from pathlib import Path

import numpy as np
from rich.progress import Progress

import nemeton
from nemeton.agents.base import get_heuristic
from nemeton.agents.fitted import shares
from nemeton.engine import get_game, list_games

GAMES = [spec.name for spec in list_games() if spec.fitted is not None]  # the games with a fitted model


def model_of(game: str):
    """The game's FittedModel (its feature functions, stages and the weights file)."""
    return get_game(game).fitted()
RIDGE = 1.0


def self_play(game: str, players: int, seed: int, epsilon: float):
    """One epsilon-heuristic game: (stages, features, heuristic values) at each stage's start
    and the final returns."""
    model = model_of(game)
    features, stage_of = model.features, model.stage
    heuristic = get_heuristic(game)
    state = nemeton.make(game, players=players, seed=seed)
    rng = random.Random(seed)
    stages, xs, hs = [], [], []
    last = None
    while not state.is_terminal():
        stage = stage_of(state)
        if stage != last:
            stages.append(stage)
            xs.append(features(state))
            hs.append(heuristic.evaluate(state))
            last = stage
        p = state.current_player
        legal = state._legal_actions(p)
        action = rng.choice(legal) if rng.random() < epsilon else heuristic.choose_in_state(state, p, legal, rng)
        state.apply_unchecked(action, p)
    return stages, xs, hs, state.returns()


def collect(game: str, players: int, games: int, seed: int, epsilon: float):
    """Arrays over every recorded state: game index, stage, features (states x seats x
    features), heuristic values and final returns (states x seats)."""
    gid, stages, xs, hs, ys = [], [], [], [], []
    with Progress() as progress:
        task = progress.add_task(f"{game} {players}p self-play", total=games)
        for g in range(games):
            st, x, h, ret = self_play(game, players, seed + g, epsilon)
            gid += [g] * len(st)
            stages += st
            xs += x
            hs += h
            ys += [ret] * len(st)
            progress.advance(task)
    return (np.array(gid), np.array(stages), np.array(xs, dtype=float), np.array(hs, dtype=float),
            np.array(ys, dtype=float))


def softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def fit_stage(x: np.ndarray, y: np.ndarray, steps: int = 30) -> np.ndarray:
    """Weights minimising the cross-entropy of softmax(x @ w) over seats against y (Newton)."""
    f = x.shape[2]
    w = np.zeros(f)
    for _ in range(steps):
        p = softmax(x @ w)
        grad = np.einsum("is,isf->f", p - y, x) + RIDGE * w
        m = np.einsum("is,isf->if", p, x)
        hess = np.einsum("is,isf,isg->fg", p, x, x) - m.T @ m + RIDGE * np.eye(f)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


def fit(stages: np.ndarray, x: np.ndarray, y: np.ndarray, n_stages: int) -> np.ndarray:
    table = np.zeros((n_stages, x.shape[2]))
    for s in range(n_stages):
        rows = stages == s
        if rows.any():
            table[s] = fit_stage(x[rows], y[rows])
    return table


def predict(table: np.ndarray, stages: np.ndarray, x: np.ndarray) -> np.ndarray:
    return softmax(np.einsum("isf,if->is", x, table[stages]))


def scores(p: np.ndarray, y: np.ndarray) -> tuple[float, float, int]:
    """(log-loss, accuracy on states with a sole winner, how many of those)."""
    loss = float(-(y * np.log(np.clip(p, 1e-12, 1))).sum(axis=1).mean())
    sole = y.max(axis=1) == 1.0
    accuracy = float((p[sole].argmax(axis=1) == y[sole].argmax(axis=1)).mean())
    return loss, accuracy, int(sole.sum())


def write_weights(game: str, players: int, names, table: np.ndarray, info: dict) -> Path:
    """Update the game's generated weights module with this player count's model, keeping the others."""
    module = Path(model_of(game).weights_file)
    weights: dict = {}
    if module.exists():
        scope: dict = {}
        exec(module.read_text(), scope)
        weights = scope["WEIGHTS"]
    weights[players] = {
        "features": list(names), **info,
        "weights": [[float(f"{v:.6g}") for v in row] for row in table],
    }
    title = get_game(game).title
    text = (f'"""{title}\'s fitted cut-off evaluation weights (generated by benchmarks/fit_evaluation.py: do not edit).\n\n'
            "WEIGHTS[players]: the feature names (.fitted), how the data was made and one weight row per\n"
            'stage of the game."""\n\n'
            f"WEIGHTS = {pprint.pformat(weights, width=110, sort_dicts=False)}\n")
    partial = module.with_suffix(".py.partial")
    partial.write_text(text)
    os.replace(partial, module)  # a process importing it meanwhile reads the old or the new, whole
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("players", type=int)
    parser.add_argument("--games", type=int, default=6000)
    parser.add_argument("--seed", type=int, default=1_000_000)
    parser.add_argument("--epsilon", type=float, default=0.05)
    parser.add_argument("--test", type=float, default=0.2, help="fraction of the games held out")
    parser.add_argument("--dry-run", action="store_true", help="print the figures, write nothing")
    args = parser.parse_args()
    model = model_of(args.game)
    names, n_stages = model.feature_names, model.stages
    print(f"# {args.game} {args.players}p: {args.games} self-play games (heuristic, epsilon {args.epsilon}), "
          f"seed {args.seed}; load average {os.getloadavg()}", flush=True)
    started = time.perf_counter()
    gid, stages, x, h, y = collect(args.game, args.players, args.games, args.seed, args.epsilon)
    print(f"{len(stages)} states in {time.perf_counter() - started:.0f} s")
    train = gid < round(args.games * (1 - args.test))
    test = ~train
    table = fit(stages[train], x[train], y[train], n_stages)
    print(f"\nheld out: {test.sum()} states of {args.games - round(args.games * (1 - args.test))} games\n")
    print("| stage | states | log-loss fitted | log-loss heuristic | accuracy fitted | accuracy heuristic |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for s in [*range(n_stages), None]:
        rows = test if s is None else test & (stages == s)
        if not rows.any():
            continue
        lf, af, k = scores(predict(table, stages[rows], x[rows]), y[rows])
        lh, ah, _ = scores(h[rows], y[rows])
        label = "all" if s is None else str(s)
        print(f"| {label} | {rows.sum()} | {lf:.4f} | {lh:.4f} | {af:.1%} | {ah:.1%} |")
    final = fit(stages, x, y, n_stages)
    print(f"\nweights (all {args.games} games), features {', '.join(names)}:")
    for s, row in enumerate(final):
        print(f"  stage {s:2d}: " + "  ".join(f"{v:+.4f}" for v in row))
    check = shares(list(x[0] @ final[stages[0]]))
    assert np.allclose(check, predict(final, stages[:1], x[:1])[0])
    if not args.dry_run:
        info = {"games": args.games, "states": int(len(stages)), "seed": args.seed, "epsilon": args.epsilon}
        written = write_weights(args.game, args.players, names, final, info)
        print(f"written: {written}")
        cost(args.game, args.players, args.seed)


def cost(game: str, players: int, seed: int, games: int = 20) -> None:
    """Microseconds per call of the fitted evaluation (as the search calls it) and of the
    heuristic's, on the stage starts of a few self-play games."""
    from nemeton.agents.fitted import fitted_evaluation
    heuristic = get_heuristic(game)
    fitted = fitted_evaluation(game)
    states = []
    for g in range(games):
        state = nemeton.make(game, players=players, seed=seed - 1 - g)
        rng = random.Random(g)
        while not state.is_terminal():
            p = state.current_player
            state.apply_unchecked(heuristic.choose_in_state(state, p, state._legal_actions(p), rng), p)
            states.append(state.clone())
    for label, evaluate in (("fitted", fitted), ("heuristic", heuristic.evaluate)):
        started = time.perf_counter()
        for state in states:
            evaluate(state)
        print(f"{label} evaluate: {1e6 * (time.perf_counter() - started) / len(states):.1f} us a call "
              f"({len(states)} states)")


if __name__ == "__main__":
    main()
