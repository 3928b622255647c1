"""A finished game's analysis through the API (issue 28): POST /api/rooms/{room}/analysis starts
nemeton.teacher.analyse_record in the background, GET follows it and then serves the result,
stored with the game: asked again, or after a restart, it is read back, not worked out again."""

from __future__ import annotations

import threading
import time

import pytest
from conftest import ANY_AGENT, create, store_of, view, wait_for
from fastapi.testclient import TestClient

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
