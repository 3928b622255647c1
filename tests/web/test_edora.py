"""The Druids of Edora in a real browser (games/edora/web/renderer.js): whole games played by clicks on the
map and the boards, what the table shows against the seat's view, the five scoring steps
against the final view, hidden tablets and herbs never reaching seat 0's page, a move made
part by part (sanctuary, space, die) with a second click cancelling, the keyboard, a phone's
screen, the replay, and the renderer's board data against the game's own."""

from __future__ import annotations

import json
import re
from collections import Counter
from importlib import resources
from pathlib import Path

import httpx
import yaml
from conftest import (canonical, check_no_leak, create_room, open_seat, play_by_clicks, play_checking_the_phone_fits,
                      record_frames, screenshot, snapshot, state_at, texts_without_index)

from nemeton.games.edora import components, public, steps
from nemeton.i18n import render

RENDERER = Path(__file__).resolve().parents[2] / "src" / "nemeton" / "games" / "edora" / "web" / "renderer.js"

# What a click on the table picks for each action type (the renderer's FACETS): facet -> field(s).
FACETS = {
    "start": [("sanctuary", lambda a: a["sanctuary"])],
    "move": [("sanctuary", lambda a: a["to"])],
    "leap": [("sanctuary", lambda a: a["to"])],
    "place": [("space", lambda a: f"{a['sanctuary']}#{a['space']}"), ("die", lambda a: str(a["die"]))],
    "raise_die": [("placed", lambda a: f"{a['sanctuary']}#{a['space']}")],
    "take_die": [("overview", lambda a: str(a["value"]))],
    "take_tablet": [("slot", lambda a: str(a["slot"]))],
    "keep_tablet": [("draft", lambda a: a["tablet"])],
    "arrange_herb": [("arrange", lambda a: a["herb"])],
    "brew": [("potion", lambda a: a["potion"])],
    "gem": [("gem", lambda a: a["gem"]), ("row", lambda a: a["row"])],
    "standing_stone": [("standing", lambda a: a["stone"])],
    "rune_stone": [("rune", lambda a: a["stone"])],
    "flip_herb": [("herb", lambda a: a["herb"])],
    "take_herb": [("herb", lambda a: a["herb"])],
    "activate_herb": [("herb", lambda a: a["herb"])],
}

# One evaluation reads the page's last snapshot and what its table draws, so both are of the
# same moment (the page redraws synchronously when a state arrives).
READ_TABLE = """() => {
  const snap = window.nemeton.snapshot;
  const board = document.getElementById("board");
  const texts = (root, sel) => [...root.querySelectorAll(sel)].map((e) => e.textContent.trim());
  const cards = (root, sel) => [...root.querySelectorAll(sel)].map((e) => e.dataset.card || "back");
  const seats = {};
  board.querySelectorAll(".ed-board[data-seat]").forEach((b) => {
    seats[b.dataset.seat] = {
      reserve: texts(b, ".ed-pip.reserve").map(Number), overview: texts(b, ".ed-pip.overview").map(Number),
      tablets: cards(b, ".ed-tablets .card"), potions: cards(b, ".ed-owned-potions .card"),
      active: cards(b, ".card.herb.active"), inactive: cards(b, ".card.herb.inactive"),
      track: cards(b, ".ed-pair .card.herb"),
    };
  });
  const spaces = {};
  board.querySelectorAll(".ed-space[data-space]").forEach((s) => { spaces[s.dataset.space] = s.dataset.die || null; });
  const pits = {};
  board.querySelectorAll("[data-pit]").forEach((p) => { pits[p.dataset.pit] = Number(p.dataset.owner); });
  const druids = {};
  board.querySelectorAll(".ed-druid").forEach((d) => { druids[d.dataset.seat] = d.closest("[data-sanctuary]").dataset.sanctuary; });
  return {
    view: snap.view, legal: snap.legal_actions, moves: snap.moves, seats, spaces, pits, druids,
    slots: [...board.querySelectorAll(".ed-oracle .ed-side .card")].map((c) => c.dataset.card || null),
    market: cards(board, ".ed-potions .card.potion"),
    facets: [...board.querySelectorAll(".legal")].map((e) => e.dataset.facet),
    buttons: [...document.querySelectorAll("#actionbar .legal")].map((e) => e.dataset.action),
    picking: board.querySelectorAll(".selected").length + document.querySelectorAll("#actionbar .ed-cancel").length,
    allCards: [...document.querySelectorAll("[data-card]")].map((e) => e.dataset.card),
    backsWithCard: document.querySelectorAll(".card.back[data-card]").length,
  };
}"""


