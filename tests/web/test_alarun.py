"""Alarún's table in a real browser (games/alarun/web/renderer.js): whole games played by clicks on the
cards and cells themselves, what the table shows against the seat's view, the score sheets
against the final view and log, hidden cards never reaching seat 0's page, the keyboard, and a
phone's screen."""

from __future__ import annotations

import json
import time
from collections import Counter

import httpx

from conftest import (check_no_leak, create_room, new_page, open_seat, play_by_clicks, play_checking_the_phone_fits,
                      record_frames, screenshot, snapshot, state_at)

from nemeton.games.alarun.components import CARD_NAMES

# One evaluation reads the page's last snapshot and what its table draws, so both are of the
# same moment (the page redraws synchronously when a state arrives).
READ_TABLE = """() => {
  const snap = window.nemeton.snapshot;
  const board = document.getElementById("board");
  const faces = (root, sel) => [...root.querySelectorAll(sel)].map((c) =>
    c.classList.contains("back") ? "back" : c.dataset.card);
  const cells = (root) => [...root.querySelectorAll(".al-square [data-card]")].map((c) =>
    [Number(c.dataset.x), Number(c.dataset.y), c.dataset.card]);
  const seats = {};
  board.querySelectorAll(".al-seat-panel").forEach((p) => {
    seats[p.dataset.seat] = { hand: faces(p, ".al-their-hand .card"), known: faces(p, ".al-known .card"), cells: cells(p),
                              pending: p.querySelectorAll(".al-pending-backs .card.back").length };
  });
  const own = board.querySelector(".al-square-box");
  const legal = (sel) => [...board.querySelectorAll(sel)];
  const bar = document.getElementById("actionbar");
  return {
    view: snap.view, legal: snap.legal_actions, moves: snap.moves, seats,
    hand: faces(board, ".al-hand .card"),
    centre: faces(board, ".al-centre-cards .card"),
    faceDown: board.querySelectorAll(".al-face-down .card.back").length,
    own: own ? cells(own) : null,
    ownPending: own ? [...own.querySelectorAll(".al-pending")].map((c) => [Number(c.dataset.x), Number(c.dataset.y)]) : [],
    colour: (board.querySelector(".al-hand-box .al-colour-card") || { dataset: {} }).dataset.card,
    legalHand: legal(".al-hand .legal").map((e) => e.dataset.card),
    legalCentre: legal(".al-centre-cards .legal").map((e) => e.dataset.card),
    legalCells: legal(".al-square-box .al-slot.legal").map((e) => [Number(e.dataset.x), Number(e.dataset.y)]),
    buttons: [...bar.querySelectorAll(".legal")].map((e) => e.dataset.key),
    selected: board.querySelectorAll(".selected").length,
    highlighted: document.querySelectorAll(".legal").length,
    strayLegal: legal(".legal").filter((e) => !e.closest(".al-hand, .al-centre-cards, .al-square-box")).length,
    backsWithCard: document.querySelectorAll(".card.back[data-card]").length,
  };
}"""


def with_druid(cells):
    return sorted([[0, 0, "druid"]] + [list(c) for c in cells])


