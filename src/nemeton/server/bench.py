"""Load benchmark of the game server: N concurrent rooms played to the end over WebSockets.

    python -m nemeton.server.bench --rooms 200 --game amarok --players 3 --agents random
    python -m nemeton.server.bench --rooms 200 --think 3 --postgres
    python -m nemeton.server.bench --rooms 200 --think 3 --postgres --processes 2
    python -m nemeton.server.bench --rooms 200 --think 3 --postgres --processes 2 --kill-after 20
    python -m nemeton.server.bench --rooms 50 --db postgresql+psycopg://...
    python -m nemeton.server.bench --url http://127.0.0.1:8000 --agents random

Starts ``--processes`` ``nemeton serve`` processes (no rate limit, the other seats' agent
offered as ``--agent bench=SPEC``) on free loopback ports, on a fresh SQLite file unless
``--db`` is given or ``--postgres`` starts a throwaway PostgreSQL cluster (Debian's binaries,
Unix socket in a temporary directory); with several processes (or ``--proxy``) nginx runs in
front of them as a child process, routing each room to one process by a consistent hash of
its id as docs/deployment.md describes. Creates the rooms (seat 0 a person played by this
script with random legal actions, the other seats agents); plays them all at once; then
checks every room's record. Reports rooms, moves (all seats) per second, and p50/p99
latency from an action sent to its acknowledgement received (the seat's new view is pushed
just before it), which excludes the agents' think time; errors; lost moves (acknowledged but
not in the record); and the CPU time used by each part (every server process, PostgreSQL,
nginx, this client) over the run, with the machine's busy share.

``--kill-after S`` kills one server process with SIGKILL S seconds into the play: the clients
of its rooms reconnect through the proxy (to the next process on the hash ring, which reloads
the room from the database) and go on; the report gives the rooms affected and the time from
the kill to each affected room's first acknowledged move after it (median, max). A client
that has just reconnected acts at once (no think time), so this is the server side's time to
recover. Everything the bench starts it stops.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

AGENT_NAME = "bench"  # the name the started servers offer the other seats' agent under


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class _Shared:
    """What the rooms' clients report to the run."""
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    killed_at: float | None = None
    recoveries: list[float] = field(default_factory=list)   # seconds from the kill, per affected room
    lost: list[float] = field(default_factory=list)          # ... to the connection's loss seen
    resumed: list[float] = field(default_factory=list)       # ... to the first state after reconnecting
    reconnects: int = 0
    unrecovered: int = 0


