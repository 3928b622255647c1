"""Online play as a newcomer does it, in real browsers: everything a test needs it takes from
the page (a link shown with a copy button, a button it sees), never from the API. The
creator's invite links, a friend playing through one to the end while a spectator watches,
open seats in the lobby taken with a name and left again, two people after one seat, an
unlisted room, the take-back offered only when the server would grant it, the replay of a
game still on, and no console error or failed request on any page."""

from __future__ import annotations

import re

import random
import time

from conftest import INDEX, close_pages as close, new_page, screenshot, snapshot, texts_without_index


def wait_state(page):
    page.wait_for_function("window.nemeton && window.nemeton.snapshot")


def create_in_lobby(page, server, game, players, seats, listed=True, undo=False):
    """Fill the lobby's form as a person does: ``seats`` is a list of (kind, name or agent)
    with kind one of here / invite / open / ai."""
    page.goto(server.base + "/")
    page.get_by_role("radio", name=game).check()
    page.select_option("#players", str(players))
    rows = page.locator(".seat-row")
    for i, (kind, value) in enumerate(seats):
        rows.nth(i).locator(".seat-kind").select_option(kind)
        if kind in ("here", "invite"):
            rows.nth(i).locator(".seat-name").fill(value)
        elif kind == "ai":
            rows.nth(i).locator(".seat-agent").select_option(value)
    if not listed:
        page.uncheck("#listed")
    if undo:
        page.locator("details", has=page.locator("#undo")).evaluate("d => d.open = true")
        page.check("#undo")
    page.click("#create")
    page.wait_for_url("**/rooms/**")
    wait_state(page)
    return page.url.split("/rooms/")[1].split("?")[0]


def click_a_move(page, rng):
    """One click on something highlighted on the table (passing the device if asked);
    True if a click was made."""
    if page.locator("#pass").is_visible():
        page.click("#pass-ready")
        return True
    legal = page.locator(".legal:visible")
    count = legal.count()
    if not count:
        return False
    try:
        legal.nth(rng.randrange(count)).click(timeout=2000)
        return True
    except Exception:  # redrawn under the click
        return False


def play_between(pages, seed=0, timeout=240.0):
    """Clicks on whichever page may act until every page shows the score screen."""
    rng = random.Random(seed)
    deadline = time.monotonic() + timeout
    clicks = 0
    while not all(p.locator("#score").is_visible() for p in pages):
        assert time.monotonic() < deadline, f"no end after {clicks} clicks"
        moved = False
        for p in pages:
            if not p.locator("#score").is_visible() and click_a_move(p, rng):
                clicks += 1
                moved = True
        if not moved:
            pages[0].wait_for_timeout(40)
    return clicks


def test_the_creators_page_shows_invite_links_a_friend_plays_through_one_to_the_end_and_a_spectator_watches(
        server, browser):
    ann = new_page(browser, 1366, 768)
    bob = new_page(browser, 1366, 768)
    watcher = new_page(browser)
    try:
        create_in_lobby(ann, server, "Alarún", 2, [("here", "Ann"), ("invite", "Bob")])
        # the creator sees one invite link per friend's seat, with a copy button
        invites = ann.locator("#creator input.invite[data-seat]")
        assert invites.count() == 1
        link = invites.first.input_value()
        assert "/rooms/" in link and "token=" in link
        assert ann.locator("#creator button.copy-invite").is_visible()
        # its copy button puts that very link on the clipboard
        ann.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.base)
        ann.evaluate("navigator.clipboard.writeText('nothing yet')")
        ann.click("#creator button.copy-invite")
        ann.wait_for_selector("text=Link copied")
        assert ann.evaluate("navigator.clipboard.readText()") == link
        watch_link = ann.locator("#watch-link").input_value()
        assert "Bob" in texts_without_index(ann, "#creator")[0]
        screenshot(ann, "invite-links")
        bob.goto(link)
        wait_state(bob)
        assert bob.evaluate("window.nemeton.seat") == 1
        assert "Bob" in bob.text_content("#players") and "Ann" in bob.text_content("#players")
        watcher.goto(watch_link)
        wait_state(watcher)
        assert watcher.evaluate("window.nemeton.seat") is None
        clicks = play_between([ann, bob], seed=3)
        assert clicks > 10
        for p in (ann, bob):
            winner = p.text_content("#score-winner")
            assert ("Ann" in winner or "Bob" in winner or "you" in winner.lower()) and not INDEX.search(winner), winner
            assert not INDEX.search(p.text_content("#log-list"))
        watcher.wait_for_function("window.nemeton.snapshot.terminal")
        watcher.wait_for_selector("#score:not([hidden])")
        assert snapshot(watcher)["view"]["seat"] is None and snapshot(watcher)["legal_actions"] == []
        assert not INDEX.search(watcher.text_content("#log-list"))
    finally:
        close(ann, bob, watcher)


