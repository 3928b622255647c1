"""Integers and tensors at the RL edge: a fixed action space, legal-action masks, flat
observation tensors made of named slices, and the facts a learner needs about a game.

Nothing here knows a game. Each game writes, in ``nemeton/games/<game>/encoding.py``, one
function ``encoding_for(options)`` returning a :class:`GameEncoding` for its validated
options: the tuple of every action that can exist with those options (an action's id is its
index, known before the game starts), an :class:`ObservationLayout` (name, offset, shape and
meaning of every slice) and an ``encode(view, out)`` that writes a seat's observation into a
float32 array **from that seat's view alone**. The view is the one gate for secrets, so an
observation can never show what the seat may not know (the tests re-sample the hidden part
of a state with the determinizer and check every observation is unchanged).

Seats in observations are *relative*: the per-seat slices list the observer first, then the
next seats in turn order (seat ``(me + k) % players`` at position ``k``), so a policy learnt
for one seat plays any seat.

NumPy is needed here (the ``rl`` extra); the engine imports this module only when asked for
an encoding (``GameSpec.encoding``), so the rest of Nemeton runs without NumPy.
"""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np

from .action import Action
from .errors import IllegalActionError


@dataclass(frozen=True)
class Slice:
    """One named part of an observation: ``obs[offset : offset + size]`` reshaped to ``shape``."""

    name: str
    offset: int
    shape: tuple[int, ...]
    meaning: str
    low: float = 0.0
    high: float = 1.0   # math.inf where a count or track has no fixed top

    @property
    def size(self) -> int:
        return int(np.prod(self.shape)) if self.shape else 1

    @property
    def end(self) -> int:
        return self.offset + self.size

    def of(self, obs: np.ndarray) -> np.ndarray:
        """This slice of ``obs`` (a view, not a copy), in its shape."""
        return obs[self.offset:self.end].reshape(self.shape)


