// Amarok in the browser: a round table drawn from the seat's view alone.
//
// Every seat sits around the table with its two hand slots, the cards in front of it and its
// level (round wins); the viewer sits at the bottom. The objective card, the river and the deck
// (its size and the cards claws put at its bottom) are in the middle. A move is one click on
// the card it concerns: a slot of your hand, a river card, the deck, a card of another hand
// (a card you see is named; a back is "an unseen card of that hand"); a claw then highlights
// every card it may send to the bottom of the deck. Nothing here knows a rule: what is legal
// comes from ctx.legal, what is shown from ctx.view, what just happened from ctx.fresh/ctx.log.
// It returns virtual nodes (js/kit.js): the page updates only what changed, so a focused card
// keeps the focus when the next view arrives.

import { aboveTheBar, h, hintFor, parts, seatBadge, textOf, withHint } from "/static/js/kit.js";
import { seatColour, seatNameOf } from "/static/js/text.js";

const svg = h;  // preact draws <svg> and what is inside it in the SVG namespace

const SYMBOL_WORDS = { heart: "heart", claw: "claw", season: "change of season", trap: "wolf trap" };
const SYMBOL_SHORT = { heart: "heart", claw: "claw", season: "season", trap: "trap" };
const COLOUR_NAMES = { red: "Temperate", blue: "Boreal" };
const OBJECTIVES = {
  wolf_pack: { title: "Wolf pack", rule: "highest total wins" },
  lone_wolf: { title: "Lone wolf", rule: "lowest total wins" },
};
const REASONS = {
  mating: "mating (a second heart)",
  totals: "totals",
  all_trapped: "everyone trapped",
};
const TEAM_MARKS = [
  { letter: "A", symbol: "◆" },
  { letter: "B", symbol: "✦" },
  { letter: "C", symbol: "⬟" },
];

// UI-only memory of the last drawing: the objective side (to flip the card visibly when it
// turns), the cards already ringed as new and the round result already announced (each
// animates once, not again at every redraw).
let shown = { key: null, objective: null, recent: new Set(), banner: null };

// ----- the game module -------------------------------------------------------------------
export function draw(ctx) {
  const view = ctx.view;
  const table = new Table(ctx);
  const flipped = shown.key === table.key && shown.objective !== null && shown.objective !== view.objective;
  table.arrived = shown.recent;
  table.announced = shown.banner;

  const seats = table.order();
  const me = seats[0];
  const others = seats.slice(1);
  const spots = { left: [], top: [], right: [] };
  const where = positions(others.length);
  others.forEach((s, k) => spots[where[k]].push(table.seatPanel(s, false)));
  const board = h("div", {
    class: `amarok players-${view.players}${view.teams ? " teams" : ""}`,
    dataset: { phase: view.phase }, ref: (node) => aboveTheBar(node),
  },
  h("div", { class: "amk-ring" },
    ["top", "left", "right"].map((side) => h("div", { key: side, class: `amk-spot amk-${side}` }, spots[side])),
    table.centre(flipped)),
  table.roundBanner(),
  table.seatPanel(me, table.you === me, "amk-own"));
  const bar = table.fallbackButtons();
  shown = { key: table.key, objective: view.objective, recent: table.recent,
    banner: view.last_round ? view.last_round.round : null };
  return { board, bar };
}

export function score(ctx) {
  return new Table(ctx).scoreSheet();
}

export function label(action, ctx) {
  return new Table(ctx).describe(action);
}

// Where the other seats sit, clockwise from the viewer's left (seat + 1 plays next after you).
function positions(count) {
  return {
    1: ["top"],
    2: ["left", "right"],
    3: ["left", "top", "right"],
    4: ["left", "top", "top", "right"],
    5: ["left", "top", "top", "top", "right"],
  }[count] || Array(count).fill("top");
}

// ----- one drawing of the table ----------------------------------------------------------
class Table {
  constructor(ctx) {
    this.ctx = ctx;
    this.view = ctx.view;
    this.cards = new Map((this.view.cards || []).map((c) => [c.id, c]));
    this.legal = ctx.legal || [];
    this.used = new Set();  // indexes into legal that some element acts
    this.key = `${this.view.game}:${this.view.round}`;
    this.recent = recentCards(ctx);
    this.arrived = new Set();  // the cards the previous drawing already ringed as new
    this.announced = null;     // the round whose result the previous drawing showed
    this.viewer = ctx.seat ?? this.view.seat ?? null;
    // "you" for the person at this seat; a replay seen by a seat names it like the others
    this.you = ctx.mode === "replay" ? null : this.viewer;
  }