async def _play(base: str, ws_base: str, game: str, players: int, agent: str, rng: random.Random,
                shared: _Shared, think: float = 0.0, reconnect_for: float = 60.0) -> tuple[str, int]:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        answer = await http.post("/api/rooms", json={
            "game": game, "options": {"players": players},
            "seats": [{"kind": "human", "name": "bench"}] + [{"kind": "ai", "agent": agent}] * (players - 1)})
        if answer.status_code != 201:
            raise RuntimeError(f"room creation refused ({answer.status_code}): {answer.text[:200]}")
        created = answer.json()
    room, token = created["room"], created["seats"][0]["token"]
    acknowledged = 0
    # the kill's moment while this room, its connection lost after the kill, has no move acknowledged since
    killed: float | None = None
    lost_at = None
    while True:
        try:
            async with connect(f"{ws_base}/ws/rooms/{room}?token={token}", max_size=None, open_timeout=10) as ws:
                sent_at = None
                state = None
                rethink = lost_at is None  # right after a reconnection: act at once
                lost_at = None
                while True:
                    message = json.loads(await ws.recv())
                    if killed is not None and state is None:
                        shared.resumed.append(time.perf_counter() - killed)
                    if message["type"] == "seats":  # who is connected: nothing to answer
                        continue
                    if message["type"] == "ok":
                        if sent_at is not None:
                            shared.latencies.append(time.perf_counter() - sent_at)
                        acknowledged += 1
                        sent_at = None
                        if killed is not None:
                            shared.recoveries.append(time.perf_counter() - killed)
                            killed = None
                    elif message["type"] == "error":
                        if message["status"] != 409:
                            shared.errors.append(message["message"])
                        sent_at = None
                    elif message["terminal"]:
                        if killed is not None:  # the agents ended the game: it was served again all the same
                            shared.recoveries.append(time.perf_counter() - killed)
                        return room, acknowledged
                    if message["type"] == "state":
                        state = message
                    if sent_at is None and state is not None and state["legal_actions"] and not state["terminal"]:
                        if think and rethink:  # a person's think time; a lost connection is seen at once
                            closed = asyncio.ensure_future(ws.wait_closed())
                            await asyncio.wait({closed}, timeout=rng.uniform(0, 2 * think))
                            if closed.done():
                                raise OSError("the connection was lost while the person was thinking")
                            closed.cancel()
                        rethink = True
                        sent_at = time.perf_counter()
                        await ws.send(json.dumps({"type": "action", "action": rng.choice(state["legal_actions"]),
                                                  "version": state["version"]}))
        except (ConnectionClosed, InvalidHandshake, OSError, asyncio.TimeoutError) as exc:
            if isinstance(exc, ConnectionClosed) and exc.rcvd is not None and exc.rcvd.code >= 4000:
                raise  # the server refused this client: not a lost process
            now = time.perf_counter()
            if lost_at is None:
                lost_at = now
                shared.reconnects += 1
                if shared.killed_at is not None and killed is None:
                    killed = shared.killed_at
                    shared.lost.append(now - killed)
            if now - lost_at > reconnect_for:
                if killed is not None:
                    shared.unrecovered += 1
                raise RuntimeError(f"room {room}: no connection for {reconnect_for:.0f} s") from exc
            await asyncio.sleep(0.05)


async def _run(args: argparse.Namespace, base: str | list[str], agent: str, kill=None) -> dict:
    """Play ``args.rooms`` rooms at once through ``base``; ``kill`` (a function) is called
    ``args.kill_after`` seconds into the play and returns the moment it killed. Several
    bases: room i is created and played on base i mod N (no proxy)."""
    bases = [base] if isinstance(base, str) else base
    base = bases[0]
    shared = _Shared()
    rng = random.Random(args.seed)
    started = time.perf_counter()

    async def killer():
        await asyncio.sleep(args.kill_after)
        shared.killed_at = kill()  # the moment the signal was sent

    kill_task = asyncio.create_task(killer()) if kill is not None else None
    results = await asyncio.gather(*(
        _play(bases[i % len(bases)], bases[i % len(bases)].replace("http://", "ws://"), args.game, args.players,
              agent, random.Random(rng.random()), shared, args.think)
        for i in range(args.rooms)), return_exceptions=True)
    seconds = time.perf_counter() - started
    if kill_task is not None and not kill_task.done():
        kill_task.cancel()
        shared.errors.append("the run ended before the kill")
    moves = lost = 0
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        for result in results:
            if isinstance(result, BaseException):
                shared.errors.append(f"{type(result).__name__}: {result}")
                continue
            room, acknowledged = result
            record = (await http.get(f"/api/rooms/{room}/record")).json()
            moves += len(record["actions"])
            lost += max(0, acknowledged - sum(1 for a in record["actions"] if a["seat"] == 0))
    latencies = sorted(shared.latencies)

    def pick(q: float) -> float | None:
        return round(1000 * latencies[min(len(latencies) - 1, int(q * len(latencies)))], 2) if latencies else None
    report = {"rooms": args.rooms, "game": args.game, "players": args.players, "agents": args.agents,
              "think_s": args.think,
              "seconds": round(seconds, 2), "moves": moves, "moves_per_s": round(moves / seconds, 1),
              "people_actions": len(latencies), "p50_ms": pick(0.5), "p99_ms": pick(0.99),
              "errors": len(shared.errors), "first_errors": shared.errors[:3], "lost_moves": lost}
    if kill is not None:
        rec = sorted(shared.recoveries)

        def median_max(values: list[float]) -> list[float] | None:
            return [round(1000 * statistics.median(values), 1), round(1000 * max(values), 1)] if values else None
        report["kill"] = {
            "after_s": args.kill_after, "rooms_affected": len(rec) + shared.unrecovered,
            "rooms_unrecovered": shared.unrecovered, "reconnections": shared.reconnects,
            "recovery_median_ms": round(1000 * statistics.median(rec), 1) if rec else None,
            "recovery_max_ms": round(1000 * rec[-1], 1) if rec else None,
            "loss_seen_median_max_ms": median_max(shared.lost),
            "first_state_again_median_max_ms": median_max(shared.resumed)}
    return report


