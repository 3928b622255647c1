"""Take-backs: may a seat take back its last action? Only while nothing new has been revealed
to anyone and no other seat has acted since.

"Nothing revealed" is decided from the engine protocol alone, for any game: the action drew
on no chance (the state's random stream did not move), and for every seat, re-sampling the
hidden part from that seat's view before the action (the game's determinizer) and applying
the same action always gives that seat the same view as it has now. If the action told some
seat something it could not have known (a card drawn, a hidden card played or looked at),
some sample differs, or the action is not even legal in it, and the take-back is refused.
"""

from __future__ import annotations

import json
import random
from typing import Any

from ..engine import Action, GameSpec, NemetonError, State
from ..engine.log import seat_ref

SAMPLES = 8  # re-sampled hidden parts per seat


def _same(view: Any) -> str:
    return json.dumps(view, sort_keys=True)


def what_it_revealed(spec: GameSpec, before: State, after: State, seat: int, action: Action) -> str | None:
    """Why ``action`` by ``seat`` (which took ``before`` to ``after``) revealed something,
    or None if it revealed nothing to anyone."""
    if before.rng.getstate() != after.rng.getstate():
        return "it drew on chance"
    for viewer in range(after.num_players):
        told = _same(after.view(viewer))
        knew = before.view(viewer)
        rng = random.Random(len(before.history) * 1000 + viewer)
        for _ in range(SAMPLES):
            try:
                sample = spec.determinize(knew, rng)
                if action not in sample.legal_actions(seat):
                    return _whom(viewer, seat)
                sample.apply(action, seat)
            except NemetonError:
                return "it could not be checked"
            if _same(sample.view(viewer)) != told:
                return _whom(viewer, seat)
    return None


def _whom(viewer: int, seat: int) -> str:
    return "it showed you something new" if viewer == seat else f"it showed {seat_ref(viewer)} something new"