def expected_facets(legal):
    """Every thing the table should highlight when nothing is picked yet, and the buttons."""
    facets = {f"{name}:{get(a)}" for a in legal for name, get in FACETS.get(a["type"], [])}
    buttons = {canonical(a) for a in legal if a["type"] not in FACETS}
    return facets, buttons


def check_table(t):
    """The table shows exactly the view: every board, die, fire pit, druid, tablet and potion."""
    view = t["view"]
    n = view["players"]
    for p, b in enumerate(view["boards"]):
        shown = t["seats"][str(p)]
        assert shown["reserve"] == b["reserve"] and shown["overview"] == b["overview"], f"seat {p}'s dice"
        assert shown["tablets"] == b["tablets"] and shown["potions"] == b["potions"], f"seat {p}'s tablets, potions"
        assert sorted(shown["active"]) == sorted(h for h, s in b["herb_state"].items() if s == "active")
        assert sorted(shown["inactive"]) == sorted(h for h, s in b["herb_state"].items() if s == "inactive")
        on_track = [h for h in b["herbs"] if h is None or b["herb_state"][h] == "board"]
        assert shown["track"] == [h or "back" for h in on_track], f"seat {p}'s sickle track"
        if b["figure"]:
            assert t["druids"][str(p)] == b["figure"]
    for s in view["sanctuaries"]:
        for i in range(n):
            die = s["dice"][i]
            assert t["spaces"][f"{s['id']}#{i + 1}"] == (f"{die[0]}:{die[1]}" if die else None)
    assert t["pits"] == view["fire_pits"]
    assert t["slots"] == view["oracle_slots"]
    assert t["market"] == view["potions_left"]
    assert t["backsWithCard"] == 0


class TableChecks:
    """Called between clicks: whenever it is seat 0's turn and nothing is picked, the table must
    show exactly its view and highlight exactly its legal moves. Counts what it checked."""

    def __init__(self, shot_at=None):
        self.turns = 0
        self.types = Counter()
        self.shot_at = shot_at
        self.shot = False
        self.checked = None
        self.news = 0  # checked turns whose status box told what the others just did

    def __call__(self, page):
        if page.locator("#score").is_visible():
            return True
        moves = page.evaluate("window.nemeton.snapshot.moves")
        if moves == self.checked:
            return False  # this state's table is checked already
        t = page.evaluate(READ_TABLE)
        if t["view"]["terminal"] or not t["legal"] or t["picking"] or not (t["facets"] or t["buttons"]):
            return False  # not our turn, our move is on its way, or a choice is half made
        self.checked = t["moves"]
        check_table(t)
        facets, buttons = expected_facets(t["legal"])
        assert set(t["facets"]) == facets
        assert {canonical(json.loads(b)) for b in t["buttons"]} == buttons
        # the status box (round, start player, prompt, the others' news) names seats, never numbers them
        box = texts_without_index(page, "#board .ed-status")
        names = [s["name"] for s in snapshot(page)["seats"]]
        assert len(box) == 1 and any(n in box[0] for n in names), box
        self.news += bool(texts_without_index(page, "#board .ed-news li"))
        self.turns += 1
        self.types.update(a["type"] for a in t["legal"])
        if self.shot_at and not self.shot and self.shot_at(t):
            page.evaluate("window.scrollTo(0, 0)")
            page.wait_for_timeout(800)  # the others' last moves have flashed (2 x 300 ms)
            screenshot(page, "edora")
            self.shot = True
        return False