  order() {
    const n = this.view.players;
    const base = this.viewer ?? 0;
    return Array.from({ length: n }, (_, k) => (base + k) % n);
  }

  name(seat) {
    if (seat === this.you && seat !== null) return "you";
    return this.ctx.seatName ? this.ctx.seatName(seat) : seatNameOf(this.ctx.seats, seat);
  }

  capName(seat) {
    const s = this.name(seat);
    return s.charAt(0).toUpperCase() + s.slice(1);
  }

  possessive(seat) {
    return seat === this.you && seat !== null ? "your" : `${this.name(seat)}'s`;
  }

  // ----- legal actions: find the ones an element acts, and wire it --------------------------
  find(test) {
    const out = [];
    this.legal.forEach((a, i) => { if (test(a)) out.push(i); });
    return out;
  }

  // The props that make an element act the legal action matched by `test` (the first one):
  // null when none is legal (or in a replay).
  bind(test, what) {
    const found = this.find(test);
    if (!found.length || this.ctx.mode === "replay") return null;
    found.forEach((i) => this.used.add(i));
    const action = this.legal[found[0]];
    return withHint({
      "data-action": JSON.stringify(action),  // one of ctx.legal, as sent: tests read which move it makes
      "aria-label": what || this.describe(action),
      title: this.describe(action),
      onclick: (event) => { event.preventDefault(); this.ctx.act(action); },
    }, hintFor(this.ctx, found.map((i) => this.legal[i])));
  }

  // Any legal action the table could not show (never expected): plain buttons for the bar.
  fallbackButtons() {
    if (this.ctx.mode === "replay") return null;
    const out = [];
    this.legal.forEach((action, i) => {
      if (this.used.has(i)) return;
      const text = this.describe(action);
      out.push(h("button", withHint({
        key: JSON.stringify(action), type: "button", class: "legal", "aria-label": text, onclick: () => this.ctx.act(action),
      }, hintFor(this.ctx, [action])), text));
    });
    return out.length ? out : null;
  }

  // ----- cards ---------------------------------------------------------------------------
  cardText(id) {
    const c = this.cards.get(id);
    if (!c) return String(id);
    const bits = [`${c.colour} ${c.value}`];
    if (c.symbol) bits.push(SYMBOL_WORDS[c.symbol] || c.symbol);
    return `${id} (${bits.join(", ")})`;
  }

  // A face-up card: a <button> when `bound` (the props of bind(): it acts a legal move), else
  // an image with its name (or `label`). `props`: more attributes (data-slot, ...).
  face(id, { bound = null, extra = "", label = null, props = {} } = {}) {
    const c = this.cards.get(id) || { id, colour: "", value: "?", symbol: null };
    const colour = COLOUR_NAMES[c.colour] ? c.colour : "other";
    const recent = this.recent.has(id) ? ` recent${this.arrived.has(id) ? "" : " amk-arrive"}` : "";
    return h(bound ? "button" : "div", {
      key: `card-${id}`,
      ...props,
      ...bound,
      class: `card face amk-${colour}${c.symbol ? ` amk-sym-${c.symbol}` : ""}${extra ? ` ${extra}` : ""}${recent}${bound ? " legal" : ""}`,
      dataset: { ...props.dataset, card: typeof id === "string" ? id : JSON.stringify(id) },
      type: bound ? "button" : null,
      role: bound ? null : "img",
      "aria-label": bound ? bound["aria-label"] : label || this.cardText(id),
      title: bound ? bound.title : this.cardText(id),
    },
    h("span", { class: "amk-value" }, String(c.value)),
    h("span", { class: "amk-kind", "aria-hidden": "true" }, colourIcon(c.colour),
      h("span", { class: "amk-colour-name" }, COLOUR_NAMES[c.colour] || c.colour)),
    c.symbol ? h("span", { class: "amk-symbol", "aria-hidden": "true" },
      symbolIcon(c.symbol), h("span", {}, SYMBOL_SHORT[c.symbol] || c.symbol)) : null,
    h("span", { class: "amk-id", "aria-hidden": "true" }, String(id)));
  }