class TableChecks:
    """Called between clicks: whenever seat 0 may act, the table must show exactly its view (its
    hand, secret colour and square with this round's placements marked, the centre, the
    face-down cards, each other seat's known cards, hidden cards as backs, square and face-down
    placements) and highlight exactly the first clicks of its legal moves. Counts what it
    checked, so a test can assert it ran."""

    def __init__(self, shot_at=None):
        self.turns = 0
        self.checked = set()  # the decisions checked, by the number of moves before them
        self.placements = 0
        self.shot_at = shot_at
        self.shot = False

    def __call__(self, page):
        if page.locator("#score").is_visible():
            return True
        t = page.evaluate(READ_TABLE)
        view, legal = t["view"], t["legal"]
        if view["terminal"] or not legal or not t["highlighted"] or t["selected"] or t["moves"] in self.checked:
            return False  # not our turn, our move is on its way, half a move is chosen, or checked
        self.checked.add(t["moves"])
        assert t["hand"] == view["hand"]
        assert t["colour"] == view["secret_colour"]
        assert t["centre"] == view["centre"]
        assert t["faceDown"] == view["face_down"]
        assert sorted(t["own"]) == with_druid(view["squares"][0])
        assert sorted(t["ownPending"]) == sorted(view["my_placements"])
        for seat in range(1, view["players"]):
            shown = t["seats"][str(seat)]
            known = view["known_hands"][seat]
            placing = view["phase"] == "placement"
            if placing:  # the cards seen taken may lie in the hand or face down in the square
                assert shown["hand"] == ["back"] * view["hand_sizes"][seat] and shown["known"] == known
            else:
                assert shown["hand"] == known + ["back"] * (view["hand_sizes"][seat] - len(known)), f"seat {seat}'s hand"
                assert shown["known"] == []
            assert sorted(shown["cells"]) == with_druid(view["squares"][seat]), f"seat {seat}'s square"
            assert shown["pending"] == (view["placed_this_round"][seat] if placing else 0)
        assert t["backsWithCard"] == 0
        # the first click of every legal move is highlighted, and nothing else
        swaps = [a for a in legal if a["type"] == "swap"]
        places = [a for a in legal if a["type"] == "place"]
        assert set(t["legalHand"]) == {a["give"] for a in swaps} | {a["card"] for a in places}
        assert set(t["legalCentre"]) == {a["take"] for a in swaps}
        assert {tuple(c) for c in t["legalCells"]} == {(a["x"], a["y"]) for a in places}
        assert set(t["buttons"]) == {f"act-{a['type']}" for a in legal if a["type"] in ("pass", "swap_all", "flip")}
        assert t["strayLegal"] == 0
        self.turns += 1
        self.placements += bool(places)
        if self.shot_at and not self.shot and self.shot_at(view):
            page.evaluate("window.scrollTo(0, 0)")
            page.wait_for_timeout(700)  # the last moves' 600 ms flash is over
            screenshot(page, "alarun")
            self.shot = True
        return False


def read_score(page):
    return page.evaluate("""() => {
      const num = (e) => Number(e.textContent.trim());
      const summary = [...document.querySelectorAll("#score .al-summary tbody tr")].map((r) =>
        [Number(r.dataset.seat), num(r.querySelector(".al-total-value"))]);
      const sheets = {};
      document.querySelectorAll("#score .al-sheet").forEach((s) => {
        const lines = {};
        s.querySelectorAll(".al-lines tbody tr").forEach((r) => { lines[r.dataset.line] = num(r.querySelector(".al-num")); });
        const druid = s.querySelector('.al-square [data-x="0"][data-y="0"]');
        sheets[s.dataset.seat] = {
          lines, druid: druid && druid.dataset.card,
          rowPoints: [...s.querySelectorAll(".al-row-points span")].map((e) => e.textContent),
          cells: [...s.querySelectorAll(".al-square [data-card]")].map((c) => [Number(c.dataset.x), Number(c.dataset.y), c.dataset.card]),
          potions: num(s.querySelector(".al-potions-value")), centum: num(s.querySelector(".al-centum-value")),
          colour: num(s.querySelector(".al-colour-bonus-value")), total: num(s.querySelector(".al-total-value")),
          words: s.querySelector(".al-lines").textContent,
        };
      });
      // the winner is named once, by the room's score line (the sheet has no second headline)
      const headline = document.getElementById("score-winner");
      return { summary, sheets, headline: headline ? headline.textContent : "",
               headlines: document.querySelectorAll("#score .al-headline").length };
    }""")


def check_score_sheets(page, server, room):
    """The score screen's figures are the final view's scores and breakdowns, line by line as
    the log tells them; every seat's whole square is shown with its druid's value."""
    snap = snapshot(page)
    view = snap["view"]
    assert snap["terminal"] and view["terminal"]
    log = state_at(server, room, snap["moves"]).log(0)
    score = read_score(page)
    assert sorted(score["summary"]) == [[s, round(v)] for s, v in enumerate(view["scores"])]
    # the first row has the winning total (on a tie in totals the winner is decided by potions)
    assert score["summary"][0][1] == round(view["scores"][view["winners"][0]])
    best = round(view["scores"][view["winners"][0]])
    assert f"with {best} points" in score["headline"] and "win" in score["headline"]
    assert score["headlines"] == 0, "the winner is announced twice"
    for seat, b in enumerate(view["breakdowns"]):
        sheet = score["sheets"][str(seat)]
        lines = {e["line"]: e for e in log if e["kind"] == "potion_scored" and e["player"] == seat}
        assert sheet["lines"] == {line: e["points"] for line, e in lines.items()}
        assert [sheet["lines"][x] for x in "ABCDE"] == b["rows"]
        assert [sheet["lines"][x] for x in "FGHIJ"] == b["columns"]
        assert sheet["rowPoints"] == [f"{x} {p}" for x, p in zip("ABCDE", b["rows"])]
        assert (sheet["potions"], sheet["centum"], sheet["colour"], sheet["total"]) == (
            b["potions"], b["centum_auri"], b["colour_bonus"], b["total"])
        assert sheet["total"] == round(view["scores"][seat])
        druid = next(e["card"] for e in log if e["kind"] == "druid_value" and e["player"] == seat)
        assert sheet["druid"] == druid == b["druid"]
        assert sorted(sheet["cells"]) == sorted([[0, 0, druid]] + view["squares"][seat]) and len(sheet["cells"]) == 25
        assert view["secret_colours"][seat] in sheet["words"]
    return score


