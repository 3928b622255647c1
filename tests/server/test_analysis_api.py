"""A finished game's analysis through the API (issue 28): POST /api/rooms/{room}/analysis starts
nemeton.teacher.analyse_record in the background, GET follows it and then serves the result,
stored with the game: asked again, or after a restart, it is read back, not worked out again.
Several processes on one database (SQLite and PostgreSQL) answer the same progress, run an
analysis once, and take over the job of a process that died or stopped."""

from __future__ import annotations

import subprocess
import sys
import threading
import time

import httpx
import pytest
from conftest import ANY_AGENT, create, store_of, view, wait_for
from fastapi.testclient import TestClient
from test_crash import free_port

import nemeton.teacher as teacher
from nemeton.server.app import create_app


class FakeAnalysis:
    def __init__(self, data):
        self.data = data

    def to_json(self):
        return self.data


class Analyser:
    """Stands in for analyse_record where the plumbing is tested: one decision per action,
    each reported to ``progress``; ``gate`` holds it before the last one."""

    def __init__(self):
        self.calls = []
        self.gate = threading.Event()
        self.gate.set()
        self.halfway = threading.Event()

    def __call__(self, record, *, progress=None, **kwargs):
        self.calls.append((record, kwargs))
        total = len(record.actions)
        for done in range(1, total + 1):
            if done == total:
                self.halfway.set()
                assert self.gate.wait(20)
            progress(done, total)
        return FakeAnalysis({"format": "nemeton-analysis/1", "game": record.game,
                             "decisions": [{"index": i, "seat": s} for i, (s, _a) in enumerate(record.actions)]})


@pytest.fixture
def analyser(monkeypatch):
    fake = Analyser()
    monkeypatch.setattr(teacher, "analyse_record", fake, raising=False)
    return fake


def finished(client):
    room, _ = create(client, seats=("random", "random"))
    wait_for(client, room, None, lambda s: s["terminal"], timeout=60)
    return room


def poll(client, room, until, timeout=30):
    deadline = time.monotonic() + timeout
    while True:
        answer = client.get(f"/api/rooms/{room}/analysis")
        assert answer.status_code == 200, answer.text
        if until(answer.json()):
            return answer.json()
        assert time.monotonic() < deadline, answer.json()
        time.sleep(0.01)


def test_an_analysis_runs_in_the_background_reports_progress_and_is_stored(client, analyser):
    room = finished(client)
    moves = len(store_of(client).load_room(room).actions)
    assert client.get(f"/api/rooms/{room}/analysis").json() == {"state": "none"}
    analyser.gate.clear()
    started = client.post(f"/api/rooms/{room}/analysis")
    assert started.status_code == 202 and started.json()["state"] == "running"
    assert analyser.halfway.wait(20)
    running = poll(client, room, lambda a: a["state"] == "running" and a["done"] == moves - 1)
    assert running == {"state": "running", "done": moves - 1, "total": moves}
    again = client.post(f"/api/rooms/{room}/analysis")  # one at a time per room: the same job
    assert again.status_code == 202 and again.json()["state"] == "running"
    analyser.gate.set()
    done = poll(client, room, lambda a: a["state"] == "done")
    assert [d["index"] for d in done["analysis"]["decisions"]] == list(range(moves))
    assert len(analyser.calls) == 1
    assert store_of(client).load_analysis(room) == done["analysis"]
    served = client.post(f"/api/rooms/{room}/analysis")  # stored: answered at once, not worked out again
    assert served.status_code == 200 and served.json() == done and len(analyser.calls) == 1


def test_a_stored_analysis_survives_a_restart(db_url, analyser):
    with TestClient(create_app(db_url, rate_limit=None, agents=ANY_AGENT)) as client:
        room = finished(client)
        client.post(f"/api/rooms/{room}/analysis")
        done = poll(client, room, lambda a: a["state"] == "done")
    analyser.calls.clear()
    with TestClient(create_app(db_url, rate_limit=None, agents=ANY_AGENT)) as client:
        assert client.get(f"/api/rooms/{room}/analysis").json() == done
        assert client.post(f"/api/rooms/{room}/analysis").json() == done
    assert analyser.calls == []


def test_an_unfinished_game_is_not_analysed_409(client, analyser):
    room, tokens = create(client, seats=("human", "random"))
    for method in ("post", "get"):
        answer = getattr(client, method)(f"/api/rooms/{room}/analysis")
        assert answer.status_code == 409 and "once it has ended" in answer.json()["detail"]
    assert analyser.calls == [] and store_of(client).load_analysis(room) is None
    assert not view(client, room, tokens[0])["terminal"] and store_of(client).load_room(room).status == "playing"