  // A face-down card (no data-card); `lost` marks a card of your own you cannot see.
  back(text, { bound = null, lost = false, extra = "", props = {} } = {}) {
    return h(bound ? "button" : "div", {
      ...props,
      ...bound,
      class: `card back${lost ? " amk-lost" : ""}${extra ? ` ${extra}` : ""}${bound ? " legal" : ""}`,
      type: bound ? "button" : null,
      role: bound ? null : "img",
      "aria-label": bound ? bound["aria-label"] : text,
      title: bound ? bound.title : text,
    }, h("span", { class: "amk-back-mark", "aria-hidden": "true" }, lost ? "?" : pawIcon()));
  }

  emptySlot(text, key = null) {
    return h("div", { key, class: "card amk-empty", role: "img", "aria-label": text, title: text });
  }

  // ----- a seat: badge, level, hand, cards in front ------------------------------------------
  seatPanel(seat, mine, extra = "") {
    const view = this.view;
    const acting = (view.acting || []).includes(seat);
    const info = (this.ctx.seats || []).find((s) => s.seat === seat);
    return h("section", {
      key: `seat-${seat}`,
      class: `amk-seat${acting ? " acting" : ""}${mine ? " mine" : ""}${extra ? ` ${extra}` : ""}`,
      dataset: { seat: String(seat) },
      "aria-label": seat === this.you ? "your place" : `${this.capName(seat)}'s place`,
      style: `--seat:${seatColour(seat).css}`,
    },
    h("header", { class: "amk-seat-head" },
      this.badge(seat),
      this.teamMark(seat),
      view.objective_holder === seat && !view.terminal
        ? h("span", { class: "amk-holder", title: "holds the objective card" }, "objective") : null,
      acting && !view.terminal && !this.ctx.waiting ? h("span", { class: "amk-turn" },
        info && info.kind === "ai" ? h("span", { class: "spinner", "aria-hidden": "true" }) : null,
        mine ? (view.phase === "claw" ? "your claw" : "your turn") : (view.phase === "claw" ? "claws" : "to play")) : null,
      this.levelTrack(seat)),
    mine && acting && this.legal.length ? this.prompt() : null,
    h("div", { class: "amk-seat-body" }, this.hand(seat), this.front(seat)));
  }

  // A seat's badge, by the name the page knows it by.
  badge(seat) {
    return seatBadge(seat, this.ctx.seatName ? this.ctx.seatName(seat) : seatNameOf(this.ctx.seats, seat));
  }

  prompt() {
    const claw = this.view.phase === "claw";
    return h("p", { class: "amk-prompt" },
      claw ? "Your claw: pick a highlighted card to send to the bottom of the deck."
        : "Your turn: take a highlighted card; it is played in front of you.",
      h("span", { class: "amk-prompt-more" }, claw ? " Any card but the claw itself: in front of anyone, in a hand, in the river, or the top of the deck."
        : " From your hand, the river, the deck or another player's hand."));
  }

  teamMark(seat) {
    const teams = this.view.teams;
    if (!teams) return null;
    const t = teams.findIndex((team) => team.includes(seat));
    if (t < 0) return null;
    const mark = TEAM_MARKS[t % TEAM_MARKS.length];
    return h("span", { class: `amk-team amk-team-${t}`, title: `team ${mark.letter}` },
      h("span", { "aria-hidden": "true" }, mark.symbol), ` team ${mark.letter}`);
  }

  levelTrack(seat) {
    const wins = Math.round(Number((this.view.scores || [])[seat] || 0));
    const target = this.view.rounds_to_win || 3;
    const pips = [];
    for (let k = 0; k < Math.max(target, wins); k++) {
      pips.push(h("span", { class: `amk-pip${k < wins ? " won" : ""}`, "aria-hidden": "true" }, k < wins ? "★" : "☆"));
    }
    return h("span", { class: "amk-level", dataset: { level: String(wins) },
      title: `${wins} of ${target} round wins` },
    ...pips, h("span", { class: "amk-level-text" }, `${wins}/${target}`));
  }

  hand(seat) {
    const slots = (this.view.hands || [])[seat] || [];
    return h("div", { class: "amk-hand", "aria-label": `${this.possessive(seat)} hand` },
      h("span", { class: "amk-zone-label" }, "Hand"),
      h("div", { class: "amk-cards" }, [0, 1].map((k) => this.handSlot(seat, k, slots[k]))));
  }

