// The web kit: what the pages and the games' renderers share to draw a table.
//
// Everything here returns virtual nodes (preact's, from the vendored htm/preact bundle): a
// page or a renderer describes the whole of what it shows at every server push, and
// `render(vnode, container)` updates only what changed in the page, so keyboard focus, a
// half-typed name, an open <details> and scroll positions survive a push. Nothing here
// touches the DOM but `render`, `clear` and `toNodes`: Node's tests (tests/js) read the trees.

import { h as preactH, html, render as preactRender } from "../vendor/htm-preact.js";
import { fmtPercent, has, msgParts, t } from "./i18n.js";
import { colourName, partsToSegments, seatColour } from "./text.js";

export { html };

/** An element: h(tag, props, ...children), children nested arrays, null/false/"" skipped.
 *  Props as in HTML (`class`, `aria-*`, `onclick`), plus `dataset: {k: v}` for data-k. */
export function h(tag, props, ...children) {
  let out = props || null;
  if (out && out.dataset) {
    out = { ...out };
    for (const [k, v] of Object.entries(out.dataset)) {
      if (v !== null && v !== undefined) out[`data-${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`] = String(v);
    }
    delete out.dataset;
  }
  const list = children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false && c !== "");
  if (out && out["data-hint-rank"] && !SVG_TAGS.has(tag)) list.push(...hintMarks(out));
  return preactH(tag, out, ...list);
}

/** `vnode` drawn into `container`, updating what an earlier drawing left there. */
export function render(vnode, container) {
  preactRender(vnode, container);
}

/** Empty a container drawn by `render` (a plain replaceChildren would confuse the next one). */
export function clear(container) {
  preactRender(null, container);
  container.replaceChildren();  // and anything put there by hand
}

/** Real nodes for code that still builds the DOM by hand (toasts, the lobby). */
export function toNodes(vnode) {
  const box = document.createElement("div");
  preactRender(vnode, box);
  return [...box.childNodes];
}

/** A renderer's root's ref (`ref: (node) => aboveTheBar(node)`, a new function at every drawing so
 *  that it runs after each): the page's action bar's height as `--bar-h` on the root, so that a
 *  game's own area sticky at a phone's bottom sits above the bar, sticky there too, instead of
 *  under it. Nothing without a DOM (Node's tests). */
export function aboveTheBar(node) {
  if (!node) return;
  queueMicrotask(() => {
    const bar = document.getElementById("actionbar");
    if (bar && node.isConnected) node.style.setProperty("--bar-h", `${bar.offsetHeight}px`);
  });
}

/** Props that make a non-button element behave as a button (Tab, Enter, Space). */
export function clickable(onActivate, label) {
  return {
    role: "button", tabIndex: 0, "aria-label": label || null, onclick: onActivate,
    onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onActivate(e); } },
  };
}

// ----- seats ----------------------------------------------------------------------------------
/** A seat as people read it: its symbol in its colour and its name (a long name ends in an
 *  ellipsis where the room is short; the title keeps it whole). Without a name: the symbol. */
export function seatBadge(seat, name) {
  const c = seatColour(seat);
  const full = String(name ?? "");
  const colour = `${colourName(seat)} ${c.symbol}`;
  return h("span", { class: "seat-badge", style: `--seat:${c.css}`, title: full ? `${full} (${colour})` : colour,
                     dataset: { seat: String(seat) } },
    h("span", { class: "seat-symbol", "aria-hidden": "true" }, c.symbol), full ? " " : null,
    full ? h("span", { class: "seat-name" }, full) : null);
}

/**
 * An engine sentence: its words as text and every {seat: n} of `parts` as that seat's badge,
 * named from `seats` (the snapshot's list of {seat, name, ...}). Without parts the text is
 * shown as it is. Options: `names(seat)` overrides a seat's name ("you" for the viewer);
 * `capital`: a sentence that starts with a seat starts with a capital ("You").
 */
