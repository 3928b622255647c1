"""Amarok's table in a real browser (games/amarok/web/renderer.js): whole games played by clicks on the
cards themselves, what the table shows against the seat's view, the score sheet against the
final result, hidden cards never reaching seat 0's page, the keyboard, and a phone's screen."""

from __future__ import annotations

import json

from conftest import (canonical, check_no_leak, create_room, open_seat, play_by_clicks, record_frames, screenshot,
                      snapshot, state_at, texts_without_index)


# One evaluation reads the page's last snapshot and what its table draws, so both are of the
# same moment (the page redraws synchronously when a state arrives).
READ_TABLE = """() => {
  const snap = window.nemeton.snapshot;
  const cards = (root, sel) => [...root.querySelectorAll(sel)].map((c) =>
    c.classList.contains("amk-empty") ? "empty" : c.classList.contains("back") ? "back" : c.dataset.card);
  const seats = {};
  document.querySelectorAll("#board .amk-seat").forEach((sec) => {
    seats[sec.dataset.seat] = { hand: cards(sec, ".amk-hand .card"), front: cards(sec, ".amk-front .card.face"),
                                level: Number(sec.querySelector(".amk-level").dataset.level) };
  });
  const board = document.getElementById("board");
  const count = board.querySelector(".amk-count");
  return {
    view: snap.view, legal: snap.legal_actions, moves: snap.moves, seats,
    river: cards(board, ".amk-river .card.face"),
    bottom: cards(board, ".amk-bottom .card"),
    deck: count ? Number(count.dataset.count) : null,
    objective: (board.querySelector(".amk-objective") || {}).dataset?.objective,
    actions: [...board.querySelectorAll(".legal")].map((e) => e.dataset.action),
    backsWithCard: board.querySelectorAll(".card.back[data-card]").length,
  };
}"""


def expected_slot(slot):
    if slot is None:
        return "empty"
    return "back" if slot["card"] is None else slot["card"]


class TableChecks:
    """Called between clicks: whenever it is seat 0's turn, the table must show exactly its view
    (every hand as held, fronts, river, deck, objective, levels) and highlight exactly its legal
    moves. Counts what it checked, so a test can assert it ran."""

    def __init__(self, every=1, shot_at=None):
        self.turns = 0
        self.checked = set()  # the decisions checked, by the number of moves before them
        self.claws = 0
        self.every = every
        self.shot_at = shot_at
        self.shot = False
        self.calls = 0
        self.banners = 0  # checked turns with a round's result on the table

    def __call__(self, page):
        if page.locator("#score").is_visible():
            return True
        self.calls += 1
        if self.calls % self.every:
            return False
        t = page.evaluate(READ_TABLE)
        view = t["view"]
        if view["terminal"] or not t["legal"] or not t["actions"] or t["moves"] in self.checked:
            return False  # not our turn, our move is on its way, or this decision is checked
        self.checked.add(t["moves"])
        for seat in range(view["players"]):
            shown = t["seats"][str(seat)]
            assert shown["hand"] == [expected_slot(s) for s in view["hands"][seat]], f"seat {seat}'s hand"
            assert shown["front"] == view["fronts"][seat], f"the cards in front of seat {seat}"
            assert shown["level"] == round(view["scores"][seat])
        assert t["river"] == view["river"] or (not view["river"] and t["river"] == ["empty"])
        assert t["bottom"] == view["deck_bottom"]
        assert t["deck"] == view["deck_size"]
        assert t["objective"] == view["objective"]
        assert t["backsWithCard"] == 0
        # every legal move is on the table, and nothing else is highlighted
        assert {canonical(json.loads(a)) for a in t["actions"]} == {canonical(a) for a in t["legal"]}
        # the last round's banner names its winners (and the mating seat) by name, never by number
        banner = texts_without_index(page, "#board .amk-round-banner:not([hidden])")
        self.banners += bool(banner and banner[0].strip())
        if banner and view["last_round"]:
            names = [s["name"] for s in snapshot(page)["seats"]]
            winners = view["last_round"]["winners"]
            assert all(names[w] in banner[0] or (w == 0 and "you" in banner[0].lower()) for w in winners), banner
        self.turns += 1
        self.claws += view["phase"] == "claw"
        if self.shot_at and not self.shot and self.shot_at(view):
            page.wait_for_timeout(400)  # let the 300 ms arrivals finish
            screenshot(page, "amarok")
            self.shot = True
        return False