def test_the_focus_on_an_invite_links_copy_button_survives_a_server_push(server, browser):
    ann = new_page(browser)
    bob = new_page(browser)
    try:
        create_in_lobby(ann, server, "Alarún", 3, [("here", "Ann"), ("invite", "Bob"), ("invite", "Cleo")])
        copy = ann.locator("#creator button.copy-invite").nth(1)  # Cleo's
        copy.focus()
        ann.evaluate("document.activeElement.dataset.marked = 'yes'")  # this very element
        assert ann.locator("#creator .hint", has_text="not here yet").count() == 2
        bob.goto(ann.locator("#creator input.invite[data-seat]").first.input_value())
        wait_state(bob)
        # the push saying Bob came redraws the panel (still open: Cleo has yet to come), and
        # the same button keeps the focus
        ann.wait_for_function("[...document.querySelectorAll('#creator .hint')].some(e => e.textContent === 'here')")
        assert ann.evaluate("document.activeElement.classList.contains('copy-invite')")
        assert ann.evaluate("document.activeElement.dataset.marked") == "yes"
    finally:
        close(ann, bob)


def test_open_seats_are_listed_taken_with_a_name_left_again_and_the_game_starts_when_all_are_taken(server, browser):
    ann, bob, cleo = (new_page(browser) for _ in range(3))
    try:
        room = create_in_lobby(ann, server, "Amarok", 3, [("here", "Ann"), ("open", None), ("open", None)])
        ann.wait_for_selector("#waiting:not([hidden])")
        assert "2 open seats" in ann.text_content("#waiting")
        # open seats are shown by their badge (colour and symbol) and "Open seat", never a number
        creator = texts_without_index(ann, "#creator")[0]
        assert creator.count("Open seat") == 2 and "Ann" in creator, creator
        texts_without_index(ann, "#waiting")
        assert ann.eval_on_selector_all("#creator .seat-badge", "es => es.map((e) => e.dataset.seat)") == ["0", "1", "2"]
        # nothing is offered before every seat is taken (the server would refuse it)
        assert ann.locator("#board .legal, #actionbar .legal, #moves-list button").count() == 0
        assert not re.search(r"your turn|your claw|on its way", ann.text_content("#board"), re.I)  # nor said
        # Bob finds the room in the lobby's open games and takes a seat with his name
        bob.goto(server.base + "/")
        entry = bob.locator(f".room[data-room='{room}']")
        entry.wait_for()
        assert entry.locator("button.take-seat").count() == 2
        assert texts_without_index(bob, f".room[data-room='{room}']")[0].count("Open seat") == 2
        assert entry.locator("button.take-seat").first.get_attribute("aria-label") == "Take the blue ■ open seat"
        entry.locator("button.take-seat").first.click()  # no name yet: told to type one
        bob.wait_for_function("document.getElementById('join-error').textContent.length > 0")
        assert bob.url.endswith("/")
        bob.fill("#my-name", "Bob")
        entry.locator("button.take-seat").first.click()
        bob.wait_for_url(f"**/rooms/{room}")
        wait_state(bob)
        assert bob.evaluate("window.nemeton.seat") == 1
        bob.wait_for_selector("#waiting:not([hidden])")
        ann.wait_for_function("document.getElementById('waiting').textContent.includes('1 open seat')")
        assert "Bob" in ann.text_content("#players")
        assert bob.text_content("button.leave-seat") == "Leave my seat (Bob)"
        texts_without_index(bob, "#waiting")
        ann.wait_for_function("document.getElementById('creator').textContent.includes('Bob')")
        assert texts_without_index(ann, "#creator")[0].count("Open seat") == 1
        # ... and leaves again before the game starts: the seat is open once more
        bob.click("button.leave-seat")
        bob.wait_for_url("**?watch")
        wait_state(bob)
        assert bob.evaluate("window.nemeton.seat") is None
        ann.wait_for_function("document.getElementById('waiting').textContent.includes('2 open seats')")
        # Cleo takes a seat from the open-seat link shown on Ann's page, then Bob the last one
        cleo.goto(ann.locator("#open-link").input_value())
        wait_state(cleo)
        # a visitor's waiting room: a "Take" button per open seat, each with the seat's badge
        assert [t.strip() for t in texts_without_index(cleo, "#waiting button.take-seat")] == ["Take ■ Open seat", "Take ▲ Open seat"]
        cleo.fill("#join-name", "Cleo")
        cleo.locator("#waiting button.take-seat").first.click()
        cleo.wait_for_function("window.nemeton && window.nemeton.seat === 1")
        bob.wait_for_function("document.querySelectorAll('#waiting button.take-seat').length === 1")
        bob.fill("#join-name", "Bob")
        bob.locator("#waiting button.take-seat").click()
        bob.wait_for_function("window.nemeton && window.nemeton.seat === 2")
        for p in (ann, bob, cleo):  # the game has started on every page
            p.wait_for_function("window.nemeton.snapshot && !window.nemeton.snapshot.waiting")
            assert p.locator("#waiting").is_hidden()
        names = ann.text_content("#players")
        assert "Ann" in names and "Bob" in names and "Cleo" in names
        assert ann.locator("button.leave-seat").count() == 0
        bob.goto(server.base + "/")
        bob.wait_for_selector("#rooms li")
        assert bob.locator(f".room[data-room='{room}'] button.take-seat").count() == 0
    finally:
        close(ann, bob, cleo)


