"""A finished game's analysis page in a real browser (issue 28): a person plays a game against the
AI to its end, clicks "Analyse the game" on the score screen, watches the progress, then reads
each seat's win chance over the game (one line per seat in its colour), the costly moves marked
on the graph and listed with their comment, each seat's accuracy, and the sentence that says
decisions are judged from what their player could see; a costly move leads to that moment of
the replay, seen by its seat."""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal

import httpx
import pytest
from conftest import create_room, open_seat, play_by_clicks

SEAT_CSS = ["#c2412d", "#2d6cc2", "#2f8f4e", "#b7791f"]  # web/js/text.js SEAT_COLOURS
PROMISE = "judges each decision from what its player could see at that moment, never from the hidden cards"


def pct(share):
    """A share as the page writes it: Intl.NumberFormat's percent, which (through ICU) rounds the
    number's shortest decimal form half away from zero, so 0.145 is "15%" where float arithmetic
    (0.145 * 100 = 14.4999...) would say 14."""
    return f"{(Decimal(repr(share)) * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP)}%"


@pytest.fixture
def quick_analyses(server):
    """The live server's analyses at a small budget (the page, not the search, is tested here)."""
    analyses = server.server.config.app.state.rooms.analyses
    analyses.iterations = 30
    yield analyses
    analyses.iterations = None


def test_a_game_played_to_the_end_is_analysed_from_its_score_screen(page, server, quick_analyses):
    room, tokens, _ = create_room(server, "alarun", ["human", "heuristic"])
    open_seat(page, server, room, tokens[0])
    play_by_clicks(page, seed=3, timeout=300)
    # the progress bar may come and go quickly at this budget: the page notes that it showed
    page.add_init_script("""new MutationObserver(() => {
        const bar = document.getElementById("analysis-progress");
        if (bar && bar.getClientRects().length) window.sawProgress = true;
      }).observe(document, { subtree: true, childList: true, attributes: true });""")
    page.click("#score #analyse")
    page.wait_for_url(re.compile(f"/rooms/{room}/analysis$"))
    assert PROMISE in page.inner_text(".analysis-promise")
    page.wait_for_selector("body[data-ready='1']", timeout=240_000)
    assert page.evaluate("window.sawProgress === true") and page.locator("#analysis-progress").is_hidden()
    analysis = httpx.get(f"{server.base}/api/rooms/{room}/analysis", timeout=30).json()
    assert analysis["state"] == "done"
    analysis = analysis["analysis"]
    # one line per seat, in its colour
    lines = page.eval_on_selector_all(".win-graph .seat-line", "gs => gs.map((g) => [g.dataset.seat, g.querySelector('polyline').getAttribute('stroke')])")
    assert sorted(lines) == [["0", SEAT_CSS[0]], ["1", SEAT_CSS[1]]]
    points = page.eval_on_selector_all(".win-graph .seat-line polyline", "ps => ps.map((p) => p.points.numberOfItems)")
    per_seat = {s["seat"]: 2 * s["decisions"] for s in analysis["seats"]}
    decided = [sum(1 for d in analysis["decisions"] if d["seat"] == s) * 2 for s in (0, 1)]
    assert points == decided and sum(decided) == 2 * len(analysis["decisions"]) and per_seat
    # the costly moves: marked on the graph and listed, in the game's order
    costly = sorted((d for d in analysis["decisions"] if d["class"]), key=lambda d: d["index"])
    marks = page.eval_on_selector_all(".win-graph a.mark", "ms => ms.map((m) => Number(m.dataset.index))")
    listed = page.eval_on_selector_all("#costly .costly-move", "ls => ls.map((l) => Number(l.dataset.index))")
    assert marks == listed == [d["index"] for d in costly]
    comments = page.eval_on_selector_all("#costly .costly-comment", "cs => cs.map((c) => c.textContent)")
    assert len(comments) == len(costly)
    for said, d in zip(comments, costly):  # the teacher's numbers, the moves in the renderer's words
        assert f"cost about {pct(d['loss'])} win chance ({pct(d['before'])} to {pct(d['after'])})" in said
        assert said.endswith("kept it.")
    # each seat's accuracy and counts
    rows = page.eval_on_selector_all(".accuracy tbody tr", "rs => rs.map((r) => [...r.children].map((c) => c.textContent))")
    assert len(rows) == 2
    for row, seat in zip(rows, analysis["seats"]):
        assert row[1] == ("–" if seat["accuracy"] is None else f"{seat['accuracy']:.1f}%") and row[2:] == [str(seat[k]) for k in
                                                                     ("decisions", "inaccuracies", "mistakes", "blunders")]
    assert page.locator("#budget").inner_text().startswith(f"Each decision searched for {analysis['budget']['iterations']} iterations")
    if costly:  # a costly move leads to its moment of the replay, seen by its seat
        first = costly[0]
        page.locator("#costly .costly-link").first.click()
        page.wait_for_url(re.compile(f"/rooms/{room}/replay\\?step={first['index']}&seat={first['seat']}$"))
        page.wait_for_function(f"document.getElementById('step-text').textContent.startsWith('step {first['index']} of')")
        assert page.input_value("#viewer") == str(first["seat"])
        assert page.locator("#analyse").is_visible()  # and the replay leads back to the analysis


def test_the_analysis_page_of_an_unfinished_game_says_it_is_not_over(page, server):
    room, _tokens, _ = create_room(server, "alarun", ["human", "heuristic"])
    page.goto(f"{server.base}/rooms/{room}/analysis")
    page.wait_for_selector("#progress .error")
    assert "once it has ended" in page.inner_text("#progress")
    assert httpx.get(f"{server.base}/api/rooms/{room}/analysis", timeout=30).status_code == 409
