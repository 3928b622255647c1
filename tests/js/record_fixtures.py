"""Record the snapshots the JavaScript tests draw (tests/js/fixtures/<game>.json): real games
played by seeded random moves, each seat's and the spectator's view at a few points (and, for
the games listed in EVERY_DECISION, the acting seat's view at the first decision offering each
kind of action: Edora's moves are made of one to three clicks), in the shape a room's WebSocket sends them (nemeton.server.rooms.Room.snapshot: view, acting,
legal_actions, log, terminal, seats); each play once with the game's public components.

    .venv/bin/python tests/js/record_fixtures.py    # rewrites the fixtures
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from nemeton.engine import get_game

OUT = Path(__file__).resolve().parent / "fixtures"
NAMES = ["Ann", "Bob", "Cleo", "Dara", "Emrys", "Fionn"]

# game -> its plays: (label, options, seed of the game and of its random moves)
GAMES: dict[str, list[tuple[str, dict[str, Any], int]]] = {
    "amarok": [("three", {"players": 3}, 11), ("teams", {"players": 4, "teams": True}, 5)],
    "alarun": [("three", {"players": 3}, 3)],
    "edora": [("two", {"players": 2}, 2)],
}
EVERY_DECISION = {"edora"}


def snapshot(state: Any, seat: int | None, players: int) -> dict[str, Any]:
    legal = [] if seat is None else state.legal_actions(seat)
    return {
        "view": state.view(seat),
        "acting": list(state.acting()),
        "legal_actions": [a.to_json() for a in legal],
        "log": state.log(seat),
        "terminal": state.is_terminal(),
        "seat": seat,
        "seats": [{"seat": s, "name": NAMES[s], "kind": "human", "connected": True} for s in range(players)],
    }


def record(game: str, label: str, options: dict[str, Any], seed: int) -> dict[str, Any]:
    spec = get_game(game)
    rng = random.Random(seed)
    trial = spec.make(seed=seed, **options).record_events()
    moves: list[tuple[int, Any]] = []
    kinds: set[str] = set()
    decisions: set[int] = set()  # the first move offering each kind of action
    while not trial.is_terminal():  # the whole game first, to know its length
        seat = trial.acting()[0]
        legal = trial.legal_actions(seat)
        new = {a.to_json()["type"] for a in legal} - kinds
        if new and game in EVERY_DECISION:
            kinds |= new
            decisions.add(len(moves))
        action = rng.choice(legal)
        moves.append((seat, action))
        trial.apply(action, seat)
    # the start, the middle and the end: seen by seat 0, by whoever acts and by the spectator
    keep = {1, len(moves) // 2, len(moves)}
    state = spec.make(seed=seed, **options).record_events()
    players = state.num_players
    out = []
    for k in range(len(moves) + 1):
        if k in keep:
            seats = sorted({0, *state.acting()}) if not state.is_terminal() else [0]
            for seat in [*seats, None]:
                out.append({"moves": k, **snapshot(state, seat, players)})
        elif k in decisions:
            out.append({"moves": k, **snapshot(state, state.acting()[0], players)})
        if k < len(moves):
            state.apply(moves[k][1], moves[k][0])
    return {"game": game, "label": label, "options": options, "seed": seed,
            "components": spec.public_data(spec.options(**options)), "snapshots": out}


def main() -> None:
    OUT.mkdir(exist_ok=True)
    for game, plays in GAMES.items():
        games = [record(game, label, options, seed) for label, options, seed in plays]
        path = OUT / f"{game}.json"
        path.write_text(json.dumps(games, separators=(",", ":"), sort_keys=True) + "\n", encoding="utf-8")
        print(f"{path}: {sum(len(g['snapshots']) for g in games)} snapshots, {path.stat().st_size // 1024} KiB")


if __name__ == "__main__":
    main()
