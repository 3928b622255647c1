"""Layouts that hold: four players with the longest names (24 characters, wide letters, or no
space to break at) leave every game's table, players' panel and score screen intact (nothing
overflows its box, the seats do not overlap, no sideways scroll); on a 1366 x 768 laptop the
shared board, the seat's own area and its highlighted moves or action bar are on the screen
at once, the page scrolled to the top; the page's icon is served."""

from __future__ import annotations

import time

import httpx
import pytest
from conftest import open_seat, play_by_clicks, screenshot

WIDE = "W" * 24                            # the widest letters
UNBROKEN = "Abcdefghijklmnopqrstuvwx"        # 24 characters, nowhere to break a line
assert len(WIDE) == len(UNBROKEN) == 24

# Elements a box may not be left by: every visible descendant stays inside (unless a scrolling
# or clipping box between them holds it), the SVG map's own drawing aside.
OVERFLOWS = """(sel) => {
  const out = [];
  for (const box of document.querySelectorAll(sel)) {
    const b = box.getBoundingClientRect();
    if (!b.width || !b.height) continue;
    for (const e of box.querySelectorAll("*")) {
      if (e instanceof SVGElement && e.ownerSVGElement) continue;
      const r = e.getBoundingClientRect();
      if (!r.width || !r.height) continue;
      let a = e.parentElement, held = false;
      while (a && a !== box) {
        const o = getComputedStyle(a);
        if (o.overflowX !== "visible" || o.overflowY !== "visible") { held = true; break; }
        a = a.parentElement;
      }
      if (held) continue;
      // the box itself may scroll up and down (its content then stays inside sideways) or end a
      // line in an ellipsis (its content then stays inside up and down)
      const own = getComputedStyle(box);
      const scrolls = own.overflowY === "auto" || own.overflowY === "scroll";
      const cuts = own.overflowX === "hidden" && own.textOverflow === "ellipsis";
      const sideways = !cuts && (r.left < b.left - 2 || r.right > b.right + 2);
      const upDown = !scrolls && (r.top < b.top - 2 || r.bottom > b.bottom + 2);
      if (sideways || upDown) {
        out.push(`${sel} > ${e.tagName.toLowerCase()}.${[...e.classList].join(".")}: ` +
                 `[${Math.round(r.left)}, ${Math.round(r.right)}] x [${Math.round(r.top)}, ${Math.round(r.bottom)}] ` +
                 `outside [${Math.round(b.left)}, ${Math.round(b.right)}] x [${Math.round(b.top)}, ${Math.round(b.bottom)}]`);
      }
    }
  }
  return out;
}"""

# Boxes of `sel` that overlap each other (pairs of indexes).
OVERLAPS = """(sel) => {
  const boxes = [...document.querySelectorAll(sel)].map((e) => e.getBoundingClientRect()).filter((r) => r.width && r.height);
  const out = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i], b = boxes[j];
    if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) out.push([i, j]);
  }
  return out;
}"""

BOX = """(sel) => { const e = document.querySelector(sel); if (!e) return null;
  const r = e.getBoundingClientRect(); return { left: r.left, top: r.top, right: r.right, bottom: r.bottom,
  width: r.width, height: r.height }; }"""

TABLE = {  # per game: the seats' boxes that must not overlap, the boxes that must hold their content
    "alarun": {"seats": ".al-seat-panel", "intact": [".al-seat-panel", ".al-own", ".al-centre", ".al-status"]},
    "amarok": {"seats": ".amk-seat", "intact": [".amk-seat", ".amk-ring", ".amk-round-banner", ".amk-centre"]},
    "edora": {"seats": ".ed-board", "intact": [".ed-board", ".ed-status", ".ed-column"]},
}


def create_named_room(server, game, seats, names, **options):
    """A room whose seats are "human" or an agent spec, named `names`; returns (room, {seat: token})."""
    body = {"game": game, "options": {"players": len(seats), **options}, "undo": False,
            "seats": [{"kind": "human", "name": n} if s == "human" else {"kind": "ai", "agent": s, "name": n}
                      for s, n in zip(seats, names)]}
    r = httpx.post(f"{server.base}/api/rooms", json=body, timeout=30)
    assert r.status_code == 201, r.text
    data = r.json()
    return data["room"], {s["seat"]: s["token"] for s in data["seats"]}


