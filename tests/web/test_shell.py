"""The web client's shell in a real browser: the lobby, a seat's page, hotseat, two players
online, reconnecting, the spectator, the replay and the rematch. Moves are made through the
moves list (every game's own board is tested in tests/web/test_<game>.py)."""

from __future__ import annotations

import random

import httpx
from conftest import check_no_leak, create_room, new_page, open_seat, record_frames, screenshot, snapshot


def act_by_list(page, rng):
    """Make one move from the moves list (the keyboard and screen-reader fallback)."""
    page.locator("#moves").evaluate("d => d.open = true")
    # the snapshot can say "your move" a moment before the list is drawn (seen under load)
    page.wait_for_function("document.querySelectorAll('#moves-list button').length > 0")
    buttons = page.locator("#moves-list button")
    buttons.nth(rng.randrange(buttons.count())).click()


def wait_turn(page, timeout=20_000):
    page.wait_for_function("window.nemeton.snapshot && (window.nemeton.snapshot.terminal || "
                           "window.nemeton.snapshot.legal_actions.length > 0) && "
                           "document.querySelectorAll('#moves-list button').length > 0 || "
                           "(window.nemeton.snapshot && window.nemeton.snapshot.terminal)", timeout=timeout)


def test_the_lobby_creates_a_game_against_the_ai_and_opens_the_players_seat(server, page):
    page.goto(server.base + "/")
    page.get_by_role("radio", name="Amarok").check()
    page.select_option("#players", "3")
    kinds = page.locator(".seat-kind")
    assert kinds.count() == 3
    assert [kinds.nth(i).input_value() for i in range(3)] == ["here", "ai", "ai"]
    page.locator(".seat-agent").nth(1).select_option("random")
    assert page.locator("#options").get_by_text("teams").count() >= 1  # the options with their help
    page.click("#create")
    page.wait_for_url("**/rooms/**")
    page.wait_for_function("window.nemeton && window.nemeton.snapshot")
    assert page.evaluate("document.body.dataset.seat") == "0"
    snap = snapshot(page)
    assert snap["view"]["seat"] == 0 and snap["view"]["game"] == "amarok"
    assert [s["kind"] for s in snap["seats"]] == ["human", "ai", "ai"]
    assert snap["seats"][1]["agent"] == "random"
    assert page.locator("#creator").is_visible()  # the creator may hand seats to the AI
    room = page.url.split("/rooms/")[1].split("?")[0]
    page.goto(server.base + "/")
    page.click("[data-filter=yours]")
    page.wait_for_selector(f".room a.primary[href='/rooms/{room}']")  # "Continue"
    assert page.locator(".room").count() == 1
    screenshot(page, "lobby")


def test_the_lobby_refuses_bad_options_with_the_servers_message_and_creates_nothing(server, page):
    before = len(httpx.get(f"{server.base}/api/rooms").json())
    page.goto(server.base + "/")
    page.get_by_role("radio", name="Alarún").check()
    page.locator("#options-box").evaluate("d => d.open = true")
    page.fill("#options [name=action_cap]", "0")
    page.click("#create")
    page.wait_for_function("document.getElementById('form-error').textContent.length > 0")
    # the server's refusal as a message: the option named by its label in the lobby
    assert page.text_content("#form-error") == "The option “action cap” does not allow 0; allowed: 1 or more."
    assert page.url.endswith("/")
    assert len(httpx.get(f"{server.base}/api/rooms").json()) == before


