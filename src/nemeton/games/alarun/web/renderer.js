// Alarún in the browser: the centre row, your hand and secret colour, your magic square and
// the others' squares, drawn from the seat's view only. Swaps and placements are made on the
// cards and cells they concern; every highlight is a filter of ctx.legal (no rules here).
//
// It exports the kit's renderer interface (docs/web.md): draw(ctx) -> {board, bar}, score(ctx)
// and label(action, ctx), all virtual nodes (js/kit.js): the page updates only what changed,
// cards and cells keyed by their place, so the focus stays on a card through a redraw.

import { aboveTheBar, h, hintFor, seatBadge, withHint } from "/static/js/kit.js";
import { has, t } from "/static/js/i18n.js";
import { seatNameOf } from "/static/js/text.js";

// ----- names and pictures ----------------------------------------------------------------
// Every word comes from the catalogue (games/alarun/locale/<lang>/LC_MESSAGES/alarun.po): the
// game's terms as the event log names them (alarun.ingredient.*, alarun.colour.*), the table's
// own words as alarun.web.*, in the page's language (/static/js/i18n.js).

const INGREDIENTS = ["fungi_magica", "moon_berries", "calendula", "phoenix_feathers", "dragon_eggs", "mandrake", "myrrh"];
const COLOURS = ["blue", "green", "orange", "pink", "red", "white", "yellow"];

/** A colour in words ("blue", "blu", "azul"); an unknown code as it is. */
function colourName(colour) {
  const id = `alarun.colour.${colour}`;
  return has(id) ? t(id) : String(colour);
}

/** The symbol each colour carries, in words ("drop", "goccia", "gota"). */
function symbolName(colour) {
  const id = `alarun.web.symbol.${colour}`;
  return has(id) ? t(id) : "";
}

/** "blue (drop)": a colour with its symbol. */
function colourWithSymbol(colour) {
  return t("alarun.web.colour_symbol", { colour: colourName(colour), symbol: symbolName(colour) });
}

// Ingredient glyphs, drawn in a 48×48 box (filled with the card's light ink, outlined dark):
// each a list of SVG shapes, [tag, attributes].
const GLYPHS = {
  fungi_magica: [
    ["path", { d: "M19 25 L17 42 Q24 45 31 42 L29 25 Z" }],
    ["path", { d: "M4 26 C4 8 44 8 44 26 Z" }],
    ["circle", { class: "ink", cx: 15, cy: 19, r: 2.6 }],
    ["circle", { class: "ink", cx: 25, cy: 14, r: 2.6 }],
    ["circle", { class: "ink", cx: 34, cy: 20, r: 2.2 }],
  ],
  moon_berries: [
    ["path", { d: "M22 3 A17 17 0 1 0 40 25 A13 13 0 1 1 22 3 Z" }],
    ["circle", { cx: 33, cy: 35, r: 5.5 }],
    ["circle", { cx: 41, cy: 41, r: 5 }],
    ["circle", { cx: 29, cy: 43, r: 4.5 }],
  ],
  calendula: [
    ...[0, 45, 90, 135, 180, 225, 270, 315].map((a) => ["ellipse", { cx: 24, cy: 11, rx: 5, ry: 9, transform: `rotate(${a} 24 24)` }]),
    ["circle", { class: "ink", cx: 24, cy: 24, r: 7 }],
  ],
  phoenix_feathers: [
    ["path", { d: "M40 4 C20 8 9 24 9 40 L13 42 C27 37 39 24 40 4 Z" }],
    ["path", { class: "line", d: "M6 46 L36 10 M19 30 L13 25 M24 24 L18 18 M28 19 L24 12 M21 28 L30 29 M26 22 L35 22" }],
  ],
  dragon_eggs: [
    ["path", { d: "M24 4 C13 4 8 21 8 30 C8 39 15 45 24 45 C33 45 40 39 40 30 C40 21 35 4 24 4 Z" }],
    ["path", { class: "line", d: "M9 27 L15 22 L21 27 L27 22 L33 27 L39 22" }],
  ],
  mandrake: [
    ["path", { d: "M24 18 C19 8 12 5 7 5 C11 10 17 15 22 19 Z" }],
    ["path", { d: "M24 18 C29 8 36 5 41 5 C37 10 31 15 26 19 Z" }],
    ["path", { d: "M24 17 C22 10 23 5 24 2 C25 5 26 10 24 17 Z" }],
    ["path", { d: "M15 19 C9 28 14 38 24 46 C34 38 39 28 33 19 Z" }],
    ["circle", { class: "ink", cx: 20, cy: 27, r: 2 }],
    ["circle", { class: "ink", cx: 28, cy: 27, r: 2 }],
    ["path", { class: "line", d: "M20 34 Q24 37 28 34" }],
  ],
  myrrh: [
    ["path", { class: "line", d: "M18 24 C13 18 22 14 17 6 M30 24 C25 18 34 14 29 6" }],
    ["circle", { cx: 17, cy: 27, r: 4 }],
    ["circle", { cx: 25, cy: 26, r: 4.5 }],
    ["circle", { cx: 32, cy: 28, r: 3.5 }],
    ["path", { d: "M6 29 L42 29 C42 40 33 45 24 45 C15 45 6 40 6 29 Z" }],
  ],
  centum_auri: [
    ["circle", { cx: 24, cy: 24, r: 19 }],
    ["circle", { class: "line", cx: 24, cy: 24, r: 14 }],
    ["path", { class: "ink", d: "M24 13 L27 21 L35 21 L29 26 L31 34 L24 29 L17 34 L19 26 L13 21 L21 21 Z" }],
  ],
  druid: [
    ["path", { d: "M24 3 C12 3 9 17 9 29 L6 45 L42 45 L39 29 C39 17 36 3 24 3 Z" }],
    ["ellipse", { class: "ink", cx: 24, cy: 22, rx: 7.5, ry: 9.5 }],
    ["path", { class: "line", d: "M36 45 L36 30 M36 30 C40 27 42 22 39 17" }],
  ],
};

