"""The state protocol every game fills in.

A state is mutable, owns its seeded random stream and its history, and can be cloned
cheaply. The shared policy (illegal actions change nothing, terminal states accept no
action, how ties share rankings and returns) is written here once; a game implements the
underscored hooks and the rules.

Seats are ``0 .. players-1``; every public method checks the seats it is given (an
int in range, or None where the spectator is meant) and raises :class:`InvalidSeatError`
for anything else. A view starts with the engine-owned envelope (``game``, ``seat``,
``players``, ``acting``, ``round``, ``terminal``, ``scores``) followed by the game's own
data; the event log (``log``) tells each viewer what happened as far as it may know.

Seats are ``0 .. players-1``. Most of the time one seat acts (``current_player``); where a
rulebook makes players act simultaneously (Alarún's placement at the end of a round)
``acting()`` lists every seat that may act now and ``current_player`` is the lowest of
them, so sequential consumers (search, RL) still see one player at a time.
"""

from __future__ import annotations

import dataclasses
import operator
import random
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, Iterable, Literal, Sequence, overload

from .action import Action, field_misfit
from .errors import IllegalActionError, InputError, InvalidSeatError, RecordError, clip, snippet
from .log import Event, action_marked as _marked, default_event_text, seat_ref, split_parts
from .options import GameOptions

if TYPE_CHECKING:
    from .record import GameRecord

TERMINAL = -1


def clone_rng(rng: random.Random) -> random.Random:
    twin = random.Random.__new__(random.Random)
    twin.setstate(rng.getstate())
    return twin


def rng_to_json(rng: random.Random) -> list:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def rng_from_json(data: Sequence) -> random.Random:
    """The random stream ``rng_to_json`` wrote; anything else raises :class:`RecordError`."""
    if not (isinstance(data, (list, tuple)) and len(data) == 3 and type(data[0]) is int and data[0] == 3
            and isinstance(data[1], (list, tuple)) and len(data[1]) == 625
            and (data[2] is None or type(data[2]) is float)):
        raise RecordError("a random stream must be [3, [625 integers], null or a number]")
    words = data[1]
    if not (all(type(w) is int for w in words) and 0 <= min(words) and max(words) < 2**32
            and words[-1] <= 624):
        raise RecordError("a random stream's words must be integers from 0 to 2**32-1 (the last at most 624)")
    rng = random.Random.__new__(random.Random)
    rng.setstate((3, tuple(words), data[2]))
    return rng


def shown_action(action: Any) -> str:
    """An action's text for a message, whatever its fields hold: its marked text (seats as
    markers, :func:`~nemeton.engine.log.action_marked`), or where the game's text cannot format
    the fields (a hand-built action holding NaN, a dict, a 5,000-digit integer) its kind and each
    field's short repr, or its class name for an action that is no dataclass."""
    try:
        text = _marked(action)
        if isinstance(text, str):
            return clip(text, 160)
    except Exception:  # the game's text failed on the odd fields: show them as they are
        pass
    kind = getattr(type(action), "kind", None)
    name = clip(kind if isinstance(kind, str) else type(action).__name__, 40)
    try:
        fields = [(f.name, getattr(action, f.name, None)) for f in dataclasses.fields(action)]
    except Exception:  # not a dataclass
        return f"an action {name!r}"
    return f"{name}(" + ", ".join(f"{field}={snippet(value, 30)}" for field, value in fields) + ")"


def _index_of(legal: list[Action], action: Action) -> int:
    """Where ``action`` is in ``legal`` (equal to the game's own instance), or -1. An action
    whose fields cannot even be compared (an odd value whose ``==`` fails) is in no list."""
    try:
        return legal.index(action)
    except Exception:  # ValueError: not there; anything else: fields that cannot be compared
        return -1


