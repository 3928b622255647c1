"""Two server processes on one database: submissions racing for one turn through different
processes never both apply (the database's version check decides), and the loser's process
rebuilds the room from the database."""

from __future__ import annotations

import json
import threading

import httpx
import pytest
from test_crash import free_port, start_server
from websockets.sync.client import connect


def recv_state(ws):
    """The next "state" message of a WebSocket (skipping notices of who is connected)."""
    while True:
        message = json.loads(ws.recv(timeout=10))
        if message["type"] != "seats":
            return message


def race(bases, room, tokens, seat, actions, version):
    """Both processes are sent an action for the same turn (the version it was chosen on)."""
    barrier = threading.Barrier(len(bases))
    answers = [None] * len(bases)

    def submit(i):
        barrier.wait()
        answers[i] = httpx.post(f"{bases[i]}/api/rooms/{room}/actions",
                                json={"token": tokens[seat], "action": actions[i], "version": version}, timeout=10)

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(len(bases))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return answers


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_two_processes_racing_for_one_turn_apply_it_once(tmp_path, backend, request):
    if backend == "sqlite":
        url = f"sqlite:///{tmp_path / 'shared.db'}"
    else:
        url = request.getfixturevalue("postgres")()
    servers = [start_server(url, free_port(), tmp_path) for _ in range(2)]
    bases = [base for _, base in servers]
    try:
        created = httpx.post(f"{bases[0]}/api/rooms", json={
            "game": "edora", "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
        room, tokens = created["room"], {s["seat"]: s["token"] for s in created["seats"]}
        for _ in range(5):  # five turns, each raced by both processes
            seat = next(s for s, t in tokens.items()
                        if httpx.get(f"{bases[0]}/api/rooms/{room}/view", params={"token": t}).json()["legal_actions"])
            legal = httpx.get(f"{bases[0]}/api/rooms/{room}/view", params={"token": tokens[seat]}).json()["legal_actions"]
            public = httpx.get(f"{bases[0]}/api/rooms/{room}/view").json()
            moves = public["moves"]
            answers = race(bases, room, tokens, seat, [legal[0], legal[-1]], public["version"])
            codes = sorted(a.status_code for a in answers)
            # the loser is refused: stale (409) if it validated first, or illegal (400) if its
            # process had already heard of the winner's move (NOTIFY, or the SQLite poll)
            assert codes[0] == 200 and codes[1] in (400, 409), [a.text for a in answers]
            winner = answers[[a.status_code for a in answers].index(200)].json()
            assert winner["moves"] == moves + 1
            # both processes now serve the same room: the loser rebuilt it from the database
            views = [httpx.get(f"{b}/api/rooms/{room}/view").json() for b in bases]
            assert views[0]["moves"] == views[1]["moves"] == moves + 1 and views[0]["view"] == views[1]["view"]
    finally:
        for proc, _ in servers:
            proc.kill()
            proc.wait()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_watcher_on_one_process_sees_moves_made_through_another(tmp_path, backend, request):
    """A seat's WebSocket on process A is pushed the move its opponent makes through process B
    (PostgreSQL announces it with NOTIFY; on SQLite process A finds it by polling), and both
    processes then serve the same state and legal actions."""
    if backend == "sqlite":
        url = f"sqlite:///{tmp_path / 'shared.db'}"
    else:
        url = request.getfixturevalue("postgres")()
    servers = [start_server(url, free_port(), tmp_path) for _ in range(2)]
    (_, base_a), (_, base_b) = servers
    try:
        created = httpx.post(f"{base_a}/api/rooms", json={
            "game": "edora", "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
        room, tokens = created["room"], {s["seat"]: s["token"] for s in created["seats"]}
        mover = next(s for s, t in tokens.items()
                     if httpx.get(f"{base_b}/api/rooms/{room}/view", params={"token": t}).json()["legal_actions"])
        watcher = 1 - mover
        with connect(f"ws://{base_a.removeprefix('http://')}/ws/rooms/{room}?token={tokens[watcher]}") as ws:
            first = recv_state(ws)
            assert first["moves"] == 0 and first["legal_actions"] == []
            legal = httpx.get(f"{base_b}/api/rooms/{room}/view", params={"token": tokens[mover]}).json()["legal_actions"]
            answer = httpx.post(f"{base_b}/api/rooms/{room}/actions", json={"token": tokens[mover], "action": legal[0]})
            assert answer.status_code == 200, answer.text
            pushed = recv_state(ws)
            assert pushed["moves"] == 1 and pushed["version"] == answer.json()["version"]
            assert [e["seat"] for e in pushed["log"]].count(mover) >= 1  # the move's own event
        views = [httpx.get(f"{b}/api/rooms/{room}/view", params={"token": tokens[watcher]}).json() for b in (base_a, base_b)]
        assert views[0]["view"] == views[1]["view"] and views[0]["legal_actions"] == views[1]["legal_actions"]
    finally:
        for proc, _ in servers:
            proc.kill()
            proc.wait()