// Colour symbols, drawn in a 20×20 box (every colour carries its symbol: colour is never the
// only signal).
const SYMBOLS = {
  blue: [
    ["path", { d: "M10 2 C10 2 4 10 4 13 A6 6 0 0 0 16 13 C16 10 10 2 10 2 Z" }],
  ],
  green: [
    ["path", { d: "M3 17 C3 7 9 3 17 3 C17 11 13 17 3 17 Z" }],
    ["path", { class: "line", d: "M4 16 L13 7" }],
  ],
  orange: [
    ["path", { d: "M10 1.5 C12 6 16 8.5 16 12.5 A6 6 0 0 1 4 12.5 C4 9.5 6.5 8.5 7 5.5 C8.2 7.5 9 8.5 10 8.5 C10.5 6 9.5 4 10 1.5 Z" }],
  ],
  pink: [
    ["path", { d: "M10 17.5 C4 12.5 2 9.5 2 6.5 A4 4 0 0 1 10 5 A4 4 0 0 1 18 6.5 C18 9.5 16 12.5 10 17.5 Z" }],
  ],
  red: [
    ["path", { d: "M10 1.5 L17.5 10 L10 18.5 L2.5 10 Z" }],
  ],
  white: [
    ["path", { d: "M10 1.5 L12.5 7.3 L18.5 7.7 L13.9 11.6 L15.3 17.6 L10 14.4 L4.7 17.6 L6.1 11.6 L1.5 7.7 L7.5 7.3 Z" }],
  ],
  yellow: [
    ["circle", { cx: 10, cy: 10, r: 4.2 }],
    ["path", { class: "line", d: "M10 1 V4 M10 16 V19 M1 10 H4 M16 10 H19 M3.6 3.6 L5.7 5.7 M14.3 14.3 L16.4 16.4 M3.6 16.4 L5.7 14.3 M14.3 5.7 L16.4 3.6" }],
  ],
};

/** A card string as parts: {ingredient, colour} or {special: "centum_auri" | "druid"}. */
function parse(card) {
  if (card === "centum_auri" || card === "druid") return { special: card };
  const [ingredient, colour] = String(card).split(":");
  return { ingredient, colour };
}

function ingredientName(id) {
  const key = `alarun.ingredient.${id}`;
  return has(key) ? t(key) : String(id).replace(/_/g, " ");
}

/** "Dragon eggs, blue" / "Centum auri" / "Druid apprentice": a card in words. */
export function cardName(card) {
  const p = parse(card);
  if (p.special === "centum_auri") return t("alarun.card.centum_auri");
  if (p.special === "druid") return t("alarun.web.card.druid");
  return t("alarun.web.card", { ingredient: ingredientName(p.ingredient), colour: colourName(p.colour) });
}

/** Where a cell lies, in words: offsets from the druid (x to the right, y downwards). */
function whereName(x, y) {
  const dx = Math.abs(x), dy = Math.abs(y);
  if (!x && !y) return t("alarun.web.where.druid");
  if (!x) return y < 0 ? t("alarun.web.where.up", { dy }) : t("alarun.web.where.down", { dy });
  if (!y) return x < 0 ? t("alarun.web.where.left", { dx }) : t("alarun.web.where.right", { dx });
  if (y < 0) return x < 0 ? t("alarun.web.where.up_left", { dx, dy }) : t("alarun.web.where.up_right", { dx, dy });
  return x < 0 ? t("alarun.web.where.down_left", { dx, dy }) : t("alarun.web.where.down_right", { dx, dy });
}


// ----- pictures ---------------------------------------------------------------------------------

/** An SVG picture of constant shapes (the tables above, never data). */
function picture(viewBox, shapes, cls) {
  return h("svg", { viewBox, class: cls, "aria-hidden": "true", focusable: "false" },
    (shapes || []).map(([tag, attrs], k) => h(tag, { key: k, ...attrs })));
}

function glyph(card, cls = "al-glyph") {
  const p = parse(card);
  return picture("0 0 48 48", GLYPHS[p.special || p.ingredient], cls);
}

function symbol(colour) {
  return picture("0 0 20 20", SYMBOLS[colour], `al-symbol c-${colour}`);
}

// ----- module state (UI only) -------------------------------------------------------------

let legalKey = null; // JSON of ctx.legal when the selection was made
let selection = null; // {where: "centre"|"hand"|"cell", index, card, x, y}
let lastFresh = ""; // the fresh entries last outlined: they flash once, when they first show
let lastCtx = null; // the ctx of the last drawing: a selection draws the table again with it

function select(sel) {
  selection = sel;
  if (lastCtx && lastCtx.redraw) lastCtx.redraw();
}

function act(ctx, action) {
  selection = null;
  ctx.act(action);
}

// ----- tiles --------------------------------------------------------------------------------

/**
 * One card drawn face up: a button when it may be clicked (legal or selected), else a plain
 * element. size: "big" (hand, centre), "cell" (a square's cell), "mini" (others' squares, lists).
 */
function tile(card, { size = "big", key, legal = false, selected = false, recent = false, note = "",
  action = null, onClick = null, extraClass = "", data = {}, style = null, extra = null, hint = null } = {}) {
  const p = parse(card);
  const kind = p.special ? `al-${p.special}` : `c-${p.colour} i-${p.ingredient}`;
  const classes = ["card", "al-card", `al-${size}`, kind, extraClass];
  if (legal) classes.push("legal");
  if (selected) classes.push("selected");
  if (recent) classes.push("recent");
  const words = note ? t("alarun.web.card_note", { card: cardName(card), note }) : cardName(card);
  const attrs = {
    key, style, class: classes.filter(Boolean).join(" "),
    dataset: { card: String(card), ...(key ? { key } : {}), ...data },
    title: words,
  };
  const inside = [
    h("span", { class: "al-art" }, glyph(card)),
    p.colour ? h("span", { class: "al-badge" }, symbol(p.colour)) : null,
    size === "big" ? h("span", { class: "al-name" },
      p.special === "druid" ? t("alarun.web.card.druid_short") : p.special ? t("alarun.card.centum_auri") : ingredientName(p.ingredient)) : null,
    size === "big" ? h("span", { class: "al-colour" }, p.colour ? colourName(p.colour) : p.special === "centum_auri" ? "+10" : "") : null,
    extra,
  ];
  if (onClick) {
    return h("button", withHint({
      ...attrs, type: "button", "aria-pressed": selected ? "true" : null,
      "aria-label": selected ? t("alarun.web.card_selected", { card: words })
        : action ? action(words) : t("alarun.web.act.choose", { card: words }),
      onclick: onClick,
    }, hint), inside);
  }
  return h("div", withHint({ ...attrs, role: "img", "aria-label": words }, hint), inside);
}

