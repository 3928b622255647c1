"""Load benchmark of the game server: N concurrent rooms played to the end over WebSockets.

    python -m nemeton.server.bench --rooms 200 --game amarok --players 3 --agents random
    python -m nemeton.server.bench --rooms 50 --db postgresql+psycopg://...

Starts ``nemeton serve`` (no rate limit) on a free loopback port, on a fresh SQLite file unless
``--db`` is given; creates the rooms (seat 0 a person played by this script with random legal
actions, the other seats agents); plays them all at once; then checks every room's record.
Reports rooms, moves (all seats) per second, and p50/p99 latency from an action sent to its
acknowledgement received (the seat's new view is pushed just before it), which excludes the
agents' think time; errors; and lost moves (acknowledged but not in the record).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def _play(base: str, ws_base: str, game: str, players: int, agents: str, rng: random.Random,
                latencies: list[float], errors: list[str], think: float = 0.0) -> tuple[str, int]:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        created = (await http.post("/api/rooms", json={
            "game": game, "options": {"players": players},
            "seats": [{"kind": "human", "name": "bench"}] + [{"kind": "ai", "agent": agents}] * (players - 1)})).json()
    room, token = created["room"], created["seats"][0]["token"]
    acknowledged = 0
    async with connect(f"{ws_base}/ws/rooms/{room}?token={token}", max_size=None) as ws:
        sent_at = None
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == "seats":  # who is connected: nothing to answer
                continue
            if message["type"] == "ok":
                latencies.append(time.perf_counter() - sent_at)
                acknowledged += 1
                sent_at = None
            elif message["type"] == "error":
                if message["status"] != 409:
                    errors.append(message["message"])
                sent_at = None
            elif message["finished"]:
                return room, acknowledged
            if message["type"] == "state":
                state = message
            if sent_at is None and state["legal_actions"] and not state["finished"]:
                if think:
                    await asyncio.sleep(rng.uniform(0, 2 * think))  # a person's think time
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "action", "action": rng.choice(state["legal_actions"]),
                                          "version": state["version"]}))


async def _run(args: argparse.Namespace, base: str) -> dict:
    ws_base = base.replace("http://", "ws://")
    latencies: list[float] = []
    errors: list[str] = []
    rng = random.Random(args.seed)
    started = time.perf_counter()
    results = await asyncio.gather(*(
        _play(base, ws_base, args.game, args.players, args.agents, random.Random(rng.random()), latencies, errors,
              args.think)
        for _ in range(args.rooms)), return_exceptions=True)
    seconds = time.perf_counter() - started
    moves = lost = 0
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        for result in results:
            if isinstance(result, BaseException):
                errors.append(f"{type(result).__name__}: {result}")
                continue
            room, acknowledged = result
            record = (await http.get(f"/api/rooms/{room}/record")).json()
            moves += len(record["actions"])
            lost += max(0, acknowledged - sum(1 for a in record["actions"] if a["seat"] == 0))
    latencies.sort()

    def pick(q: float) -> float | None:
        return round(1000 * latencies[min(len(latencies) - 1, int(q * len(latencies)))], 2) if latencies else None
    return {"rooms": args.rooms, "game": args.game, "players": args.players, "agents": args.agents,
            "think_s": args.think,
            "seconds": round(seconds, 2), "moves": moves, "moves_per_s": round(moves / seconds, 1),
            "people_actions": len(latencies), "p50_ms": pick(0.5), "p99_ms": pick(0.99),
            "errors": len(errors), "first_errors": errors[:3], "lost_moves": lost}


def _cpu_seconds(pid: int) -> float | None:
    """The CPU time a process has used so far (Linux), None where it cannot be read."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--game", default="amarok")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--agents", default="random", help="the agent spec of the other seats")
    parser.add_argument("--db", default=None, help="SQLAlchemy URL (default: a fresh SQLite file)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--think", type=float, default=0.0,
                        help="the scripted person's mean think time in seconds (0: act at once, saturating the server)")
    parser.add_argument("--url", default=None,
                        help="benchmark a server already running there (e.g. http://127.0.0.1:8000)")
    args = parser.parse_args(argv)
    if args.url:
        report = asyncio.run(_run(args, args.url.rstrip("/")))
        report["database"] = "the server's"
        print(json.dumps(report, indent=2))
        return
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{Path(tmp) / 'bench.db'}"
        port = _free_port()
        log = open(Path(tmp) / "server.log", "w")
        server = subprocess.Popen([sys.executable, "-c", "from nemeton.cli import main; main()", "serve",
                                   "--port", str(port), "--db", db, "--rate-limit", "0"],
                                  stdout=log, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(300):
                try:
                    if httpx.get(f"{base}/api/rooms", timeout=1).status_code == 200:
                        break
                except httpx.TransportError:
                    time.sleep(0.1)
            report = asyncio.run(_run(args, base))
            cpu = _cpu_seconds(server.pid)
            if cpu is not None and report["moves"]:
                report["server_cpu_s"] = round(cpu, 2)
                report["server_cpu_ms_per_move"] = round(1000 * cpu / report["moves"], 2)
        finally:
            server.kill()
            server.wait()
    report["database"] = "sqlite" if args.db is None else args.db.split(":", 1)[0]
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