SMALL_TEXT = """els => els.filter(e => e.offsetParent !== null && [...e.childNodes]
    .some(n => n.nodeType === 3 && n.textContent.trim()))
    .map(e => [e.className, parseFloat(getComputedStyle(e).fontSize)]).filter(([, px]) => px < 14)"""


def score_sheet(page):
    return page.evaluate("""() => ({
      levels: [...document.querySelectorAll("#score .amk-levels tbody tr")].map((r) =>
        [Number(r.dataset.seat), Number(r.querySelector(".amk-final-level").textContent)]),
      rounds: [...document.querySelectorAll("#score .amk-round-row")].map((r) => ({
        round: Number(r.dataset.round), winners: JSON.parse(r.dataset.winners),
        totals: [...r.querySelectorAll(".amk-round-cell")].map((c) => Number(c.dataset.total)),
        fronts: [...r.querySelectorAll(".amk-round-cell")].map((c) => [...c.querySelectorAll("[data-card]")].map((e) => e.dataset.card)),
      })),
    })""")


def check_score_sheet(page, server, room):
    """The score sheet's figures are the final view's levels and the log's round results."""
    snap = snapshot(page)
    assert snap["terminal"] and snap["view"]["terminal"]
    state = state_at(server, room, snap["moves"])
    sheet = score_sheet(page)
    assert sheet["levels"] == [[s, round(v)] for s, v in enumerate(snap["view"]["scores"])]
    ends = [e for e in state.log(0) if e["kind"] == "round_end"]
    assert len(ends) >= 1
    assert [r["round"] for r in sheet["rounds"]] == [e["round"] for e in ends]
    for row, entry in zip(sheet["rounds"], ends):
        assert row["winners"] == entry["winners"]
        assert row["totals"] == entry["totals"]
        assert row["fronts"] == entry["fronts"]
    game_end = [e for e in state.log(0) if e["kind"] == "game_end"]
    assert game_end[0]["levels"] == ends[-1]["levels"] == [round(v) for v in snap["view"]["scores"]]
    return sheet


def test_a_whole_game_by_clicks_shows_each_view_and_ends_on_a_score_sheet_of_the_final_levels(server, page):
    room, tokens, _ = create_room(server, "amarok", ["human", "heuristic", "random"])
    open_seat(page, server, room, tokens[0])
    # the screenshot: seat 0's turn in round 2 or later, some cards already in front
    checks = TableChecks(shot_at=lambda v: v["round"] >= 2 and sum(map(len, v["fronts"])) >= 2)
    clicks = play_by_clicks(page, until=checks, seed=1, timeout=60)
    # seat 0 decides at least 5 times in a game (5 in about 2% of games with these seats), each
    # in one click, and every decision is checked before its click (play_by_clicks clicks only
    # what was on the table when the check looked)
    assert checks.turns >= clicks >= 5
    sheet = check_score_sheet(page, server, room)
    assert checks.banners or len(sheet["rounds"]) == 1, "no round's banner was checked"
    assert page.eval_on_selector_all("#score-body *", SMALL_TEXT) == [], "text below 14 px on the score sheet"
    if not checks.shot:  # a game decided in round 1 (3 matings in a row): shoot the final table
        page.click("text=See the table")
        screenshot(page, "amarok")