function back(size, label, key) {
  return h("div", { key, class: `card back al-${size}`, role: "img", "aria-label": label, title: label },
    h("span", { class: "al-back-mark", "aria-hidden": "true" }));
}

/** `count` backs, keyed by their place. */
function backs(count, size, label) {
  return Array.from({ length: count }, (_, k) => back(size, label, `back-${k}`));
}

function colourCard(colour, caption) {
  return h("div", {
    class: `al-colour-card c-${colour}`, dataset: { card: colour }, role: "img",
    "aria-label": t("alarun.web.caption", { caption, what: colourWithSymbol(colour) }),
    title: t("alarun.web.caption", { caption, what: colourName(colour) }),
  }, symbol(colour), h("span", {}, colourName(colour)));
}

// ----- recent moves (ctx.fresh) -------------------------------------------------------------

/** What the other seats just did, from ctx.fresh: cards to outline and one line per seat (a
 *  function of the seat's name: the sentence). */
function recentMoves(ctx) {
  const r = { centre: [], known: {}, cells: {}, said: {} };
  const me = ctx.seat;
  for (const e of ctx.fresh || []) {
    const who = e.seat;
    if (e.kind === "placements_revealed" && e.player !== me) {
      r.cells[e.player] = (e.cards || []).map((c) => `${c.x},${c.y}`);
      const count = (e.cards || []).length;
      r.said[e.player] = (name) => t("alarun.web.said.placed", { name, count });
      continue;
    }
    if (who == null || who === me) continue;
    if (e.kind === "swap") {
      r.centre.push(e.give);
      (r.known[who] ||= []).push(e.take);
      r.said[who] = (name) => t("alarun.web.said.swap", { name, give: cardName(e.give), take: cardName(e.take) });
    } else if (e.kind === "swap_all_and_pass") {
      r.centre.push(...(e.gave || []));
      (r.known[who] ||= []).push(...(e.took || []));
      r.said[who] = (name) => t("alarun.web.said.swap_all", { name });
    } else if (e.kind === "flip") {
      r.centre.push(...(e.turned_up || []));
      r.said[who] = (name) => t("alarun.web.said.flip", { name });
    } else if (e.kind === "pass") {
      r.said[who] = (name) => t("alarun.web.said.pass", { name });
    }
  }
  return r;
}

/** Marks, for each card in `cards`, the first not-yet-marked equal card of `list` (by index). */
function markFirst(list, cards) {
  const marked = new Set();
  for (const c of cards) {
    const i = list.findIndex((x, j) => x === c && !marked.has(j));
    if (i >= 0) marked.add(i);
  }
  return marked;
}

// ----- the square ---------------------------------------------------------------------------

/** The cells a square may still occupy: the druid at (0,0) plus placed cells, inside 5×5. */
function squareWindow(cells, full = false) {
  let minX = 0, maxX = 0, minY = 0, maxY = 0;
  for (const [x, y] of cells) {
    minX = Math.min(minX, x); maxX = Math.max(maxX, x);
    minY = Math.min(minY, y); maxY = Math.max(maxY, y);
  }
  if (full) return { x0: minX, x1: maxX, y0: minY, y1: maxY };
  return { x0: maxX - 4, x1: minX + 4, y0: maxY - 4, y1: minY + 4 };
}

/**
 * A square as a grid over its window. cells: [[x, y, card]]; druid: the druid's card face
 * ("druid" or its final value); cellAttrs(x, y, card, column, row): a card's tile options;
 * slot(x, y, key, style): an element for an empty cell or null.
 */
function squareGrid(cells, { size, window, druid = "druid", cellAttrs = () => ({}), slot = () => null,
  label }) {
  const at = new Map(cells.map(([x, y, c]) => [`${x},${y}`, c]));
  at.set("0,0", druid);
  const cols = window.x1 - window.x0 + 1;
  const rows = window.y1 - window.y0 + 1;
  const out = [];
  for (let y = window.y0; y <= window.y1; y++) {
    for (let x = window.x0; x <= window.x1; x++) {
      const card = at.get(`${x},${y}`);
      const column = x - window.x0, row = y - window.y0;
      const style = `grid-column:${column + 1};grid-row:${row + 1}`;
      const key = `sq-${x},${y}`;
      if (card !== undefined) {
        const a = cellAttrs(x, y, card, column, row);
        const druidCell = x === 0 && y === 0;
        out.push(tile(card, { size, key, style, ...a, data: { x, y, ...(a.data || {}) },
          extraClass: [druidCell ? "al-druid-cell" : "", a.extraClass || ""].join(" "),
          extra: druidCell && card !== "druid" ? h("span", { class: "al-druid-mark" }, glyph("druid")) : null }));
      } else {
        out.push(slot(x, y, key, style) || h("div", { key, style, class: "al-slot", "aria-hidden": "true" }));
      }
    }
  }
  return h("div", {
    class: `al-square al-square-${size}`, role: "group", "aria-label": label,
    style: `--cols:${cols};--rows:${rows};--span:${Math.max(cols, rows)}`,
  }, out);
}

// ----- the game area --------------------------------------------------------------------------

