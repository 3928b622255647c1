"""Rooms and seats alone (nemeton.server.seats): open seats taken and left, tokens and names,
without the app (tests/server/rooms_alone.py). Two rooms objects on one file are two server
processes: the database's conditional update decides who gets a seat."""

from __future__ import annotations

import asyncio

import pytest
from rooms_alone import counted, rooms_on, two_people

from nemeton.server.db import SeatRow
from nemeton.server.errors import BadRequest, Conflict, Forbidden
from nemeton.server.seats import check_name, hash_token, seat_name, seat_of

OPEN = {"kind": "open"}


def test_two_processes_taking_one_open_seat_one_gets_it_and_the_other_is_told_who(db_url):
    async def run():
        async with rooms_on(db_url) as one, rooms_on(db_url) as other:
            room_id, _, _ = await two_people(one, second=OPEN)
            assert (await other.get(room_id)).waiting  # both processes hold the room, seat 1 open
            answers = await asyncio.gather(one.seats.join(room_id, 1, "Cleo"), other.seats.join(room_id, 1, "Dan"),
                                           return_exceptions=True)
            won = [a for a in answers if isinstance(a, dict)]
            lost = [a for a in answers if isinstance(a, Conflict)]
            assert len(won) == 1 and len(lost) == 1, answers
            row = one.store.load_room(room_id).seats[1]
            assert row.token_hash == hash_token(won[0]["token"]) and won[0]["started"]
            assert str(lost[0]).startswith(f"{row.name} has taken this seat; no seat is open now")
            loser, winner = (other, one) if isinstance(answers[1], Conflict) else (one, other)
            assert counted(loser, "nemeton_stale_refusals_total", reason="lost_race") == 1  # its process counts it
            assert counted(winner, "nemeton_stale_refusals_total", reason="lost_race") == 0
            for rooms in (one, other):  # the loser caught up: both hold the seat as stored
                room = await rooms.get(room_id)
                assert room.seats[1].name == row.name and not room.waiting
                assert room.seat_of(won[0]["token"]) == 1
    asyncio.run(run())


def test_a_seat_left_before_the_start_is_open_again_and_its_token_no_longer_works(db_url):
    async def run():
        async with rooms_on(db_url) as rooms:
            made = await rooms.create("alarun", {}, [{"kind": "human", "name": "Ann"}, OPEN, OPEN])
            room_id = made["room"]
            taken = await rooms.seats.join(room_id, 1, "  Cleo   Moon ")
            room = await rooms.get(room_id)
            assert room.seats[1].name == "Cleo Moon" and room.seat_of(taken["token"]) == 1 and room.waiting
            left = await rooms.seats.leave(room_id, taken["token"])
            assert left["version"] == room.version == rooms.store.load_room(room_id).version
            assert room.open_seats() == [1, 2] and rooms.store.load_room(room_id).seats[1].token_hash is None
            with pytest.raises(Forbidden):
                room.seat_of(taken["token"])
            await rooms.seats.join(room_id, 1, "Dan")
            last = await rooms.seats.join(room_id, 2, "Eve")
            assert last["started"] and not room.waiting
            with pytest.raises(Conflict, match="game has started"):
                await rooms.seats.leave(room_id, last["token"])
            with pytest.raises(Conflict, match="Dan has taken this seat; no seat is open now"):
                await rooms.seats.join(room_id, 1, "Fay")
    asyncio.run(run())


def test_names_are_trimmed_and_bounded_and_seats_without_one_are_named_not_numbered():
    assert check_name("  Ann \t Lee ") == "Ann Lee"
    for bad in ("", "   ", "x" * 25, "Ann\x07", 7):
        with pytest.raises(BadRequest):
            check_name(bad)
    assert seat_name(SeatRow(1, "ai", None, "random", None)) == "Birch (AI)"
    assert seat_name(SeatRow(2, "human", None, None, None)) == "Open seat"
    assert seat_name(SeatRow(2, "human", None, None, hash_token("t"))) == "Player 3"


def test_a_token_names_its_seat_none_is_the_spectator_and_an_unknown_one_is_refused():
    seats = [SeatRow(0, "human", "Ann", None, hash_token("a")), SeatRow(1, "human", "Bob", None, hash_token("b"))]
    assert seat_of(seats, "b") == 1 and seat_of(seats, None) is None
    with pytest.raises(Forbidden, match="unknown token"):
        seat_of(seats, "c")
