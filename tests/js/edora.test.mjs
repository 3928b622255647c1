// Edora's renderer (games/edora/web/renderer.js) on recorded snapshots: what it draws for each
// seat and the spectator, read from its virtual nodes; moves made by clicking the things they
// concern (one to three clicks), as a person does.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import * as edora from "../../src/nemeton/games/edora/web/renderer.js";
import { useCatalogue } from "../../src/nemeton/web/js/i18n.js";
import { seatColour } from "../../src/nemeton/web/js/text.js";
import { ctxFor, finalSheets, key, snapshots } from "./fixtures.mjs";
import { BY_NUMBER, everyMoveHasWords, replayActsNothing, words } from "./shared.mjs";
import { attr, byClass, elements, hasClass, text } from "./vnode.mjs";

const ALL = snapshots("edora");
const drawn = (ctx) => { const out = edora.draw(ctx); return { ...out, all: [out.board, out.bar] }; };
const press = (el) => attr(el, "onclick")({ preventDefault() {}, stopPropagation() {} });
const dataOf = (node, name) => elements(node).map((e) => attr(e, `data-${name}`)).filter((v) => v !== undefined);
const boardOf = (board, seat) => byClass(board, "ed-board").find((b) => attr(b, "data-seat") === String(seat));
const values = (node, cls) => byClass(node, cls).map((d) => Number(text(d)));
const uniq = (xs) => [...new Set(xs)].sort();

test("the fixtures hold seats' and the spectator's views, decisions of every click count and a finished game", () => {
  assert.ok(ALL.some(({ snap }) => snap.seat === null) && ALL.some(({ snap }) => snap.terminal));
  const kinds = new Set(ALL.flatMap(({ snap }) => snap.legal_actions.map((a) => a.type)));
  for (const kind of ["start", "move", "place", "take_tablet", "brew", "gem", "emergency"]) assert.ok(kinds.has(kind), kind);
});

test("the map draws every sanctuary, every die where it lies, the druids and the fire pits as the view says", () => {
  for (const { play, snap } of ALL) {
    const v = snap.view;
    const { board } = drawn(ctxFor(play, snap));
    const where = `move ${snap.moves}, seen by ${snap.seat}`;
    const map = byClass(board, "ed-map")[0];
    assert.deepEqual(uniq(dataOf(map, "sanctuary")), uniq(Object.keys(play.components.board.sanctuaries)), where);
    const dice = v.sanctuaries.flatMap((s) => s.dice.map((d, i) => (d ? `${s.id}#${i + 1}=${d[0]}:${d[1]}` : null)).filter(Boolean));
    // a die is drawn: its value and its owner's symbol (in the owner's colour) on its space
    const shown = byClass(map, "ed-space").filter((g) => byClass(g, "ed-die").length).map((g) => {
      const owner = Number(attr(g, "data-die").split(":")[0]);
      assert.equal(text(byClass(g, "ed-die-owner")[0]), seatColour(owner).symbol);
      assert.match(attr(byClass(g, "ed-die")[0], "style"), new RegExp(seatColour(owner).css.replace(/[()]/g, "\\$&")));
      return `${attr(g, "data-space")}=${owner}:${text(byClass(g, "ed-die-value")[0])}`;
    });
    assert.deepEqual(shown.sort(), dice.sort(), where);
    const druids = byClass(map, "ed-sanctuary").flatMap((g) => byClass(g, "ed-druid").map((d) => `${attr(g, "data-sanctuary")}:${attr(d, "data-seat")}`));
    assert.deepEqual(druids.sort(), v.boards.map((b, p) => (b.figure ? `${b.figure}:${p}` : null)).filter(Boolean).sort());
    const pits = byClass(map, "ed-pit").map((g) => `${attr(g, "data-pit")}:${attr(g, "data-owner")}`);
    assert.deepEqual(pits.sort(), Object.entries(v.fire_pits).map(([id, o]) => `${id}:${o}`).sort());
  }
});

