"""``nemeton bot``: an agent plays a room's seat over the network (server/client.py), through
the invite link, until the game ends, and comes back after the server restarts."""

from __future__ import annotations

import json
import random
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from nemeton.server.client import BotError, NetworkBot, parse_invite

CLI = [sys.executable, "-c", "from nemeton.cli import main; main()"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Served:
    """``nemeton serve`` as a child process on one port and one SQLite file; restartable."""

    def __init__(self, tmp: Path):
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.db = f"sqlite:///{tmp / 'bot.db'}"
        self.log = tmp / "server.log"
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen([*CLI, "serve", "--port", str(self.port), "--db", self.db, "--rate-limit", "0"],
                                     stdout=open(self.log, "a"), stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while True:
            assert self.proc.poll() is None, self.log.read_text()[-2000:]
            try:
                if httpx.get(f"{self.base}/health", timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def room(self, seats: list[str], game: str = "alarun") -> tuple[str, dict[int, str]]:
        body = {"game": game, "options": {"players": len(seats)},
                "seats": [{"kind": "human", "name": f"P{i}"} if s == "human" else {"kind": "ai", "agent": s}
                          for i, s in enumerate(seats)]}
        r = httpx.post(f"{self.base}/api/rooms", json=body, timeout=30)
        assert r.status_code == 201, r.text
        return r.json()["room"], {s["seat"]: s["token"] for s in r.json()["seats"]}

    def record(self, room: str) -> dict:
        r = httpx.get(f"{self.base}/api/rooms/{room}/record", timeout=30)
        assert r.status_code == 200, r.text
        return r.json()


@pytest.fixture
def served(tmp_path):
    s = Served(tmp_path)
    s.start()
    yield s
    s.stop()


# ----- the invite link ---------------------------------------------------------------------------
def test_an_invite_link_names_the_socket_room_and_token():
    invite = parse_invite("http://127.0.0.1:8000/rooms/q3Xy0aB1?token=abc")
    assert (invite.socket_url, invite.room, invite.token) == ("ws://127.0.0.1:8000/ws/rooms/q3Xy0aB1?token=abc",
                                                              "q3Xy0aB1", "abc")
    assert "abc" not in invite.shown()


def test_a_server_under_a_path_prefix_keeps_it_and_https_becomes_wss():
    invite = parse_invite("https://games.example/nemeton/rooms/R1?token=t")
    assert invite.socket_url == "wss://games.example/nemeton/ws/rooms/R1?token=t"


def test_the_socket_address_itself_and_a_token_given_apart_are_read():
    assert parse_invite("ws://h:1/ws/rooms/R2", token="t2").socket_url == "ws://h:1/ws/rooms/R2?token=t2"


@pytest.mark.parametrize("url, words", [("http://h/rooms/R", "no seat token"), ("ftp://h/rooms/R?token=t", "invite link"),
                                        ("http://h/lobby?token=t", "no room")])
def test_a_link_that_names_no_seat_is_refused_with_what_is_expected(url, words):
    with pytest.raises(BotError, match=words):
        parse_invite(url)


# ----- playing ----------------------------------------------------------------------------------
def test_the_bot_plays_its_seat_to_the_end_and_every_decision_is_in_the_record(served):
    room, tokens = served.room(["human", "random"])
    lines: list[str] = []
    outcome = NetworkBot(parse_invite(f"{served.base}/rooms/{room}?token={tokens[0]}"), "heuristic", seed=3,
                         say=lines.append).run()
    record = served.record(room)
    assert outcome.seat == 0 and outcome.game == "alarun"
    assert outcome.moves == len(record["actions"])
    assert outcome.decisions == sum(1 for a in record["actions"] if a["seat"] == 0) > 0
    assert all(score is not None for score in outcome.scores)
    assert any("connected to" in line for line in lines) and outcome.reconnections == 0


def test_an_unknown_token_is_refused_at_once_not_retried(served):
    room, _ = served.room(["human", "random"])
    started = time.monotonic()
    with pytest.raises(BotError, match="403"):
        NetworkBot(parse_invite(f"{served.base}/rooms/{room}?token=not-a-token"), "random", reconnect_for=30).run()
    assert time.monotonic() - started < 20


def test_a_bad_agent_spec_fails_before_connecting():
    with pytest.raises(Exception, match="unknown agent"):
        NetworkBot(parse_invite("http://127.0.0.1:1/rooms/R?token=t"), "no-such-agent")


def _moves(served: Served, room: str) -> int:
    return httpx.get(f"{served.base}/api/rooms/{room}/view", params={"since": 10**9}, timeout=30).json()["moves"]


def _act_as(served: Served, room: str, token: str, rng: random.Random) -> bool:
    """One random legal action for ``token``'s seat if it may act; False once the game is over."""
    snap = httpx.get(f"{served.base}/api/rooms/{room}/view", params={"token": token, "since": 10**9}, timeout=30).json()
    if snap["terminal"]:
        return False
    if snap["legal_actions"]:
        httpx.post(f"{served.base}/api/rooms/{room}/actions", timeout=30,
                   json={"token": token, "action": rng.choice(snap["legal_actions"]), "version": snap["version"]})
    else:
        time.sleep(0.02)
    return True


def test_the_bot_command_comes_back_after_the_server_restarts_and_finishes_the_game(served):
    """Seat 0: ``nemeton bot`` (a child process); seat 1: this test, by HTTP. The server is
    stopped after the bot's first moves and started again on the same database; the bot
    reconnects and the game ends with every move of both seats in the record."""
    room, tokens = served.room(["human", "human"])
    bot = subprocess.Popen([*CLI, "bot", f"{served.base}/rooms/{room}?token={tokens[0]}", "--agent", "heuristic",
                            "--seed", "1", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        rng = random.Random(5)
        deadline = time.monotonic() + 120
        while _moves(served, room) < 4:  # both seats have played
            assert time.monotonic() < deadline and bot.poll() is None, bot.stderr.read() if bot.poll() else "slow"
            _act_as(served, room, tokens[1], rng)
        served.stop()
        time.sleep(1.0)  # the bot sees the connection lost and retries meanwhile
        served.start()
        while _act_as(served, room, tokens[1], rng):
            assert time.monotonic() < deadline and bot.poll() is None, bot.stderr.read() if bot.poll() else "slow"
        out, err = bot.communicate(timeout=60)
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()
    assert bot.returncode == 0, err
    assert "reconnected to" in err and tokens[0] not in err
    outcome = json.loads(out)
    record = served.record(room)
    assert outcome["reconnections"] >= 1
    assert outcome["moves"] == len(record["actions"])
    assert sum(1 for a in record["actions"] if a["seat"] == 0) == outcome["decisions"]


LOG_READER = '''
from nemeton.agents.base import Agent


class LogReader(Agent):
    """Random, and keeps every log entry it is shown."""
    name = "log-reader"
    needs_log = True
    seen = []

    def observe(self, entries):
        LogReader.seen.extend(entries)

    def act(self, view, legal):
        return self.rng.choice(legal)
'''


def test_an_agent_that_reads_the_log_is_shown_each_entry_of_its_seat_once_in_order(served, tmp_path):
    (tmp_path / "reader.py").write_text(LOG_READER)
    room, tokens = served.room(["random", "human", "random"], game="amarok")
    bot = NetworkBot(parse_invite(f"{served.base}/rooms/{room}?token={tokens[1]}"), f"{tmp_path / 'reader.py'}:LogReader")
    bot.run()
    seen = type(bot.agent).seen
    log = httpx.get(f"{served.base}/api/rooms/{room}/view", params={"token": tokens[1]}, timeout=30).json()["log"]
    assert [e["i"] for e in seen] == list(range(len(seen))) and len(seen) > 0
    assert seen == log[:len(seen)]