class ObservationLayout:
    """The slices of a flat observation, in order, with no gap: built by :meth:`add`."""

    def __init__(self) -> None:
        self.slices: list[Slice] = []
        self._by_name: dict[str, Slice] = {}
        self.size = 0

    def add(self, name: str, shape: int | Sequence[int], meaning: str, low: float = 0.0, high: float = 1.0) -> int:
        """Append a slice whose values lie in [low, high]; returns its offset (encoders keep
        it in their index tables)."""
        if name in self._by_name:
            raise ValueError(f"slice {name!r} is already in the layout")
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        part = Slice(name, self.size, shape, meaning, float(low), float(high))
        self.slices.append(part)
        self._by_name[name] = part
        self.size += part.size
        return part.offset

    def __getitem__(self, name: str) -> Slice:
        return self._by_name[name]

    def __iter__(self):
        return iter(self.slices)

    def __len__(self) -> int:
        return len(self.slices)

    def entries(self) -> list[tuple[str, int, tuple[int, ...]]]:
        """``(name, offset, shape)`` of every slice, in order."""
        return [(s.name, s.offset, s.shape) for s in self.slices]

    def split(self, obs: np.ndarray) -> dict[str, np.ndarray]:
        """Every slice of ``obs`` by name, in its shape (views into ``obs``)."""
        return {s.name: s.of(obs) for s in self.slices}

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Per-element lower and upper bounds (float32 arrays) for observation spaces."""
        low = np.empty(self.size, dtype=np.float32)
        high = np.empty(self.size, dtype=np.float32)
        for s in self.slices:
            low[s.offset:s.end] = s.low
            high[s.offset:s.end] = s.high
        return low, high

    def describe(self) -> str:
        """A Markdown table of the slices (docs/rl.md is made of these)."""
        rows = ["| slice | offset | shape | range | meaning |", "| --- | ---: | --- | --- | --- |"]
        rows += [f"| `{s.name}` | {s.offset} | {'x'.join(map(str, s.shape))} | {_range(s)} | {s.meaning} |"
                 for s in self.slices]
        return "\n".join(rows)


def _range(s: Slice) -> str:
    high = "inf" if math.isinf(s.high) else f"{s.high:g}"
    low = "-inf" if math.isinf(s.low) else f"{s.low:g}"
    return f"{low}..{high}"


class ActionSpace:
    """Every action that can exist with one game's options, in a fixed order: an action's id
    is its index. Games build their actions once (interned), so ids are found by identity
    first (one dict lookup on ``id(action)``), then by value."""

    def __init__(self, actions: Iterable[Action]):
        self.actions: tuple[Action, ...] = tuple(actions)
        self.index: dict[Action, int] = {}
        for i, a in enumerate(self.actions):
            if a in self.index:
                raise ValueError(f"the action {a} is listed twice in the action space")
            self.index[a] = i
        # The tuple keeps every action alive, so no other live object can share an id here.
        self._by_identity = {id(a): i for i, a in enumerate(self.actions)}

    def __len__(self) -> int:
        return len(self.actions)

    def id(self, action: Action) -> int:
        """The id of ``action``; :class:`IllegalActionError` if it is not in this space."""
        i = self._by_identity.get(id(action))
        if i is None:
            i = self.index.get(action)
            if i is None:
                raise IllegalActionError(f"{action} is not in this game's action space")
        return i

    def ids(self, actions: Sequence[Action]) -> list[int]:
        out: list[Any] = list(map(self._by_identity.get, map(id, actions)))  # an id, or None
        if None in out:  # an equal action that is not the game's own instance
            out = [self.id(a) if i is None else i for a, i in zip(actions, out)]
        return out

    def action(self, action_id: Any) -> Action:
        """The action with id ``action_id`` (an int, NumPy's included); IllegalActionError
        naming the range otherwise."""
        try:
            i = int(action_id)
            if i != action_id or isinstance(action_id, bool):
                raise ValueError
        except (TypeError, ValueError):
            raise IllegalActionError(f"an action id must be an integer from 0 to {len(self) - 1}; "
                                     f"got {action_id!r}"[:200]) from None
        if not 0 <= i < len(self.actions):
            raise IllegalActionError(f"an action id must be from 0 to {len(self) - 1}; got {i}")
        return self.actions[i]

    def mask(self, legal: Sequence[Action]) -> np.ndarray:
        """A boolean array over the space, True exactly at the ids of ``legal``."""
        out = np.zeros(len(self.actions), dtype=bool)
        ids = self.ids(legal)
        out[np.fromiter(ids, np.intp, len(ids))] = True
        return out


@dataclass(frozen=True)
class GameFacts:
    """What a learner needs to know before the first step.

    ``min_utility``/``max_utility`` bound each seat's return (``State.returns()``);
    ``utility_sum`` is the sum of the returns at the end of every game (1 where each seat is
    its own team; a team's members each get its share, so players / teams in team mode);
    ``max_game_length`` is the most decisions a game can take with these options, or None
    where the rules set no bound (then ``typical_game_length`` is what random play takes at
    most over many games: a scale, not a bound)."""

    players: int
    teams: int
    min_utility: float
    max_utility: float
    utility_sum: float
    max_game_length: int | None
    typical_game_length: int
    simultaneous: bool = False  # some decisions are taken at once (played one seat at a time)

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


Part = tuple  # (ones, indices, values): what a game's encoder makes of one part of a view


class Parts:
    """What a game's encoder writes, part by part: the encoder calls
    ``parts.add(key, source, build, *args)`` for every part of the view, where ``build(*args)``
    returns the part's ``(ones, indices, values)`` (the indices whose value is 1, then other
    indices with their values) and ``source`` is the view object(s) the part is read from.

    Parts must write disjoint indices: each index of the observation belongs to one part key
    (its slice, or its entries of a slice), whatever the view; and an encoder adds every one
    of its keys at every call (a part with nothing to write builds empty lists). This writer
    builds every part and writes them at once into a cleared array (the fresh path, no memo).

    ``shared_views`` tells the encoder whether the views it is handed are never changed in
    place (a memo's, fed :meth:`State.shared_view
    <nemeton.engine.state.State.shared_view>`): only then may it keep what it made of a view
    object by that object's identity beyond ``cache``, for every observer. A fresh encoding's
    view may be edited between two calls, so it is read whole."""

    __slots__ = ("ones", "index", "values", "cache")
    shared_views = False

    def __init__(self) -> None:
        self.ones: list[int] = []
        self.index: list[int] = []
        self.values: list[float] = []
        # the encoder's own store for what it made of the pieces of a part (keyed by the
        # pieces' identity, like the parts): kept by a memo, new at every fresh encoding
        self.cache: dict[Any, Any] = {}

    def add(self, key: Any, source: Any, build: Callable[..., Part], *args: Any) -> None:
        ones, index, values = build(*args)
        self.ones += ones
        self.index += index
        self.values += values

    def write(self, out: np.ndarray) -> np.ndarray:
        out.fill(0.0)
        _write(out, self.ones, self.index, self.values)
        return out


def _write(out: np.ndarray, ones: list[int], index: list[int], values: list[float]) -> None:
    """Two vectorised writes through ``np.fromiter`` (a third faster than NumPy's fancy
    indexing with a Python list)."""
    if ones:
        out[np.fromiter(ones, np.intp, len(ones))] = 1.0
    if index:
        out[np.fromiter(index, np.intp, len(index))] = np.fromiter(values, np.float32, len(values))


def _same(kept: Any, source: Any) -> bool:
    """Whether a part's source is the one it was built from: the same object, or a tuple of
    the same objects (compared by identity, never by value)."""
    if kept is source:
        return True
    return (type(kept) is tuple and type(source) is tuple and len(kept) == len(source)
            and all(map(operator.is_, kept, source)))


class ObservationMemo(Parts):
    """One observer's observation kept up to date part by part (:meth:`GameEncoding.encode`
    with ``memo=``): a part whose source is the same object(s) as at the previous call is
    neither read nor written again; a part whose source changed has its old indices cleared
    and its new ones written. With :meth:`State.shared_view
    <nemeton.engine.state.State.shared_view>` (unchanged parts handed out as the same
    objects) most of a view is skipped at each step. A part with ``source`` None is built at
    every call. Sources are held here, so no other object can take their identity."""

    __slots__ = ("array", "parts", "seat", "clear", "skipped")
    shared_views = True   # a memo must only see views never changed in place

    def __init__(self, size: int) -> None:
        super().__init__()
        self.array = np.zeros(size, dtype=np.float32)
        self.parts: dict[Any, tuple[Any, list[int]]] = {}
        self.seat: Any = ()   # the observer the array is for (() = none yet)
        self.clear: list[int] = []
        self.skipped = False  # whether a part was kept at this call (else the array is cleared whole)

    def add(self, key: Any, source: Any, build: Callable[..., Part], *args: Any) -> None:
        kept = self.parts.get(key)
        if kept is not None:
            was = kept[0]
            if was is source and source is not None or type(source) is tuple and _same(was, source):
                self.skipped = True
                return
            self.clear += kept[1]
        ones, index, values = build(*args)
        self.ones += ones
        self.index += index
        self.values += values
        self.parts[key] = (source, [*ones, *index])

    def update(self, out: np.ndarray | None) -> np.ndarray:
        array = self.array
        if not self.skipped:    # every part was made again: clearing it all is cheaper
            array.fill(0.0)
        elif self.clear:
            array[np.fromiter(self.clear, np.intp, len(self.clear))] = 0.0
        self.skipped = False
        ones, index = self.ones, self.index
        if ones or index:   # one write for both (no index is in both: each is one part's)
            values = [1.0] * len(ones)
            values += self.values
            ones += index
            array[np.fromiter(ones, np.intp, len(ones))] = np.fromiter(values, np.float32, len(values))
        self.clear, self.ones, self.index, self.values = [], [], [], []
        if out is None:
            return array.copy()
        out[:] = array
        return out

    def reset(self, seat: Any) -> None:
        self.array.fill(0.0)
        self.parts.clear()
        self.cache.clear()
        self.clear, self.ones, self.index, self.values = [], [], [], []
        self.skipped = False
        self.seat = seat


class GameEncoding:
    """One game's integers and tensors for one set of options (built once per options by the
    game's ``encoding_for``).

    A game's encoder, ``encode(view, parts)``, reads a view and hands each part of it to
    ``parts.add`` (:class:`Parts`): the fresh path builds them all into a cleared array; an
    :class:`ObservationMemo` rebuilds only the parts whose source changed."""

    def __init__(self, options: Any, actions: ActionSpace, layout: ObservationLayout, facts: GameFacts,
                 encode: Callable[[Mapping[str, Any], Parts], None]):
        self.options = options
        self.actions = actions
        self.layout = layout
        self.facts = facts
        self._encode = encode

    def new_memo(self) -> ObservationMemo:
        """A memo for :meth:`encode`: one per observer, kept across its observations (of one
        game or of several: what it keeps is checked by identity at every use)."""
        return ObservationMemo(self.layout.size)

    @property
    def observation_size(self) -> int:
        return self.layout.size

    def encode(self, view: Mapping[str, Any], out: np.ndarray | None = None,
               memo: ObservationMemo | None = None) -> np.ndarray:
        """The observation of ``view``'s seat (float32, :attr:`observation_size` long), written
        into ``out`` when given and returned (a new array otherwise).

        ``memo`` (from :meth:`new_memo`, one per observer, kept between calls) keeps the
        observation and what each part of the view gave, keyed by the part's identity: with
        the state's :meth:`~nemeton.engine.state.State.shared_view`, whose unchanged parts
        are the same objects from one step to the next, only the parts that changed are read
        again. The observation is the same with or without it (the memo must then only see
        views that are never changed in place, as shared views are not)."""
        if memo is None:
            parts = Parts()
            self._encode(view, parts)
            return parts.write(np.zeros(self.layout.size, dtype=np.float32) if out is None else out)
        if memo.array.shape[0] != self.layout.size:
            raise ValueError("this memo was made by another encoding (new_memo of this one)")
        seat = view["seat"]
        if memo.seat != seat:
            memo.reset(seat)
        try:
            self._encode(view, memo)
        except BaseException:
            memo.reset(())   # a view the encoder could not read leaves the memo as new
            raise
        return memo.update(out)


def relative_seats(seat: int | None, players: int) -> list[int]:
    """``order[k]`` = the absolute seat at relative position k for ``seat`` (the spectator
    sees seats in their own order): the observer first, then in turn order."""
    me = 0 if seat is None else seat
    return [(me + k) % players for k in range(players)]


def position_of(seat: int | None, players: int) -> list[int]:
    """``position[s]`` = the relative position of absolute seat ``s`` for ``seat``."""
    me = 0 if seat is None else seat
    return [(s - me) % players for s in range(players)]
