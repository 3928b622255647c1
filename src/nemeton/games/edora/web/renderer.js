/* The Druids of Edora in the browser (docs/web/edora.md).
 *
 * Draws the map (sanctuaries with their action spaces and dice, paths with their dark-forest
 * crossings and stairs, glades, portals, fire pits and their rewards, dolmens, druids), the
 * oracle's tablets, the potions, the gem supply and every player's board, from ctx.view,
 * ctx.legal and ctx.log only: no rule lives here.
 *
 * A move is made on the things it concerns. Every legal action is split into "facets", the
 * parts a person clicks (a sanctuary, a space, a die, a tablet, a potion, a gem, a row, a
 * herb, a stone); a click picks one facet, the legal actions are filtered by the facets picked
 * so far, and as soon as one action is left it is sent. Choices that have no thing on the
 * table (an emergency turn, provisions or dice, stop, skip, a reward to repeat) are buttons in
 * the shell's action bar, in the rulebook's words.
 *
 * DATA is the room's board and the components' names (the game's public data, sent once with
 * the room's description: the views carry only what changes). The components' names and texts
 * arrive as messages (ids of the game's catalogue); every word drawn here is a message too,
 * rendered in the reader's language (js/i18n.js; ids edora.* and edora.web.*).
 *
 * It exports the kit's renderer interface (docs/web.md): draw(ctx) -> {board, bar}, score(ctx)
 * and label(action, ctx); the map's SVG too is virtual nodes (js/kit.js), so the page updates
 * only what changed: a focused thing keeps the focus and the map its scroll through a redraw.
 */

import { entryParts, h, hintFor, parts, seatBadge, withHint } from "/static/js/kit.js";
import { fmtList, fmtNumber, has, language, t, tMessage, tNodes } from "/static/js/i18n.js";
import { seatColour, seatNameOf } from "/static/js/text.js";

// The game's fixed public data (ctx.components, from GET /api/rooms/ROOM: the room's own board
// and the components' names and texts, as nemeton.games.edora.public makes them); set by
// useData() at every entry point.
let DATA = null;

// Elements as virtual nodes (the kit's h); preact draws <svg> and what is inside it in the SVG
// namespace, so the map's shapes are made the same way.
const el = h;
const sv = h;
/** Class names joined, the empty ones left out. */
const cls = (...names) => names.filter(Boolean).join(" ");

// ----- names people read ---------------------------------------------------------------------

// a reward's symbol: a sign, or the word's initial in the reader's language
const REWARD_GLYPH = { VP: () => "★", KNOW: () => t("edora.web.glyph.KNOW"), FOOD: () => t("edora.web.glyph.FOOD"), DIE: () => "⚄",
                       MIST: () => t("edora.web.glyph.MIST"), SICKLE: () => t("edora.web.glyph.SICKLE") };
const glyph = (r) => (REWARD_GLYPH[r] ? REWARD_GLYPH[r]() : String(r)[0]);
const ROW_GLYPH = { SUN: "☀", MOON: "☾", STAR: "✶" };
let RUNE_FACTOR = {};
let RUNE_ORDER = [];
let HERBS = [];

/** Read the room's fixed data (again only when it is another object). */
function useData(ctx) {
  const data = ctx.components;
  if (!data || !data.board) throw new Error("the room's components (its board) did not arrive");
  if (data === DATA) return;
  DATA = data;
  const r = DATA.player_board.rune_stones;
  RUNE_FACTOR = {};
  for (const u of r.upper_times_v_minus_1) RUNE_FACTOR[u] = "×(v−1)";
  for (const [u, f] of Object.entries(r.lower)) RUNE_FACTOR[u] = f === 1 ? "×v" : `×${fmtNumber(f)}v`;
  RUNE_ORDER = [...r.upper_times_v_minus_1, ...Object.keys(r.lower)];
  HERBS = Object.keys(DATA.herb_names);
}
const DOLMEN_FILL = { A: "#d9534f", B: "#3a7bd5", C: "#e2b007", D: "#2e9e5b", E: "#8e5cc7", F: "#e67e22" };
const GLADE_FILL = ["#e3efd3", "#f3e6cc", "#d6ece6", "#f0dde8", "#dbe3f3", "#f3dfd0", "#e6f0d6", "#e6def3",
                    "#f4edc8", "#dcefef", "#efe3d3", "#e0e8d8"];

/** A component's text from the room's data: a message in the reader's language (a custom
 *  board's own text, a plain string, as it is); `fallback` when there is none. */
function said(value, fallback = "") {
  if (value && typeof value === "object" && value.id) return tMessage(value);
  return value === undefined || value === null ? fallback : String(value);
}
/** A term of the catalogue by its code (a herb, a row...), or the code itself when the
 *  catalogue has none (a custom board's row). */
const term = (prefix, code) => (has(`${prefix}.${code}`) ? t(`${prefix}.${code}`) : String(code));
const rewardGain = (r) => said(DATA.reward_gains[r], r);
const rewardLabel = (r) => said(DATA.reward_names[r], r);
const herbShort = (h) => term("edora.herb_short", h);
const herbTitle = (h) => said(DATA.herb_names[h], h);
const herbEffect = (h) => said(DATA.herb_effects[h]);
const herbName = (h) => term("edora.herb", h);        // with its article: "the forest-leap herb"
const gemName = (g) => term("edora.gem", g);          // "the prestige gem"
const rowName = (row) => term("edora.row", row);      // "SUN" (a custom board's row as it is)
const standingName = (r) => term("edora.web.standing", r);
const runeShort = (u) => t("edora.web.rune.short", { reward: said(DATA.rune_names[u], u), factor: RUNE_FACTOR[u] || "" }).trim();
const runeName = (u) => t("edora.web.rune", { rune: term("edora.rune", u), factor: RUNE_FACTOR[u] || "" }).trim();
const stepName = (step) => said(DATA.steps[step], "");

function spaceName(code) {
  if (code === "FD") return t("edora.web.space.FD");
  if (code === "TB") return t("edora.web.space.TB");
  if (code === "SS") return t("edora.space.SS");
  if (code === "RS") return t("edora.space.RS");
  let m = /^KN(\d+)$/.exec(code);
  if (m) return t("edora.space.KN", { steps: Number(m[1]) });
  m = /^SI(\d+)$/.exec(code);
  if (m) return t("edora.space.SI", { steps: Number(m[1]) });
  m = /^MI(\d+)P(\d+)$/.exec(code);
  if (m) return t("edora.space.MI", { mistletoe: { msg: { id: "edora.mistletoe", args: { count: Number(m[1]) } } }, count: Number(m[2]) });
  m = /^AM-([A-Z]+)-x(\d+)$/.exec(code);
  if (m) return t("edora.web.space.AM", { row: rowName(m[1]), times: Number(m[2]) });
  return code;
}

function spaceShort(code) {
  if (code === "FD") return t("edora.web.short.FD");
  if (code === "TB") return t("edora.web.short.TB");
  if (code === "SS") return t("edora.web.short.SS");
  if (code === "RS") return t("edora.web.short.RS");
  let m = /^KN(\d+)$/.exec(code);
  if (m) return t("edora.web.short.KN", { steps: Number(m[1]) });
  m = /^SI(\d+)$/.exec(code);
  if (m) return t("edora.web.short.SI", { steps: Number(m[1]) });
  m = /^MI(\d+)P(\d+)$/.exec(code);
  if (m) return t("edora.web.short.MI", { mistletoe: Number(m[1]), potions: Number(m[2]) });
  m = /^AM-([A-Z]+)-x(\d+)$/.exec(code);
  if (m) return `${ROW_GLYPH[m[1]] || rowName(m[1])[0]}×${fmtNumber(m[2])}`;
  return code;
}

const potionCost = (p) => Number(p[1]);
const potionText = (p) => said(DATA.potion_effects[p]);
const tabletText = (tb) => said(DATA.tablet_conditions[tb]);

/** Whether seat `s` is the person reading this page (who is "you"). */
const isYou = (ctx, s) => s === ctx.seat && ctx.mode === "play";
function seatName(ctx, s) {
  if (isYou(ctx, s)) return t("edora.you");
  return realName(ctx, s);
}
/** Message `id` about seat `s`: `id`.you when `s` is the reader, else `id` with {name}. */
function aboutSeat(ctx, id, s, args = {}) {
  return isYou(ctx, s) ? t(`${id}.you`, args) : t(id, { ...args, name: realName(ctx, s) });
}
/** Words joined with "or" as the reader's language does ("2 or leap 1"). */
function orList(items) {
  const codes = { en: "en-GB", it: "it-IT", es: "es-ES" };
  return new Intl.ListFormat(codes[language()] || "en-GB", { type: "disjunction" }).format(items.map(String));
}
function realName(ctx, s) {
  return ctx.seatName ? ctx.seatName(s) : seatNameOf(ctx.seats, s);
}
function colourOf(ctx, s) {
  return seatColour(s);
}
function badge(ctx, s) {
  return seatBadge(s, realName(ctx, s));
}