/** Seats' names as a list argument (joined as the language lists them). */
function names(ctx, seats) {
  return { list: seats.map((s) => realName(ctx, s)) };
}

function realName(ctx, s) {
  return ctx.seatName ? ctx.seatName(s) : seatNameOf(ctx.seats, s);
}

function badge(ctx, s) {
  return seatBadge(s, realName(ctx, s));
}

function status(ctx) {
  const v = ctx.view;
  const bits = [t("alarun.web.status.round", { round: v.round, rounds: v.rounds })];
  if (v.phase === "actions") bits.push(t("alarun.web.status.actions"));
  else if (v.phase === "placement") bits.push(t("alarun.web.status.placement"));
  const holder = v.alarun == null ? t("alarun.web.status.alarun_on_stack")
    : v.alarun === ctx.seat ? t("alarun.web.status.alarun_held.you")
      : t("alarun.web.status.alarun_held", { name: realName(ctx, v.alarun) });
  bits.push(holder);
  if (v.action_cap != null) bits.push(t("alarun.web.status.cap", { taken: v.actions_taken, cap: v.action_cap }));
  return h("p", { class: "al-status", role: "status" }, bits.join(" · "));
}

function prompt(ctx) {
  const v = ctx.view;
  const acting = v.acting || [];
  const mine = ctx.legal.length > 0;
  let text;
  if (ctx.mode === "replay") text = "";
  else if (ctx.waiting) text = t("alarun.web.prompt.waiting_players");
  else if (v.phase === "actions") {
    if (mine) {
      const onlyPass = ctx.legal.every((a) => a.type === "pass");
      if (onlyPass) text = t("alarun.web.prompt.only_pass");
      else if (v.alarun != null) text = t("alarun.web.prompt.one_more", { name: cap(realName(ctx, v.alarun)) });
      else text = t("alarun.web.prompt.your_turn");
      if (selection && selection.where === "centre") text = t("alarun.web.prompt.give_for", { card: cardName(selection.card) });
      if (selection && selection.where === "hand") text = t("alarun.web.prompt.take_for", { card: cardName(selection.card) });
    } else if (acting.includes(ctx.seat) && ctx.mode === "play") text = t("alarun.web.prompt.on_its_way");
    else {
      const others = acting.filter((s) => s !== ctx.seat);
      text = others.length ? t("alarun.web.prompt.waiting_for", { names: names(ctx, others) }) : "";
    }
  } else if (v.phase === "placement") {
    const mineLeft = ctx.seat != null ? (v.hand || []).length : 0;
    if (mine) {
      text = t("alarun.web.prompt.place", { count: mineLeft });
      if (selection && selection.where === "hand") text = t("alarun.web.prompt.cell_for", { card: cardName(selection.card) });
      if (selection && selection.where === "cell") text = t("alarun.web.prompt.card_for", { where: whereName(selection.x, selection.y) });
    } else {
      const others = acting.filter((s) => s !== ctx.seat);
      text = others.length ? t("alarun.web.prompt.waiting_placing", { names: names(ctx, others), count: others.length }) : "";
    }
  }
  return text ? h("p", { class: "al-prompt", "aria-live": "polite" }, text) : null;
}

/** The bottom of the table is yours, or in a replay Ann's: the name, or null for "your". */
function whose(ctx) {
  return ctx.mode === "replay" ? realName(ctx, ctx.seat) : null;
}

function cap(s) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The three centre cards, the face-down cards (2 players), the stack and the discard pile. */
function centreRow(ctx, recent) {
  const v = ctx.view;
  const legal = ctx.legal;
  const swapping = v.phase === "actions" && legal.some((a) => a.type === "swap");
  const outlined = markFirst(v.centre || [], recent.centre);
  const cards = (v.centre || []).map((card, i) => {
    let isLegal = false, isSelected = false, onClick = null;
    let action = (words) => t("alarun.web.act.take", { card: words });
    if (swapping) {
      // Legal: the first click of a swap, or the second after a hand card; another centre
      // card stays clickable (it changes the selection) without being highlighted.
      const sel = selection;
      const options = legal.some((a) => a.type === "swap" && a.take === card);
      isSelected = sel?.where === "centre" && sel.index === i;
      if (!sel) isLegal = options;
      else if (sel.where === "hand") {
        isLegal = legal.some((a) => a.type === "swap" && a.give === sel.card && a.take === card);
        action = (words) => t("alarun.web.act.swap_for", { give: cardName(sel.card), card: words });
      } else if (!isSelected) action = (words) => t("alarun.web.act.choose_instead", { card: words });
      if (options || isLegal) onClick = () => clickCentre(ctx, i, card);
    }
    const hint = hintFor(ctx, legal.filter((a) => a.type === "swap" && a.take === card));
    return tile(card, { key: `centre-${i}`, legal: isLegal && !isSelected, selected: isSelected,
      recent: outlined.has(i), onClick, action, hint });
  });
  return h("section", { class: "al-centre", "aria-label": t("alarun.web.centre") },
    h("div", { class: "al-pile" },
      back("big", t("alarun.web.stack", { count: v.deck_size })),
      h("span", { class: "al-count" }, t("alarun.web.stack_count", { count: v.deck_size })),
      v.alarun == null && !v.terminal ? h("span", { class: "al-alarun-token", title: t("alarun.web.status.alarun_on_stack") }, "Alarún") : null),
    h("div", { class: "al-cards al-centre-cards", role: "group", "aria-label": t("alarun.web.centre_cards") }, cards),
    v.face_down > 0 ? h("div", { class: "al-face-down", role: "group", "aria-label": t("alarun.web.face_down", { count: v.face_down }) },
      h("div", { class: "al-cards" }, backs(v.face_down, "big", t("alarun.web.back.face_down"))),
      h("span", { class: "al-label" }, t("alarun.web.face_down_note", { count: v.face_down }))) : null,
    discardPile(v));
}