export function parts(list, seats, fallbackText = "", options = {}) {
  if (!Array.isArray(list)) return fallbackText === null || fallbackText === undefined ? [] : [String(fallbackText)];
  return partsToSegments(list, seats).map((seg, k) => {
    if ("text" in seg) return seg.text;
    let name = options.names ? options.names(seg.seat) || seg.name : seg.name;
    if (k === 0 && options.capital && /^[a-z]/.test(name)) name = name.charAt(0).toUpperCase() + name.slice(1);
    return seatBadge(seg.seat, name);
  });
}

// ----- the log ---------------------------------------------------------------------------------
/** An entry's sentence as parts in the reader's language: from its message (`msg`, rendered
 *  here: each browser in its own language) when the catalogues know it, else the server's
 *  parts (null without: its text is shown). */
export function entryParts(e) {
  if (e && e.msg && typeof e.msg === "object" && typeof e.msg.id === "string" && has(e.msg.id)) return msgParts(e.msg);
  return e && Array.isArray(e.parts) ? e.parts : null;
}

/** An entry's marker: ◇ for the game's own effects; the actor's symbol unless the sentence
 *  starts by naming the actor (its badge says it already). */
export function logMarker(e) {
  if (e.seat === null || e.seat === undefined) return h("span", { class: "auto", "aria-hidden": "true" }, "◇ ");
  const list = entryParts(e);
  const first = Array.isArray(list) ? list[0] : null;
  if (first && typeof first === "object" && first.seat === e.seat) return null;
  return [seatBadge(e.seat, ""), " "];
}

/** One log entry: its marker and its sentence, seats by name. */
export function logEntry(e, seats) {
  return h("li", { key: e.i, class: `log-entry kind-${e.kind}`, dataset: { i: e.i, kind: e.kind } },
    logMarker(e), parts(entryParts(e), seats, e.text));
}

/** The log grouped by round ("Setup" before the first), in the reader's language. */
export function logRounds(log, seats) {
  const groups = new Map();
  for (const entry of log) {
    if (!groups.has(entry.round)) groups.set(entry.round, []);
    groups.get(entry.round).push(entry);
  }
  return [...groups.entries()].map(([round, entries]) => h("section", { key: String(round), class: "log-round" },
    h("h3", {}, round ? t("nemeton.web.log.round", { round }) : t("nemeton.web.log.setup")),
    h("ol", {}, entries.map((e) => logEntry(e, seats)))));
}

// ----- common pieces ---------------------------------------------------------------------------
/** A read-only link with its copy button (invite links, the spectators' link). */
export function linkRow(link, { id = null, label, inputClass = "invite", buttonClass = null, dataset = null, onCopy }) {
  return h("div", { class: "invite-row" },
    h("input", { class: inputClass, id, readonly: true, value: link, dataset, "aria-label": label }),
    h("button", { type: "button", class: buttonClass, onclick: () => onCopy(link) }, t("nemeton.web.copy_link")));
}

/** A seat's score table (the fallback score sheet: one row per seat). */
export function scoreTable(seats, scores) {
  return h("table", { class: "score-table" }, h("tbody", {}, seats.map((s) =>
    h("tr", { key: s.seat }, h("th", {}, seatBadge(s.seat, s.name)), h("td", {}, String(scores[s.seat]))))));
}

// ----- a game's renderer on a page ----------------------------------------------------------------
// A renderer (games/<g>/web/renderer.js) exports draw(ctx) -> {board, bar} (virtual nodes for
// the table and the action bar), score(ctx) -> the final sheet, and label(action, ctx) -> the
// move's words (docs/web.md).


/** The table of `game` for `ctx` into `board` and `bar`; without a renderer, the view as JSON. */
export function drawGame(game, board, bar, ctx) {
  if (game && game.draw) {
    try {
      // ctx.redraw: the renderer draws this table again after a change of its own (a selection)
      const out = game.draw({ ...ctx, redraw: () => drawGame(game, board, bar, ctx) });
      render(out.board, board);
      render(out.bar || null, bar);
    } catch (err) {
      console.error(err);
      render(h("p", { class: "fatal" }, t("nemeton.web.broken_table")), board);
      render(null, bar);
    }
    return;
  }
  render(h("pre", { class: "raw-view" }, JSON.stringify(ctx.view, null, 1)), board);
  render(null, bar);
}

