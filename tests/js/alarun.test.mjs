// Alarún's renderer (games/alarun/web/renderer.js) on recorded snapshots: what it draws for
// each seat and the spectator, read from its virtual nodes; moves made by clicking them.
import { test } from "node:test";
import assert from "node:assert/strict";

import * as alarun from "../../src/nemeton/games/alarun/web/renderer.js";
import { ctxFor, finalSheets, key, snapshots } from "./fixtures.mjs";
import { BY_NUMBER, everyMoveHasWords, replayActsNothing, words } from "./shared.mjs";
import { attr, byClass, elements, hasClass, text } from "./vnode.mjs";

const ALL = snapshots("alarun");
const drawn = (ctx) => { const out = alarun.draw(ctx); return { ...out, all: [out.board, out.bar] }; };
const cards = (node) => byClass(node, "card").filter((c) => !hasClass(c, "back")).map((c) => attr(c, "data-card"));
const panelOf = (board, seat) => byClass(board, "al-seat-panel").find((p) => attr(p, "data-seat") === String(seat));
const cellsOf = (square) => elements(square).filter((c) => attr(c, "data-card") !== undefined)
  .map((c) => `${attr(c, "data-x")},${attr(c, "data-y")},${attr(c, "data-card")}`).sort();
const squareCells = (cells) => cells.map(([x, y, c]) => `${x},${y},${c}`);
const click = (el) => attr(el, "onclick")({ preventDefault() {} });
const byKey = (all, k) => elements(all).find((el) => attr(el, "data-key") === k);
/** What a clicked element stands for: its card, its cell or its button. */
const what = (el) => attr(el, "data-card") ?? (attr(el, "data-x") !== undefined ? `${attr(el, "data-x")},${attr(el, "data-y")}` : attr(el, "data-key"));
const concerns = (a) => ({ swap: [a.give, a.take], place: [a.card, `${a.x},${a.y}`] }[a.type] || [`act-${a.type}`]);

test("the fixtures hold seats' and the spectator's views in both phases and a finished game", () => {
  assert.ok(ALL.some(({ snap }) => snap.seat === null) && ALL.some(({ snap }) => snap.terminal));
  for (const phase of ["actions", "placement"]) {
    assert.ok(ALL.some(({ snap }) => snap.view.phase === phase && snap.legal_actions.length), phase);
  }
});

test("every card the view shows is drawn where it lies: hands, centre, squares, discard; the rest as backs", () => {
  for (const { play, snap } of ALL) {
    const v = snap.view;
    const { board } = drawn(ctxFor(play, snap));
    const where = `move ${snap.moves}, seen by ${snap.seat}`;
    assert.deepEqual(cards(byClass(board, "al-centre-cards")[0]), v.centre.map(String), where);
    assert.deepEqual(cards(byClass(board, "al-discard")[0]), v.discard.map(String), where);
    assert.equal(byClass(board, "al-face-down").reduce((n, d) => n + byClass(d, "back").length, 0), v.face_down || 0);
    const own = snap.seat !== null && Array.isArray(v.hand);
    if (own) {
      assert.deepEqual(cards(byClass(board, "al-hand")[0]), v.hand.map(String), where);
      assert.equal(attr(byClass(board, "al-colour-card")[0], "data-card"), v.secret_colour);
      const square = byClass(byClass(board, "al-square-box")[0], "al-square")[0];
      assert.deepEqual(cellsOf(square), [...v.squares[snap.seat].map(([x, y, c]) => `${x},${y},${c}`), "0,0,druid"].sort());
      assert.deepEqual(byClass(square, "al-pending").map((c) => [Number(attr(c, "data-x")), Number(attr(c, "data-y"))]).sort(),
        (v.my_placements || []).map(([x, y]) => [x, y]).sort());
    } else {
      assert.equal(byClass(board, "al-hand").length, 0, "the spectator has no hand");
      assert.equal(byClass(board, "al-colour-card").length, 0, "nor a secret colour");
    }
    for (let s = 0; s < v.players; s++) {
      if (own && s === snap.seat) continue;
      const panel = panelOf(board, s);
      assert.ok(panel, `seat ${s}'s panel, ${where}`);
      assert.deepEqual(cellsOf(byClass(panel, "al-square")[0]),
        [...squareCells(v.squares[s]), "0,0,druid"].sort(), `seat ${s}'s square, ${where}`);
      const hand = byClass(panel, "al-their-hand")[0];
      const known = v.phase === "actions" ? v.known_hands[s] : [];
      assert.deepEqual(cards(hand), known.map(String));
      assert.equal(byClass(hand, "card").length, v.hand_sizes[s]);
      const pending = byClass(panel, "al-pending-backs");
      assert.equal(pending.length ? byClass(pending[0], "back").length : 0, v.phase === "placement" ? v.placed_this_round[s] : 0);
    }
    assert.equal(elements(board).filter((e) => hasClass(e, "back") && attr(e, "data-card") !== undefined).length, 0,
      "a back never carries its card");
  }
});