def test_a_whole_game_by_clicks_shows_each_view_and_ends_on_score_sheets_of_the_final_scores(server, page):
    room, tokens, _ = create_room(server, "alarun", ["human", "heuristic", "random"])
    open_seat(page, server, room, tokens[0])
    # the screenshot: seat 0 to act in the action phase of round 4, squares well under way
    checks = TableChecks(shot_at=lambda v: v["round"] >= 4 and v["phase"] == "actions")
    clicks = play_by_clicks(page, until=checks, seed=1, timeout=90)
    assert clicks >= 24 and checks.turns >= 24 and checks.placements >= 12  # 8 rounds × 3 cards placed
    check_score_sheets(page, server, room)
    assert checks.shot


def test_two_players_flip_and_face_down_cards_by_clicks_to_the_score_screen(server, page):
    room, tokens, _ = create_room(server, "alarun", ["human", "random"])
    open_seat(page, server, room, tokens[0])
    page.wait_for_selector("#board .legal")
    assert page.locator("#board .al-face-down .card.back").count() == 3
    assert page.locator("#board .al-face-down [data-card]").count() == 0
    flip = page.locator('#actionbar [data-key="act-flip"]')
    assert flip.count() == 1 and "turn the face-down" in flip.get_attribute("aria-label")
    checks = TableChecks()
    play_by_clicks(page, until=checks, seed=2, timeout=90)
    assert checks.turns >= 24
    check_score_sheets(page, server, room)


def test_a_swap_is_a_centre_card_then_a_hand_card_and_a_second_click_cancels(server, page):
    room, tokens, _ = create_room(server, "alarun", ["human", "random", "random"])
    open_seat(page, server, room, tokens[0])
    page.wait_for_selector("#board .al-centre-cards .legal")
    snap = snapshot(page)
    offered = page.eval_on_selector_all("#board .al-centre-cards .legal", "es => es.map(e => e.dataset.card)")
    takes = {a["take"] for a in snap["legal_actions"] if a["type"] == "swap"}
    # every centre card that can be taken is offered, each copy of it (two copies are two cards)
    assert sorted(offered) == sorted(c for c in snap["view"]["centre"] if c in takes)
    centre = page.locator("#board .al-centre-cards .card").nth(1)
    take = centre.get_attribute("data-card")
    centre.click()
    assert "selected" in centre.get_attribute("class")
    gives = {a["give"] for a in snap["legal_actions"] if a["type"] == "swap" and a["take"] == take}
    assert set(page.eval_on_selector_all("#board .al-hand .legal", "es => es.map(e => e.dataset.card)")) == gives
    assert page.locator("#board .al-centre-cards .legal").count() == 0
    centre.click()  # cancels: every first click is offered again
    assert page.locator("#board .selected").count() == 0
    assert page.locator("#board .al-centre-cards .legal").count() == len(offered)
    centre.click()
    give = sorted(gives)[0]
    page.locator(f'#board .al-hand .legal[data-card="{give}"]').first.click()
    page.wait_for_function(f"window.nemeton.snapshot.moves > {snap['moves']}")
    state = state_at(server, room, snapshot(page)["moves"])
    seat, action = state.history[snap["moves"]]
    assert seat == 0 and action.to_json() == {"type": "swap", "give": give, "take": take}


