"""The hint button in a real browser (issue 28): a person asks for a hint on their turn, waits
while it thinks, and sees the search's three preferred moves marked on the table (the thing
each concerns, with its rank and win chance) and listed beside it; the marks vanish once they
move. Keyboard reachable; the chosen time is remembered; a room with hints off has no button."""

from __future__ import annotations

import httpx
import pytest
from conftest import create_room, open_seat, snapshot


def hints_room(server, game, seats, hints):
    body = {"game": game, "options": {"players": len(seats)}, "hints": hints,
            "seats": [{"kind": "human", "name": "Ann"} if s == "human" else {"kind": "ai", "agent": s} for s in seats]}
    made = httpx.post(f"{server.base}/api/rooms", json=body, timeout=30).json()
    return made["room"], made["seats"][0]["token"]


@pytest.mark.parametrize("game, players", [("alarun", 2), ("amarok", 3), ("edora", 2)])
def test_a_hint_marks_three_moves_on_the_table_and_they_vanish_when_the_seat_moves(page, server, game, players):
    room, tokens, _ = create_room(server, game, ["human"] + ["heuristic"] * (players - 1))
    open_seat(page, server, room, tokens[0])
    button = page.locator("#hint-button")
    button.wait_for(state="visible", timeout=60_000)  # the AI seats move first where they act first
    page.select_option("#hint-seconds", "1")
    assert page.evaluate("localStorage.getItem('nemeton:hint-seconds')") == "1"
    decision = snapshot(page)["legal_actions"]
    page.focus("#hint-button")
    page.keyboard.press("Enter")  # reachable and usable from the keyboard
    page.locator("#hint-progress").wait_for(state="visible", timeout=5_000)
    page.locator("#hint-list li").nth(2 if len(decision) >= 3 else len(decision) - 1).wait_for(timeout=60_000)
    listed = page.eval_on_selector_all("#hint-list li", "ls => ls.map((l) => l.querySelector('.hint-win').textContent)")
    assert len(listed) == min(3, len(decision))
    best = page.locator("#board [data-hint-rank='1'], #actionbar [data-hint-rank='1']")
    assert best.count() >= 1
    mark = best.first.get_attribute("data-hint")
    assert mark.startswith("1 · ") and mark.split(" · ")[1] in listed[0]
    marked_ranks = set(page.eval_on_selector_all("[data-hint-rank]", "es => es.map((e) => e.dataset.hintRank)"))
    assert "1" in marked_ranks and marked_ranks <= {"1", "2", "3"}
    # the seat moves (from the moves list): the hint is old, and it goes
    before = snapshot(page)["moves"]
    page.click("#moves summary")
    page.locator("#moves-list button").first.click()
    page.wait_for_function(f"window.nemeton.snapshot.moves > {before}")
    page.wait_for_function("!document.querySelector('[data-hint]') && !document.getElementById('hint-list')")
    page.reload()  # the chosen time is remembered
    page.wait_for_function("window.nemeton && window.nemeton.snapshot")
    page.locator("#hint-panel").wait_for(state="visible")
    if page.locator("#hint-seconds").count():
        assert page.input_value("#hint-seconds") == "1"


def test_a_room_with_hints_off_shows_no_hint_button(page, server):
    room, token = hints_room(server, "alarun", ["human", "heuristic"], hints=False)
    open_seat(page, server, room, token)
    page.wait_for_function("window.nemeton.snapshot.legal_actions.length > 0")
    assert page.locator("#hint-panel").is_hidden() and page.locator("#hint-button").count() == 0
    answer = httpx.post(f"{server.base}/api/rooms/{room}/hint", json={"token": token}, timeout=30)
    assert answer.status_code == 403


def test_the_lobby_turns_hints_on_against_the_ai_and_on_one_device_off_between_links_and_keeps_a_choice(page, server):
    page.goto(f"{server.base}/")
    page.wait_for_selector("#seat-list .seat-row")
    kinds = page.locator("#seat-list .seat-kind")
    assert kinds.count() >= 2 and page.is_checked("#hints")  # you here, the others the AI
    kinds.nth(1).select_option("here")  # two people on this device: hotseat
    assert page.is_checked("#hints")
    kinds.nth(1).select_option("invite")  # a friend from their own link: online
    assert not page.is_checked("#hints")
    page.check("#hints")  # the creator's own choice stays
    kinds.nth(1).select_option("open")
    assert page.is_checked("#hints")
    page.click("#create")
    page.wait_for_url(lambda url: "/rooms/" in url)
    room = page.url.split("/rooms/")[1].split("?")[0]
    assert httpx.get(f"{server.base}/api/rooms/{room}", timeout=30).json()["hints"] is True