test("the supply and every board show the view's tablets, potions, gems and dice; hidden ones as backs", () => {
  for (const { play, snap } of ALL) {
    const v = snap.view;
    const { board } = drawn(ctxFor(play, snap));
    const oracle = byClass(board, "ed-oracle")[0];
    assert.deepEqual(byClass(oracle, "ed-side").flatMap((s) => byClass(s, "card").map((c) => attr(c, "data-card") ?? null)), v.oracle_slots);
    assert.equal(text(byClass(byClass(oracle, "ed-deck")[0], "back")[0]), String(v.deck_size));
    assert.deepEqual(dataOf(byClass(board, "ed-potions")[0], "card"), v.potions_left);
    const gems = byClass(board, "ed-gem").map((g) => [attr(g, "data-facet").split(":")[1], text(byClass(g, "ed-count")[0])]);
    assert.deepEqual(Object.fromEntries(gems), Object.fromEntries(Object.entries(v.gems_left).map(([g, n]) => [g, `×${n}`])));
    v.boards.forEach((b, p) => {
      const mine = boardOf(board, p);
      assert.ok(mine, `seat ${p}'s board`);
      assert.equal(hasClass(mine, "own"), p === snap.seat);
      assert.deepEqual(values(mine, "reserve"), b.reserve);
      assert.deepEqual(values(mine, "overview"), b.overview);
      assert.deepEqual(dataOf(byClass(mine, "ed-tablets")[0], "card"), b.tablets);
      assert.deepEqual(dataOf(byClass(mine, "ed-owned-potions")[0], "card"), b.potions);
      const herbs = byClass(mine, "herb").filter((c) => !hasClass(c, "tray"));
      assert.deepEqual(herbs.filter((c) => hasClass(c, "back")).length, b.herbs.filter((x) => x === null).length);
      const known = b.herbs.filter((x) => x !== null);
      assert.deepEqual(uniq(herbs.map((c) => attr(c, "data-card")).filter(Boolean)), uniq(known.filter((x) => b.herb_state[x] !== "released")));
      const draft = byClass(mine, "ed-draft");
      if (p === snap.seat && v.draft_hand) assert.deepEqual(dataOf(draft[0], "card"), v.draft_hand);
      else if (draft.length) assert.equal(dataOf(draft[0], "card").length, 0, "another's draft hand is backs");
    });
    if (snap.seat === null) assert.equal(byClass(board, "own").length, 0, "the spectator has no board of their own");
  }
});

/** Every move reachable by clicking highlighted things (the board and the bar): a click acts, or
 *  selects a thing and highlights what may follow (then clicked in turn, up to three deep);
 *  the bar's Cancel undoes a selection. Returns [{action, clicked: [facet or action]}]. */
function movesByClicks(play, snap) {
  const acted = [];
  const ctx = ctxFor(play, snap, acted);
  const cancel = () => { const c = byClass(drawn(ctx).bar, "ed-cancel")[0]; if (c) press(c); };
  const legalNow = () => byClass(drawn(ctx).all, "legal");
  const what = (el) => attr(el, "data-facet") ?? attr(el, "data-action");
  const reached = [];
  const explore = (path) => {
    const count = legalNow().length;
    assert.ok(count > 0, `the clicks ${path} leave something to click`);
    for (let i = 0; i < count; i++) {
      cancel();
      const clicked = [];
      for (const j of [...path, i]) {  // the same clicks again, then this one
        const el = legalNow()[j];
        clicked.push(what(el));
        press(el);
      }
      if (acted.length) { reached.push({ action: acted.pop(), clicked }); continue; }
      const sel = byClass(drawn(ctx).board, "selected");
      assert.ok(sel.length > 0 && sel.length <= path.length + 1, `${clicked} selected ${sel.length} things`);
      assert.ok(path.length < 2, `three clicks make a move: ${clicked}`);
      explore([...path, i]);
    }
    cancel();
  };
  explore([]);
  assert.equal(byClass(drawn(ctx).board, "selected").length, 0, "Cancel leaves nothing selected");
  return reached;
}

test("exactly the legal moves are highlighted and reached by clicks on what they concern; the spectator gets none", () => {
  let checked = 0;
  for (const { play, snap } of ALL) {
    const { all } = drawn(ctxFor(play, snap));
    if (snap.seat === null || snap.terminal || !snap.legal_actions.length) {
      assert.equal(byClass(all, "legal").length, 0, `move ${snap.moves}, seen by ${snap.seat}`);
      assert.ok(elements(all).every((el) => !attr(el, "onclick")));
      continue;
    }
    const reached = movesByClicks(play, snap);
    const where = `move ${snap.moves}, seat ${snap.seat}`;
    assert.deepEqual(uniq(reached.map((r) => key(r.action))), uniq(snap.legal_actions.map(key)), where);
    for (const { action, clicked } of reached) {  // each click names a thing of its move
      for (const c of clicked) {
        if (c.startsWith("{")) { assert.equal(c, key(action)); continue; }
        const said = Object.values(action).map(String);
        for (const bit of c.slice(c.indexOf(":") + 1).split("#")) assert.ok(said.includes(bit), `${c} for ${key(action)}`);
      }
    }
    checked += reached.length;
  }
  assert.ok(checked > 30);
});

test("a replay highlights nothing and acts nothing", () => replayActsNothing("edora", edora));

test("seats are named by their names, never by their number, and the news is told from its parts", () => {
  for (const { play, snap } of ALL) {
    // what just happened: the last entries, as the page passes the others' moves
    const ctx = { ...ctxFor(play, snap), fresh: snap.log.filter((e) => e.seat !== snap.seat).slice(-4) };
    const { board } = drawn(ctx);
    for (const s of snap.seats) {
      const badge = byClass(byClass(boardOf(board, s.seat), "ed-board-head")[0], "seat-badge")[0];
      assert.match(text(badge), new RegExp(s.name));
    }
    const news = byClass(board, "ed-news");
    if (ctx.fresh.some((e) => e.parts.some((x) => typeof x === "object"))) {
      const named = byClass(news[0], "seat-badge").map((b) => text(b).trim());
      assert.ok(named.length > 0);
      for (const n of named) assert.ok(snap.seats.some((s) => n.endsWith(s.name)) || /^. ?(you|You)$/.test(n), n);
    }
    assert.doesNotMatch(words(board), BY_NUMBER);
  }
});

