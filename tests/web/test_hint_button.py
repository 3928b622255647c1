"""The hint button in a real browser (issue 28): a person asks for a hint on their turn, waits
while it thinks, and sees the search's three preferred moves marked on the table (the thing
each concerns, with its rank and win chance) and listed beside it; the marks vanish once they
move. Keyboard reachable; the chosen time is remembered; a room with hints off has no button.
The marks read well at desktop and phone widths: each hinted thing's ring and badge are drawn,
nothing covers a badge, and no two badges overlap."""

from __future__ import annotations

import httpx
import pytest
from conftest import create_room, open_seat, screenshot, snapshot

# Each hinted thing on the table (board and action bar): its ring and badge, and what is on top
# at the badge's centre once the thing is scrolled into the middle of the screen.
MARK = """(thing) => {
  thing.scrollIntoView({block: "center", inline: "center"});
  const own = [...thing.children];
  const ring = own.find((c) => c.matches(".hint-ring, .ed-hint-ring"));
  const badge = own.find((c) => c.matches(".hint-badge, .ed-hint"));
  if (!ring || !badge) return {rank: thing.dataset.hintRank, ring: !!ring, badge: false};
  const r = badge.getBoundingClientRect();
  const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
  const ringShown = getComputedStyle(ring).display !== "none" && getComputedStyle(ring).visibility !== "hidden";
  return {rank: thing.dataset.hintRank, ring: ringShown, badge: true, text: badge.textContent,
          covered: !(top === badge || badge.contains(top)),
          on_top: top && `${top.tagName}.${top.getAttribute("class")}`, width: r.width, height: r.height};
}"""

# Every badge's box on the page (the page's own coordinates), to compare them pairwise.
BADGES = """() => [...document.querySelectorAll("#board [data-hint-rank], #actionbar [data-hint-rank]")].flatMap((thing) =>
  [...thing.children].filter((c) => c.matches(".hint-badge, .ed-hint")).map((badge) => {
    const r = badge.getBoundingClientRect();
    return {rank: thing.dataset.hintRank, x: r.x + scrollX, y: r.y + scrollY, w: r.width, h: r.height};
  }))"""


def check_marks(page):
    """Every hinted thing of the table shows a ring and a badge starting with its rank; nothing
    covers a badge (the element at its centre is the badge); no two badges overlap. Returns
    how many things are marked."""
    things = page.locator("#board [data-hint-rank], #actionbar [data-hint-rank]")
    count = things.count()
    assert count >= 1
    for i in range(count):
        mark = things.nth(i).evaluate(MARK)
        assert mark["ring"] and mark["badge"], mark
        assert mark["text"].startswith(mark["rank"]) and mark["width"] > 0 and mark["height"] > 0, mark
        assert not mark["covered"], f"hint {mark['rank']}'s badge is covered by {mark['on_top']}"
    badges = page.evaluate(BADGES)
    assert len(badges) == count
    for i, a in enumerate(badges):
        for b in badges[i + 1:]:
            apart = (a["x"] + a["w"] <= b["x"] + 0.5 or b["x"] + b["w"] <= a["x"] + 0.5
                     or a["y"] + a["h"] <= b["y"] + 0.5 or b["y"] + b["h"] <= a["y"] + 0.5)
            assert apart, f"the badges of hints {a['rank']} and {b['rank']} overlap: {a} {b}"
    return count


def ask_hint(page, decision):
    """Click the hint button and wait for the three moves (fewer with fewer choices)."""
    page.locator("#hint-button").wait_for(state="visible", timeout=60_000)
    page.click("#hint-button")
    page.locator("#hint-list li").nth(min(3, len(decision)) - 1).wait_for(timeout=60_000)


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
    check_marks(page)
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, f"hints-{game}")
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


BEST = "#board [data-hint-rank='1']:not(.selected), #actionbar [data-hint-rank='1']"
# Which of the best move's marks a person clicks next: not another copy of a card already chosen
# (two copies of one card in the centre or the hand both carry the mark, and clicking the second
# only moves the choice to it), so a thing beside no chosen one where there is such a thing.
NEXT_MARK = """(sel) => {
  const marks = [...document.querySelectorAll(sel)];
  const next = marks.findIndex((e) => !e.parentElement || !e.parentElement.querySelector(":scope > .selected"));
  return Math.max(next, 0);
}"""


@pytest.mark.parametrize("game, players", [("alarun", 2), ("amarok", 4), ("edora", 2)])
def test_hint_marks_stay_visible_and_apart_on_a_phone_over_several_decisions(phone, server, game, players):
    """At 360 px: the best hinted move played by clicking its marks, three decisions in a row
    (Alarún's swap then its cells, Amarok's cards side by side, Edora's sanctuaries, spaces and dice)."""
    room, tokens, _ = create_room(server, game, ["human"] + ["heuristic"] * (players - 1))
    open_seat(phone, server, room, tokens[0])
    marked = 0
    for decision in range(3):
        ask_hint(phone, snapshot(phone)["legal_actions"])
        marked += check_marks(phone)
        if decision == 0:
            phone.evaluate("window.scrollTo(0, 0)")
            screenshot(phone, f"hints-{game}-phone")
        before = snapshot(phone)["moves"]
        for _click in range(4):  # the best move's things, one click each (a card, then its cell...)
            best = phone.locator(BEST)
            if snapshot(phone)["moves"] > before or not best.count():
                break
            best.nth(phone.evaluate(NEXT_MARK, BEST)).click()
            phone.wait_for_timeout(200)
        phone.wait_for_function(f"window.nemeton.snapshot.moves > {before}", timeout=30_000)
    assert marked >= 3
