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
 * the room's description: the views carry only what changes).
 *
 * It exports the kit's renderer interface (docs/web.md): draw(ctx) -> {board, bar}, score(ctx)
 * and label(action, ctx); the map's SVG too is virtual nodes (js/kit.js), so the page updates
 * only what changed: a focused thing keeps the focus and the map its scroll through a redraw.
 */

import { h, hintFor, parts, seatBadge, withHint } from "/static/js/kit.js";
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

const REWARD_GLYPH = { VP: "★", KNOW: "K", FOOD: "F", DIE: "⚄", MIST: "M", SICKLE: "S" };
const REWARD_LABEL = { VP: "prestige", KNOW: "knowledge", FOOD: "provisions", DIE: "die", MIST: "mistletoe",
                       SICKLE: "sickle" };
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
  for (const [u, f] of Object.entries(r.lower)) RUNE_FACTOR[u] = f === 1 ? "×v" : `×${f}v`;
  RUNE_ORDER = [...r.upper_times_v_minus_1, ...Object.keys(r.lower)];
  HERBS = Object.keys(DATA.herb_names);
}
const DOLMEN_FILL = { A: "#d9534f", B: "#3a7bd5", C: "#e2b007", D: "#2e9e5b", E: "#8e5cc7", F: "#e67e22" };
const GLADE_FILL = ["#e3efd3", "#f3e6cc", "#d6ece6", "#f0dde8", "#dbe3f3", "#f3dfd0", "#e6f0d6", "#e6def3",
                    "#f4edc8", "#dcefef", "#efe3d3", "#e0e8d8"];

const rewardGain = (r) => DATA.reward_gains[r] || r;
const herbShort = (h) => (DATA.herb_names[h] || h).replace(/ herb$/, "");
const herbName = (h) => "the " + (DATA.herb_names[h] || h);
const runeName = (u) => `${DATA.rune_names[u] || u} ${RUNE_FACTOR[u] || ""}`.trim();
const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

function spaceName(code) {
  if (code === "FD") return "12 provisions or 3 dice";
  if (code === "TB") return "take a tablet";
  if (code === "SS") return "standing stone";
  if (code === "RS") return "rune stone";
  let m = /^KN(\d+)$/.exec(code);
  if (m) return `knowledge +${m[1]}`;
  m = /^SI(\d+)$/.exec(code);
  if (m) return `sickle +${m[1]}`;
  m = /^MI(\d+)P(\d+)$/.exec(code);
  if (m) return `${m[1]} mistletoe, brew up to ${plural(+m[2], "potion", "potions")}`;
  m = /^AM-([A-Z]+)-x(\d+)$/.exec(code);
  if (m) return `a gem on the amulet's ${m[1]} row, its reward ×${m[2]}`;
  return code;
}

function spaceShort(code) {
  if (code === "FD") return "Food";
  if (code === "TB") return "Tablet";
  if (code === "SS") return "Stand";
  if (code === "RS") return "Rune";
  let m = /^KN(\d+)$/.exec(code);
  if (m) return `Kn+${m[1]}`;
  m = /^SI(\d+)$/.exec(code);
  if (m) return `Sk+${m[1]}`;
  m = /^MI(\d+)P(\d+)$/.exec(code);
  if (m) return `M${m[1]}·P${m[2]}`;
  m = /^AM-([A-Z]+)-x(\d+)$/.exec(code);
  if (m) return `${ROW_GLYPH[m[1]] || m[1][0]}×${m[2]}`;
  return code;
}

const potionCost = (p) => Number(p[1]);
const potionText = (p) => DATA.potion_effects[p] || "";
const tabletText = (t) => DATA.tablet_conditions[t] || "";

function seatName(ctx, s) {
  if (s === ctx.seat && ctx.mode === "play") return "you";
  return realName(ctx, s);
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
             ...control(() => pick.cancel(), `Cancel the choice of ${describe}`) };
  }
  const opts = pick.options(facet, value);
  if (!opts.length) return out;
  const text = opts.length === 1 ? label(opts[0], pick.ctx) : `Choose ${describe}`;
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
                      `stairs ${stair.name}`));
    }
  }

  // fire pits
  const firePits = pits.map(([id, p]) => {
    const [cx, cy] = pos(p.xy);
    const owner = view.fire_pits[id];
    const closed = owner !== undefined && owner >= 0;
    const rewards = p.rewards.map((r) => rewardGain(r)).join(", ");
    const desc = closed ? `Fire pit ${id}, closed by ${seatName(ctx, owner)}`
                        : `Fire pit ${id} between ${p.around.join(", ")}: ${rewards}`;
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
                "aria-label": "The map of Edora" },
      sv("title", {}, "The map of Edora"),
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
    sv("text", { y: 5 }, REWARD_GLYPH[r] || r[0]));
}