  handSlot(seat, k, slot) {
    const own = seat === this.viewer;
    const where = `${this.possessive(seat)} hand, slot ${k + 1}`;
    if (!slot) return this.emptySlot(`${where}: empty`, `slot-${k}`);
    const claw = this.view.phase === "claw";
    const target = (a) => (claw
      ? a.type === "claw_hand" && a.seat === seat && a.slot === k
      : own ? a.type === "take_own" && a.slot === k
        : slot.card !== null ? a.type === "take_seen" && a.seat === seat && a.card === slot.card
          : a.type === "take_unseen" && a.seat === seat);
    const bound = this.bind(target);
    const props = { dataset: { slot: String(k), facing: slot.facing } };
    let el;
    if (slot.card !== null && slot.card !== undefined) {
      el = this.face(slot.card, { bound, extra: own ? "" : "amk-shown", label: `${where}: ${this.cardText(slot.card)}`, props });
    } else if (own) {
      el = this.back(`${where}: a card facing the others (you cannot see it)`, { bound, lost: true, props });
    } else {
      el = this.back(`${where}: a card facing ${this.name(seat)}`, { bound, props });
    }
    // From a seat, a card shows how it is held (face up: it faces you); the spectator sees
    // only backs, so it reads the way each card is held under it.
    return h("div", { key: `slot-${k}`, class: "amk-slot" }, el, this.viewer === null
      ? h("span", { class: "amk-facing" }, slot.facing === "owner" ? "owner sees" : "others see") : null);
  }

  front(seat) {
    const view = this.view;
    const cards = (view.fronts || [])[seat] || [];
    const empty = [];
    for (let k = cards.length; k < 2; k++) empty.push(this.emptySlot(`in front of ${this.name(seat)}: no card yet`, `empty-${k}`));
    return h("div", { class: "amk-front", "aria-label": `cards in front of ${this.name(seat)}` },
      h("span", { class: "amk-zone-label" }, "In front"),
      h("div", { class: "amk-cards" }, cards.map((id, k) => {
        const target = (a) => a.type === "claw_front" && a.seat === seat && a.card === id;
        const pendingClaw = view.phase === "claw" && (view.acting || []).includes(seat) && k === cards.length - 1;
        return this.face(id, { bound: this.bind(target, `claw ${this.cardText(id)} in front of ${this.name(seat)}`),
          extra: pendingClaw ? "amk-claw-pending" : "" });
      }), empty),
      this.totalLine(seat, cards));
  }

  totalLine(seat, cards) {
    const values = cards.map((id) => Number((this.cards.get(id) || {}).value || 0));
    const total = values.reduce((a, b) => a + b, 0);
    const symbols = cards.map((id) => (this.cards.get(id) || {}).symbol);
    const bits = [h("span", { class: "amk-total", dataset: { total: String(total) } }, `total ${total}`)];
    if (symbols.includes("trap")) bits.push(h("span", { class: "amk-flag trap" }, "⚠ trapped"));
    const hearts = symbols.filter((s) => s === "heart").length;
    if (hearts === 1 && cards.length < 2) bits.push(h("span", { class: "amk-flag heart" }, "♥ one heart"));
    return h("div", { class: "amk-total-line" }, ...bits);
  }

  // ----- the middle of the table: objective, river, deck ------------------------------------
  centre(flipped) {
    return h("section", { class: "amk-centre", "aria-label": "the middle of the table" },
      this.objectiveCard(flipped),
      h("div", { class: "amk-middle" }, this.river(), this.deck()),
      this.view.teams ? this.teamTotals() : null);
  }

  objectiveCard(flipped) {
    const view = this.view;
    const o = OBJECTIVES[view.objective] || { title: view.objective, rule: "" };
    const recent = this.recent.has("@objective");
    return h("div", {
      class: `amk-objective amk-${view.objective}${flipped ? " flip" : ""}${recent ? " recent" : ""}`,
      dataset: { objective: view.objective },
      role: "img",
      "aria-label": `Objective: ${o.title}, ${o.rule}`,
    },
    objectiveArt(view.objective),
    h("div", { class: "amk-objective-text" },
      h("strong", {}, o.title),
      h("span", {}, o.rule),
      h("span", { class: "amk-objective-round" },
        `Round ${view.round}`, view.objective_holder !== null && view.objective_holder !== undefined
          ? ` · held by ${this.name(view.objective_holder)}` : "")));
  }

