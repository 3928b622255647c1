"""The state protocol every game fills in.

A state is mutable, owns its seeded random stream and its history, and can be cloned
cheaply. The shared policy (illegal actions change nothing, terminal states accept no
action, how ties share rankings and returns) is written here once; a game implements the
underscored hooks and the rules.

Seats are ``0 .. players-1``. Most of the time one seat acts (``current_player``); where a
rulebook makes players act simultaneously (Alarún's placement at the end of a round)
``acting()`` lists every seat that may act now and ``current_player`` is the lowest of
them, so sequential consumers (search, RL) still see one player at a time.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any, Sequence

from .action import Action
from .errors import IllegalActionError
from .options import GameOptions

TERMINAL = -1


def clone_rng(rng: random.Random) -> random.Random:
    twin = random.Random.__new__(random.Random)
    twin.setstate(rng.getstate())
    return twin


def rng_to_json(rng: random.Random) -> list:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def rng_from_json(data: Sequence) -> random.Random:
    rng = random.Random.__new__(random.Random)
    version, internal, gauss = data
    rng.setstate((version, tuple(internal), gauss))
    return rng


class State(ABC):
    """One game in progress. Subclasses add their own fields (use ``__slots__``)."""

    __slots__ = ("options", "seed", "rng", "history")
    game_name: str = "game"

    def __init__(self, options: GameOptions, seed: int | None, rng: random.Random):
        self.options = options
        self.seed = seed
        self.rng = rng
        self.history: list[tuple[int, Action]] = []

    # ----- who acts ---------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self.options.players

    @property
    @abstractmethod
    def current_player(self) -> int:
        """The seat to act (the lowest acting seat), or TERMINAL."""

    def acting(self) -> tuple[int, ...]:
        """Every seat that may act now (empty when terminal)."""
        p = self.current_player
        return () if p == TERMINAL else (p,)

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @property
    def round(self) -> int:
        """The game's round number (1-based) where the game has rounds; search uses it to
        cut rollouts off at the end of a round. Games without rounds return 0."""
        return 0

    # ----- actions ----------------------------------------------------------------------
    @abstractmethod
    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Legal actions of ``seat`` (default: current player) in a deterministic order."""

    @abstractmethod
    def _apply(self, action: Action, seat: int) -> None:
        """Apply a legal action for ``seat`` (no checks)."""

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Apply ``action`` for ``seat`` after checking it; an illegal one raises and changes nothing."""
        if self.is_terminal():
            raise IllegalActionError(f"the game is over; no action is legal (got {action})")
        if seat is None:
            seat = self.current_player
        acting = self.acting()
        if seat not in acting:
            raise IllegalActionError(
                f"seat {seat} may not act now; acting: {', '.join(map(str, acting))}")
        legal = self.legal_actions(seat)
        if action not in legal:
            shown = ", ".join(str(a) for a in legal[:12]) + (" ..." if len(legal) > 12 else "")
            raise IllegalActionError(f"{action} is not legal for seat {seat} now; legal: {shown}")
        self._apply(action, seat)
        self.history.append((seat, action))

    def apply_unchecked(self, action: Action, seat: int | None = None) -> None:
        """Apply an action taken from ``legal_actions`` (search and playouts)."""
        if seat is None:
            seat = self.current_player
        self._apply(action, seat)
        self.history.append((seat, action))

    # ----- outcome ----------------------------------------------------------------------
    @abstractmethod
    def scores(self) -> list[float]:
        """Each seat's score: final once terminal. Before the end a game may return a
        provisional score computed from the whole state (hidden parts included), so it is for
        search and statistics only; what a seat may see of scores travels in its view."""

    def ranking_key(self, seat: int) -> tuple:
        """Larger is better; equal keys share a rank. Default: the score."""
        return (self.scores()[seat],)

    def team_of(self, seat: int) -> int:
        """Seats with the same team share results; default: every seat is its own team."""
        return seat

    def ranking(self) -> list[int]:
        """1 = best; tied seats share a rank (1, 1, 3, ...)."""
        keys = [self.ranking_key(s) for s in range(self.num_players)]
        return [1 + sum(1 for k in keys if k > keys[s]) for s in range(self.num_players)]

    def winners(self) -> list[int]:
        if not self.is_terminal():
            return []
        ranks = self.ranking()
        return [s for s in range(self.num_players) if ranks[s] == 1]

    def returns(self) -> list[float]:
        """1 shared equally among the winning teams (a team's members each get the team's
        share); 0 for everyone else; all 0 before the end."""
        winners = self.winners()
        if not winners:
            return [0.0] * self.num_players
        teams = {self.team_of(s) for s in winners}
        share = 1.0 / len(teams)
        return [share if self.team_of(s) in teams else 0.0 for s in range(self.num_players)]

    # ----- information ------------------------------------------------------------------
    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know, as JSON-ready data; ``None`` = spectator (public only)."""

    def describe_action(self, seat: int, action: Action, viewer: int | None) -> str:
        """What ``viewer`` (None = spectator) may learn of ``seat``'s ``action``: the one gate
        for action logs shown to people. Games override it where an action is secret (a
        placement hidden until everyone has placed)."""
        return str(action)

    # ----- copies and serialisation -----------------------------------------------------
    @abstractmethod
    def clone(self) -> "State":
        """A deep copy sharing no mutable part with this state."""

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The full state (hidden parts and random stream included), JSON-ready."""

    def record(self) -> "GameRecord":
        from .record import GameRecord
        return GameRecord(self.game_name, self.options.to_json(), self.seed,
                          [(seat, action) for seat, action in self.history])