def check_score_screen(page, server, room):
    """The score screen's five steps (and the prestige track, the totals) are the final view's,
    and it names the log's winners."""
    snap = snapshot(page)
    assert snap["terminal"] and snap["view"]["terminal"]
    final = snap["view"]["final"]
    cells = page.eval_on_selector_all("#score td[data-step]", """tds => tds.map((td) =>
        [td.dataset.step, Number(td.dataset.seat), Number(td.querySelector('.pts').textContent)])""")
    shown = {(step, seat): value for step, seat, value in cells}
    for seat, f in enumerate(final):
        for step in ("prestige", "leftovers", "sickle", "tablets", "amulet", "sanctuaries", "total"):
            assert shown[(step, seat)] == f[step], (step, seat)
        assert f["total"] == snap["view"]["scores"][seat]
        assert f["prestige"] + f["leftovers"] + f["sickle"] + f["tablets"] + f["amulet"] + f["sanctuaries"] == f["total"]
    assert len(shown) == 7 * len(final)
    won = [e for e in state_at(server, room, snap["moves"]).log(0) if e["kind"] == "game_won"][0]
    columns = page.eval_on_selector_all("#score thead th", "ths => ths.map((th) => th.classList.contains('winner'))")
    assert [p for p, w in enumerate(columns[1:]) if w] == won["winners"]  # the winners' columns are marked
    names = [s["name"] for s in snap["seats"]]
    line = page.text_content("#score-winner")  # the log's sentence: seat 0 reads "You win"
    assert all(names[p] in line or (p == 0 and line.startswith("You")) for p in won["winners"]), line


def test_a_whole_game_by_clicks_shows_each_view_and_ends_on_the_five_scoring_steps(server, page):
    room, tokens, _ = create_room(server, "edora", ["human", "heuristic"])
    open_seat(page, server, room, tokens[0])
    # the screenshot: seat 0 choosing where to go in round 6 or later
    checks = TableChecks(shot_at=lambda t: t["view"]["round"] >= 6 and any(a["type"] == "move" for a in t["legal"]))
    clicks = play_by_clicks(page, until=checks, seed=1, timeout=60)
    assert clicks >= 20 and checks.turns >= 15 and checks.news >= 5
    assert {"start", "move", "place"} <= set(checks.types)
    check_score_screen(page, server, room)
    if not checks.shot:
        page.click("text=See the table")
        screenshot(page, "edora")


def test_every_variant_at_once_plays_by_clicks_to_the_score_screen(server, page):
    room, tokens, _ = create_room(server, "edora", ["human", "random"], tablet_draft=True,
                                  arranged_herbs=True, shared_dice=True, revisit_sanctuaries=True,
                                  fire_pit_scoring="summary")
    open_seat(page, server, room, tokens[0])
    checks = TableChecks()
    play_by_clicks(page, until=checks, seed=2, timeout=60)
    assert checks.turns >= 10 and {"keep_tablet", "arrange_herb"} <= set(checks.types)
    check_score_screen(page, server, room)


def visible_tablets(view):
    """Every tablet seat 0's view shows face up, with its copies: the oracle, every player's
    tablets, its own draft hand and the tablets it put under the deck."""
    shown = Counter(t for t in view["oracle_slots"] if t)
    for b in view["boards"]:
        shown.update(b["tablets"])
    shown.update(view["draft_hand"] or [])
    shown.update(t for _, t in view["deck_known"])
    return shown