function sanctuaryTile(ctx, pick, marks, id, info, state, cx, cy, extra) {
  const n = ctx.view.players;
  const moves = pick.options("sanctuary", id);
  const costs = moves.map((a) => (a.type === "leap" ? "leap 1" : a.type === "move" ? String(a.cost) : "start"));
  const dolmenOwner = extra.dolmen ? ctx.view.dolmen_owner[extra.dolmen] : -1;
  const words = [`Sanctuary ${id}`, extra.glade && `glade ${extra.glade}${extra.portal ? " (portal)" : ""}`,
                 extra.start && `start space ${extra.start}`,
                 extra.dolmen && `dolmen ${extra.dolmen}${dolmenOwner >= 0 ? ` (linked by ${seatName(ctx, dolmenOwner)})` : ""}`,
                 state.standing_stones ? plural(state.standing_stones, "standing stone", "standing stones") : "",
                 state.rune_stones ? plural(state.rune_stones, "rune stone", "rune stones") : "",
                 extra.figures.length ? `druids: ${extra.figures.map((p) => seatName(ctx, p)).join(", ")}` : ""]
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
      sv("title", {}, `Dolmen ${extra.dolmen}${owned ? `, linked by ${seatName(ctx, dolmenOwner)}` : ""}`),
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
      sv("title", {}, `The druid of ${seatName(ctx, p)}`),
      sv("path", { d: "M-8,11 Q-8,-2 -4,-3 A6,6 0 1 1 4,-3 Q8,-2 8,11 Z", style: `fill:${c.css}` }),
      sv("text", { y: 9 }, c.symbol)));
  });
  const sameTile = costs.length && costs[0] !== "start" ? `${id} (cost ${costs.join(" or ")} provisions)` : id;
  const props = facetProps({ key: `sanctuary-${id}`, class: "ed-sanctuary", transform: `translate(${cx - T / 2},${cy - T / 2})`,
                             dataset: { sanctuary: id } }, pick, "sanctuary", id, `sanctuary ${sameTile}`);
  // on the top edge, centred together: the cost of going there and a hint's badge beside it
  const cost = !costs.length ? "" : costs[0] === "start" ? "start" : `cost ${costs.join(" / ")}`;
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
  const held = die ? `${seatName(ctx, die[0])}'s ${die[1]}` : "free";
  const base = { key: `space-${i}`, class: `ed-space${die ? " taken" : ""}`, transform: `translate(${x},${y})`,
                 dataset: die ? { space: key, die: `${die[0]}:${die[1]}` } : { space: key } };
  const c = die ? colourOf(ctx, die[0]) : null;
  const props = die ? facetProps(base, pick, "placed", key, `your ${die[1]} on ${sid} space ${i + 1}`)
    : facetProps(base, pick, "space", key, `${sid} space ${i + 1} (${spaceName(code)})`);
  return sv("g", marked(props, marks, `space:${key}`),
    sv("title", {}, `${sid} space ${i + 1}: ${spaceName(code)} (${held})`),
    sv("rect", { width: w, height: h, rx: 6 }),
    die ? [sv("rect", { class: "ed-die", x: 3, y: 2, width: 26, height: 26, rx: 5, style: `fill:${c.css}` }),
           sv("text", { class: "ed-die-value", x: 16, y: 21 }, String(die[1])),
           sv("text", { class: "ed-die-owner", x: 39, y: 21 }, c.symbol)]
      : sv("text", { class: "ed-space-code", x: w / 2, y: 20 }, spaceShort(code)),
    hintRing(props, w, h, 6), hintBadge(props, w - 2, 2));
}

// ----- the oracle, the potions, the gems ---------------------------------------------------------

/** A tablet's card: its props (`props`: key, facet...) merged into the card's own. */
function tabletCard(t, extraClass = "", props = {}) {
  return el("div", { ...props, class: cls("card tablet", extraClass, props.class), dataset: { card: t, ...(props.dataset || {}) },
                     title: `${t}: ${tabletText(t)}` },
    el("b", {}, t), el("span", { class: "ed-cond" }, tabletText(t)));
}