// ----- the board's geometry --------------------------------------------------------------------

/** The map to draw: the room's own board (the designed one unless the board option gave another). */
function geometry() {
  return DATA.board;
}

// ----- choosing: facets ------------------------------------------------------------------------

/** For each action type, the facets a person clicks to make it: [facet, value of the action]. */
const FACETS = {
  start: [["sanctuary", (a) => a.sanctuary]],
  move: [["sanctuary", (a) => a.to]],
  leap: [["sanctuary", (a) => a.to]],
  place: [["space", (a) => `${a.sanctuary}#${a.space}`], ["die", (a) => String(a.die)]],
  raise_die: [["placed", (a) => `${a.sanctuary}#${a.space}`]],
  take_die: [["overview", (a) => String(a.value)]],
  take_tablet: [["slot", (a) => String(a.slot)]],
  keep_tablet: [["draft", (a) => a.tablet]],
  arrange_herb: [["arrange", (a) => a.herb]],
  brew: [["potion", (a) => a.potion]],
  gem: [["gem", (a) => a.gem], ["row", (a) => a.row]],
  standing_stone: [["standing", (a) => a.stone]],
  rune_stone: [["rune", (a) => a.stone]],
  flip_herb: [["herb", (a) => a.herb]],
  take_herb: [["herb", (a) => a.herb]],
  activate_herb: [["herb", (a) => a.herb]],
};

function facetOf(action, facet) {
  for (const [name, get] of FACETS[action.type] || []) if (name === facet) return String(get(action));
  return undefined;
}

// UI-only state: the facets picked so far, for the legal actions they were picked among; the
// decision a keyboard user's focus was last brought to, and the one the map last showed.
let ui = { key: null, sel: {}, uids: {}, keyboard: false, sent: false, focused: null, shown: null };
let last = null;        // the ctx of the last drawing: a selection draws the table again with it
let inner = false;      // drawing again for a selection of ours, not for the page

class Picker {
  constructor(ctx) {
    this.ctx = ctx;
    this.live = ctx.mode !== "replay" && !ui.sent && Array.isArray(ctx.legal) && ctx.legal.length > 0;
    this.legal = this.live ? ctx.legal : [];
  }
  remaining(sel = ui.sel) {
    return this.legal.filter((a) => Object.entries(sel).every(([f, v]) => facetOf(a, f) === v));
  }
  /** The actions a click on (facet, value) would still allow (none: not clickable now). */
  options(facet, value) {
    if (!this.live || facet in ui.sel) return [];
    return this.remaining().filter((a) => facetOf(a, facet) === value);
  }
  selected(facet, value, uid) {
    const picked = ui.uids[facet];
    return ui.sel[facet] === value && (uid === undefined || picked === undefined || picked === uid);
  }
  /** Whether the picked facets leave several actions that no further click on the table tells
   *  apart (they are then offered as buttons). */
  undecided(rem) {
    return rem.length > 1 && rem.every((a) => (FACETS[a.type] || []).every(([f]) => f in ui.sel));
  }
  pick(facet, value, uid) {
    const sel = { ...ui.sel, [facet]: value };
    const rem = this.remaining(sel);
    if (rem.length === 1) {
      send(this.ctx, rem[0]);
      return;
    }
    if (rem.length === 0) return;
    ui.sel = sel;
    ui.uids = { ...ui.uids, [facet]: uid };
    redraw();
  }
  cancel() {
    ui.sel = {};
    ui.uids = {};
    redraw();
  }
}

/** Send `action`; until the shell draws again nothing is offered, so a second click cannot send
 *  a stale action (a state that does not come lets the person choose again after 4 s). */
function send(ctx, action) {
  ui.sel = {};
  ui.uids = {};
  ui.sent = true;
  const key = ui.key;
  ctx.act(action);
  if (last === ctx) redraw();     // the page did not draw again at once
  setTimeout(() => { if (ui.sent && ui.key === key) { ui.sent = false; redraw(); } }, 4000);
}

/** The table drawn again by the page (ctx.redraw) for a change of ours: a pick, a cancel. */
function redraw() {
  if (!last || !last.redraw) return;
  inner = true;
  try { last.redraw(); } finally { inner = false; }
}

/** Props that make an element a control: clickable, focusable, Enter/Space act. */
function control(onPress, ariaLabel) {
  return {
    role: "button", tabindex: "0", "aria-label": ariaLabel,
    onclick: (e) => { e.stopPropagation(); ui.keyboard = false; onPress(); },
    onkeydown: (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        e.stopPropagation();
        ui.keyboard = true;
        onPress();
      }
    },
  };
}

/** `props` of a thing wired to a facet: `.legal` when a click on it makes progress now,
 *  `.selected` when it is the picked one (a click cancels). `describe` names the thing for
 *  screen readers. */
function facetProps(props, pick, facet, value, describe, uid) {
  const out = { ...props, dataset: { ...(props.dataset || {}), facet: `${facet}:${value}` } };
  if (pick.selected(facet, value, uid) && pick.live) {
    return { ...out, class: cls(out.class, "selected"), "aria-pressed": "true",
             ...control(() => pick.cancel(), t("edora.web.cancel_choice", { thing: describe })) };
  }
  const opts = pick.options(facet, value);
  if (!opts.length) return out;
  const text = opts.length === 1 ? label(opts[0], pick.ctx) : t("edora.web.choose", { thing: describe });
  return withHint({ ...out, class: cls(out.class, "legal"), ...control(() => pick.pick(facet, value, uid), text) },
    hintFor(pick.ctx, opts));
}

/** On the map (SVG, where `h` draws no marks: kit.js hintMarks): a hinted thing's ring, inside
 *  its edge (`width` × `height`, corners `rx`), above the amber outline of a legal move; nothing
 *  when it is not hinted. */
function hintRing(props, width, height, rx) {
  if (!props["data-hint"]) return null;
  return sv("rect", { class: "ed-hint-ring", x: 3, y: 3, width: width - 6, height: height - 6, rx: Math.max(2, rx - 3),
                      "aria-hidden": "true" });
}

const DISC = 28;  // a hint's badge on the map: its rank in a disc, at 20 px (about 14 px on a desktop's map)

/** A hinted thing's badge centred at (x, y): its rank in a disc (the win chance is in the hint
 *  list and the thing's title; the map has no room for it beside a sanctuary's cost or on a
 *  space); nothing when it is not hinted. */
function hintBadge(props, x, y) {
  if (!props["data-hint"]) return null;
  return sv("g", { class: "ed-hint", transform: `translate(${x},${y})`, "aria-hidden": "true" },
    sv("rect", { x: -DISC / 2, y: -DISC / 2, width: DISC, height: DISC, rx: DISC / 2 }),
    sv("text", { y: 7 }, props["data-hint-rank"]));
}

// ----- what the others just did --------------------------------------------------------------

function recentMarks(ctx) {
  const marks = new Set();
  const me = ctx.mode === "play" ? ctx.seat : null;
  for (const e of ctx.fresh || []) {
    const who = e.seat !== null && e.seat !== undefined ? e.seat : e.player;
    if (who === me || who === undefined || who === null) continue;
    switch (e.kind) {
      case "move": case "forest_leap": marks.add(`sanctuary:${e.sanctuary}`); break;
      case "first_step": marks.add(`sanctuary:${e.sanctuary}`); break;
      case "choose_start": marks.add(`sanctuary:${e.sanctuary}`); break;
      case "place_die": case "raise_die": marks.add(`space:${e.sanctuary}#${e.space}`); break;
      case "fire_pit": marks.add(`pit:${e.pit}`); break;
      case "dolmen_link": marks.add(`dolmen:${e.colour}`); break;
      case "take_tablet": marks.add(`slot:${e.slot}`); marks.add(`tablet:${who}:${e.tablet}`); break;
      case "brew": marks.add(`potion:${e.potion}`); break;
      case "take_gem": marks.add(`amulet:${who}:${e.row}`); break;
      case "competition": marks.add(`sanctuary:${e.sanctuary}`); break;
      default: break;
    }
  }
  return marks;
}

/** `props` with the class `recent` when the others' last moves concern `key`. */
const marked = (props, marks, key) => (marks.has(key) ? { ...props, class: cls(props.class, "recent") } : props);

// ----- the map -------------------------------------------------------------------------------

const U = 128;           // grid step of the board's doubled xy grid
const T = 112;           // a sanctuary tile's side
const MARGIN = 62;

