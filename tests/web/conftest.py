"""Browser tests: the real web client in Debian's chromium (headless), driven by Playwright,
against a live server on a free loopback port with a fresh SQLite file.

Playwright cannot download its own browser here: it drives the system chromium
(``/usr/bin/chromium``, or ``$NEMETON_CHROMIUM``). Where that or Playwright is missing the
browser tests are skipped with a message saying what to install (``scripts/test.sh``
installs both).
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import socket
import threading
import time
from pathlib import Path

import httpx
import pytest

from nemeton.engine import GameRecord, get_game
from nemeton.server.db import Store, open_engine
from leakcheck import hidden_from, keys, leaves  # noqa: E402, F401 (tests import them from here)

CHROMIUM = os.environ.get("NEMETON_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
# As the machine's probe found: without these, chromium tries to reach Google's hosts at start.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
# An engine index shown to people ("seat 2", "Seats 1 and 3"): seats are named, never numbered.
INDEX = re.compile(r"\b[Ss]eats? \d")


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/web/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    """``nemeton serve`` in a thread of this process: ``base`` is its address, ``db_url`` its database."""

    def __init__(self, tmp: Path):
        import uvicorn

        from nemeton.server.app import create_app
        self.db_url = f"sqlite:///{tmp / 'web.db'}"
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(create_app(self.db_url, rate_limit=None), host="127.0.0.1", port=self.port,
                                log_level="warning", ws_ping_interval=None)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.05)
        self.store = Store(open_engine(self.db_url))

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    live = LiveServer(tmp_path_factory.mktemp("web"))
    yield live
    live.stop()


@pytest.fixture(scope="session")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="browser tests need Playwright: pip install -e '.[web]'")
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"browser tests need chromium at {CHROMIUM} (Debian: apt-get install chromium)")
    playwright = sync_api.sync_playwright().start()
    chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    yield chromium
    chromium.close()
    playwright.stop()


class PageErrors(list):
    """JavaScript errors a page raised: a test fails on any (checked when the page closes)."""


def new_page(browser, width=1280, height=800, locale=None):
    """A page in a fresh browser context; ``locale`` ("it-IT"): the browser's language
    (navigator.languages), else the browser's default."""
    # the pages forbid eval (CSP): Playwright's wait_for_function needs it, so tests bypass the policy
    context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True,
                                  **({"locale": locale} if locale else {}))
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.errors = PageErrors()
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.on("console", lambda msg: page.errors.append(msg.text) if msg.type == "error" and "WebSocket" not in msg.text
            and "Failed to load resource" not in msg.text else None)
    return page


def close_pages(*pages):
    """Close the pages' browsers; fails if any page raised a JavaScript error."""
    errors = []
    for p in pages:
        errors += list(p.errors)
        p.context.close()
    assert not errors, f"the page raised JavaScript errors: {errors[:3]}"


def _checked_page(browser, width=1280, height=800):
    p = new_page(browser, width, height)
    yield p
    close_pages(p)


@pytest.fixture
def page(browser):
    yield from _checked_page(browser)


@pytest.fixture
def phone(browser):
    yield from _checked_page(browser, 360, 740)


@pytest.fixture
def laptop(browser):
    yield from _checked_page(browser, 1366, 768)


def create_room(server, game, seats, undo=False, **options):
    """A room whose seats are "human" or an agent spec; returns (room, {seat: token}, creator token)."""
    body = {"game": game, "options": {"players": len(seats), **options}, "undo": undo,
            "seats": [{"kind": "human", "name": f"P{i + 1}"} if s == "human" else {"kind": "ai", "agent": s}
                      for i, s in enumerate(seats)]}
    r = httpx.post(f"{server.base}/api/rooms", json=body, timeout=30)
    assert r.status_code == 201, r.text
    data = r.json()
    return data["room"], {s["seat"]: s["token"] for s in data["seats"]}, data["creator"]


def open_seat(page, server, room, token=None):
    """Open a seat's page (the spectator's without a token) and wait for its first state."""
    url = f"{server.base}/rooms/{room}" + (f"?token={token}" if token else "?watch")
    page.goto(url)
    page.wait_for_function("window.nemeton && window.nemeton.snapshot")
    return page


def texts_without_index(page, selector):
    """The text of every element ``selector`` matches; fails if one shows a seat by its number."""
    texts = page.eval_on_selector_all(selector, "es => es.map((e) => e.textContent)")
    shown = [t for t in texts if INDEX.search(t)]
    assert not shown, f"{selector} shows a seat by its number: {shown[:2]}"
    return texts


def snapshot(page):
    return page.evaluate("window.nemeton.snapshot")


