"""Crash test: the server as a subprocess is killed with SIGKILL in the middle of a game (with
requests in flight); restarted on the same database it still holds every acknowledged move,
and the game finishes with the same tokens."""

from __future__ import annotations

import json
import random
import socket
import subprocess
import sys
import threading
import time

import httpx
import pytest
from websockets.sync.client import connect


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db_url, port, tmp_path):
    log = open(tmp_path / f"server-{time.monotonic_ns()}.log", "w")
    proc = subprocess.Popen([sys.executable, "-c", "from nemeton.cli import main; main()", "serve",
                             "--port", str(port), "--db", db_url, "--rate-limit", "0"], stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"the server exited with {proc.returncode}: {(tmp_path / log.name).read_text()[-2000:]}")
        try:
            if httpx.get(f"{base}/api/rooms", timeout=1).status_code == 200:
                return proc, base
        except httpx.TransportError:
            time.sleep(0.05)
    proc.kill()
    pytest.fail("the server did not start within 30 s")


def play(base, room, tokens, rng, acknowledged, stop_after=None):
    """Random moves for the people; each acknowledged move is noted as (moves, seat, action)."""
    with httpx.Client(base_url=base, timeout=10) as http:
        while stop_after is None or len(acknowledged) < stop_after:
            snaps = {s: http.get(f"/api/rooms/{room}/view", params={"token": t, "since": 10**9}).json()
                     for s, t in tokens.items()}
            if any(s["terminal"] for s in snaps.values()):
                return True
            for seat, snap in snaps.items():
                if snap["legal_actions"]:
                    action = rng.choice(snap["legal_actions"])
                    r = http.post(f"/api/rooms/{room}/actions", json={"token": tokens[seat], "action": action})
                    if r.status_code == 200:
                        acknowledged.append((r.json()["moves"], seat, action))
    return False


def test_killed_server_loses_no_acknowledged_move_and_the_game_finishes(tmp_path):
    db_url = f"sqlite:///{tmp_path / 'crash.db'}"
    port = free_port()
    proc, base = start_server(db_url, port, tmp_path)
    rng = random.Random(9)
    acknowledged: list = []
    try:
        created = httpx.post(f"{base}/api/rooms", json={
            "game": "alarun", "options": {"players": 2, "action_cap": 30},
            "seats": [{"kind": "human", "name": "A"}, {"kind": "human", "name": "B"}]}).json()
        room = created["room"]
        tokens = {s["seat"]: s["token"] for s in created["seats"]}
        play(base, room, tokens, rng, acknowledged, stop_after=10)
        # more moves in flight on another thread while the server is killed
        racing = threading.Thread(target=lambda: _swallow(play, base, room, tokens, random.Random(1), acknowledged))
        racing.start()
        time.sleep(0.15)
    finally:
        proc.kill()  # SIGKILL: no shutdown, no flush
        proc.wait()
    racing.join()
    assert len(acknowledged) >= 10
    proc, base = start_server(db_url, port, tmp_path)
    try:
        record_so_far = []
        with httpx.Client(base_url=base, timeout=10) as http:
            snap = http.get(f"/api/rooms/{room}/view", params={"token": tokens[0]}).json()
            assert snap["moves"] >= max(n for n, _, _ in acknowledged)
        with connect(f"ws://127.0.0.1:{port}/ws/rooms/{room}?token={tokens[1]}") as ws:  # logged too
            assert json.loads(ws.recv(timeout=10))["moves"] == snap["moves"]
        assert play(base, room, tokens, rng, record_so_far)
        record = httpx.get(f"{base}/api/rooms/{room}/record").json()
    finally:
        proc.kill()
        proc.wait()
    stored = [(a["seat"], a["action"]) for a in record["actions"]]
    for moves, seat, action in acknowledged:  # every acknowledged move, at its place
        assert stored[moves - 1] == (seat, action)
    logs = "".join(p.read_text() for p in tmp_path.glob("server-*.log"))
    assert "GET /api/rooms/" in logs and "token=***" in logs
    assert not any(token in logs for token in tokens.values())


def _swallow(fn, *args):
    try:
        fn(*args)
    except (httpx.TransportError, ValueError):  # the server died under it
        pass