def test_hotseat_hides_the_previous_seats_table_behind_the_pass_screen(server, page):
    room, tokens, creator = create_room(server, "edora", ["human", "human"])
    page.goto(server.base + "/")
    page.evaluate("([room, tokens, creator]) => localStorage.setItem(`nemeton:room:${room}`, "
                  "JSON.stringify({seats: tokens, creator}))", [room, {str(k): v for k, v in tokens.items()}, creator])
    page.goto(f"{server.base}/rooms/{room}")
    page.wait_for_selector("#pass:not([hidden])")
    first = snapshot(page)["acting"][0]
    assert f"Pass to P{first + 1}" in page.text_content("#pass-title")
    assert not page.locator("#table").is_visible()
    assert page.locator("#board *").count() == 0 and page.locator("[data-card]").count() == 0
    page.click("#pass-ready")
    assert page.locator("#table").is_visible()
    rng = random.Random(3)
    passes, last = 0, None
    for _ in range(10):  # a few turns: each change of person passes the device again
        page.wait_for_function("!document.getElementById('pass').hidden || "
                               "document.querySelectorAll('#moves-list button').length > 0")
        if page.locator("#pass").is_visible():
            assert not page.locator("#table").is_visible()
            assert page.locator("#board *").count() == 0 and page.locator("#log-list *").count() == 0
            assert page.locator("[data-card]").count() == 0
            to = int(page.text_content("#pass-title").split("Pass to P")[1]) - 1
            page.click("#pass-ready")
            assert page.evaluate("window.nemeton.seat") == to and to != last
            last = to
            passes += 1
            continue
        moves = snapshot(page)["moves"]
        act_by_list(page, rng)
        page.wait_for_function(f"window.nemeton.snapshot.moves > {moves} || !document.getElementById('pass').hidden")
    assert passes >= 2
    assert len(httpx.get(f"{server.base}/api/rooms/{room}/view").json()["log"]) > 6


def test_two_players_online_each_see_the_others_move_and_reconnect_after_a_reload(server, browser):
    room, tokens, _ = create_room(server, "amarok", ["human", "human", "random"])
    pages = [new_page(browser), new_page(browser)]
    try:
        for seat, p in enumerate(pages):
            open_seat(p, server, room, tokens[seat])
            assert p.evaluate("window.nemeton.seat") == seat
        rng = random.Random(5)
        for _ in range(4):
            snaps = [snapshot(p) for p in pages]
            mover = next((s for s in (0, 1) if snaps[s]["legal_actions"]), None)
            if mover is None:
                pages[0].wait_for_timeout(100)
                continue
            moves = snaps[mover]["moves"]
            act_by_list(pages[mover], rng)
            other = pages[1 - mover]
            other.wait_for_function(f"window.nemeton.snapshot.moves > {moves}")
        seen = snapshot(pages[1])
        pages[1].reload()
        pages[1].wait_for_function("window.nemeton && window.nemeton.snapshot")
        again = snapshot(pages[1])
        assert pages[1].evaluate("window.nemeton.seat") == 1
        assert again["moves"] >= seen["moves"] and again["view"]["seat"] == 1
        assert pages[1].locator(".player.me").count() == 1
        assert not pages[0].errors and not pages[1].errors
    finally:
        for p in pages:
            p.context.close()


def test_a_spectator_sees_only_public_information_and_cannot_act(server, page):
    room, tokens, _ = create_room(server, "amarok", ["human", "random", "random"])
    frames = record_frames(page)
    open_seat(page, server, room, None)
    snap = snapshot(page)
    assert snap["view"]["seat"] is None and snap["legal_actions"] == []
    assert page.locator(".legal").count() == 0 and page.locator("#moves-list button").count() == 0
    state_frames = [f for f in frames if f.get("type") == "state"]
    assert state_frames and all(f["view"]["seat"] is None for f in state_frames)


def test_seat_zeros_page_is_never_sent_another_seats_hidden_cards(server, page):
    room, tokens, _ = create_room(server, "amarok", ["human", "random", "random"])
    frames = record_frames(page)
    open_seat(page, server, room, tokens[0])
    rng = random.Random(11)
    checked = 0
    for _ in range(15):
        wait_turn(page)
        checked += check_no_leak(page, server, room)
        if snapshot(page)["terminal"]:
            break
        act_by_list(page, rng)
    assert checked > 0  # there was something hidden to compare with
    assert all(f["view"]["seat"] == 0 for f in frames if f.get("type") == "state")


