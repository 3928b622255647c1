// Unit tests of the web client's pure helpers (src/nemeton/web/js/text.js), with Node's own
// runner: `node --test tests/js/` (tests/test_js.py runs it under pytest).
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  joinWords, partsText, partsToSegments, seatColour, seatNameOf, segmentsText, shortName, SEAT_COLOURS,
} from "../../src/nemeton/web/js/text.js";

const SEATS = [
  { seat: 0, name: "Ann", kind: "human" },
  { seat: 1, name: "Bob", kind: "ai" },
  { seat: 2, name: "Cleo", kind: "human" },
];

test("a seat reference becomes a seat segment with its name, colour and symbol", () => {
  const segs = partsToSegments([{ seat: 1 }, " takes the deck"], SEATS);
  assert.deepEqual(segs, [
    { seat: 1, name: "Bob", colour: SEAT_COLOURS[1].css, symbol: SEAT_COLOURS[1].symbol },
    { text: " takes the deck" },
  ]);
});

test("words around several seats keep their order, adjacent words merge", () => {
  const segs = partsToSegments(["The team of ", { seat: 0 }, " and ", { seat: 2 }, " wins", "."], SEATS);
  assert.equal(segs.length, 5);
  assert.deepEqual(segs.map((s) => ("seat" in s ? `<${s.seat}>` : s.text)), ["The team of ", "<0>", " and ", "<2>", " wins."]);
  assert.equal(segmentsText(segs), "The team of Ann and Cleo wins.");
});

test("seat 0 is a seat (0 is not falsy here) and the index is never shown", () => {
  const text = partsText([{ seat: 0 }, " passes"], SEATS);
  assert.equal(text, "Ann passes");
  assert.doesNotMatch(text, /\b0\b/);
});

test("a seat the list does not name is 'Player N' counted from 1, not the engine's index", () => {
  assert.equal(partsText([{ seat: 3 }, " wins"], SEATS), "Player 4 wins");
  assert.equal(partsText([{ seat: 1 }], []), "Player 2");
  assert.equal(partsText([{ seat: 1 }], undefined), "Player 2");
  assert.equal(seatNameOf([{ seat: 0, name: "  " }], 0), "Player 1");
});

test("seats are found by their seat number, not their place in the list", () => {
  const shuffled = [SEATS[2], SEATS[0], SEATS[1]];
  assert.equal(partsText([{ seat: 2 }, " / ", { seat: 0 }], shuffled), "Cleo / Ann");
});

test("the colour and symbol are the seat's own and wrap round after six seats", () => {
  const [seg] = partsToSegments([{ seat: 7 }], []);
  assert.equal(seg.colour, seatColour(1).css);
  assert.equal(seg.symbol, "■");
  assert.equal(seatColour(-1).name, "teal");
});

test("missing or odd parts: nothing dropped silently, nothing thrown", () => {
  assert.deepEqual(partsToSegments(undefined, SEATS), []);
  assert.deepEqual(partsToSegments(null, SEATS), []);
  assert.deepEqual(partsToSegments(["a", null, "", 3, { text: "b" }], SEATS), [{ text: "a3b" }]);
  // {seat: "1"} is not a seat reference (engine seats are integers): shown as text, not guessed
  assert.equal(partsToSegments([{ seat: "1" }], SEATS)[0].text, "[object Object]");
});

test("partsText falls back to the text as it is when there are no parts", () => {
  assert.equal(partsText(undefined, SEATS, "Seat 1 passes"), "Seat 1 passes");
  assert.equal(partsText(null, SEATS, null), "");
  assert.equal(partsText([], SEATS, "ignored"), "");
});

test("a name with markup stays text (segments never carry HTML)", () => {
  const seats = [{ seat: 0, name: "<b>x</b>" }];
  assert.equal(partsToSegments([{ seat: 0 }], seats)[0].name, "<b>x</b>");
});

test("joinWords joins like a sentence", () => {
  assert.equal(joinWords([]), "");
  assert.equal(joinWords(["Ann"]), "Ann");
  assert.equal(joinWords(["Ann", "Cleo"]), "Ann and Cleo");
  assert.equal(joinWords(["Ann", "Bob", "Cleo"]), "Ann, Bob and Cleo");
  assert.equal(joinWords(["Ann", "", null, "Cleo"]), "Ann and Cleo");
});

test("shortName cuts long names to the limit with an ellipsis, by characters", () => {
  assert.equal(shortName("W".repeat(24)), "W".repeat(24));
  assert.equal(shortName("W".repeat(30)).length, 24);
  assert.ok(shortName("W".repeat(30)).endsWith("…"));
  assert.equal([...shortName("🦊".repeat(30), 5)].length, 5);
});
