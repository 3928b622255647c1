// The web client's messages (src/nemeton/web/js/i18n.js) rendered from the real catalogues
// (src/nemeton/web/i18n/<lang>.json, as scripts/catalogues.py compiles them): every kind of
// argument, plural forms, the English fallback, lists and numbers per language, parts with
// seats, and the log drawn from an entry's message in the reader's language.
import { afterEach, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import {
  fmtDate, fmtList, fmtNumber, fmtPercent, fmtRelative, has, language, msgParts, normalize, preferredLanguage, t, tMessage, tNodes, useCatalogue,
} from "../../src/nemeton/web/js/i18n.js";
import { logEntry, logMarker, logRounds } from "../../src/nemeton/web/js/kit.js";
import { joinWords, seatNameOf } from "../../src/nemeton/web/js/text.js";
import { elements, text } from "./vnode.mjs";

const CATALOGUES = new URL("../../src/nemeton/web/i18n/", import.meta.url);
const read = (lang) => JSON.parse(readFileSync(new URL(`${lang}.json`, CATALOGUES), "utf8"));
const use = (lang, drop = []) => {
  const messages = { ...read(lang).messages };
  for (const id of drop) delete messages[id];
  return useCatalogue(lang, messages);
};
const SEATS = [{ seat: 0, name: "Ann" }, { seat: 1, name: "Bob" }, { seat: 2, name: "Cleo" }];

afterEach(() => useCatalogue("en"));

test("English is there from the start, without loading anything", () => {
  assert.equal(language(), "en");
  assert.equal(t("nemeton.web.log.setup"), "Setup");
  assert.equal(t("nemeton.seat", { n: 2 }), "seat 2");
  assert.ok(has("nemeton.web.room.your_turn"));
});

test("every catalogue is the same set of ids, English's plural entries plural in each", () => {
  const en = read("en").messages;
  for (const lang of ["it", "es"]) {
    const other = read(lang);
    assert.equal(other.lang, lang);
    assert.deepEqual(Object.keys(other.messages).sort(), Object.keys(en).sort());
    for (const [id, value] of Object.entries(en)) {
      assert.equal(typeof other.messages[id], typeof value, `${lang}: ${id}`);
      if (typeof value === "object") assert.deepEqual(Object.keys(other.messages[id]).sort(), ["one", "other"], id);
    }
  }
});

test("placeholders take strings as they are, numbers as the language writes them", () => {
  assert.equal(t("nemeton.web.room.pass_to", { name: "Ann" }), "Pass to Ann");
  assert.equal(t("nemeton.web.room.pass_to", { name: "{count} <b>" }), "Pass to {count} <b>");  // never read again
  assert.equal(t("nemeton.web.room.pass_to"), "Pass to {name}");  // an argument missing: its placeholder stays
  assert.equal(t("nemeton.web.room.moves_count", { count: 1234.5 }), "Moves (1,234.5)");
  use("it");
  assert.equal(t("nemeton.web.room.pass_to", { name: "Ann" }), "Passa a Ann");
  assert.equal(t("nemeton.web.room.moves_count", { count: 1234.5 }), "Mosse (1234,5)");
  assert.equal(t("nemeton.web.room.moves_count", { count: 12345.5 }), "Mosse (12.345,5)");
  use("es");
  assert.equal(t("nemeton.web.room.moves_count", { count: 1234.5 }), "Jugadas (1234,5)");
  assert.equal(t("nemeton.web.replay.step_of", { step: 3, steps: 12345 }), "paso 3 de 12.345");
});

test("numbers, percentages and lists per language (as the server's Babel writes numbers)", () => {
  assert.equal(fmtNumber(1234), "1,234");
  assert.equal(fmtNumber(12.0), "12");
  assert.equal(fmtNumber(2 / 3), "0.667");
  assert.equal(fmtNumber(1.25, 1), "1.3");
  assert.equal(fmtPercent(0.63), "63%");
  assert.equal(fmtPercent(0.875, 1), "87.5%");
  assert.equal(fmtList(["a", "b", "c"]), "a, b and c");
  assert.equal(fmtList([]), "");
  use("it");
  assert.equal(fmtNumber(1234), "1234");  // grouped from five digits, as the server (CLDR's minimum grouping)
  assert.equal(fmtNumber(-12345), "-12.345");
  assert.equal(fmtNumber(0.5), "0,5");
  assert.equal(fmtNumber(1.25, 1), "1,3");
  assert.equal(fmtPercent(0.875, 1), "87,5%");
  assert.equal(fmtList(["a", "b", "c"]), "a, b e c");
  use("es");
  assert.equal(fmtNumber(1234), "1234");
  assert.equal(fmtNumber(12345.6789), "12.345,679");
  assert.match(fmtPercent(0.63), /^63\s%$/);
  assert.equal(fmtList(["a", "b", "c"]), "a, b y c");
  assert.equal(joinWords(["Ann", "", null, "Bob", "Cleo"]), "Ann, Bob y Cleo");
});

test("dates and times ago per language: relative in words, absolute in the language's order", () => {
  const now = Date.parse("2026-12-04T12:00:00Z");
  const ago = (seconds) => new Date(now - seconds * 1000).toISOString();
  const expected = {
    en: ["now", "5 minutes ago", "1 hour ago", "yesterday", "3 days ago"],
    it: ["ora", "5 minuti fa", "1 ora fa", "ieri", "3 giorni fa"],
    es: ["ahora", "hace 5 minutos", "hace 1 hora", "ayer", "hace 3 días"],
  };
  for (const [lang, words] of Object.entries(expected)) {
    use(lang);
    assert.deepEqual([10, 300, 3600, 86400, 3 * 86400].map((s) => fmtRelative(ago(s), now)), words, lang);
    assert.equal(fmtRelative("not a date", now), "");
  }
  const when = "2026-12-04T14:05:00";  // local time: the test does not depend on the zone
  use("en");
  assert.equal(fmtDate(when), "4 Dec 2026, 14:05");
  use("it");
  assert.equal(fmtDate(when), "4 dic 2026, 14:05");
  use("es");
  assert.equal(fmtDate(when), "4 dic 2026, 14:05");
  assert.equal(fmtDate("nonsense"), "");
});

test("plural forms are chosen by args.count (one/other), 'other' without a count", () => {
  assert.equal(t("nemeton.web.players_count", { count: 1 }), "1 player");
  assert.equal(t("nemeton.web.players_count", { count: 0 }), "0 players");
  assert.equal(t("nemeton.web.players_count", { count: 4 }), "4 players");
  assert.equal(t("nemeton.web.players_count", { count: 1.5 }), "1.5 players");
  assert.equal(t("nemeton.web.players_count"), "{count} players");
  use("it");
  assert.equal(t("nemeton.web.players_count", { count: 1 }), "1 giocatore");
  assert.equal(t("nemeton.web.room.starts_when_taken", { count: 2 }),
    "La partita inizia quando tutti i posti sono occupati: restano 2 posti liberi.");
  use("es");
  assert.equal(t("nemeton.web.lobby.waiting_for", { count: 1 }), "falta 1 jugador");
  assert.equal(t("nemeton.web.lobby.waiting_for", { count: 3 }), "faltan 3 jugadores");
  assert.equal(t("nemeton.web.players_count", { count: 1000000 }), "1.000.000 jugadores");  // CLDR's "many": the other form
  assert.equal(t("nemeton.web.analysis.progress", { done: 1, count: 1 }), "1 de 1 decisión");
});

test("a seat is a part ({seat: n}); in plain text the language's word, capital where a sentence starts", () => {
  const message = { id: "nemeton.web.room.your_turn_name", args: { name: { seat: 1 } } };
  assert.deepEqual(msgParts(message), [{ seat: 1 }, ", your turn"]);
  assert.equal(tMessage(message), "Seat 1, your turn");
  assert.equal(t("nemeton.web.room.pass_to", { name: { seat: 0 } }), "Pass to seat 0");
  assert.deepEqual(msgParts({ id: "nemeton.web.room.pass_to", args: { name: { seat: 0 } } }), ["Pass to ", { seat: 0 }]);
  use("it");
  assert.equal(tMessage(message), "Giocatore 1, tocca a te");
  assert.deepEqual(msgParts(message), [{ seat: 1 }, ", tocca a te"]);
  use("es");
  assert.equal(t("nemeton.web.room.pass_to", { name: { seat: 2 } }), "Pásalo a jugador 2");
});

test("a nested message is rendered in the same language; a list joins its items, seats among them", () => {
  const nested = { agent: { msg: { id: "nemeton.web.lobby.kind_ai" } } };
  assert.equal(t("nemeton.web.room.played_by", nested), "played by AI");
  const list = { seats: { list: [{ seat: 0 }, "Bob", { msg: { id: "nemeton.web.lobby.the_ai" } }] } };
  assert.deepEqual(msgParts({ id: "nemeton.web.room.waiting_for", args: list }), ["Waiting for ", { seat: 0 }, ", Bob and the AI"]);
  assert.equal(t("nemeton.web.room.waiting_for", list), "Waiting for seat 0, Bob and the AI");
  use("it");
  assert.equal(t("nemeton.web.room.played_by", nested), "giocato da IA");
  assert.deepEqual(msgParts({ id: "nemeton.web.room.waiting_for", args: list }), ["In attesa di ", { seat: 0 }, ", Bob e l'IA"]);
  use("es");
  assert.equal(t("nemeton.web.room.waiting_for", list), "Esperando a jugador 0, Bob y la IA");
  // a nested message's own count chooses its own form
  const counted = { name: { msg: { id: "nemeton.web.players_count", args: { count: 1 } } } };
  assert.equal(t("nemeton.web.room.pass_to", counted), "Pásalo a 1 jugador");
});

test("an id the language lacks is English; an id no catalogue has is the id (with its arguments)", () => {
  use("it", ["nemeton.web.lobby.none_yet", "nemeton.web.players_count"]);
  assert.equal(t("nemeton.web.lobby.none_yet"), "None yet.");
  assert.equal(t("nemeton.web.players_count", { count: 1 }), "1 player");
  assert.equal(t("nemeton.web.lobby.none_open").startsWith("Nessuna partita"), true);
  assert.equal(t("nemeton.web.no_such_id"), "nemeton.web.no_such_id");
  assert.equal(t("x.y", { n: 1234, who: { seat: 1 } }), "x.y (n=1234, who=giocatore 1)");
  assert.deepEqual(msgParts({ id: "x.y", args: { who: { seat: 1 } } }), ["x.y (who=", { seat: 1 }, ")"]);
  assert.equal(has("x.y"), false);
});

test("tNodes puts nodes (badges, buttons) where their placeholders are", () => {
  const badge = { type: "span", props: { children: "● Open seat" } };
  assert.deepEqual(tNodes("nemeton.web.room.take_seat", {}, { seat: badge }), ["Take ", badge]);
  use("it");
  assert.deepEqual(tNodes("nemeton.web.replay.to_act", {}, { seats: badge }), ["Di turno: ", badge]);
});

test("the preferred language: the stored choice, else the browser's first we have, else English", () => {
  const saved = Object.getOwnPropertyDescriptor(globalThis, "navigator");
  const storage = Object.getOwnPropertyDescriptor(globalThis, "localStorage");
  const set = (name, value) => Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });
  try {
    set("navigator", { languages: ["de-DE", "es-MX", "it"], language: "de-DE" });
    set("localStorage", { getItem: () => null });
    assert.equal(preferredLanguage(), "es");
    set("localStorage", { getItem: (k) => (k === "nemeton:lang" ? "it" : null) });
    assert.equal(preferredLanguage(), "it");
    set("localStorage", { getItem: () => { throw new Error("private mode"); } });
    set("navigator", { languages: [], language: "fr-FR" });
    assert.equal(preferredLanguage(), "en");
  } finally {
    if (saved) Object.defineProperty(globalThis, "navigator", saved); else delete globalThis.navigator;
    if (storage) Object.defineProperty(globalThis, "localStorage", storage); else delete globalThis.localStorage;
  }
  assert.equal(normalize("it_IT.UTF-8"), "it");
  assert.equal(normalize("ES"), "es");
  assert.equal(normalize("pt-BR"), null);
});

