"""A game's rule-of-thumb knowledge (its ``heuristic.py``), read by the heuristic agent and by
search; and a cut-off evaluation fitted to self-play games (Alarún's ``fitted.py``).

Both are the game's own: a game names them in its ``GameSpec`` (``heuristic``, ``fitted``)
and they read only what the seat they play for could see (a view, or a determinized state).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Callable, Generic, Mapping, Sequence, TypeVar

from .action import Action
from .state import State


class GameHeuristic(ABC):
    """A game's rule-of-thumb knowledge, used by the heuristic agent and by search.

    ``choose_from_view`` is what the heuristic agent plays. ``choose_in_state`` is the same
    policy on a state, for rollouts inside search; search only ever passes determinized
    states, and the policy reads only what ``seat`` could see there. ``evaluate`` scores a
    non-terminal (determinized) state: an estimate of each seat's return (same scale as
    ``State.returns()``: winners share 1).
    """

    @abstractmethod
    def choose_from_view(self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action: ...

    @abstractmethod
    def choose_in_state(self, state: State, seat: int, legal: Sequence[Action], rng: random.Random) -> Action: ...

    @abstractmethod
    def evaluate(self, state: State) -> list[float]: ...

    def search_settings(self) -> Mapping[str, Any]:
        """ISMCTS parameters that suit this heuristic (``{"rollout": "heuristic"}`` when its
        policy is cheap and good enough to pay for itself in rollouts); search applies them
        where an agent spec leaves a parameter unset. Default: none."""
        return {}

    # The parameters search_settings_for may set: a spec that gives one of them names it in
    # the agent's label even where it equals search_settings (it may differ from the options').
    refined_settings: frozenset[str] = frozenset()

    def search_settings_for(self, options: Mapping[str, Any]) -> Mapping[str, Any]:
        """Refinements of :meth:`search_settings` for one game's options (its view's
        ``options``), read by the search at its first decision and applied where the spec
        leaves a parameter unset (Amarok with 4 players in teams: heuristic rollouts;
        Edora with 2 players: progressive widening; docs/ai.md); list the parameters it may
        set in :attr:`refined_settings`. Default: none."""
        return {}


S = TypeVar("S", bound=State)  # the game's state class


@dataclass(frozen=True)
class FittedModel(Generic[S]):
    """A cut-off evaluation fitted to self-play (``ismcts:evaluation=fitted``): per seat a
    linear score over ``features(state)`` with one weight row per ``stage(state)``, and the
    seats' shares of the win as the softmax of the scores (``nemeton.agents.fitted``).
    ``weights[players]`` is the generated table (``benchmarks/fit_evaluation.py``) with its
    ``features`` names, the data it was fitted on and its ``weights`` rows; it is read at each
    ``fitted_evaluation`` (a fit just written is used by the next search)."""

    feature_names: tuple[str, ...]
    features: Callable[[S], list[list[float]]]
    stage: Callable[[S], int]
    stages: int
    weights: Callable[[], Mapping[int, Mapping[str, Any]]]
    weights_file: str  # where the fit script writes the table (a module of the game's folder)