def names_for(kind, n):
    return [WIDE] * n if kind == "wide" else [UNBROKEN[k:] + UNBROKEN[:k] for k in range(n)]


def check_intact(page, selectors, seats=None):
    width = page.evaluate("document.documentElement.scrollWidth")
    inner = page.evaluate("window.innerWidth")
    assert width <= inner, f"the page scrolls sideways: {width} > {inner} px"
    for sel in selectors:
        bad = page.evaluate(OVERFLOWS, sel)
        assert not bad, f"content leaves its box: {bad[:4]}"
    if seats:
        assert page.evaluate(OVERLAPS, seats) == [], f"{seats} overlap"


def wait_for_turn(page):
    page.wait_for_function("""() => { const s = window.nemeton.snapshot; return s && (s.finished ||
        (s.legal_actions.length > 0 && !window.nemeton.pending && document.querySelector('#board .legal, #actionbar .legal'))); }""")


@pytest.mark.parametrize("kind", ["wide", "unbroken"])
@pytest.mark.parametrize("game", ["alarun", "amarok", "edora"])
def test_four_players_with_the_longest_names_leave_the_table_and_the_players_panel_intact(server, page, game, kind):
    room, tokens = create_named_room(server, game, ["human", "random", "random", "random"], names_for(kind, 4))
    open_seat(page, server, room, tokens[0])
    checked = 0
    for _ in range(3):  # a few of the seat's turns (the others' moves in between)
        wait_for_turn(page)
        if page.locator("#score").is_visible():
            break
        page.evaluate("window.scrollTo(0, 0)")
        check_intact(page, ["#players", "#players .player", *TABLE[game]["intact"]], TABLE[game]["seats"])
        assert page.evaluate(OVERLAPS, "#players .player") == []
        # a name too long for its place ends in an ellipsis, the whole of it in a title
        titles = page.eval_on_selector_all("#players .seat-badge", "es => es.map((e) => e.title)")
        assert len(titles) == 4 and all(n in t for n, t in zip(names_for(kind, 4), titles))
        checked += 1
        before = page.evaluate("window.nemeton.snapshot.moves")
        play_by_clicks(page, until=lambda p: p.evaluate("window.nemeton.snapshot.moves") > before or p.locator("#score").is_visible(),
                       seed=checked, timeout=30)
    assert checked >= 2
    screenshot(page, f"layout-{game}-{kind}")
    if game == "amarok":
        assert page.locator(".amk-seat").count() == 4


def finished_room(server, game, names, **options):
    room, _ = create_named_room(server, game, ["random"] * len(names), names, **options)
    deadline = time.monotonic() + 60
    while httpx.get(f"{server.base}/api/rooms/{room}", timeout=10).json().get("status") != "finished":
        assert time.monotonic() < deadline, "the AIs did not finish the game"
        time.sleep(0.2)
    return room


@pytest.mark.parametrize("game,options", [("alarun", {}), ("amarok", {}), ("amarok", {"teams": True}), ("edora", {})])
def test_the_score_screen_holds_four_of_the_longest_names_and_names_the_winner_once(server, page, game, options):
    names = [WIDE, UNBROKEN, WIDE, UNBROKEN]
    room = finished_room(server, game, names, **options)
    open_seat(page, server, room)
    page.wait_for_selector("#score:not([hidden])")
    check_intact(page, ["#score .overlay-card"])
    card = page.evaluate("""() => { const c = document.querySelector('#score .overlay-card');
        return { scroll: c.scrollWidth, client: c.clientWidth }; }""")
    assert card["scroll"] <= card["client"] + 1, f"the score screen scrolls sideways: {card}"
    # the winner is announced once: the score line, and no second headline in the sheet
    line = page.text_content("#score-winner")
    assert line.strip()
    assert page.locator("#score .al-headline, #score .ed-winner, #score .amk-score-winner").count() == 0
    text = page.text_content("#score .overlay-card")
    assert text.count(line.strip()) == 1
    assert text.count("appointed the new druid") <= 1 and text.count("wins the game") <= 1 and text.count(" win with ") <= 1
    # no engine index in the score screen: every seat is named
    assert "seat 0" not in text.lower() and "Seat 0" not in line
    screenshot(page, f"layout-score-{game}{'-teams' if options else ''}")