# ----- CPU accounting from /proc ---------------------------------------------------------------
def _cpu_seconds(pid: int, children: bool = False) -> float | None:
    """The CPU time a process has used so far (Linux), with its reaped children's if asked;
    None where it cannot be read."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks = int(fields[11]) + int(fields[12]) + (int(fields[13]) + int(fields[14]) if children else 0)
        return ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def _tree_cpu_seconds(pid: int) -> float | None:
    """The CPU time of a process and of all its live descendants (and their reaped children)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            parents.setdefault(ppid, []).append(int(entry.name))
    own = _cpu_seconds(pid, children=True)
    if own is None:
        return None
    total, todo = own, list(parents.get(pid, []))
    while todo:
        child = todo.pop()
        total += _cpu_seconds(child, children=True) or 0.0
        todo.extend(parents.get(child, []))
    return total


def _machine_busy() -> tuple[float, float]:
    """(busy, total) jiffies of all cores since boot, from /proc/stat."""
    try:
        values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return 0.0, 0.0
    idle = values[3] + (values[4] if len(values) > 4 else 0)
    return float(sum(values[:8]) - idle), float(sum(values[:8]))


class _Meter:
    """CPU seconds used by named process trees (and this client) between start and stop."""

    def __init__(self, pids: dict[str, int]):
        self.pids = dict(pids)
        self.last: dict[str, float] = {}
        self.first: dict[str, float] = {}

    def sample(self) -> None:
        for name, pid in self.pids.items():
            value = _tree_cpu_seconds(pid)
            if value is not None:
                self.last[name] = value
        times = os.times()
        self.last["client (this bench)"] = times.user + times.system

    def start(self) -> None:
        self.sample()
        self.first = dict(self.last)
        self.busy0, self.total0 = _machine_busy()
        self.t0 = time.perf_counter()

    def stop(self, moves: int) -> dict:
        self.sample()
        seconds = time.perf_counter() - self.t0
        busy, total = _machine_busy()
        parts = {}
        for name, value in self.last.items():
            used = value - self.first.get(name, 0.0)
            parts[name] = {"cpu_s": round(used, 2), "cores": round(used / seconds, 2),
                           "cpu_ms_per_move": round(1000 * used / moves, 2) if moves else None}
        return {"window_s": round(seconds, 2), "cores_online": os.cpu_count(),
                "machine_busy": round((busy - self.busy0) / (total - self.total0), 3) if total > self.total0 else None,
                "parts": parts}


# ----- what the bench starts: PostgreSQL, servers, nginx ---------------------------------------
def _pg_binary(name: str) -> str:
    import glob
    found = shutil.which(name) or next(iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)), None)
    if found is None:
        raise SystemExit(f"--postgres needs PostgreSQL's {name} (Debian: apt-get install postgresql)")
    return found