function oracle(ctx, pick, marks) {
  const v = ctx.view;
  const sides = [];
  for (let side = 0; side < 6; side++) {
    const a = v.oracle_stones[side], b = v.oracle_stones[(side + 1) % 6];
    const slots = [2 * side, 2 * side + 1].map((slot) => {
      const t = v.oracle_slots[slot];
      if (!t) return el("div", { key: `slot-${slot}`, class: "card empty" }, "empty");
      const props = facetProps({ key: `slot-${slot}` }, pick, "slot", String(slot), `tablet ${t} (${tabletText(t)})`);
      return tabletCard(t, "", marked(props, marks, `slot:${slot}`));
    });
    sides.push(el("div", { key: side, class: "ed-side" },
      // sides are numbered from 0, as the log names them
      el("div", { class: "ed-side-head", title: `Side ${side}: a tablet taken here also gives ${rewardGain(a)} and ${rewardGain(b)}` },
        `Side ${side}: `, rewardChip(a), " + ", rewardChip(b)),
      slots));
  }
  const deck = el("div", { class: "ed-deck" },
    el("div", { class: "card back", "aria-label": `${v.deck_size} tablets in the deck` }, String(v.deck_size)),
    el("span", {}, `${plural(v.deck_size, "tablet", "tablets")} in the deck`));
  const known = (v.deck_known || []).length
    ? el("div", { class: "ed-known" }, "Under the deck (you put them there): ",
         v.deck_known.map(([k, t]) => el("span", { key: k, class: "card tablet mini", dataset: { card: t },
                                                   title: `${t} at deck position ${k + 1}` }, t)))
    : null;
  return el("section", { key: "oracle", class: "ed-panel ed-oracle", "aria-label": "The oracle: tablets" },
    el("h3", {}, "Oracle"), el("div", { class: "ed-sides" }, sides), deck, known);
}

function rewardChip(r, times = 1) {
  return el("span", { class: `ed-chip r-${r}`, title: rewardGain(r) },
    el("span", { class: "ed-glyph", "aria-hidden": "true" }, REWARD_GLYPH[r] || r), " ",
    times > 1 ? `${times} ${REWARD_LABEL[r]}` : REWARD_LABEL[r]);
}

function potions(ctx, pick, marks) {
  const left = ctx.view.potions_left || [];
  const cards = left.map((p) => {
    const props = facetProps({ key: p, class: "card potion", dataset: { card: p }, title: `${p}: ${potionText(p)}` },
                             pick, "potion", p, `potion ${p}`);
    return el("div", marked(props, marks, `potion:${p}`),
      el("b", {}, p), el("span", { class: "ed-cost-m" }, `${potionCost(p)} M`),
      el("span", { class: "ed-cond" }, potionText(p)));
  });
  return el("section", { key: "potions", class: "ed-panel ed-potions", "aria-label": "Potions to brew" },
    el("h3", {}, `Potions (cost in mistletoe): ${left.length} left`), el("div", { class: "ed-cards" }, cards));
}

function gems(ctx, pick) {
  const left = ctx.view.gems_left || {};
  const items = Object.entries(left).map(([g, count]) =>
    el("div", facetProps({ key: g, class: "ed-gem" }, pick, "gem", g, `the ${REWARD_LABEL[g]} gem`),
      rewardChip(g), el("span", { class: "ed-count" }, `×${count}`)));
  return el("section", { key: "gems", class: "ed-panel ed-gems", "aria-label": "Gems" }, el("h3", {}, "Gems"),
    el("div", { class: "ed-gem-row" }, items));
}

function dolmenPanel(ctx) {
  const v = ctx.view;
  const rows = Object.entries(v.dolmen_owner || {}).map(([c, owner]) =>
    el("span", { key: c, class: "ed-dolmen-chip", style: `--dolmen:${DOLMEN_FILL[c] || "#999"}` },
      `${c}: ${owner >= 0 ? `linked by ${seatName(ctx, owner)}` : "open"}`));
  return el("section", { key: "dolmens", class: "ed-panel", "aria-label": "Dolmens" },
    el("h3", {}, `Dolmens (links: ${v.links})`), el("div", { class: "ed-dolmen-list" }, rows));
}