def test_team_mode_game_by_clicks_shows_teams_and_the_team_totals_of_every_round(server, page):
    room, tokens, _ = create_room(server, "amarok", ["human", "random", "random", "random"], teams=True)
    open_seat(page, server, room, tokens[0])
    page.wait_for_selector("#board .amk-teams")
    assert page.locator("#board .amk-team").count() == 4
    assert page.locator("#board .amk-team-total").count() == 2
    checks = TableChecks()
    play_by_clicks(page, until=checks, seed=2, timeout=60)
    assert checks.turns >= 3
    sheet = check_score_sheet(page, server, room)
    assert checks.banners or len(sheet["rounds"]) == 1, "no round's banner was checked"
    state = state_at(server, room, snapshot(page)["moves"])
    ends = [e for e in state.log(0) if e["kind"] == "round_end"]
    cells = page.eval_on_selector_all("#score .amk-round-row", "rows => rows.map(r => r.cells[r.cells.length - 2].textContent)")
    for text, entry in zip(cells, ends):
        assert [int(x.split(": ")[1]) for x in text.split(", ")] == entry["team_totals"]


def test_seat_0s_page_is_sent_exactly_its_view_and_never_draws_a_hidden_card(server, page):
    room, tokens, _ = create_room(server, "amarok", ["human", "random", "random"])
    frames = record_frames(page)
    open_seat(page, server, room, tokens[0])
    seen = {"checks": 0, "cards": 0}

    def no_leak_now(p):
        if p.locator("#score").is_visible():
            return True
        # the cards on the table now; the score sheet's rows are the rounds already played, whose
        # fronts were public (the same card may be in a hand again since: a round deals anew)
        t = p.evaluate("""() => ({ moves: window.nemeton.snapshot.moves,
          cards: [...document.querySelectorAll("[data-card]")].filter((e) => !e.closest(".amk-round-row"))
                   .map((e) => e.dataset.card) })""")
        state = state_at(server, room, t["moves"])
        mine = state.view(0)
        # every hand card seat 0 does not see: the others' cards facing them, its own facing away
        hidden = {slot["card"] for viewer in range(state.num_players) for row in state.view(viewer)["hands"]
                  for slot in row if slot and slot["card"]}
        hidden -= {slot["card"] for row in mine["hands"] for slot in row if slot and slot["card"]}
        assert not hidden & set(t["cards"]), f"seat 0's page draws hidden cards {hidden & set(t['cards'])}"
        seen["checks"] += 1
        seen["cards"] += len(hidden)
        if seen["checks"] % 5 == 0:
            check_no_leak(p, server, room, seat=0)
        return False

    play_by_clicks(page, until=no_leak_now, seed=3, timeout=60)
    assert seen["checks"] >= 5 and seen["cards"] > 0
    states = [f for f in frames if f.get("type") == "state"]
    assert len(states) >= 5
    for frame in states:  # every WebSocket message carries exactly the engine's view and log for seat 0
        state = state_at(server, room, frame["moves"])
        assert frame["view"] == state.view(0)
        log = state.log(0)
        assert all(entry == log[entry["i"]] for entry in frame["log"])
        assert str(state.seed) not in json.dumps(frame) or state.is_terminal()


def test_the_table_is_played_with_the_keyboard_tab_to_a_highlighted_card_and_enter(server, page):
    room, tokens, _ = create_room(server, "amarok", ["human", "random", "random"])
    open_seat(page, server, room, tokens[0])
    page.wait_for_selector("#board .legal")
    before = snapshot(page)["moves"]
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('legal')"):
            break
    else:
        raise AssertionError("Tab never reached a highlighted card")
    focused = page.evaluate("({ action: document.activeElement.dataset.action, label: document.activeElement.getAttribute('aria-label'),"
                            " tag: document.activeElement.tagName })")
    assert focused["tag"] == "BUTTON" and focused["label"]
    page.keyboard.press("Enter")
    page.wait_for_function(f"window.nemeton.snapshot.moves > {before}")
    state = state_at(server, room, snapshot(page)["moves"])
    seat, action = state.history[before]
    assert seat == 0 and canonical(action.to_json()) == canonical(json.loads(focused["action"]))


