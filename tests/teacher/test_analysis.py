"""The analysis of a finished game: its JSON, reproducibility, and the moves it marks."""

from __future__ import annotations

import json
import random

import pytest

from configs import game_configs
from nemeton.agents.base import get_heuristic
from nemeton.engine import GameRecord, get_game
from nemeton.teacher import Analysis, analyse_record
from nemeton.teacher.analysis import DEFAULT_ITERATIONS, THRESHOLDS, classify, judge, move_accuracy

DECISION_KEYS = {"index", "seat", "action", "text", "forced", "before", "after", "loss", "class", "accuracy",
                 "best", "alternatives", "comment"}


def heuristic_record(name, cfg, seed, steps):
    """The first ``steps`` actions of a game the heuristic plays in every seat."""
    spec = get_game(name)
    heuristic = get_heuristic(name)
    rng = random.Random(seed)
    state = spec.make(seed=seed, **{**spec.bot_defaults, **cfg})
    for _ in range(steps):
        if state.is_terminal():
            break
        seat = state.acting()[-1]
        state.apply(heuristic.choose_in_state(state.clone(), seat, state.legal_actions(seat), rng), seat)
    return state.record()


@pytest.mark.parametrize("name,cfg", game_configs())
def test_the_analysis_has_the_documented_shape_in_every_game(name, cfg):
    record = heuristic_record(name, cfg, seed=5, steps=6)
    analysis = analyse_record(record, iterations=40, seed=1)
    data = json.loads(json.dumps(analysis.to_json()))
    assert data["format"] == "nemeton-analysis/1" and data["game"] == name
    assert data["players"] == record.replay().options.players
    assert data["budget"]["iterations"] == 40 and data["budget"]["seed"] == 1
    assert data["thresholds"] == THRESHOLDS
    assert [d["index"] for d in data["decisions"]] == list(range(len(record.actions)))
    for d, (seat, action) in zip(data["decisions"], record.actions):
        assert set(d) == DECISION_KEYS
        assert d["seat"] == seat and d["action"] == action.to_json() and d["text"] and d["comment"]
        assert 0 <= d["after"] <= 1 and 0 <= d["before"] <= 1
        assert d["loss"] == pytest.approx(max(0.0, d["before"] - d["after"]), abs=2e-4)
        assert d["class"] == (None if d["forced"] else classify(d["loss"]))
        assert 1 <= len(d["alternatives"]) <= 3 and d["best"]["action"] == d["alternatives"][0]["action"]
    for s in data["seats"]:
        own = [d for d in data["decisions"] if d["seat"] == s["seat"]]
        judged = [d["accuracy"] for d in own if not d["forced"]]
        assert s["decisions"] == len(own)
        assert s["accuracy"] == (round(sum(judged) / len(judged), 1) if judged else None)
        assert s["blunders"] == sum(d["class"] == "blunder" for d in own)
    teams = data["teams"]
    if cfg.get("teams"):
        assert teams is not None and sorted(sum(teams, [])) == list(range(data["players"]))
        assert all(s["team"] is not None and s["seat"] in teams[s["team"]] for s in data["seats"])
    else:
        assert teams is None and all(s["team"] is None for s in data["seats"])
    assert Analysis.from_json(data).to_json() == data


def test_the_same_seed_gives_the_same_analysis_and_workers_do_not_change_it():
    record = heuristic_record("amarok", {"players": 3}, seed=8, steps=7)
    one = analyse_record(record, iterations=60, seed=3).to_json()
    assert analyse_record(record, iterations=60, seed=3).to_json() == one
    seen = []
    two = analyse_record(record, iterations=60, seed=3, workers=2, progress=lambda d, t: seen.append((d, t)))
    assert two.to_json() == one
    assert seen == [(k, 7) for k in range(1, 8)]
    other = analyse_record(record, iterations=60, seed=4).to_json()
    assert [d["before"] for d in other["decisions"]] != [d["before"] for d in one["decisions"]]