function mapView(ctx, pick, marks) {
  const view = ctx.view;
  const geo = geometry();
  const names = Object.keys(geo.sanctuaries);
  const pos = (xy) => [MARGIN + xy[0] * U, MARGIN + xy[1] * U];
  const pits = Object.entries(geo.fire_pits || {});
  const xs = [...names.map((s) => geo.sanctuaries[s].xy[0]), ...pits.map(([, p]) => p.xy[0])];
  const ys = [...names.map((s) => geo.sanctuaries[s].xy[1]), ...pits.map(([, p]) => p.xy[1])];
  const width = 2 * MARGIN + Math.max(...xs) * U;
  const height = 2 * MARGIN + Math.max(...ys) * U;
  const glades = Object.keys(geo.glades || {});
  const portals = new Set(geo.portal_glades || []);
  const ringColour = {};
  (geo.dolmen_ring || []).forEach((s, k) => { ringColour[s] = view.dolmen_ring[k]; });
  const startOf = {};
  for (const [st, s] of Object.entries(geo.start_spaces || {})) startOf[s] = st;

  // paths (under everything), bowed around a fire pit standing on their middle
  const pitAt = {};
  for (const [id, p] of pits) pitAt[p.xy.join(",")] = { id, ...p };
  const stairEdges = new Map();
  for (const [name, pair] of Object.entries(geo.stairs || {})) {
    pair.forEach(([a, b], k) => { stairEdges.set([a, b].sort().join("-"), { name, over: k === 1 }); });
  }
  const paths = [];
  const bridges = [];
  const forests = [];
  const centre = [width / 2, height / 2];
  for (const [a, b, dark] of geo.edges || []) {
    const A = geo.sanctuaries[a], B = geo.sanctuaries[b];
    if (!A || !B) continue;
    const edge = `${a}-${b}`;
    const [x1, y1] = pos(A.xy), [x2, y2] = pos(B.xy);
    const mid = [(A.xy[0] + B.xy[0]) / 2, (A.xy[1] + B.xy[1]) / 2];
    const pit = pitAt[mid.join(",")];
    let d = `M${x1},${y1} L${x2},${y2}`;
    let apex = [(x1 + x2) / 2, (y1 + y2) / 2];
    if (pit) {
      // bow away from the pit's other neighbours (or from the middle of the map)
      const others = pit.around.filter((s) => s !== a && s !== b && geo.sanctuaries[s]).map((s) => pos(geo.sanctuaries[s].xy));
      const from = others.length ? [others.reduce((t, p) => t + p[0], 0) / others.length,
                                    others.reduce((t, p) => t + p[1], 0) / others.length] : centre;
      let nx = -(y2 - y1), ny = x2 - x1;
      const len = Math.hypot(nx, ny) || 1;
      nx /= len; ny /= len;
      if ((from[0] - apex[0]) * nx + (from[1] - apex[1]) * ny > 0) { nx = -nx; ny = -ny; }
      const bow = 48;
      apex = [apex[0] + nx * bow, apex[1] + ny * bow];
      d = `M${x1},${y1} Q${apex[0] + nx * bow},${apex[1] + ny * bow} ${x2},${y2}`;
    }
    const stair = stairEdges.get([a, b].sort().join("-"));
    const group = stair && stair.over ? bridges : paths;
    if (stair && stair.over) group.push(sv("path", { key: `${edge}-edge`, d, class: "ed-path-edge" }));
    group.push(sv("path", { key: edge, d, class: "ed-path" }));
    for (let k = 1; k <= dark; k++) {
      // on a stair path the middle is the crossing itself: the forest goes nearer the first end
      const t = stair ? (0.3 * k) / dark : k / (dark + 1);
      const px = pit ? (1 - t) * (1 - t) * x1 + 2 * t * (1 - t) * (2 * apex[0] - (x1 + x2) / 2) + t * t * x2
                     : x1 + (x2 - x1) * t;
      const py = pit ? (1 - t) * (1 - t) * y1 + 2 * t * (1 - t) * (2 * apex[1] - (y1 + y2) / 2) + t * t * y2
                     : y1 + (y2 - y1) * t;
      forests.push(sv("g", { key: `${edge}-${k}`, class: "ed-dark", transform: `translate(${px},${py})` },
        sv("circle", { r: 15 }),
        sv("path", { d: "M0,-11 L8,4 L3,4 L3,9 L-3,9 L-3,4 L-8,4 Z", class: "ed-tree" })));
    }
    if (stair && stair.over) {
      bridges.push(sv("text", { key: `${edge}-stairs`, x: (x1 + x2) / 2 + 14, y: (y1 + y2) / 2 - 10, class: "ed-stair-label" },
                      t("edora.web.stairs", { name: stair.name })));
    }
  }

  // fire pits
  const firePits = pits.map(([id, p]) => {
    const [cx, cy] = pos(p.xy);
    const owner = view.fire_pits[id];
    const closed = owner !== undefined && owner >= 0;
    const rewards = p.rewards.map((r) => rewardGain(r)).join(", ");
    const desc = closed ? aboutSeat(ctx, "edora.web.pit.closed", owner, { pit: id })
                        : t("edora.web.pit.open", { pit: id, sanctuaries: p.around.join(", "), rewards });
    const n = p.rewards.length;
    return sv("g", marked({ key: `pit-${id}`, class: `ed-pit${closed ? " closed" : ""}`, transform: `translate(${cx},${cy})`,
                            role: "img", "aria-label": desc, dataset: { pit: id, owner: String(closed ? owner : -1) } }, marks, `pit:${id}`),
      sv("title", {}, desc),
      sv("circle", { r: 31, class: "ed-pit-ring", style: closed ? `--seat:${colourOf(ctx, owner).css}` : null }),
      closed ? sv("text", { class: "ed-pit-owner", y: 6 }, colourOf(ctx, owner).symbol)
        : p.rewards.map((r, k) => {
          const angle = (2 * Math.PI * k) / n - Math.PI / 2 + (n === 2 ? Math.PI / 2 : n === 4 ? Math.PI / 4 : 0);
          const rr = n === 1 ? 0 : 15;
          return rewardToken(r, Math.cos(angle) * rr, Math.sin(angle) * rr, 10, k);
        }));
  });

  // sanctuaries
  const byId = {};
  for (const s of view.sanctuaries) byId[s.id] = s;
  const figures = {};
  view.boards.forEach((b, p) => { if (b.figure) (figures[b.figure] ||= []).push(p); });
  const tiles = names.map((id) => {
    const info = geo.sanctuaries[id];
    const state = byId[id] || { dice: [], standing_stones: 0, rune_stones: 0 };
    const [cx, cy] = pos(info.xy);
    return sanctuaryTile(ctx, pick, marks, id, info, state, cx, cy, {
      glade: info.glade, fill: GLADE_FILL[Math.max(0, glades.indexOf(info.glade)) % GLADE_FILL.length],
      portal: portals.has(info.glade), dolmen: ringColour[id], start: startOf[id], figures: figures[id] || [],
    });
  });
  // the map keeps its scroll across drawings (the same element); see afterDraw
  return el("div", { class: "ed-map-wrap" },
    sv("svg", { class: "ed-map", viewBox: `0 0 ${width} ${height}`, width, height, role: "group",
                "aria-label": t("edora.web.map") },
      sv("title", {}, t("edora.web.map")),
      sv("g", { class: "ed-paths", "aria-hidden": "true" }, paths),
      sv("g", { class: "ed-paths", "aria-hidden": "true" }, bridges),
      sv("g", { class: "ed-forests", "aria-hidden": "true" }, forests),
      firePits, tiles));
}

/** After the page has drawn the table (a ref on it; no DOM in Node's tests): the layout's
 *  heights, and on a new decision its first highlighted thing in sight and, for a keyboard
 *  user, in focus. Focus and scroll otherwise stay where the person left them: the page
 *  updates only what changed. */
function afterDraw(table, pick) {
  if (!table || !table.isConnected) return;
  // phones: the own area sits above the sticky action bar; wider: the map and the column
  // take the screen's height under the top bar, above the action bar (style.css's --ed-h)
  const bar = document.getElementById("actionbar");
  if (bar) table.style.setProperty("--ed-bar-h", `${bar.offsetHeight}px`);
  const top = Math.round(table.getBoundingClientRect().top + window.scrollY);
  table.style.setProperty("--ed-offset", `${Math.max(0, top) + 14}px`);
  if (!pick.live) return;
  const decision = ui.key + JSON.stringify(ui.sel);
  if (ui.shown !== decision) {
    ui.shown = decision;
    // the panel the decision needs shows its first highlighted thing
    const focus = table.querySelector(".ed-column > .ed-focus");
    const first = focus && focus.querySelector(".legal");
    if (first && focus.scrollHeight > focus.clientHeight) {
      focus.scrollTop += first.getBoundingClientRect().top - focus.getBoundingClientRect().top - 30;
    }
    placeMap(table);
  }
  // a keyboard user's next decision starts on its first highlighted thing
  if (ui.keyboard && ui.focused !== ui.key) {
    ui.focused = ui.key;
    const here = document.activeElement;
    if (!(here && here.isConnected && here !== document.body && here.matches(".legal, .selected"))) {
      const target = table.querySelector(".selected") || table.querySelector(".legal") || (bar && bar.querySelector(".legal"));
      if (target) target.focus({ preventScroll: false });
    }
  }
}

