"""The analysis of a finished game: every decision judged from what its seat could see.

The record is replayed; before each action the acting seat's view at that moment (never the
state: the hidden cards as they were play no part) goes to the game's ISMCTS, which samples
the hidden part from the view (:mod:`nemeton.teacher.hints`). For each decision:

* ``before``: the seat's win chance with its best move, the mean share of a win of the
  search's most visited root action (``budget.iterations`` iterations, the search's usual
  early stop once the most visited action is settled);
* ``after``: the win chance with the move it played. The played move often has few visits
  in that search, so where it is not the best move it is searched again alone (ISMCTS's
  ``root_actions``) with as many iterations as the best move had. A root child's subtree
  grows from its own visits only, so both values are means over the same number of
  iterations of the same kind of subtree; a few visits of a move that looked poor early
  would understate it.

``loss = max(0, before - after)`` classifies the decision (:data:`THRESHOLDS`, on the 0..1
win-chance scale: lichess's 0.1/0.2/0.3 on its -1..1 scale) and gives its accuracy
(lichess's formula on win%); a seat's accuracy is the mean over its unforced decisions. A
decision with one legal action is forced: listed, never judged. Each decision's random
streams are seeded from (``seed``, its index), so the analysis is the same whatever the
order or the number of processes (``workers``).
"""

from __future__ import annotations

import math
import random
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any, Callable, Mapping, Sequence

from ..engine import Action, GameRecord, NemetonError, get_game
from .hints import action_text, decision_actions, fast_engine, mean, ranked, search_agent

FORMAT = "nemeton-analysis/1"
THRESHOLDS = {"inaccuracy": 0.05, "mistake": 0.10, "blunder": 0.15}
DEFAULT_ITERATIONS = 2000  # per decision: a 60-decision game within a minute on one core (docs/teacher.md)
FORCED_SHARE = 4  # a forced move's value is searched with iterations // FORCED_SHARE
MAX_WORKERS = 64


def classify(loss: float) -> str | None:
    """The class of a decision that gave up ``loss`` (0..1) of win chance."""
    for name in ("blunder", "mistake", "inaccuracy"):
        if loss >= THRESHOLDS[name] - 1e-12:
            return name
    return None


def move_accuracy(before: float, after: float) -> float:
    """lichess's per-move accuracy from the drop in win% (0..100), clipped to [0, 100]."""
    drop = max(0.0, 100.0 * (before - after))
    return min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * drop) - 3.1669))


def decision_seed(seed: int, index: int) -> int:
    """The random stream of decision ``index``'s searches: a function of both, never of the
    order the decisions are searched in."""
    return random.Random(f"nemeton-analysis:{seed}:{index}").getrandbits(63)


@dataclass
class Analysis:
    """A game's analysis; :meth:`to_json` is the format the CLI prints and the web page reads."""

    game: str
    players: int
    options: dict[str, Any]
    budget: dict[str, Any]
    teams: list[list[int]] | None
    seats: list[dict[str, Any]]
    decisions: list[dict[str, Any]]
    thresholds: dict[str, float] = field(default_factory=lambda: dict(THRESHOLDS))

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "game": self.game, "players": self.players, "options": self.options,
                "budget": self.budget, "thresholds": self.thresholds, "teams": self.teams,
                "seats": self.seats, "decisions": self.decisions}

    @classmethod
    def from_json(cls, data: Any) -> "Analysis":
        """An analysis from its JSON form (a cache file); ValueError where it is not one."""
        keys = ("format", "game", "players", "options", "budget", "thresholds", "teams", "seats", "decisions")
        if not isinstance(data, dict) or data.get("format") != FORMAT or set(data) != set(keys):
            raise ValueError(f"not a {FORMAT} object")
        if not (isinstance(data["seats"], list) and isinstance(data["decisions"], list)
                and all(isinstance(d, dict) for d in data["seats"] + data["decisions"])):
            raise ValueError(f"a {FORMAT} object needs lists of seats and decisions")
        return cls(data["game"], data["players"], data["options"], data["budget"], data["teams"],
                   data["seats"], data["decisions"], data["thresholds"])