def test_accuracy_is_lichess_formula_on_win_percent():
    assert move_accuracy(0.6, 0.6) == pytest.approx(100.0, abs=1e-3)
    assert move_accuracy(0.6, 0.7) == pytest.approx(100.0, abs=1e-3)  # better than the best: no loss
    assert move_accuracy(0.62, 0.44) == pytest.approx(103.1668 * 2.718281828 ** (-0.04354 * 18) - 3.1669)
    assert move_accuracy(1.0, 0.0) == 0.0
    assert [classify(x) for x in (0.0, 0.049, 0.05, 0.1, 0.149, 0.15, 0.9)] == [
        None, None, "inaccuracy", "mistake", "mistake", "blunder", "blunder"]


def test_a_forced_move_is_listed_but_not_judged():
    spec = get_game("amarok")
    for seed in range(1, 40):
        record = heuristic_record("amarok", {"players": 3}, seed=seed, steps=60)
        state = record.replay(upto=0)
        for index, (seat, action) in enumerate(record.actions):
            if len(state.legal_actions(seat)) == 1:
                d = judge("amarok", index, seat, state.view(seat), action, 40, 0)
                assert d["forced"] and d["class"] is None and d["accuracy"] is None and d["loss"] == 0
                assert d["before"] == d["after"] and "only legal move" in d["comment"]
                return
            state.apply(action, seat)
    pytest.skip(f"no forced move found in {spec.name}")


def heuristic_position(name, players, seed, steps):
    """The state after ``steps`` actions of the heuristic in every seat (the lowest acting
    seat acts first)."""
    spec = get_game(name)
    heuristic = get_heuristic(name)
    rng = random.Random(seed)
    state = spec.make(players=players, seed=seed, **spec.bot_defaults)
    for _ in range(steps):
        seat = state.acting()[0]
        state.apply(heuristic.choose_in_state(state.clone(), seat, state.legal_actions(seat), rng), seat)
    return state


# Positions where one move is clearly worse than another, pinned from heuristic games: in
# Alarún and Amarok by flat Monte Carlo with heuristic playouts to the end (40 per move from
# the seat's view: Amarok 49% against 0% win chance, Alarún 78% against 35%, a card placed on
# one cell rather than another), in Edora by a search of 3,000 iterations (late in the game, a
# move to the wrong sanctuary: 95% against 76%).
CLEARLY_WORSE = [
    ("alarun", 2, 2, 12, "place calendula:pink at (+1,0)", "place calendula:pink at (0,+1)"),
    ("amarok", 3, 1, 49, "take B5 from the river", "take R5 from seat 0's hand"),
    ("edora", 2, 2, 82, "move to S24 (cost 2)", "move to S20 (cost 2)"),
]


@pytest.mark.parametrize("name,players,seed,steps,good,bad", CLEARLY_WORSE, ids=[c[0] for c in CLEARLY_WORSE])
def test_a_clearly_worse_move_is_marked_at_least_a_mistake_and_the_good_move_is_not(
        name, players, seed, steps, good, bad):
    state = heuristic_position(name, players, seed, steps)
    seat = state.acting()[-1]
    by_text = {str(a): a for a in state.legal_actions(seat)}
    view = state.view(seat)
    judged_bad = judge(name, steps, seat, view, by_text[bad], DEFAULT_ITERATIONS, 0)
    judged_good = judge(name, steps, seat, view, by_text[good], DEFAULT_ITERATIONS, 0)
    assert judged_bad["class"] in ("mistake", "blunder"), judged_bad
    assert judged_good["class"] not in ("mistake", "blunder"), judged_good
    assert judged_bad["loss"] >= THRESHOLDS["mistake"] and judged_bad["after"] < judged_good["after"]
    assert " cost about " in judged_bad["comment"] and judged_bad["comment"].endswith(" kept it.")
    assert judged_bad["best"]["text"] in judged_bad["comment"]