/** On phones (the map larger than the screen): on a new decision whose targets are all out
 *  of sight, bring the first one into the middle. */
function placeMap(table) {
  const wrap = table.querySelector(".ed-map-wrap");
  if (!wrap || !window.matchMedia("(max-width: 480px)").matches) return;  // elsewhere the map fits
  if (wrap.scrollWidth <= wrap.clientWidth && wrap.scrollHeight <= wrap.clientHeight) return;
  const targets = [...wrap.querySelectorAll(".legal, .selected")];
  if (!targets.length) return;
  const box = wrap.getBoundingClientRect();
  const inSight = (r) => r.right > box.left && r.left < box.right && r.bottom > box.top && r.top < box.bottom;
  if (targets.some((t) => inSight(t.getBoundingClientRect()))) return;
  const r = targets[0].getBoundingClientRect();
  wrap.scrollLeft += r.left + r.width / 2 - (box.left + box.width / 2);
  wrap.scrollTop += r.top + r.height / 2 - (box.top + box.height / 2);
}

function rewardToken(r, x, y, radius = 11, key = undefined) {
  return sv("g", { key, class: `ed-reward r-${r}`, transform: `translate(${x},${y})` },
    sv("title", {}, rewardGain(r)),
    sv("circle", { r: radius }),
    sv("text", { y: 5 }, glyph(r)));
}

function sanctuaryTile(ctx, pick, marks, id, info, state, cx, cy, extra) {
  const n = ctx.view.players;
  const moves = pick.options("sanctuary", id);
  const starting = moves.length > 0 && moves[0].type === "start";
  const costs = starting ? [] : moves.map((a) => (a.type === "leap" ? t("edora.web.cost.leap") : fmtNumber(a.cost)));
  const dolmenOwner = extra.dolmen ? ctx.view.dolmen_owner[extra.dolmen] : -1;
  const words = [t("edora.web.tile.sanctuary", { sanctuary: id }),
                 extra.glade && t(extra.portal ? "edora.web.tile.glade_portal" : "edora.web.tile.glade", { glade: extra.glade }),
                 extra.start && t("edora.web.tile.start", { start: extra.start }),
                 extra.dolmen && (dolmenOwner >= 0 ? aboutSeat(ctx, "edora.web.tile.dolmen_linked", dolmenOwner, { colour: extra.dolmen })
                                                   : t("edora.web.tile.dolmen", { colour: extra.dolmen })),
                 state.standing_stones ? t("edora.web.tile.standing_stones", { count: state.standing_stones }) : "",
                 state.rune_stones ? t("edora.web.tile.rune_stones", { count: state.rune_stones }) : "",
                 extra.figures.length ? t("edora.web.tile.druids", { names: extra.figures.map((p) => seatName(ctx, p)).join(", ") }) : ""]
    .filter(Boolean).join(", ");
  // spaces
  const spaces = (info.spaces || []).slice(0, n);
  const w = (T - 12) / 2, h = 30;
  const cells = spaces.map((code, i) => {
    const x = 4 + (i % 2) * (w + 4), y = 24 + Math.floor(i / 2) * (h + 4);
    return spaceCell(ctx, pick, marks, id, i, code, state.dice[i], x, y, w, h);
  });
  // footer: start space, dolmen, stones; druids on the right
  const footer = [];
  let fx = 6;
  const fy = T - 12;
  if (extra.start) {
    footer.push(sv("text", { key: "start", x: fx, y: fy + 5, class: "ed-start" }, extra.start));
    fx += 32;
  }
  if (extra.dolmen) {
    const owned = dolmenOwner >= 0;
    footer.push(sv("g", marked({ key: "dolmen", class: `ed-dolmen${owned ? " owned" : ""}`, transform: `translate(${fx},${fy - 9})`,
                                 dataset: { dolmen: extra.dolmen } }, marks, `dolmen:${extra.dolmen}`),
      sv("title", {}, owned ? aboutSeat(ctx, "edora.web.dolmen.linked", dolmenOwner, { colour: extra.dolmen })
                             : t("edora.web.dolmen", { colour: extra.dolmen })),
      sv("path", { d: "M0,18 L2,4 Q10,-2 18,4 L20,18 Z", style: `fill:${DOLMEN_FILL[extra.dolmen] || "#999"}` }),
      sv("text", { x: 10, y: 16 }, extra.dolmen),
      owned ? sv("text", { x: 27, y: 16, class: "ed-dolmen-owner",
                           style: `fill:${colourOf(ctx, dolmenOwner).css}` }, colourOf(ctx, dolmenOwner).symbol) : null));
    fx += owned ? 40 : 26;
  }
  const stones = [];
  if (state.standing_stones) stones.push(`▲${state.standing_stones}`);
  if (state.rune_stones) stones.push(`◆${state.rune_stones}`);
  if (stones.length) footer.push(sv("text", { key: "stones", x: fx, y: fy + 5, class: "ed-stones" }, stones.join(" ")));
  extra.figures.forEach((p, k) => {
    const c = colourOf(ctx, p);
    footer.push(sv("g", { key: `druid-${p}`, class: "ed-druid", transform: `translate(${T - 12 - k * 19},${fy - 2})`, dataset: { seat: String(p) } },
      sv("title", {}, isYou(ctx, p) ? t("edora.web.druid.you") : t("edora.web.druid", { name: realName(ctx, p) })),
      sv("path", { d: "M-8,11 Q-8,-2 -4,-3 A6,6 0 1 1 4,-3 Q8,-2 8,11 Z", style: `fill:${c.css}` }),
      sv("text", { y: 9 }, c.symbol)));
  });
  const thing = costs.length ? t("edora.web.thing.sanctuary_cost", { sanctuary: id, costs: orList(costs) })
                             : t("edora.web.thing.sanctuary", { sanctuary: id });
  const props = facetProps({ key: `sanctuary-${id}`, class: "ed-sanctuary", transform: `translate(${cx - T / 2},${cy - T / 2})`,
                             dataset: { sanctuary: id } }, pick, "sanctuary", id, thing);
  // on the top edge, centred together: the cost of going there and a hint's badge beside it
  const cost = starting ? t("edora.web.cost.start") : costs.length ? t("edora.web.cost", { costs: costs.join(" / ") }) : "";
  const costWide = cost ? 10 + cost.length * 8 : 0;
  const hintWide = props["data-hint"] ? DISC : 0;
  const left = T / 2 - (costWide + hintWide + (cost && hintWide ? 4 : 0)) / 2;
  if (cost) {
    footer.push(sv("g", { key: "cost", class: "ed-cost", transform: `translate(${left + costWide / 2},${-2})` },
      sv("rect", { x: -costWide / 2, y: -12, width: costWide, height: 22, rx: 11 }),
      sv("text", { y: 4 }, cost)));
  }
  return sv("g", marked(props, marks, `sanctuary:${id}`),
    sv("title", {}, words),
    sv("rect", { class: `ed-tile${extra.portal ? " portal" : ""}`, width: T, height: T, rx: 12,
                 style: `fill:${extra.fill}` }),
    sv("text", { x: 8, y: 18, class: "ed-sid" }, id),
    extra.glade ? sv("text", { x: T - 7, y: 18, class: "ed-glade" }, `${extra.portal ? "◎" : ""}${extra.glade}`) : null,
    cells, footer, hintRing(props, T, T, 12), hintBadge(props, T - left - hintWide / 2, -4));
}

function spaceCell(ctx, pick, marks, sid, i, code, die, x, y, w, h) {
  const key = `${sid}#${i + 1}`;
  const held = die ? aboutSeat(ctx, "edora.web.space.held", die[0], { value: die[1] }) : t("edora.web.space.free");
  const base = { key: `space-${i}`, class: `ed-space${die ? " taken" : ""}`, transform: `translate(${x},${y})`,
                 dataset: die ? { space: key, die: `${die[0]}:${die[1]}` } : { space: key } };
  const c = die ? colourOf(ctx, die[0]) : null;
  const props = die ? facetProps(base, pick, "placed", key, t("edora.web.thing.placed", { value: die[1], sanctuary: sid, number: i + 1 }))
    : facetProps(base, pick, "space", key, t("edora.web.thing.space", { sanctuary: sid, number: i + 1, space: spaceName(code) }));
  return sv("g", marked(props, marks, `space:${key}`),
    sv("title", {}, t("edora.web.space.title", { sanctuary: sid, number: i + 1, space: spaceName(code), held })),
    sv("rect", { width: w, height: h, rx: 6 }),
    die ? [sv("rect", { class: "ed-die", x: 3, y: 2, width: 26, height: 26, rx: 5, style: `fill:${c.css}` }),
           sv("text", { class: "ed-die-value", x: 16, y: 21 }, String(die[1])),
           sv("text", { class: "ed-die-owner", x: 39, y: 21 }, c.symbol)]
      : sv("text", { class: "ed-space-code", x: w / 2, y: 20 }, spaceShort(code)),
    hintRing(props, w, h, 6), hintBadge(props, w - 2, 2));
}