def test_seat_0s_page_is_sent_exactly_its_view_and_never_draws_a_hidden_card(server, page):
    # the variants with hidden parts: tablets drafted blind (V1), herbs laid face down (V3)
    room, tokens, _ = create_room(server, "edora", ["human", "random"], tablet_draft=True, arranged_herbs=True)
    frames = record_frames(page)
    open_seat(page, server, room, tokens[0])
    seen = {"checks": 0, "face_down_herbs": 0, "hidden": 0, "shared": 0}

    def no_leak_now(p):
        if p.locator("#score").is_visible():
            return True
        t = p.evaluate(READ_TABLE)
        state = state_at(server, room, t["moves"])
        mine = state.view(0)
        assert t["view"] == mine
        tablets = Counter(c for c in t["allCards"] if re.fullmatch(r"T\d+", c))
        assert tablets == visible_tablets(mine), "the page draws other tablets than seat 0's view shows"
        # the deck and the other seat's draft hand are secret: never more copies than seat 0 sees
        secret = Counter(components.TABLETS[k] for k in state.deck) + Counter(components.TABLETS[k] for k in state.draft_hand)
        seen["hidden"] += sum(secret.values())
        other = state.view(1)["boards"][1]["herbs"]
        if mine["boards"][1]["herbs"] == [None] * 12 and any(other):  # seat 1's layout is face down for seat 0
            assert t["seats"]["1"]["track"] == ["back"] * 12
            seen["face_down_herbs"] += 1
        seen["checks"] += 1
        # the shared check compares values: while herbs are being laid, seat 0's own herbs still to
        # lay (all twelve kinds, named only as keys in its view) look like seat 1's hidden layout
        arranging = any(b["arranged"] < 12 for b in mine["boards"])
        if seen["checks"] % 5 == 0 and not arranging:
            check_no_leak(p, server, room, seat=0)
            seen["shared"] += 1
        return False

    play_by_clicks(page, until=no_leak_now, seed=3, timeout=60)
    assert seen["checks"] >= 10 and seen["hidden"] > 0 and seen["face_down_herbs"] >= 1 and seen["shared"] >= 2
    states = [f for f in frames if f.get("type") == "state"]
    assert len(states) >= 10
    for frame in states:  # every WebSocket message carries exactly the engine's view and log for seat 0
        state = state_at(server, room, frame["moves"])
        assert frame["view"] == state.view(0)
        log = state.log(0)
        assert all(entry == log[entry["i"]] for entry in frame["log"])
        assert str(state.seed) not in json.dumps(frame) or state.is_terminal()


def wait_for_place(page):
    page.wait_for_function("""() => { const s = window.nemeton.snapshot;
        return s.legal_actions.some((a) => a.type === 'place') && document.querySelector('#board .ed-space.legal'); }""")
    return snapshot(page)["legal_actions"]


def test_a_die_is_placed_by_its_space_and_its_die_in_either_order_and_a_second_click_cancels(server, page):
    room, tokens, _ = create_room(server, "edora", ["human", "random"])
    open_seat(page, server, room, tokens[0])
    page.wait_for_function("window.nemeton.snapshot.legal_actions.some((a) => a.type === 'start')")
    starts = {a["sanctuary"] for a in snapshot(page)["legal_actions"]}
    highlighted = set(page.eval_on_selector_all("#board .ed-sanctuary.legal", "gs => gs.map((g) => g.dataset.sanctuary)"))
    assert highlighted == starts  # the start sanctuaries, each one click
    page.click("#board .ed-sanctuary.legal")
    legal = wait_for_place(page)  # the first turn: a free step to the start sanctuary, then a die
    spaces = {f"{a['sanctuary']}#{a['space']}" for a in legal}
    dice = {a["die"] for a in legal}
    assert set(page.eval_on_selector_all("#board .ed-space.legal", "gs => gs.map((g) => g.dataset.space)")) == spaces
    assert {int(x) for x in page.eval_on_selector_all("#board .ed-pip.reserve.legal", "ds => ds.map((d) => d.textContent)")} == dice
    # a space first: only the dice that may go there stay highlighted; clicking it again cancels
    space = page.get_attribute("#board .ed-space.legal", "data-space")
    page.click(f"#board .ed-space[data-space='{space}']")
    assert "selected" in page.get_attribute(f"#board .ed-space[data-space='{space}']", "class")
    assert page.locator("#board .ed-space.legal").count() == 0
    assert {int(x) for x in page.eval_on_selector_all("#board .ed-pip.reserve.legal", "ds => ds.map((d) => d.textContent)")} == {
        a["die"] for a in legal if f"{a['sanctuary']}#{a['space']}" == space}
    page.click(f"#board .ed-space[data-space='{space}']")
    assert page.locator("#board .selected").count() == 0
    assert page.locator("#board .ed-space.legal").count() == len(spaces)
    # the die first, then the space: the action goes at once
    die = max(d for d in dice if len({(a["sanctuary"], a["space"]) for a in legal if a["die"] == d}) > 1)
    page.locator("#board .ed-pip.reserve.legal", has_text=str(die)).first.click()
    targets = set(page.eval_on_selector_all("#board .ed-space.legal", "gs => gs.map((g) => g.dataset.space)"))
    assert targets == {f"{a['sanctuary']}#{a['space']}" for a in legal if a["die"] == die}
    space = sorted(targets)[0]
    before = snapshot(page)["moves"]
    page.click(f"#board .ed-space[data-space='{space}']")
    page.wait_for_function(f"window.nemeton.snapshot.moves > {before}")
    state = state_at(server, room, snapshot(page)["moves"])
    seat, action = [(s, a) for s, a in state.history[before:] if s == 0][0]
    sanctuary, number = space.split("#")
    placed = action.to_json()
    assert (placed["type"], placed["sanctuary"], placed["space"], placed["die"]) == ("place", sanctuary, int(number), die)