/** The discard pile, folded (a person's opening it survives the next drawing). */
function discardPile(v) {
  const pile = v.discard || [];
  return h("details", { class: "al-discard" },
    h("summary", {}, t("alarun.web.discard", { count: pile.length })),
    pile.length ? h("div", { class: "al-mini-list" }, pile.map((c, k) => tile(c, { size: "mini", key: `discard-${k}` })))
      : h("p", {}, t("alarun.web.discard_empty")));
}

function clickCentre(ctx, i, card) {
  const sel = selection;
  if (sel?.where === "centre" && sel.index === i) return select(null);
  if (sel?.where === "hand") {
    const a = ctx.legal.find((x) => x.type === "swap" && x.give === sel.card && x.take === card);
    if (a) return act(ctx, a);
  }
  const options = ctx.legal.filter((x) => x.type === "swap" && x.take === card);
  if (options.length === 1) return act(ctx, options[0]);
  if (options.length) select({ where: "centre", index: i, card });
}

function clickHand(ctx, i, card) {
  const sel = selection;
  if (sel?.where === "hand" && sel.index === i) return select(null);
  const v = ctx.view;
  if (v.phase === "actions") {
    if (sel?.where === "centre") {
      const a = ctx.legal.find((x) => x.type === "swap" && x.give === card && x.take === sel.card);
      if (a) return act(ctx, a);
    }
    const options = ctx.legal.filter((x) => x.type === "swap" && x.give === card);
    if (options.length === 1) return act(ctx, options[0]);
    if (options.length) select({ where: "hand", index: i, card });
  } else {
    if (sel?.where === "cell") {
      const a = ctx.legal.find((x) => x.type === "place" && x.card === card && x.x === sel.x && x.y === sel.y);
      if (a) return act(ctx, a);
    }
    const options = ctx.legal.filter((x) => x.type === "place" && x.card === card);
    if (options.length === 1) return act(ctx, options[0]);
    if (options.length) select({ where: "hand", index: i, card });
  }
}

function clickCell(ctx, x, y) {
  const sel = selection;
  if (sel?.where === "cell" && sel.x === x && sel.y === y) return select(null);
  if (sel?.where === "hand") {
    const a = ctx.legal.find((p) => p.type === "place" && p.card === sel.card && p.x === x && p.y === y);
    if (a) return act(ctx, a);
  }
  const options = ctx.legal.filter((p) => p.type === "place" && p.x === x && p.y === y);
  const cards = new Set(options.map((p) => p.card));
  if (cards.size === 1) return act(ctx, options[0]);
  if (options.length) select({ where: "cell", x, y });
}

/** Your hand, with the swaps or placements it allows now. */
function handRow(ctx) {
  const v = ctx.view;
  const legal = ctx.legal;
  const hand = v.hand || [];
  const cards = hand.map((card, i) => {
    const sel = selection;
    const isSelected = sel?.where === "hand" && sel.index === i;
    // Legal: the first click, or the second after a centre card (a cell); another hand card
    // stays clickable (it changes the selection) without being highlighted.
    let isLegal = false, options = false;
    let action = (words) => t("alarun.web.act.choose_instead", { card: words });
    if (v.phase === "actions") {
      options = legal.some((a) => a.type === "swap" && a.give === card);
      if (!sel) {
        isLegal = options;
        action = (words) => t("alarun.web.act.give", { card: words });
      } else if (sel.where === "centre") {
        isLegal = legal.some((a) => a.type === "swap" && a.take === sel.card && a.give === card);
        action = (words) => t("alarun.web.act.give_for", { take: cardName(sel.card), card: words });
      }
    } else if (v.phase === "placement") {
      options = legal.some((a) => a.type === "place" && a.card === card);
      if (!sel) {
        isLegal = options;
        action = (words) => t("alarun.web.act.place", { card: words });
      } else if (sel.where === "cell") {
        isLegal = legal.some((a) => a.type === "place" && a.card === card && a.x === sel.x && a.y === sel.y);
        action = (words) => t("alarun.web.act.place_at", { where: whereName(sel.x, sel.y), card: words });
      }
    }
    const onClick = options || isLegal ? () => clickHand(ctx, i, card) : null;
    const hint = hintFor(ctx, legal.filter((a) => (a.type === "swap" && a.give === card) || (a.type === "place" && a.card === card)));
    return tile(card, { key: `hand-${i}`, legal: isLegal && !isSelected, selected: isSelected, onClick, action, hint });
  });
  return h("div", { class: "al-cards al-hand", role: "group", "aria-label": t("alarun.web.your_hand") },
    cards, hand.length ? null : h("p", { key: "empty", class: "al-empty" }, t("alarun.web.hand_empty")));
}

/** Your square: placed cards, this round's placements marked, legal cells highlighted. */
function ownSquare(ctx) {
  const v = ctx.view;
  const seat = ctx.seat;
  const cells = v.squares[seat] || [];
  const pending = new Set((v.my_placements || []).map(([x, y]) => `${x},${y}`));
  const placing = v.phase === "placement" && ctx.legal.some((a) => a.type === "place");
  const sel = selection;
  // Open cells: legal as a first click or after a hand card; after another cell they stay
  // clickable (changing the selection) without being highlighted.
  const openCells = new Set();
  const legalCells = new Set();
  if (placing) {
    for (const a of ctx.legal) {
      if (a.type !== "place") continue;
      openCells.add(`${a.x},${a.y}`);
      if (!sel || (sel.where === "hand" && a.card === sel.card)) legalCells.add(`${a.x},${a.y}`);
    }
  }
  const slot = (x, y, key, style) => {
    const k = `${x},${y}`;
    const isSelected = sel?.where === "cell" && sel.x === x && sel.y === y;
    if (!openCells.has(k)) return null;
    const where = whereName(x, y);
    const what = sel?.where === "hand" ? t("alarun.web.cell.place", { card: cardName(sel.card), where })
      : sel?.where === "cell" ? t("alarun.web.cell.choose_instead", { where }) : t("alarun.web.cell.choose", { where });
    const state = isSelected ? "selected" : legalCells.has(k) ? "legal" : "al-open";
    const hint = hintFor(ctx, ctx.legal.filter((a) => a.type === "place" && a.x === x && a.y === y));
    return h("button", withHint({
      key, style, type: "button", class: `al-slot al-target ${state}`,
      dataset: { key: `cell-${k}`, x, y },
      "aria-label": isSelected ? t("alarun.web.cell.selected", { where }) : what,
      "aria-pressed": isSelected ? "true" : null, title: what, onclick: () => clickCell(ctx, x, y),
    }, hint));
  };
  return squareGrid(cells, {
    size: "cell", window: squareWindow(cells), label: t("alarun.web.your_square"),
    cellAttrs: (x, y) => (pending.has(`${x},${y}`)
      ? { extraClass: "al-pending", note: t("alarun.web.note.pending") }
      : {}),
    slot,
  });
}

