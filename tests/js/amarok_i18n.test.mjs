// Amarok's table in Italian and Spanish (games/amarok/web/renderer.js, ids amarok.web.* and the
// event log's terms): on every recorded snapshot, for each seat and the spectator, the board,
// the final sheet and the moves' words are drawn from the language's catalogue: no id left
// unrendered, no English word left (outside the players' names).
import { afterEach, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import * as amarok from "../../src/nemeton/games/amarok/web/renderer.js";
import { t, useCatalogue } from "../../src/nemeton/web/js/i18n.js";
import { ctxFor, snapshots } from "./fixtures.mjs";
import { elements, text } from "./vnode.mjs";

const CATALOGUES = new URL("../../src/nemeton/web/i18n/", import.meta.url);
const read = (lang) => JSON.parse(readFileSync(new URL(`${lang}.json`, CATALOGUES), "utf8")).messages;
const ALL = snapshots("amarok");

// English the table draws in English (words of amarok.web.* and of the card terms)
export const ENGLISH = [
  "Take", "Claw", "claw", "your", "you", "hand", "slot", "river", "deck", "the", "in front", "In front", "trapped",
  "winner", "wins", "win", "Nobody", "nobody", "Objective", "objective", "Wolf pack", "Lone wolf", "highest",
  "lowest", "card", "cards", "empty", "team", "Team", "mating", "heart", "season", "trap", "place", "new",
  "others", "owner", "Seat", "Ended by", "Winners", "Final levels", "Round by round", "to play", "claws",
  "Temperate", "held by", "At the bottom", "one heart", "red", "blue", "change of season", "wolf trap", "unseen",
  "Hand", "River", "Deck", "middle", "of", "from", "left", "put", "everyone", "wolf", "totals", "sees",
];

afterEach(() => useCatalogue("en"));

// Every text and every label or title a drawing holds (a seat's name stripped).
function words(node, names) {
  const out = [text(node)];
  for (const el of elements(node)) {
    for (const name of ["aria-label", "title"]) {
      const value = el.props && el.props[name];
      if (typeof value === "string") out.push(value);
    }
  }
  let all = out.join("\n");
  for (const n of names) all = all.split(n).join(" ");
  return all;
}

function englishLeft(all) {
  return ENGLISH.filter((w) => new RegExp(`(?<![\\p{L}])${w}(?![\\p{L}])`, "u").test(all));
}

for (const lang of ["it", "es"]) {
  test(`every word of the table, the sheet and the moves is ${lang === "it" ? "Italian" : "Spanish"}`, () => {
    useCatalogue(lang, read(lang));
    assert.equal(t("amarok.web.zone.river"), lang === "it" ? "Fiume" : "Río");
    let drawn = 0;
    for (const { play, snap } of ALL) {
      const names = snap.seats.map((s) => s.name);
      // every card moved so far counts as just moved, so its "new" tag is drawn too
      const ctx = { ...ctxFor(play, snap), fresh: snap.log };
      const { board, bar } = amarok.draw(ctx);
      const parts = [words(board, names), words(bar, names)];
      if (snap.terminal) parts.push(words(amarok.score({ ...ctxFor(play, snap), mode: "score" }), names));
      for (const a of ctx.legal) parts.push(amarok.label(a, ctx));
      const all = parts.join("\n");
      assert.doesNotMatch(all, /amarok\.[a-z_]+\./, `${play.label}, move ${snap.moves}: an id left unrendered`);
      assert.deepEqual(englishLeft(all), [], `${play.label}, move ${snap.moves}, seat ${snap.seat}:\n${all}`);
      drawn += 1;
    }
    assert.ok(drawn > 10);
  });
}

test("in English the table reads as before", () => {
  const { play, snap } = ALL.find(({ snap }) => snap.seat !== null && snap.legal_actions.length && !snap.terminal);
  const { board } = amarok.draw(ctxFor(play, snap));
  const all = words(board, []);
  assert.match(all, /your place/);
  assert.match(all, /Your (turn|claw): /);
  assert.match(all, /River/);
});