test("the final sheet has every seat's figures of every scoring step, the winner by name", () => {
  for (const { snap, mode, sheet } of finalSheets("edora", edora)) {
    const v = snap.view;
    for (const step of ["prestige", "leftovers", "sickle", "tablets", "amulet", "sanctuaries", "total"]) {
      const cells = elements(sheet).filter((el) => el.type === "td" && attr(el, "data-step") === step);
      assert.deepEqual(cells.map((c) => attr(c, "data-seat")), v.final.map((_, p) => String(p)), step);
      assert.deepEqual(cells.map((c) => Number(text(byClass(c, "pts")[0]))), v.final.map((f) => f[step]), step);
    }
    const won = snap.log.find((e) => e.kind === "game_won");
    const heads = elements(sheet).filter((el) => el.type === "th" && attr(el, "scope") === "col").slice(1);
    assert.deepEqual(heads.map((th) => hasClass(th, "winner")), v.final.map((_, p) => won.winners.includes(p)));
    heads.forEach((th, p) => assert.match(text(th), new RegExp(snap.seats[p].name)));
    assert.equal(byClass(sheet, "ed-winner").length, mode === "score" ? 0 : 1, "the score screen names the winner once, above");
    assert.doesNotMatch(words(sheet), BY_NUMBER);
  }
});

test("every legal move has words for the moves list", () => everyMoveHasWords("edora", edora));

// ----- the table in the reader's language -------------------------------------------------------

const CATALOGUES = new URL("../../src/nemeton/web/i18n/", import.meta.url);
const catalogueOf = (lang) => JSON.parse(readFileSync(new URL(`${lang}.json`, CATALOGUES), "utf8")).messages;
const formsOf = (entry) => (entry && typeof entry === "object" ? Object.values(entry) : [String(entry ?? "")]);

/** The English pieces of Edora's messages (the text between placeholders, with a word of four
 *  letters or more) that `lang`'s own text of the same message does not have: none may be
 *  drawn in that language. */
function englishPieces(lang) {
  const en = catalogueOf("en");
  const other = catalogueOf(lang);
  const pieces = new Set();
  for (const [id, entry] of Object.entries(en)) {
    if (!id.startsWith("edora.") || id.startsWith("edora.event.")) continue;
    const theirs = formsOf(other[id]).join("\n");
    for (const form of formsOf(entry)) {
      for (const piece of form.split(/\{[A-Za-z_]+\}/)) {
        const p = piece.trim().replace(/^[,:;.()·\s]+|[,:;.()·\s]+$/g, "");
        if (/[A-Za-z]{4,}/.test(p) && !theirs.includes(p)) pieces.add(p);
      }
    }
  }
  return [...pieces];
}

/** Everything a person reads of a snapshot's table, its score sheet and its moves' labels. */
function everything(play, snap) {
  const ctx = { ...ctxFor(play, snap), fresh: snap.log.filter((e) => e.seat !== snap.seat).slice(-4) };
  const { board, bar } = drawn(ctx);
  const out = [words([board, bar]), ...snap.legal_actions.map((a) => edora.label(a, ctx))];
  if (snap.terminal) out.push(words(edora.score({ ...ctx, mode: "replay" })));
  return out.join("\n");
}

test("in Italian and Spanish the table, the moves and the score sheet draw no English; no id is missing", () => {
  try {
    for (const lang of ["en", "it", "es"]) {
      useCatalogue(lang, catalogueOf(lang));
      const english = lang === "en" ? [] : englishPieces(lang);
      assert.ok(lang === "en" || english.length > 150, `${english.length} English pieces`);
      for (const { play, snap } of ALL) {
        const all = everything(play, snap);
        assert.doesNotMatch(all, /\bedora\.[a-z_]+\./, `${lang}: a message id drawn as it is`);
        const left = english.filter((p) => new RegExp(`(?<![A-Za-zÀ-ÿ])${p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![A-Za-zÀ-ÿ])`).test(all));
        assert.deepEqual(left, [], `${lang}, move ${snap.moves}, seat ${snap.seat}`);
      }
    }
  } finally {
    useCatalogue("en");
  }
});

test("every message id the renderer names is in the English, Italian and Spanish catalogues", () => {
  const source = readFileSync(new URL("../../src/nemeton/games/edora/web/renderer.js", import.meta.url), "utf8");
  const named = new Set([...source.matchAll(/["`](edora\.[A-Za-z0-9_.]+)/g)].map((m) => m[1].replace(/\.$/, "")));
  assert.ok(named.size > 150, `${named.size} ids`);
  for (const lang of ["en", "it", "es"]) {
    const ids = Object.keys(catalogueOf(lang));
    // an id, or the prefix of a family of terms (edora.herb_short.H_FOOD...) the renderer completes with a code
    const missing = [...named].filter((id) => !ids.includes(id) && !ids.some((k) => k.startsWith(`${id}.`)));
    assert.deepEqual(missing, [], lang);
  }
});