def _start_postgres(base: Path) -> tuple[str, int, Callable[[], object]]:
    """A throwaway cluster in ``base`` on a Unix socket there: (URL, postmaster pid, stop)."""
    initdb, pg_ctl = _pg_binary("initdb"), _pg_binary("pg_ctl")
    base.mkdir()
    as_user = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        as_user = ["runuser", "-u", "postgres", "--"]
        shutil.chown(base, "postgres")
    data = base / "data"

    def run(*cmd):
        return subprocess.run([*as_user, *cmd], capture_output=True, text=True, timeout=120)
    made = run(initdb, "-D", str(data), "-A", "trust", "-U", "nemeton")
    if made.returncode != 0:
        raise SystemExit(f"initdb failed: {made.stderr[-500:]}")
    started = run(pg_ctl, "-D", str(data), "-o", f"-k {base} -c listen_addresses='' -c fsync=on -c max_connections=200",
                  "-l", str(base / "log"), "-w", "start")
    if started.returncode != 0:
        raise SystemExit(f"PostgreSQL did not start: {started.stderr[-500:]}")
    import psycopg
    with psycopg.connect(host=str(base), user="nemeton", dbname="postgres", autocommit=True) as c:
        c.execute("CREATE DATABASE bench")
    pid = int((data / "postmaster.pid").read_text().split()[0])
    return (f"postgresql+psycopg://nemeton@/bench?host={base}", pid,
            lambda: run(pg_ctl, "-D", str(data), "-m", "fast", "stop"))


def nginx_errors(log: Path) -> dict[str, Any]:
    """How many lines nginx's error log has and its last three, tokens redacted (nginx quotes
    the request line of a failed upstream request, seat token included)."""
    from .app import redact
    errors = log.read_text().splitlines()
    return {"lines": len(errors), "last": [redact(line) for line in errors[-3:]]}


def nginx_config(prefix: Path, port: int, backends: list[int], user: str | None = None) -> str:
    """The routing proxy of docs/deployment.md on loopback: ``port`` in front of ``backends``."""
    servers = "\n".join(f"        server 127.0.0.1:{p} max_fails=1 fail_timeout=10s;" for p in backends)
    return f"""{f'user {user};' if user else ''}
daemon off;
master_process on;
worker_processes 1;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
events {{ worker_connections 8192; }}
http {{
    access_log off;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    map $uri $nemeton_room {{
        ~^/(?:api|ws)/rooms/(?<room>[A-Za-z0-9_-]+)  $room;
        default                                     $request_id;
    }}
    map $http_upgrade $connection_upgrade {{ default upgrade; '' ""; }}
    upstream nemeton {{
        hash $nemeton_room consistent;
{servers}
        keepalive 64;
    }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://nemeton;
            proxy_http_version 1.1;
            proxy_set_header Host $host;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_next_upstream error timeout;
            proxy_next_upstream_tries 2;
            proxy_connect_timeout 2s;
            proxy_read_timeout 1h;
            proxy_send_timeout 1h;
        }}
    }}
}}
"""


