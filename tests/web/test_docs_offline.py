"""The API documentation pages (/docs: Swagger UI, /redoc: ReDoc) work in a browser with no
internet: every request to another host is aborted, and both pages still draw every operation
of the schema, under their own Content-Security-Policy (not bypassed here), with no request
to the server failing."""

from __future__ import annotations

from urllib.parse import urlsplit

import httpx
import pytest

# ReDoc's footer shows Redocly's logo from its CDN: the one outside request the pages make (the
# page's img-src refuses it before it leaves).
KNOWN_OUTSIDE = {"cdn.redoc.ly"}


@pytest.fixture
def offline(browser, server):
    """A page whose every request to another host than the test server is aborted (and noted)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})  # the pages' CSP applies
    context.set_default_timeout(20_000)
    page = context.new_page()
    ours = urlsplit(server.base).netloc
    page.blocked, page.failed, page.bad, page.console = [], [], [], []

    def route(r):
        if urlsplit(r.request.url).netloc == ours or r.request.url.startswith(("data:", "blob:")):
            r.continue_()
        else:
            page.blocked.append(r.request.url)
            r.abort()
    page.route("**/*", route)
    page.on("requestfailed", lambda req: page.failed.append((req.url, req.failure)))
    page.on("response", lambda resp: page.bad.append((resp.url, resp.status)) if resp.status >= 400 else None)
    page.on("console", lambda msg: page.console.append((msg.text, msg.location.get("url", "")))
            if msg.type == "error" else None)
    page.on("pageerror", lambda exc: page.console.append((str(exc), "")))
    yield page
    context.close()


def operations(server) -> int:
    schema = httpx.get(f"{server.base}/openapi.json", timeout=30).json()
    return sum(1 for item in schema["paths"].values() for method in item
               if method in ("get", "put", "post", "delete", "patch", "head", "options"))


def check_nothing_failed_but_the_blocked(page, server) -> None:
    """Requests to other hosts (aborted here, or refused by the page's own CSP first) only to the
    known ones; none to the server failed or answered an error; no error in the console but
    those about the known outside hosts."""
    ours = urlsplit(server.base).netloc
    outside = set(page.blocked) | {url for url, _ in page.failed if urlsplit(url).netloc != ours}
    assert {urlsplit(u).netloc for u in outside} <= KNOWN_OUTSIDE, f"outside requests: {sorted(outside)}"
    assert [f for f in page.failed if f[0] not in outside] == [], "requests to the server failed"
    assert page.bad == [], "the server answered an error"
    errors = [(text, url) for text, url in page.console
              if url not in outside and not any(host in text for host in KNOWN_OUTSIDE)]
    assert errors == [], "the page logged errors (a script or style refused, or failing)"


def test_swagger_ui_draws_every_operation_without_the_internet(offline, server):
    count = operations(server)
    offline.goto(f"{server.base}/docs")
    offline.wait_for_selector(".opblock")
    offline.wait_for_function(f"document.querySelectorAll('.opblock').length >= {count}")
    assert offline.locator(".opblock").count() == count > 10
    assert offline.locator(".opblock-summary-path").first.inner_text().startswith("/")
    check_nothing_failed_but_the_blocked(offline, server)


def test_redoc_draws_every_operation_without_the_internet(offline, server):
    count = operations(server)
    offline.goto(f"{server.base}/redoc")
    offline.wait_for_selector("[data-item-id*='operation/']")
    items = offline.locator("li[data-item-id*='operation/']")
    assert items.count() == count > 10
    check_nothing_failed_but_the_blocked(offline, server)
