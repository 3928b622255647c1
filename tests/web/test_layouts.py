"""Layouts that hold: four players (and Amarok's most, six) with the longest names (24
characters, wide letters, or no space to break at) leave every game's table, players' panel and
score screen intact (nothing overflows its box, the seats do not overlap, no sideways scroll);
on a 1366 x 768 laptop, with four players and Amarok's six, the shared board, the seat's own
area and its highlighted moves or action bar are on the screen at once, the page scrolled to
the top, and a highlighted move inside a box that scrolls on its own (only Edora's column) is
in that box's visible part; the page's icon is served."""

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


# Waits for the page's finite animations to end (a card turning over is transformed while it
# turns, and its box then leaves its place for a moment; endless ones, a pulsing highlight, stay).
SETTLED = """async () => {
  const finite = document.getAnimations().filter((a) => {
    const t = a.effect && a.effect.getComputedTiming ? a.effect.getComputedTiming() : null;
    return t && Number.isFinite(t.endTime) && a.playState !== "finished";
  });
  await Promise.all(finite.map((a) => a.finished.catch(() => null)));
}"""


def check_intact(page, selectors, seats=None):
    page.evaluate(SETTLED)
    width = page.evaluate("document.documentElement.scrollWidth")
    inner = page.evaluate("window.innerWidth")
    assert width <= inner, f"the page scrolls sideways: {width} > {inner} px"
    for sel in selectors:
        bad = page.evaluate(OVERFLOWS, sel)
        assert not bad, f"content leaves its box: {bad[:4]}"
    if seats:
        assert page.evaluate(OVERLAPS, seats) == [], f"{seats} overlap"


def wait_for_turn(page):
    page.wait_for_function("""() => { const s = window.nemeton.snapshot; return s && (s.terminal ||
        (s.legal_actions.length > 0 && !window.nemeton.pending && document.querySelector('#board .legal, #actionbar .legal'))); }""")


# every game at four players, and Amarok at six (the most it seats: the broken table
# was Amarok's with long names)
GAMES_AT = [("alarun", 4), ("amarok", 4), ("amarok", 6), ("edora", 4)]


@pytest.mark.parametrize("kind", ["wide", "unbroken"])
@pytest.mark.parametrize("game,players", GAMES_AT)
def test_the_most_players_with_the_longest_names_leave_the_table_and_the_players_panel_intact(server, page, game, players,
                                                                                            kind):
    room, tokens = create_named_room(server, game, ["human"] + ["random"] * (players - 1), names_for(kind, players))
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
        assert len(titles) == players and all(n in t for n, t in zip(names_for(kind, players), titles))
        checked += 1
        before = page.evaluate("window.nemeton.snapshot.moves")
        play_by_clicks(page, until=lambda p: p.evaluate("window.nemeton.snapshot.moves") > before or p.locator("#score").is_visible(),
                       seed=checked, timeout=30)
    assert checked >= 2
    screenshot(page, f"layout-{game}{players}-{kind}")
    if game == "amarok":
        assert page.locator(".amk-seat").count() == players


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


# The boxes of the table that may scroll on their own with highlighted moves inside: Edora's
# column on a laptop (its own board, the focus and status panels; docs/web.md). There the page
# brings the moves into the box's view; every other game's moves are on the screen as it is.
INNER_SCROLL = {"alarun": set(), "amarok": set(), "edora": {"ed-own-area", "ed-focus", "ed-status"}}

LAPTOP = {  # per game: the shared board, the seat's own area
    "alarun": (".al-centre", ".al-own"),
    "amarok": (".amk-ring", ".amk-own"),
    "edora": (".ed-map-wrap", ".ed-own-area"),
}