  river() {
    const river = this.view.river || [];
    return h("div", { class: "amk-river", "aria-label": "the river" },
      h("span", { class: "amk-zone-label" }, "River"),
      h("div", { class: "amk-cards" },
        river.map((id) => this.face(id, { bound: this.bind((a) => (a.type === "take_river" || a.type === "claw_river") && a.card === id) })),
        river.length ? null : this.emptySlot("the river is empty", "empty")));
  }

  deck() {
    const view = this.view;
    const count = view.deck_size || 0;
    const bound = count ? this.bind((a) => a.type === "take_deck" || a.type === "claw_deck") : null;
    const top = count ? this.back(`the deck: ${count} card${count === 1 ? "" : "s"}`, { bound, extra: "amk-deck-top" })
      : this.emptySlot("the deck is empty");
    const bottom = view.deck_bottom || [];
    return h("div", { class: "amk-deck", "aria-label": "the deck" },
      h("span", { class: "amk-zone-label" }, "Deck"),
      h("div", { class: "amk-stack" }, top,
        h("span", { class: "amk-count", dataset: { count: String(count) } }, `${count} card${count === 1 ? "" : "s"}`)),
      bottom.length ? h("div", { class: "amk-bottom", "aria-label": "cards clawed to the bottom of the deck, upper to lowest" },
        h("span", { class: "amk-zone-label" }, "At the bottom"),
        h("div", { class: "amk-cards mini" }, bottom.map((id) => this.face(id, { extra: "mini" })))) : null);
  }

  teamTotals() {
    const view = this.view;
    const rows = view.teams.map((team, t) => {
      const total = team.reduce((sum, s) => sum + ((view.fronts || [])[s] || [])
        .reduce((acc, id) => acc + Number((this.cards.get(id) || {}).value || 0), 0), 0);
      const trapped = team.some((s) => ((view.fronts || [])[s] || []).some((id) => (this.cards.get(id) || {}).symbol === "trap"));
      const mark = TEAM_MARKS[t % TEAM_MARKS.length];
      return h("li", { class: `amk-team-total amk-team-${t}`, dataset: { team: String(t), total: String(total) } },
        h("span", { "aria-hidden": "true" }, mark.symbol), ` Team ${mark.letter} (`,
        this.words(team.flatMap((s, k) => (k ? [" & ", { seat: s }] : [{ seat: s }]))), `): ${total}`, trapped ? " ⚠ trapped" : "");
    });
    return h("div", { class: "amk-teams" },
      h("span", { class: "amk-zone-label" }, "Team totals"), h("ul", {}, ...rows));
  }

  // ----- the last round's result ------------------------------------------------------------
  roundBanner() {
    const view = this.view;
    const last = view.last_round;
    if (!last || view.terminal) return h("div", { class: "amk-round-banner", hidden: true });
    const entry = lastEntry(this.ctx.log, "round_end");
    const fresh = (this.ctx.fresh || []).some((e) => e.kind === "round_end")
      || (entry && entry.i > lastOwnIndex(this.ctx.log, this.viewer));
    const winners = last.winners || [];
    const o = OBJECTIVES[last.objective] || { title: last.objective, rule: "" };
    let why;
    if (last.reason === "mating") {
      why = [{ seat: last.mating_seat }, " put a second heart in front (mating)"];
    } else if (last.reason === "all_trapped") {
      why = ["everyone was trapped by a wolf trap"];
    } else {
      why = [`${o.title}, ${o.rule}: `, ...this.unitTotals(last, entry)];
    }
    const units = view.teams ? new Set(winners.map((w) => view.teams.findIndex((team) => team.includes(w)))).size : winners.length;
    const plural = units > 1 || (winners.length === 1 && winners[0] === this.you);
    const won = winners.length ? [...this.unitParts(winners), ` ${plural ? "win" : "wins"} round ${last.round}`]
      : [`Nobody wins round ${last.round}`];
    const said = [h("strong", {}, this.words(won, true)), h("span", {}, " — ", this.words(why, true), ".")];
    return h("div", {
      class: `amk-round-banner${fresh ? " fresh" : ""}${fresh && this.announced !== last.round ? " amk-arrive" : ""}`,
      role: "status",
      title: textOf(said),
      dataset: { round: String(last.round), winners: JSON.stringify(winners) },
    }, said);
  }