def tab_to_legal(page, limit=200):
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('legal')"):
            return page.evaluate("({ facet: document.activeElement.dataset.facet, role: document.activeElement.getAttribute('role'),"
                                 " label: document.activeElement.getAttribute('aria-label') })")
    raise AssertionError("Tab never reached a highlighted thing")


def test_the_table_is_played_with_the_keyboard_tab_to_a_highlighted_thing_and_enter(server, page):
    room, tokens, _ = create_room(server, "edora", ["human", "random"])
    open_seat(page, server, room, tokens[0])
    page.wait_for_selector("#board .legal")
    before = snapshot(page)["moves"]
    first = tab_to_legal(page)  # a start sanctuary: one action, sent at once
    assert first["facet"].startswith("sanctuary:") and first["role"] == "button" and first["label"].startswith("Start at")
    page.keyboard.press("Enter")
    page.wait_for_function(f"window.nemeton.snapshot.moves > {before}")
    state = state_at(server, room, snapshot(page)["moves"])
    assert [a.to_json()["sanctuary"] for s, a in state.history if s == 0] == [first["facet"].split(":")[1]]
    wait_for_place(page)
    # a keyboard user's next decision starts on its first highlighted thing: a free space
    page.wait_for_function("document.activeElement.classList.contains('legal')")
    space = page.evaluate("({ facet: document.activeElement.dataset.facet })")
    assert space["facet"].startswith("space:")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.classList.contains('selected')")  # focus stays on the choice
    die = tab_to_legal(page)  # then a die of the reserve that may go there
    assert die["facet"].startswith("die:") and die["label"].startswith("Place your")
    before = snapshot(page)["moves"]
    page.keyboard.press("Enter")
    page.wait_for_function(f"window.nemeton.snapshot.moves > {before}")
    state = state_at(server, room, snapshot(page)["moves"])
    placed = [a.to_json() for s, a in state.history if s == 0][-1]
    assert f"space:{placed['sanctuary']}#{placed['space']}" == space["facet"] and f"die:{placed['die']}" == die["facet"]


def test_on_a_phone_the_page_fits_the_width_and_your_board_stays_in_sight(server, phone):
    room, tokens, _ = create_room(server, "edora", ["human", "random", "random", "random"])
    open_seat(phone, server, room, tokens[0])
    phone.wait_for_selector("#board .legal")

    play_checking_the_phone_fits(phone, "#board .ed-own-area", 25)


