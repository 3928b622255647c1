"""Two server processes on one database: submissions racing for one turn through different
processes never both apply (the database's version check decides), and the loser's process
rebuilds the room from the database."""

from __future__ import annotations

import threading

import httpx
import pytest
from test_crash import free_port, start_server


def race(bases, room, tokens, seat, actions):
    barrier = threading.Barrier(len(bases))
    answers = [None] * len(bases)

    def submit(i):
        barrier.wait()
        answers[i] = httpx.post(f"{bases[i]}/api/rooms/{room}/actions",
                                json={"token": tokens[seat], "action": actions[i]}, timeout=10)

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
            moves = httpx.get(f"{bases[0]}/api/rooms/{room}/view").json()["moves"]
            answers = race(bases, room, tokens, seat, [legal[0], legal[-1]])
            codes = sorted(a.status_code for a in answers)
            assert codes == [200, 409], [a.text for a in answers]
            winner = answers[[a.status_code for a in answers].index(200)].json()
            assert winner["moves"] == moves + 1
            # both processes now serve the same room: the loser rebuilt it from the database
            views = [httpx.get(f"{b}/api/rooms/{room}/view").json() for b in bases]
            assert views[0]["moves"] == views[1]["moves"] == moves + 1 and views[0]["view"] == views[1]["view"]
    finally:
        for proc, _ in servers:
            proc.kill()
            proc.wait()