def dom_cards(page):
    return page.evaluate("""() => ({ moves: window.nemeton.snapshot.moves,
      cards: [...document.querySelectorAll("[data-card]")].map((e) => e.dataset.card) })""")


def seen_by_seat_0(state):
    """Every card seat 0 may see now, as many times as it lies where seat 0 sees it, from the
    true state through the engine's views: its hand, the centre, the discard pile, the cards
    everyone saw the others take from the centre, and the squares (another seat's placements
    of this round only once everyone has placed)."""
    mine = state.view(0)
    seen = Counter(mine["hand"] + mine["centre"] + mine["discard"])
    seen.update(c for _, _, c in mine["squares"][0])
    for seat in range(1, state.num_players):
        seen.update(mine["known_hands"][seat])
        theirs = state.view(seat)
        pending = {tuple(xy) for xy in theirs["my_placements"]}
        seen.update(c for x, y, c in theirs["squares"][seat] if (x, y) not in pending)
    return seen


def hidden_from_seat_0(state):
    """Every card another seat holds that seat 0 may not see: hand cards not seen taken from the
    centre, this round's placements before everyone has placed, the face-down centre cards;
    and the other seats' secret colours."""
    mine = state.view(0)
    hidden = Counter()
    colours = set()
    for seat in range(1, state.num_players):
        theirs = state.view(seat)
        hidden.update(Counter(theirs["hand"]) - Counter(mine["known_hands"][seat]))
        pending = {tuple(xy) for xy in theirs["my_placements"]}
        hidden.update(c for x, y, c in theirs["squares"][seat] if (x, y) in pending)
        colours.add(theirs["secret_colour"])
    hidden.update(CARD_NAMES[c] for c in state.face_down)
    return hidden, colours


def test_seat_0s_page_is_sent_exactly_its_view_and_never_draws_a_hidden_card(server, page):
    room, tokens, _ = create_room(server, "alarun", ["human", "random", "random"])
    frames = record_frames(page)
    open_seat(page, server, room, tokens[0])
    seen = {"checks": 0, "hidden": 0}

    def no_leak_now(p):
        if p.locator("#score").is_visible():
            return True
        t = dom_cards(p)
        state = state_at(server, room, t["moves"])
        if state.is_terminal():
            return False
        shown = Counter(t["cards"])
        colours = {c for c in shown if ":" not in c and c not in ("druid", "centum_auri")}
        assert colours == {state.view(0)["secret_colour"]}, f"seat 0's page shows secret colours {colours}"
        visible = seen_by_seat_0(state)
        hidden, _ = hidden_from_seat_0(state)
        for card in hidden:  # a card seat 0 cannot see is drawn no more often than its copies it sees
            assert shown[card] <= visible[card], f"seat 0's page draws {card}, hidden from it"
        del shown["druid"]
        assert shown - Counter(colours) == visible  # and everything it sees, once each
        seen["checks"] += 1
        seen["hidden"] += sum(hidden.values())
        if seen["checks"] % 8 == 0:
            check_no_leak(p, server, room, seat=0)
        return False

    play_by_clicks(page, until=no_leak_now, seed=3, timeout=90)
    assert seen["checks"] >= 20 and seen["hidden"] > 0
    states = [f for f in frames if f.get("type") == "state"]
    assert len(states) >= 20
    for frame in states:  # every WebSocket message carries exactly the engine's view and log for seat 0
        state = state_at(server, room, frame["moves"])
        assert frame["view"] == json.loads(json.dumps(state.view(0)))
        log = state.log(0)
        assert all(entry == log[entry["i"]] for entry in frame["log"])
        if not state.is_terminal():
            _, colours = hidden_from_seat_0(state)
            assert not any(leaf in colours for leaf in json.dumps(frame["view"]).split('"')), "a secret colour was sent"
            assert str(state.seed) not in json.dumps(frame)


def tab_to_legal(page, limit=120):
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('legal')"):
            return page.evaluate("({ card: document.activeElement.dataset.card, tag: document.activeElement.tagName,"
                                 " label: document.activeElement.getAttribute('aria-label'),"
                                 " centre: !!document.activeElement.closest('.al-centre-cards') })")
    raise AssertionError("Tab never reached a highlighted card")