  // A sentence of strings and {seat: n} as nodes: seats as their badges (name, colour, symbol),
  // "you" for the person at this seat; `capital` starts it with a capital letter.
  words(sentence, capital = false) {
    const list = sentence.slice();
    if (capital && typeof list[0] === "string") list[0] = cap(list[0]);
    return parts(list, this.ctx.seats, "", {
      names: (s) => (s === this.you && s !== null ? "you" : this.name(s)), capital,
    });
  }

  // "the team of Ann and Cleo" (a team), "Ann" (a seat): as parts.
  unitParts(seats) {
    const view = this.view;
    const units = view.teams
      ? [...new Set(seats.map((s) => view.teams.findIndex((team) => team.includes(s))))].map((t) => this.teamParts(t))
      : seats.map((s) => [{ seat: s }]);
    const out = [];
    units.forEach((u, k) => {
      if (k) out.push(k === units.length - 1 ? " and " : ", ");
      out.push(...u);
    });
    return out;
  }

  teamParts(t) {
    const team = this.view.teams[t];
    const out = ["the team of "];
    team.forEach((s, k) => {
      if (k) out.push(k === team.length - 1 ? " and " : ", ");
      out.push({ seat: s });
    });
    return out;
  }

  unitTotals(last, entry) {
    const view = this.view;
    const trapped = last.trapped || [];
    const out = [];
    if (view.teams) {
      const totals = entry && entry.team_totals;
      view.teams.forEach((team, t) => {
        const value = totals ? totals[t] : (last.totals || [])[team[0]];
        const isTrapped = team.some((s) => trapped[s]);
        if (t) out.push(", ");
        out.push(...this.teamParts(t), `: ${value}${isTrapped ? " (trapped)" : ""}`);
      });
      return out;
    }
    (last.totals || []).forEach((v, s) => {
      if (s) out.push(", ");
      out.push({ seat: s }, `: ${v}${trapped[s] ? " (trapped)" : ""}`);
    });
    return out;
  }

  // ----- moves as text ------------------------------------------------------------------------
  describe(action) {
    const view = this.view;
    const hands = view.hands || [];
    switch (action.type) {
      case "take_own": {
        const slot = ((hands[this.viewer] || [])[action.slot]) || {};
        return slot.card ? `Take ${this.cardText(slot.card)} from your hand (slot ${action.slot + 1})`
          : `Take the unseen card in your hand (slot ${action.slot + 1})`;
      }
      case "take_river": return `Take ${this.cardText(action.card)} from the river`;
      case "take_deck": return `Take the top card of the deck (${view.deck_size} left)`;
      case "take_seen": return `Take ${this.cardText(action.card)} from ${this.possessive(action.seat)} hand`;
      case "take_unseen": return `Take an unseen card from ${this.possessive(action.seat)} hand (at random)`;
      case "claw_front": return `Claw ${this.cardText(action.card)} in front of ${this.name(action.seat)}`;
      case "claw_hand": {
        const slot = ((hands[action.seat] || [])[action.slot]) || {};
        const what = slot.card ? this.cardText(slot.card) : "the unseen card";
        return `Claw ${what} in ${this.possessive(action.seat)} hand (slot ${action.slot + 1})`;
      }
      case "claw_river": return `Claw ${this.cardText(action.card)} in the river`;
      case "claw_deck": return "Claw the top card of the deck";
      default: return JSON.stringify(action);
    }
  }

