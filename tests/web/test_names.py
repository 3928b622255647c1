"""Seats by name, never by index, in the page: one entry of every event kind of every game,
for every viewer, and the server's refusals that name seats, drawn by the page's own
``renderParts`` (the function the log, the toasts and the score screen use), show the
players' names and no engine index; and a whole game's page (log, status, players, score
screen) as a person sees it."""

from __future__ import annotations

import re

import httpx
import pytest
from conftest import create_room, open_seat, play_by_clicks, screenshot

import nemeton
from test_seat_refs import CONFIGS, MAX_GAMES, _random_game

INDEX = re.compile(r"\b[Ss]eats? \d")
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]

RENDER = """async ([entries, seats]) => {
  const { renderParts } = await import("/static/js/common.js");
  return entries.map((e) => {
    const box = document.createElement("div");
    box.append(...renderParts(e.parts, seats, e.text));
    document.body.append(box);
    const badges = [...box.querySelectorAll(".seat-badge")].map((b) => b.textContent.trim());
    const text = box.textContent;
    box.remove();
    return { text, badges };
  });
}"""


def samples(game):
    """One entry of each (kind, viewer) of ``game``, with the players of its game."""
    spec = nemeton.get_game(game)
    found: dict[tuple, tuple[dict, int]] = {}
    unseen = set(spec.event_kinds)
    for k in range(MAX_GAMES):
        players, options = CONFIGS[game][k % len(CONFIGS[game])]
        state = _random_game(game, players, k, **options)
        for viewer in [None, *range(players)]:
            for entry in state.log(viewer):
                found.setdefault((entry["kind"], viewer), (entry, players))
        unseen -= {e.kind for e in state.events}
        if not unseen:
            break
    assert not unseen, f"{game}: never saw {sorted(unseen)}"
    return found


@pytest.mark.parametrize("game", sorted(CONFIGS))
def test_every_event_kind_is_drawn_in_the_page_with_names_and_no_index(server, page, game):
    room, _tokens, _ = create_room(server, game, ["random"] * min(nemeton.get_game(game).player_counts))
    open_seat(page, server, room)
    found = samples(game)
    by_players: dict[int, list] = {}
    for (kind, viewer), (entry, players) in found.items():
        by_players.setdefault(players, []).append((kind, viewer, entry))
    checked = 0
    for players, items in by_players.items():
        seats = [{"seat": s, "name": NAMES[s]} for s in range(players)]
        drawn = page.evaluate(RENDER, [[e for _, _, e in items], seats])
        for (kind, viewer, entry), out in zip(items, drawn):
            where = f"{game} {kind} for viewer {viewer}: {out['text']!r}"
            assert not INDEX.search(out["text"]), where
            assert "\ue000" not in out["text"] and "\ue001" not in out["text"], where
            named = [p["seat"] for p in entry["parts"] if isinstance(p, dict)]
            assert len(out["badges"]) == len(named), where  # each seat as its badge: symbol and name
            assert all(b.endswith(NAMES[s]) for b, s in zip(out["badges"], named)), where
            checked += 1
    assert checked >= len(nemeton.get_game(game).event_kinds)


def test_the_servers_refusals_are_drawn_with_names(server, page):
    room, tokens, _ = create_room(server, "amarok", ["human", "human", "human"], undo=True)
    open_seat(page, server, room, tokens[0])
    snap = httpx.get(f"{server.base}/api/rooms/{room}/view").json()
    mover = snap["acting"][0]
    other = next(s for s in tokens if s != mover)
    legal = httpx.get(f"{server.base}/api/rooms/{room}/view", params={"token": tokens[mover]}).json()["legal_actions"]
    refusals = []
    r = httpx.post(f"{server.base}/api/rooms/{room}/actions", json={"token": tokens[other], "action": legal[0]})
    refusals.append(r.json())  # not your turn: waiting for <the mover>
    httpx.post(f"{server.base}/api/rooms/{room}/actions", json={"token": tokens[mover], "action": legal[0]})
    for token in tokens.values():  # take-backs refused: another seat has acted / it showed <seat> something new
        refusals.append(httpx.post(f"{server.base}/api/rooms/{room}/undo", json={"token": token}).json())
    bad = httpx.post(f"{server.base}/api/rooms/{room}/actions",
                     json={"token": tokens[mover], "action": {"kind": "nonsense"}}).json()
    refusals.append(bad)
    entries = [{"parts": r["parts"], "text": r["detail"]} for r in refusals if "parts" in r]
    assert len(entries) == len(refusals) and any(isinstance(p, dict) for e in entries for p in e["parts"])
    seats = [{"seat": s, "name": NAMES[s]} for s in range(3)]
    for entry, out in zip(entries, page.evaluate(RENDER, [entries, seats])):
        assert not INDEX.search(out["text"]) and "\ue000" not in out["text"], out


def test_a_team_game_of_amarok_ends_with_the_team_named_by_its_players(server, page):
    room, tokens, _ = create_room(server, "amarok", ["human", "heuristic", "heuristic", "heuristic"], teams=True)
    open_seat(page, server, room, tokens[0])
    play_by_clicks(page, seed=2, timeout=150)
    winner = page.text_content("#score-winner")
    names = [s["name"] for s in page.evaluate("window.nemeton.snapshot.seats")]
    assert names[1:] == ["Birch (AI)", "Cedar (AI)", "Hazel (AI)"]  # AI seats are named, not numbered
    assert not INDEX.search(winner), winner
    assert "team" in winner.lower() and sum(n in winner for n in names) + winner.lower().count("you") >= 2, winner
    assert not INDEX.search(page.text_content("#log-list"))
    assert not INDEX.search(page.text_content("#score-body"))
    screenshot(page, "amarok-teams-end")
