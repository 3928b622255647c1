"""Golden playthroughs: the observable contract of a game, recorded step by step.

A playthrough plays one seeded game with seeded random choices and writes, at every step,
the acting seats, every seat's and the spectator's view, the legal actions of each acting
seat, the action taken, and the new log entries per viewer; at the end the scores and
returns. The web client and the RL encoders are built against this contract (as OpenSpiel's
playthroughs are), so a change to it must be deliberate: ``scripts/playthroughs.py``
regenerates the files under ``tests/playthroughs/`` and ``tests/test_playthroughs.py``
compares them with a fresh run.

The text format has one ``<key> <JSON>`` line per fact, so a review diff shows exactly which
viewer's view or log changed at which step::

    # nemeton playthrough 1
    game "alarun"
    options {"players": 2}
    seed 3
    step 0
    acting [0]
    view spectator {...}
    view 0 {...}
    legal 0 [{"type": "pass"}, ...]
    action 0 {"type": "pass"}
    log spectator [{"i": 0, ...}]
    log 0 [...]
    ...
    scores [...]
    returns [...]
"""

from __future__ import annotations

import json
import random
from typing import Any, Iterator, Mapping

from .registry import get_game

FORMAT = 1


def _dump(value: Any) -> str:
    return json.dumps(value, sort_keys=False, separators=(",", ":"), ensure_ascii=False)


def _label(viewer: int | None) -> str:
    return "spectator" if viewer is None else str(viewer)


def playthrough_lines(game: str, options: Mapping[str, Any], seed: int, choices: int = 0,
                      max_steps: int = 5000) -> Iterator[str]:
    """The playthrough of ``game`` with ``options`` and ``seed``; the actions (and which of
    several simultaneously acting seats moves) are drawn from ``random.Random(choices)``."""
    spec = get_game(game)
    state = spec.make(seed=seed, **options)
    rng = random.Random(choices)
    viewers = [None, *range(state.num_players)]
    yield f"# nemeton playthrough {FORMAT}"
    yield f"game {_dump(game)}"
    yield f"options {_dump(dict(options))}"
    yield f"seed {seed}"
    yield f"choices {choices}"
    seen = 0
    step = 0
    while True:
        yield f"step {step}"
        acting = list(state.acting())
        yield f"acting {_dump(acting)}"
        for viewer in viewers:
            yield f"view {_label(viewer)} {_dump(state.view(viewer))}"
        new = state.log_length()
        if new > seen or step == 0:
            for viewer in viewers:
                yield f"log {_label(viewer)} {_dump(state.log(viewer, since=seen))}"
            seen = new
        if state.is_terminal() or step >= max_steps:
            break
        legal = {}
        for seat in acting:
            legal[seat] = state.legal_actions(seat)
            yield f"legal {seat} {_dump([a.to_json() for a in legal[seat]])}"
        seat = acting[0] if len(acting) == 1 else rng.choice(acting)
        action = rng.choice(legal[seat])
        yield f"action {seat} {_dump(action.to_json())}"
        state.apply(action, seat)
        step += 1
    yield f"scores {_dump([float(x) for x in state.scores()])}"
    yield f"returns {_dump(state.returns())}"


def playthrough_text(game: str, options: Mapping[str, Any], seed: int, choices: int = 0) -> str:
    return "\n".join(playthrough_lines(game, options, seed, choices)) + "\n"


def golden() -> dict[str, tuple[str, dict[str, Any], int, int]]:
    """The checked-in playthroughs, from each game's ``GameSpec.playthroughs``:
    file stem (``<game>-<label>``) -> (game, options, seed, choices)."""
    from .registry import list_games
    return {f"{spec.name}-{label}": (spec.name, dict(options), seed, choices)
            for spec in list_games() for label, (options, seed, choices) in spec.playthroughs.items()}