def test_on_a_phone_the_table_fits_the_width_and_your_own_area_stays_in_sight(server, phone):
    room, tokens, _ = create_room(server, "amarok", ["human", "random", "random", "random", "random", "random"])
    open_seat(phone, server, room, tokens[0])
    phone.wait_for_selector("#board .legal")

    def fits(p):
        if p.locator("#score").is_visible():
            return True
        width = p.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"the page scrolls sideways: {width} px"
        own = p.evaluate("""() => { const r = document.querySelector("#board .amk-own").getBoundingClientRect();
                                     return { top: r.top, bottom: r.bottom, height: r.height }; }""")
        assert 0 <= own["top"] and own["bottom"] <= 740 + 1 and own["height"] <= 740 / 3, own
        fits.checked += 1
        return fits.checked >= 12

    fits.checked = 0
    play_by_clicks(phone, until=fits, seed=4, timeout=60)
    assert phone.eval_on_selector_all("#board *", SMALL_TEXT) == [], "text below 14 px on the table"


def test_the_replay_draws_the_table_at_every_step_as_seat_0_saw_it_with_nothing_to_click(server, page):
    room, tokens, _ = create_room(server, "amarok", ["random", "random", "random"])
    state = None
    for _ in range(200):  # three AIs play the whole game on their own
        row = server.store.load_room(room)
        if row.status == "finished":
            state = state_at(server, room, len(row.actions))
            break
        page.wait_for_timeout(100)
    assert state is not None and state.is_terminal()
    page.goto(f"{server.base}/rooms/{room}/replay")
    page.wait_for_selector("#board .amarok")
    page.select_option("#viewer", "0")
    steps = len(state.history)
    checked = 0
    for step in sorted({0, 1, steps // 3, steps // 2, steps - 1, steps}):
        page.fill("#step", str(step))
        page.dispatch_event("#step", "input")
        page.wait_for_function(f"document.getElementById('step-text').textContent.startsWith('step {step} ')")
        page.wait_for_selector("#board .amarok")
        view = state_at(server, room, step).view(0)
        hand = page.eval_on_selector_all("#board .amk-seat[data-seat='0'] .amk-hand .card", """els => els.map(c =>
            c.classList.contains("amk-empty") ? "empty" : c.classList.contains("back") ? "back" : c.dataset.card)""")
        assert hand == [expected_slot(s) for s in view["hands"][0]]
        assert page.locator("#board .legal").count() == 0
        checked += 1
    assert checked >= 4
    assert page.locator("#score-inline .amk-round-row").count() == sum(
        1 for e in state.log(0) if e["kind"] == "round_end")


def test_a_claw_highlights_every_card_it_may_send_down_and_the_clawed_card_shows_at_the_bottom(server, page):
    # a deck of claws only: seat 0's first take is sure to be followed by a claw
    deck = json.dumps({"name": "claws", "cards": [
        {"id": f"K{v}", "colour": "red" if v % 2 else "blue", "value": v, "symbol": "claw"} for v in range(10)]})
    room, tokens, _ = create_room(server, "amarok", ["human", "random", "random"], deck=deck)
    open_seat(page, server, room, tokens[0])
    page.wait_for_selector("#board .amk-river .legal")
    taken = page.get_attribute("#board .amk-river .legal", "data-card")
    page.click("#board .amk-river .legal")
    page.wait_for_function("window.nemeton.snapshot.view.phase === 'claw' && document.querySelectorAll('#board .legal').length > 0")
    t = page.evaluate(READ_TABLE)
    assert t["view"]["fronts"][0] == [taken]
    assert {canonical(json.loads(a)) for a in t["actions"]} == {canonical(a) for a in t["legal"]}
    assert all(a["type"].startswith("claw_") for a in t["legal"])
    claw = page.locator(f"#board .amk-own .amk-front [data-card='{taken}']")
    assert "amk-claw-pending" in claw.get_attribute("class") and "legal" not in claw.get_attribute("class")
    assert "claw" in page.text_content("#board .amk-own .amk-prompt")
    target = page.get_attribute("#board .amk-river .legal", "data-card")
    page.click("#board .amk-river .legal")
    page.wait_for_function("window.nemeton.snapshot.moves >= 2")
    assert state_at(server, room, 2).view(0)["deck_bottom"] == [target]
    t = page.evaluate(READ_TABLE)  # the others play on at once: compare the table with its own snapshot
    assert t["bottom"] == t["view"]["deck_bottom"] and t["river"] in (t["view"]["river"], ["empty"])
    assert target not in t["river"]