def test_two_people_after_the_last_open_seat_one_gets_it_and_the_other_a_clear_message(server, browser):
    ann, bob, cleo = (new_page(browser) for _ in range(3))
    try:
        room = create_in_lobby(ann, server, "Alarún", 2, [("here", "Ann"), ("open", None)])
        for p, name in ((bob, "Bob"), (cleo, "Cleo")):  # both see the seat open
            p.goto(server.base + "/")
            p.locator(f".room[data-room='{room}'] button.take-seat").wait_for()
            p.fill("#my-name", name)
        bob.locator(f".room[data-room='{room}'] button.take-seat").click()
        cleo.locator(f".room[data-room='{room}'] button.take-seat").click()
        bob.wait_for_url(f"**/rooms/{room}")
        cleo.wait_for_function("document.getElementById('join-error').textContent.length > 0")
        message = cleo.text_content("#join-error")
        assert "Bob has taken this seat" in message, message
        assert cleo.url.endswith("/")
    finally:
        close(ann, bob, cleo)


def test_an_unlisted_room_is_found_only_through_its_links(server, browser):
    ann, stranger = new_page(browser), new_page(browser)
    try:
        room = create_in_lobby(ann, server, "Alarún", 2, [("here", "Ann"), ("open", None)], listed=False)
        creator = texts_without_index(ann, "#creator")[0]
        assert "Unlisted" in creator and "Open seat" in creator
        assert ann.locator("#board .legal, #actionbar .legal").count() == 0  # nothing to play while waiting
        board = ann.text_content("#board")
        assert "Waiting for players" in board and not re.search(r"your turn|on its way", board, re.I)
        screenshot(ann, "unlisted-room")
        stranger.goto(server.base + "/")
        stranger.wait_for_selector("#rooms li")
        for name in ("open", "playing", "finished", "yours"):
            stranger.click(f"[data-filter={name}]")
            stranger.wait_for_selector(f"#rooms[data-filter={name}]")  # the list of that filter is drawn
            assert room not in stranger.inner_html("#rooms")
        stranger.goto(ann.locator("#open-link").input_value())  # the link the creator sent
        wait_state(stranger)
        stranger.fill("#join-name", "Zoe")
        stranger.locator("#waiting button.take-seat").click()
        stranger.wait_for_function("window.nemeton && window.nemeton.snapshot && window.nemeton.seat === 1 && !window.nemeton.snapshot.waiting")
        ann.wait_for_function("!window.nemeton.snapshot.waiting")
        assert "Zoe" in ann.text_content("#players")
    finally:
        close(ann, stranger)