// ----- the oracle, the potions, the gems ---------------------------------------------------------

/** A tablet's card: its props (`props`: key, facet...) merged into the card's own. */
function tabletCard(tb, extraClass = "", props = {}) {
  return el("div", { ...props, class: cls("card tablet", extraClass, props.class), dataset: { card: tb, ...(props.dataset || {}) },
                     title: `${tb}: ${tabletText(tb)}` },
    el("b", {}, tb), el("span", { class: "ed-cond" }, tabletText(tb)));
}

function oracle(ctx, pick, marks) {
  const v = ctx.view;
  const sides = [];
  for (let side = 0; side < 6; side++) {
    const a = v.oracle_stones[side], b = v.oracle_stones[(side + 1) % 6];
    const slots = [2 * side, 2 * side + 1].map((slot) => {
      const tb = v.oracle_slots[slot];
      if (!tb) return el("div", { key: `slot-${slot}`, class: "card empty" }, t("edora.web.empty"));
      const props = facetProps({ key: `slot-${slot}` }, pick, "slot", String(slot), t("edora.web.thing.tablet", { tablet: tb, condition: tabletText(tb) }));
      return tabletCard(tb, "", marked(props, marks, `slot:${slot}`));
    });
    sides.push(el("div", { key: side, class: "ed-side" },
      // sides are numbered from 0, as the log names them
      el("div", { class: "ed-side-head", title: t("edora.web.oracle.side_title", { side, first: rewardGain(a), second: rewardGain(b) }) },
        t("edora.web.oracle.side", { side }), " ", rewardChip(a), " + ", rewardChip(b)),
      slots));
  }
  const deck = el("div", { class: "ed-deck" },
    el("div", { class: "card back", "aria-label": t("edora.web.deck", { count: v.deck_size }) }, String(v.deck_size)),
    el("span", {}, t("edora.web.deck", { count: v.deck_size })));
  const known = (v.deck_known || []).length
    ? el("div", { class: "ed-known" }, t("edora.web.deck.known"), " ",
         v.deck_known.map(([k, tb]) => el("span", { key: k, class: "card tablet mini", dataset: { card: tb },
                                                    title: t("edora.web.deck.position", { tablet: tb, position: k + 1 }) }, tb)))
    : null;
  return el("section", { key: "oracle", class: "ed-panel ed-oracle", "aria-label": t("edora.web.oracle.label") },
    el("h3", {}, t("edora.web.oracle")), el("div", { class: "ed-sides" }, sides), deck, known);
}

function rewardChip(r) {
  return el("span", { class: `ed-chip r-${r}`, title: rewardGain(r) },
    el("span", { class: "ed-glyph", "aria-hidden": "true" }, glyph(r)), " ", rewardLabel(r));
}

function potions(ctx, pick, marks) {
  const left = ctx.view.potions_left || [];
  const cards = left.map((p) => {
    const props = facetProps({ key: p, class: "card potion", dataset: { card: p }, title: `${p}: ${potionText(p)}` },
                             pick, "potion", p, t("edora.web.thing.potion", { potion: p }));
    return el("div", marked(props, marks, `potion:${p}`),
      el("b", {}, p), el("span", { class: "ed-cost-m" }, t("edora.web.potion.cost", { count: potionCost(p) })),
      el("span", { class: "ed-cond" }, potionText(p)));
  });
  return el("section", { key: "potions", class: "ed-panel ed-potions", "aria-label": t("edora.web.potions.label") },
    el("h3", {}, t("edora.web.potions", { count: left.length })), el("div", { class: "ed-cards" }, cards));
}

function gems(ctx, pick) {
  const left = ctx.view.gems_left || {};
  const items = Object.entries(left).map(([g, count]) =>
    el("div", facetProps({ key: g, class: "ed-gem" }, pick, "gem", g, gemName(g)),
      rewardChip(g), el("span", { class: "ed-count" }, `×${fmtNumber(count)}`)));
  return el("section", { key: "gems", class: "ed-panel ed-gems", "aria-label": t("edora.web.gems") }, el("h3", {}, t("edora.web.gems")),
    el("div", { class: "ed-gem-row" }, items));
}

function dolmenPanel(ctx) {
  const v = ctx.view;
  const rows = Object.entries(v.dolmen_owner || {}).map(([c, owner]) =>
    el("span", { key: c, class: "ed-dolmen-chip", style: `--dolmen:${DOLMEN_FILL[c] || "#999"}` },
      owner >= 0 ? aboutSeat(ctx, "edora.web.dolmens.linked", owner, { colour: c }) : t("edora.web.dolmens.open", { colour: c })));
  return el("section", { key: "dolmens", class: "ed-panel", "aria-label": t("edora.web.dolmens") },
    el("h3", {}, t("edora.web.dolmens.title", { links: v.links })), el("div", { class: "ed-dolmen-list" }, rows));
}

function legend() {
  return el("details", { key: "key", class: "ed-panel ed-legend" }, el("summary", {}, t("edora.web.key")),
    el("ul", {},
      Object.keys(REWARD_GLYPH).map((r) => el("li", { key: r }, rewardChip(r), " ", rewardGain(r))),
      el("li", { key: "spaces" }, t("edora.web.key.spaces")),
      el("li", { key: "map" }, t("edora.web.key.map"))));
}

// ----- the players' boards -------------------------------------------------------------------

/** A die of a board (props: key, facet...). */
function dieFace(value, kind, props = {}) {
  return el("div", { ...props, class: cls(`ed-pip ${kind}`, props.class), title: t("edora.web.die_showing", { value }) }, String(value));
}

/** A track of the own board: `kind` "knowledge" or "sickle" (its words: edora.web.track.*). */
function track(kind, pos, end, marksAt, seatCss) {
  const cells = [];
  for (let k = 0; k <= end; k++) {
    const here = Math.min(pos, end) === k;
    const [short, words] = marksAt[k] || [null, null];
    cells.push(el("span", { key: k, class: `ed-cell${here ? " here" : ""}${short ? " marked" : ""}`,
                            style: here ? `--seat:${seatCss}` : null, title: words ? `${k}: ${words}` : String(k) },
      here ? "●" : short || String(k)));
  }
  const words = kind === "knowledge" ? [t("edora.web.track.knowledge.label", { position: pos }), t("edora.web.track.knowledge", { position: pos })]
    : [t("edora.web.track.sickle.label", { position: pos }), t("edora.web.track.sickle", { position: pos })];
  return el("div", { class: "ed-track", "aria-label": words[0] },
    el("span", { class: "ed-track-name" }, words[1]), cells);
}

function multiplierOf(k) {
  let m = 0;
  for (const [from, mult] of Object.entries(DATA.player_board.knowledge_track.multiplier_from)) if (k >= +from) m = mult;
  return m;
}

function herbCard(herb, state, pick, facet = "herb", extra = "", key = herb) {
  if (!herb) return el("div", { key, class: "card back herb", title: t("edora.web.herb.face_down") }, "?");
  const where = { board: () => t("edora.web.herb.board"), active: () => t("edora.web.herb.active"),
                  inactive: () => t("edora.web.herb.inactive") }[state];
  const title = where ? t("edora.web.herb.title", { name: herbTitle(herb), effect: herbEffect(herb), where: where() })
    : `${herbTitle(herb)}: ${herbEffect(herb)}`;
  const props = facetProps({ key, class: cls("card herb", state, extra), dataset: { card: herb }, title },
                           pick, facet, herb, t("edora.web.thing.herb", { herb: herbName(herb), effect: herbEffect(herb) }));
  return el("div", props, herbShort(herb), state === "inactive" ? el("span", { class: "ed-down" }, " ", t("edora.web.herb.down")) : null);
}

