"""Hints: the search's preferred actions for one seat, from that seat's view only.

A hint runs the game's ISMCTS (:class:`nemeton.agents.ismcts.ISMCTSAgent`, the game's default
settings, the compiled kernel's playouts where the game has one and Numba imports) on the
view a seat has, never on the state: every iteration samples the hidden part from the view
with the game's determinizer, so a hint cannot know what its seat cannot see. The root's
children are the seat's legal actions; the hint lists the most visited ones with the mean
share of a win their iterations brought (the seat's estimated win chance with that move).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any, Mapping

from ..agents.base import make_agent
from ..agents.ismcts import ISMCTSAgent, Node
from ..engine import Action, GameSpec, NemetonError
from ..engine.log import action_marked, render_text

MIN_ITERATIONS, MAX_ITERATIONS = 50, 200_000  # iterations_for's bounds
CALIBRATION_SECONDS = 0.2
DEFAULT_HINT_ITERATIONS = 1000  # hint() with neither iterations nor seconds


@dataclass(frozen=True)
class HintMove:
    """One of a seat's legal actions as the search rated it."""

    action: Action
    text: str  # the action's words (seats as "seat n"), as the terminal lists it
    win: float  # the mean share of a win of the iterations through this action (0..1)
    visits: int

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action.to_json(), "text": self.text, "win": round(self.win, 4),
                "visits": self.visits}




def fast_engine(spec: GameSpec, options: Mapping[str, Any] | None = None) -> bool:
    """Whether the search can play out in the game's compiled kernel here: the game has one,
    Numba imports and the kernel implements ``options`` (their JSON form, e.g. a view's; None:
    the defaults). Edora's kernel, for one, refuses another ``board``: the search then plays
    out with the Python rules. Known once per process for each game and options."""
    from ..engine.kernel import kernel_refusal
    return kernel_refusal(spec, options) is None


def search_agent(spec: GameSpec, seat: int, iterations: int, seed: int,
                 options: Mapping[str, Any] | None = None) -> ISMCTSAgent:
    """The game's default ISMCTS for ``seat`` with ``iterations`` and its random stream
    seeded by ``seed`` (engine=fast where :func:`fast_engine` for ``options``)."""
    engine = ":engine=fast" if fast_engine(spec, options) else ""
    agent = make_agent(f"ismcts:iterations={iterations}{engine}", spec, seat, seed)
    assert isinstance(agent, ISMCTSAgent)
    return agent


def action_text(action: Action, players: int) -> str:
    """An action's words with its seats as "seat n" (the terminal's listing without names)."""
    return render_text(action_marked(action), None, players)


def decision_actions(spec: GameSpec, view: Mapping[str, Any], seat: int) -> list[Action]:
    """``seat``'s legal actions in its own ``view``; ValueError where it has no decision."""
    if not isinstance(view, Mapping) or view.get("seat") != seat:
        raise ValueError(f"a hint for seat {seat} needs that seat's own view")
    if view.get("terminal") or seat not in view.get("acting", ()):
        raise ValueError(f"seat {seat} has no decision to make in this view (the game is over or "
                         "another seat is to act)")
    legal = spec.legal_actions_from_view(view)
    if not legal:
        raise ValueError(f"seat {seat} has no legal action in this view")
    return legal


def ranked(root: Node, legal: list[Action]) -> list[tuple[Action, Node]]:
    """The root's (action, child) pairs, most visited first (then the best mean, then legal
    order: no draw from a random stream, so a ranking is a function of the tree)."""
    order = {a: i for i, a in enumerate(legal)}
    children = [(a, c) for a, c in root.children.items() if a in order]
    return sorted(children, key=lambda ac: (-ac[1].visits, -mean(ac[1]), order[ac[0]]))


def mean(node: Node) -> float:
    """A node's mean share of a win (0 before its first visit)."""
    return node.reward / node.visits if node.visits else 0.0


def hint(spec: GameSpec, view: Mapping[str, Any], seat: int, *, iterations: int | None = None,
         seconds: float | None = None, seed: int = 0, top: int = 3) -> list[HintMove]:
    """The search's ``top`` preferred actions for ``seat`` (most visited first), from ``view``
    only. ``iterations`` exactly that many (deterministic for ``seed``); ``seconds`` converted
    to iterations by :func:`iterations_for`; neither: :data:`DEFAULT_HINT_ITERATIONS`."""
    if iterations is not None and seconds is not None:
        raise ValueError("give iterations or seconds, not both")
    legal = decision_actions(spec, view, seat)
    if iterations is None:
        iterations = (iterations_for(spec, view.get("options", {}), seconds) if seconds is not None
                      else DEFAULT_HINT_ITERATIONS)
    players = int(view["players"])
    root = search_agent(spec, seat, iterations, seed, view.get("options")).search(view)
    return [HintMove(a, action_text(a, players), mean(c), c.visits) for a, c in ranked(root, legal)[:max(1, top)]]


_RATES: dict[tuple[str, str], float] = {}  # (game, options' JSON) -> iterations per second, once per process


def iterations_for(spec: GameSpec, options: Any, seconds: float) -> int:
    """The iterations this machine searches in ``seconds`` for the game with ``options`` (a
    GameOptions or its JSON form), measured once per process on the dealt game's first
    decision for about :data:`CALIBRATION_SECONDS` of wall time (the kernel loaded first),
    bounded to [:data:`MIN_ITERATIONS`, :data:`MAX_ITERATIONS`]."""
    if not (isinstance(seconds, (int, float)) and 0 < seconds <= 3600):
        raise ValueError(f"seconds must be a number from 0 to 3600; got {seconds!r}")
    data = options.to_json() if hasattr(options, "to_json") else dict(options)
    key = (spec.name, json.dumps(data, sort_keys=True, default=str))
    rate = _RATES.get(key)
    if rate is None:
        rate = _RATES[key] = _measure_rate(spec, data)
    return max(MIN_ITERATIONS, min(MAX_ITERATIONS, int(rate * seconds)))


def _measure_rate(spec: GameSpec, options: dict[str, Any]) -> float:
    try:
        state = spec.new_state(spec.options(**options), 0)
    except NemetonError as exc:
        raise ValueError(f"iterations_for: bad options for {spec.name}: {exc}") from None
    seat = state.acting()[0]
    view = state.view(seat)
    legal = spec.legal_actions_from_view(view)
    agent = search_agent(spec, seat, 64, 0, options)
    agent.root_actions = legal  # the whole budget, no early stop
    agent.search(view)  # loads the kernel (once per process) before the clock starts
    done, started = 0, time.perf_counter()
    while time.perf_counter() - started < CALIBRATION_SECONDS:
        agent.search(view)
        done += agent.last_iterations
    return done / (time.perf_counter() - started)


__all__ = ["HintMove", "hint", "iterations_for", "fast_engine", "search_agent", "action_text", "ranked",
           "mean", "decision_actions"]
