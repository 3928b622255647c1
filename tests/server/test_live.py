"""Live updates alone (nemeton.server.live): a room's watchers, their bounded queues, and what
a client that reads nothing is left with. No room, no database, no socket: the snapshot is a
fake that says which seat and log position it was built for."""

from __future__ import annotations

import asyncio

import pytest

from nemeton.server.live import Outbox, Subscriber, Watchers


def fake_snapshot(seat, since):
    return {"seat": seat, "log": list(range(since, 10))}


def stuck(seat=0, size=4) -> Subscriber:
    """A client that reads nothing, with a small queue."""
    return Subscriber(seat, queue=Outbox(size))


def test_each_watcher_is_pushed_its_own_view_and_only_the_log_it_has_not_seen():
    watchers = Watchers()
    ann, spectator = Subscriber(0, since=7), Subscriber(None)
    watchers.subscribers |= {ann, spectator}
    watchers.push_states(fake_snapshot, log_length=10)
    assert ann.queue.get_nowait() == {"type": "state", "seat": 0, "log": [7, 8, 9]}
    assert spectator.queue.get_nowait() == {"type": "state", "seat": None, "log": list(range(10))}
    assert ann.since == spectator.since == 10
    assert watchers.connected() == {0, None}


def test_a_take_back_resyncs_every_watcher_with_the_whole_log():
    watchers = Watchers()
    ann = Subscriber(0, since=9)
    watchers.subscribers.add(ann)
    watchers.push_states(fake_snapshot, log_length=6, resync=True)
    assert ann.queue.get_nowait() == {"type": "state", "resync": True, "seat": 0, "log": list(range(10))}
    assert ann.since == 6


def test_a_client_that_reads_nothing_gets_one_resync_state_not_a_backlog():
    watchers = Watchers()
    slow = stuck(size=4)
    watchers.subscribers.add(slow)
    slow.queue.put_nowait({"type": "ok", "version": 1})  # an answer, waiting before the states
    for _ in range(50):
        watchers.push_states(fake_snapshot, log_length=10)
    waiting = list(slow.queue._queue)
    assert len(waiting) <= 4
    assert waiting[0] == {"type": "ok", "version": 1}  # answers are never dropped
    states = [m for m in waiting if m["type"] == "state"]
    assert sum(bool(m.get("resync")) for m in states) == 1 and states[0]["resync"]
    log = []  # what the client rebuilds when it reads at last: the whole log, nothing twice
    for m in states:
        log = list(m["log"]) if m.get("resync") else log + m["log"]
    assert log == list(range(10))


def test_a_queue_full_of_answers_takes_no_state_and_no_further_answer():
    """What :func:`nemeton.server.app.serve_socket` closes with 4429: the client sends and
    reads nothing, so its answers fill its queue; no state can take an answer's place."""
    watchers = Watchers()
    slow = stuck(size=3)
    watchers.subscribers.add(slow)
    answers = [{"type": "ok", "version": v} for v in range(3)]
    for answer in answers:
        slow.queue.put_nowait(answer)
    watchers.push_states(fake_snapshot, log_length=10)
    watchers.push_notice({"type": "seats", "seats": []})
    assert list(slow.queue._queue) == answers  # nothing dropped, nothing added
    assert slow.queue.put_state({"type": "state"}) is False
    with pytest.raises(asyncio.QueueFull):
        slow.queue.put_nowait({"type": "ok", "version": 3})


def test_a_notice_skips_a_full_queue_and_reaches_the_others():
    watchers = Watchers()
    slow, quick = stuck(size=1), Subscriber(1)
    slow.queue.put_nowait({"type": "ok", "version": 0})
    watchers.subscribers |= {slow, quick}
    notice = {"type": "error", "status": 410, "message": "closed", "parts": []}
    watchers.push_notice(notice)
    assert list(slow.queue._queue) == [{"type": "ok", "version": 0}]
    assert quick.queue.get_nowait() == notice
