"""The fitted cut-off evaluation (``ismcts:evaluation=fitted``): shares of the win, the same
features as the fit script, refusal where no model was fitted, and a search that uses it."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

import nemeton
from nemeton.games.alarun import fitted
from nemeton.agents.base import AgentSpecError, get_heuristic, make_agent
from nemeton.agents.fitted import fitted_evaluation
from nemeton.games.alarun import fitted_weights
from nemeton.games.alarun.fitted_weights import WEIGHTS
from nemeton.arena.match import simulate
from nemeton.engine import get_game

FIT_SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "fit_evaluation.py"


def _states(players: int, seed: int, every: int = 5):
    """States of an epsilon-heuristic game: every ``every``-th one, cut-off points included."""
    heuristic = get_heuristic("alarun")
    state = nemeton.make("alarun", players=players, seed=seed)
    rng = random.Random(seed)
    out = []
    step = 0
    while not state.is_terminal():
        last_round = state.round
        p = state.current_player
        legal = state._legal_actions(p)
        move = rng.choice(legal) if rng.random() < 0.2 else heuristic.choose_in_state(state, p, legal, rng)
        state.apply_unchecked(move, p)
        step += 1
        if step % every == 0 or state.round != last_round:
            out.append(state.clone())
    return out


def _fit_script():
    spec = importlib.util.spec_from_file_location("fit_evaluation", FIT_SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_fitted_evaluation_gives_every_seat_a_share_summing_to_one():
    evaluate = fitted_evaluation(get_game("alarun"))
    states = _states(2, seed=3)
    assert states[-1].is_terminal()
    for state in states:
        values = evaluate(state)
        assert len(values) == 2
        assert all(0.0 <= v <= 1.0 for v in values)
        assert sum(values) == pytest.approx(1.0)
    assert evaluate(states[-1]) == states[-1].returns()


def test_fitted_evaluation_is_deterministic_and_reads_the_state_only():
    evaluate = fitted_evaluation("alarun")
    for state in _states(2, seed=5, every=9):
        assert evaluate(state) == evaluate(state.clone()) == fitted_evaluation("alarun")(state)


def test_fitted_evaluation_favours_the_seat_far_ahead_late_in_the_game():
    evaluate = fitted_evaluation("alarun")
    late = [s for seed in (8, 9, 10) for s in _states(2, seed=seed, every=1)
            if not s.is_terminal() and s.round == 8]
    state = max(late, key=lambda s: abs(s.scores()[0] - s.scores()[1]))
    lead = state.scores()[0] - state.scores()[1]
    assert abs(lead) >= 10
    assert evaluate(state)[0 if lead > 0 else 1] > 0.8


def test_a_game_without_a_fitted_model_is_refused():
    assert "amarok" not in WEIGHTS
    with pytest.raises(AgentSpecError, match="no fitted evaluation for 'amarok'"):
        fitted_evaluation(get_game("amarok"))
    with pytest.raises(AgentSpecError, match="no fitted evaluation"):
        make_agent("ismcts:iterations=10:evaluation=fitted", get_game("amarok"), 0, seed=1)


def test_a_player_count_without_a_fitted_model_is_refused_at_its_first_state(monkeypatch):
    monkeypatch.setattr(fitted_weights, "WEIGHTS", {2: WEIGHTS[2]})
    evaluate = fitted_evaluation("alarun")
    assert sum(evaluate(nemeton.make("alarun", players=2, seed=1))) == pytest.approx(1.0)
    with pytest.raises(AgentSpecError, match="no fitted evaluation for 'alarun' with 3 players"):
        evaluate(nemeton.make("alarun", players=3, seed=1))


def test_weights_for_other_features_are_refused(monkeypatch):
    stale = {**WEIGHTS[2], "features": ["potions", "hand"]}
    monkeypatch.setattr(fitted_weights, "WEIGHTS", {2: stale})
    with pytest.raises(AgentSpecError, match="run benchmarks/fit_evaluation.py again"):
        fitted_evaluation("alarun")


def test_the_fit_script_uses_the_runtime_features_and_predicts_what_the_search_evaluates():
    script = _fit_script()
    assert script.GAMES == ["alarun"]
    assert script.model_of("alarun") is fitted.FITTED and fitted.FITTED.features is fitted.features
    np = pytest.importorskip("numpy")
    table = np.array(WEIGHTS[2]["weights"])
    evaluate = fitted_evaluation("alarun")
    states = [s for s in _states(2, seed=4, every=7) if not s.is_terminal()]
    x = np.array([fitted.features(s) for s in states])
    stages = np.array([fitted.stage(s) for s in states])
    predicted = script.predict(table, stages, x)
    for state, row in zip(states, predicted):
        assert evaluate(state) == pytest.approx(list(row), abs=1e-9)


def test_search_with_the_fitted_evaluation_beats_random():
    for seed, specs in ((11, ["ismcts:iterations=20:evaluation=fitted", "random"]),
                        (12, ["random", "ismcts:iterations=20:evaluation=fitted"])):
        focal = specs.index("random") ^ 1
        summary = simulate("alarun", 2, 1, seed, specs)
        assert summary.wins[focal] == 1, summary.mean_scores


def test_alarun_search_uses_the_fitted_evaluation_by_default_and_the_heuristics_on_request():
    plain = make_agent("ismcts:iterations=10", get_game("alarun"), 0, seed=1)
    assert plain.evaluation == "fitted" and str(plain) == "ismcts:iterations=10"
    asked = make_agent("ismcts:iterations=10:evaluation=heuristic", get_game("alarun"), 0, seed=1)
    assert asked._evaluate is None   # the heuristic's evaluate, read from agent.heuristic at each search
    assert str(asked) == "ismcts:iterations=10:evaluation=heuristic"
    state = nemeton.make("alarun", players=2, seed=2)
    assert plain._evaluate(state) == fitted_evaluation("alarun")(state)