/** The moves reachable by clicking highlighted elements: a first click acts or selects; after a
 *  selection the highlighted elements each act a move with it; a second click on the
 *  selection cancels it. */
function movesByClicks(play, snap) {
  const acted = [];
  const ctx = ctxFor(play, snap, acted);
  const reached = [];
  const first = byClass(drawn(ctx).all, "legal").map((el) => attr(el, "data-key"));
  for (const k of first) {
    const one = what(byKey(drawn(ctx).all, k));
    click(byKey(drawn(ctx).all, k));
    if (acted.length) { reached.push({ clicked: [one], action: acted.pop() }); continue; }
    const chosen = drawn(ctx);
    assert.deepEqual(byClass(chosen.all, "selected").map((el) => attr(el, "data-key")), [k], "the click selected its element");
    // the bar's buttons (pass, flip) stay as they were; on the table, the ways to finish the move
    assert.deepEqual(byClass(chosen.bar, "legal").map((el) => attr(el, "data-key")), byClass(drawn(ctxFor(play, snap)).bar, "legal").map((el) => attr(el, "data-key")));
    const second = byClass(chosen.board, "legal").map((el) => attr(el, "data-key"));
    assert.ok(second.length > 1, "a selection leaves several ways to finish the move");
    for (const k2 of second) {
      if (!byClass(drawn(ctx).all, "selected").length) click(byKey(drawn(ctx).all, k));
      const two = what(byKey(drawn(ctx).all, k2));
      click(byKey(drawn(ctx).all, k2));
      assert.equal(acted.length, 1, `${k} then ${k2} makes a move`);
      reached.push({ clicked: [one, two], action: acted.pop() });
    }
    click(byKey(drawn(ctx).all, k));  // select it again, then cancel
    click(byKey(drawn(ctx).all, k));
    assert.equal(byClass(drawn(ctx).all, "selected").length, 0, "a second click on the selection cancels it");
    assert.equal(acted.length, 0);
  }
  return reached;
}

test("exactly the legal moves are highlighted and reached by clicks; the spectator and the finished game get none", () => {
  let checked = 0;
  for (const { play, snap } of ALL) {
    const { board, all } = drawn(ctxFor(play, snap));
    if (snap.seat === null || snap.terminal || !snap.legal_actions.length) {
      assert.equal(byClass(all, "legal").length, 0, `move ${snap.moves}, seen by ${snap.seat}`);
      assert.equal(byClass(all, "selected").length, 0);
      continue;
    }
    const legal = snap.legal_actions;
    // the first clicks: the hand cards, centre cards and cells some legal move uses
    const dataCards = (cls) => byClass(byClass(board, cls)[0] || [], "legal").map((el) => attr(el, "data-card")).sort();
    const uniq = (xs) => [...new Set(xs)].sort();
    assert.deepEqual(uniq(dataCards("al-hand")), uniq(legal.map((a) => a.give ?? a.card).filter(Boolean)));
    assert.deepEqual(dataCards("al-centre-cards"), uniq(legal.filter((a) => a.type === "swap").map((a) => a.take)));
    const cellKeys = byClass(board, "al-slot legal").map((el) => `${attr(el, "data-x")},${attr(el, "data-y")}`).sort();
    assert.deepEqual(cellKeys, uniq(legal.filter((a) => a.type === "place").map((a) => `${a.x},${a.y}`)));
    const reached = movesByClicks(play, snap);
    assert.deepEqual(uniq(reached.map((r) => key(r.action))), uniq(legal.map(key)), `move ${snap.moves}, seat ${snap.seat}`);
    for (const r of reached) {  // each move is made by clicking what it concerns
      for (const c of r.clicked) assert.ok(concerns(r.action).includes(c), JSON.stringify(r));
    }
    checked += reached.length;
  }
  assert.ok(checked > 0);
});

test("a replay highlights nothing and acts nothing", () => replayActsNothing("alarun", alarun));

test("seats are named by their names, never by their number", () => {
  for (const { play, snap } of ALL) {
    const { board } = drawn(ctxFor(play, snap));
    for (const s of snap.seats) {
      if (s.seat === snap.seat) continue;
      const badge = byClass(panelOf(board, s.seat), "seat-badge")[0];
      assert.match(text(badge), new RegExp(s.name));
      assert.equal(attr(panelOf(board, s.seat), "aria-label"), `${s.name}'s table`);
    }
    assert.doesNotMatch(words(board), BY_NUMBER);
  }
});