function legend() {
  return el("details", { key: "key", class: "ed-panel ed-legend" }, el("summary", {}, "Key"),
    el("ul", {},
      Object.keys(REWARD_GLYPH).map((r) => el("li", { key: r }, rewardChip(r), ` ${rewardGain(r)}`)),
      el("li", { key: "spaces" }, "Spaces: Food 12 provisions or 3 dice · Kn+k / Sk+k knowledge / sickle · Tablet · Stand / Rune stone · "
                   + "M2·P1 2 mistletoe, up to 1 potion · ☀☾✶×k a gem on that amulet row, its reward ×k"),
      el("li", { key: "map" }, "Dark circle with a tree on a path: dark forest (+1 provision) · ◎ portal glade · "
                   + "▲ standing stones, ◆ rune stones placed there · coloured stones A–F: dolmens")));
}

// ----- the players' boards -------------------------------------------------------------------

/** A die of a board (props: key, facet...). */
function dieFace(value, kind, props = {}) {
  return el("div", { ...props, class: cls(`ed-pip ${kind}`, props.class), title: `a die showing ${value}` }, String(value));
}

function track(name, pos, end, marksAt, seatCss) {
  const cells = [];
  for (let k = 0; k <= end; k++) {
    const here = Math.min(pos, end) === k;
    const [short, words] = marksAt[k] || [null, null];
    cells.push(el("span", { key: k, class: `ed-cell${here ? " here" : ""}${short ? " marked" : ""}`,
                            style: here ? `--seat:${seatCss}` : null, title: words ? `${k}: ${words}` : String(k) },
      here ? "●" : short || String(k)));
  }
  return el("div", { class: "ed-track", "aria-label": `${name} track: ${pos}` },
    el("span", { class: "ed-track-name" }, `${name} ${pos}`), cells);
}

function multiplierOf(k) {
  let m = 0;
  for (const [from, mult] of Object.entries(DATA.player_board.knowledge_track.multiplier_from)) if (k >= +from) m = mult;
  return m;
}

function herbCard(herb, state, pick, facet = "herb", extra = "", key = herb) {
  if (!herb) return el("div", { key, class: "card back herb", title: "a herb laid face down" }, "?");
  const words = { board: "on the sickle track", active: "active (face up)", inactive: "face down (no effect)" }[state] || "";
  const props = facetProps({ key, class: cls("card herb", state, extra), dataset: { card: herb },
                             title: `${DATA.herb_names[herb]}: ${DATA.herb_effects[herb]} — ${words}` },
                           pick, facet, herb, `${herbName(herb)} (${DATA.herb_effects[herb]})`);
  return el("div", props, herbShort(herb), state === "inactive" ? el("span", { class: "ed-down" }, " (down)") : null);
}