def play_by_clicks(page, until=None, seed=0, timeout=120.0, max_clicks=5000):
    """Click random highlighted (``.legal``) things, passing the device when asked, until the
    score screen shows (or ``until(page)`` holds). Returns the number of clicks."""
    rng = random.Random(seed)
    clicks = 0
    deadline = time.monotonic() + timeout
    legal = page.locator(".legal:visible")
    while True:
        # what is clickable is counted before ``until`` looks, and nothing is clicked that was not
        # there when it looked: a table drawn between its look and the click (the others' moves
        # arrive at any moment) waits for the next look, so no decision goes unchecked
        seen = legal.count()
        if until is not None and until(page):
            return clicks
        if until is None and page.locator("#score").is_visible():
            return clicks
        assert time.monotonic() < deadline, f"no end after {clicks} clicks: {snapshot(page)['acting']}"
        assert clicks < max_clicks, "too many clicks"
        if page.locator("#pass").is_visible():
            page.click("#pass-ready")
            continue
        count = legal.count() if seen else 0
        if count == 0:
            page.wait_for_timeout(30)
            continue
        target = legal.nth(rng.randrange(count))
        try:
            target.click(timeout=2000)
            clicks += 1
        except Exception:  # the table was redrawn under the click: look again
            pass


def state_at(server, room, moves=None):
    """The room's true state (every hidden card, the seed) after its first ``moves`` actions
    (all of them with None), replayed from the database."""
    row = server.store.load_room(room)
    spec = get_game(row.game)
    options = spec.options(**row.options)
    actions = [(s, spec.action_from_json(a, options)) for s, a in row.actions[:moves]]
    return GameRecord(row.game, row.options, row.seed, actions).replay()


def true_state(server, room):
    """The room's true state now."""
    return state_at(server, room)


def canonical(action):
    """An action's JSON as comparable text."""
    return json.dumps(action, sort_keys=True)


def play_checking_the_phone_fits(phone, own_area, checks, seed=4):
    """Plays seat 0 on a 360 x 740 phone by clicks, ``checks`` times checking that the page
    does not scroll sideways and that ``own_area`` (the seat's own hand or board) stays in
    sight and takes at most a third of the height (also after scrolling the table to the top);
    then that no text on the table is below 14 px."""
    def fits(p):
        if p.locator("#score").is_visible():
            return True
        width = p.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"the page scrolls sideways: {width} px"
        own = p.evaluate("""(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
                                     return { top: r.top, bottom: r.bottom, height: r.height }; }""", own_area)
        assert 0 <= own["top"] and own["bottom"] <= 740 + 1 and own["height"] <= 740 / 3, own
        fits.checked += 1
        if fits.checked % 4 == 0:  # the table scrolled to the top: the own area is still in sight
            p.evaluate("window.scrollTo(0, 0)")
        return fits.checked >= checks

    fits.checked = 0
    play_by_clicks(phone, until=fits, seed=seed, timeout=60)
    small = phone.eval_on_selector_all("#board *", """els => els.filter(e => e.childNodes.length && [...e.childNodes]
        .some(n => n.nodeType === 3 && n.textContent.trim()) && (e.offsetParent !== null || e instanceof SVGElement))
        .map(e => parseFloat(getComputedStyle(e).fontSize)).filter(px => px < 14)""")
    assert small == [], "text below 14 px on the table"
    return fits.checked


def record_frames(page):
    """Every WebSocket frame the page receives, as parsed JSON (a list that fills as it goes)."""
    frames = []

    def on_socket(ws):
        ws.on("framereceived", lambda payload: frames.append(json.loads(payload)))
    page.on("websocket", on_socket)
    return frames


def screenshot(page, name):
    """A screenshot of the page: into docs/screenshots/ when NEMETON_SCREENSHOTS=1 (to refresh
    the README's pictures), else into a temporary folder (a test run leaves the docs alone)."""
    if os.environ.get("NEMETON_SCREENSHOTS") == "1":
        folder = SCREENSHOTS
    else:
        folder = Path(os.environ.get("TMPDIR", "/tmp")) / "nemeton-screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"))


def check_no_leak(page, server, room, seat=0):
    """Nothing of another seat's hidden part is in ``seat``'s page now: not in the last state
    it was sent, not in any ``data-card`` of its DOM (compared with the room's true state)."""
    # the page's last state and what it draws, read at one moment (the page redraws as a state
    # arrives), compared with the room's true state after the same moves
    snap, drawn = page.evaluate("""() => [window.nemeton.snapshot,
        [...document.querySelectorAll("[data-card]")].map(e => e.dataset.card)]""")
    state = state_at(server, room, snap["moves"])
    shown = set(leaves(snap["view"]))
    cards = set(drawn)
    checked = 0
    for other in range(state.num_players):
        if other == seat:
            continue
        secret = hidden_from(state, seat, other)
        assert not (secret & shown), f"seat {seat}'s page was sent seat {other}'s hidden part"
        # a value seat may also see elsewhere (two copies of one card) is not a secret as a value
        visible = {v for _, v in leaves(snap["view"])} | {json.dumps(k) for k in keys(snap["view"])}
        secret_values = {json.loads(v) for _, v in secret if v not in visible}
        secret_texts = {v if isinstance(v, str) else json.dumps(v) for v in secret_values}
        assert not (cards & secret_texts), f"seat {seat}'s page shows seat {other}'s hidden cards"
        checked += len(secret)
    assert str(state.seed) not in json.dumps(snap) or state.is_terminal()
    return checked