def test_an_unknown_room_is_404(client, analyser):
    assert client.post("/api/rooms/nope/analysis").status_code == 404
    assert client.get("/api/rooms/nope/analysis").status_code == 404


def test_the_server_analyses_a_bounded_number_of_games_at_once_429(client, analyser):
    first, second = finished(client), finished(client)
    analyser.gate.clear()
    assert client.post(f"/api/rooms/{first}/analysis").status_code == 202
    busy = client.post(f"/api/rooms/{second}/analysis")
    assert busy.status_code == 429 and "try again" in busy.json()["detail"]
    assert client.get(f"/api/rooms/{second}/analysis").json() == {"state": "none"}
    analyser.gate.set()
    poll(client, first, lambda a: a["state"] == "done")
    assert client.post(f"/api/rooms/{second}/analysis").status_code == 202
    poll(client, second, lambda a: a["state"] == "done")


def test_a_failed_analysis_says_so_without_quoting_anything_and_can_be_asked_again(client, monkeypatch, caplog):
    room = finished(client)

    def broken(record, **kwargs):
        raise RuntimeError("boom: the hidden cards were ...")
    monkeypatch.setattr(teacher, "analyse_record", broken, raising=False)
    client.post(f"/api/rooms/{room}/analysis")
    failed = poll(client, room, lambda a: a["state"] == "failed")
    assert "boom" not in failed["message"] and "boom" not in caplog.text and "RuntimeError" in caplog.text
    fixed = Analyser()
    monkeypatch.setattr(teacher, "analyse_record", fixed, raising=False)
    assert client.post(f"/api/rooms/{room}/analysis").status_code == 202
    assert poll(client, room, lambda a: a["state"] == "done")["analysis"]["game"] == "alarun"


def test_the_teachers_own_analysis_is_served_in_its_documented_shape(client):
    room = finished(client)
    client.app.state.rooms.analyses.iterations = 20  # the plumbing, not the search's strength
    record = client.get(f"/api/rooms/{room}/record").json()
    assert client.post(f"/api/rooms/{room}/analysis").status_code == 202
    analysis = poll(client, room, lambda a: a["state"] == "done", timeout=120)["analysis"]
    assert analysis["format"] == "nemeton-analysis/1" and analysis["game"] == "alarun"
    assert analysis["budget"]["iterations"] == 20
    assert [s["seat"] for s in analysis["seats"]] == [0, 1]
    seats_of = [a[0] if isinstance(a, list) else a["seat"] for a in record["actions"]]
    for d in analysis["decisions"]:
        assert d["seat"] == seats_of[d["index"]]
        assert 0 <= d["after"] <= 1 and 0 <= d["before"] <= 1 and d["loss"] >= 0
    assert len(analysis["decisions"]) == len(record["actions"])


# ----- several processes on one database -------------------------------------------------
@pytest.fixture(params=["sqlite", "postgresql"])
def shared_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'shared.db'}"
    pytest.importorskip("psycopg", reason="PostgreSQL tests need the psycopg driver: pip install 'psycopg[binary]'")
    return request.getfixturevalue("postgres")()


def app_on(url, beat=0.05, lease=20.0):
    """A server process's app on ``url`` (two of them in a test: two processes on one database)."""
    app = create_app(url, rate_limit=None, agents=ANY_AGENT)
    client = TestClient(app)
    client.__enter__()
    client.app.state.rooms.analyses.beat, client.app.state.rooms.analyses.lease = beat, lease
    return client


@pytest.fixture
def two_apps(shared_url, analyser):
    """Two server processes' apps on one database (the analyser's gate opened before they stop)."""
    apps = app_on(shared_url), app_on(shared_url)
    yield apps
    analyser.gate.set()
    for app in apps:
        app.__exit__(None, None, None)


def test_two_processes_on_one_database_answer_the_same_progress_and_run_an_analysis_once(two_apps, analyser):
    a, b = two_apps
    room = finished(a)
    moves = len(store_of(a).load_room(room).actions)
    assert b.get(f"/api/rooms/{room}/analysis").json() == {"state": "none"}
    analyser.gate.clear()
    assert a.post(f"/api/rooms/{room}/analysis").status_code == 202
    assert analyser.halfway.wait(20)
    running = {"state": "running", "done": moves - 1, "total": moves}
    poll(b, room, lambda state: state == running)  # the progress as the other process wrote it
    assert a.get(f"/api/rooms/{room}/analysis").json() == running
    again = b.post(f"/api/rooms/{room}/analysis")  # not a second copy in the other process
    assert again.status_code == 202 and again.json() == running
    assert len(analyser.calls) == 1 and b.app.state.rooms.analyses.running() == 0
    analyser.gate.set()
    done = poll(b, room, lambda state: state["state"] == "done")
    assert a.get(f"/api/rooms/{room}/analysis").json() == done and len(analyser.calls) == 1