/** Another seat: name, hand (known cards face up, the rest as backs), square, pending count. */
function seatPanel(ctx, s, recent, size) {
  const v = ctx.view;
  const acting = (v.acting || []).includes(s);
  const said = recent.said[s];
  const known = (v.known_hands || [])[s] || [];
  const handSize = (v.hand_sizes || [])[s] || 0;
  const outlined = markFirst(known, recent.known[s] || []);
  // In the action phase the cards seen taken from the centre are in the hand, face up; during
  // placement some may already lie face down in the square, so they are listed apart.
  const inHand = v.phase === "actions" ? known : [];
  const name = realName(ctx, s);
  const hand = h("div", { class: "al-mini-list al-their-hand", role: "group",
    "aria-label": t("alarun.web.seat.hand", { name, count: handSize }) },
  inHand.map((c, i) => tile(c, { size: "mini", key: `known-${i}`, recent: outlined.has(i), note: t("alarun.web.note.taken") })),
  Array.from({ length: Math.max(0, handSize - inHand.length) }, (_, k) => back("mini", t("alarun.web.back.hand"), `back-${k}`)));
  const cells = v.squares[s] || [];
  const fresh = new Set(recent.cells[s] || []);
  const hidden = (v.placed_this_round || [])[s] || 0;
  return h("section", {
    key: `seat-${s}`,
    class: ["al-seat-panel", acting ? "al-acting" : "", said ? "recent" : ""].filter(Boolean).join(" "),
    dataset: { seat: s }, "aria-label": t("alarun.web.seat.table", { name }),
  },
  h("div", { class: "al-seat-head" }, badge(ctx, s),
    acting ? h("span", { class: "al-turn" }, v.phase === "placement" ? t("alarun.web.seat.placing") : t("alarun.web.seat.to_act")) : null,
    v.alarun === s ? h("span", { class: "al-alarun-token", title: t("alarun.web.seat.holds_alarun") }, "Alarún") : null),
  h("div", { class: "al-line" }, h("span", { class: "al-label" }, t("alarun.web.seat.hand_count", { count: handSize })), hand),
  v.phase !== "actions" && known.length ? h("div", { class: "al-line" }, h("span", { class: "al-label" }, t("alarun.web.seat.taken")),
    h("div", { class: "al-mini-list al-known", role: "group", "aria-label": t("alarun.web.seat.taken_cards") },
      known.map((c, k) => tile(c, { size: "mini", key: `known-${k}`, note: t("alarun.web.note.taken_round") })))) : null,
  squareGrid(cells, {
    size, window: squareWindow(cells), label: t("alarun.web.seat.square", { name }),
    cellAttrs: (x, y) => (fresh.has(`${x},${y}`) ? { recent: true } : {}),
  }),
  h("div", { class: "al-line" },
    h("span", { class: "al-label" }, t("alarun.web.potions_so_far", { points: (v.potion_points || [])[s] ?? 0 })),
    hidden && v.phase === "placement" ? [
      h("span", { class: "al-label" }, t("alarun.web.seat.placed", { count: hidden })),
      h("span", { class: "al-mini-list al-pending-backs", "aria-label": t("alarun.web.seat.placed_cards", { count: hidden }) },
        backs(hidden, "mini", t("alarun.web.back.placed")))] : null),
  said ? h("p", { class: "al-said" }, said(cap(name))) : null);
}

function actionButtons(ctx) {
  const legal = ctx.legal;
  const buttons = [];
  const find = (type) => legal.find((a) => a.type === type);
  const pass = find("pass");
  if (pass) {
    const words = ctx.view.alarun == null ? t("alarun.web.button.pass_first") : t("alarun.web.button.pass");
    buttons.push(button(t("alarun.web.button.pass"), words, pass, ctx, "pass"));
  }
  const all = find("swap_all");
  if (all) buttons.push(button(t("alarun.web.button.swap_all"), t("alarun.web.button.swap_all_words"), all, ctx, "swap_all"));
  const flip = find("flip");
  if (flip) buttons.push(button(t("alarun.web.button.flip"), t("alarun.web.button.flip_words"), flip, ctx, "flip"));
  return buttons;
}

function button(text, words, action, ctx, key) {
  return h("button", withHint({ key, type: "button", class: "legal al-action", "aria-label": words, title: words,
    dataset: { key: `act-${key}` }, onclick: () => act(ctx, action) }, hintFor(ctx, [action])), text);
}

/** A key to the pictures: the seven ingredients and the seven colours with their symbols. */
function pictureKey() {
  return h("details", { class: "al-key" }, h("summary", {}, t("alarun.web.key")),
    h("ul", { class: "al-key-list" }, INGREDIENTS.map((id) =>
      h("li", { key: id }, glyph(id, "al-glyph al-key-glyph"), ingredientName(id)))),
    h("ul", { class: "al-key-list" }, COLOURS.map((c) =>
      h("li", { key: c, class: `c-${c}` }, symbol(c), colourWithSymbol(c)))));
}