function playerBoard(ctx, pick, marks, p, own) {
  const v = ctx.view;
  const b = v.boards[p];
  const c = colourOf(ctx, p);
  const pb = DATA.player_board;
  const mine = pick.live && own ? pick : idle;
  const facts = el("div", { class: "ed-facts" },
    fact(t("edora.web.fact.prestige"), fmtNumber(b.prestige), "★"), fact(t("edora.web.fact.provisions"), fmtNumber(b.provisions)),
    fact(t("edora.web.fact.mistletoe"), fmtNumber(b.mistletoe)),
    fact(t("edora.web.fact.knowledge"), `${fmtNumber(b.knowledge)} (×${fmtNumber(multiplierOf(b.knowledge))})`),
    fact(t("edora.web.fact.sickle"), fmtNumber(b.sickle)), fact(t("edora.web.fact.placed"), `${fmtNumber(b.placed)}/13`),
    fact(t("edora.web.fact.dolmens"), b.dolmens + b.beige_dolmens
      ? t("edora.web.fact.dolmens_beige", { dolmens: b.dolmens, beige: b.beige_dolmens }) : fmtNumber(0)));
  const reserve = b.reserve.map((d, k) => dieFace(d, "reserve",
    facetProps({ key: `r${k}` }, mine, "die", String(d), t("edora.web.thing.reserve_die", { value: d }), `r${k}`)));
  const overview = b.overview.map((d, k) => dieFace(d, "overview",
    facetProps({ key: `o${k}` }, mine, "overview", String(d), t("edora.web.thing.overview_die", { value: d }), `o${k}`)));
  const noDice = () => el("span", { class: "ed-none" }, t("edora.web.none.dice"));
  const noHerbs = () => el("span", { class: "ed-none" }, t("edora.web.none.herbs"));
  const dice = el("div", { class: "ed-dice" },
    el("div", { class: "ed-dice-group" }, el("span", { class: "ed-label" }, t("edora.web.reserve", { count: b.reserve.length })), reserve.length ? reserve : noDice()),
    el("div", { class: "ed-dice-group" }, el("span", { class: "ed-label" }, t("edora.web.overview", { count: b.overview.length })), overview.length ? overview : noDice()));

  // the sickle track's herb pairs, then active and face-down herbs
  const pairs = pb.sickle_track.herb_pairs_at.map((at, k) => {
    const circle = b.herbs.slice(2 * k, 2 * k + 2);
    const onTrack = circle.filter((herb) => herb === null || b.herb_state[herb] === "board");
    return el("div", { key: at, class: `ed-pair${b.sickle >= at ? " reached" : ""}` },
      el("span", { class: "ed-label" }, t("edora.web.pair.at", { position: at })),
      onTrack.length ? onTrack.map((herb, j) => herbCard(herb, "board", mine, "herb", "", herb || `down-${j}`))
        : el("span", { class: "ed-none" }, t("edora.web.pair.released")));
  });
  const up = HERBS.filter((herb) => b.herb_state[herb] === "active");
  const down = HERBS.filter((herb) => b.herb_state[herb] === "inactive");
  const laid = new Set(b.herbs.filter(Boolean));
  const tray = own && b.arranged < HERBS.length && b.herbs.some((herb) => herb === null)
    ? el("div", { class: "ed-row ed-tray" }, el("span", { class: "ed-label" }, t("edora.web.tray", { circle: b.arranged + 1 })),
      HERBS.filter((herb) => !laid.has(herb)).map((herb) => herbCard(herb, "tray", mine, "arrange")))
    : null;
  const herbs = el("div", { class: "ed-herbs" },
    el("div", { class: "ed-row" }, el("span", { class: "ed-label" }, t("edora.web.herbs.track")), el("div", { class: "ed-pairs" }, pairs)),
    el("div", { class: "ed-row" }, el("span", { class: "ed-label" }, t("edora.web.herbs.active")),
      up.length ? up.map((herb) => herbCard(herb, "active", mine)) : noHerbs()),
    el("div", { class: "ed-row" }, el("span", { class: "ed-label" }, t("edora.web.herbs.inactive")),
      down.length ? down.map((herb) => herbCard(herb, "inactive", mine)) : noHerbs()),
    tray);

  const standing = pb.standing_stone_row.map((r) => {
    const placed = b.standing_stones.includes(r);
    return el("div", facetProps({ key: r, class: `ed-stone${placed ? " placed" : ""}`,
                                  title: t(placed ? "edora.web.stone.placed" : "edora.web.stone.here", { reward: rewardLabel(r) }) },
                                mine, "standing", r, standingName(r)),
      el("span", { class: `ed-glyph r-${r}` }, glyph(r)), " ", placed ? t("edora.web.stone.uncovered") : "▲");
  });
  const runes = RUNE_ORDER.map((u) => {
    const placed = b.rune_stones.includes(u);
    return el("div", facetProps({ key: u, class: `ed-stone rune${placed ? " placed" : ""}`, title: runeName(u) },
                                mine, "rune", u, runeName(u)),
      runeShort(u), placed ? " ✓" : "");
  });
  const rows = pb.amulet_rows.map((row, r) => {
    const slots = [b.amulet[2 * r], b.amulet[2 * r + 1]].map((g, k) =>
      g ? el("span", { key: k, class: "ed-slot" }, rewardChip(g)) : el("span", { key: k, class: "ed-slot empty" }, t("edora.web.empty")));
    const props = facetProps({ key: row, class: "ed-amulet-row" }, mine, "row", row, t("edora.web.thing.row", { row: rowName(row) }));
    return el("div", marked(props, marks, `amulet:${p}:${row}`),
      el("span", { class: "ed-label" }, `${ROW_GLYPH[row] || ""} ${rowName(row)}`), slots);
  });
  const tablets = b.tablets.map((tb) => tabletCard(tb, "", marked({ key: tb }, marks, `tablet:${p}:${tb}`)));
  const potionsOwned = b.potions.map((k) => el("div", { key: k, class: "card potion mini", dataset: { card: k },
                                                        title: `${k}: ${potionText(k)}` }, k));
  let draft = null;
  if (own && v.draft_hand) {
    draft = el("div", { class: "ed-row ed-draft" }, el("span", { class: "ed-label" }, t("edora.web.draft")),
      v.draft_hand.map((tb) => tabletCard(tb, "", facetProps({ key: tb }, mine, "draft", tb,
                                                             t("edora.web.thing.tablet", { tablet: tb, condition: tabletText(tb) })))));
  } else if (!own && v.draft_hand_size && drafting(v) === p) {
    draft = el("div", { class: "ed-row ed-draft" }, el("span", { class: "ed-label" }, t("edora.web.drafting")),
      Array.from({ length: v.draft_hand_size }, (_, k) => el("div", { key: k, class: "card back tablet" }, "?")));
  }

  const acting = v.acting.includes(p) && !v.terminal;
  return el("section", { key: `board-${p}`, class: `ed-board${own ? " own" : " other"}${acting ? " acting" : ""}`, dataset: { seat: String(p) },
                         style: `--seat:${c.css}`, "aria-label": own ? t("edora.web.board.yours") : t("edora.web.board.of", { name: realName(ctx, p) }) },
    el("header", { class: "ed-board-head" }, badge(ctx, p), own ? el("span", { class: "ed-you" }, t("edora.web.board.your_tag")) : null,
       acting ? el("span", { class: "ed-to-act" }, t("edora.web.board.to_act")) : null,
       v.start_player === p ? el("span", { class: "ed-tag" }, t("edora.web.board.start_player")) : null,
       b.figure ? el("span", { class: "ed-tag" }, t("edora.web.board.druid", { sanctuary: b.figure })) : null),
    own ? el("p", { class: "ed-own-prompt" }, shortPrompt(ctx, pick)) : null,
    facts, dice, draft,
    own ? el("div", { class: "ed-tracks" },
      track("knowledge", b.knowledge, pb.knowledge_track.end,
            Object.fromEntries(Object.entries(pb.knowledge_track.multiplier_from).filter(([k]) => +k > 0)
              .map(([k, m]) => [k, [`×${fmtNumber(m)}`, t("edora.web.track.multiplier", { multiplier: m })]])),
            c.css),
      track("sickle", b.sickle, pb.sickle_track.end,
            Object.fromEntries(pb.sickle_track.herb_pairs_at.map((at) => [at, ["✿", t("edora.web.track.pair")]])),
            c.css)) : null,
    herbs,
    el("div", { class: "ed-row" }, el("span", { class: "ed-label" }, t("edora.web.board.standing")), el("div", { class: "ed-stones-row" }, standing)),
    el("div", { class: "ed-row" }, el("span", { class: "ed-label" }, t("edora.web.board.runes")), el("div", { class: "ed-stones-row" }, runes)),
    el("div", { class: "ed-amulet" }, el("span", { class: "ed-label" }, t("edora.web.board.amulet")), rows),
    el("div", { class: "ed-row" }, el("span", { class: "ed-label" }, t("edora.web.board.tablets")),
       el("div", { class: "ed-cards ed-tablets" }, tablets.length ? tablets : el("span", { class: "ed-none" }, t("edora.web.none.tablets")))),
    el("div", { class: "ed-row" }, el("span", { class: "ed-label" }, t("edora.web.board.potions")),
       el("div", { class: "ed-cards ed-owned-potions" }, potionsOwned.length ? potionsOwned : el("span", { class: "ed-none" }, t("edora.web.none.potions")))));
}

const idle = { live: false, legal: [], options: () => [], selected: () => false };

function fact(name, value, glyph) {
  return el("span", { class: "ed-fact" }, el("span", { class: "ed-label" }, name), " ",
    el("b", {}, glyph ? `${value} ${glyph}` : String(value)));
}

/** The seat drafting now (V1), from the stack's top, or -1. */
function drafting(view) {
  const top = view.stack && view.stack.length ? view.stack[view.stack.length - 1] : null;
  return top && top[0] === 1 ? top[1] : -1;
}