/** The game's final sheet into `box`; without one, a table of `seats`' scores (none: empty). */
export function drawScoreSheet(game, box, ctx, seats = null) {
  if (game && game.score) {
    try { render(game.score(ctx), box); return; } catch (err) { console.error(err); }
  }
  render(seats ? scoreTable(seats, ctx.view.scores || []) : null, box);
}

/** The text a person reads in virtual nodes (a title, an aria-label made of a sentence). */
export function textOf(node) {
  if (node === null || node === undefined || typeof node === "boolean") return "";
  if (typeof node === "string" || typeof node === "number") return String(node);
  if (Array.isArray(node)) return node.map(textOf).join("");
  const c = node.props ? node.props.children : undefined;
  return textOf(c);
}

// ----- hints -------------------------------------------------------------------------------------
// ctx.hints: the search's preferred moves for the seat ({action, win, rank}, rank 1 first), asked
// for with the page's hint button. A renderer marks each thing a hinted move concerns (the card,
// the cell, the space, the button) with hintProps(hintFor(ctx, actions)), where `actions` are the
// legal actions a click on that thing leads to: `h` then draws a ring and the rank with the win
// chance on it (hintMarks).

/** The best-ranked hint among `actions` (legal actions, as the server sent them), or null. */
export function hintFor(ctx, actions) {
  const hints = (ctx && ctx.hints) || [];
  if (!hints.length || !actions || !actions.length) return null;
  const keys = new Set(actions.map((a) => JSON.stringify(a)));
  return hints.find((hint) => keys.has(JSON.stringify(hint.action))) || null;
}

/** A hint's words: "hint 1: about 62% win chance". */
export function hintWords(hint) {
  return t("nemeton.web.hint.words", { rank: hint.rank, percent: fmtPercent(hint.win) });
}

/** The props that mark a thing with `hint` (none without one): its rank and win chance
 *  (data-hint; `h` draws them as a ring and a badge inside an HTML thing, a renderer on SVG). */
export function hintProps(hint) {
  if (!hint) return {};
  return { "data-hint": `${hint.rank} · ${fmtPercent(hint.win)}`, "data-hint-rank": String(hint.rank) };
}

// The SVG elements a renderer may hint (drawn by the renderer itself: no HTML can go inside them).
const SVG_TAGS = new Set(["svg", "g", "rect", "circle", "path", "text", "line", "polygon", "polyline", "ellipse"]);

/** What `h` puts inside an HTML thing marked with hintProps, over whatever it shows: a ring
 *  inside its edge (drawn above the game's own legal-move outline, which stays outside) and a
 *  badge with the rank and win chance (base.css places it; a game's style may hide the win
 *  chance on small things, where the rank alone fits). Real elements, not pseudo-elements, so
 *  that the games' own ::before/::after marks keep working beside them. */
function hintMarks(props) {
  const [rank, win] = props["data-hint"].split(" · ");
  return [
    preactH("span", { key: "hint-ring", class: "hint-ring", "aria-hidden": "true" }),
    preactH("span", { key: "hint-badge", class: "hint-badge", "aria-hidden": "true" },
      preactH("b", null, rank), preactH("span", { class: "hint-badge-win" }, `· ${win}`)),
  ];
}

/** `props` with `hint`'s mark added (a title and aria-label kept, the hint's words appended). */
export function withHint(props, hint) {
  if (!hint) return props;
  const out = { ...props, ...hintProps(hint) };
  const label = props["aria-label"];
  if (label) out["aria-label"] = `${label} (${hintWords(hint)})`;
  out.title = props.title ? `${props.title} (${hintWords(hint)})` : hintWords(hint);
  return out;
}