function playerBoard(ctx, pick, marks, p, own) {
  const v = ctx.view;
  const b = v.boards[p];
  const c = colourOf(ctx, p);
  const pb = DATA.player_board;
  const mine = pick.live && own ? pick : idle;
  const facts = el("div", { class: "ed-facts" },
    fact("Prestige", b.prestige, "★"), fact("Provisions", b.provisions), fact("Mistletoe", b.mistletoe),
    fact("Knowledge", `${b.knowledge} (×${multiplierOf(b.knowledge)})`), fact("Sickle", b.sickle),
    fact("Dice placed", `${b.placed}/13`), fact("Dolmens", b.dolmens + b.beige_dolmens ? `${b.dolmens} + ${b.beige_dolmens} beige` : "0"));
  const reserve = b.reserve.map((d, k) => dieFace(d, "reserve",
    facetProps({ key: `r${k}` }, mine, "die", String(d), `your die showing ${d}`, `r${k}`)));
  const overview = b.overview.map((d, k) => dieFace(d, "overview",
    facetProps({ key: `o${k}` }, mine, "overview", String(d), `the ${d} of your overview board`, `o${k}`)));
  const dice = el("div", { class: "ed-dice" },
    el("div", { class: "ed-dice-group" }, el("span", { class: "ed-label" }, `Reserve (${b.reserve.length})`), reserve.length ? reserve : el("span", { class: "ed-none" }, "none")),
    el("div", { class: "ed-dice-group" }, el("span", { class: "ed-label" }, `Overview board (${b.overview.length})`), overview.length ? overview : el("span", { class: "ed-none" }, "none")));

  // the sickle track's herb pairs, then active and face-down herbs
  const pairs = pb.sickle_track.herb_pairs_at.map((at, k) => {
    const circle = b.herbs.slice(2 * k, 2 * k + 2);
    const onTrack = circle.filter((herb) => herb === null || b.herb_state[herb] === "board");
    return el("div", { key: at, class: `ed-pair${b.sickle >= at ? " reached" : ""}` },
      el("span", { class: "ed-label" }, `at ${at}`),
      onTrack.length ? onTrack.map((herb, j) => herbCard(herb, "board", mine, "herb", "", herb || `down-${j}`))
        : el("span", { class: "ed-none" }, "released"));
  });
  const up = HERBS.filter((herb) => b.herb_state[herb] === "active");
  const down = HERBS.filter((herb) => b.herb_state[herb] === "inactive");
  const laid = new Set(b.herbs.filter(Boolean));
  const tray = own && b.arranged < HERBS.length && b.herbs.some((herb) => herb === null)
    ? el("div", { class: "ed-row ed-tray" }, el("span", { class: "ed-label" }, `To lay in circle ${b.arranged + 1}`),
      HERBS.filter((herb) => !laid.has(herb)).map((herb) => herbCard(herb, "tray", mine, "arrange")))
    : null;
  const herbs = el("div", { class: "ed-herbs" },
    el("div", { class: "ed-row" }, el("span", { class: "ed-label" }, "Herbs on the sickle track"), el("div", { class: "ed-pairs" }, pairs)),
    el("div", { class: "ed-row" }, el("span", { class: "ed-label" }, "Active"),
      up.length ? up.map((herb) => herbCard(herb, "active", mine)) : el("span", { class: "ed-none" }, "none")),
    el("div", { class: "ed-row" }, el("span", { class: "ed-label" }, "Face down"),
      down.length ? down.map((herb) => herbCard(herb, "inactive", mine)) : el("span", { class: "ed-none" }, "none")),
    tray);

  const standing = pb.standing_stone_row.map((r) => {
    const placed = b.standing_stones.includes(r);
    return el("div", facetProps({ key: r, class: `ed-stone${placed ? " placed" : ""}`,
                                  title: placed ? `${REWARD_LABEL[r]}: stone placed, reward uncovered` : `${REWARD_LABEL[r]}: stone still here` },
                                mine, "standing", r, `the ${REWARD_LABEL[r]} standing stone`),
      el("span", { class: `ed-glyph r-${r}` }, REWARD_GLYPH[r]), placed ? " uncovered" : " ▲");
  });
  const runes = RUNE_ORDER.map((u) => {
    const placed = b.rune_stones.includes(u);
    return el("div", facetProps({ key: u, class: `ed-stone rune${placed ? " placed" : ""}`, title: runeName(u) },
                                mine, "rune", u, `the ${runeName(u)} rune stone`),
      runeName(u), placed ? " ✓" : "");
  });
  const rows = pb.amulet_rows.map((row, r) => {
    const slots = [b.amulet[2 * r], b.amulet[2 * r + 1]].map((g, k) =>
      g ? el("span", { key: k, class: "ed-slot" }, rewardChip(g)) : el("span", { key: k, class: "ed-slot empty" }, "empty"));
    const props = facetProps({ key: row, class: "ed-amulet-row" }, mine, "row", row, `the ${row} row of your amulet`);
    return el("div", marked(props, marks, `amulet:${p}:${row}`),
      el("span", { class: "ed-label" }, `${ROW_GLYPH[row] || ""} ${row}`), slots);
  });
  const tablets = b.tablets.map((t) => tabletCard(t, "", marked({ key: t }, marks, `tablet:${p}:${t}`)));
  const potionsOwned = b.potions.map((k) => el("div", { key: k, class: "card potion mini", dataset: { card: k },
                                                        title: `${k}: ${potionText(k)}` }, k));
  let draft = null;
  if (own && v.draft_hand) {
    draft = el("div", { class: "ed-row ed-draft" }, el("span", { class: "ed-label" }, "Drawn for the draft: keep one"),
      v.draft_hand.map((t) => tabletCard(t, "", facetProps({ key: t }, mine, "draft", t, `tablet ${t} (${tabletText(t)})`))));
  } else if (!own && v.draft_hand_size && drafting(v) === p) {
    draft = el("div", { class: "ed-row ed-draft" }, el("span", { class: "ed-label" }, "Drafting"),
      Array.from({ length: v.draft_hand_size }, (_, k) => el("div", { key: k, class: "card back tablet" }, "?")));
  }

  const acting = v.acting.includes(p) && !v.terminal;
  return el("section", { key: `board-${p}`, class: `ed-board${own ? " own" : " other"}${acting ? " acting" : ""}`, dataset: { seat: String(p) },
                         style: `--seat:${c.css}`, "aria-label": own ? "Your board" : `Board of ${seatName(ctx, p)}` },
    el("header", { class: "ed-board-head" }, badge(ctx, p), own ? el("span", { class: "ed-you" }, "your board") : null,
       acting ? el("span", { class: "ed-to-act" }, "to act") : null,
       v.start_player === p ? el("span", { class: "ed-tag" }, "start player") : null,
       b.figure ? el("span", { class: "ed-tag" }, `druid on ${b.figure}`) : null),
    own ? el("p", { class: "ed-own-prompt" }, shortPrompt(ctx, pick)) : null,
    facts, dice, draft,
    own ? el("div", { class: "ed-tracks" },
      track("Knowledge", b.knowledge, pb.knowledge_track.end,
            Object.fromEntries(Object.entries(pb.knowledge_track.multiplier_from).filter(([k]) => +k > 0)
              .map(([k, m]) => [k, [`×${m}`, `sanctuaries score ×${m} from here`]])),
            c.css),
      track("Sickle", b.sickle, pb.sickle_track.end,
            Object.fromEntries(pb.sickle_track.herb_pairs_at.map((at) => [at, ["✿", "a herb pair is released here"]])),
            c.css)) : null,
    herbs,
    el("div", { class: "ed-row" }, el("span", { class: "ed-label" }, "Standing stones"), el("div", { class: "ed-stones-row" }, standing)),
    el("div", { class: "ed-row" }, el("span", { class: "ed-label" }, "Rune stones"), el("div", { class: "ed-stones-row" }, runes)),
    el("div", { class: "ed-amulet" }, el("span", { class: "ed-label" }, "Amulet"), rows),
    el("div", { class: "ed-row" }, el("span", { class: "ed-label" }, "Tablets (10 points each if met at the end)"),
       el("div", { class: "ed-cards ed-tablets" }, tablets.length ? tablets : el("span", { class: "ed-none" }, "none"))),
    el("div", { class: "ed-row" }, el("span", { class: "ed-label" }, "Potions"),
       el("div", { class: "ed-cards ed-owned-potions" }, potionsOwned.length ? potionsOwned : el("span", { class: "ed-none" }, "none"))));
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

const PROMPTS = {
  0: "choose your start space: click a highlighted start sanctuary",
  1: "keep one of the tablets you drew (the others go under the deck)",
  2: "lay your next herb face down on your sickle track",
  3: "choose where to go: reachable sanctuaries are highlighted with their cost in provisions",
  4: "place a die: click a free space, then a die of your reserve (or the die, then the space)",
  5: "provisions or dice?",
  6: "take a die from your overview board",
  7: "take a tablet from the oracle",
  8: "brew a potion, or stop",
  9: "take a gem for your amulet",
  10: "place a standing stone, or skip",
  11: "take one of the rewards once more",
  12: "place a rune stone, or skip",
  13: "take one reward of the fire pit once more",
  14: "set one of your dice to 6, or stop",
  15: "turn one of your face-down herbs face up",
  16: "take a herb from your sickle track",
  17: "activate one herb of the released pair (the other goes face down)",
};

const SHORT = {
  0: "Choose a start space", 1: "Keep a tablet", 2: "Lay a herb face down", 3: "Choose where to go",
  4: "Place a die: a space, then a die", 5: "Provisions or dice?", 6: "Take a die from your overview board",
  7: "Take a tablet", 8: "Brew a potion, or stop", 9: "Take a gem", 10: "Place a standing stone, or skip",
  11: "Take a reward once more", 12: "Place a rune stone, or skip", 13: "Take a pit reward once more",
  14: "Set a die to 6, or stop", 15: "Turn a herb face up", 16: "Take a herb", 17: "Activate a released herb",
};

/** One short line for the own area on a phone. */
function shortPrompt(ctx, pick) {
  const v = ctx.view;
  if (v.terminal) return "The game is over.";
  if (ctx.waiting) return "Waiting for players to take the open seats";
  const step = topStep(v);
  if (pick.live && v.acting.includes(ctx.seat)) {
    if (ctx.legal.length === 1 && ctx.legal[0].type === "emergency") return "Your turn: emergency turn only";
    return `Your turn: ${isEmergency(v) ? "emergency, take a die" : SHORT[step] || "choose"}`;
  }
  return `Waiting for ${v.acting.map((s) => seatName(ctx, s)).join(" and ")}`;
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
  const bits = [el("span", { key: "round", class: "ed-round" }, `Round ${v.round}`),
                el("span", { key: "start" }, "Start player: ", badge(ctx, v.start_player))];
  if (v.ending && !v.terminal) bits.push(el("span", { key: "last", class: "ed-last" }, "Last round (a player placed their 13th die)"));
  const line = promptText(ctx, pick);
  const mine = pick.live && ctx.seat !== null && v.acting.includes(ctx.seat);
  const news = (ctx.fresh || []).filter((e) => {
    const who = e.seat !== null && e.seat !== undefined ? e.seat : e.player;
    return who !== (ctx.mode === "play" ? ctx.seat : undefined) && e.text;
  }).slice(-4);
  return el("div", { class: `ed-status${mine ? " mine" : ""}` },
    el("div", { class: "ed-status-line" }, bits),
    el("p", { class: "ed-prompt" }, line),
    news.length ? el("ul", { class: "ed-news", "aria-label": "What just happened" },
      news.map((e) => el("li", { key: e.i }, entryText(ctx, e)))) : null);
}

/** A log entry's sentence, from its parts (every entry has them: the engine's log), every seat
 *  it names as that seat's badge (its name, colour and symbol; "you" for the person here). */
function entryText(ctx, e) {
  return parts(e.parts, ctx.seats, e.text, { names: (s) => seatName(ctx, s), capital: true });
}

function promptText(ctx, pick) {
  const v = ctx.view;
  let line;
  const step = topStep(v);
  const mine = pick.live && ctx.seat !== null && v.acting.includes(ctx.seat);
  const emergency = isEmergency(v);
  if (v.terminal) line = "The game is over.";
  else if (ctx.waiting) line = "Waiting for players: the game starts once every seat is taken.";
  else if (mine) {
    const onlyEmergency = ctx.legal.length === 1 && ctx.legal[0].type === "emergency";
    line = onlyEmergency ? "No normal turn is possible: take an emergency turn (+6 provisions and a die)."
      : emergency ? "Emergency turn: +6 provisions; take a die from your overview board."
      : `Your turn: ${PROMPTS[step] || DATA.steps[step] || "choose"}.`;
    if (step === 3 && !onlyEmergency) line += " Or take an emergency turn.";
  } else {
    const who = v.acting.map((s) => seatName(ctx, s)).join(" and ");
    line = `${who[0] ? who[0].toUpperCase() + who.slice(1) : who} ${v.acting.length > 1 || v.acting[0] === ctx.seat ? "are" : "is"} to act: `
      + (emergency ? "emergency turn, taking a die" : DATA.steps[step] || "…") + ".";
  }
  return line;
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
    row.push(el("span", { key: "picked", class: "ed-picked" }, `Chosen: ${Object.entries(ui.sel).map(([f, v]) => pickedWords(f, v)).join(", ")}`));
    row.push(el("button", { key: "cancel", type: "button", class: "ed-cancel", onclick: () => pick.cancel() }, "Cancel"));
  }
  return row.length ? el("div", { class: "ed-bar" }, row) : null;
}

