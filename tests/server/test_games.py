"""Whole games through the HTTP API, for every game, people and agents mixed (Amarok's team
mode included), with the leak check on every answer: a seat receives exactly its engine view
and log at the answer's version, nothing of another seat's hidden part, never the seed before
the end; and the record served at the end replays to the same game."""

from __future__ import annotations

import json
import random

import pytest
from conftest import Mirror, create, hidden_from, leaves, view

from nemeton import list_games
from nemeton.engine import GameRecord


def configs():
    for spec in list_games():
        players = min(spec.player_counts)
        yield spec.name, {"players": players, **spec.bot_defaults}
        if spec.name == "amarok":
            yield spec.name, {"players": 4, "teams": True}


def seats_for(players):
    """People at the even seats; a heuristic at seat 1, random agents at the other odd ones."""
    return tuple("human" if s % 2 == 0 else ("heuristic" if s == 1 else "random") for s in range(players))


def check_nothing_hidden(mirror, snapshot, seat, since):
    state = mirror.check(snapshot, seat, since)
    got = set(leaves(snapshot["view"]))
    hidden = 0
    for other in range(state.num_players):
        if other != seat:
            secret = hidden_from(state, seat, other)
            assert not (secret & got), f"seat {seat} was shown seat {other}'s hidden part"
            hidden += len(secret)
    return hidden


@pytest.mark.parametrize("game, options", list(configs()), ids=lambda x: json.dumps(x) if isinstance(x, dict) else x)
def test_whole_game_through_the_api_with_people_and_agents_shows_each_seat_only_its_own(client, game, options):
    seats = seats_for(options["players"])
    room, tokens = create(client, game, seats, **options)
    mirror = Mirror(client, room)
    rng = random.Random(7)
    since = {seat: 0 for seat in tokens}
    moves = checks = hidden = 0
    for _ in range(10_000):
        snaps = {}
        for seat, token in tokens.items():
            snaps[seat] = view(client, room, token, since=since[seat])
            mirror.check(snaps[seat], seat, since[seat])
            since[seat] += len(snaps[seat]["log"])
        spectator = view(client, room)
        mirror.check(spectator, None)
        if spectator["terminal"]:
            break
        movers = [seat for seat, snap in snaps.items() if snap["legal_actions"]]
        if not movers:
            continue  # the agents are moving
        seat = rng.choice(movers)
        snap = snaps[seat]
        r = client.post(f"/api/rooms/{room}/actions", json={
            "token": tokens[seat], "action": rng.choice(snap["legal_actions"]), "version": snap["version"],
            "since": since[seat]})
        if r.status_code == 409:  # an agent acted at the same time (simultaneous decisions)
            assert "stale version" in r.json()["detail"]
            continue
        assert r.status_code == 200, r.text
        answer = r.json()
        if checks < 40:  # the full hidden-part comparison, on the first answers
            hidden += check_nothing_hidden(mirror, answer, seat, since[seat])
            checks += 1
        else:
            mirror.check(answer, seat, since[seat])
        since[seat] += len(answer["log"])
        moves += 1
    else:
        pytest.fail("the game did not end")
    assert moves > 0 and hidden > 0  # the other seats did hold something this seat must not see
    record = client.get(f"/api/rooms/{room}/record").json()
    final = GameRecord.from_json(record).replay()
    assert final.is_terminal()
    assert view(client, room)["view"] == json.loads(json.dumps(final.view(None)))
    assert record["seed"] == mirror.seed
    kinds = {s: ("human" if s in tokens else "agent") for s in range(options["players"])}
    assert {kinds[seat] for seat, _ in final.history} == {"human", "agent"}


@pytest.mark.parametrize("game, options", list(configs()), ids=lambda x: json.dumps(x) if isinstance(x, dict) else x)
def test_every_message_pushed_to_each_seat_and_the_spectator_is_exactly_what_it_may_see(client, game, options):
    seats = seats_for(options["players"])
    room, tokens = create(client, game, seats, **options)
    viewers = [*tokens, None]
    rng = random.Random(11)
    sockets = {v: client.websocket_connect(f"/ws/rooms/{room}" + (f"?token={tokens[v]}" if v is not None else ""))
               for v in viewers}
    try:
        for ws in sockets.values():
            ws.__enter__()
        while not view(client, room)["terminal"]:
            for seat, token in tokens.items():
                snap = view(client, room, token, since=10**9)
                if snap["legal_actions"]:
                    client.post(f"/api/rooms/{room}/actions",
                                json={"token": token, "action": rng.choice(snap["legal_actions"])})
        for viewer, ws in sockets.items():
            mirror, since, pushes = Mirror(client, room), 0, 0
            while True:
                message = ws.receive_json()
                if message["type"] == "seats":  # who is connected: public, no view in it
                    assert [set(s) - {"name_msg"} for s in message["seats"]] == [  # name_msg: a made-up name
                        {"seat", "name", "kind", "agent", "stand_in", "connected", "open"}] * len(message["seats"])
                    continue
                assert message["type"] == "state"
                if message.get("resync"):
                    since = 0
                mirror.check(message, viewer, since)  # its view and only its new log entries; no seed
                since += len(message["log"])
                pushes += 1
                if message["terminal"]:
                    break
            assert pushes > 1 and since == mirror.state.log_length()
    finally:
        for ws in sockets.values():
            ws.__exit__(None, None, None)