def test_the_take_back_button_is_enabled_only_when_the_server_would_grant_it_and_says_why_not(server, page):
    create_in_lobby(page, server, "The Druids of Edora", 2, [("here", "Ann"), ("ai", "random")], undo=True)
    rng = random.Random(7)
    seen = {"enabled": 0, "disabled": 0}
    undid = False
    deadline = time.monotonic() + 90
    while (not seen["enabled"] or not seen["disabled"]) and time.monotonic() < deadline:
        page.wait_for_function("window.nemeton.snapshot.terminal || (window.nemeton.snapshot.legal_actions.length > 0"
                               " && !window.nemeton.pending)", timeout=30_000)
        if snapshot(page)["terminal"]:
            break
        moves = snapshot(page)["moves"]
        if not click_a_move(page, rng):
            continue
        try:
            page.wait_for_function(f"window.nemeton.snapshot.moves > {moves} && !window.nemeton.pending", timeout=5000)
        except Exception:  # the click fell on a table being redrawn
            continue
        page.wait_for_timeout(100)
        button = page.locator("#undo")
        if button.is_enabled():
            assert snapshot(page)["take_back"]["allowed"]
            seen["enabled"] += 1
            if not undid:  # take it back once, then play on
                now = snapshot(page)["moves"]
                button.click()
                page.wait_for_function(f"window.nemeton.snapshot.moves === {now - 1}")
            undid = not undid
        else:
            seen["disabled"] += 1
            reason = page.text_content("#undo-reason")
            assert reason and not INDEX.search(reason), reason
            assert button.get_attribute("title") == reason
    assert seen["enabled"] and seen["disabled"], seen


def test_the_replay_of_a_game_still_on_shows_the_moves_so_far_and_says_why_other_seats_are_not_shown(server, page):
    create_in_lobby(page, server, "Amarok", 3, [("here", "Ann"), ("ai", "random"), ("ai", "random")])
    rng = random.Random(2)
    # two of Ann's moves and the others' answers: at least 4 moves, and a game still on (it takes
    # 3 round wins, and a round at least 4 moves; six moves of Ann's could, rarely, end the game
    # and take the link away with it)
    for _ in range(2):
        page.wait_for_function("window.nemeton.snapshot.legal_actions.length > 0 && !window.nemeton.pending")
        click_a_move(page, rng)
    page.wait_for_function("window.nemeton.snapshot.moves >= 4")
    assert not page.evaluate("window.nemeton.snapshot.terminal")
    page.click("a#replay-so-far")
    page.wait_for_url("**/replay")
    page.wait_for_function("document.getElementById('step-text').textContent.includes('of')")
    assert page.locator("#note").is_visible() and "still being played" in page.text_content("#note")
    options = page.locator("#viewer option")
    assert options.count() == 2  # the spectator and Ann's own seat, not the AI's
    page.click("#last")
    page.wait_for_function("document.querySelectorAll('#log-list li').length > 0")
    log_before = page.text_content("#log-list")
    page.select_option("#viewer", "0")
    page.wait_for_timeout(500)
    assert page.text_content("#replay-error") == ""
    assert page.locator("#board *").count() > 0 and log_before
    for _ in range(3):  # stepping back and forth never blanks the table
        page.click("#back")
        page.wait_for_timeout(150)
        assert page.locator("#board *").count() > 0


def test_no_page_logs_a_console_error_or_a_failed_request(server, browser):
    p = new_page(browser)
    failed, messages = [], []
    p.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    p.on("console", lambda m: messages.append(m.text) if m.type == "error" else None)
    try:
        room = create_in_lobby(p, server, "The Druids of Edora", 2, [("here", "Ann"), ("ai", "random")])
        p.wait_for_timeout(300)
        p.goto(f"{server.base}/rooms/{room}?watch")
        wait_state(p)
        p.goto(f"{server.base}/rooms/{room}/replay")
        p.wait_for_function("document.getElementById('step-text').textContent.length > 0")
        p.goto(server.base + "/")
        p.wait_for_timeout(300)
        assert not failed and not messages, (failed, messages)
    finally:
        close(p)
