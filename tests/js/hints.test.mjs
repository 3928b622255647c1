// Hints on the board (issue 28): every legal move a hint may name is marked on the table (the
// card, cell, space or button it concerns) with its rank and win chance, in every game, from
// the recorded snapshots; nothing is marked without hints, and a replay marks nothing.
import { test } from "node:test";
import assert from "node:assert/strict";

import * as alarun from "../../src/nemeton/games/alarun/web/renderer.js";
import * as amarok from "../../src/nemeton/games/amarok/web/renderer.js";
import * as edora from "../../src/nemeton/games/edora/web/renderer.js";
import { h, hintFor, withHint } from "../../src/nemeton/web/js/kit.js";
import { ctxFor, key, snapshots } from "./fixtures.mjs";
import { attr, children, elements, hasClass, text } from "./vnode.mjs";

const RENDERERS = { alarun, amarok, edora };
const marked = (ctx, renderer) => {
  const out = renderer.draw(ctx);
  return elements([out.board, out.bar]).filter((el) => attr(el, "data-hint") !== undefined);
};

/** Up to `n` legal actions of each decision in the fixtures, spread over its list. */
function decisions(game, n = 6) {
  return snapshots(game).filter(({ snap }) => snap.seat !== null && snap.legal_actions.length).map(({ play, snap }) => {
    const legal = snap.legal_actions;
    const step = Math.max(1, Math.floor(legal.length / n));
    return { play, snap, picks: legal.filter((_, i) => i % step === 0).slice(0, n) };
  });
}

/** A hinted thing carries its ring and its badge (rank first, then the win chance) as its own
 *  last children: kit.js's hintMarks in HTML, the renderer's hintRing/hintBadge on Edora's map. */
function assertDrawn(el) {
  const own = children(el).filter((c) => c && typeof c === "object");
  const ring = own.find((c) => hasClass(c, "hint-ring") || hasClass(c, "ed-hint-ring"));
  const badge = own.find((c) => hasClass(c, "hint-badge") || hasClass(c, "ed-hint"));
  assert.ok(ring, `${el.type}.${attr(el, "class")}: no ring`);
  assert.ok(badge, `${el.type}.${attr(el, "class")}: no badge`);
  assert.equal(attr(badge, "aria-hidden"), "true");  // the label says it already
  assert.match(text(badge), /^1(· 63%|( · 63%)?)$/);
}

for (const [game, renderer] of Object.entries(RENDERERS)) {
  test(`${game}: any legal move a hint names is marked on the table with its rank and win chance`, () => {
    let checked = 0;
    for (const { play, snap, picks } of decisions(game)) {
      for (const action of picks) {
        const ctx = { ...ctxFor(play, snap), hints: [{ action, text: "", win: 0.625, visits: 9, rank: 1 }] };
        const marks = marked(ctx, renderer);
        assert.ok(marks.length >= 1, `${game} move ${snap.moves} seat ${snap.seat}: ${key(action)} is not marked`);
        for (const el of marks) {
          assert.equal(attr(el, "data-hint"), "1 · 63%");
          assert.equal(attr(el, "data-hint-rank"), "1");
          assertDrawn(el);
        }
        checked += 1;
      }
    }
    assert.ok(checked > 10, `only ${checked} moves checked`);
  });

  test(`${game}: without hints nothing is marked, and a replay marks nothing`, () => {
    for (const { play, snap, picks } of decisions(game).slice(0, 20)) {
      assert.deepEqual(marked(ctxFor(play, snap), renderer), []);
      const hints = [{ action: picks[0], text: "", win: 0.5, visits: 1, rank: 1 }];
      assert.deepEqual(marked({ ...ctxFor(play, snap, [], "replay"), hints }, renderer), []);
    }
  });
}

test("the best-ranked hint among a thing's moves marks it, and its words join the label", () => {
  const a = { type: "pass" }, b = { type: "flip" }, c = { type: "swap_all" };
  const ctx = { hints: [{ action: b, win: 0.7, rank: 1 }, { action: a, win: 0.41, rank: 2 }] };
  assert.equal(hintFor(ctx, [a, c]).rank, 2);
  assert.equal(hintFor(ctx, [c, b, a]).rank, 1);
  assert.equal(hintFor(ctx, [c]), null);
  assert.equal(hintFor({}, [a]), null);
  const props = withHint({ "aria-label": "Pass", title: "Pass" }, hintFor(ctx, [a]));
  assert.equal(props["data-hint"], "2 · 41%");
  assert.equal(props["aria-label"], "Pass (hint 2: about 41% win chance)");
  assert.deepEqual(withHint({ title: "x" }, null), { title: "x" });
});

test("h draws a hinted HTML thing's ring and badge after its own children, never on SVG", () => {
  const hint = { action: { type: "pass" }, win: 0.41, rank: 2 };
  const button = h("button", withHint({ class: "legal" }, hint), "Pass");
  const [label, ring, badge] = children(button);
  assert.equal(label, "Pass");
  assert.ok(hasClass(ring, "hint-ring") && hasClass(badge, "hint-badge"));
  assert.equal(text(badge), "2· 41%");
  assert.deepEqual(children(h("button", { class: "legal" }, "Pass")), ["Pass"]);
  assert.deepEqual(children(h("g", withHint({ class: "legal" }, hint), "x")), ["x"]);
});
