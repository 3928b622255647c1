// The web kit (src/nemeton/web/js/kit.js): its pieces as the virtual nodes preact draws.
import { test } from "node:test";
import assert from "node:assert/strict";

import { h, linkRow, logEntry, logMarker, logRounds, parts, scoreTable, seatBadge } from "../../src/nemeton/web/js/kit.js";
import { attr, byClass, elements, text } from "./vnode.mjs";

const SEATS = [{ seat: 0, name: "Ann" }, { seat: 1, name: "Bob" }, { seat: 2, name: "Cleo" }];

test("h turns a dataset into data- attributes and drops empty children", () => {
  const node = h("div", { class: "x", dataset: { seat: 2, cardId: "r5", none: null } }, null, false, "", ["a", ["b"]], 0);
  assert.equal(node.props["data-seat"], "2");
  assert.equal(node.props["data-card-id"], "r5");
  assert.ok(!("data-none" in node.props) && !("dataset" in node.props));
  assert.deepEqual(node.props.children, ["a", "b", 0]);
});

test("a seat badge carries the seat's symbol, colour and whole name", () => {
  const badge = seatBadge(1, "Bob");
  assert.equal(attr(badge, "data-seat"), "1");
  assert.match(attr(badge, "style"), /--seat:#2d6cc2/);
  assert.equal(text(badge), "■ Bob");
  assert.equal(attr(badge, "title"), "Bob (blue ■)");
  assert.equal(text(seatBadge(0, "")), "●");
});

test("parts name seats by their badges; without parts the text is kept as it is", () => {
  const out = parts(["Take ", { seat: 2 }, " from ", { seat: 0 }], SEATS);
  assert.equal(text(out), "Take ▲ Cleo from ● Ann");
  assert.deepEqual(byClass(out, "seat-badge").map((b) => attr(b, "data-seat")), ["2", "0"]);
  assert.deepEqual(parts(null, SEATS, "seat 1 wins"), ["seat 1 wins"]);
  const you = parts([{ seat: 0 }, " win"], SEATS, "", { names: (s) => (s === 0 ? "you" : null), capital: true });
  assert.equal(text(you), "● You win");
});

test("a log entry marks the game's effects and does not repeat an actor its sentence names", () => {
  assert.equal(text(logMarker({ seat: null })), "◇ ");
  assert.equal(logMarker({ seat: 1, parts: [{ seat: 1 }, " takes"] }), null);
  assert.equal(text(logMarker({ seat: 1, parts: ["A card for ", { seat: 0 }] })), "■ ");
  const entry = logEntry({ i: 7, seat: 1, kind: "take", parts: [{ seat: 1 }, " takes r5"], text: "seat 1 takes r5" }, SEATS);
  assert.equal(entry.key, 7);
  assert.equal(attr(entry, "data-kind"), "take");
  assert.equal(text(entry), "■ Bob takes r5");
});

test("the log is grouped by round, setup first, each entry keyed by its index", () => {
  const log = [{ i: 0, round: 0, seat: null, kind: "deal", text: "dealt" },
    { i: 1, round: 1, seat: 0, kind: "take", parts: [{ seat: 0 }, " takes"] },
    { i: 2, round: 1, seat: 1, kind: "take", parts: [{ seat: 1 }, " takes"] }];
  const rounds = logRounds(log, SEATS);
  assert.deepEqual(rounds.map((r) => text(elements(r).find((e) => e.type === "h3"))), ["Setup", "Round 1"]);
  assert.deepEqual(elements(rounds[1]).filter((e) => e.type === "li").map((e) => e.key), [1, 2]);
});

test("a link row copies its own link", () => {
  const copied = [];
  const row = linkRow("http://x/rooms/r?token=t", { label: "invite link for Bob", buttonClass: "copy-invite", dataset: { seat: 1 },
    onCopy: (l) => copied.push(l) });
  const [input] = elements(row).filter((e) => e.type === "input");
  assert.equal(attr(input, "value"), "http://x/rooms/r?token=t");
  assert.equal(attr(input, "data-seat"), "1");
  const [button] = byClass(row, "copy-invite");
  attr(button, "onclick")();
  assert.deepEqual(copied, ["http://x/rooms/r?token=t"]);
});

test("the fallback score table has one row per seat, by name", () => {
  const table = scoreTable(SEATS, [3, 1, 2]);
  assert.deepEqual(elements(table).filter((e) => e.type === "tr").map(text), ["● Ann3", "■ Bob1", "▲ Cleo2"]);
});