def test_the_replay_draws_the_table_at_every_step_as_seat_0_saw_it_with_nothing_to_click(server, page):
    room, tokens, _ = create_room(server, "edora", ["random", "heuristic"])
    state = None
    for _ in range(300):  # two AIs play the whole game on their own
        row = server.store.load_room(room)
        if row.status == "finished":
            state = state_at(server, room, len(row.actions))
            break
        page.wait_for_timeout(100)
    assert state is not None and state.is_terminal()
    page.goto(f"{server.base}/rooms/{room}/replay")
    page.wait_for_selector("#board .edora")
    page.select_option("#viewer", "0")
    steps_ = len(state.history)
    checked = 0
    for step in sorted({0, 1, steps_ // 3, steps_ // 2, steps_ - 1, steps_}):
        page.fill("#step", str(step))
        page.dispatch_event("#step", "input")
        page.wait_for_function(f"document.getElementById('step-text').textContent.startsWith('step {step} ')")
        page.wait_for_selector("#board .edora")
        view = state_at(server, room, step).view(0)
        reserve = page.eval_on_selector_all("#board .ed-board[data-seat='0'] .ed-pip.reserve", "ds => ds.map((d) => Number(d.textContent))")
        assert reserve == view["boards"][0]["reserve"]
        dice = page.eval_on_selector_all("#board .ed-space[data-die]", "gs => gs.map((g) => g.dataset.die)")
        assert sorted(dice) == sorted(f"{d[0]}:{d[1]}" for s in view["sanctuaries"] for d in s["dice"] if d)
        assert page.locator("#board .legal, #actionbar .legal").count() == 0
        checked += 1
    assert checked >= 4
    totals = page.eval_on_selector_all("#score-inline td[data-step='total']", "tds => tds.map((td) => Number(td.querySelector('.pts').textContent))")
    assert totals == [f["total"] for f in state.view(0)["final"]]
    assert page.locator("#score-inline .ed-winner").is_visible()  # no score screen here: the breakdown names the winner


def test_the_spectator_sees_every_board_no_own_area_and_nothing_to_click(server, page):
    room, _, _ = create_room(server, "edora", ["random", "random", "random"])
    open_seat(page, server, room)
    page.wait_for_function("window.nemeton.snapshot.moves >= 8")
    t = page.evaluate(READ_TABLE)
    assert t["view"]["seat"] is None and sorted(t["seats"]) == ["0", "1", "2"]
    check_table(t)
    assert page.locator("#board .ed-own-area").count() == 0
    assert page.locator("#board .legal, #actionbar .legal").count() == 0


def edora_data(board_text=None):
    """The board and components as the game file and modules hold them (data/board.yaml,
    components.py, steps.py): what the room's public data must carry (the components' names and
    texts as messages, whose English is the components' English)."""
    raw = yaml.safe_load(board_text or resources.files("nemeton.games.edora").joinpath("data/board.yaml").read_text())
    board = {k: v for k, v in raw["board"].items() if k != "dolmen_reference_colours"}
    names = public.component_messages()
    english = {"herb_names": components.HERB_NAMES, "herb_effects": components.HERB_EFFECTS,
               "potion_effects": components.POTION_EFFECTS, "tablet_conditions": components.TABLET_CONDITIONS,
               "reward_names": components.REWARD_NAMES, "reward_gains": components.REWARD_GAINS,
               "rune_names": components.RUNE_NAMES, "steps": {str(k): v for k, v in steps.STEP_NAMES.items()}}
    assert {k: {c: render(m) for c, m in v.items()} for k, v in names.items()} == english
    return json.loads(json.dumps({
        "board": board, "player_board": raw["player_board"], **names,
        "codes": {"take_die": steps.TAKE_DIE, "release": steps.ACTIVATE_HERB, "end_turn": steps.END_TURN},
    }))


def test_the_map_is_drawn_from_the_rooms_own_board(server, page):
    """The renderer holds no board: it draws the one the room's public data carries, so a room
    on another board file shows that board (here the designed one with S05's spaces reordered)."""
    standard = resources.files("nemeton.games.edora").joinpath("data/board.yaml").read_text()
    line = "S05: {xy: [2,1], glade: G1, spaces: [AM-SUN-x2, RS, TB, FD]}"
    assert line in standard
    other = standard.replace(line, "S05: {xy: [2,1], glade: G1, spaces: [RS, AM-SUN-x2, TB, FD]}")
    room, tokens, _ = create_room(server, "edora", ["human", "heuristic"], board=other)
    info = httpx.get(f"{server.base}/api/rooms/{room}").json()
    assert info["components"] == edora_data(other) != edora_data()
    assert '"xy":[' not in RENDERER.read_text(encoding="utf-8")  # no copy of a board in the renderer
    open_seat(page, server, room, tokens[0])
    page.wait_for_selector("[data-sanctuary=S05]")
    assert page.locator("[data-sanctuary]").count() == 24
    texts = page.locator("[data-sanctuary=S05] text").all_text_contents()
    assert texts.index("Rune") < texts.index("☀×2")  # the room's order, not the designed one
