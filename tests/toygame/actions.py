"""The one action kind: bet (or call) and check (or fold)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from nemeton.engine import Action, ActionCodec


@dataclass(frozen=True, slots=True)
class Bet(Action):
    kind: ClassVar[str] = "bet"
    bet: bool

    def __str__(self):
        return "bet" if self.bet else "check"


BET, CHECK = Bet(True), Bet(False)
CODEC = ActionCodec([Bet], intern=lambda a: BET if a.bet else CHECK)