test("a log entry is drawn from its message in the reader's language, seats as badges", () => {
  const entry = { i: 3, seat: 1, kind: "turn", msg: { id: "nemeton.web.room.your_turn_name", args: { name: { seat: 1 } } },
                  parts: [{ seat: 1 }, " (English from the server)"], text: "Seat 1 (English from the server)" };
  assert.equal(text(logEntry(entry, SEATS)), "■ Bob, your turn");
  use("it");
  assert.equal(text(logEntry(entry, SEATS)), "■ Bob, tocca a te");
  assert.equal(logMarker(entry), null);  // the sentence starts with the actor's badge
  use("es");
  assert.equal(text(logEntry(entry, SEATS)), "■ Bob, te toca");
  // a message no catalogue knows (a newer server): the server's parts, then its text
  const unknown = { ...entry, msg: { id: "nemeton.web.future" } };
  assert.equal(text(logEntry(unknown, SEATS)), "■ Bob (English from the server)");
  assert.equal(text(logEntry({ i: 4, seat: null, kind: "x", text: "plain" }, SEATS)), "◇ plain");
  const rounds = logRounds([{ i: 0, round: 0, seat: null, kind: "deal", text: "dealt" }, { ...entry, round: 2 }], SEATS);
  assert.deepEqual(rounds.map((r) => text(elements(r).find((e) => e.type === "h3"))), ["Preparación", "Ronda 2"]);
  assert.equal(seatNameOf([], 3), "Jugador 4");
});