class State(ABC):
    """One game in progress. Subclasses add their own fields (use ``__slots__``)."""

    __slots__ = ("options", "seed", "rng", "history", "events", "round")
    game_name: str = "game"

    def __init__(self, options: GameOptions, seed: int | None, rng: random.Random):
        self.options = options
        self.seed = seed
        self.rng = rng
        self.history: list[tuple[int, Action]] = []
        # The event log; None = not recorded (playouts, search and determinized states).
        self.events: list[Event] | None = []
        # The round number (from 1) in a game with rounds, set by the game as its rounds pass;
        # search cuts rollouts off at the end of a round. Games without rounds leave it 0.
        self.round = 0

    # ----- seats ------------------------------------------------------------------------
    @overload
    def check_seat(self, seat: Any, spectator: Literal[False] = False) -> int: ...
    @overload
    def check_seat(self, seat: Any, spectator: bool) -> int | None: ...

    def check_seat(self, seat: Any, spectator: bool = False) -> int | None:
        """``seat`` as an int in ``0 .. players-1`` (or None when ``spectator`` is allowed);
        anything else (a string, a float, a bool, a number out of range) raises
        :class:`InvalidSeatError`. Integer-like values such as numpy integers are accepted."""
        n = self.options.players
        if type(seat) is int and 0 <= seat < n:   # the common case, at every view of a step
            return seat
        if seat is None and spectator:
            return None
        if not isinstance(seat, bool):
            try:
                index = operator.index(seat)
            except TypeError:
                index = None
            if index is not None and 0 <= index < n:
                return index
        allowed = f"an integer from 0 to {n - 1}" + (" or None for the spectator" if spectator else "")
        raise InvalidSeatError(f"a seat must be {allowed}; got {snippet(seat, 40)}")

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

    # ----- actions ----------------------------------------------------------------------
    #: True in a game whose ``_legal_actions(seat)`` is already empty for a seat that is not
    #: acting, the game over included: :meth:`legal_actions` then need not ask
    #: :meth:`acting` first (the RL environments ask at every step). The conformance suite
    #: holds a game that says so to it at every step.
    waiting_seats_have_no_actions: bool = False

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Legal actions of ``seat`` (default: the current player) in a deterministic order;
        empty for a seat that is not acting now and once the game is over."""
        if seat is None:
            seat = self.current_player
            if seat == TERMINAL:
                return []
        else:
            seat = self.check_seat(seat)
            if self.waiting_seats_have_no_actions:
                return self._legal_actions(seat)
        if seat not in self.acting():
            return []
        return self._legal_actions(seat)

    def legal_action_mask(self, seat: int | None = None) -> "Any":
        """A NumPy boolean array over the game's action space for these options
        (``spec.action_space(options)``): True at the ids of ``legal_actions(seat)``."""
        from .registry import get_game
        return get_game(self.game_name).encoding(self.options).actions.mask(self.legal_actions(seat))

    @abstractmethod
    def _legal_actions(self, seat: int) -> list[Action]:
        """Legal actions of an acting ``seat`` (no checks; search and playouts call it directly)."""

    @abstractmethod
    def _apply(self, action: Action, seat: int) -> None:
        """Apply a legal action for ``seat`` (no checks)."""

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Apply ``action`` for ``seat`` after checking it; an illegal one raises and changes nothing."""
        if seat is not None:
            seat = self.check_seat(seat)
        if not isinstance(action, Action):
            raise IllegalActionError(f"not an action: {snippet(action, 80)}")
        if self.is_terminal():
            raise IllegalActionError(f"the game is over; no action is legal (got {shown_action(action)})")
        if seat is None:
            seat = self.current_player
        acting = self.acting()
        if seat not in acting:
            raise IllegalActionError(
                f"{seat_ref(seat)} may not act now; acting: {', '.join(map(seat_ref, acting)) or 'nobody'}")
        legal = self._legal_actions(seat)
        k = _index_of(legal, action)
        if k < 0:
            shown = ", ".join(_marked(a) for a in legal[:12]) + (" ..." if len(legal) > 12 else "")
            misfit = field_misfit(action)
            raise IllegalActionError(f"{shown_action(action)} is not legal for {seat_ref(seat)} now"
                                     f"{f' ({misfit})' if misfit else ''}; legal: {shown}")
        # the game's own instance: a hand-built action equal to it (1.0 for 1) is never stored
        self.apply_unchecked(legal[k], seat)

    def apply_unchecked(self, action: Action, seat: int | None = None) -> None:
        """Apply an action taken from ``legal_actions`` (search and playouts)."""
        if seat is None:
            seat = self.current_player
        events = self.events
        if events is None:
            self._apply(action, seat)
            self.history.append((seat, action))
            return
        start = len(events)
        self._apply(action, seat)
        index = len(self.history)
        for k in range(start, len(events)):
            events[k].action = index
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
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know, as fresh JSON-ready data; ``None`` = spectator (public only).

        The engine's envelope comes first, named alike in every game: ``game``, ``seat``,
        ``players`` (the number of seats), ``acting`` (the seats that may act now),
        ``round``, ``terminal``, ``scores`` (what this viewer may see of each seat's score,
        None where hidden); the game's own data follows."""
        seat = self.check_seat(seat, spectator=True)
        view = self._envelope(seat)
        for key, value in self._view(seat).items():
            if key not in view:
                view[key] = value
        return view

    @abstractmethod
    def _view(self, seat: int | None) -> dict[str, Any]:
        """The game's own part of the view of a checked seat (fresh data: nothing shared)."""

    def shared_view(self, seat: int | None) -> dict[str, Any]:
        """The same view as :meth:`view` (equal, key for key), for readers that only read it
        and read it again after each step, the RL encoders above all: a part of the table
        that did not change since this state's previous shared view may be handed out again
        as the very same object, so a reader that keeps what it made of each part (keyed by
        the part's identity) redoes only what changed.

        Read-only: never change it or anything in it (that would change later views of this
        state); take :meth:`view` to keep or edit. The dict itself is new at every call. It
        holds nothing :meth:`view` does not: games build the parts with the same code and
        reuse a part only while the state values it is made from are equal to those it was
        made from (the tests compare it with :meth:`view` at every step of whole games).

        By default it is :meth:`view` (fresh data). Games whose views are costly override it
        whole: the seat checked with :meth:`check_seat`, the envelope's keys written beside
        the game's with the values :meth:`_envelope` gives (one dict built, no merge: a
        shared view is asked for at every step), the parts kept in the state."""
        return self.view(seat)

    def _envelope(self, seat: int | None) -> dict[str, Any]:
        """The engine's part of a checked seat's view, named alike in every game."""
        return {"game": self.game_name, "seat": seat, "players": self.options.players,
                "acting": list(self.acting()), "round": self.round, "terminal": self.is_terminal(),
                "scores": self.visible_scores(seat)}

    def visible_scores(self, seat: int | None) -> list[float | None]:
        """What ``seat`` may see of the scores: the final scores once the game is over, None
        for each seat before (games whose scores are public during play override it)."""
        if self.is_terminal():
            return [float(x) for x in self.scores()]
        return [None] * self.options.players

    # ----- the event log ----------------------------------------------------------------
    def _event(self, kind: str, seat: int | None, secret: dict[str, Any] | None = None,
               seen_by: Iterable[int] = (), **fields: Any) -> None:
        """Record that ``kind`` happened (``seat`` = the actor, None for an automatic effect).
        ``fields`` go to every viewer; ``secret`` only to the seats in ``seen_by``. Hot paths
        guard the call with ``if self.events is not None``."""
        events = self.events
        if events is not None:
            events.append(Event(kind, seat, self.round, fields, secret, frozenset(seen_by)))

    def event_message(self, entry: dict[str, Any], viewer: int | None) -> dict[str, Any] | None:
        """The event as a message for ``viewer``, from that viewer's entry alone: a message id
        and structured arguments (:mod:`nemeton.i18n`), which each client renders in its
        reader's language. Games override; None = the game writes English sentences only
        (:meth:`event_text`)."""
        return None

    def event_text(self, entry: dict[str, Any], viewer: int | None) -> str:
        """One English sentence for ``viewer`` from that viewer's entry alone: the message
        rendered in English, or a plain default for a game without messages."""
        message = self.event_message(entry, viewer)
        if message is not None:
            from ..i18n import render
            return render(message, "en")
        return default_event_text(entry, viewer)

    def _told(self, entry: dict[str, Any], viewer: int | None, lang: str) -> tuple[str, list, dict | None]:
        """(text, parts, message) of an entry in ``lang``."""
        message = self.event_message(entry, viewer)
        if message is None:
            return (*split_parts(self.event_text(entry, viewer), self.options.players), None)
        from ..i18n import render_parts
        return (*render_parts(message, lang, self.options.players), message)

    def log(self, viewer: int | None = None, since: int = 0, lang: str = "en") -> list[dict[str, Any]]:
        """The events from index ``since`` on, as ``viewer`` (None = spectator) may know them:
        JSON-ready dicts with ``i``, ``round``, ``seat``, ``kind``, ``text``, ``parts``, ``msg``
        and the kind's own fields. ``msg`` is the event as a message (id and arguments, to be
        rendered in the reader's language: :mod:`nemeton.i18n`; absent for a game that writes
        sentences only); ``text`` is the plain sentence in ``lang`` (seats as "seat n"),
        ``parts`` the same sentence as strings and ``{"seat": n}``
        (:func:`nemeton.engine.log.split_parts`). Empty when this state does not record
        events (see :meth:`record_events`)."""
        viewer = self.check_seat(viewer, spectator=True)
        if isinstance(since, bool) or not isinstance(since, int) or since < 0:
            raise InputError(f"since must be a non-negative integer (a log index); got {snippet(since, 40)}")
        events = self.events or []
        players = self.options.players
        out = []
        for i in range(since, len(events)):
            entry = events[i].entry(i, viewer)
            entry["text"], entry["parts"], message = self._told(entry, viewer, lang)
            if message is not None:
                entry["msg"] = message
            out.append(entry)
        return out

    def log_length(self) -> int:
        return len(self.events) if self.events is not None else 0

    def record_events(self, on: bool = True) -> "State":
        """Turn the event log on (an empty log from here) or off (playouts and search)."""
        if not on:
            self.events = None
        elif self.events is None:
            self.events = []
        return self

    def describe_action(self, seat: int, action: Action, viewer: int | None, *, parts: bool = False) -> Any:
        """What ``viewer`` (None = spectator) learnt when ``seat`` took ``action``: the text of
        the event that action recorded (its latest occurrence in this game), so logs and
        descriptions never disagree; with ``parts=True`` that entry's ``parts`` instead (seats
        as ``{"seat": n}``). Told only after the fact: a description of an action not
        yet taken could reveal what the action is about to show (a hidden card, a draw)."""
        seat = self.check_seat(seat)
        viewer = self.check_seat(viewer, spectator=True)
        try:
            taken = [h for h in range(len(self.history) - 1, -1, -1) if self.history[h] == (seat, action)]
        except Exception:  # an odd hand-built action whose fields cannot be compared: never taken
            taken = []
        if not taken:
            raise IllegalActionError(f"{seat_ref(seat)} has not taken {snippet(action, 80)} in this game; "
                                     "an action is described after it is taken (see log())")
        h = taken[0]
        events = self.events or []
        for i in range(len(events) - 1, -1, -1):
            if events[i].action == h and (i == 0 or events[i - 1].action != h):
                entry = events[i].entry(i, viewer)
                text, told, _message = self._told(entry, viewer, "en")
                return told if parts else text
        # events loaded from JSON carry no action index: replay the record to find them
        if self.seed is None:
            raise RecordError("this state has no seed (a determinized state), so its actions cannot be described")
        from .record import GameRecord
        before = GameRecord(self.game_name, self.options.to_json(), self.seed, self.history[:h]).replay()
        start = before.log_length()
        before.apply(action, seat)
        entries = before.log(viewer, since=start)
        if parts:
            return entries[0]["parts"] if entries else split_parts(_marked(action), self.options.players)[1]
        return entries[0]["text"] if entries else str(action)

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