def _wait_http(url: str, proc: subprocess.Popen, what: str, log: Path, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"{what} exited with {proc.returncode}: {log.read_text()[-2000:]}")
        try:
            if httpx.get(url, timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise SystemExit(f"{what} did not answer {url} within {seconds:.0f} s")


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--game", default="amarok")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--agents", default="random",
                        help="the other seats' agent: a spec the started servers offer as 'bench' "
                             "(--agent bench=SPEC); with --url, a name the server offers")
    parser.add_argument("--db", default=None, help="SQLAlchemy URL (default: a fresh SQLite file)")
    parser.add_argument("--postgres", action="store_true",
                        help="start a throwaway PostgreSQL cluster (Debian's binaries) and use it")
    parser.add_argument("--processes", type=int, default=1, help="server processes on the one database")
    parser.add_argument("--proxy", action="store_true",
                        help="nginx in front of the processes (implied by --processes 2 or more)")
    parser.add_argument("--direct", action="store_true",
                        help="several processes without the proxy: room i created and played on process i mod N "
                             "(the ideal routing, for comparison)")
    parser.add_argument("--kill-after", type=float, default=None,
                        help="SIGKILL one server process this many seconds into the play (needs --processes 2+)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--think", type=float, default=0.0,
                        help="the scripted person's mean think time in seconds (0: act at once, saturating the server)")
    parser.add_argument("--url", default=None,
                        help="benchmark a server already running there (e.g. http://127.0.0.1:8000)")
    args = parser.parse_args(argv)
    if args.url:
        report = asyncio.run(_run(args, args.url.rstrip("/"), args.agents))
        report["database"] = "the server's"
        print(json.dumps(report, indent=2))
        return
    proxy = (args.proxy or args.processes > 1) and not args.direct
    if args.kill_after is not None and (args.processes < 2 or not proxy):
        parser.error("--kill-after needs --processes 2 or more (behind the proxy)")
    if args.db and args.postgres:
        parser.error("--db and --postgres exclude each other")
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else "")
    if proxy and not nginx:
        raise SystemExit("the proxy needs nginx (Debian: apt-get install nginx)")
    # SIGTERM (timeout, kill) stops what the bench started too, as Ctrl+C does
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    tmp = Path(tempfile.mkdtemp(prefix="nemeton-bench-"))
    tmp.chmod(0o755)
    stops: list = []
    meter_pids: dict[str, int] = {}
    servers: list[subprocess.Popen] = []
    try:
        if args.postgres:
            db, pg_pid, stop_pg = _start_postgres(tmp / "pg")
            stops.append(stop_pg)
            meter_pids["postgresql"] = pg_pid
            database = "postgresql (throwaway cluster, Unix socket)"
        else:
            db = args.db or f"sqlite:///{tmp / 'bench.db'}"
            database = "sqlite" if args.db is None else args.db.split(":", 1)[0]
        ports = [_free_port() for _ in range(args.processes)]
        for i, port in enumerate(ports):
            log = tmp / f"server{i}.log"
            cmd = [sys.executable, "-c", "from nemeton.cli import main; main()", "serve", "--port", str(port),
                   "--db", db, "--rate-limit", "0", "--agent", f"{AGENT_NAME}={args.agents}"]
            if proxy:
                cmd += ["--forwarded-allow-ips", "127.0.0.1"]
            server = subprocess.Popen(cmd, stdout=open(log, "w"), stderr=subprocess.STDOUT)
            servers.append(server)
            stops.append(lambda s=server: _stop(s))
            meter_pids[f"server {i + 1}"] = server.pid
            _wait_http(f"http://127.0.0.1:{port}/api/rooms", server, f"server {i + 1}", log)
        base = f"http://127.0.0.1:{ports[0]}"
        if proxy:
            prefix = tmp / "nginx"
            prefix.mkdir()
            port = _free_port()
            conf = prefix / "nginx.conf"
            conf.write_text(nginx_config(prefix, port, ports, "root" if os.geteuid() == 0 else None))
            log = prefix / "stderr.log"
            proxy_proc = subprocess.Popen([nginx, "-c", str(conf), "-p", str(prefix)],
                                          stdout=open(log, "w"), stderr=subprocess.STDOUT)
            stops.append(lambda: _stop(proxy_proc))
            meter_pids["nginx"] = proxy_proc.pid
            base = f"http://127.0.0.1:{port}"
            _wait_http(f"{base}/api/rooms", proxy_proc, "nginx", prefix / "error.log")
        meter = _Meter(meter_pids)
        meter.start()
        victim = servers[0]

        def kill() -> float:
            meter.sample()  # the victim's CPU up to its death
            meter.pids.pop("server 1", None)
            at = time.perf_counter()
            victim.send_signal(signal.SIGKILL)
            return at
        target = [f"http://127.0.0.1:{p}" for p in ports] if args.direct else base
        report = asyncio.run(_run(args, target, AGENT_NAME, kill if args.kill_after is not None else None))
        report["cpu"] = meter.stop(report["moves"])
        server_cpu = sum(v["cpu_s"] for k, v in report["cpu"]["parts"].items() if k.startswith("server"))
        if report["moves"]:
            report["server_cpu_ms_per_move"] = round(1000 * server_cpu / report["moves"], 2)
        if proxy:
            report["nginx_errors"] = nginx_errors(tmp / "nginx" / "error.log")
    finally:
        for stop in reversed(stops):
            try:
                stop()
            except Exception as exc:  # noqa: BLE001 - keep stopping the rest
                print(f"stopping failed: {exc}", file=sys.stderr)
        shutil.rmtree(tmp, ignore_errors=True)
    report["database"] = database
    report["processes"] = args.processes
    report["proxy"] = ("nginx (consistent hash of the room id)" if proxy else
                       "none: room i on process i mod N" if args.direct and args.processes > 1 else None)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