  // ----- the final breakdown ------------------------------------------------------------------
  scoreSheet() {
    const view = this.view;
    this.recent = new Set();  // the sheet shows whole rounds: nothing in it is "just happened"
    const n = view.players;
    const seats = Array.from({ length: n }, (_, s) => s);
    const levels = view.scores || [];
    const target = view.rounds_to_win || 3;
    const winners = view.winners || [];
    const head = h("tr", {}, h("th", { scope: "col" }, "Seat"),
      h("th", { scope: "col" }, "Round wins"), view.teams ? h("th", { scope: "col" }, "Team") : null);
    const body = seats.map((s) => h("tr", {
      class: winners.includes(s) ? "winner" : "", dataset: { seat: String(s), level: String(Math.round(Number(levels[s] || 0))) },
    },
    h("th", { scope: "row" }, this.badge(s),
      winners.includes(s) ? h("span", { class: "amk-flag win" }, " ★ winner") : null),
    h("td", { class: "amk-final-level" }, String(Math.round(Number(levels[s] || 0)))),
    view.teams ? h("td", {}, this.teamMark(s)) : null));
    const levelTable = [h("h3", { class: "amk-caption" }, `Final levels: round wins (the first to reach ${target} takes the game)`),
      h("div", { class: "amk-table-scroll" }, h("table", { class: "amk-levels" },
        h("thead", {}, head), h("tbody", {}, ...body)))];

    const rounds = (this.ctx.log || []).filter((e) => e.kind === "round_end");
    const rhead = h("tr", {}, h("th", { scope: "col" }, "Round"),
      h("th", { scope: "col" }, "Objective"), h("th", { scope: "col" }, "Ended by"),
      ...seats.map((s) => h("th", { scope: "col" }, this.badge(s))),
      view.teams ? h("th", { scope: "col" }, "Team totals") : null,
      h("th", { scope: "col" }, "Winners"));
    const rrows = rounds.map((e) => {
      const trapped = new Set(e.trapped || []);
      const o = OBJECTIVES[e.objective] || { title: e.objective, rule: "" };
      return h("tr", { class: "amk-round-row", dataset: { round: String(e.round), winners: JSON.stringify(e.winners || []) } },
        h("th", { scope: "row" }, String(e.round)),
        h("td", {}, `${o.title} (${o.rule})`),
        h("td", {}, e.reason === "mating" ? this.words(["mating by ", { seat: e.player }]) : (REASONS[e.reason] || e.reason)),
        ...seats.map((s) => h("td", {
          class: `amk-round-cell${(e.winners || []).includes(s) ? " winner" : ""}${trapped.has(s) ? " trapped" : ""}`,
          dataset: { seat: String(s), total: String((e.totals || [])[s]) },
        },
        h("div", { class: "amk-cards mini" }, ...((e.fronts || [])[s] || []).map((id) => this.face(id, { extra: "mini" }))),
        h("span", {}, `total ${(e.totals || [])[s]}`),
        trapped.has(s) ? h("span", { class: "amk-flag trap" }, " ⚠ trapped") : null,
        (e.winners || []).includes(s) ? h("span", { class: "amk-flag win" }, " ★ wins") : null,
        h("span", { class: "amk-after" }, ` → ${(e.levels || [])[s]}`))),
        view.teams ? h("td", {}, (e.team_totals || []).map((v, t) => `${TEAM_MARKS[t % 3].symbol} ${TEAM_MARKS[t % 3].letter}: ${v}`).join(", ")) : null,
        h("td", { class: "amk-winners" }, (e.winners || []).length ? this.words(this.unitParts(e.winners), true) : "nobody"));
    });
    return h("div", { class: "amarok amk-score" }, levelTable,
      h("h3", { class: "amk-caption" }, "Round by round: the cards in front, totals, traps and round wins after the round"),
      h("div", { class: "amk-table-scroll" }, h("table", { class: "amk-rounds" },
        h("thead", {}, rhead), h("tbody", {}, ...rrows))));
  }
}

// ----- what just happened ------------------------------------------------------------------
// Cards moved by other seats since the viewer's last move: taken cards (now in front) and
// clawed cards (now at the bottom of the deck); "@objective" when a season card turned it.
function recentCards(ctx) {
  const out = new Set();
  const viewer = ctx.mode === "play" ? ctx.seat ?? null : null;  // a replay rings every last move
  for (const e of ctx.fresh || []) {
    if (e.kind === "take" || e.kind === "claw") {
      if (e.seat !== null && e.seat !== viewer && e.card) out.add(e.card);
    } else if (e.kind === "season" && e.player !== viewer) {
      out.add("@objective");
    }
  }
  return out;
}

function lastEntry(log, kind) {
  for (let k = (log || []).length - 1; k >= 0; k--) if (log[k].kind === kind) return log[k];
  return null;
}

function lastOwnIndex(log, seat) {
  if (seat === null || seat === undefined) return -1;
  for (let k = (log || []).length - 1; k >= 0; k--) if (log[k].seat === seat) return log[k].i;
  return -1;
}

function cap(text) { return text.charAt(0).toUpperCase() + text.slice(1); }

// ----- drawings (our own) -------------------------------------------------------------------
function icon(viewBox, ...children) {
  return svg("svg", { viewBox, class: "amk-icon", "aria-hidden": "true", focusable: "false" }, ...children);
}

