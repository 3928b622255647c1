// Amarok's renderer (games/amarok/web/renderer.js) on recorded snapshots: what it draws
// for each seat and the spectator, read from its virtual nodes.
import { test } from "node:test";
import assert from "node:assert/strict";

import * as amarok from "../../src/nemeton/games/amarok/web/renderer.js";
import { ctxFor, key, snapshots } from "./fixtures.mjs";
import { everyMoveHasWords, replayActsNothing } from "./shared.mjs";
import { attr, byClass, elements, hasClass, text } from "./vnode.mjs";

const ALL = snapshots("amarok");
const drawn = (ctx) => { const out = amarok.draw(ctx); return { ...out, all: [out.board, out.bar] }; };
const seatPanel = (board, seat) => byClass(board, "amk-seat").find((p) => attr(p, "data-seat") === String(seat));

test("the fixtures hold seats' and the spectator's views, a team game and finished games", () => {
  assert.ok(ALL.some(({ snap }) => snap.seat === null) && ALL.some(({ snap }) => snap.legal_actions.length));
  assert.ok(ALL.some(({ snap }) => snap.view.teams) && ALL.some(({ snap }) => snap.terminal));
});

test("every hand card the view shows is drawn face up in that hand, every hidden one as a back", () => {
  for (const { play, snap } of ALL) {
    const { board } = drawn(ctxFor(play, snap));
    snap.view.hands.forEach((slots, seat) => {
      const hand = byClass(seatPanel(board, seat), "amk-hand")[0];
      const cards = byClass(hand, "card");
      const faces = cards.filter((c) => hasClass(c, "face")).map((c) => attr(c, "data-card"));
      const shown = slots.filter((s) => s && s.card !== null && s.card !== undefined).map((s) => String(s.card));
      assert.deepEqual(faces, shown, `${play.label}, move ${snap.moves}, seen by ${snap.seat}: seat ${seat}'s hand`);
      const backs = slots.filter((s) => s && (s.card === null || s.card === undefined)).length;
      assert.equal(cards.filter((c) => hasClass(c, "back")).length, backs);
      if (seat === snap.seat) {  // your own unseen cards are the "?" backs
        assert.equal(cards.filter((c) => hasClass(c, "amk-lost")).length, backs);
      }
    });
  }
});

test("the river, the cards in front and the deck's size are drawn as the view says", () => {
  for (const { play, snap } of ALL) {
    const { board } = drawn(ctxFor(play, snap));
    const river = byClass(board, "amk-river")[0];
    assert.deepEqual(byClass(river, "face").map((c) => attr(c, "data-card")), snap.view.river.map(String));
    snap.view.fronts.forEach((cards, seat) => {
      const front = byClass(seatPanel(board, seat), "amk-front")[0];
      assert.deepEqual(byClass(front, "face").map((c) => attr(c, "data-card")), cards.map(String));
    });
    assert.equal(attr(byClass(board, "amk-count")[0], "data-count"), String(snap.view.deck_size || 0));
  }
});

test("exactly the legal moves are highlighted, each acting its own move; the spectator gets none", () => {
  let checked = 0;
  for (const { play, snap } of ALL) {
    const acted = [];
    const { all } = drawn(ctxFor(play, snap, acted));
    const legal = byClass(all, "legal");
    if (snap.seat === null || snap.terminal) { assert.equal(legal.length, 0); continue; }
    const want = new Set(snap.legal_actions.map(key));
    const shown = new Set(legal.map((el) => attr(el, "data-action") || null).filter(Boolean));
    assert.deepEqual([...shown].sort(), [...want].sort(), `${play.label}, move ${snap.moves}, seat ${snap.seat}`);
    assert.equal(byClass(all, "legal").filter((el) => !want.has(attr(el, "data-action"))).length, 0);
    for (const el of legal) {  // a click makes the move the element says
      attr(el, "onclick")({ preventDefault() {} });
      assert.equal(key(acted.pop()), attr(el, "data-action"));
    }
    checked += legal.length;
  }
  assert.ok(checked > 0);
});

test("a replay highlights nothing and acts nothing", () => replayActsNothing("amarok", amarok));

test("seats are named by their names, never by their number", () => {
  for (const { play, snap } of ALL) {
    const { board } = drawn(ctxFor(play, snap));
    for (const s of snap.seats) {
      const badge = byClass(seatPanel(board, s.seat), "seat-badge")[0];
      assert.match(text(badge), new RegExp(s.name));
    }
    assert.doesNotMatch(text(board), /\b(seat|player) \d/i);
    const places = byClass(board, "amk-seat").map((p) => attr(p, "aria-label"));
    if (snap.seat !== null) assert.ok(places.includes("your place"));
  }
});

test("the final sheet has every seat's round wins and every round, winners by name", () => {
  const finished = ALL.filter(({ snap }) => snap.terminal);
  assert.ok(finished.length);
  for (const { play, snap } of finished) {
    const sheet = amarok.score({ ...ctxFor(play, snap), mode: "score" });
    const rows = elements(sheet).filter((el) => el.type === "tr" && attr(el, "data-level") !== undefined);
    assert.deepEqual(rows.map((r) => attr(r, "data-level")), snap.view.scores.map((v) => String(Math.round(v))));
    const rounds = byClass(sheet, "amk-round-row");
    assert.equal(rounds.length, snap.log.filter((e) => e.kind === "round_end").length);
    for (const w of snap.view.winners) assert.match(text(rows[w]), /winner/);
    assert.doesNotMatch(text(sheet), /\b(seat|player) \d/i);
  }
});

test("every legal move has words for the moves list", () => everyMoveHasWords("amarok", amarok));