function pickedWords(facet, value) {
  if (facet === "space" || facet === "placed") return value.replace("#", " space ");
  if (facet === "die") return `your ${value}`;
  if (facet === "gem") return `the ${REWARD_LABEL[value]} gem`;
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
      others.length ? el("div", { class: "ed-others", "aria-label": "The other players' boards" },
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
    case "start": return `Start at ${a.start} (beside ${a.sanctuary})`;
    case "move": return `Move to ${a.sanctuary || a.to} (${plural(a.cost, "provision", "provisions")})`;
    case "leap": return `Forest leap to ${a.to} (1 provision)`;
    case "emergency": return "Emergency turn: +6 provisions and a die from the overview board";
    case "place": {
      const turned = a.value !== a.die ? ` turned to ${a.value} (die herb)` : "";
      return `Place your ${a.die}${turned} on ${a.sanctuary} space ${a.space}: ${spaceName(a.action)} (pay ${a.value})`;
    }
    case "food": return a.take === "provisions" ? "Take 12 provisions" : "Take 3 dice from the overview board";
    case "take_die": return `Take the ${a.value} from your overview board`;
    case "take_tablet": {
      const side = Math.floor(a.slot / 2);
      const stones = ctx && ctx.view && ctx.view.oracle_stones;
      const gain = stones ? `, gain ${rewardGain(stones[side])} and ${rewardGain(stones[(side + 1) % 6])}` : "";
      return `Take tablet ${a.tablet} from oracle side ${side}${gain} (${tabletText(a.tablet)})`;
    }
    case "keep_tablet": return `Keep tablet ${a.tablet} (${tabletText(a.tablet)})`;
    case "arrange_herb": return `Lay ${herbName(a.herb)} face down in herb circle ${a.circle + 1}`;
    case "brew": return `Brew ${a.potion} (${plural(potionCost(a.potion), "mistletoe", "mistletoe")}): ${potionText(a.potion)}`;
    case "stop": return a.what === "potions" ? "Brew no more potions" : "Raise no more dice";
    case "skip": return `Skip the ${a.what} action`;
    case "gem": return `Put the ${REWARD_LABEL[a.gem] || a.gem} gem on the ${a.row} row of your amulet`;
    case "standing_stone": return `Place the ${REWARD_LABEL[a.stone] || a.stone} standing stone`;
    case "rune_stone": return `Place the ${runeName(a.stone)} rune stone`;
    case "repeat": return `Take ${rewardGain(a.reward)} once more`;
    case "raise_die": return `Set your ${a.value} on ${a.sanctuary} space ${a.space} to 6`;
    case "flip_herb": return `Turn ${herbName(a.herb)} face up`;
    case "take_herb": return `Take ${herbName(a.herb)} from the sickle track (active)`;
    case "activate_herb": return `Activate ${herbName(a.herb)} (${herbName(a.other)} goes face down)`;
    default: return Object.entries(a).map(([k, val]) => `${k} ${val}`).join(", ");
  }
}