def test_processes_asked_together_run_the_analysis_once(two_apps, analyser):
    a, b = two_apps
    room = finished(a)
    b.get(f"/api/rooms/{room}/analysis")  # both have the room in memory: they race on the database only
    analyser.gate.clear()
    together = threading.Barrier(2)
    answers = {}

    def ask(client):
        together.wait()
        answers[client] = client.post(f"/api/rooms/{room}/analysis")
    askers = [threading.Thread(target=ask, args=(c,)) for c in (a, b)]
    for t in askers:
        t.start()
    for t in askers:
        t.join()
    assert [answers[c].status_code for c in (a, b)] == [202, 202]
    assert all(answers[c].json()["state"] == "running" for c in (a, b))
    assert analyser.halfway.wait(20)
    assert len(analyser.calls) == 1
    assert sorted(c.app.state.rooms.analyses.running() for c in (a, b)) == [0, 1]
    analyser.gate.set()
    done = poll(a, room, lambda state: state["state"] == "done")
    assert b.get(f"/api/rooms/{room}/analysis").json() == done and len(analyser.calls) == 1


# A server process whose analysis reports its first decision, then hangs until it is killed.
HANGING_SERVER = """
import sys, time
import uvicorn
import nemeton.teacher as teacher
from nemeton.server import analyses
from nemeton.server.app import create_app

def hangs(record, *, progress=None, **kwargs):
    progress(1, len(record.actions))
    time.sleep(3600)

teacher.analyse_record = hangs
analyses.Analyses.beat = 0.1
uvicorn.run(create_app(sys.argv[1], rate_limit=None), host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
"""


def start_hanging_server(url, tmp_path):
    port = free_port()
    log = open(tmp_path / "hanging.log", "w")
    proc = subprocess.Popen([sys.executable, "-c", HANGING_SERVER, url, str(port)], stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        assert proc.poll() is None, (tmp_path / "hanging.log").read_text()[-2000:]
        assert time.monotonic() < deadline, "the server did not start within 30 s"
        try:
            if httpx.get(f"{base}/api/rooms", timeout=1).status_code == 200:
                return proc, base
        except httpx.TransportError:
            time.sleep(0.05)


def test_the_analysis_of_a_process_that_died_is_taken_over_once_its_lease_has_run_out(shared_url, analyser,
                                                                                       tmp_path):
    proc, base = start_hanging_server(shared_url, tmp_path)
    try:
        b = app_on(shared_url, lease=3.0)
        try:
            room = finished(b)
            moves = len(store_of(b).load_room(room).actions)
            assert httpx.post(f"{base}/api/rooms/{room}/analysis", timeout=10).status_code == 202
            running = {"state": "running", "done": 1, "total": moves}
            poll(b, room, lambda state: state == running)
            assert b.post(f"/api/rooms/{room}/analysis").json() == running  # alive over there: left to it
            assert analyser.calls == []
            proc.kill()
            proc.wait()
            assert b.get(f"/api/rooms/{room}/analysis").json() == running  # its lease has not run out yet
            done = poll(b, room, lambda state: state["state"] == "done")  # then taken over, by a GET
            assert len(analyser.calls) == 1
            assert [d["index"] for d in done["analysis"]["decisions"]] == list(range(moves))
            assert store_of(b).analysis_job(room) is None
        finally:
            b.__exit__(None, None, None)
    finally:
        proc.kill()
        proc.wait()


def test_a_stopping_process_gives_its_analysis_up_to_another_at_once(db_url, monkeypatch):
    calls = []

    def slow(record, *, progress=None, **kwargs):
        calls.append(record)
        for done in range(1, len(record.actions) + 1):
            time.sleep(0.02)
            progress(done, len(record.actions))
        return FakeAnalysis({"format": "nemeton-analysis/1", "game": record.game, "decisions": []})
    monkeypatch.setattr(teacher, "analyse_record", slow, raising=False)
    a, b = app_on(db_url), app_on(db_url, lease=600.0)  # only a job given up is taken over here
    try:
        room = finished(a)
        assert a.post(f"/api/rooms/{room}/analysis").status_code == 202
        poll(b, room, lambda state: state["state"] == "running" and state["done"] >= 1)
    finally:
        a.__exit__(None, None, None)  # stops at its next decision and gives the job up
    try:
        assert store_of(b).analysis_job(room).heartbeat is None
        taken = b.get(f"/api/rooms/{room}/analysis").json()
        assert taken["state"] == "running" and b.app.state.rooms.analyses.running() == 1
        assert poll(b, room, lambda state: state["state"] == "done")["analysis"]["game"] == "alarun"
        assert len(calls) == 2
    finally:
        b.__exit__(None, None, None)