def test_the_table_is_played_with_the_keyboard_tab_to_a_highlighted_card_and_enter(server, page):
    room, tokens, _ = create_room(server, "alarun", ["human", "random", "random"])
    open_seat(page, server, room, tokens[0])
    page.wait_for_selector("#board .legal")
    before = snapshot(page)["moves"]
    first = tab_to_legal(page)  # the first highlighted thing in reading order: a centre card
    assert first["tag"] == "BUTTON" and first["label"] and first["centre"]
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.classList.contains('selected')")  # focus stays on the choice
    second = tab_to_legal(page)  # then a hand card to give for it
    assert not second["centre"] and second["label"].startswith("Give for")
    page.keyboard.press("Enter")
    page.wait_for_function(f"window.nemeton.snapshot.moves > {before}")
    state = state_at(server, room, snapshot(page)["moves"])
    seat, action = state.history[before]
    assert seat == 0 and action.to_json() == {"type": "swap", "give": second["card"], "take": first["card"]}


def test_on_a_phone_the_table_fits_the_width_and_your_hand_stays_in_sight(server, phone):
    room, tokens, _ = create_room(server, "alarun", ["human", "random", "random", "random"])
    open_seat(phone, server, room, tokens[0])
    phone.wait_for_selector("#board .legal")

    play_checking_the_phone_fits(phone, "#board .al-hand-box", 30)


def test_the_spectator_sees_every_square_no_hand_and_nothing_to_click(server, page):
    room, tokens, _ = create_room(server, "alarun", ["random", "random", "human"])
    open_seat(page, server, room)
    while True:  # seat 2 plays its first legal move through the API until round 2 begins
        state = httpx.get(f"{server.base}/api/rooms/{room}/view", params={"token": tokens[2]}).json()
        if state["view"]["round"] > 1:
            break
        if state["legal_actions"]:
            body = {"token": tokens[2], "action": state["legal_actions"][0], "version": state["version"]}
            httpx.post(f"{server.base}/api/rooms/{room}/actions", json=body)
        else:
            time.sleep(0.02)  # the AI seats are moving
    page.wait_for_function("window.nemeton.snapshot.view.round === 2 && document.querySelectorAll('.al-seat-panel').length === 3")
    t = page.evaluate(READ_TABLE)
    assert "hand" not in t["view"] and t["own"] is None and t["hand"] == []
    for seat in range(3):
        assert sorted(t["seats"][str(seat)]["cells"]) == with_druid(t["view"]["squares"][seat])
        assert len(t["view"]["squares"][seat]) == 3
    assert t["highlighted"] == 0 and t["backsWithCard"] == 0


def test_on_a_390_by_844_phone_your_hand_never_covers_your_square(server, browser):
    """The square lies between the centre and the hand (kept at the bottom of the screen): at
    every turn, the page scrolled to the top, the hand's box and the square's do not meet and
    every cell of the square is on the screen."""
    phone = new_page(browser, 390, 844)
    try:
        room, tokens, _ = create_room(server, "alarun", ["human", "random", "random"])
        open_seat(phone, server, room, tokens[0])
        checked = 0
        for k in range(5):
            phone.wait_for_function("""() => { const s = window.nemeton.snapshot; return s.terminal ||
                (s.legal_actions.length && !window.nemeton.pending && document.querySelector('#board .legal, #actionbar .legal')); }""")
            if phone.locator("#score").is_visible():
                break
            phone.evaluate("window.scrollTo(0, 0)")
            boxes = phone.evaluate("""() => {
              const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
              return { hand: box(document.querySelector('.al-hand-box')), square: box(document.querySelector('.al-own .al-square')),
                       cells: [...document.querySelectorAll('.al-own .al-square > *')].map(box) };
            }""")
            h, q = boxes["hand"], boxes["square"]
            assert h[3] <= 844 + 1 and h[1] >= 0, f"the hand is not in sight: {h}"
            assert q[3] <= h[1] or h[3] <= q[1], f"the hand {h} covers the square {q}"
            assert boxes["cells"] and all(c[1] >= 0 and c[3] <= h[1] + 1 and c[0] >= 0 and c[2] <= 390 for c in boxes["cells"])
            checked += 1
            before = snapshot(phone)["moves"]
            play_by_clicks(phone, until=lambda p: snapshot(p)["moves"] > before or p.locator("#score").is_visible(), seed=k, timeout=30)
        assert checked >= 3
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        assert not phone.errors, phone.errors[:3]
    finally:
        phone.context.close()