// ----- status and action bar -------------------------------------------------------------------

// each decision's words (its step's number -> the message); literal ids, so the catalogue
// tools see them
const PROMPTS = {
  0: () => t("edora.web.prompt.0"), 1: () => t("edora.web.prompt.1"), 2: () => t("edora.web.prompt.2"),
  3: () => t("edora.web.prompt.3"), 4: () => t("edora.web.prompt.4"), 5: () => t("edora.web.prompt.5"),
  6: () => t("edora.web.prompt.6"), 7: () => t("edora.web.prompt.7"), 8: () => t("edora.web.prompt.8"),
  9: () => t("edora.web.prompt.9"), 10: () => t("edora.web.prompt.10"), 11: () => t("edora.web.prompt.11"),
  12: () => t("edora.web.prompt.12"), 13: () => t("edora.web.prompt.13"), 14: () => t("edora.web.prompt.14"),
  15: () => t("edora.web.prompt.15"), 16: () => t("edora.web.prompt.16"), 17: () => t("edora.web.prompt.17"),
};

const SHORT = {
  0: () => t("edora.web.short_prompt.0"), 1: () => t("edora.web.short_prompt.1"), 2: () => t("edora.web.short_prompt.2"),
  3: () => t("edora.web.short_prompt.3"), 4: () => t("edora.web.short_prompt.4"), 5: () => t("edora.web.short_prompt.5"),
  6: () => t("edora.web.short_prompt.6"), 7: () => t("edora.web.short_prompt.7"), 8: () => t("edora.web.short_prompt.8"),
  9: () => t("edora.web.short_prompt.9"), 10: () => t("edora.web.short_prompt.10"), 11: () => t("edora.web.short_prompt.11"),
  12: () => t("edora.web.short_prompt.12"), 13: () => t("edora.web.short_prompt.13"), 14: () => t("edora.web.short_prompt.14"),
  15: () => t("edora.web.short_prompt.15"), 16: () => t("edora.web.short_prompt.16"), 17: () => t("edora.web.short_prompt.17"),
};

/** One short line for the own area on a phone. */
function shortPrompt(ctx, pick) {
  const v = ctx.view;
  if (v.terminal) return t("edora.web.over");
  if (ctx.waiting) return t("edora.web.short.waiting_seats");
  const step = topStep(v);
  if (pick.live && v.acting.includes(ctx.seat)) {
    if (ctx.legal.length === 1 && ctx.legal[0].type === "emergency") return t("edora.web.short.emergency_only");
    if (isEmergency(v)) return t("edora.web.short.emergency");
    return SHORT[step] ? t("edora.web.short.your_turn", { what: SHORT[step]() }) : t("edora.web.short.choose");
  }
  return t("edora.web.short.waiting", { names: { list: v.acting.map((s) => seatName(ctx, s)) } });
}

function topStep(view) {
  return view.stack && view.stack.length ? view.stack[view.stack.length - 1][0] : null;
}

function isEmergency(view) {
  const s = view.stack || [];
  return !view.terminal && s.length === 2 && s[1][0] === DATA.codes.take_die && s[0][0] === DATA.codes.end_turn;
}

function status(ctx, pick) {
  const v = ctx.view;
  const bits = [el("span", { key: "round", class: "ed-round" }, t("edora.web.round", { round: v.round })),
                el("span", { key: "start" }, tNodes("edora.web.start_player", {}, { player: badge(ctx, v.start_player) }))];
  if (v.ending && !v.terminal) bits.push(el("span", { key: "last", class: "ed-last" }, t("edora.web.last_round")));
  const line = promptText(ctx, pick);
  const mine = pick.live && ctx.seat !== null && v.acting.includes(ctx.seat);
  const news = (ctx.fresh || []).filter((e) => {
    const who = e.seat !== null && e.seat !== undefined ? e.seat : e.player;
    return who !== (ctx.mode === "play" ? ctx.seat : undefined) && (e.text || e.msg);
  }).slice(-4);
  return el("div", { class: `ed-status${mine ? " mine" : ""}` },
    el("div", { class: "ed-status-line" }, bits),
    el("p", { class: "ed-prompt" }, line),
    news.length ? el("ul", { class: "ed-news", "aria-label": t("edora.web.news") },
      news.map((e) => el("li", { key: e.i }, entryText(ctx, e)))) : null);
}

/** A log entry's sentence in the reader's language (from its message; else the engine's parts),
 *  every seat it names as that seat's badge (its name, colour and symbol; "you" for the person
 *  here). */
function entryText(ctx, e) {
  return parts(entryParts(e), ctx.seats, e.text, { names: (s) => seatName(ctx, s), capital: true });
}

function promptText(ctx, pick) {
  const v = ctx.view;
  const step = topStep(v);
  const mine = pick.live && ctx.seat !== null && v.acting.includes(ctx.seat);
  const emergency = isEmergency(v);
  if (v.terminal) return t("edora.web.over");
  if (ctx.waiting) return t("edora.web.waiting_seats");
  if (mine) {
    const onlyEmergency = ctx.legal.length === 1 && ctx.legal[0].type === "emergency";
    if (onlyEmergency) return t("edora.web.emergency_only");
    if (emergency) return t("edora.web.emergency");
    const what = PROMPTS[step] ? PROMPTS[step]() : stepName(step);
    const line = what ? t("edora.web.your_turn", { what }) : t("edora.web.your_turn.choose");
    return step === 3 ? `${line} ${t("edora.web.or_emergency")}` : line;
  }
  const what = emergency ? t("edora.web.to_act.emergency") : stepName(step) || "…";
  if (v.acting.length === 1 && isYou(ctx, v.acting[0])) return t("edora.web.to_act.you", { what });
  const names = v.acting.map((s) => seatName(ctx, s));
  const line = v.acting.length > 1 ? t("edora.web.to_act.many", { names: { list: names }, what })
    : t("edora.web.to_act", { name: names[0] || "", what });
  return line.charAt(0).toUpperCase() + line.slice(1);
}

/** The action bar: buttons for the choices that have no thing on the table, the choice among
 *  actions a picked thing leaves open, and "cancel" while something is picked (null: none). */
function actionBar(ctx, pick) {
  if (!pick.live) return null;
  const picked = Object.keys(ui.sel).length > 0;
  const rem = pick.remaining();
  let buttons = [];
  if (!picked) buttons = rem.filter((a) => !(FACETS[a.type] || []).length);
  else if (pick.undecided(rem)) buttons = rem;
  const row = buttons.map((a) => el("button", withHint({ key: JSON.stringify(a), type: "button", class: "legal", "aria-label": label(a, ctx),
                                                         dataset: { action: JSON.stringify(a) }, onclick: () => send(ctx, a) },
                                                       hintFor(ctx, [a])), label(a, ctx)));
  if (picked) {
    row.push(el("span", { key: "picked", class: "ed-picked" },
                t("edora.web.chosen", { things: Object.entries(ui.sel).map(([f, v]) => pickedWords(f, v)).join(", ") })));
    row.push(el("button", { key: "cancel", type: "button", class: "ed-cancel", onclick: () => pick.cancel() }, t("edora.web.cancel")));
  }
  return row.length ? el("div", { class: "ed-bar" }, row) : null;
}

function pickedWords(facet, value) {
  if (facet === "space" || facet === "placed") {
    const [sanctuary, number] = value.split("#");
    return t("edora.web.picked.space", { sanctuary, number: Number(number) });
  }
  if (facet === "die") return t("edora.web.picked.die", { value: Number(value) });
  if (facet === "gem") return gemName(value);
  return value;
}

// ----- the module's interface ----------------------------------------------------------------

export function draw(ctx) {
  useData(ctx);
  last = ctx;
  if (!inner) ui.sent = false;  // the page drew: what was sent has been answered
  const key = JSON.stringify(ctx.legal || []);
  if (key !== ui.key) ui = { ...ui, key, sel: {}, uids: {} };
  const pick = new Picker(ctx);
  const marks = recentMarks(ctx);
  const v = ctx.view;
  const me = ctx.seat !== null && ctx.seat !== undefined && v.boards[ctx.seat] ? ctx.seat : null;
  const others = v.boards.map((_, p) => p).filter((p) => p !== me);
  // The map beside a column with the status, the panel the decision needs (the oracle, the
  // potions or the gems, when a click there is the next step) and your board: on a laptop all
  // of it fits the screen's height; the rest of the supply and the others' boards follow.
  const panels = { oracle: oracle(ctx, pick, marks), potions: potions(ctx, pick, marks), gems: gems(ctx, pick) };
  const focus = focusPanel(pick);
  const column = el("div", { class: "ed-column" }, status(ctx, pick),
    focus ? el("div", { key: `focus-${focus}`, class: `ed-focus ed-focus-${focus}` }, panels[focus]) : null,
    me !== null ? el("div", { key: "own", class: "ed-own-area own-area" }, playerBoard(ctx, pick, marks, me, true)) : null);
  const board = el("div", { class: `edora${me !== null ? " ed-playing" : " ed-watching"}`,
                            ref: (node) => { if (node) queueMicrotask(() => afterDraw(node, pick)); } },
    el("div", { class: "ed-top" }, el("div", { class: "ed-main" }, mapView(ctx, pick, marks)), column),
    el("div", { class: "ed-more" },
      el("div", { class: "ed-side-panels" }, focus === "oracle" ? null : panels.oracle, focus === "potions" ? null : panels.potions,
        el("div", { key: "stack", class: "ed-panel-stack" }, focus === "gems" ? null : panels.gems, dolmenPanel(ctx), legend())),
      others.length ? el("div", { class: "ed-others", "aria-label": t("edora.web.others") },
        others.map((p) => playerBoard(ctx, idle, marks, p, false))) : null));
  return { board, bar: actionBar(ctx, pick) };
}