/** On a phone (style.css), after each drawing: the room your square has between what lies above
 *  it and your hand, kept at the bottom of the screen above the page's action bar, so that at
 *  the top of the page the hand never covers the square (`--al-sq-room`; at least 220 px, cells
 *  big enough to tap: the page scrolls below that). Nothing without a DOM (Node's tests). */
function fitSquare(wrap) {
  if (!wrap) return;
  queueMicrotask(() => {
    const square = wrap.querySelector(".al-own .al-square");
    const hand = wrap.querySelector(".al-hand-box");
    const bar = document.getElementById("actionbar");
    if (!wrap.isConnected || !square || !hand || window.innerWidth > 720) return;
    const top = square.getBoundingClientRect().top + window.scrollY;
    const room = window.innerHeight - (bar ? bar.offsetHeight : 0) - hand.offsetHeight - top - 6;
    wrap.style.setProperty("--al-sq-room", `${Math.max(220, Math.floor(room))}px`);
  });
}

export function draw(ctx) {
  const key = JSON.stringify(ctx.legal || []);
  if (key !== legalKey) {
    legalKey = key;
    selection = null;
  }
  lastCtx = ctx;
  const v = ctx.view;
  if (!ctx.legal || ctx.mode === "replay") ctx = { ...ctx, legal: [] };
  const recent = recentMoves(ctx);
  const freshKey = (ctx.fresh || []).map((e) => e.i).join(",");
  const flash = freshKey !== lastFresh;
  lastFresh = freshKey;
  const me = ctx.seat;
  const spectator = me == null || !Array.isArray(v.hand);
  const others = [];
  for (let s = 0; s < v.players; s++) if (s !== me) others.push(s);
  // On a phone the hand box stays in sight at the bottom of the screen (style.css).
  const owner = whose(ctx);
  const soFar = (v.potion_points || [])[me] ?? 0;
  const own = spectator ? prompt(ctx) : h("section", { class: "al-own", "aria-label": t("alarun.web.your_area") },
    h("div", { class: "al-own-row" },
      h("div", { class: "al-hand-box" }, prompt(ctx),
        h("h3", { class: "al-hand-title" }, owner === null ? t("alarun.web.hand_title.you") : t("alarun.web.hand_title", { name: owner })),
        h("div", { class: "al-hand-line" }, handRow(ctx), colourCard(v.secret_colour, t("alarun.web.your_colour"))),
        h("p", { class: "al-label al-colour-hint" }, t("alarun.web.colour_hint"))),
      h("div", { class: "al-square-box" },
        h("h3", {}, owner === null ? t("alarun.web.square_title.you", { points: soFar }) : t("alarun.web.square_title", { name: owner, points: soFar })),
        ownSquare(ctx))));
  const board = h("div", { class: "al-wrap", ref: (node) => { aboveTheBar(node); fitSquare(node); } },
    h("div", { class: `al-board${flash ? " al-flash" : ""}${spectator ? " al-watching" : ""}` },
      status(ctx), pictureKey(),
      h("div", { class: `al-others ${spectator ? "al-others-all" : ""}` },
        others.map((s) => seatPanel(ctx, s, recent, spectator ? "cell" : "mini"))),
      centreRow(ctx, recent),
      own));
  const buttons = actionButtons(ctx);
  return { board, bar: buttons.length ? buttons : null };
}

// ----- the final score ----------------------------------------------------------------------

/** "row A" / "column F": a line of the square by its letter. */
function lineName(letter) {
  return "ABCDE".includes(letter) ? t("alarun.web.line.row", { line: letter }) : t("alarun.web.line.column", { line: letter });
}

function potionWords(e) {
  if (!e) return "";
  if (!e.by || e.strength < 2) return t("alarun.web.potion.single");
  if (e.by === "ingredient") {
    const id = `alarun.ingredients.${e.shared}`;
    return t("alarun.web.potion.ingredient", { strength: e.strength, ingredient: has(id) ? t(id) : String(e.shared) });
  }
  return t("alarun.web.potion.colour", { strength: e.strength, colour: colourName(e.shared) });
}

/** A seat's own thing on the score screen: "Your ..." for the viewer, else "Ann's ...". */
function ofSeat(ctx, s, yours, theirs) {
  return s === ctx.seat ? yours : theirs(realName(ctx, s));
}

