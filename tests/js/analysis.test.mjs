// The analysis page's graph (web/js/analysis-graph.js) on a made-up analysis in the teacher's
// shape: one line per seat through its decisions, the costly moves marked as links to the replay.
import { test } from "node:test";
import assert from "node:assert/strict";

import { costly, seatLines, winGraph } from "../../src/nemeton/web/js/analysis-graph.js";
import { attr, elements } from "./vnode.mjs";

const decision = (index, seat, before, after, cls = null) => ({ index, seat, before, after, loss: Math.max(0, before - after), class: cls });
const ANALYSIS = {
  teams: null,
  seats: [{ seat: 0, decisions: 2 }, { seat: 1, decisions: 2 }],
  decisions: [decision(0, 0, 0.5, 0.5), decision(1, 1, 0.5, 0.3, "blunder"), decision(2, 0, 0.7, 0.62, "inaccuracy"),
              decision(3, 1, 0.3, 0.3)],
};

test("each seat's line goes through its decisions: before, then after its move", () => {
  const lines = seatLines(ANALYSIS);
  assert.deepEqual(lines.get(0), [[0, 0.5], [1, 0.5], [2, 0.7], [3, 0.62]]);
  assert.deepEqual(lines.get(1), [[1, 0.5], [2, 0.3], [3, 0.3], [4, 0.3]]);
  assert.deepEqual(costly(ANALYSIS).map((d) => d.index), [1, 2]);
});

test("the graph draws one line per seat in its colour and marks the costly moves as links to the replay", () => {
  const svg = winGraph(ANALYSIS, { moves: 4, name: (s) => ["Ann", "Bob"][s], href: (d) => `/replay?step=${d.index}&seat=${d.seat}` });
  const all = elements(svg);
  const lines = all.filter((e) => e.type === "polyline");
  assert.deepEqual(lines.map((l) => attr(l, "stroke")), ["#c2412d", "#2d6cc2"]);
  assert.equal(attr(lines[0], "points").split(" ").length, 4);
  const marks = all.filter((e) => e.type === "a");
  assert.deepEqual(marks.map((m) => attr(m, "href")), ["/replay?step=1&seat=1", "/replay?step=2&seat=0"]);
  assert.match(attr(marks[0], "aria-label"), /^Bob, move 2: blunder, about 20% win chance lost$/);
  assert.deepEqual(all.filter((e) => e.type === "a").map((m) => elements(m).find((e) => e.type === "text").props.children), ["??", "?!"]);
});

test("in a team game the seats of a team share their line's dash, each in its own colour", () => {
  const teams = { ...ANALYSIS, teams: [[0, 2], [1, 3]],
    seats: [0, 1, 2, 3].map((seat) => ({ seat, team: seat % 2, decisions: 1 })),
    decisions: [0, 1, 2, 3].map((seat) => decision(seat, seat, 0.5, 0.5)) };
  const lines = elements(winGraph(teams, { moves: 4, name: String, href: () => "#" })).filter((e) => e.type === "polyline");
  const dash = lines.map((l) => attr(l, "stroke-dasharray") || "");
  assert.equal(dash[0], dash[2]);
  assert.equal(dash[1], dash[3]);
  assert.notEqual(dash[0], dash[1]);
  assert.equal(new Set(lines.map((l) => attr(l, "stroke"))).size, 4);
});
