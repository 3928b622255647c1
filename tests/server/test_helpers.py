"""A server's search helpers (``workers=W``) are the server's: they hold none of its sockets,
end with their game, and die with the server however it ends (``kill -9`` included).

These tests run ``nemeton serve`` as a subprocess and read ``/proc`` (no psutil)."""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")

NEMETON = str(Path(sys.executable).with_name("nemeton"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def served(tmp_path, *args, env=None):
    """``nemeton serve ARGS`` on a free port of 127.0.0.1: yields (process, port, log path)."""
    port = free_port()
    log_path = tmp_path / f"serve-{port}.log"
    environment = {**os.environ, "NEMETON_DATA": str(tmp_path / "data"), **(env or {})}
    with open(log_path, "wb") as out:
        proc = subprocess.Popen([NEMETON, "serve", "--port", str(port), *args], stdout=out, stderr=subprocess.STDOUT,
                                env=environment)
    try:
        deadline = time.monotonic() + 30
        while True:
            assert proc.poll() is None, log_path.read_text()
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                assert time.monotonic() < deadline, "the server did not start: " + log_path.read_text()
                time.sleep(0.1)
        yield proc, port, log_path
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


# ----- /proc -----------------------------------------------------------------------------
def processes() -> dict[int, tuple[int, str, str]]:
    """pid -> (parent pid, start time, command line) of every process visible now."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        found[int(entry)] = (int(fields[1]), fields[19], cmdline)  # ppid, starttime
    return found


def descendants(pid: int) -> dict[int, tuple[str, str]]:
    """The processes under ``pid``: pid -> (start time, command line)."""
    table = processes()
    out, todo = {}, [pid]
    while todo:
        parent = todo.pop()
        for child, (ppid, start, cmdline) in table.items():
            if ppid == parent and child not in out:
                out[child] = (start, cmdline)
                todo.append(child)
    return out


def helpers(pid: int) -> dict[int, tuple[str, str]]:
    """The search helpers under ``pid`` (multiprocessing's resource tracker is no helper:
    it holds no socket, and ends when the server does)."""
    return {p: v for p, v in descendants(pid).items() if "resource_tracker" not in v[1]}


def alive(known: dict[int, tuple[str, str]]) -> list[int]:
    """Which of ``known`` still run (the same pid with the same start time)."""
    now = processes()
    return [p for p, (start, _) in known.items() if p in now and now[p][1] == start]


def wait_until(predicate, timeout: float, step: float = 0.1):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(step)


# ----- HTTP ------------------------------------------------------------------------------
def call(conn: http.client.HTTPConnection, method: str, path: str, body=None):
    conn.request(method, path, body=None if body is None else json.dumps(body),
                 headers={"Content-Type": "application/json"})
    r = conn.getresponse()
    return r.status, json.loads(r.read() or b"null")


def play(conn, room, token, rng, until=None, watch=None):
    """Play ``token``'s seat with random legal actions until the game ends (or ``until`` moves)."""
    moves = 0
    deadline = time.monotonic() + 120
    while True:
        status, snap = call(conn, "GET", f"/api/rooms/{room}/view?token={token}&since=1000000")
        assert status == 200, snap
        if watch is not None:
            watch()
        if snap["terminal"] or (until is not None and moves >= until):
            return snap
        if snap["legal_actions"]:
            status, answer = call(conn, "POST", f"/api/rooms/{room}/actions",
                                  {"token": token, "action": rng.choice(snap["legal_actions"]),
                                   "version": snap["version"], "since": 1000000})
            assert status in (200, 409), answer
            moves += status == 200
        else:
            time.sleep(0.02)
        assert time.monotonic() < deadline, "the game did not end"


def test_search_helpers_end_with_their_game_hold_no_socket_and_die_with_the_server(tmp_path):
    with served(tmp_path, "--agent", "strong=ismcts:iterations=40:workers=2", "--rate-limit", "0") as (proc, port, log):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)  # kept alive through the game
        status, games = call(conn, "GET", "/api/games")
        assert status == 200 and [a["spec"] for a in games[0]["agents"]] == ["strong"]
        status, refused = call(conn, "POST", "/api/rooms", {"game": "amarok", "seats": [
            {"kind": "human"}, {"kind": "ai", "agent": "ismcts:iterations=40:workers=2"}, {"kind": "ai", "agent": "strong"}]})
        assert status == 400 and "strong" in refused["detail"]  # only the operator's names
        status, made = call(conn, "POST", "/api/rooms", {"game": "amarok", "seats": [
            {"kind": "human"}, {"kind": "ai", "agent": "strong"}, {"kind": "ai", "agent": "strong"}]})
        assert status == 201, made
        seen: dict[int, tuple[str, str]] = {}
        snap = play(conn, made["room"], made["seats"][0]["token"], random.Random(1),
                    watch=lambda: seen.update(helpers(proc.pid)))
        assert snap["terminal"]
        assert seen, "the agents searched without helpers: the test tests nothing"
        # the game is over: its helpers are gone (they were kept alive for ever)
        assert wait_until(lambda: not alive(seen), 10), f"helpers outlived their game: {alive(seen)}"
        assert not helpers(proc.pid)

        # The server closes an idle keep-alive connection (uvicorn: after 5 s) and the client
        # sees it closed: no helper holds a copy of the socket (the FIN was never sent).
        conn.sock.settimeout(15)
        t0 = time.monotonic()
        try:
            eof = conn.sock.recv(1) == b""
        except (TimeoutError, socket.timeout):
            eof = False
        except ConnectionResetError:
            eof = True
        assert eof, f"no end of file on a connection the server closed ({time.monotonic() - t0:.1f} s)"
        conn.close()
        again = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        assert [call(again, "GET", "/api/games")[0] for _ in range(3)] == [200, 200, 200]  # keep-alive works

        # A second game, left unfinished with its helpers searching: kill -9 the server.
        status, made = call(again, "POST", "/api/rooms", {"game": "amarok", "seats": [
            {"kind": "human"}, {"kind": "ai", "agent": "strong"}, {"kind": "ai", "agent": "strong"}]})
        assert status == 201
        running: dict[int, tuple[str, str]] = {}
        play(again, made["room"], made["seats"][0]["token"], random.Random(2), until=3,
             watch=lambda: running.update(helpers(proc.pid)))
        assert wait_until(lambda: alive(running), 5), "no helper is running"
        everything = descendants(proc.pid)
        again.close()
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        assert wait_until(lambda: not alive(everything), 5), f"children outlived the server: {alive(everything)}"
        with socket.socket() as s:  # the port is free at once (no helper holds the listening socket)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(("127.0.0.1", port))


@pytest.mark.parametrize("method", ["spawn", None])
def test_helpers_started_from_a_thread_that_ends_keep_searching(method):
    """A helper watches its parent *process*: the thread that started the pool (a server's
    agent thread, a short-lived one here) may end without taking the helpers with it."""
    import threading

    from nemeton.agents import parallel
    from nemeton.agents.base import make_agent
    from nemeton.engine import get_game
    spec = get_game("alarun")
    state = spec.make(players=2, seed=3)
    seat = state.acting()[0]
    agent = make_agent("ismcts:iterations=40:workers=2", spec, seat, 5)
    before = parallel._START_METHOD
    parallel.set_start_method(method)
    try:
        decided = []
        thread = threading.Thread(target=lambda: decided.append(agent.act(state.view(seat), state.legal_actions(seat))))
        thread.start()
        thread.join(60)
        assert decided
        time.sleep(0.5)  # the starting thread is gone
        assert agent.act(state.view(seat), state.legal_actions(seat)) in state.legal_actions(seat)
        assert agent.last_iterations == 40  # the helper searched its share
    finally:
        agent.close()
        parallel.set_start_method(before)