LAPTOP = {  # per game: the shared board, the seat's own area
    "alarun": (".al-centre", ".al-own"),
    "amarok": (".amk-ring", ".amk-own"),
    "edora": (".ed-map-wrap", ".ed-own-area"),
}

IN_SIGHT = """() => {
  const w = window.innerWidth, h = window.innerHeight;
  const inside = (r) => r.left >= -1 && r.top >= -1 && r.right <= w + 1 && r.bottom <= h + 1;
  const scrolled = (e) => { for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
      const o = getComputedStyle(a).overflowY; if (o === "auto" || o === "scroll") return true; } return false; };
  const legal = [...document.querySelectorAll("#board .legal, #actionbar .legal")].filter((e) => e.getClientRects().length);
  const bar = document.getElementById("actionbar");
  return {
    legal: legal.length,
    legalInSight: legal.filter((e) => inside(e.getBoundingClientRect())).length,
    // every highlighted thing outside a scrolling box of its own is on the screen
    legalOut: legal.filter((e) => !scrolled(e) && !inside(e.getBoundingClientRect())).map((e) => e.className.baseVal ?? e.className),
    bar: bar && bar.childElementCount && bar.getClientRects().length ? inside(bar.getBoundingClientRect()) : null,
  };
}"""


@pytest.mark.parametrize("game", ["alarun", "amarok", "edora"])
def test_on_a_laptop_the_board_your_area_and_your_moves_fit_the_screen(server, laptop, game):
    room, tokens = create_named_room(server, game, ["human", "random", "random", "random"], ["Ann", "Bob", "Cleo", "Dan"])
    open_seat(laptop, server, room, tokens[0])
    shared, own = LAPTOP[game]
    checked = 0
    seen = []
    for k in range(6):
        wait_for_turn(laptop)
        if laptop.locator("#score").is_visible():
            break
        laptop.evaluate("window.scrollTo(0, 0)")
        laptop.wait_for_timeout(50)
        for sel in (shared, own):
            box = laptop.evaluate(BOX, sel)
            assert box and box["height"] > 0, f"{sel} is not drawn"
            assert box["top"] >= 0 and box["left"] >= 0 and box["bottom"] <= 768 and box["right"] <= 1366, \
                f"{game}: {sel} is not within the 1366 x 768 screen: {box}"
            seen.append((sel, round(box["top"]), round(box["bottom"])))
        sight = laptop.evaluate(IN_SIGHT)
        assert sight["legalInSight"] > 0, f"{game}: no highlighted move on the screen: {sight}"
        assert sight["legalOut"] == [], f"{game}: highlighted moves below the screen: {sight}"
        assert sight["bar"] in (None, True), f"{game}: the action bar is not on the screen"
        assert laptop.evaluate("document.documentElement.scrollWidth") <= 1366
        checked += 1
        if k == 1:
            screenshot(laptop, f"laptop-{game}")
        before = laptop.evaluate("window.nemeton.snapshot.moves")
        play_by_clicks(laptop, until=lambda p: p.evaluate("window.nemeton.snapshot.moves") > before or p.locator("#score").is_visible(),
                       seed=k, timeout=30)
    assert checked >= 4, seen


def test_every_page_has_an_icon(server):
    r = httpx.get(f"{server.base}/static/favicon.svg", timeout=10)
    assert r.status_code == 200 and "image/svg+xml" in r.headers["content-type"] and "<svg" in r.text
    for path in ("/", "/rooms/nothing", "/rooms/nothing/replay"):
        page = httpx.get(f"{server.base}{path}", timeout=10).text
        assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in page, path
