"""Cut-off evaluations fitted to self-play games (``ismcts:evaluation=fitted``).

A fitted evaluation scores a state where search stops a playout (the end of a round, or a
new leaf with ``cutoff=leaf``) like the heuristic's ``evaluate``: each seat's share of the
win, the shares summing to 1. Each seat gets a linear score over features of its position,
with one weight vector per *stage* of the game (the round and its phase), and the shares are
the softmax of the scores over the seats (a multinomial logit of who wins). The weights were
fitted by ``benchmarks/fit_evaluation.py`` to the final returns of heuristic self-play games
and are stored, as plain numbers, in the game's folder (Alarún: ``games/alarun/fitted_weights.py``,
generated). A game declares its model in its ``GameSpec`` (``fitted``: a
:class:`~nemeton.engine.heuristic.FittedModel` with the feature functions).

The feature functions live in the game's ``fitted.py`` and only there: the fit script imports
them, so the model is fitted on exactly the numbers it is applied to. Pure Python (no NumPy
at run time: agents run without the ``rl`` extra), called once per search iteration.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Sequence

from ..engine import GameSpec, State, get_game, list_games
from .base import AgentSpecError


def shares(scores: Sequence[float]) -> list[float]:
    """Softmax of the seats' scores: each seat's share of the win."""
    top = max(scores)
    e = [math.exp(z - top) for z in scores]
    total = sum(e)
    return [x / total for x in e]


def fitted_evaluation(game: Any) -> Callable[[State], list[float]]:
    """The fitted evaluation of ``game`` (a GameSpec or a game's name): a callable
    ``state -> [share of the win per seat]``. AgentSpecError where the game has no fitted
    model; a player count without one is refused at the first state of that count."""
    spec = game if isinstance(game, GameSpec) else get_game(game)
    name = spec.name
    model = spec.fitted() if spec.fitted is not None else None
    models = model.weights() if model is not None else None
    if model is None or not models:
        fitted = ", ".join(g.name for g in list_games() if g.fitted is not None) or "none"
        raise AgentSpecError(f"ismcts: no fitted evaluation for {name!r} (fitted games: {fitted}); "
                             f"use evaluation=heuristic")
    names, features, stage = model.feature_names, model.features, model.stage
    tables: dict[int, list[list[float]]] = {}
    for players, entry in models.items():
        if tuple(entry["features"]) != names:
            raise AgentSpecError(f"ismcts: the fitted weights of {name!r} ({players} players) are for features "
                                 f"{entry['features']}, not {names}; run benchmarks/fit_evaluation.py again")
        tables[players] = entry["weights"]

    def evaluate(state: State) -> list[float]:
        if state.is_terminal():
            return state.returns()
        players = state.options.players
        table = tables.get(players)
        if table is None:
            raise AgentSpecError(f"ismcts: no fitted evaluation for {name!r} with {players} players "
                                 f"(fitted: {', '.join(map(str, sorted(tables)))}); use evaluation=heuristic")
        w = table[stage(state)]
        return shares([sum(a * b for a, b in zip(w, f)) for f in features(state)])

    return evaluate
