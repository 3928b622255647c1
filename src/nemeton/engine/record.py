"""Game records: options + seed + the list of (seat, action). Replaying one reproduces the game."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .action import Action
from .errors import IllegalActionError, RecordError
from .state import State


@dataclass
class GameRecord:
    game: str
    options: dict[str, Any]
    seed: int | None
    actions: list[tuple[int, Action]]

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "options": dict(self.options),
            "seed": self.seed,
            "actions": [{"seat": seat, "action": a.to_json()} for seat, a in self.actions],
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"))

    @classmethod
    def from_json(cls, data: Any) -> "GameRecord":
        from .registry import get_game
        if not isinstance(data, dict):
            raise RecordError("a game record must be a JSON object")
        for key in ("game", "options", "seed", "actions"):
            if key not in data:
                raise RecordError(f"a game record needs the key {key!r}")
        spec = get_game(data["game"])
        actions = []
        for i, entry in enumerate(data["actions"]):
            if not isinstance(entry, dict) or "seat" not in entry or "action" not in entry:
                raise RecordError(f"record action {i} must be an object with 'seat' and 'action'")
            actions.append((int(entry["seat"]), spec.action_from_json(entry["action"])))
        return cls(data["game"], dict(data["options"]), data["seed"], actions)

    @classmethod
    def loads(cls, text: str) -> "GameRecord":
        try:
            return cls.from_json(json.loads(text))
        except json.JSONDecodeError as exc:
            raise RecordError(f"not JSON: {exc}") from None

    def replay(self, upto: int | None = None) -> State:
        """The state after the first ``upto`` actions (all by default), every action checked."""
        from .registry import get_game
        if self.seed is None:
            raise RecordError("this record has no seed (a determinized state?) and cannot be replayed")
        spec = get_game(self.game)
        state = spec.new_state(spec.options(**self.options), self.seed)
        for i, (seat, action) in enumerate(self.actions[:upto]):
            try:
                state.apply(action, seat)
            except IllegalActionError as exc:
                raise RecordError(f"record action {i} ({action}) is illegal: {exc}") from None
        return state