function scoreSheet(ctx, s, b, lines, druid, colour, count, winner) {
  const v = ctx.view;
  const cells = v.squares[s] || [];
  const win = squareWindow(cells, true);
  // The square with the row letters and points to the right, column letters and points below;
  // hovering a line of the table lights its cells (style.css: the sheet's :has rules).
  const grid = squareGrid(cells, { size: "cell", window: win, druid: druid || "druid",
    label: ofSeat(ctx, s, t("alarun.web.sheet.square.you"), (name) => t("alarun.web.sheet.square", { name })),
    cellAttrs: (x, y, card, column, row) => ({
      data: { lines: `${"ABCDE"[row]} ${"FGHIJ"[column]}` },
      ...(x === 0 && y === 0 && druid ? { note: t("alarun.web.note.druid", { card: cardName(druid) }) } : {}),
    }) });
  const letters = "ABCDEFGHIJ";
  const points = [...(b.rows || []), ...(b.columns || [])];
  const row = (name, value, cls, extra = "") => h("tr", { class: cls }, h("th", { scope: "row" }, name),
    h("td", {}, extra), h("td", { class: `al-num ${cls}-value` }, String(value)));
  return h("section", { key: s, class: `al-sheet ${winner ? "al-winner" : ""}`, dataset: { seat: s },
    "aria-label": ofSeat(ctx, s, t("alarun.web.sheet.label.you"), (name) => t("alarun.web.sheet.label", { name })) },
  h("div", { class: "al-seat-head" }, badge(ctx, s),
    winner ? h("span", { class: "al-win-mark" }, t("alarun.web.sheet.winner")) : null),
  h("div", { class: "al-sheet-grid" }, grid,
    h("div", { class: "al-row-points", "aria-hidden": "true" },
      (b.rows || []).map((p, i) => h("span", { key: i }, `${"ABCDE"[i]} ${p}`))),
    h("div", { class: "al-col-points", "aria-hidden": "true" },
      (b.columns || []).map((p, i) => h("span", { key: i }, `${"FGHIJ"[i]} ${p}`)))),
  h("table", { class: "al-lines" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("alarun.web.sheet.line")), h("th", { scope: "col" }, t("alarun.web.sheet.potion")),
      h("th", { scope: "col" }, t("alarun.web.sheet.points")))),
    h("tbody", {}, [...letters].map((L, i) => h("tr", { key: L, dataset: { line: L } },
      h("th", { scope: "row" }, lineName(L)),
      h("td", {}, potionWords(lines[L])), h("td", { class: "al-num" }, String(points[i] ?? lines[L]?.points ?? ""))))),
    h("tfoot", {},
      row(t("alarun.web.sheet.potions"), b.potions, "al-potions"),
      row(t("alarun.card.centum_auri"), b.centum_auri, "al-centum", b.centum_auri ? t("alarun.web.sheet.centum") : t("alarun.web.sheet.no_centum")),
      h("tr", { class: "al-colour-bonus" }, h("th", { scope: "row" }, t("alarun.web.sheet.colour_bonus")),
        h("td", {}, h("span", {}, colour ? symbol(colour) : "",
          colour ? " " + (count != null ? t("alarun.web.sheet.colour_count", { colour: colourName(colour), count }) : colourName(colour)) : "")),
        h("td", { class: "al-num al-colour-bonus-value" }, String(b.colour_bonus))),
      row(t("alarun.web.sheet.total"), b.total, "al-total"))),
  h("p", { class: "al-druid-note" }, t("alarun.web.sheet.druid", { card: druid ? cardName(druid) : "—" })));
}

export function score(ctx) {
  const v = ctx.view;
  const n = v.players;
  const breakdowns = v.breakdowns || [];
  const winners = v.winners || [];
  const lines = Array.from({ length: n }, () => ({}));
  const druids = Array(n).fill(null);
  const colourCards = Array(n).fill(null);
  for (const e of ctx.log || []) {
    if (e.kind === "potion_scored" && lines[e.player]) lines[e.player][e.line] = e;
    if (e.kind === "druid_value") druids[e.player] = e.card;
    if (e.kind === "colour_bonus") colourCards[e.player] = e.cards;
  }
  for (let s = 0; s < n; s++) if (!druids[s] && breakdowns[s]) druids[s] = breakdowns[s].druid || null;
  const total = winners.length ? breakdowns[winners[0]]?.total : null;
  const points = { msg: { id: "alarun.points", args: { count: total ?? 0 } } };
  let headline;
  if (winners.length > 1) {
    // the viewer first ("You and Ann"), then the others by name
    const mine = winners.includes(ctx.seat);
    const list = [...(mine ? [t("alarun.you.start")] : []), ...winners.filter((s) => s !== ctx.seat).map((s) => cap(realName(ctx, s)))];
    headline = mine ? t("alarun.web.won.shared.you", { names: { list }, points })
      : t("alarun.web.won.shared", { names: { list }, points });
  } else if (winners.length) {
    headline = winners[0] === ctx.seat ? t("alarun.web.won.you", { points })
      : t("alarun.web.won", { name: cap(realName(ctx, winners[0])), points });
  }
  const order = [...Array(n).keys()].sort((a, b) => (v.scores[b] ?? 0) - (v.scores[a] ?? 0) || a - b);
  // the room's score screen names the winner already (the log's sentence); the replay's does not
  return h("div", { class: "al-score" },
    winners.length && ctx.mode !== "score" ? h("p", { class: "al-headline" }, headline) : null,
    // The summary: one row per seat.
    h("table", { class: "al-summary" },
      h("thead", {}, h("tr", {}, [["player", t("alarun.web.summary.player")], ["potions", t("alarun.web.sheet.potions")],
        ["centum", t("alarun.card.centum_auri")], ["colour", t("alarun.web.sheet.colour_bonus")], ["total", t("alarun.web.sheet.total")]]
        .map(([k, words]) => h("th", { key: k, scope: "col" }, words)))),
      h("tbody", {}, order.map((s) => {
        const b = breakdowns[s] || {};
        const colour = (v.secret_colours || [])[s];
        return h("tr", { key: s, dataset: { seat: s }, class: winners.includes(s) ? "al-winner" : "" },
          h("th", { scope: "row" }, badge(ctx, s), winners.includes(s) ? h("span", { class: "al-win-mark" }, " ★") : null),
          h("td", { class: "al-num" }, String(b.potions ?? "")),
          h("td", { class: "al-num" }, String(b.centum_auri ?? "")),
          h("td", { class: "al-num" }, colour ? colourCard(colour, t("alarun.web.secret_colour")) : "", ` ${b.colour_bonus ?? ""}`),
          h("td", { class: "al-num al-total-value" }, String(v.scores[s] ?? b.total ?? "")));
      }))),
    h("div", { class: "al-sheets" }, order.filter((s) => breakdowns[s]).map((s) =>
      scoreSheet(ctx, s, breakdowns[s], lines[s], druids[s], (v.secret_colours || [])[s], colourCards[s], winners.includes(s)))));
}

// ----- the moves drawer -------------------------------------------------------------------------

export function label(action, ctx) {
  switch (action.type) {
    case "swap":
      return t("alarun.web.move.swap", { give: cardName(action.give), take: cardName(action.take) });
    case "pass":
      return ctx?.view?.alarun == null ? t("alarun.web.move.pass_first") : t("alarun.web.button.pass");
    case "swap_all":
      return t("alarun.web.move.swap_all");
    case "flip":
      return t("alarun.web.move.flip");
    case "place":
      return t("alarun.web.cell.place", { card: cardName(action.card), where: whereName(action.x, action.y) });
    default:
      return JSON.stringify(action);
  }
}