IN_SIGHT = """() => {
  const w = window.innerWidth, h = window.innerHeight;
  // where an element can be seen: the window, cut by every box around it that scrolls or clips
  // (its visible inside: without its borders and scroll bars)
  const seen = (e) => {
    let v = { left: 0, top: 0, right: w, bottom: h }, box = null;
    for (let a = e.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      const o = getComputedStyle(a);
      if (o.overflowX === "visible" && o.overflowY === "visible") continue;
      const b = a.getBoundingClientRect();
      const left = b.left + a.clientLeft, top = b.top + a.clientTop;
      v = { left: Math.max(v.left, left), top: Math.max(v.top, top),
            right: Math.min(v.right, left + a.clientWidth), bottom: Math.min(v.bottom, top + a.clientHeight) };
      if (!box && (o.overflowY === "auto" || o.overflowY === "scroll")) box = a;
    }
    return { v, box };
  };
  // the share of a box's area in sight (a highlight's outline cut by a pixel or two at the map's
  // edge is still seen; a move half hidden in a box that scrolls is not)
  const shown = (r, v) => Math.max(0, Math.min(r.right, v.right) - Math.max(r.left, v.left))
    * Math.max(0, Math.min(r.bottom, v.bottom) - Math.max(r.top, v.top)) / (r.width * r.height);
  const inside = (r, v) => r.left >= v.left - 1 && r.top >= v.top - 1 && r.right <= v.right + 1 && r.bottom <= v.bottom + 1;
  const name = (e) => (e.className.baseVal ?? e.className) || e.tagName;
  const legal = [...document.querySelectorAll("#board .legal, #actionbar .legal")].filter((e) => e.getClientRects().length);
  const bar = document.getElementById("actionbar");
  const out = [], boxes = new Set();
  for (const e of legal) {
    const { v, box } = seen(e);
    if (box) boxes.add(box.classList[0] || box.tagName);
    if (shown(e.getBoundingClientRect(), v) < 0.9) out.push(`${name(e)}${box ? ` in ${name(box)}` : ""}`);
  }
  return {
    legal: legal.length,
    legalInSight: legal.length - out.length,
    // every highlighted thing is on the screen, inside the visible part of any box that scrolls it
    legalOut: out,
    scrollBoxes: [...boxes],
    bar: bar && bar.childElementCount && bar.getClientRects().length ? inside(bar.getBoundingClientRect(), { left: 0, top: 0, right: w, bottom: h }) : null,
  };
}"""


@pytest.mark.parametrize("game,players", GAMES_AT)
def test_on_a_laptop_the_board_your_area_and_your_moves_fit_the_screen(server, laptop, game, players):
    names = ["Ann", "Bob", "Cleo", "Dan", "Eve", "Finn"][:players]
    room, tokens = create_named_room(server, game, ["human"] + ["random"] * (players - 1), names)
    open_seat(laptop, server, room, tokens[0])
    shared, own = LAPTOP[game]
    checked = scrolled = 0
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
        assert sight["legalOut"] == [], f"{game}: highlighted moves out of sight: {sight}"
        assert set(sight["scrollBoxes"]) <= INNER_SCROLL[game], f"{game}: moves in a box that scrolls: {sight}"
        scrolled += bool(sight["scrollBoxes"])
        assert sight["bar"] in (None, True), f"{game}: the action bar is not on the screen"
        assert laptop.evaluate("document.documentElement.scrollWidth") <= 1366
        checked += 1
        if k == 1 and players == 4:
            screenshot(laptop, f"laptop-{game}")
        before = laptop.evaluate("window.nemeton.snapshot.moves")
        play_by_clicks(laptop, until=lambda p: p.evaluate("window.nemeton.snapshot.moves") > before or p.locator("#score").is_visible(),
                       seed=k, timeout=30)
    assert checked >= 4, seen
    if game == "edora":  # its board scrolls in its column: the page brought the moves there into view
        assert scrolled, "no highlighted move was in a box that scrolls"


def test_every_page_has_an_icon(server):
    r = httpx.get(f"{server.base}/static/favicon.svg", timeout=10)
    assert r.status_code == 200 and "image/svg+xml" in r.headers["content-type"] and "<svg" in r.text
    for path in ("/", "/rooms/nothing", "/rooms/nothing/replay"):
        page = httpx.get(f"{server.base}{path}", timeout=10).text
        assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in page, path
