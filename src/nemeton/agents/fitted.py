"""Cut-off evaluations fitted to self-play games (``ismcts:evaluation=fitted``).

A fitted evaluation scores a state where search stops a playout (the end of a round, or a
new leaf with ``cutoff=leaf``) like the heuristic's ``evaluate``: each seat's share of the
win, the shares summing to 1. Each seat gets a linear score over features of its position,
with one weight vector per *stage* of the game (the round and its phase), and the shares are
the softmax of the scores over the seats (a multinomial logit of who wins). The weights were
fitted by ``benchmarks/fit_evaluation.py`` to the final returns of heuristic self-play games
and are stored, as plain numbers, in :mod:`nemeton.agents.fitted_weights` (generated).

The feature functions live here and only here: the fit script imports them, so the model is
fitted on exactly the numbers it is applied to. Pure Python (no NumPy at run time: agents run
without the ``rl`` extra), called once per search iteration.

Alarún's features (per seat, from its own square, hand and secret colour; the quick reading
of the heuristic's ``evaluate``):

- ``potions``: the potion points of the square now (the druid at its best);
- ``bonuses``: the Centum auri's 10 and 2 per card of the secret colour placed;
- ``hand``: the quick value of the hand still to be placed (the heuristic's card values);
- ``openings``: the sum over the square's open cells of the points the strongest stretch
  beside each would gain by one more card (what the square can still grow into);
- ``starts``: 1 for the seat that starts the next action phase (0 otherwise).

The heuristic's own estimate is ``potions + bonuses + hand`` over a temperature; the fit may
weigh the parts apart, add the other two and calibrate each stage.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Sequence

from ..engine import State
from ..games.alarun.rules import ACTIONS, PLACEMENT
from .base import AgentSpecError
from .heuristics.alarun import HEURISTIC as ALARUN_HEURISTIC, SquareReader, bonuses

Features = Callable[[State], list[list[float]]]
Stage = Callable[[State], int]


# ----- Alarún -----------------------------------------------------------------------------
ALARUN_FEATURES = ("potions", "bonuses", "hand", "openings", "starts")
ALARUN_STAGES = 16  # (round 1-8) x (action phase, placement phase)


def alarun_stage(state: State) -> int:
    """0-15: 2 * (round - 1), plus 1 in the placement phase."""
    return 2 * (state.round_no - 1) + (state.phase == PLACEMENT)


def alarun_features(state: State) -> list[list[float]]:
    """Each seat's features (``ALARUN_FEATURES``) in a non-terminal state."""
    n = state.n
    weights = ALARUN_HEURISTIC.weights
    in_round = state.phase in (ACTIONS, PLACEMENT)
    starter = state.start_player if state.phase == ACTIONS else state.first_passer
    out = []
    for s in range(n):
        square = state.squares[s]
        secret = state.secret[s]
        reader = SquareReader(square, weights, exact_druid=False)
        hand = reader.hand_value(state.hands[s], secret) if in_round else 0.0
        arms = reader.arms
        openings = 0
        for cell in reader.open_cells:
            lines = (arms.get(cell) or reader.arms_of(cell))[0]
            w0 = lines[0][3]
            w1 = lines[1][3]
            openings += w0 if w0 > w1 else w1
        out.append([float(reader.potions()), float(bonuses(square, secret)), hand, float(openings),
                    1.0 if s == starter else 0.0])
    return out


# name -> (feature names, features, stage, number of stages)
GAMES: dict[str, tuple[tuple[str, ...], Features, Stage, int]] = {
    "alarun": (ALARUN_FEATURES, alarun_features, alarun_stage, ALARUN_STAGES),
}


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
    name = getattr(game, "name", game)
    try:
        from .fitted_weights import WEIGHTS
    except ImportError:  # the generated module is missing: nothing fitted yet
        WEIGHTS = {}
    models = WEIGHTS.get(name)
    if name not in GAMES or not models:
        fitted = ", ".join(sorted(WEIGHTS)) or "none"
        raise AgentSpecError(f"ismcts: no fitted evaluation for {name!r} (fitted games: {fitted}); "
                             f"use evaluation=heuristic")
    names, features, stage, _ = GAMES[name]
    tables: dict[int, list[list[float]]] = {}
    for players, model in models.items():
        if tuple(model["features"]) != names:
            raise AgentSpecError(f"ismcts: the fitted weights of {name!r} ({players} players) are for features "
                                 f"{model['features']}, not {names}; run benchmarks/fit_evaluation.py again")
        tables[players] = model["weights"]

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