function symbolIcon(symbol) {
  switch (symbol) {
    case "heart":
      return icon("0 0 24 24", svg("path", { d: "M12 21s-7.5-4.6-9.6-9.3C.9 8.2 3.2 4.5 6.8 4.5c2.2 0 3.9 1.3 5.2 3.1 1.3-1.8 3-3.1 5.2-3.1 3.6 0 5.9 3.7 4.4 7.2C19.5 16.4 12 21 12 21z" }));
    case "claw":
      return icon("0 0 24 24",
        svg("path", { d: "M6 3c3 5 3 12-1 18", class: "stroke" }),
        svg("path", { d: "M12 2c3 6 3 13-1 20", class: "stroke" }),
        svg("path", { d: "M18 3c3 5 3 12-1 18", class: "stroke" }));
    case "season":
      return icon("0 0 24 24",
        svg("path", { d: "M19 8a8 8 0 0 0-14-1", class: "stroke" }),
        svg("path", { d: "M5 3v4h4" , class: "stroke" }),
        svg("path", { d: "M5 16a8 8 0 0 0 14 1", class: "stroke" }),
        svg("path", { d: "M19 21v-4h-4", class: "stroke" }));
    case "trap":
      return icon("0 0 24 24",
        svg("path", { d: "M2 13a10 10 0 0 0 20 0z" }),
        svg("path", { d: "M2 13l3-5 3 5 4-6 4 6 3-5 3 5", class: "stroke" }));
    default:
      return icon("0 0 24 24", svg("circle", { cx: 12, cy: 12, r: 4 }));
  }
}

function colourIcon(colour) {
  if (colour === "red") {  // Temperate: a broad leaf
    return icon("0 0 24 24",
      svg("path", { d: "M12 2C6 6 4 12 7 18c1.3 2.6 3 3.6 5 4 2-.4 3.7-1.4 5-4 3-6 1-12-5-16z" }),
      svg("path", { d: "M12 6v17", class: "vein" }));
  }
  if (colour === "blue") {  // Boreal: a pine
    return icon("0 0 24 24",
      svg("path", { d: "M12 1l5 7h-3l5 6h-3l5 6H3l5-6H5l5-6H7z" }),
      svg("rect", { x: 10.5, y: 20, width: 3, height: 3.5 }));
  }
  return icon("0 0 24 24", svg("rect", { x: 5, y: 5, width: 14, height: 14, rx: 3 }));
}

function pawIcon() {
  return icon("0 0 24 24",
    svg("ellipse", { cx: 12, cy: 16, rx: 5, ry: 4.2 }),
    svg("ellipse", { cx: 5.5, cy: 10, rx: 2, ry: 2.6 }),
    svg("ellipse", { cx: 9.5, cy: 6, rx: 2, ry: 2.6 }),
    svg("ellipse", { cx: 14.5, cy: 6, rx: 2, ry: 2.6 }),
    svg("ellipse", { cx: 18.5, cy: 10, rx: 2, ry: 2.6 }));
}

function wolfHead(x, y, scale) {
  return svg("g", { transform: `translate(${x} ${y}) scale(${scale})`, class: "wolf" },
    svg("path", { d: "M-10 -12 L-5 -4 L5 -4 L10 -12 L11 2 L6 9 L0 14 L-6 9 L-11 2 Z" }),
    svg("path", { d: "M-3 9 L0 14 L3 9 Z", class: "snout" }),
    svg("circle", { cx: -4.5, cy: 1.5, r: 1.4, class: "eye" }),
    svg("circle", { cx: 4.5, cy: 1.5, r: 1.4, class: "eye" }));
}

function objectiveArt(objective) {
  const scene = objective === "lone_wolf"
    ? [svg("circle", { cx: 88, cy: 22, r: 13, class: "moon" }),
      svg("path", { d: "M0 80 L30 52 L55 68 L80 46 L120 74 L120 80 Z", class: "hill" }),
      wolfHead(50, 40, 1.6)]
    : [svg("path", { d: "M0 80 L25 58 L60 70 L95 54 L120 66 L120 80 Z", class: "hill" }),
      wolfHead(28, 44, 1.05), wolfHead(92, 44, 1.05), wolfHead(60, 36, 1.35)];
  return svg("svg", { viewBox: "0 0 120 80", class: "amk-objective-art", "aria-hidden": "true", focusable: "false" }, scene);
}
