// The analysis page's pieces that are pure drawing (no DOM, no fetch: Node's tests read them):
// each seat's win chance over the game as an inline SVG, the costly moves marked on it, and the
// words for a decision's class. The analysis is nemeton.teacher's JSON (docs/teacher.md).

import { h } from "./kit.js";
import { seatColour } from "./text.js";
import { fmtPercent, t } from "./i18n.js";

// lichess's marks: inaccuracy ?!, mistake ?, blunder ??; the words in the page's language
export const CLASSES = {
  inaccuracy: { mark: "?!", get words() { return t("nemeton.web.analysis.class.inaccuracy"); } },
  mistake: { mark: "?", get words() { return t("nemeton.web.analysis.class.mistake"); } },
  blunder: { mark: "??", get words() { return t("nemeton.web.analysis.class.blunder"); } },
};
const DASHES = ["", "8 4", "2 4", "10 4 2 4", "4 4", "12 3 3 3"];  // colour is never the only signal

export const WIDTH = 720;
export const HEIGHT = 280;
const PAD = { left: 48, right: 22, top: 14, bottom: 46 };

/** Each seat's line: its decisions as points (index, win chance before) then (index + 1, after),
 *  so a move's drop shows within it and what others did and luck show between its moves. */
export function seatLines(analysis) {
  const lines = new Map((analysis.seats || []).map((s) => [s.seat, []]));
  for (const d of analysis.decisions || []) {
    if (!lines.has(d.seat)) lines.set(d.seat, []);
    lines.get(d.seat).push([d.index, d.before], [d.index + 1, d.after]);
  }
  return lines;
}

/** The decisions marked as costly (a class), in the game's order. */
export function costly(analysis) {
  return (analysis.decisions || []).filter((d) => d.class && CLASSES[d.class]).sort((a, b) => a.index - b.index);
}

/** The graph: x the game's actions (0 to `moves`), y a seat's win chance (0 to 100%); one line
 *  per seat in its colour and dash, its symbol at the end; the costly moves marked with their
 *  symbol, each a link (`href(decision)`) to that moment of the replay. `name(seat)` names seats. */
export function winGraph(analysis, { moves, name, href }) {
  const lines = seatLines(analysis);
  const last = Math.max(1, moves || 0, ...[...lines.values()].flat().map(([x]) => x));
  const x = (i) => PAD.left + (i / last) * (WIDTH - PAD.left - PAD.right);
  const y = (p) => PAD.top + (1 - p) * (HEIGHT - PAD.top - PAD.bottom);
  const grid = [0, 0.25, 0.5, 0.75, 1].map((p) => h("g", { key: `y${p}`, class: "grid" },
    h("line", { x1: PAD.left, x2: WIDTH - PAD.right, y1: y(p), y2: y(p) }),
    h("text", { x: PAD.left - 6, y: y(p) + 5, "text-anchor": "end" }, fmtPercent(p))));
  const ticks = Math.min(8, last);
  const xTicks = Array.from({ length: ticks + 1 }, (_, k) => Math.round((k * last) / ticks)).map((i) =>
    h("text", { key: `x${i}`, class: "tick", x: x(i), y: HEIGHT - 26, "text-anchor": "middle" }, String(i)));
  // teams: a team's seats share a dash (each its own colour); else each seat its own dash
  const teamOf = new Map((analysis.teams || []).flatMap((team, t) => team.map((seat) => [seat, t])));
  const paths = [...lines.entries()].map(([seat, points], k) => {
    if (!points.length) return null;
    const c = seatColour(seat);
    const dash = DASHES[(teamOf.has(seat) ? teamOf.get(seat) : k) % DASHES.length] || null;
    const end = points[points.length - 1];
    return h("g", { key: `seat${seat}`, class: "seat-line", dataset: { seat } },
      h("title", {}, t("nemeton.web.analysis.line_title", { name: name(seat) })),
      h("polyline", { points: points.map(([i, p]) => `${x(i).toFixed(1)},${y(p).toFixed(1)}`).join(" "), fill: "none",
                      stroke: c.css, "stroke-width": 2.5, "stroke-dasharray": dash }),
      h("text", { class: "line-end", x: x(end[0]) + 4, y: y(end[1]) + 5, fill: c.css }, c.symbol));
  });
  const marks = costly(analysis).map((d) => {
    const c = CLASSES[d.class];
    const words = t("nemeton.web.analysis.mark_label", { name: name(d.seat), n: d.index + 1, class: c.words, percent: fmtPercent(d.loss) });
    return h("a", { key: `m${d.index}`, href: href(d), class: `mark ${d.class}`, dataset: { index: d.index }, "aria-label": words },
      h("title", {}, words),
      h("circle", { cx: x(d.index + 1), cy: y(d.after), r: 10, stroke: seatColour(d.seat).css }),
      h("text", { x: x(d.index + 1), y: y(d.after) + 4, "text-anchor": "middle" }, c.mark));
  });
  return h("svg", { class: "win-graph", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img",
                    "aria-label": t("nemeton.web.analysis.graph_label") },
    grid, xTicks,
    h("text", { class: "axis", x: (PAD.left + WIDTH - PAD.right) / 2, y: HEIGHT - 6, "text-anchor": "middle" },
      t("nemeton.web.analysis.axis")),
    paths, marks);
}