# ----- one decision -------------------------------------------------------------------------
def judge(game: str, index: int, seat: int, view: Mapping[str, Any], action: Action, iterations: int,
          seed: int) -> dict[str, Any]:
    """Decision ``index``: ``seat`` played ``action`` in ``view`` (its own view at that moment).
    Its JSON entry (see the module docstring); runs in a helper process with workers > 1."""
    spec = get_game(game)
    players = int(view["players"])
    legal = decision_actions(spec, view, seat)
    if action not in legal:
        raise ValueError(f"decision {index}: {action} is not among seat {seat}'s legal actions in its view")
    stream = decision_seed(seed, index)
    forced = len(legal) == 1
    options = view.get("options")
    agent = search_agent(spec, seat, max(1, iterations // FORCED_SHARE) if forced else iterations, stream, options)
    root = agent.search(view)
    order = ranked(root, legal)
    best_action, best = order[0]
    before = mean(best)
    if forced or best_action == action:
        after = before
    else:
        again = search_agent(spec, seat, max(1, best.visits), stream ^ 0x5EED, options)
        again.root_actions = [action]
        after = mean(again.search(view).children[action])
    text, best_text = action_text(action, players), action_text(best_action, players)
    loss = 0.0 if forced else max(0.0, before - after)
    kind = None if forced else classify(loss)
    return {
        "index": index, "seat": seat, "action": action.to_json(), "text": text, "forced": forced,
        "before": round(before, 4), "after": round(after, 4), "loss": round(loss, 4), "class": kind,
        "accuracy": None if forced else round(move_accuracy(before, after), 1),
        "best": {"action": best_action.to_json(), "text": best_text, "win": round(before, 4)},
        "alternatives": [{"action": a.to_json(), "text": action_text(a, players),
                          "win": round(mean(c), 4), "visits": c.visits} for a, c in order[:3]],
        "comment": comment(text, best_text, before, after, forced, best_action == action, kind),
    }


def _pct(x: float) -> str:
    return f"{round(100 * x)}%"


def comment(text: str, best_text: str, before: float, after: float, forced: bool, best: bool,
            kind: str | None) -> str:
    """One sentence on a decision, in the actions' words."""
    if forced:
        return f"{text}: the only legal move."
    if best:
        return f"{text}: the search's choice too ({_pct(before)} win chance)."
    if kind is None:
        return (f"{text} kept about {_pct(after)} win chance; {best_text} was rated "
                f"{_pct(before)}, within {_pct(THRESHOLDS['inaccuracy'])}.")
    return (f"{text} cost about {_pct(before - after)} win chance ({_pct(before)} to {_pct(after)}); "
            f"{best_text} kept it.")


# ----- the whole record ---------------------------------------------------------------------
def decisions_of(record: GameRecord) -> list[tuple[int, int, dict[str, Any], Action]]:
    """(index, seat, that seat's view just before, action) for each action of the record,
    replayed from its options and seed (every action checked)."""
    state = record.replay(upto=0)
    out = []
    for index, (seat, action) in enumerate(record.actions):
        out.append((index, seat, state.view(seat), action))
        try:
            state.apply(action, seat)
        except NemetonError as exc:
            raise ValueError(f"record action {index} ({action}) cannot be replayed: {exc}") from None
    return out


def _judge_task(args: tuple) -> dict[str, Any]:
    return judge(*args)


def analyse_record(record: GameRecord, *, iterations: int | None = None, seed: int = 0, workers: int = 1,
                   progress: Callable[[int, int], None] | None = None) -> Analysis:
    """Judge every decision of ``record`` from its seat's view (module docstring).
    ``progress(done, total)`` is called after each decision."""
    iterations = DEFAULT_ITERATIONS if iterations is None else iterations
    if not 1 <= iterations <= 1_000_000:
        raise ValueError(f"iterations must be from 1 to 1,000,000; got {iterations}")
    if not 1 <= workers <= MAX_WORKERS:
        raise ValueError(f"workers must be from 1 to {MAX_WORKERS}; got {workers}")
    spec = get_game(record.game)
    steps = decisions_of(record)
    tasks = [(record.game, index, seat, view, action, iterations, seed) for index, seat, view, action in steps]
    total = len(tasks)
    results: list[dict[str, Any]] = []
    if workers == 1 or total < 2:
        for task in tasks:
            results.append(judge(*task))
            if progress is not None:
                progress(len(results), total)
    else:
        with ProcessPoolExecutor(max_workers=min(workers, total), mp_context=get_context("spawn")) as pool:
            futures = [pool.submit(_judge_task, task) for task in tasks]
            for future in as_completed(futures):
                results.append(future.result())
                if progress is not None:
                    progress(len(results), total)
        results.sort(key=lambda d: d["index"])
    state = record.replay(upto=0)
    players = state.options.players
    team = [state.team_of(s) for s in range(players)]
    teams = None
    if len(set(team)) < players:
        teams = [[s for s in range(players) if team[s] == t] for t in sorted(set(team))]
    team_number = {t: k for k, t in enumerate(sorted(set(team)))}
    return Analysis(spec.name, players, dict(record.options),
                    {"iterations": iterations, "seed": seed, "engine": "fast" if fast_engine(spec, dict(record.options)) else "reference"},
                    teams, [seat_summary(s, results, team_number[team[s]] if teams else None)
                            for s in range(players)], results)


def seat_summary(seat: int, decisions: Sequence[Mapping[str, Any]], team: int | None) -> dict[str, Any]:
    """A seat's count of decisions and of each class, and its accuracy (the mean over its
    unforced decisions; None where it had none)."""
    own = [d for d in decisions if d["seat"] == seat]
    judged = [d["accuracy"] for d in own if not d["forced"]]
    return {"seat": seat, "team": team, "decisions": len(own),
            "accuracy": round(sum(judged) / len(judged), 1) if judged else None,
            "inaccuracies": sum(d["class"] == "inaccuracy" for d in own),
            "mistakes": sum(d["class"] == "mistake" for d in own),
            "blunders": sum(d["class"] == "blunder" for d in own)}