// ----- the final score -------------------------------------------------------------------------

const STEPS = [
  ["prestige", "Prestige track", null],
  ["leftovers", "1. Leftovers", "score_leftovers"],
  ["sickle", "2. Sickle", "score_sickle"],
  ["tablets", "3. Tablets", "score_tablets"],
  ["amulet", "4. Amulet", "score_amulet"],
  ["sanctuaries", "5. Sanctuaries", "score_sanctuaries"],
];

function stepDetail(step, f, entry) {
  switch (step) {
    case "prestige": return "during play";
    case "leftovers": return entry ? `${plural(entry.provisions, "provision", "provisions")} ÷ 6, ${entry.mistletoe} mistletoe, `
                                      + plural(entry.dice, "reserve die", "reserve dice") : "";
    case "sickle": return entry ? `sickle at ${entry.position}` : "";
    case "tablets": {
      const met = entry ? entry.met : f.tablets_met;
      const unmet = entry ? entry.unmet : [];
      return `met: ${met.length ? met.join(" ") : "none"}` + (unmet && unmet.length ? `; not met: ${unmet.join(" ")}` : "");
    }
    case "amulet": return entry ? `${plural(entry.full_rows, "full row", "full rows")}${entry.left_column ? ", left column full" : ""}` : "";
    case "sanctuaries": return `${f.collected} dice and stones × ${f.multiplier} (knowledge)`;
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
  const head = el("tr", {}, el("th", { scope: "col" }, "Scoring step"),
    seats.map((p) => el("th", { key: p, scope: "col", class: winners.includes(p) ? "winner" : null }, badge(ctx, p),
                        winners.includes(p) ? el("span", { class: "ed-crown" }, " — winner") : null)));
  const rows = STEPS.map(([key, name, kind]) => el("tr", { key, dataset: { step: key } }, el("th", { scope: "row" }, name),
    seats.map((p) => el("td", { key: p, dataset: { step: key, seat: String(p) } },
      el("b", { class: "pts" }, String(final[p][key])),
      el("span", { class: "ed-detail" }, stepDetail(key, final[p], kind ? byKind(kind, p) : null))))));
  const total = el("tr", { key: "total", class: "total", dataset: { step: "total" } }, el("th", { scope: "row" }, "Total"),
    seats.map((p) => el("td", { key: p, dataset: { step: "total", seat: String(p) } }, el("b", { class: "pts" }, String(final[p].total)))));
  const names = winners.map((p) => seatName(ctx, p));
  const title = names.length === 1 ? `${names[0] === "you" ? "You win" : `${names[0]} wins`} with ${final[winners[0]].total} points`
                                   : `${names.join(" and ")} share the win with ${final[winners[0]] ? final[winners[0]].total : ""} points`;
  // the shell's score screen names the winner already (from the log); the replay's does not
  return el("div", { class: "edora ed-score" },
    ctx.mode === "score" ? null : el("h2", { class: "ed-winner" }, title),
    tie ? el("p", {}, "Tied on points: the player behind on the knowledge track (then lower in its stack) wins.") : null,
    el("table", { class: "ed-score-table" }, el("thead", {}, head), el("tbody", {}, rows, total)));
}