test("the final sheet shows every seat with the view's figures, its square and lines, the winner by name", () => {
  for (const { snap, mode, sheet } of finalSheets("alarun", alarun)) {
    const v = snap.view;
    const rows = byClass(sheet, "al-summary")[0];
    const summary = elements(rows).filter((el) => el.type === "tr" && attr(el, "data-seat") !== undefined);
    assert.deepEqual(summary.map((r) => attr(r, "data-seat")).sort(), v.scores.map((_, s) => String(s)));
    for (const r of summary) {
      const s = Number(attr(r, "data-seat"));
      assert.equal(text(byClass(r, "al-total-value")[0]), String(v.scores[s]));
      assert.match(text(r), new RegExp(snap.seats[s].name));
      assert.equal(hasClass(r, "al-winner"), v.winners.includes(s));
    }
    for (let s = 0; s < v.players; s++) {
      const b = v.breakdowns[s];
      const one = byClass(sheet, "al-sheet").find((e) => attr(e, "data-seat") === String(s));
      const figure = (cls) => Number(text(byClass(one, cls)[0]));
      assert.deepEqual([figure("al-potions-value"), figure("al-centum-value"), figure("al-colour-bonus-value"), figure("al-total-value")],
        [b.potions, b.centum_auri, b.colour_bonus, b.total]);
      const lines = elements(one).filter((el) => el.type === "tr" && attr(el, "data-line"));
      assert.deepEqual(lines.map((r) => Number(text(byClass(r, "al-num")[0]))), [...b.rows, ...b.columns]);
      assert.deepEqual(cellsOf(byClass(one, "al-square")[0]), [...squareCells(v.squares[s]), `0,0,${b.druid}`].sort());
    }
    const headline = byClass(sheet, "al-headline");
    if (mode === "score") assert.equal(headline.length, 0, "the score screen names the winner once, above the sheet");
    else for (const w of v.winners) assert.match(text(headline[0]), w === snap.seat ? /^You win/ : new RegExp(snap.seats[w].name));
    assert.doesNotMatch(words(sheet), BY_NUMBER);
  }
});

test("every legal move has words for the moves list", () => everyMoveHasWords("alarun", alarun));

// ----- the table in Italian and Spanish --------------------------------------------------------
// English the table draws (text, labels and titles): none of it may be left in Italian or
// Spanish (the words those languages write alike are left out per language).
const TABLE_ENGLISH = ["Your", "hand", "secret colour", "Secret colour", "centre", "stack", "Discard pile", "Empty.",
  "Key to the cards", "square", "potions", "points", "winner", "Swap", "Pass", "Flip", "Place", "Choose", "Give",
  "Take", "Waiting", "placed", "passed", "swapped", "flipped", "Round", "druid", "face down", "face-down", "selected",
  "total", "colour bonus", "player", "row", "column", "line", "potion", "in the square", "left", "above", "below",
  "right of", "ingredients", "different", "neighbours", "appointed", "wins", "share", "cards", " of ", "to act",
  "placing", "taken", "hidden", "Moon berries", "Dragon eggs", "Phoenix feathers", "Mandrake", "Myrrh", "blue",
  "green", "orange", "pink", "red", "white", "yellow", "drop", "leaf", "flame", "heart", "diamond", "star", "sun"];
const ALIKE = { it: ["Round"], es: ["total"] };
const CATALOGUES = new URL("../../src/nemeton/web/i18n/", import.meta.url);

/** The English words of TABLE_ENGLISH in `said` (whole words, case as written). */
export function englishLeft(said, lang) {
  return TABLE_ENGLISH.filter((w) => !ALIKE[lang].includes(w))
    .filter((w) => new RegExp(`(?<![A-Za-zÀ-ÿ])${w.trim()}(?![A-Za-zÀ-ÿ])`).test(said) && (w.trim() === w || said.includes(w)));
}

for (const lang of ["it", "es"]) {
  test(`in ${lang === "it" ? "Italian" : "Spanish"} the table, the moves and the score sheets keep no English`, async () => {
    const { readFileSync } = await import("node:fs");
    const { useCatalogue } = await import("../../src/nemeton/web/js/i18n.js");
    useCatalogue(lang, JSON.parse(readFileSync(new URL(`${lang}.json`, CATALOGUES), "utf8")).messages);
    try {
      let checked = 0;
      for (const { play, snap } of ALL) {
        const names = snap.seats.map((s) => s.name);
        const strip = (s) => names.reduce((acc, n) => acc.split(n).join(" "), s);
        const ctx = { ...ctxFor(play, snap), fresh: (snap.log || []).slice(-8) };
        const drawnNow = drawn(ctx);
        const said = strip([words(drawnNow.board), words(drawnNow.bar || []),
          ...snap.legal_actions.map((a) => alarun.label(a, ctx))].join(" "));
        assert.deepEqual(englishLeft(said, lang), [], said);
        assert.doesNotMatch(said, /alarun\.|\{[a-z_]+\}/);
        checked += 1;
      }
      for (const { snap, sheet } of finalSheets("alarun", alarun)) {
        const names = snap.seats.map((s) => s.name);
        const said = names.reduce((acc, n) => acc.split(n).join(" "), words(sheet));
        assert.deepEqual(englishLeft(said, lang), [], said);
        checked += 1;
      }
      assert.ok(checked > 10);
    } finally {
      useCatalogue("en");
    }
  });
}
