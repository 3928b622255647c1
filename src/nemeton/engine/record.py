"""Game records: options + seed + the list of (seat, action). Replaying one reproduces the game.

The JSON form is self-contained (options hold data, never paths) and versioned::

    {"format": 1, "game": "alarun", "rules_version": 1, "options": {...}, "seed": 7,
     "actions": [{"seat": 0, "action": {"type": "pass"}}, ...]}

``format`` is the layout of this object (:data:`RECORD_FORMATS` lists the ones this Nemeton
reads); ``rules_version`` is the game's :attr:`GameSpec.rules_version` when the record was
made: a record of other rules would replay differently, so it is refused. Reading a record
checks everything before anything is replayed (types, seats in range, the seed, sizes; the
options first, so that each action is looked up among the actions of the record's own options,
a card of its deck or a sanctuary of its board), and every problem is a :class:`RecordError`
that says what is wrong.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from . import checks
from .action import Action
from .errors import NemetonError, RecordError, clip, snippet
from .state import State

RECORD_FORMAT = 1  # what ``to_json`` writes
RECORD_FORMATS = (1,)  # what ``from_json`` reads
MAX_RECORD_ACTIONS = 100_000
MAX_RECORD_CHARS = 20_000_000  # 100,000 actions of ~100 characters, and data options
_KEYS = ("format", "game", "rules_version", "options", "seed", "actions")


@dataclass
class GameRecord:
    game: str
    options: dict[str, Any]
    seed: int | None  # None: a record of a determinized state, which cannot be replayed
    actions: list[tuple[int, Action]]
    rules_version: int | None = None  # None = the game's current rules

    def __post_init__(self) -> None:
        if self.rules_version is None:
            from .registry import get_game
            self.rules_version = get_game(self.game).rules_version

    def to_json(self) -> dict[str, Any]:
        return {
            "format": RECORD_FORMAT,
            "game": self.game,
            "rules_version": self.rules_version,
            "options": dict(self.options),
            "seed": self.seed,
            "actions": [{"seat": seat, "action": a.to_json()} for seat, a in self.actions],
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"))

    @classmethod
    def from_json(cls, data: Any) -> "GameRecord":
        """A record from its JSON form, every part checked (RecordError says what is wrong)."""
        from .registry import check_seed, get_game
        if not isinstance(data, dict):
            checks.fail("a game record", "a JSON object", data)
        _check_format(data)
        missing = [key for key in _KEYS if key not in data]
        if missing:
            raise RecordError(f"a game record needs the keys {', '.join(_KEYS)}; missing {', '.join(missing)}")
        unknown = [snippet(key, 30) for key in data if key not in _KEYS]
        if unknown:
            raise RecordError(f"a game record has only the keys {', '.join(_KEYS)}; "
                              f"unexpected {', '.join(unknown[:5])}")
        spec = get_game(data["game"])
        version = data["rules_version"]
        if version != spec.rules_version or not checks.is_int(version):
            raise RecordError(
                f"this record was made for {spec.name} rules version {snippet(version)}; this Nemeton "
                f"replays {spec.name} records of rules version {spec.rules_version} only")
        options = data["options"]
        if not (isinstance(options, dict) and all(isinstance(k, str) for k in options)):
            checks.fail("a record's options", "a JSON object", options)
        try:
            checked = spec.options(**options)
        except NemetonError as exc:
            raise RecordError(f"the record's options are invalid: {exc}") from None
        seed = None if data["seed"] is None else check_seed(data["seed"])
        return cls(spec.name, checked.to_json(), seed, _read_actions(spec, data["actions"], checked), spec.rules_version)

    @classmethod
    def loads(cls, text: str | bytes) -> "GameRecord":
        if isinstance(text, (bytes, bytearray)):
            try:
                text = bytes(text).decode("utf-8")
            except UnicodeDecodeError as exc:
                raise RecordError(f"a game record must be UTF-8 text: {exc}") from None
        if not isinstance(text, str):
            raise RecordError(f"a game record must be JSON text; got a {type(text).__name__}")
        if len(text) > MAX_RECORD_CHARS:
            raise RecordError(f"this game record is {len(text):,} characters long; "
                              f"at most {MAX_RECORD_CHARS:,} are allowed")
        try:
            data = json.loads(text, parse_constant=_no_constant)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not JSON: {exc}") from None
        except (ValueError, RecursionError) as exc:  # 5,000-digit numbers, NaN, deep nesting
            raise RecordError(f"not a JSON game record: {type(exc).__name__}: {clip(str(exc), 80)}") from None
        return cls.from_json(data)

    def replay(self, upto: int | None = None) -> State:
        """The state after the first ``upto`` actions (all by default), every action checked."""
        from .registry import check_seed, get_game
        if self.seed is None:
            raise RecordError("this record has no seed (a determinized state?) and cannot be replayed")
        if upto is not None and not (checks.is_int(upto) and upto >= 0):
            checks.fail("upto", "a number of actions (0 or more)", upto)
        spec = get_game(self.game)
        if self.rules_version != spec.rules_version:
            raise RecordError(f"this record was made for {spec.name} rules version {snippet(self.rules_version)}; "
                              f"this Nemeton replays version {spec.rules_version} only")
        if not (isinstance(self.options, dict) and all(isinstance(k, str) for k in self.options)):
            raise RecordError(f"a record's options must map option names to values; got {snippet(self.options)}")
        try:
            options = spec.options(**self.options)
        except NemetonError as exc:
            raise RecordError(f"the record's options are invalid: {exc}") from None
        if not isinstance(self.actions, list):
            checks.fail("a record's actions", "a list", self.actions)
        state = spec.new_state(options, check_seed(self.seed))
        for i, entry in enumerate(self.actions[:upto]):
            if not (isinstance(entry, (tuple, list)) and len(entry) == 2 and isinstance(entry[1], Action)):
                raise RecordError(f"record action {i} is not a (seat, action) pair: {snippet(entry)}")
            seat, action = entry
            try:
                state.apply(action, seat)
            except NemetonError as exc:  # an illegal action, a seat that is not one
                raise RecordError(f"record action {i} ({clip(str(action), 80)}) cannot be replayed: {exc}") from None
        return state


def _check_format(data: dict[str, Any]) -> None:
    supported = ", ".join(map(str, RECORD_FORMATS))
    if "format" not in data:
        raise RecordError(f"this is not a Nemeton game record of a known format (it has no 'format' key); "
                          f"this Nemeton reads record formats {supported}")
    fmt = data["format"]
    if not checks.is_int(fmt) or fmt not in RECORD_FORMATS:
        raise RecordError(f"unsupported game record format {snippet(fmt)}; this Nemeton reads record formats {supported}")


def _read_actions(spec: Any, entries: Any, options: Any) -> list[tuple[int, Action]]:
    """The (seat, action) pairs of a record, each action looked up among those of the record's
    own (validated) options: a card of its deck, a sanctuary of its board."""
    players = options.players
    if not isinstance(entries, list):
        checks.fail("a record's actions", "a list", entries)
    if len(entries) > MAX_RECORD_ACTIONS:
        raise RecordError(f"a record holds at most {MAX_RECORD_ACTIONS:,} actions; this one has {len(entries):,}")
    actions = []
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict) or set(entry) != {"seat", "action"}:
            raise RecordError(f"record action {i} must be an object with exactly 'seat' and 'action'; "
                              f"got {snippet(entry)}")
        seat = checks.seat(entry["seat"], f"record action {i}: the seat", players)
        try:
            actions.append((seat, spec.action_from_json(entry["action"], options)))
        except RecordError as exc:
            raise RecordError(f"record action {i}: {exc}") from None
    return actions


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number JSON allows")