def test_a_finished_game_shows_the_score_screen_the_replay_and_a_rematch_with_the_same_seats(server, page):
    room, tokens, creator = create_room(server, "amarok", ["human", "random", "random"], rounds_to_win=1)
    page.goto(server.base + "/")
    page.evaluate("([room, t, c]) => localStorage.setItem(`nemeton:room:${room}`, JSON.stringify({seats: {0: t}, creator: c}))",
                  [room, tokens[0], creator])
    page.goto(f"{server.base}/rooms/{room}")
    page.wait_for_function("window.nemeton && window.nemeton.snapshot")
    rng = random.Random(2)
    for _ in range(400):
        if snapshot(page)["terminal"]:
            break
        wait_turn(page)
        if not snapshot(page)["terminal"]:
            act_by_list(page, rng)
    page.wait_for_selector("#score:not([hidden])")
    final = snapshot(page)
    assert final["terminal"] and page.locator("#score-body").inner_text().strip()
    # the replay, from the score screen
    page.click("#score-actions >> text=Replay")
    page.wait_for_url("**/replay")
    page.wait_for_function("document.getElementById('step-text').textContent.includes('step 0 of')")
    steps = int(page.text_content("#step-text").split(" of ")[1])
    assert steps == final["moves"]
    page.click("#forward")
    page.wait_for_function("document.getElementById('step-text').textContent.startsWith('step 1 ')")
    page.click("#last")
    page.wait_for_function(f"document.getElementById('step-text').textContent.startsWith('step {steps} ')")
    page.select_option("#viewer", "1")
    page.wait_for_function(f"document.getElementById('step-text').textContent.startsWith('step {steps} ')")
    page.click("#back")
    page.wait_for_function(f"document.getElementById('step-text').textContent.startsWith('step {steps - 1} ')")
    # the rematch: same game and seats, the same token plays seat 0
    page.goto(f"{server.base}/rooms/{room}")
    page.wait_for_selector("#score:not([hidden])")
    page.click("#score-actions >> text=Rematch")
    page.wait_for_function(f"!location.pathname.includes('{room}')")
    page.wait_for_function("window.nemeton && window.nemeton.snapshot")
    new_room = page.url.split("/rooms/")[1].split("?")[0]
    info = httpx.get(f"{server.base}/api/rooms/{new_room}").json()
    assert [(s["kind"], s["agent"]) for s in info["seats"]] == [("human", None), ("ai", "random"), ("ai", "random")]
    assert snapshot(page)["view"]["seat"] == 0 and snapshot(page)["moves"] < 5
    assert httpx.get(f"{server.base}/api/rooms/{room}").json()["rematch"] == new_room


def test_a_phone_sized_screen_has_no_sideways_scroll_and_tabs_for_the_log(server, phone):
    room, tokens, _ = create_room(server, "amarok", ["human", "random", "random"])
    open_seat(phone, server, room, tokens[0])
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    assert phone.locator(".tabs").is_visible() and not phone.locator("#log").is_visible()
    phone.click(".tabs [data-tab=log]")
    assert phone.locator("#log").is_visible() and not phone.locator("#table").is_visible()
    phone.click(".tabs [data-tab=board]")
    assert phone.locator("#table").is_visible()


def test_a_player_takes_back_a_quiet_move_and_the_creator_hands_a_seat_to_the_ai_and_back(server, page):
    room, tokens, creator = create_room(server, "edora", ["human", "human"], undo=True)
    first = httpx.get(f"{server.base}/api/rooms/{room}/view").json()["acting"][0]
    page.goto(server.base + "/")
    page.evaluate("([room, seat, t, c]) => localStorage.setItem(`nemeton:room:${room}`, "
                  "JSON.stringify({seats: {[seat]: t}, creator: c}))", [room, first, tokens[first], creator])
    page.goto(f"{server.base}/rooms/{room}")
    wait_turn(page)
    before = snapshot(page)
    act_by_list(page, random.Random(1))
    page.wait_for_function("window.nemeton.snapshot.moves === 1")
    page.click("#undo")
    page.wait_for_function("window.nemeton.snapshot.moves === 0")
    after = snapshot(page)
    assert after["legal_actions"] == before["legal_actions"] and after["view"] == before["view"]
    # the creator hands the other person's seat to the AI, then back
    other = 1 - first
    page.click("#creator summary")  # the creator's panel, folded away when no friend is awaited
    page.click(f"#creator li:nth-child({other + 1}) >> text=Hand to the AI")
    page.wait_for_function(f"window.nemeton.snapshot.seats[{other}].stand_in === 'heuristic'")
    assert "played by Heuristic" in page.text_content("#players")
    page.click(f"#creator li:nth-child({other + 1}) >> text=Give back")
    page.wait_for_function(f"window.nemeton.snapshot.seats[{other}].stand_in === null")