/** Which supply panel the next click is on, if any: "oracle" (a tablet), "potions" or "gems". */
function focusPanel(pick) {
  if (!pick.live) return null;
  const next = new Set();
  for (const a of pick.remaining()) {
    const facet = (FACETS[a.type] || []).map(([f]) => f).find((f) => !(f in ui.sel));
    if (facet) next.add(facet);
  }
  if (next.has("slot")) return "oracle";
  if (next.has("potion")) return "potions";
  if (next.has("gem")) return "gems";
  return null;
}

export function label(action, ctx) {
  useData(ctx);
  const a = action;
  switch (a.type) {
    case "start": return t("edora.web.action.start", { start: a.start, sanctuary: a.sanctuary });
    case "move": return t("edora.web.action.move", { to: a.sanctuary || a.to, count: a.cost });
    case "leap": return t("edora.web.action.leap", { to: a.to });
    case "emergency": return t("edora.web.action.emergency");
    case "place": {
      const args = { die: a.die, value: a.value, sanctuary: a.sanctuary, number: a.space, space: spaceName(a.action) };
      return t(a.value !== a.die ? "edora.web.action.place_turned" : "edora.web.action.place", args);
    }
    case "food": return t(a.take === "provisions" ? "edora.web.action.food_provisions" : "edora.web.action.food_dice");
    case "take_die": return t("edora.web.action.take_die", { value: a.value });
    case "take_tablet": {
      const side = Math.floor(a.slot / 2);
      const stones = ctx && ctx.view && ctx.view.oracle_stones;
      const args = { tablet: a.tablet, side, condition: tabletText(a.tablet) };
      return stones ? t("edora.web.action.take_tablet", { ...args, first: rewardGain(stones[side]), second: rewardGain(stones[(side + 1) % 6]) })
        : t("edora.web.action.take_tablet.plain", args);
    }
    case "keep_tablet": return t("edora.web.action.keep_tablet", { tablet: a.tablet, condition: tabletText(a.tablet) });
    case "arrange_herb": return t("edora.web.action.arrange_herb", { herb: herbName(a.herb), circle: a.circle + 1 });
    case "brew": return t("edora.web.action.brew", { potion: a.potion, cost: { msg: { id: "edora.mistletoe", args: { count: potionCost(a.potion) } } },
                                                    effect: potionText(a.potion) });
    case "stop": return t(a.what === "potions" ? "edora.web.action.stop_potions" : "edora.web.action.stop_dice");
    case "skip": return t(a.what === "rune-stone" ? "edora.web.action.skip_rune" : "edora.web.action.skip_standing");
    case "gem": return t("edora.web.action.gem", { gem: gemName(a.gem), row: rowName(a.row) });
    case "standing_stone": return t("edora.web.action.standing_stone", { stone: standingName(a.stone) });
    case "rune_stone": return t("edora.web.action.rune_stone", { rune: runeName(a.stone) });
    case "repeat": return t("edora.web.action.repeat", { gain: rewardGain(a.reward) });
    case "raise_die": return t("edora.web.action.raise_die", { value: a.value, sanctuary: a.sanctuary, number: a.space });
    case "flip_herb": return t("edora.web.action.flip_herb", { herb: herbName(a.herb) });
    case "take_herb": return t("edora.web.action.take_herb", { herb: herbName(a.herb) });
    case "activate_herb": return t("edora.web.action.activate_herb", { herb: herbName(a.herb), other: herbName(a.other) });
    default: return Object.entries(a).map(([k, val]) => `${k} ${val}`).join(", ");
  }
}

// ----- the final score -------------------------------------------------------------------------

const STEPS = [
  ["prestige", () => t("edora.web.score.prestige"), null],
  ["leftovers", () => t("edora.web.score.leftovers"), "score_leftovers"],
  ["sickle", () => t("edora.web.score.sickle"), "score_sickle"],
  ["tablets", () => t("edora.web.score.tablets"), "score_tablets"],
  ["amulet", () => t("edora.web.score.amulet"), "score_amulet"],
  ["sanctuaries", () => t("edora.web.score.sanctuaries"), "score_sanctuaries"],
];

const counted = (id, count) => ({ msg: { id, args: { count } } });

function stepDetail(step, f, entry) {
  switch (step) {
    case "prestige": return t("edora.web.score.during_play");
    case "leftovers": return entry ? t("edora.web.score.leftovers_detail", {
      provisions: counted("edora.web.provisions", entry.provisions), mistletoe: counted("edora.mistletoe", entry.mistletoe),
      dice: counted("edora.reserve_dice", entry.dice) }) : "";
    case "sickle": return entry ? t("edora.web.score.sickle_detail", { position: entry.position }) : "";
    case "tablets": {
      const met = (entry ? entry.met : f.tablets_met) || [];
      const unmet = (entry ? entry.unmet : []) || [];
      const args = { met: met.join(" "), unmet: unmet.join(" ") };
      if (met.length) return t(unmet.length ? "edora.web.score.tablets_met_unmet" : "edora.web.score.tablets_met", args);
      return t(unmet.length ? "edora.web.score.tablets_none_unmet" : "edora.web.score.tablets_none", args);
    }
    case "amulet": {
      if (!entry) return "";
      const rows = { id: "edora.full_rows", args: { count: entry.full_rows } };
      return entry.left_column ? t("edora.web.score.amulet_column", { rows: { msg: rows } }) : tMessage(rows);
    }
    case "sanctuaries": return t("edora.web.score.sanctuaries_detail", { collected: f.collected, multiplier: f.multiplier });
    default: return "";
  }
}

export function score(ctx) {
  useData(ctx);
  const v = ctx.view;
  const final = v.final || [];
  const log = ctx.log || [];
  const byKind = (kind, p) => log.find((e) => e.kind === kind && e.player === p);
  const won = log.find((e) => e.kind === "game_won");
  const winners = won ? won.winners : (() => {
    const best = Math.max(...v.scores);
    return v.scores.map((s, p) => (s === best ? p : -1)).filter((p) => p >= 0);
  })();
  const tie = log.find((e) => e.kind === "tie_break");
  const seats = final.map((_, p) => p);
  const head = el("tr", {}, el("th", { scope: "col" }, t("edora.web.score.step")),
    seats.map((p) => el("th", { key: p, scope: "col", class: winners.includes(p) ? "winner" : null }, badge(ctx, p),
                        winners.includes(p) ? el("span", { class: "ed-crown" }, " ", t("edora.web.score.winner")) : null)));
  const rows = STEPS.map(([key, name, kind]) => el("tr", { key, dataset: { step: key } }, el("th", { scope: "row" }, name()),
    seats.map((p) => el("td", { key: p, dataset: { step: key, seat: String(p) } },
      el("b", { class: "pts" }, String(final[p][key])),
      el("span", { class: "ed-detail" }, stepDetail(key, final[p], kind ? byKind(kind, p) : null))))));
  const total = el("tr", { key: "total", class: "total", dataset: { step: "total" } }, el("th", { scope: "row" }, t("edora.web.score.total")),
    seats.map((p) => el("td", { key: p, dataset: { step: "total", seat: String(p) } }, el("b", { class: "pts" }, String(final[p].total)))));
  const points = final[winners[0]] ? final[winners[0]].total : 0;
  const title = winners.length === 1
    ? (isYou(ctx, winners[0]) ? t("edora.web.score.you_win", { count: points })
                              : t("edora.web.score.wins", { name: realName(ctx, winners[0]), count: points }))
    : t("edora.web.score.share", { names: { list: winners.map((p) => seatName(ctx, p)) }, count: points });
  // the shell's score screen names the winner already (from the log); the replay's does not
  return el("div", { class: "edora ed-score" },
    ctx.mode === "score" ? null : el("h2", { class: "ed-winner" }, title),
    tie ? el("p", {}, t("edora.web.score.tie")) : null,
    el("table", { class: "ed-score-table" }, el("thead", {}, head), el("tbody", {}, rows, total)));
}
